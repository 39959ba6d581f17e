package org.approxgp.data;

import java.util.ArrayList;
import java.util.List;

/**
 * The sVBSSGP paper's evaluation protocol (Hoang, Hoang &amp; Low 2017, §5): "split into 95 % training data
 * and 5 % test data ... averaged over 5 random splits", with inputs (and optionally the target)
 * standardised by statistics of the training part only.
 */
public final class RegressionSplits {
  /** The paper's test fraction. */
  public static final double TEST_FRACTION = 0.05;
  /** The paper's number of random splits. */
  public static final int SPLITS = 5;

  private RegressionSplits() {}

  /**
   * The paper's five 95 % / 5 % splits of n rows: split i (0..4) is {@code Splits.random(n, 0.05, seed + i)}
   * (round(0.05·n) test rows, both index arrays ascending).
   */
  public static List<Split> paper(int n, long seed) {
    return random(n, TEST_FRACTION, SPLITS, seed);
  }

  /** {@code count} random splits, split i drawn with seed {@code seed + i}. */
  public static List<Split> random(int n, double testFraction, int count, long seed) {
    if (count < 1) {
      throw new IllegalArgumentException("need at least one split, got " + count);
    }
    List<Split> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      out.add(Splits.random(n, testFraction, seed + i));
    }
    return List.copyOf(out);
  }

  /**
   * Training and test rows of one split, standardised with the training part's statistics: input j becomes
   * (x_j − mean_j) / scale_j and, when the target is standardised, y becomes (y − yMean) / yScale. Means
   * and scales are the training part's means and population standard deviations (ddof 0; a constant column
   * has scale 1, as {@link Standardizer}); with the target left alone yMean = 0 and yScale = 1.
   * Predictions on the standardised scale map back by {@link #mean(double)} and {@link #variance(double)};
   * the paper's RMSE and MNLP are in the target's original units.
   *
   * @param train standardised training rows
   * @param test standardised test rows (test targets standardised with the training statistics)
   * @param xMean training input means
   * @param xScale training input scales
   * @param yMean training target mean (0 when the target is not standardised)
   * @param yScale training target scale (1 when the target is not standardised)
   */
  public record Standardized(
      RegressionData train,
      RegressionData test,
      double[] xMean,
      double[] xScale,
      double yMean,
      double yScale) {

    /** A predictive mean on the standardised scale in original units: yMean + yScale·m. */
    public double mean(double standardizedMean) {
      return yMean + yScale * standardizedMean;
    }

    /** A predictive variance on the standardised scale in original units: yScale²·v. */
    public double variance(double standardizedVariance) {
      return yScale * yScale * standardizedVariance;
    }

    /** The training input means (copy). */
    @Override
    public double[] xMean() {
      return xMean.clone();
    }

    /** The training input scales (copy). */
    @Override
    public double[] xScale() {
      return xScale.clone();
    }
  }

  /**
   * Copies the split's rows of {@code data} into a training and a test part and standardises them with the
   * training part's statistics (see {@link Standardized}); {@code data} is not modified. The statistics are
   * {@link Standardizer#fit(double[], int, int, java.util.List)}'s and {@link Standardizer#moments}' (two passes:
   * mean, then squared deviations), the same computation as {@code approxgp regress}'s.
   *
   * @param standardizeTarget whether to standardise the target too (it must then be known)
   */
  public static Standardized standardize(
      RegressionData data, Split split, boolean standardizeTarget) {
    if (standardizeTarget && !data.hasTargets()) {
      throw new IllegalArgumentException("cannot standardise unknown targets");
    }
    int[] trainRows = split.train();
    if (trainRows.length == 0) {
      throw new IllegalArgumentException("empty training part");
    }
    RegressionData tr = data.subset(trainRows);
    RegressionData te = data.subset(split.test());
    Standardizer sx = Standardizer.fit(tr.x(), tr.n(), data.d(), null);
    double yMean = 0;
    double yScale = 1;
    if (standardizeTarget) {
      double[] ms = Standardizer.moments(tr.y(), 0);
      yMean = ms[0];
      boolean yVaries = false;
      for (double v : tr.y()) {
        yVaries |= v != tr.y()[0];
      }
      yScale = yVaries && ms[1] > 0 ? ms[1] : 1.0;
    }
    double[] mean = sx.mean();
    double[] scale = sx.scale();
    return new Standardized(
        apply(tr, sx, yMean, yScale), apply(te, sx, yMean, yScale), mean, scale, yMean, yScale);
  }

  /** Standardises in place the freshly copied rows {@code r} and returns them. */
  private static RegressionData apply(
      RegressionData r, Standardizer sx, double yMean, double yScale) {
    sx.applyInPlace(r.x());
    if (r.y() != null) {
      Standardizer.standardizeInPlace(r.y(), yMean, yScale);
    }
    return r;
  }
}
