package org.approxgp.sparse;

/**
 * Predictions at test rows: mean and variance of the noisy target y* (the latent variance plus the noise
 * variance), the quantities the paper's RMSE and MNLP use (§5).
 *
 * @param mean predictive means
 * @param variance predictive variances of y* (positive)
 */
public record RegressionPrediction(double[] mean, double[] variance) {

  public RegressionPrediction {
    if (mean.length != variance.length) {
      throw new IllegalArgumentException(
          mean.length + " means but " + variance.length + " variances");
    }
  }

  /** The predictions of rows {@code rows} (indices into this prediction), in that order. */
  public RegressionPrediction subset(int[] rows) {
    double[] m = new double[rows.length];
    double[] v = new double[rows.length];
    for (int i = 0; i < rows.length; i++) {
      m[i] = mean[rows[i]];
      v[i] = variance[rows[i]];
    }
    return new RegressionPrediction(m, v);
  }

  /** Number of test rows. */
  public int size() {
    return mean.length;
  }

  /** Root mean squared error against {@code y} (paper §5). */
  public double rmse(double[] y) {
    check(y);
    double s = 0;
    for (int i = 0; i < y.length; i++) {
      double e = y[i] - mean[i];
      s += e * e;
    }
    if (Double.isInfinite(s)) {
      // a square overflowed (errors beyond about 1e154): the same sum over e / max|e|, as hypot
      // does
      double k = 0;
      for (int i = 0; i < y.length; i++) {
        k = Math.max(k, Math.abs(y[i] - mean[i]));
      }
      double t = 0;
      for (int i = 0; i < y.length; i++) {
        double e = (y[i] - mean[i]) / k;
        t += e * e;
      }
      return Math.sqrt(t / y.length) * k;
    }
    return Math.sqrt(s / y.length);
  }

  /**
   * Mean negative log predictive density of {@code y} under N(mean, variance) (paper §5, MNLP):
   * (1/n) Σ ½ [log(2π v) + (y − μ)²/v].
   */
  public double mnlp(double[] y) {
    check(y);
    double s = 0;
    for (int i = 0; i < y.length; i++) {
      double e = y[i] - mean[i];
      double z2 = e * e / variance[i];
      if (Double.isInfinite(e * e) && Double.isFinite(variance[i])) {
        double z = e / Math.sqrt(variance[i]); // e² overflows, the standardised error need not
        z2 = z * z;
      }
      s += 0.5 * (Math.log(2 * Math.PI * variance[i]) + z2);
    }
    return s / y.length;
  }

  private void check(double[] y) {
    if (y.length != mean.length) {
      throw new IllegalArgumentException(y.length + " targets for " + mean.length + " predictions");
    }
  }
}
