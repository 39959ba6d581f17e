package org.approxgp.report;

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

  private Tables() {}

  /** Inline style of a number cell: right-aligned, digits of equal width, never wrapped. */
  static final String NUMBER_STYLE =
      "text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap";
  /** Inline style of a text cell: left-aligned (prose reads from the left). */
  static final String TEXT_STYLE = "text-align: left";
  /** Inline style of a short text cell (a name, a label): left-aligned, not wrapped at its hyphens. */
  static final String SHORT_TEXT_STYLE = "text-align: left; white-space: nowrap";

  private static final int SHORT_TEXT = 24;
  /**
   * Separates a column's group from its own name ("EP · TE paper"): {@link #toHtml} shows the groups as a first
   * header row, each group's name once over its first column (no colspan, which the sanitiser drops).
   */
  public static final String GROUP = " · ";
  /** A text cell that reads as a number or "mean ± sd" (right-aligned like a number). */
  private static final java.util.regex.Pattern NUMBER_TEXT = java.util.regex.Pattern.compile(
      "-?[0-9][0-9.]*(e[-+]?[0-9]+)?( ± [0-9][0-9.]*(e[-+]?[0-9]+)?)?|n/a");

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
  static final java.util.Set<String> TAGS = java.util.Set.of("div", "table", "tr", "td", "b");

  /**
   * The box around every table: a table wider than the page scrolls sideways inside its cell instead of being cut
   * off at the page's edge (nbconvert's output cell is a {@code display: table-cell}, which grows with its content
   * and scrolls nothing, and the page hides what overflows). The width leaves room for the output prompt.
   */
  static final String SCROLL_BOX =
      "<div class=\"approxgp-scroll\" style=\"overflow-x: auto; max-width: calc(100vw - 10em)\">";

  /**
   * The whole table as an HTML {@code <table>} in a {@link #SCROLL_BOX}, text escaped: a first row of bold column names (preceded by a row
   * of group names when a column's name has a {@link #GROUP}), then the rows.
   * Text columns are left-aligned; number columns are right-aligned with tabular digits and padded on the right
   * with figure spaces (U+2007, a digit's width) and a punctuation space (U+2008, a point's width) so that their
   * decimal points line up, whatever the number of decimals of each cell; a text column whose every cell is a number
   * or "mean ± sd" is right-aligned too. Inline styles, so the layout survives
   * nbconvert's and JupyterLab's style sheets (which right-align every cell); only {@link #TAGS}.
   */
  public static String toHtml(Table table) {
    StringBuilder sb = new StringBuilder(SCROLL_BOX).append("<table class=\"approxgp\">\n");
    List<Column<?>> cols = table.columns();
    boolean grouped = cols.stream().anyMatch(c -> c.name().contains(GROUP));
    boolean[] numeric = new boolean[cols.size()];
    boolean[] shortText = new boolean[cols.size()];
    List<String[]> cells = new ArrayList<>();
    StringBuilder groups = new StringBuilder("<tr class=\"approxgp-header\">");
    StringBuilder names = new StringBuilder("<tr class=\"approxgp-header\">");
    String lastGroup = null;
    for (int c = 0; c < cols.size(); c++) {
      Column<?> col = cols.get(c);
      String[] v = new String[table.rowCount()];
      int longest = 0;
      boolean numberText = !(col instanceof NumericColumn<?>);
      for (int r = 0; r < v.length; r++) {
        v[r] = col.isMissing(r) ? "" : col.getString(r);
        longest = Math.max(longest, v[r].length());
        numberText &= v[r].isEmpty() || NUMBER_TEXT.matcher(v[r]).matches();
      }
      numeric[c] = col instanceof NumericColumn<?> || (numberText && v.length > 0);
      shortText[c] = longest <= SHORT_TEXT;
      cells.add(col instanceof NumericColumn<?> ? alignDecimals(v) : v);
      String style = numeric[c] ? NUMBER_STYLE : TEXT_STYLE;
      int g = col.name().indexOf(GROUP);
      String group = g < 0 ? "" : col.name().substring(0, g);
      String name = g < 0 ? col.name() : col.name().substring(g + GROUP.length());
      groups
          .append("<td style=\"")
          .append(TEXT_STYLE)
          .append("\"><b>")
          .append(group.equals(lastGroup) ? "" : escape(group))
          .append("</b></td>");
      lastGroup = group;
      names
          .append("<td style=\"")
          .append(style)
          .append("\"><b>")
          .append(escape(name))
          .append("</b></td>");
    }
    if (grouped) {
      sb.append(groups).append("</tr>\n");
    }
    sb.append(names).append("</tr>\n");
    for (int r = 0; r < table.rowCount(); r++) {
      sb.append("<tr>");
      for (int c = 0; c < cols.size(); c++) {
        String style = numeric[c] ? NUMBER_STYLE : shortText[c] ? SHORT_TEXT_STYLE : TEXT_STYLE;
        sb.append("<td style=\"")
            .append(style)
            .append("\">")
            .append(escape(cells.get(c)[r]))
            .append("</td>");
      }
      sb.append("</tr>\n");
    }
    return sb.append("</table></div>").toString();
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
    return s.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }

  /**
   * A copy of {@code table} whose double columns print by the project's one rounding rule ({@link
   * ValueViews#number}: 4 significant digits, trailing zeros after the point dropped, so a paper's 7.9 is not
   * shown as 7.900) — display only; the stored values are unchanged.
   */
  public static Table rounded(Table table) {
    return rounded(table, ValueViews.DIGITS);
  }

  /**
   * As {@link #rounded(Table)} with {@code digits} significant digits instead of the rule's 4; the library's own
   * notebooks and reports use {@link #rounded(Table)}.
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

  /** Formats a double by {@link ValueViews#number(double, int)}. */
  private static final class SignificantDigits extends NumberFormat {
    private final int digits;

    SignificantDigits(int digits) {
      this.digits = digits;
    }

    @Override
    public StringBuffer format(double x, StringBuffer sb, FieldPosition pos) {
      return sb.append(ValueViews.number(x, digits));
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
