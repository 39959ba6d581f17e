package org.approxgp.report;

/**
 * A stand-alone HTML page in the look of the notebooks' exported reports (nbconvert's JupyterLab template): its
 * sans-serif body text at 14px in a centred column, headings, and its table rules (12px cells with 0.5em padding,
 * no cell borders, a rule under the header, odd rows shaded #f5f5f5, the hovered row tinted). Only that much of the
 * style sheet is copied, inline, so the page needs no file beside it.
 */
public final class HtmlPage {
  /** The style sheet. */
  static final String CSS = String.join(
      "\n",
      "body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;font-size:14px;",
      "  line-height:1.5;color:rgba(0,0,0,0.87);max-width:1100px;margin:0 auto;padding:16px 24px;background:#fff}",
      "h1{font-size:1.8em;margin:0.6em 0 0.4em}h2{font-size:1.45em;margin:1.2em 0 0.4em}",
      "table{border-collapse:collapse;border-spacing:0;border:none;font-size:12px;margin:1em 0}",
      "td,th{padding:0.5em;line-height:normal;border:none;vertical-align:middle}",
      "thead{border-bottom:1px solid rgba(0,0,0,0.87)}",
      "tbody tr:nth-child(odd){background:#f5f5f5}tbody tr:hover{background:rgba(66,165,245,0.2)}",
      "img{max-width:100%;height:auto;display:block;margin:1em 0}",
      "code{font-family:Menlo,Consolas,'DejaVu Sans Mono',monospace;font-size:13px}");

  private HtmlPage() {}

  /** A complete document with {@code title} (escaped here) and {@code body} (HTML, used as is). */
  public static String of(String title, String body) {
    return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
        + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>"
        + escape(title) + "</title>\n<style>\n" + CSS + "\n</style></head><body>\n" + body
        + "</body></html>\n";
  }

  /** {@code s} with &amp;, &lt;, &gt; and &quot; escaped. */
  public static String escape(String s) {
    return s.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
