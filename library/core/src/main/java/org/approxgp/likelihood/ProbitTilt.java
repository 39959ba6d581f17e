package org.approxgp.likelihood;

import org.approxgp.special.LogConcaveQuadrature;
import org.approxgp.special.Normal;

/**
 * The probit's integrals against a tilted cavity that have no closed form, by {@link LogConcaveQuadrature}
 * in log space, valid at any cavity N(f | m, v) (tested for |m| ≤ 1e6, v ∈ [1e-8, 1e6]):
 * <ul>
 * <li>the power-tilted moments of N(f | m, v) Φ(y f)^u, u ∈ (0, 1) (Power EP, Minka 2004, eq. 9; Qi &amp; Guo,
 *     appendix C, eq. 41–42): log Z_u, mean, variance;</li>
 * <li>E₁ = E_p̂[log Φ(y f)] under the tilted distribution p̂ ∝ N(f | m, v) Φ(y f) (the first term of
 *     Relaxed EP's objective, Qi &amp; Guo eq. 35–36).</li>
 * </ul>
 * Both integrands are log-concave (log Φ is concave, and so is log(−log Φ)). They are written in the offset
 * δ = f − m, so that the Gaussian part −δ²/(2v) is exact whatever m, and every increment of log Φ between
 * two quadrature nodes is formed by {@link Normal#logCdfIncrement} (no cancellation of log Φ ≈ −5e11 at
 * y m = −1e6). E₁ is −exp(log ∫ N Φ (−log Φ) − log Φ(y m/√(1 + v))): the small E₁ ≈ −E_p̂[Φ(−y f)] of a
 * well-classified point keeps its relative accuracy down to the smallest doubles.
 */
final class ProbitTilt {
  /** Relative tolerance asked of each integral. */
  static final double REL_TOL = 1e-13;

  private static final double HALF_LOG_2PI = 0.9189385332046728;
  private static final double SQRT_2PI = 2.5066282746310002;
  private static final double INV_SQRT2 = 0.7071067811865476;
  /** Above this z, log(−log Φ(z)) is formed from log Φ(−z) (class {@link NegLog}). */
  private static final double RIGHT = 5;

  private ProbitTilt() {}

  /** Moments of N(f | m, v) Φ(y f)^u for u ∈ (0, 1] (u = 1 by quadrature too; {@link Probit#tilted} is closed). */
  static TiltedMoments powerTilted(double y, double m, double v, double u) {
    Power f = new Power(y, m, v, u, false);
    LogConcaveQuadrature.Result r =
        LogConcaveQuadrature.integrate(new Cached(f), 0, new double[] {-m}, REL_TOL);
    // log Z = ℓ(δ*) + log(σ ∫g / √(2πv)): the last factor is 1 when Φ(y f)^u ≈ 1 over the cavity,
    // and one
    // logarithm of it keeps log Z within ~2e-16 of its tiny true value; Φ^u ≤ 1 bounds log Z by 0
    double logZ = f.value(r.mode()) + Math.log(r.scale() / Math.sqrt(v) * r.mass() / SQRT_2PI);
    return new TiltedMoments(Math.min(logZ, 0), m + r.mean(), r.variance());
  }

  /** E_p̂[log Φ(y f)], p̂ ∝ N(f | m, v) Φ(y f) (class comment). */
  static double tiltedExpectedLogCdf(double y, double m, double v) {
    LogConcaveQuadrature.Result r = LogConcaveQuadrature.integrate(
        new Cached(new Power(y, m, v, 1, true)), 0, new double[] {-m}, REL_TOL);
    double logZ = Normal.logCdf(y * m / Math.sqrt(1 + v));
    if (logZ > -LARGE_LOG_Z) {
      double logI = r.logIntegral() - HALF_LOG_2PI - 0.5 * Math.log(v);
      return -Math.exp(logI - logZ);
    }
    // far on the wrong side log I and log Z are both ≈ log Φ(y m) (−3.9e11 at y m = −9e5) and their
    // difference
    // would keep only ~1e-16 |log Z| absolute: form it from the two quadratures' own pieces
    // instead,
    // log I − log Z = [ℓ₁(δ₂) − ℓ₁(δ₁)] + Λ(y(m + δ₂)) + log(σ₂ ∫g₂ / (σ₁ ∫g₁)), δ the modes, ℓ₁
    // without Λ
    Power p1 = new Power(y, m, v, 1, false);
    LogConcaveQuadrature.Result r1 =
        LogConcaveQuadrature.integrate(new Cached(p1), 0, new double[] {-m}, REL_TOL);
    double diff = p1.increment(r1.mode(), r.mode() - r1.mode())
        + NegLog.value(y * (m + r.mode()))
        + Math.log(r.scale() * r.mass() / (r1.scale() * r1.mass()));
    return -Math.exp(diff);
  }

  /**
   * Beyond |log Z| = {@value}, {@link #tiltedExpectedLogCdf} forms log I − log Z from the quadratures' pieces
   * (the direct difference would lose more than 1e-13 relative).
   */
  static final double LARGE_LOG_Z = 100;

  /**
   * ℓ(δ) = −δ²/(2v) + u log Φ(y(m + δ)) [+ log(−log Φ(y(m + δ))) when {@code negLog}], with its derivatives
   * (log Φ' = r = φ/Φ, log Φ'' = −r (z + r), {@link Probit#zPlusRatio}).
   */
  private record Power(double y, double m, double v, double u, boolean negLog)
      implements LogConcaveQuadrature.LogConcave {

    @Override
    public double value(double d) {
      double z = y * (m + d);
      double s = -d * d / (2 * v) + u * Normal.logCdf(z);
      return negLog ? s + NegLog.value(z) : s;
    }

    @Override
    public double slope(double d) {
      double z = y * (m + d);
      double s = -d / v + u * y * Normal.ratio(z);
      return negLog ? s + y * NegLog.slope(z) : s;
    }

    @Override
    public double curvature(double d) {
      double z = y * (m + d);
      double s = -1 / v - u * Normal.ratio(z) * Probit.zPlusRatio(z);
      return negLog ? s + NegLog.curvature(z) : s;
    }

    @Override
    public double increment(double d, double dd) {
      if (dd == 0) {
        return 0;
      }
      double z = y * (m + d);
      double dz = y * dd;
      double s = -dd * (d + 0.5 * dd) / v + u * Normal.logCdfIncrement(z, dz);
      return negLog ? s + NegLog.increment(z, dz) : s;
    }
  }

  /**
   * {@link Power} with the quantities at the quadrature's base point cached: the quadrature asks every
   * increment from the mode, so the special functions at z* are evaluated once instead of at every node.
   * Same arithmetic as {@link Normal#logCdfIncrement} and {@link NegLog#increment}.
   */
  private static final class Cached implements LogConcaveQuadrature.LogConcave {
    private final Power p;
    private double base = Double.NaN;
    private double erfcxBase;
    private double logCdfBase;
    private double negLogBase;
    private double cBase;

    Cached(Power p) {
      this.p = p;
    }

    @Override
    public double value(double d) {
      return p.value(d);
    }

    @Override
    public double slope(double d) {
      return p.slope(d);
    }

    @Override
    public double curvature(double d) {
      return p.curvature(d);
    }

    @Override
    public double increment(double d, double dd) {
      if (dd == 0) {
        return 0;
      }
      double z = p.y * (p.m + d);
      double dz = p.y * dd;
      double z1 = z + dz;
      if (d != base) {
        base = d;
        erfcxBase = z < -1 ? org.approxgp.special.Erf.erfcx(-z * INV_SQRT2) : Double.NaN;
        logCdfBase = Normal.logCdf(z);
        if (p.negLog) {
          negLogBase = NegLog.value(z);
          cBase = z > RIGHT ? NegLog.c(Normal.survival(z)) : Double.NaN;
        }
      }
      double inc;
      if (z < -1 && z1 < -1) {
        inc = Math.log(org.approxgp.special.Erf.erfcx(-z1 * INV_SQRT2) / erfcxBase)
            - dz * (z + 0.5 * dz);
      } else {
        inc = Normal.logCdf(z1) - logCdfBase;
      }
      double s = -dd * (d + 0.5 * dd) / p.v + p.u * inc;
      if (!p.negLog) {
        return s;
      }
      if (z > RIGHT && z1 > RIGHT) {
        return s
            + Normal.logCdfIncrement(-z, -dz)
            + Math.log(NegLog.c(Normal.survival(z1)) / cBase);
      }
      return s + NegLog.value(z1) - negLogBase;
    }
  }

  /**
   * Λ(z) = log(−log Φ(z)) and its derivatives Λ' = r/L, Λ'' = −r (d L + r)/L² (L = log Φ, r = φ/Φ,
   * d = z + r). Right of z = {@value #RIGHT}, with q = Φ(−z), ρ = φ(z)/q and c = −log1p(−q)/q (so L = −q c):
   * Λ = log q + log c, Λ' = −ρ/((1 − q) c), Λ'' = −(ρ/((1 − q) c²)) [(ρ − z) + ρq/(1 − q) − z(c − 1) − r c],
   * where ρ − z = {@link Probit#zPlusRatio}(−z) (a continued fraction, no cancellation) and log q increments
   * by {@link Normal#logCdfIncrement}.
   */
  static final class NegLog {
    private NegLog() {}

    static double value(double z) {
      if (z > RIGHT) {
        double q = Normal.survival(z);
        return Normal.logSurvival(z) + Math.log(c(q));
      }
      return Math.log(-Normal.logCdf(z));
    }

    static double slope(double z) {
      if (z > RIGHT) {
        double q = Normal.survival(z);
        return -Normal.ratio(-z) / ((1 - q) * c(q));
      }
      return Normal.ratio(z) / Normal.logCdf(z);
    }

    static double curvature(double z) {
      if (z > RIGHT) {
        double q = Normal.survival(z);
        double rho = Normal.ratio(-z);
        double c = c(q);
        double r = Normal.ratio(z);
        double cm1 = q == 0 ? 0 : (-Math.log1p(-q) - q) / q;
        double bracket = Probit.zPlusRatio(-z) + rho * q / (1 - q) - z * cm1 - r * c;
        return -(rho / ((1 - q) * c * c)) * bracket;
      }
      double l = Normal.logCdf(z);
      double r = Normal.ratio(z);
      return -r * (Probit.zPlusRatio(z) * l + r) / (l * l);
    }

    static double increment(double z, double dz) {
      double z1 = z + dz;
      if (z > RIGHT && z1 > RIGHT) {
        return Normal.logCdfIncrement(-z, -dz)
            + Math.log(c(Normal.survival(z1)) / c(Normal.survival(z)));
      }
      return value(z1) - value(z);
    }

    /** −log1p(−q)/q (1 at q = 0). */
    static double c(double q) {
      return q == 0 ? 1 : -Math.log1p(-q) / q;
    }
  }
}
