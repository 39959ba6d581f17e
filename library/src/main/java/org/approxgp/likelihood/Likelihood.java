package org.approxgp.likelihood;

/**
 * A factorising likelihood p(y | f) of one observation given its latent value. Stateless and
 * thread-safe; y is passed as a double (±1 labels, counts, reals).
 */
public interface Likelihood {

  /** A short name ("probit", "gaussian", "poisson-square"). */
  String name();

  /** Checks an observation and throws {@link IllegalArgumentException} naming it when invalid. */
  void validate(double y);

  /** log p(y | f) and its first three derivatives in f. */
  LogDensity logDensity(double y, double f);

  /** Moments of q̃(f) ∝ N(f | m, v) p(y | f); v &gt; 0. */
  TiltedMoments tilted(double y, double m, double v);

  /** The tilted CDF F(x) = ∫_{−∞}^x q̃(f) df, in [0, 1]. */
  double tiltedCdf(double y, double m, double v, double x);

  /** E_{N(f|m,v)}[log p(y | f)] and its derivatives in m and v. */
  VariationalExpectation variationalExpectation(double y, double m, double v);

  /**
   * log p(y* | D) = log ∫ N(f* | m, v) p(y* | f*) df* for a Gaussian predictive latent N(m, v): the
   * log predictive probability (density) of an observed test target. Equals {@code tilted(...).logZ()}.
   */
  default double logPredictive(double y, double m, double v) {
    return tilted(y, m, v).logZ();
  }
}
