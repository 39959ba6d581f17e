package org.approxgp.data;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A log warping of the inputs whose values span orders of magnitude, fitted on training inputs only and then applied
 * to training and test inputs alike (before standardisation).
 *
 * <p>The rule ({@link #fit}): an input is warped when, on TRAIN, it is never negative, its median is positive and its
 * 99th percentile is at least {@link #TAIL_RATIO} times its median — its upper tail reaches an order of magnitude past
 * its typical value. Such an input becomes w(x) = log(x + c), with c the 1st percentile of its positive TRAIN values,
 * so a zero (or the smallest values) lands a few units below the rest rather than at −∞ (c is in the input's own
 * units, so the rule does not depend on them). Below zero, where a TEST row may fall though no TRAIN row does, w
 * continues along its tangent at 0, w(x) = log c + x/c, continuous with a continuous slope.
 *
 * <p>Why: a stationary kernel on a heavy-tailed input (sales counts, volumes in money) spends its length-scale on
 * the dense bulk and treats the sparse tail as far apart; learned sinusoids (SSGP) oscillate there. On the log scale
 * the same input is close to symmetric. Quantiles are the linear interpolation of order statistics at (n − 1)p
 * (Hyndman and Fan 1996, definition 7; numpy's and R's default), so a single outlying row does not trigger the rule
 * as it would a moment-based skewness.
 */
public final class InputWarp {
  /** The ratio of an input's 99th percentile to its median from which it is warped. */
  public static final double TAIL_RATIO = 10;

  /** The upper quantile compared with the median. */
  public static final double UPPER = 0.99;

  /** The quantile of an input's positive values that sets its offset c. */
  public static final double OFFSET_QUANTILE = 0.01;

  private static final InputWarp NONE = new InputWarp(new int[0], new double[0]);

  private final int[] columns;
  private final double[] offsets;

  private InputWarp(int[] columns, double[] offsets) {
    this.columns = columns;
    this.offsets = offsets;
  }

  /** The warp that changes nothing. */
  public static InputWarp none() {
    return NONE;
  }

  /**
   * The warp {@link InputWarp the rule} chooses for n × d training inputs stored row by row (the layout of
   * {@link RegressionData}).
   *
   * @throws IllegalArgumentException if {@code x} does not hold n·d values
   */
  public static InputWarp fit(double[] x, int n, int d) {
    if (x.length != (long) n * d) {
      throw new IllegalArgumentException(
          x.length + " values for " + n + " rows of " + d + " columns");
    }
    if (n == 0) {
      return NONE;
    }
    List<Integer> cols = new ArrayList<>();
    List<Double> offs = new ArrayList<>();
    double[] column = new double[n];
    for (int j = 0; j < d; j++) {
      for (int i = 0; i < n; i++) {
        column[i] = x[i * d + j];
      }
      Arrays.sort(
          column); // NaN sorts last: such a column is refused by the standardisation that follows
      if (!(column[0] >= 0) || Double.isNaN(column[n - 1])) {
        continue;
      }
      double median = quantile(column, 0, n, 0.5);
      if (!(median > 0) || !(quantile(column, 0, n, UPPER) >= TAIL_RATIO * median)) {
        continue;
      }
      int firstPositive = 0;
      while (column[firstPositive] == 0) {
        firstPositive++; // the median is positive, so a positive value exists
      }
      cols.add(j);
      offs.add(quantile(column, firstPositive, n - firstPositive, OFFSET_QUANTILE));
    }
    return new InputWarp(
        cols.stream().mapToInt(Integer::intValue).toArray(),
        offs.stream().mapToDouble(Double::doubleValue).toArray());
  }

  /**
   * The p-quantile of the {@code len} sorted values from {@code from}: linear interpolation between the order
   * statistics around position (len − 1)·p (Hyndman and Fan's definition 7).
   */
  static double quantile(double[] sorted, int from, int len, double p) {
    double h = (len - 1) * p;
    int lo = (int) Math.floor(h);
    int hi = Math.min(lo + 1, len - 1);
    double a = sorted[from + lo];
    return a + (h - lo) * (sorted[from + hi] - a);
  }

  /** The warped value of x for an input of offset c: log(x + c), or its tangent at 0 below 0. */
  public static double warp(double x, double c) {
    return x >= 0 ? Math.log(x + c) : Math.log(c) + x / c;
  }

  /** Warps the chosen columns of n × d inputs stored row by row, in place. */
  public void applyInPlace(double[] x, int d) {
    if (columns.length == 0) {
      return;
    }
    if (x.length % d != 0) {
      throw new IllegalArgumentException(x.length + " values are not rows of " + d + " columns");
    }
    for (int k = 0; k < columns.length; k++) {
      if (columns[k] >= d) {
        throw new IllegalArgumentException(
            "warped column " + columns[k] + " of rows of " + d + " columns");
      }
    }
    for (int i = 0; i < x.length; i += d) {
      for (int k = 0; k < columns.length; k++) {
        x[i + columns[k]] = warp(x[i + columns[k]], offsets[k]);
      }
    }
  }

  /** The warped columns, in input order. */
  public int[] columns() {
    return columns.clone();
  }

  /** Each warped column's offset c, in the order of {@link #columns()}. */
  public double[] offsets() {
    return offsets.clone();
  }

  /** Whether the warp changes nothing. */
  public boolean isEmpty() {
    return columns.length == 0;
  }
}
