package org.approxgp.likelihood;

import org.approxgp.special.GaussHermite;
import org.approxgp.special.Normal;

/**
 * Probit likelihood p(y | f) = Φ(y f), y ∈ {−1, +1} (R&amp;W eq. 3.5; GPML {@code likErf}).
 *
 * <p>All quantities are written in terms of z = y f (or z = y m / √(1 + v) for the tilted
 * distribution), the ratio r(z) = N(z)/Φ(z) and d(z) = z + r(z) &gt; 0. The last is what the
 * variance needs; for z → −∞ both z and r are large and nearly cancel, so for z &lt; −{@value
 * #CF_SWITCH} d is computed from Laplace's continued fraction of the Mills ratio instead: with
 * x = −z, 1/R(x) = x + 1/(x + 2/(x + 3/(x + …))) where R = Φ(−x)/N(x), hence
 * d = 1/R(x) − x = 1/(x + 2/(x + 3/(x + …))) (Abramowitz &amp; Stegun 26.2.14).
 */
public final class Probit implements Likelihood {
  static final double CF_SWITCH = 6.0;
  private static final Probit INSTANCE = new Probit();
  /** Gauss–Hermite order for E[log Φ(y f)], which has no closed form. */
  private static final int HERMITE_ORDER = 64;

  private Probit() {}

  public static Probit get() {
    return INSTANCE;
  }

  @Override
  public String name() {
    return "probit";
  }

  @Override
  public void validate(double y) {
    if (y != 1.0 && y != -1.0) {
      throw new IllegalArgumentException("probit labels must be -1 or +1, got " + y);
    }
  }

  /** d(z) = z + N(z)/Φ(z), computed without cancellation; 0 &lt; d &lt; 1 … (d → 0 as z → −∞ like −1/z). */
  static double zPlusRatio(double z) {
    if (z < -CF_SWITCH) {
      // backward evaluation of 1/(x + 2/(x + 3/(x + ...))) truncated at depth K;
      // at x ≥ 6 depth 60 is converged to machine precision (checked against mpmath in the tests)
      double x = -z;
      double t = x;
      for (int k = 60; k >= 2; k--) {
        t = x + k / t;
      }
      return 1.0 / t;
    }
    return z + Normal.ratio(z);
  }

  @Override
  public LogDensity logDensity(double y, double f) {
    double z = y * f;
    double r = Normal.ratio(z);
    double d = zPlusRatio(z);
    // d/df log Φ(yf) = y r;  d²/df² = −r (z + r);  d³/df³ = y r [(z + r)(z + 2r) − 1]
    return new LogDensity(Normal.logCdf(z), y * r, -r * d, y * r * (d * (d + r) - 1.0));
  }

  @Override
  public TiltedMoments tilted(double y, double m, double v) {
    // R&W eq. 3.58: z = y m/√(1+v), Z = Φ(z), μ̂ = m + y v N(z)/(Φ(z)√(1+v)),
    // σ̂² = v − v² N(z)/((1+v)Φ(z)) · (z + N(z)/Φ(z))
    double s = Math.sqrt(1 + v);
    double z = y * m / s;
    double r = Normal.ratio(z);
    double d = zPlusRatio(z);
    double mean = m + y * v * r / s;
    double variance = v - v * v / (1 + v) * r * d;
    return new TiltedMoments(Normal.logCdf(z), mean, variance);
  }

  @Override
  public double tiltedCdf(double y, double m, double v, double x) {
    return QuadratureLikelihood.tiltedCdfByQuadrature(this, y, m, v, x);
  }

  @Override
  public VariationalExpectation variationalExpectation(double y, double m, double v) {
    // No closed form for E[log Φ(y f)]: Gauss–Hermite on the smooth integrand; derivatives by
    // Bonnet's and Price's theorems, ∂E/∂m = E[∂ log p/∂f], ∂E/∂v = ½ E[∂² log p/∂f²].
    GaussHermite gh = GaussHermite.of(HERMITE_ORDER);
    double e = gh.expectNormal(m, v, f -> Normal.logCdf(y * f));
    double dm = gh.expectNormal(m, v, f -> y * Normal.ratio(y * f));
    double dv = 0.5 * gh.expectNormal(m, v, f -> -Normal.ratio(y * f) * zPlusRatio(y * f));
    return new VariationalExpectation(e, dm, dv);
  }

  @Override
  public double logPredictive(double y, double m, double v) {
    return Normal.logCdf(y * m / Math.sqrt(1 + v));
  }

  /** p(y* = +1) = Φ(m/√(1+v)) (R&amp;W eq. 3.82). */
  public double predictivePositive(double m, double v) {
    return Normal.cdf(m / Math.sqrt(1 + v));
  }
}
