package org.approxgp.cli;

import java.nio.file.Path;
import java.util.List;
import org.approxgp.data.ColumnFile;
import org.approxgp.data.DataException;
import org.approxgp.data.Dataset;
import org.approxgp.data.Datasets;
import org.approxgp.data.InputWarp;
import org.approxgp.data.RegressionData;
import org.approxgp.data.Standardizer;
import org.approxgp.data.TargetKind;

/**
 * The rows {@code approxgp regress} fits and predicts, standardised on TRAIN (inputs column-wise, the target),
 * with what is needed to report in the data's units.
 *
 * @param train standardised training rows (targets standardised)
 * @param test standardised test rows (no targets)
 * @param yTest the test targets in their units, or null when TEST has no target column
 * @param yMean the training target's mean
 * @param ySd the training target's standard deviation (divisor n, as the inputs' and the notebooks' splits')
 * @param featureNames input names, in column order
 * @param xScale each input's standard deviation on TRAIN, after its warp (1 for a constant column)
 * @param warp the log warp applied to the inputs before the standardisation ({@link InputWarp#none()} when none)
 */
record RegressInputs(
    RegressionData train,
    RegressionData test,
    double[] yTest,
    double yMean,
    double ySd,
    List<String> featureNames,
    double[] xScale,
    InputWarp warp) {

  /**
   * Reads TRAIN and TEST from approxgp column files ({@link ColumnFile#readRows}): one n × d array per file,
   * standardised in place, so millions of rows cost their doubles and no more (CSV cells are first held as text).
   */
  static RegressInputs fromColumnFiles(String train, String test, String target, boolean warp) {
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
    RegressionData testRows = new RegressionData(te.data().x(), te.data().n(), a.d(), null);
    return standardised(train, target, a, testRows, te.data().y(), tr.features(), warp);
  }

  /** TRAIN and TEST from CSV files, standardised on TRAIN (the sVBSSGP paper, §5). */
  static RegressInputs fromCsv(String train, String test, String target, boolean warp) {
    Datasets.TrainTest data;
    try {
      data = Datasets.loadTrainTest(train, test, target, TargetKind.REAL, null);
    } catch (DataException e) {
      throw CliException.badInput(e.getMessage());
    }
    Dataset tr = data.train();
    Dataset te = data.test();
    if (tr.dimension() == 0) {
      throw CliException.badInput(
          train + ": row 1: no feature columns (every column except --target '" + target
              + "' is a feature, and there is none)");
    }
    if (tr.size() < 2) {
      throw CliException.badInput(train + ": need at least 2 training rows, got " + tr.size());
    }
    return standardised(
        train,
        target,
        RegressionData.of(tr.features(), tr.target()),
        RegressionData.of(te.features(), null),
        data.testHasTarget() ? te.target() : null,
        tr.featureNames(),
        warp);
  }

  /**
   * Warps (when {@code warp}, by {@link InputWarp#fit}'s rule on TRAIN) and then standardises freshly read rows in
   * place with TRAIN's statistics (inputs column-wise, the target), and keeps what reporting in the data's units
   * needs.
   */
  private static RegressInputs standardised(
      String train,
      String target,
      RegressionData rows,
      RegressionData testRows,
      double[] yTest,
      List<String> names,
      boolean warp) {
    InputWarp w = warp ? InputWarp.fit(rows.x(), rows.n(), rows.d()) : InputWarp.none();
    w.applyInPlace(rows.x(), rows.d());
    w.applyInPlace(testRows.x(), rows.d());
    Standardizer sx = fitInputs(train, rows.x(), rows.n(), rows.d(), names);
    sx.applyInPlace(rows.x());
    sx.applyInPlace(testRows.x());
    double[] my = targetMoments(train, target, rows.y());
    Standardizer.standardizeInPlace(rows.y(), my[0], my[1]);
    return new RegressInputs(rows, testRows, yTest, my[0], my[1], names, sx.scale(), w);
  }

  /**
   * The inputs' means and scales on TRAIN ({@link Standardizer#fit(double[], int, int, List)}, divisor n, a constant
   * column unscaled): the computation {@link org.approxgp.data.RegressionSplits#standardize} makes for the
   * notebooks, so both standardise alike.
   */
  private static Standardizer fitInputs(
      String train, double[] x, int n, int d, List<String> names) {
    try {
      return Standardizer.fit(x, n, d, names);
    } catch (IllegalArgumentException e) {
      throw CliException.badInput(train + ": " + e.getMessage());
    }
  }

  /** The target's mean and standard deviation on TRAIN (divisor n, as the inputs'), refusing a constant target. */
  private static double[] targetMoments(String train, String target, double[] y) {
    double[] my = Standardizer.moments(y, 0);
    if (Double.isInfinite(my[1])) {
      throw CliException.badInput(train + ": column " + DataException.quote(target)
          + ": its standard deviation" + " overflows a double; rescale the target");
    }
    if (!(my[1] > 0)) {
      throw CliException.badInput(train + ": column " + DataException.quote(target)
          + " is constant (" + my[0] + "); nothing to regress");
    }
    return my;
  }

  /** The warped inputs by name, in input order, each with its offset c (empty when none is warped). */
  java.util.Map<String, Double> warpedInputs() {
    java.util.Map<String, Double> out = new java.util.LinkedHashMap<>();
    int[] columns = warp.columns();
    double[] offsets = warp.offsets();
    for (int k = 0; k < columns.length; k++) {
      out.put(featureNames.get(columns[k]), offsets[k]);
    }
    return out;
  }

  /**
   * A learned length-scale beyond this many times its input's range on TRAIN marks the input as ignored: across the
   * whole range the squared-exponential correlation is then exp(−r²/(2ℓ²)) &gt; 1 − 5·10⁻⁷, so the input changes no
   * prediction (VSSGP has reported 2e15 and 1.2e9 for such inputs; their size means nothing).
   */
  static final double IGNORED_RATIO = 1e3;

  /** Each input's range (max − min) over the rows of {@code rows}. */
  static double[] ranges(RegressionData rows) {
    int d = rows.d();
    double[] lo = new double[d];
    double[] hi = new double[d];
    java.util.Arrays.fill(lo, Double.POSITIVE_INFINITY);
    java.util.Arrays.fill(hi, Double.NEGATIVE_INFINITY);
    double[] x = rows.x();
    for (int i = 0; i < x.length; i++) {
      int j = i % d;
      lo[j] = Math.min(lo[j], x[i]);
      hi[j] = Math.max(hi[j], x[i]);
    }
    double[] r = new double[d];
    for (int j = 0; j < d; j++) {
      r[j] = hi[j] - lo[j];
    }
    return r;
  }

  /**
   * The inputs whose length-scale exceeds {@link #IGNORED_RATIO} times their range (both on the same scale), in input
   * order; a constant input (range 0) is not named, as it cannot matter whatever its length-scale.
   */
  static List<String> ignoredInputs(double[] lengthscales, double[] ranges, List<String> names) {
    List<String> out = new java.util.ArrayList<>();
    for (int j = 0; j < lengthscales.length; j++) {
      if (ranges[j] > 0 && !(lengthscales[j] <= IGNORED_RATIO * ranges[j])) {
        out.add(names.get(j));
      }
    }
    return out;
  }
}
