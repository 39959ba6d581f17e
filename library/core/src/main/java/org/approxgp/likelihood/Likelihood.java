package org.approxgp.likelihood;

import java.util.List;

/**
 * A factorising likelihood p(y | f) of one observation given its latent value. Immutable and thread-safe;
 * y is passed as a double (±1 labels, counts, reals).
 *
 * <p>The only required mathematics is {@link #logDensity} (with {@link #name} and {@link #validate}). Every
 * other quantity has a default computed from it by adaptive quadrature (the GPflow pattern); analytic
 * likelihoods override the defaults with closed forms, and {@code LikelihoodContract} (the test base every likelihood's contract test extends) checks every
 * override against its default. A likelihood whose log density is not smooth somewhere (a step jumps at
 * 0) names those points in {@link #breakpoints} so that the quadrature splits there.
 *
 * <p>Likelihood hyperparameters (a Gaussian noise variance, the ε of a noisy step) are exposed on a log
 * scale through {@link #hyperparameterNames}, {@link #logHyperparameters} and
 * {@link #withLogHyperparameters}, so that {@code GpModel.fit} can learn them with the kernel's.
 */
public interface Likelihood {

  /** A short name ("probit", "gaussian", "poisson-square"). */
  String name();

  /** Checks an observation and throws {@link IllegalArgumentException} naming it when invalid. */
  void validate(double y);

  /** log p(y | f) and its first three derivatives in f. */
  LogDensity logDensity(double y, double f);

  /**
   * log p(y | f) alone, for samplers, which evaluate it millions of times and need no derivative. Default:
   * {@code logDensity(y, f).value()}; a likelihood whose derivatives cost more than its value overrides it.
   */
  default double logDensityValue(double y, double f) {
    return logDensity(y, f).value();
  }

  /**
   * The points f where log p(y | ·) is not smooth (a jump or a kink, or a singularity of its derivatives);
   * the default quadrature splits its integrals there. Default: none.
   */
  default double[] breakpoints(double y) {
    return new double[0];
  }

  /** Moments of q̃(f) ∝ N(f | m, v) p(y | f); v &gt; 0. Default: quadrature. */
  default TiltedMoments tilted(double y, double m, double v) {
    return LikelihoodQuadrature.tilted(this, y, m, v);
  }

  /**
   * Moments of the power-tilted distribution q̃ᵤ(f) ∝ N(f | m, v) p(y | f)^u, u &gt; 0: log ∫ N p^u df, its
   * mean and variance (Power EP, Minka 2004, eq. 9; u = 1 is {@link #tilted}). Default: quadrature.
   */
  default TiltedMoments powerTilted(double y, double m, double v, double u) {
    return LikelihoodQuadrature.powerTilted(this, y, m, v, u);
  }

  /** The tilted CDF F(x) = ∫_{−∞}^x q̃(f) df, in [0, 1]. Default: quadrature. */
  default double tiltedCdf(double y, double m, double v, double x) {
    return LikelihoodQuadrature.tiltedCdf(this, y, m, v, x);
  }

  /**
   * E_p̂[log p(y | f)] under the tilted distribution p̂ ∝ N(f | m, v) p(y | f): the first term of Relaxed EP's
   * objective (Qi &amp; Guo eq. 35–36). Default: adaptive quadrature around the tilted mode.
   */
  default double tiltedExpectedLogDensity(double y, double m, double v) {
    return LikelihoodQuadrature.tiltedExpectedLogDensity(this, y, m, v);
  }

  /**
   * The tilted upper tail 1 − F(x). Default: 1 − {@link #tiltedCdf}, accurate in absolute terms only; a likelihood
   * with a closed form overrides it to keep relative accuracy where it is small.
   */
  default double tiltedSurvival(double y, double m, double v, double x) {
    return 1 - tiltedCdf(y, m, v, x);
  }

  /**
   * Whether {@link #tiltedCdf} and {@link #tiltedSurvival} are closed forms accurate in relative terms in both
   * tails (the probit's, by Owen's T). The W2 projection then accumulates the tilted CDF from the density at wide
   * cavities, which is cheaper than a tilted CDF per node ({@code W2Projection}). Default: false.
   */
  default boolean exactTiltedTails() {
    return false;
  }

  /**
   * E_{N(f|m,v)}[log p(y | f)] and its derivatives in m and v. Default: quadrature, derivatives by the
   * score-function identities (see {@code LikelihoodQuadrature.variationalExpectation}).
   */
  default VariationalExpectation variationalExpectation(double y, double m, double v) {
    return LikelihoodQuadrature.variationalExpectation(this, y, m, v);
  }

  /**
   * log p(y* | D) = log ∫ N(f* | m, v) p(y* | f*) df* for a Gaussian predictive latent N(m, v): the
   * log predictive probability (density) of an observed test target. Equals {@code tilted(...).logZ()};
   * at v = 0 (a predictive variance clamped at zero, e.g. at a training input with a very precise site)
   * it is the limit log p(y* | m).
   */
  default double logPredictive(double y, double m, double v) {
    if (v == 0) {
      return logDensity(y, m).value();
    }
    return tilted(y, m, v).logZ();
  }

  /**
   * The predictive distribution of y* when f* ~ N(m, v). Default: {@link #logPredictive} for its log
   * density and quadrature of {@link #conditionalMean} / {@link #conditionalVariance} for its moments; no mode.
   */
  default Predictive predictive(double m, double v) {
    return new QuadraturePredictive(this, m, v);
  }

  /**
   * E[y | f], used by the default {@link #predictive}. Default: unsupported (a likelihood that only
   * defines a density need not know it).
   */
  default double conditionalMean(double f) {
    throw new UnsupportedOperationException(name() + ": conditional mean E[y | f] is not defined");
  }

  /** Var[y | f], used by the default {@link #predictive}. Default: unsupported. */
  default double conditionalVariance(double f) {
    throw new UnsupportedOperationException(
        name() + ": conditional variance Var[y | f] is not defined");
  }

  /** Names of the likelihood's hyperparameters, in the order of {@link #logHyperparameters}. Default: none. */
  default List<String> hyperparameterNames() {
    return List.of();
  }

  /** The hyperparameters on a log scale (each is a positive quantity). Default: none. */
  default double[] logHyperparameters() {
    return new double[0];
  }

  /** The same likelihood with new log-hyperparameters (this one when it has none and t is empty). */
  default Likelihood withLogHyperparameters(double[] t) {
    if (t.length != hyperparameterNames().size()) {
      throw new IllegalArgumentException(
          name() + " has " + hyperparameterNames().size() + " hyperparameters, got " + t.length);
    }
    if (t.length == 0) {
      return this;
    }
    throw new UnsupportedOperationException(name() + " must override withLogHyperparameters");
  }
}
