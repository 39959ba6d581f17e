package org.approxgp.cli;

import java.nio.file.Path;
import java.util.List;
import org.approxgp.data.ColumnFile;
import org.approxgp.data.DataException;
import org.approxgp.data.RegressionData;
import org.approxgp.data.Standardizer;

/**
 * The rows {@code approxgp regress} fits and predicts, standardised on TRAIN (inputs column-wise, the target),
 * with what is needed to report in the data's units.
 *
 * @param train standardised training rows (targets standardised)
 * @param test standardised test rows (no targets)
 * @param yTest the test targets in their units, or null when TEST has no target column
 * @param yMean the training target's mean
 * @param ySd the training target's standard deviation (divisor n − 1)
 * @param featureNames input names, in column order
 * @param xScale each input's standard deviation on TRAIN (1 for a constant column)
 */
record RegressInputs(
    RegressionData train,
    RegressionData test,
    double[] yTest,
    double yMean,
    double ySd,
    List<String> featureNames,
    double[] xScale) {

  /**
   * Reads TRAIN and TEST from approxgp column files ({@link ColumnFile#readRows}): one n × d array per file,
   * standardised in place, so millions of rows cost their doubles and no more (CSV cells are first held as text).
   */
  static RegressInputs fromColumnFiles(String train, String test, String target) {
    ColumnFile.Rows tr;
    ColumnFile.Rows te;
    try {
      tr = ColumnFile.readRows(Path.of(train), target, null);
      if (!tr.data().hasTargets()) {
        throw CliException.badInput(train + ": no target column " + DataException.quote(target));
      }
      te = ColumnFile.readRows(Path.of(test), target, tr.features());
    } catch (DataException e) {
      throw CliException.badInput(e.getMessage());
    }
    RegressionData a = tr.data();
    if (a.n() < 2) {
      throw CliException.badInput(train + ": need at least 2 training rows, got " + a.n());
    }
    int n = a.n();
    int d = a.d();
    double[] x = a.x();
    double[] mean = new double[d];
    double[] scale = new double[d];
    double[] column = new double[n];
    for (int j = 0; j < d; j++) {
      boolean constant = true;
      for (int i = 0; i < n; i++) {
        column[i] = x[i * d + j];
        constant &= column[i] == column[0];
      }
      // the moments Standardizer.fit takes (divisor n); a constant column is left unscaled
      double[] ms = Standardizer.moments(column, 0);
      if (Double.isInfinite(ms[1])) {
        throw CliException.badInput(
            train + ": column " + DataException.quote(tr.features().get(j))
                + ": its standard deviation overflows a double");
      }
      mean[j] = ms[0];
      scale[j] = constant || ms[1] == 0 ? 1.0 : ms[1];
    }
    column = null;
    standardise(x, d, mean, scale);
    standardise(te.data().x(), d, mean, scale);
    double[] y = a.y();
    double[] my = Standardizer.moments(y, 1);
    if (Double.isInfinite(my[1])) {
      throw CliException.badInput(train + ": column " + DataException.quote(target)
          + ": its standard deviation" + " overflows a double; rescale the target");
    }
    if (!(my[1] > 0)) {
      throw CliException.badInput(train + ": column " + DataException.quote(target)
          + " is constant (" + my[0] + "); nothing to regress");
    }
    for (int i = 0; i < n; i++) {
      y[i] = (y[i] - my[0]) / my[1];
    }
    RegressionData testRows = new RegressionData(te.data().x(), te.data().n(), d, null);
    return new RegressInputs(a, testRows, te.data().y(), my[0], my[1], tr.features(), scale);
  }

  private static void standardise(double[] x, int d, double[] mean, double[] scale) {
    for (int i = 0; i < x.length; i++) {
      int j = i % d;
      x[i] = (x[i] - mean[j]) / scale[j];
    }
  }
}
