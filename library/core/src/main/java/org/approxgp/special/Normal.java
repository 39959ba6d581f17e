package org.approxgp.special;

/**
 * The standard normal distribution: density, distribution function Φ, log Φ, the inverse Mills
 * type ratio N(z)/Φ(z), and the quantile function, all accurate in the far tails.
 *
 * <p>Formulas and sources:
 * <ul>
 *   <li>Φ(z) = ½ erfc(−z/√2) (Abramowitz &amp; Stegun 26.2.29 with 7.1.2). For z &lt; −1 we use
 *       Φ(z) = ½ erfcx(−z/√2) e^{−z²/2} (erfcx(x) = e^{x²} erfc(x), A&amp;S 7.1.2), which removes
 *       the amplification of the rounding of −z/√2 by erfc (relative condition number ≈ z² there).</li>
 *   <li>e^{−z²/2} is evaluated from the exact splitting z² = s + e, s = fl(z·z), e = fma(z, z, −s)
 *       (T. J. Dekker (1971), "A floating-point technique for extending the available precision",
 *       Numer. Math. 18, 224–242; here via the fused multiply-add), as e^{−s/2}(1 − e/2).</li>
 *   <li>log Φ(z): for z &lt; −1, log(½ erfcx(−z/√2)) − s/2 − e/2, valid down to z = −1e5 and
 *       beyond (the form used by e.g. GPML's {@code logphi} asymptotics, here exact in erfcx);
 *       for z &gt; 0, log1p(−Φ(−z)) (no cancellation, A&amp;S 26.2.5 symmetry Φ(z) = 1 − Φ(−z)).</li>
 *   <li>N(z)/Φ(z) = √(2/π) / erfcx(−z/√2) for z &lt; 0 (the common factor e^{−z²/2} cancels
 *       exactly), N(z)/Φ(z) directly for z ≥ 0.</li>
 *   <li>Φ⁻¹(p) = √2 erfinv(2p − 1) for p in [¼, ¾] (2p − 1 exact by Sterbenz's lemma),
 *       −√2 erfcinv(2p) for p &lt; ¼ and √2 erfcinv(2(1 − p)) for p &gt; ¾ (A&amp;S 26.2.2 inverted).</li>
 * </ul>
 */
public final class Normal {

  /** 1/√(2π). */
  private static final double INV_SQRT_2PI = 0.3989422804014327;
  /** log √(2π) = ½ log(2π). */
  private static final double LOG_SQRT_2PI = 0.9189385332046728;
  /** √2. */
  private static final double SQRT2 = 1.4142135623730951;
  /** 1/√2. */
  private static final double INV_SQRT2 = 0.7071067811865476;
  /** √(2/π). */
  private static final double SQRT_2_OVER_PI = 0.7978845608028654;

  private Normal() {}

  /**
   * e^{−z²/2} to within about one ulp, using the exact split z² = s + e.
   */
  private static double expHalfSquare(double z) {
    final double s = z * z;
    if (s > 1e300) {
      return 0.0; // includes z = ±∞
    }
    final double e = Math.fma(z, z, -s);
    // e^{−z²/2} = e^{−s/2} · e^{−e/2} ≈ e^{−s/2}(1 − e/2), |e| ≤ ulp(s)/2
    return Math.exp(-0.5 * s) * (1.0 - 0.5 * e);
  }

  /**
   * −z²/2 with the rounding error of z² compensated.
   */
  private static double minusHalfSquare(double z) {
    final double s = z * z;
    if (Double.isInfinite(s)) {
      return Double.NEGATIVE_INFINITY;
    }
    final double e = Math.fma(z, z, -s);
    return -0.5 * s - 0.5 * e;
  }

  /**
   * Standard normal density N(z) = e^{−z²/2}/√(2π).
   *
   * @param z argument
   * @return the density
   */
  public static double pdf(double z) {
    return INV_SQRT_2PI * expHalfSquare(z);
  }

  /**
   * log N(z) = −z²/2 − log √(2π).
   *
   * @param z argument
   * @return the log density
   */
  public static double logPdf(double z) {
    return minusHalfSquare(z) - LOG_SQRT_2PI;
  }

  /**
   * Φ(z), with full relative accuracy in the lower tail (until the result becomes subnormal,
   * z &lt; −37.5).
   *
   * @param z argument
   * @return Φ(z)
   */
  public static double cdf(double z) {
    if (z < -1.0) {
      // Φ(z) = ½ erfcx(−z/√2) e^{−z²/2}
      return 0.5 * Erf.erfcx(-z * INV_SQRT2) * expHalfSquare(z);
    }
    // Φ(z) = ½ erfc(−z/√2)
    return 0.5 * Erf.erfc(-z * INV_SQRT2);
  }

  /**
   * Upper tail 1 − Φ(z) = Φ(−z), without cancellation.
   *
   * @param z argument
   * @return Φ(−z)
   */
  public static double survival(double z) {
    return cdf(-z);
  }

  /**
   * log Φ(z), accurate from z = −1e5 (and below) to z = +38 (beyond which the exact value,
   * of magnitude below 1e-323, rounds to −0 or the smallest subnormal).
   *
   * @param z argument
   * @return log Φ(z)
   */
  public static double logCdf(double z) {
    if (Double.isNaN(z)) {
      return Double.NaN;
    }
    if (z < -1.0) {
      if (z == Double.NEGATIVE_INFINITY) {
        return Double.NEGATIVE_INFINITY;
      }
      // log Φ(z) = log(½ erfcx(−z/√2)) − z²/2
      return Math.log(0.5 * Erf.erfcx(-z * INV_SQRT2)) + minusHalfSquare(z);
    }
    if (z <= 0.0) {
      return Math.log(cdf(z));
    }
    // log Φ(z) = log1p(−Φ(−z))
    return Math.log1p(-cdf(-z));
  }

  /**
   * log Φ(z + dz) − log Φ(z), without the cancellation of two large values of log Φ: for z and z + dz
   * below −1 (where log Φ(z) = log(½ erfcx(−z/√2)) − z²/2, A&amp;S 7.1.2) as
   * log(erfcx(−(z + dz)/√2) / erfcx(−z/√2)) − dz (z + dz/2), whose two parts are each accurate to a few ulps
   * of themselves; otherwise log Φ(z + dz) − log Φ(z) (both of magnitude below about 1.9 + |dz|(|z| + |dz|)).
   * At z = −1e6 the plain difference of log Φ values of size 5e11 would lose 11 digits of a unit increment.
   *
   * @param z argument
   * @param dz increment
   * @return log Φ(z + dz) − log Φ(z)
   */
  public static double logCdfIncrement(double z, double dz) {
    if (dz == 0) {
      return 0;
    }
    double z1 = z + dz;
    if (z < -1.0 && z1 < -1.0) {
      return Math.log(Erf.erfcx(-z1 * INV_SQRT2) / Erf.erfcx(-z * INV_SQRT2)) - dz * (z + 0.5 * dz);
    }
    return logCdf(z1) - logCdf(z);
  }

  /**
   * log(1 − Φ(z)) = log Φ(−z).
   *
   * @param z argument
   * @return log Φ(−z)
   */
  public static double logSurvival(double z) {
    return logCdf(-z);
  }

  /**
   * The ratio N(z)/Φ(z) (the derivative of log Φ), without cancellation or overflow for any z:
   * it tends to −z as z → −∞ and to 0 as z → +∞.
   *
   * @param z argument
   * @return N(z)/Φ(z)
   */
  public static double ratio(double z) {
    if (z < 0.0) {
      if (z == Double.NEGATIVE_INFINITY) {
        return Double.POSITIVE_INFINITY;
      }
      // N(z)/Φ(z) = √(2/π) / erfcx(−z/√2)
      return SQRT_2_OVER_PI / Erf.erfcx(-z * INV_SQRT2);
    }
    return pdf(z) / cdf(z);
  }

  /**
   * The quantile function Φ⁻¹(p), relative accuracy about 1e-15 for p down to the smallest
   * subnormal; ±Infinity at p = 0, 1; NaN outside [0, 1].
   *
   * @param p probability
   * @return z with Φ(z) = p
   */
  public static double quantile(double p) {
    if (!(p >= 0.0 && p <= 1.0)) {
      return Double.NaN;
    }
    if (p < 0.25) {
      // Φ⁻¹(p) = −√2 erfcinv(2p)
      return -SQRT2 * Erf.erfcinv(2.0 * p);
    }
    if (p > 0.75) {
      // Φ⁻¹(p) = √2 erfcinv(2(1 − p)); 1 − p exact for p ≥ ½
      return SQRT2 * Erf.erfcinv(2.0 * (1.0 - p));
    }
    // Φ⁻¹(p) = √2 erfinv(2p − 1); 2p − 1 exact for p in [¼, ¾]
    return SQRT2 * Erf.erfinv(2.0 * p - 1.0);
  }
}
