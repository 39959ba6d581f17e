package org.approxgp.report;

import java.math.BigDecimal;
import java.math.MathContext;
import java.text.FieldPosition;
import java.text.NumberFormat;
import java.text.ParsePosition;
import java.util.ArrayList;
import java.util.List;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.NumericColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;
import tech.tablesaw.columns.numbers.NumberColumnFormatter;

/** Tablesaw tables as HTML. */
public final class Tables {

  private Tables() {
  }

  /** Inline style of a number cell: right-aligned, digits of equal width, never wrapped. */
  static final String NUMBER_STYLE = "text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap";
  /** Inline style of a text cell: left-aligned (prose reads from the left). */
  static final String TEXT_STYLE = "text-align: left";
  /** Inline style of a short text cell (a name, a label): left-aligned, not wrapped at its hyphens. */
  static final String SHORT_TEXT_STYLE = "text-align: left; white-space: nowrap";
  private static final int SHORT_TEXT = 24;
  private static final char FIGURE_SPACE = '\u2007';
  private static final char PUNCTUATION_SPACE = '\u2008';

  /**
   * The tags and attributes this class emits: all within what nbconvert's sanitiser keeps
   * ({@code clean_html} in nbconvert 7.17's {@code filters/strings.py}: bleach's default tags plus div, pre, code,
   * span, table, tr, td; attributes class and id), so that an export with {@code sanitize_html} (JupyterLab's
   * "Sanitize HTML", on by default) shows the same table rather than literal tags. The header is therefore a
   * first row of bold cells, not {@code <thead>}/{@code <th>}. The inline styles (alignment) are dropped by that
   * sanitiser and kept everywhere else. One literal {@code <tbody>} per table remains in a sanitised export: the
   * sanitiser's parser (html5lib) inserts the implicit tbody of every table and then escapes it.
   */
  static final java.util.Set<String> TAGS = java.util.Set.of("table", "tr", "td", "b");

  /**
   * The whole table as an HTML {@code <table>}, text escaped: a first row of bold column names, then the rows.
   * Text columns are left-aligned; number columns are right-aligned with tabular digits and padded on the right
   * with figure spaces (U+2007, a digit's width) and a punctuation space (U+2008, a point's width) so that their
   * decimal points line up, whatever the number of decimals of each cell. Inline styles, so the layout survives
   * nbconvert's and JupyterLab's style sheets (which right-align every cell); only {@link #TAGS}.
   */
  public static String toHtml(Table table) {
    StringBuilder sb = new StringBuilder("<table class=\"approxgp\">\n<tr class=\"approxgp-header\">");
    List<Column<?>> cols = table.columns();
    boolean[] numeric = new boolean[cols.size()];
    boolean[] shortText = new boolean[cols.size()];
    List<String[]> cells = new ArrayList<>();
    for (int c = 0; c < cols.size(); c++) {
      Column<?> col = cols.get(c);
      numeric[c] = col instanceof NumericColumn<?>;
      String[] v = new String[table.rowCount()];
      int longest = 0;
      for (int r = 0; r < v.length; r++) {
        v[r] = col.isMissing(r) ? "" : col.getString(r);
        longest = Math.max(longest, v[r].length());
      }
      shortText[c] = longest <= SHORT_TEXT;
      cells.add(numeric[c] ? alignDecimals(v) : v);
      sb.append("<td style=\"").append(numeric[c] ? NUMBER_STYLE : TEXT_STYLE).append("\"><b>")
          .append(escape(col.name())).append("</b></td>");
    }
    sb.append("</tr>\n");
    for (int r = 0; r < table.rowCount(); r++) {
      sb.append("<tr>");
      for (int c = 0; c < cols.size(); c++) {
        String style = numeric[c] ? NUMBER_STYLE : shortText[c] ? SHORT_TEXT_STYLE : TEXT_STYLE;
        sb.append("<td style=\"").append(style).append("\">").append(escape(cells.get(c)[r])).append("</td>");
      }
      sb.append("</tr>\n");
    }
    return sb.append("</table>").toString();
  }

  /**
   * Pads printed numbers on the right so their decimal points line up when right-aligned in tabular digits: a
   * number without a point gets a punctuation space for it, then figure spaces up to the column's longest tail
   * after the point. Empty cells (missing values) stay empty.
   */
  static String[] alignDecimals(String[] v) {
    int tail = 0;
    for (String s : v) {
      tail = Math.max(tail, tailAfterPoint(s));
    }
    String[] out = new String[v.length];
    for (int i = 0; i < v.length; i++) {
      String s = v[i];
      if (s.isEmpty() || tail == 0) {
        out[i] = s;
        continue;
      }
      int t = tailAfterPoint(s);
      StringBuilder b = new StringBuilder(s);
      if (t < 0) {
        b.append(PUNCTUATION_SPACE);
        t = 0;
      }
      b.append(String.valueOf(FIGURE_SPACE).repeat(tail - t));
      out[i] = b.toString();
    }
    return out;
  }

  /** Characters after the decimal point (-1 when there is none, or for text that is not a plain number). */
  private static int tailAfterPoint(String s) {
    int p = s.indexOf('.');
    return p < 0 ? -1 : s.length() - p - 1;
  }

  static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }

  /**
   * A copy of {@code table} whose double columns print with {@code digits} significant digits, trailing zeros
   * after the point dropped ({@code 7.9}, not {@code 7.900}: a paper's 7.9 is not shown with digits it never had)
   * — display only; the stored values are unchanged.
   */
  public static Table rounded(Table table, int digits) {
    if (digits < 1) {
      throw new IllegalArgumentException("digits must be >= 1");
    }
    Table copy = table.copy();
    for (Column<?> c : copy.columns()) {
      if (c instanceof DoubleColumn d) {
        d.setPrintFormatter(new NumberColumnFormatter(new SignificantDigits(digits)));
      }
    }
    return copy;
  }

  /** Formats a double with a fixed number of significant digits, plain notation for 1e-4 ≤ |x| < 1e7. */
  private static final class SignificantDigits extends NumberFormat {
    private final int digits;

    SignificantDigits(int digits) {
      this.digits = digits;
    }

    @Override
    public StringBuffer format(double x, StringBuffer sb, FieldPosition pos) {
      if (!Double.isFinite(x)) {
        return sb.append(x);
      }
      BigDecimal bd = new BigDecimal(x).round(new MathContext(digits));
      double ax = Math.abs(x);
      boolean plain = ax == 0 || (ax >= 1e-4 && ax < 1e7);
      if (plain) {
        String p = bd.toPlainString();
        return sb.append(p.indexOf('.') < 0 ? p : p.replaceAll("0+$", "").replaceAll("\\.$", ""));
      }
      return sb.append(bd.stripTrailingZeros().toString());
    }

    @Override
    public StringBuffer format(long x, StringBuffer sb, FieldPosition pos) {
      return sb.append(x);
    }

    @Override
    public Number parse(String source, ParsePosition pos) {
      throw new UnsupportedOperationException("display only");
    }
  }
}
