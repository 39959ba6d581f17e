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
    double[] mean = new double[d];
    double[] scale = new double[d];
    double[] column = new double[n];
    for (double[] r : trainX) {
      if (r.length != d) {
        throw new IllegalArgumentException("ragged matrix: " + r.length + " vs " + d + " columns");
      }
    }
    for (int j = 0; j < d; j++) {
      boolean constant = true;
      for (int i = 0; i < n; i++) {
        column[i] = trainX[i][j];
        if (!Double.isFinite(column[i])) {
          throw new IllegalArgumentException("non-finite value " + column[i] + " in column " + j);
        }
        constant &= column[i] == column[0];
      }
      double[] ms = moments(column, 0);
      if (Double.isInfinite(ms[1])) {
        throw new IllegalArgumentException(
            "the standard deviation of column " + j + " overflows a double");
      }
      mean[j] = ms[0];
      // constant column (exactly, or to rounding of the mean): leave it unscaled, as sklearn does
      scale[j] = constant || ms[1] == 0 ? 1.0 : ms[1];
    }
    return new Standardizer(mean, scale);
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

  /** Column means of the training inputs (copy). */
  public double[] mean() {
    return mean.clone();
  }

  /** Column scales: population standard deviations, 1 for constant columns (copy). */
  public double[] scale() {
    return scale.clone();
  }
}
