package org.approxgp.inference;

import org.approxgp.kernel.Kernel;
import org.approxgp.likelihood.Likelihood;

/**
 * A latent GP model on training data: f ~ GP(m₀, k), y_i | f_i ~ p(y_i | f_i) independently.
 *
 * @param kernel covariance function k at its current hyperparameters
 * @param x training inputs, n × d
 * @param y training targets, length n (validated against the likelihood)
 * @param likelihood the per-site likelihood
 * @param priorMean the constant prior mean m₀ (0 for classification; the QP coal runs use 1)
 */
public record Problem(
    Kernel kernel, double[][] x, double[] y, Likelihood likelihood, double priorMean) {

  public Problem {
    if (x.length != y.length) {
      throw new IllegalArgumentException("x has " + x.length + " rows but y has " + y.length);
    }
    if (x.length == 0) {
      throw new IllegalArgumentException("no training data");
    }
    if (!Double.isFinite(priorMean)) {
      throw new IllegalArgumentException("prior mean must be finite, got " + priorMean);
    }
    for (int i = 0; i < y.length; i++) {
      try {
        likelihood.validate(y[i]);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("training target " + i + ": " + e.getMessage(), e);
      }
    }
  }

  /** Zero prior mean. */
  public static Problem of(Kernel kernel, double[][] x, double[] y, Likelihood likelihood) {
    return new Problem(kernel, x, y, likelihood, 0.0);
  }

  public int size() {
    return y.length;
  }

  /** The same problem with another kernel (new hyperparameters). */
  public Problem withKernel(Kernel k) {
    return new Problem(k, x, y, likelihood, priorMean);
  }

  /** The same problem with another likelihood (e.g. new likelihood hyperparameters). */
  public Problem withLikelihood(Likelihood l) {
    return new Problem(kernel, x, y, l, priorMean);
  }
}
