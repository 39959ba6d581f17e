package org.approxgp.inference;

import org.approxgp.metrics.Metrics;

/**
 * Predictions at test rows: mean and variance of the observation y* — for regression the latent variance plus the
 * noise variance, for ±1 labels E[y*] = 2p − 1 and Var[y*] = 1 − E[y*]² — what every fitted GP predicts
 * ({@link FittedModel#predictY}), and the quantities the sVBSSGP paper's RMSE and MNLP use (§5). The metrics are
 * {@link Metrics}', computed there once for every model.
 *
 * @param mean predictive means
 * @param variance predictive variances of y* (positive)
 */
public record PredictiveMoments(double[] mean, double[] variance) {

  public PredictiveMoments {
    if (mean.length != variance.length) {
      throw new IllegalArgumentException(
          mean.length + " means but " + variance.length + " variances");
    }
  }

  /** The predictions of rows {@code rows} (indices into this prediction), in that order. */
  public PredictiveMoments subset(int[] rows) {
    double[] m = new double[rows.length];
    double[] v = new double[rows.length];
    for (int i = 0; i < rows.length; i++) {
      m[i] = mean[rows[i]];
      v[i] = variance[rows[i]];
    }
    return new PredictiveMoments(m, v);
  }

  /** Number of test rows. */
  public int size() {
    return mean.length;
  }

  /** Root mean squared error against {@code y} (paper §5): {@link Metrics#rmse}. */
  public double rmse(double[] y) {
    check(y);
    return Metrics.rmse(mean, y);
  }

  /** Mean negative log predictive density of {@code y} under N(mean, variance) (paper §5): {@link Metrics#mnlp}. */
  public double mnlp(double[] y) {
    check(y);
    return Metrics.mnlp(mean, variance, y);
  }

  /** log N(y_i | mean_i, variance_i) at each row: {@link Metrics#gaussianLogDensities}. */
  public double[] logDensities(double[] y) {
    check(y);
    return Metrics.gaussianLogDensities(mean, variance, y);
  }

  private void check(double[] y) {
    if (y.length != mean.length) {
      throw new IllegalArgumentException(y.length + " targets for " + mean.length + " predictions");
    }
  }
}
