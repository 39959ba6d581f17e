package org.approxgp.inference;

import org.approxgp.likelihood.Likelihood;
import org.approxgp.likelihood.Predictive;

/**
 * Gaussian predictive distribution of the latent f* at test inputs: N(mean_i, variance_i) per point.
 */
public record Prediction(double[] latentMean, double[] latentVariance) {

  public int size() {
    return latentMean.length;
  }

  /**
   * Mean and variance of y* under {@code likelihood}'s predictive distribution ∫ p(y* | f*) N(f* | mean, variance)
   * df* at each point ({@link Likelihood#predictive}; for probit E[y*] = 2p − 1): what every latent GP's
   * {@link FittedModel#predictY} returns.
   */
  public PredictiveMoments observed(Likelihood likelihood) {
    double[] m = new double[size()];
    double[] v = new double[size()];
    for (int j = 0; j < m.length; j++) {
      Predictive q = likelihood.predictive(latentMean[j], latentVariance[j]);
      m[j] = q.mean();
      v[j] = q.variance();
    }
    return new PredictiveMoments(m, v);
  }

  /** log p(yⱼ | D) = log ∫ p(yⱼ | f*) N(f* | meanⱼ, varianceⱼ) df* for observed targets ({@link Likelihood#logPredictive}). */
  public double[] logPredictive(Likelihood likelihood, double[] y) {
    if (y.length != size()) {
      throw new IllegalArgumentException(y.length + " targets for " + size() + " predictions");
    }
    double[] out = new double[y.length];
    for (int j = 0; j < y.length; j++) {
      out[j] = likelihood.logPredictive(y[j], latentMean[j], latentVariance[j]);
    }
    return out;
  }
}
