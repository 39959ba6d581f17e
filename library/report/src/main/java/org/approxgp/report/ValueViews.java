package org.approxgp.report;

import java.lang.reflect.Array;
import java.lang.reflect.RecordComponent;
import java.util.List;
import java.util.Locale;
import org.approxgp.inference.Prediction;
import org.approxgp.kernel.Kernel;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * How a notebook shows the library's plain values — predictions, kernels, arrays, config and summary records —
 * as small tables and one-line text, never as Java's {@code [D@436eb8ab}. One rounding rule for everything
 * shown: {@link #number}, 4 significant digits (stored results and CSV files keep every digit).
 */
public final class ValueViews {
  private ValueViews() {}

  /** Rows of an array or a prediction shown before "… n more". */
  static final int ROWS = 10;

  /** Significant digits of the project's one display rounding rule ({@link #number}). */
  public static final int DIGITS = 4;

  /**
   * The project's display rounding, the one rule for every number a notebook or report shows: {@value #DIGITS}
   * significant digits, trailing zeros after the point dropped (a paper's 7.9 shows as 7.9, 14.0 as 14), plain
   * notation for 1e-4 ≤ |x| &lt; 1e6, else {@code 1.235e-07}; NaN (no value) as "n/a". Stored results and CSV files keep every digit.
   */
  public static String number(double x) {
    return number(x, DIGITS);
  }

  /** {@link #number} with {@code digits} significant digits (the rule's digits; other counts for tests only). */
  static String number(double x, int digits) {
    if (x == 0 || !Double.isFinite(x)) {
      return x == 0 ? "0" : Double.isNaN(x) ? "n/a" : Double.toString(x);
    }
    double a = Math.abs(x);
    if (a >= 1e-4 && a < 1e6) {
      return new java.math.BigDecimal(x)
          .round(new java.math.MathContext(digits))
          .stripTrailingZeros()
          .toPlainString();
    }
    return String.format(Locale.ROOT, "%." + (digits - 1) + "e", x).replaceAll("\\.?0+e", "e");
  }

  /** The first rows of a prediction: latent mean and variance (and the standard deviation) per test point. */
  public static Table of(Prediction p) {
    int n = Math.min(p.size(), ROWS);
    IntColumn i = IntColumn.create("point");
    DoubleColumn m = DoubleColumn.create("latent mean");
    DoubleColumn v = DoubleColumn.create("latent variance");
    for (int k = 0; k < n; k++) {
      i.append(k);
      m.append(p.latentMean()[k]);
      v.append(p.latentVariance()[k]);
    }
    String title =
        "prediction at " + p.size() + " points" + (p.size() > n ? " (first " + n + ")" : "");
    return Tables.rounded(Table.create(title, i, m, v));
  }

  /** A kernel's hyperparameters on their natural scale, one row each. */
  public static Table of(Kernel k) {
    StringColumn name = StringColumn.create("hyperparameter");
    StringColumn value = StringColumn.create("value");
    double[] theta = k.logHyperparameters();
    List<String> names = k.hyperparameterNames();
    for (int j = 0; j < theta.length; j++) {
      name.append(names.get(j).replaceFirst("^log_", ""));
      value.append(number(Math.exp(theta[j])));
    }
    return Table.create(k.name(), name, value);
  }

  /** A record's components, one row each, values as {@link #text}. */
  public static Table of(Record r) {
    StringColumn name = StringColumn.create("component");
    StringColumn value = StringColumn.create("value");
    for (RecordComponent c : r.getClass().getRecordComponents()) {
      name.append(c.getName());
      try {
        c.getAccessor().setAccessible(true);
        value.append(text(c.getAccessor().invoke(r)));
      } catch (ReflectiveOperationException | RuntimeException e) {
        value.append("(unreadable)");
      }
    }
    return Table.create(r.getClass().getSimpleName(), name, value);
  }

  /**
   * One line for any value: numbers by {@link #number}, arrays as their first {@value #ROWS} entries and length,
   * records as {@code Name{a=…, b=…}}, kernels and predictions by their tables' content, else
   * {@link String#valueOf}.
   */
  public static String text(Object o) {
    if (o instanceof Double || o instanceof Float) {
      return number(((Number) o).doubleValue());
    }
    if (o instanceof Kernel k) {
      StringBuilder b = new StringBuilder(k.name()).append('(');
      Table t = of(k);
      for (int j = 0; j < t.rowCount(); j++) {
        b.append(j == 0 ? "" : ", ")
            .append(t.stringColumn(0).get(j))
            .append('=')
            .append(t.stringColumn(1).get(j));
      }
      return b.append(')').toString();
    }
    if (o instanceof Prediction p) {
      return "Prediction{" + p.size() + " points, latent mean " + text(p.latentMean())
          + ", latent variance " + text(p.latentVariance()) + "}";
    }
    if (o != null && o.getClass().isArray()) {
      int n = Array.getLength(o);
      StringBuilder b = new StringBuilder("[");
      for (int j = 0; j < Math.min(n, ROWS); j++) {
        b.append(j == 0 ? "" : ", ").append(text(Array.get(o, j)));
      }
      return b.append(n > ROWS ? ", … " + n + " values]" : "]").toString();
    }
    if (o instanceof Record r) {
      StringBuilder b = new StringBuilder(r.getClass().getSimpleName()).append('{');
      RecordComponent[] cs = r.getClass().getRecordComponents();
      for (int j = 0; j < cs.length; j++) {
        try {
          cs[j].getAccessor().setAccessible(true);
          b.append(j == 0 ? "" : ", ")
              .append(cs[j].getName())
              .append('=')
              .append(text(cs[j].getAccessor().invoke(r)));
        } catch (ReflectiveOperationException | RuntimeException e) {
          b.append(j == 0 ? "" : ", ").append(cs[j].getName()).append("=?");
        }
      }
      return b.append('}').toString();
    }
    if (o instanceof List<?> l) {
      return text(l.toArray());
    }
    return String.valueOf(o);
  }
}
