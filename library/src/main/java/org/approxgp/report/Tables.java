package org.approxgp.report;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.text.FieldPosition;
import java.text.NumberFormat;
import java.text.ParsePosition;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;
import tech.tablesaw.columns.numbers.NumberColumnFormatter;
import tech.tablesaw.io.html.HtmlWriteOptions;
import tech.tablesaw.io.html.HtmlWriter;

/** Tablesaw tables as HTML. */
public final class Tables {

  private Tables() {
  }

  /** The whole table as an HTML {@code <table>} (tablesaw-html; text escaped). */
  public static String toHtml(Table table) {
    StringWriter w = new StringWriter();
    try {
      new HtmlWriter().write(table, HtmlWriteOptions.builder(w).escapeText(true).build());
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringWriter does not throw
    }
    return w.toString();
  }

  /**
   * A copy of {@code table} whose double columns print with {@code digits} significant digits
   * (display only; the stored values are unchanged).
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
      return sb.append(plain ? bd.toPlainString() : bd.toString());
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
