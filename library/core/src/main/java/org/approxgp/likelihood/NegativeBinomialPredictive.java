package org.approxgp.likelihood;

import org.approxgp.special.Gammas;

/**
 * The QP paper's predictive distribution for Poisson regression with the square link (appendix H):
 * for f* ~ N(μ*, σ*²), g* = f*² has mean μ*² + σ*² and variance 2σ*²(σ*² + 2μ*²); matching a
 * Gamma(k, c) (shape k, scale c) to these moments gives (eq. 119)
 * <pre>
 *   k = (μ² + σ²)² / (2σ²(2μ² + σ²)),   c = 2σ²(2μ² + σ²)/(μ² + σ²),
 * </pre>
 * and ∫ Gamma(g | k, c) Poisson(y | g) dg is the negative binomial (eq. 122)
 * <pre>
 *   p(y) = Γ(k + y)/(y! Γ(k)) · c^y (1 + c)^{−k−y} = NB(y | k, c/(1 + c)),
 * </pre>
 * with mean k c = μ² + σ² and mode ⌊c (k − 1)⌋ if k &gt; 1, else 0. With σ² = 0 the Gamma degenerates
 * and the predictive is Poisson(μ²). Immutable.
 */
public final class NegativeBinomialPredictive implements Predictive {
  private final double shape;
  private final double scale;
  /** Poisson rate when the latent variance is 0 (then shape and scale are NaN). */
  private final double poissonRate;
  /** E[y*] = μ*² + σ*² and Var[y*] = E[g*] + Var[g*], stored as computed from μ*, σ*². */
  private final double mean;

  private final double variance;

  private NegativeBinomialPredictive(
      double shape, double scale, double poissonRate, double mean, double variance) {
    this.shape = shape;
    this.scale = scale;
    this.poissonRate = poissonRate;
    this.mean = mean;
    this.variance = variance;
  }

  /**
   * @param mean latent predictive mean μ*
   * @param variance latent predictive variance σ*² ≥ 0
   * @throws IllegalArgumentException on non-finite input, negative variance, or μ* = σ*² = 0
   */
  public static NegativeBinomialPredictive of(double mean, double variance) {
    if (!Double.isFinite(mean) || !(variance >= 0) || !Double.isFinite(variance)) {
      throw new IllegalArgumentException(
          "need finite mean and variance >= 0, got " + mean + ", " + variance);
    }
    double m2 = mean * mean;
    if (m2 + variance == 0) {
      throw new IllegalArgumentException(
          "f* = 0 almost surely: the predictive is a point mass at y = 0");
    }
    if (variance == 0) {
      return new NegativeBinomialPredictive(Double.NaN, Double.NaN, m2, m2, m2);
    }
    double e = m2 + variance; // E[g*]
    double q = 2 * variance * (2 * m2 + variance); // Var[g*]
    // eq. 119
    return new NegativeBinomialPredictive(e * e / q, q / e, Double.NaN, e, e + q);
  }

  /** Gamma shape k* (NaN in the Poisson limit σ*² = 0). */
  public double shape() {
    return shape;
  }

  /** Gamma scale c* (NaN in the Poisson limit σ*² = 0). */
  public double scale() {
    return scale;
  }

  /** NB success probability c/(1 + c) in the parameterisation NB(y | k, p) ∝ p^y (1 − p)^k. */
  public double probability() {
    return scale / (1 + scale);
  }

  /** E[y*] = k c = μ*² + σ*² (exact: E[E[y* | f*]] = E[f*²]). */
  @Override
  public double mean() {
    return mean;
  }

  /** Var[y*] = k c (1 + c) = E[f*²] + Var[f*²] (exact, law of total variance). */
  @Override
  public double variance() {
    return variance;
  }

  /** The mode ⌊c (k − 1)⌋ for k &gt; 1, else 0 (appendix H); ⌊λ⌋ in the Poisson limit. */
  @Override
  public double mode() {
    return Double.isNaN(poissonRate)
        ? (shape > 1 ? Math.floor(scale * (shape - 1)) : 0)
        : Math.floor(poissonRate);
  }

  /** The same as {@link #logPmf}. */
  @Override
  public double logDensity(double y) {
    return logPmf(y);
  }

  /**
   * log p(y) = log Γ(k + y) − log Γ(k) − log y! + y log c − (k + y) log(1 + c)   (eq. 122).
   * log Γ(k + y) − log Γ(k) is summed as Σ_{j&lt;y} log(k + j) for y ≤ 64 (no cancellation when k ≫ y).
   *
   * @param y a count (non-negative integer)
   */
  public double logPmf(double y) {
    if (!(y >= 0) || y != Math.rint(y)) {
      throw new IllegalArgumentException("count must be a non-negative integer, got " + y);
    }
    double logFact = Gammas.logGamma(y + 1);
    if (!Double.isNaN(poissonRate)) {
      return y * Math.log(poissonRate) - poissonRate - logFact;
    }
    double ratio;
    if (y <= 64) {
      ratio = 0;
      for (int j = 0; j < y; j++) {
        ratio += Math.log(shape + j);
      }
    } else {
      ratio = Gammas.logGamma(shape + y) - Gammas.logGamma(shape);
    }
    return ratio - logFact + (y == 0 ? 0 : y * Math.log(scale)) - (shape + y) * Math.log1p(scale);
  }

  @Override
  public String toString() {
    return Double.isNaN(poissonRate)
        ? "NB(k=" + shape + ", c=" + scale + ")"
        : "Poisson(" + poissonRate + ")";
  }
}
