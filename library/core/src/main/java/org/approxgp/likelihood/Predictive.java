package org.approxgp.likelihood;

/**
 * The predictive distribution p(y* | D) = ∫ N(f* | m, v) p(y* | f*) df* of a test target whose latent value
 * has the Gaussian predictive N(m, v), returned uniformly by {@link Likelihood#predictive(double, double)}
 * so that callers need not know the likelihood. Immutable.
 */
public interface Predictive {

  /**
   * log p(y*) of an observed target: exact (= {@link Likelihood#logPredictive}) except where a likelihood
   * documents an approximation (the Poisson square link's negative binomial, QP paper appendix H).
   */
  double logDensity(double y);

  /** p(y*) = exp({@link #logDensity}); overridden where a closed form is more accurate. */
  default double density(double y) {
    return Math.exp(logDensity(y));
  }

  /** E[y*] = E[E[y | f*]]. */
  double mean();

  /** Var[y*] = E[Var[y | f*]] + Var[E[y | f*]]. */
  double variance();

  /** The most probable y* where meaningful (a label or a count), else NaN. */
  default double mode() {
    return Double.NaN;
  }
}
