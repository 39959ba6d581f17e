package org.approxgp.data;

/**
 * Per-column standardisation z = (x − mean) / scale, fitted on training inputs only and then
 * applied to both training and test inputs (as scikit-learn's {@code StandardScaler}). The scale is
 * the population standard deviation (ddof 0); a constant column gets scale 1, so it maps to 0.
 */
public final class Standardizer {
  private final double[] mean;
  private final double[] scale;

  private Standardizer(double[] mean, double[] scale) {
    this.mean = mean;
    this.scale = scale;
  }

  /**
   * Fits column means and standard deviations (ddof 0) of {@code trainX}.
   *
   * @throws IllegalArgumentException if {@code trainX} is empty, ragged or holds NaN/infinity, or a column's
   *                                  spread exceeds the largest double
   */
  public static Standardizer fit(double[][] trainX) {
    if (trainX.length == 0) {
      throw new IllegalArgumentException("cannot fit a standardizer on zero rows");
    }
    int n = trainX.length;
    int d = trainX[0].length;
    double[] flat = new double[Math.multiplyExact(n, d)];
    for (int i = 0; i < n; i++) {
      if (trainX[i].length != d) {
        throw new IllegalArgumentException(
            "ragged matrix: " + trainX[i].length + " vs " + d + " columns");
      }
      System.arraycopy(trainX[i], 0, flat, i * d, d);
    }
    return fit(flat, n, d, null);
  }

  /**
   * Fits column means and standard deviations (ddof 0) of n × d inputs stored row by row in {@code x} (the layout
   * of {@link RegressionData}): the one computation behind every standardisation in the project — {@link
   * #fit(double[][])}, {@link RegressionSplits#standardize} (the notebooks' splits) and {@code approxgp regress}
   * — so the command line and the notebooks scale the same data identically, to the bit.
   *
   * @param names column names for messages, or null to number the columns from 0
   * @throws IllegalArgumentException if there are no rows, a value is NaN or infinite, or a column's spread
   *     exceeds the largest double (naming the column)
   */
  public static Standardizer fit(double[] x, int n, int d, java.util.List<String> names) {
    if (n == 0) {
      throw new IllegalArgumentException("cannot fit a standardizer on zero rows");
    }
    if (x.length != (long) n * d) {
      throw new IllegalArgumentException(
          x.length + " values for " + n + " rows of " + d + " columns");
    }
    double[] mean = new double[d];
    double[] scale = new double[d];
    double[] column = new double[n];
    for (int j = 0; j < d; j++) {
      boolean constant = true;
      for (int i = 0; i < n; i++) {
        column[i] = x[i * d + j];
        if (!Double.isFinite(column[i])) {
          throw new IllegalArgumentException(
              "non-finite value " + column[i] + " in " + columnName(names, j));
        }
        constant &= column[i] == column[0];
      }
      double[] ms = moments(column, 0);
      if (Double.isInfinite(ms[1])) {
        throw new IllegalArgumentException(
            "the standard deviation of " + columnName(names, j) + " overflows a double");
      }
      mean[j] = ms[0];
      // constant column (exactly, or to rounding of the mean): leave it unscaled, as sklearn does
      scale[j] = constant || ms[1] == 0 ? 1.0 : ms[1];
    }
    return new Standardizer(mean, scale);
  }

  private static String columnName(java.util.List<String> names, int j) {
    return names == null ? "column " + j : "column " + DataException.quote(names.get(j));
  }

  /**
   * Standardises one variable in place, (v − mean) / scale, with {@link #applyInPlace}'s operations (and its bits):
   * the target's standardisation in {@link RegressionSplits#standardize} and {@code approxgp regress}.
   */
  public static void standardizeInPlace(double[] v, double mean, double scale) {
    for (int i = 0; i < v.length; i++) {
      double e = v[i] - mean;
      v[i] = Double.isInfinite(e) ? v[i] / scale - mean / scale : e / scale;
    }
  }

  /**
   * Mean and standard deviation (divisor n − ddof) of finite values, without overflow: the plain sums first
   * (their bits are the ones every result so far was computed with), and only when a sum or a square
   * overflows (|v| beyond about 1e154) the same sums over v / max|v|, scaled back. The standard deviation of
   * values near the largest double can itself exceed it; it is then infinite, which a caller must report.
   *
   * @return {mean, sd}
   */
  public static double[] moments(double[] v, int ddof) {
    int n = v.length;
    double mean = 0;
    for (double x : v) {
      mean += x;
    }
    mean /= n;
    double ss = 0;
    for (double x : v) {
      double e = x - mean;
      ss += e * e;
    }
    double sd = Math.sqrt(ss / (n - ddof));
    if (Double.isFinite(mean) && Double.isFinite(ss)) {
      return new double[] {mean, sd};
    }
    double k = 0;
    for (double x : v) {
      k = Math.max(k, Math.abs(x));
    }
    double m = 0;
    for (double x : v) {
      m += x / k / n;
    }
    double sk = 0;
    for (double x : v) {
      double e = x / k - m;
      sk += e * e;
    }
    return new double[] {m * k, Math.sqrt(sk / (n - ddof)) * k};
  }

  /**
   * Returns (x − mean) / scale column-wise; {@code x} is not modified. Where x − mean overflows (both beyond
   * about 9e307 in size, of opposite signs) it is x / scale − mean / scale.
   */
  public double[][] apply(double[][] x) {
    double[][] z = new double[x.length][];
    for (int i = 0; i < x.length; i++) {
      if (x[i].length != mean.length) {
        throw new IllegalArgumentException(
            "row " + i + " has " + x[i].length + " columns, fitted on " + mean.length);
      }
      z[i] = new double[mean.length];
      for (int j = 0; j < mean.length; j++) {
        double e = x[i][j] - mean[j];
        z[i][j] = Double.isInfinite(e) ? x[i][j] / scale[j] - mean[j] / scale[j] : e / scale[j];
      }
    }
    return z;
  }

  /**
   * Standardises row-major inputs in place, (x − mean) / scale column by column, as {@link #apply(double[][])}
   * does (the same operations, the same bits).
   */
  public void applyInPlace(double[] x) {
    int d = mean.length;
    if (x.length % d != 0) {
      throw new IllegalArgumentException(x.length + " values are not rows of " + d + " columns");
    }
    for (int i = 0; i < x.length; i++) {
      int j = i % d;
      double e = x[i] - mean[j];
      x[i] = Double.isInfinite(e) ? x[i] / scale[j] - mean[j] / scale[j] : e / scale[j];
    }
  }

  /** Column means of the training inputs (copy). */
  public double[] mean() {
    return mean.clone();
  }

  /** Column scales: population standard deviations, 1 for constant columns (copy). */
  public double[] scale() {
    return scale.clone();
  }
}
