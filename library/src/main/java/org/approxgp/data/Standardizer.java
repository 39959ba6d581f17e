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
   * @throws IllegalArgumentException if {@code trainX} is empty, ragged or holds NaN/infinity
   */
  public static Standardizer fit(double[][] trainX) {
    if (trainX.length == 0) {
      throw new IllegalArgumentException("cannot fit a standardizer on zero rows");
    }
    int n = trainX.length;
    int d = trainX[0].length;
    double[] mean = new double[d];
    double[] scale = new double[d];
    for (double[] r : trainX) {
      if (r.length != d) {
        throw new IllegalArgumentException("ragged matrix: " + r.length + " vs " + d + " columns");
      }
      for (int j = 0; j < d; j++) {
        if (!Double.isFinite(r[j])) {
          throw new IllegalArgumentException("non-finite value " + r[j] + " in column " + j);
        }
        mean[j] += r[j];
      }
    }
    for (int j = 0; j < d; j++) {
      mean[j] /= n;
    }
    for (int j = 0; j < d; j++) {
      boolean constant = true;
      double ss = 0;
      for (double[] r : trainX) {
        double e = r[j] - mean[j];
        ss += e * e;
        constant &= r[j] == trainX[0][j];
      }
      double sd = Math.sqrt(ss / n);
      // constant column (exactly, or to rounding of the mean): leave it unscaled, as sklearn does
      scale[j] = constant || sd == 0 ? 1.0 : sd;
    }
    return new Standardizer(mean, scale);
  }

  /** Returns (x − mean) / scale column-wise; {@code x} is not modified. */
  public double[][] apply(double[][] x) {
    double[][] z = new double[x.length][];
    for (int i = 0; i < x.length; i++) {
      if (x[i].length != mean.length) {
        throw new IllegalArgumentException(
            "row " + i + " has " + x[i].length + " columns, fitted on " + mean.length);
      }
      z[i] = new double[mean.length];
      for (int j = 0; j < mean.length; j++) {
        z[i][j] = (x[i][j] - mean[j]) / scale[j];
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
