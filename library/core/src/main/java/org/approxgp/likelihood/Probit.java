package org.approxgp.likelihood;

import java.util.function.DoubleUnaryOperator;
import org.approxgp.special.ExpSinh;
import org.approxgp.special.GaussLaguerre;
import org.approxgp.special.Normal;
import org.approxgp.special.OwensT;

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
public final class Probit implements Likelihood, java.io.Serializable {
  private static final long serialVersionUID = 1L;

  /** Deserialises to the one instance. */
  private Object readResolve() {
    return INSTANCE;
  }

  static final double CF_SWITCH = 6.0;
  private static final Probit INSTANCE = new Probit();
  private static final GaussLaguerre LAGUERRE_24 = GaussLaguerre.of(24);
  private static final GaussLaguerre LAGUERRE_36 = GaussLaguerre.of(36);

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
      double x = -z;
      return continuedFraction(x, cfDepth(x));
    }
    return z + Normal.ratio(z);
  }

  /** A depth at which the continued fraction is converged to machine precision for every x ≥ 6. */
  static final int CF_FULL_DEPTH = 60;

  /**
   * The depth used at x ≥ {@value #CF_SWITCH}. The approximants converge faster as x grows; the smallest depth
   * whose value equals depth {@value #CF_FULL_DEPTH}'s bit for bit, measured on 20000 points per interval, is 29
   * on [6, 7), 23 on [8, 9), 18 on [10, 12), 14 on [14, 16), 11 on [20, 25), 9 on [30, 40), 7 on [60, 100) and 6
   * beyond; each interval's depth here is that of its left end plus a margin of 3 to 9
   * ({@code ProbitTailTest} checks the equality on a denser grid). Each level costs a serial division, so the
   * full depth cost ten erfcx calls.
   */
  static int cfDepth(double x) {
    if (x < 8) {
      return 36;
    } else if (x < 10) {
      return 28;
    } else if (x < 14) {
      return 22;
    } else if (x < 20) {
      return 17;
    } else if (x < 30) {
      return 14;
    } else if (x < 60) {
      return 11;
    } else if (x < 100) {
      return 9;
    }
    return 8;
  }

  /**
   * d(−x) = 1/(x + 2/(x + 3/(x + ...))) (the Laplace continued fraction of the Mills ratio, Abramowitz &amp;
   * Stegun 26.2.14, rewritten for z + r), evaluated backward from level {@code depth}.
   */
  static double continuedFraction(double x, int depth) {
    double t = x;
    for (int k = depth; k >= 2; k--) {
      t = x + k / t;
    }
    return 1.0 / t;
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
  public double logDensityValue(double y, double f) {
    return Normal.logCdf(y * f);
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

  /**
   * Moments of N(f | m, v) Φ(y f)^u (Power EP, Minka 2004, eq. 9; Qi &amp; Guo appendix C, eq. 41–42): u = 1 is
   * {@link #tilted}; otherwise no closed form, log-concave quadrature in log space ({@link ProbitTilt}), finite
   * at every finite cavity (log Z as low as −5e11 at y m = −1e6).
   */
  @Override
  public TiltedMoments powerTilted(double y, double m, double v, double u) {
    if (!(v > 0) || !Double.isFinite(v) || !Double.isFinite(m)) {
      throw new IllegalArgumentException(
          "need finite m and positive finite v, got N(" + m + ", " + v + ")");
    }
    if (!(u > 0) || !Double.isFinite(u)) {
      throw new IllegalArgumentException("power must be positive and finite, got " + u);
    }
    return u == 1 ? tilted(y, m, v) : ProbitTilt.powerTilted(y, m, v, u);
  }

  /**
   * E₁ = E_p̂[log Φ(y f)] under the tilted distribution p̂ ∝ N(f | m, v) Φ(y f): the first term of Relaxed EP's
   * objective (Qi &amp; Guo eq. 35–36), by log-concave quadrature ({@link ProbitTilt}); accurate to ~1e-12
   * relative at every cavity variance up to 1e6 (not the variational expectation E_N[log Φ], which is
   * {@link #variationalExpectation}).
   */
  @Override
  public double tiltedExpectedLogDensity(double y, double m, double v) {
    return tiltedExpectedLogCdf(y, m, v);
  }

  /** As {@link #tiltedExpectedLogDensity}: E_p̂[log Φ(y f)]. */
  public double tiltedExpectedLogCdf(double y, double m, double v) {
    validate(y);
    if (!(v > 0) || !Double.isFinite(v) || !Double.isFinite(m)) {
      throw new IllegalArgumentException(
          "need finite m and positive finite v, got N(" + m + ", " + v + ")");
    }
    return ProbitTilt.tiltedExpectedLogCdf(y, m, v);
  }

  /**
   * The tilted CDF F(x) = Z⁻¹ ∫_{−∞}^x Φ(y f) N(f | m, v) df in closed form through Owen's T (Zhang et
   * al. 2020, appendix C.1, eq. 37–49).
   *
   * <p><b>Derivation.</b> Write f = m + √v U and Φ(y f) = P(W ≤ y f) with U, W independent standard
   * normals. With S = (W − y√v U)/√(1 + v) ~ N(0, 1), {f ≤ x, W ≤ y f} = {U ≤ a, S ≤ b}, so
   * <pre>
   *   F(x) = Φ₂(a, b; ρ) / Φ(b),   a = (x − m)/√v,  b = y m/√(1 + v),  ρ = corr(U, S) = −y √(v/(1 + v))
   * </pre>
   * (Z = Φ(b) is R&amp;W eq. 3.82). Owen (1956) gives, with r = √(1 − ρ²),
   * <pre>
   *   Φ₂(h, k; ρ) = ½Φ(h) + ½Φ(k) − T(h, (k − ρh)/(h r)) − T(k, (h − ρk)/(k r)) − β,
   *   β = 0 if hk &gt; 0 or (hk = 0 and h + k ≥ 0), ½ otherwise                       (eq. 40, 43)
   * </pre>
   * which is the paper's eq. 45–46 (its h, k are our a, b; (k − ρh)/(h r) = b/(a r) + σ for y = 1).
   * Limits: h = 0 gives Φ₂(0, k; ρ) = ½Φ(k) − T(k, −ρ/r) (eq. 47, x = m; −ρ/r = y√v), k = 0 the same with
   * h and k exchanged (eq. 48, m = 0) and h = k = 0 gives ¼ + asin(ρ)/(2π), i.e. F = ½ − (y/π) atan √v
   * (eq. 49).
   *
   * <p><b>Numerics.</b> (i) y = −1 is reduced to y = +1 by f → −f: F₋(x; m) = 1 − F₊(−x; −m). (ii) The
   * smaller tail is computed directly (lower tail Φ₂(a, b; ρ)/Φ(b) or upper tail Φ₂(−a, b; −ρ)/Φ(b),
   * whichever side of the tilted mean x is on) and the other is 1 − it, so F ∈ [0, 1] and tails keep
   * relative accuracy. (iii) Owen's formula is a signed sum of O(1) terms: when Φ(b) or the tail is tiny it
   * cancels catastrophically. Its condition number (largest term / result) is monitored; above
   * {@value #OWEN_MAX_CONDITION} the tail is computed instead from the positive one-dimensional
   * representation Φ₂(h, k; ρ) = N(h) ∫₀^∞ exp(h t − t²/2) Φ((k − ρh + ρt)/r) dt (condition on the
   * smaller argument h ≤ k, u = h − t), divided by Φ(b) in log space, by two Gauss–Laguerre rules
   * scaled to the integrand's decay rate (accepted when they agree to 1e-12), else exp–sinh quadrature.
   */
  @Override
  public double tiltedCdf(double y, double m, double v, double x) {
    if (!(v > 0)) {
      throw new IllegalArgumentException("cavity variance must be positive, got " + v);
    }
    if (x == Double.NEGATIVE_INFINITY) {
      return 0;
    }
    if (x == Double.POSITIVE_INFINITY) {
      return 1;
    }
    if (y > 0) {
      return lowerTiltedCdfPositive(m, v, x);
    }
    // F₋(x; m, v) = P(f ≤ x) with f = −g, g ~ q̃₊(· ; −m, v): = P(g ≥ −x) = 1 − F₊(−x; −m, v)
    return upperTiltedCdfPositive(-m, v, -x);
  }

  /** 1 − F_y(x; m, v) directly, by the mirror F₋(−x; −m, v) = 1 − F₊(x; m, v) (relative accuracy in the tail). */
  @Override
  public double tiltedSurvival(double y, double m, double v, double x) {
    return tiltedCdf(-y, -m, v, -x);
  }

  /** Both tails are closed forms (Owen's T, with a quadrature fallback where it is ill-conditioned). */
  @Override
  public boolean exactTiltedTails() {
    return true;
  }

  /**
   * Largest tolerated ratio (largest term in Owen's formula) / (result) before switching to quadrature:
   * Owen's T is accurate to about 1e-16 absolute, so the result keeps about 1e-13 relative accuracy.
   */
  static final double OWEN_MAX_CONDITION = 1e3;

  /** F₊(x) for y = +1, accurate in relative terms whenever F₊ ≤ ½. */
  private static double lowerTiltedCdfPositive(double m, double v, double x) {
    double[] t = tailsPositive(m, v, x);
    return t[0] >= 0 ? t[0] : 1 - t[1];
  }

  /** 1 − F₊(x) for y = +1, accurate in relative terms whenever it is ≤ ½. */
  private static double upperTiltedCdfPositive(double m, double v, double x) {
    double[] t = tailsPositive(m, v, x);
    return t[1] >= 0 ? t[1] : 1 - t[0];
  }

  /**
   * For y = +1: {lower, −1} when x lies below the tilted mean (lower tail computed), else {−1, upper}.
   * Each returned tail is clipped to [0, 1].
   */
  private static double[] tailsPositive(double m, double v, double x) {
    double sv = Math.sqrt(v);
    double s1 = Math.sqrt(1 + v);
    double a = (x - m) / sv;
    double b = m / s1;
    double rho = -sv / s1;
    double r = 1 / s1; // √(1 − ρ²)
    double mean = m + v * Normal.ratio(b) / s1; // eq. 36
    if (x <= mean) {
      return new double[] {clip(quadrantOverPhiB(a, b, rho, r)), -1};
    }
    // 1 − F = P(U > a | S ≤ b) = Φ₂(−a, b; −ρ)/Φ(b)
    return new double[] {-1, clip(quadrantOverPhiB(-a, b, -rho, r))};
  }

  private static double clip(double p) {
    return p < 0 ? 0 : (p > 1 ? 1 : p);
  }

  /** Φ₂(h, k; ρ)/Φ(k), r = √(1 − ρ²): Owen's T when well conditioned, else the positive integral. */
  static double quadrantOverPhiB(double h, double k, double rho, double r) {
    double phiK = Normal.cdf(k);
    double[] owen = owenQuadrant(h, k, rho, r);
    double value = owen[0];
    if (value > 0 && owen[1] <= OWEN_MAX_CONDITION * value && phiK > 0) {
      return value / phiK;
    }
    return quadrantByIntegral(h, k, rho, r);
  }

  /** {Φ₂(h, k; ρ), largest absolute term} by Owen (1956); see {@link #tiltedCdf}. */
  static double[] owenQuadrant(double h, double k, double rho, double r) {
    if (h == 0 && k == 0) {
      double p = 0.25 + Math.asin(rho) / (2 * Math.PI); // eq. 49
      return new double[] {p, 0.25};
    }
    if (h == 0 || k == 0) {
      // Φ₂(0, k; ρ) = ½Φ(k) − T(k, −ρ/r) (eq. 47/48 in the bivariate form); symmetric in (h, k)
      double kk = h == 0 ? k : h;
      double t1 = 0.5 * Normal.cdf(kk);
      double t2 = OwensT.value(kk, -rho / r);
      return new double[] {t1 - t2, Math.max(Math.abs(t1), Math.abs(t2))};
    }
    double t1 = 0.5 * Normal.cdf(h);
    double t2 = 0.5 * Normal.cdf(k);
    double t3 = OwensT.value(h, (k - rho * h) / (h * r));
    double t4 = OwensT.value(k, (h - rho * k) / (k * r));
    double beta = (h * k > 0) ? 0 : 0.5; // h k ≠ 0 here (eq. 43)
    double p = t1 + t2 - t3 - t4 - beta;
    double big = Math.max(
        Math.max(Math.abs(t1), Math.abs(t2)), Math.max(Math.max(Math.abs(t3), Math.abs(t4)), beta));
    return new double[] {p, big};
  }

  /**
   * Φ₂(h, k; ρ)/Φ(k) from Φ₂(h, k; ρ) = N(c) ∫₀^∞ exp(c t − t²/2) Φ((d − ρc + ρt)/r) dt with
   * (c, d) = (min, max) of (h, k) (substitute u = c − t in ∫_{−∞}^c N(u) Φ((d − ρu)/r) du). All terms are
   * positive, so the tail keeps its relative accuracy; N(c)/Φ(k) is formed in log space.
   */
  static double quadrantByIntegral(double h, double k, double rho, double r) {
    double c = Math.min(h, k);
    double d = Math.max(h, k);
    double shift = (d - rho * c) / r;
    double slope = rho / r;
    double logPhiK = Normal.logCdf(k);
    // N(c) exp(c t − t²/2) = N(c − t): the whole integrand in one exponent, no overflow for c ≫ 0
    DoubleUnaryOperator g =
        t -> Math.exp(Normal.logPdf(c - t) - logPhiK + Normal.logCdf(shift + slope * t));
    // decay rate of the integrand at t = 0: −d/dt log g(0) = −c − (ρ/r) N/Φ(shift)
    double lambda = Math.max(1.0, -c - slope * Normal.ratio(shift));
    // Gauss–Laguerre rules of 24 and 36 nodes on e^{−u} [e^{u} g(u/λ)] / λ; the integrand is entire
    // and
    // smooth, the 24-node rule limits the agreement (~1e-13), so agreement to 1e-12 leaves the
    // 36-node
    // value accurate to ~1e-13 (checked against adaptive Gauss–Kronrod at 1e-15)
    double q1 = LAGUERRE_24.integrate(g, lambda);
    double q2 = LAGUERRE_36.integrate(g, lambda);
    if (Math.abs(q1 - q2) <= 1e-12 * q2) {
      return q2;
    }
    return ExpSinh.integrate(g, 1 / lambda);
  }

  /**
   * E_{N(f | m, v)}[log Φ(y f)] and its derivatives by Bonnet's and Price's theorems; no closed form exists. The
   * quadrature (Gauss–Hermite where it is as accurate, adaptive Gauss–Kronrod split at the kink y f = 0
   * otherwise) is {@link ProbitExpectation}'s.
   */
  @Override
  public VariationalExpectation variationalExpectation(double y, double m, double v) {
    return ProbitExpectation.of(y, m, v);
  }

  @Override
  public double logPredictive(double y, double m, double v) {
    return Normal.logCdf(y * m / Math.sqrt(1 + v));
  }

  /** p(y* = +1) = Φ(m/√(1+v)) (R&amp;W eq. 3.82). */
  public double predictivePositive(double m, double v) {
    return Normal.cdf(m / Math.sqrt(1 + v));
  }

  /** E[y | f] = Φ(f) − Φ(−f) = 2Φ(f) − 1 for y ∈ {−1, +1}. */
  @Override
  public double conditionalMean(double f) {
    return Normal.cdf(f) - Normal.cdf(-f);
  }

  /** Var[y | f] = 1 − (2Φ(f) − 1)² = 4Φ(f)Φ(−f). */
  @Override
  public double conditionalVariance(double f) {
    return 4 * Normal.cdf(f) * Normal.cdf(-f);
  }

  /** The Bernoulli predictive p(y* = ±1) = Φ(±m/√(1+v)) (R&amp;W eq. 3.82). */
  @Override
  public Predictive predictive(double m, double v) {
    if (!(v >= 0) || !Double.isFinite(v) || !Double.isFinite(m)) {
      throw new IllegalArgumentException("need finite m and v >= 0, got N(" + m + ", " + v + ")");
    }
    return new LabelPredictive(m / Math.sqrt(1 + v));
  }

  /** p(y* = ±1) = Φ(±z); mean 2Φ(z) − 1, variance 4Φ(z)Φ(−z), mode sign(z) (NaN at z = 0). */
  record LabelPredictive(double z) implements Predictive {
    @Override
    public double logDensity(double y) {
      INSTANCE.validate(y);
      return Normal.logCdf(y * z);
    }

    @Override
    public double density(double y) {
      INSTANCE.validate(y);
      return Normal.cdf(y * z);
    }

    @Override
    public double mean() {
      return Normal.cdf(z) - Normal.cdf(-z);
    }

    @Override
    public double variance() {
      return 4 * Normal.cdf(z) * Normal.cdf(-z);
    }

    @Override
    public double mode() {
      return z > 0 ? 1 : z < 0 ? -1 : Double.NaN;
    }
  }
}
