package org.approxgp.report;

import java.util.List;
import org.approxgp.reference.AnnealedImportanceSampling;
import org.approxgp.reference.Comparison;
import org.approxgp.reference.SampledPosterior;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.XYChart;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/** Tables and figures of approximate methods against a sampled truth ({@link Comparison}). */
public final class ComparisonViews {
  private ComparisonViews() {}

  /** The verdict table: one row per method, the columns of {@link Comparison#COLUMNS} (NaN where n/a). */
  public static Table table(List<Comparison> rows, SampledPosterior truth) {
    StringColumn method = StringColumn.create("method");
    DoubleColumn[] cols = new DoubleColumn[Comparison.COLUMNS.size() - 1];
    for (int j = 0; j < cols.length; j++) {
      cols[j] = DoubleColumn.create(Comparison.COLUMNS.get(j + 1));
    }
    for (Comparison c : rows) {
      method.append(c.method());
      double[] v = c.values(truth);
      for (int j = 0; j < cols.length; j++) {
        cols[j].append(v[j]);
      }
    }
    Table t = Table.create("methods against the sampled truth", method);
    t.addColumns(cols);
    return t;
  }

  /** One method's marginal variances against the truth's, with the diagonal (where they would agree). */
  public static XYChart variances(String method, double[] truthVariance, double[] methodVariance) {
    return Charts.scatterWithDiagonal(
        truthVariance,
        methodVariance,
        method,
        Charts.Labels.of(
            method + ": marginal variance against the truth",
            "true variance (sampled)",
            method + " variance"),
        "y = x (exact)");
  }

  /** Log-evidence error per method, with ± 2 AIS standard errors as error bars. */
  public static CategoryChart evidenceErrors(
      List<Comparison> rows, AnnealedImportanceSampling ais) {
    StringColumn method = StringColumn.create("method");
    DoubleColumn err = DoubleColumn.create("log-evidence error");
    DoubleColumn bar = DoubleColumn.create("2 se");
    StringColumn series = StringColumn.create("series");
    for (Comparison c : rows) {
      method.append(c.method());
      err.append(c.logEvidenceError());
      bar.append(2 * ais.standardError());
      series.append("method log Z - AIS log Z");
    }
    Table t = Table.create("evidence", method, err, bar, series);
    return Charts.bars(
        t,
        "method",
        "log-evidence error",
        "2 se",
        "series",
        Charts.Labels.of(
            "log-evidence error (error bars: 2 AIS standard errors)",
            "method",
            "log Z - AIS log Z"),
        "no value");
  }
}
