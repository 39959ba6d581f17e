package org.approxgp.inference;

/**
 * Gaussian predictive distribution of the latent f* at test inputs: N(mean_i, variance_i) per point.
 */
public record Prediction(double[] latentMean, double[] latentVariance) {

  public int size() {
    return latentMean.length;
  }
}
