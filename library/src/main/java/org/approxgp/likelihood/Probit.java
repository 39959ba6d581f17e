package org.approxgp.likelihood;

import java.util.function.DoubleUnaryOperator;
import org.approxgp.special.Erf;
import org.approxgp.special.Normal;
import org.approxgp.special.OwensT;
import org.approxgp.special.Quadrature;

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
  private static final double INV_SQRT2 = 0.7071067811865476;
  private static final double SQRT_2_OVER_PI = 0.7978845608028654;
  private static final double SQRT_2PI = 2.5066282746310002;
  private static final Probit INSTANCE = new Probit();
  /** Relative tolerance of the adaptive quadrature for E[log Φ(y f)], which has no closed form. */
  private static final double VE_REL_TOL = 1e-12;

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
      throw new IllegalArgumentException("need finite m and positive finite v, got N(" + m + ", " + v + ")");
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
  public double tiltedExpectedLogCdf(double y, double m, double v) {
    validate(y);
    if (!(v > 0) || !Double.isFinite(v) || !Double.isFinite(m)) {
      throw new IllegalArgumentException("need finite m and positive finite v, got N(" + m + ", " + v + ")");
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
    double big = Math.max(Math.max(Math.abs(t1), Math.abs(t2)), Math.max(Math.max(Math.abs(t3), Math.abs(t4)), beta));
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
    DoubleUnaryOperator g = t -> Math.exp(Normal.logPdf(c - t) - logPhiK + Normal.logCdf(shift + slope * t));
    // decay rate of the integrand at t = 0: −d/dt log g(0) = −c − (ρ/r) N/Φ(shift)
    double lambda = Math.max(1.0, -c - slope * Normal.ratio(shift));
    // Gauss–Laguerre rules of 24 and 36 nodes on e^{−u} [e^{u} g(u/λ)] / λ; the integrand is entire and
    // smooth, the 24-node rule limits the agreement (~1e-13), so agreement to 1e-12 leaves the 36-node
    // value accurate to ~1e-13 (checked against adaptive Gauss–Kronrod at 1e-15)
    double q1 = laguerre(g, lambda, LAG_X1, LAG_W1);
    double q2 = laguerre(g, lambda, LAG_X2, LAG_W2);
    if (Math.abs(q1 - q2) <= 1e-12 * q2) {
      return q2;
    }
    return expSinh(g, 1 / lambda);
  }

  private static final double[] LAG_X1;
  private static final double[] LAG_W1;
  private static final double[] LAG_X2;
  private static final double[] LAG_W2;

  static {
    double[][] a = laguerreRule(24);
    LAG_X1 = a[0];
    LAG_W1 = a[1];
    double[][] b = laguerreRule(36);
    LAG_X2 = b[0];
    LAG_W2 = b[1];
  }

  /** (1/λ) Σ wᵢ e^{uᵢ} g(uᵢ/λ) ≈ ∫₀^∞ g(t) dt. */
  private static double laguerre(DoubleUnaryOperator g, double lambda, double[] x, double[] w) {
    double s = 0;
    for (int i = 0; i < x.length; i++) {
      double v = g.applyAsDouble(x[i] / lambda);
      if (v > 0) {
        s += w[i] * Math.exp(x[i] + Math.log(v));
      }
    }
    return s / lambda;
  }

  /**
   * Gauss–Laguerre nodes and weights (weight e^{−u} on [0, ∞)): roots of L_n by Newton's method on the
   * three-term recurrence (j L_j = (2j − 1 − u) L_{j−1} − (j − 1) L_{j−2}) from the asymptotic starting
   * values of Stroud &amp; Secrest; wᵢ = −1/(n L_n'(uᵢ) L_{n−1}(uᵢ)).
   */
  static double[][] laguerreRule(int n) {
    double[] x = new double[n];
    double[] w = new double[n];
    double z = 0;
    for (int i = 0; i < n; i++) {
      if (i == 0) {
        z = 3.0 / (1.0 + 2.4 * n);
      } else if (i == 1) {
        z += 15.0 / (1.0 + 2.5 * n);
      } else {
        double ai = i - 1;
        z += (1.0 + 2.55 * ai) / (1.9 * ai) * (z - x[i - 2]);
      }
      double p1 = 0;
      double p2 = 0;
      double pp = 0;
      for (int it = 0; it < 100; it++) {
        p1 = 1;
        p2 = 0;
        for (int j = 1; j <= n; j++) {
          double p3 = p2;
          p2 = p1;
          p1 = ((2 * j - 1 - z) * p2 - (j - 1) * p3) / j;
        }
        pp = n * (p1 - p2) / z;
        double z1 = z;
        z = z1 - p1 / pp;
        if (Math.abs(z - z1) <= 1e-15 * z) {
          break;
        }
      }
      x[i] = z;
      w[i] = -1.0 / (pp * n * p2);
    }
    return new double[][] {x, w};
  }

  /**
   * ∫₀^∞ g(t) dt by the exp–sinh trapezoid rule t = L exp(π/2 sinh τ), dt = t (π/2) cosh τ dτ
   * (Takahasi &amp; Mori 1974), τ ∈ [−4, 4], step halved from ½ to 1/64 until two consecutive levels agree to
   * 1e-14 relative (the integrand here is positive, smooth and decays at least like a Gaussian). L is
   * the length scale of the integrand (1/|c| for c ≪ 0).
   */
  private static double expSinh(DoubleUnaryOperator g, double scale) {
    double h = 0.5;
    double sum = 0;
    for (int k = -8; k <= 8; k++) {
      sum += expSinhNode(g, scale, k * h);
    }
    double prev = sum * h;
    for (int level = 2; level <= 7; level++) {
      h *= 0.5;
      for (double t = -4 + h; t < 4; t += 2 * h) {
        sum += expSinhNode(g, scale, t);
      }
      double cur = sum * h;
      // the trapezoid error decays exponentially in 1/h, so |I_h − I_2h| bounds the error of I_h
      if (Math.abs(cur - prev) <= 1e-14 * cur) {
        return cur;
      }
      prev = cur;
    }
    return prev;
  }

  private static double expSinhNode(DoubleUnaryOperator g, double scale, double tau) {
    double q = 0.5 * Math.PI * Math.sinh(tau);
    double t = scale * Math.exp(q);
    double v = g.applyAsDouble(t);
    return v == 0 || !Double.isFinite(v) ? 0 : v * t * 0.5 * Math.PI * Math.cosh(tau);
  }

  /**
   * E_{N(f | m, v)}[log Φ(y f)] and its derivatives. No closed form: adaptive Gauss–Kronrod quadrature over
   * t with f = m + √v t and weight φ(t), split where y f = 0 (log Φ turns from ≈ −f²/2 to ≈ 0 there, which
   * defeats Gauss–Hermite for large v). Derivatives by Bonnet's and Price's theorems (Opper &amp;
   * Archambeau 2009, eq. 8–9): ∂E/∂m = E[∂ log p/∂f] = E[y r(y f)], ∂E/∂v = ½ E[∂² log p/∂f²]
   * = −½ E[r(y f) d(y f)]. For √v ≤ 2 (with the tail's mass inside the nodes) a Gauss–Hermite rule of 64 to
   * 200 points is as accurate ({@link #gaussHermite}); otherwise the three integrals share one adaptive
   * partition ({@link VeQuadrature}), refined until each of them meets the relative tolerance
   * {@value #VE_REL_TOL}. Either way each node evaluates log Φ(z) and r(z) once for all three
   * ({@link #logCdfRatio}). At v = 0 the values are exact: log Φ(y m), y r(y m), −½ r(y m) d(y m).
   */
  @Override
  public VariationalExpectation variationalExpectation(double y, double m, double v) {
    if (v == 0) {
      double z = y * m;
      double r = Normal.ratio(z);
      return new VariationalExpectation(Normal.logCdf(z), y * r, -0.5 * r * zPlusRatio(z));
    }
    double s = Math.sqrt(v);
    double[] e = s <= GH_MAX_SD[GH_MAX_SD.length - 1] && y * m * s <= GH_MAX_SHIFT * (1 + v)
        ? gaussHermite(y, m, s) : VeQuadrature.integrate(y, m, s);
    return new VariationalExpectation(e[0], e[1], e[2]);
  }

  /** The Gauss–Hermite tiers of {@link #variationalExpectation}: √v ≤ GH_MAX_SD[k] uses GH_POINTS[k] points. */
  private static final double[] GH_MAX_SD = {1.0, 1.5, 2.0};
  private static final int[] GH_POINTS = {64, 128, 200};
  /** Largest y m √v/(1 + v) (the centre t* of the integrands' mass in their tail) for that path. */
  private static final double GH_MAX_SHIFT = 4.0;
  /** Per tier, the rule for E over N(0, 1): nodes t = √2 x and weights w/√π of the e^{−x²} rule. */
  private static final double[][] GH_T = new double[GH_POINTS.length][];
  private static final double[][] GH_W = new double[GH_POINTS.length][];

  static {
    for (int k = 0; k < GH_POINTS.length; k++) {
      org.approxgp.special.GaussHermite rule = org.approxgp.special.GaussHermite.of(GH_POINTS[k]);
      double[] x = rule.nodes();
      double[] w = rule.weights();
      GH_T[k] = new double[x.length];
      GH_W[k] = new double[x.length];
      for (int i = 0; i < x.length; i++) {
        GH_T[k][i] = Math.sqrt(2) * x[i];
        GH_W[k][i] = w[i] / Math.sqrt(Math.PI);
      }
    }
  }

  /**
   * The three expectations of {@link #variationalExpectation} by an n-point Gauss–Hermite rule (Golub &amp;
   * Welsch 1969, {@link org.approxgp.special.GaussHermite}): Σ wᵢ h(m + √v tᵢ), with n = 64, 128, 200 for
   * √v ≤ 1, 1.5, 2. Used only where it is as accurate as the adaptive quadrature (measured against it on a
   * grid of √v and m: relative 4e-14 (64 points), 3e-15 (128), 1e-14 (200); {@code
   * ProbitVariationalExpectationTest} asserts 2e-12): the kink of log Φ at y f = 0 has width 1 in f, i.e. 1/√v
   * in t, and must be resolved by the rule (at √v = 2–3 even 200 points are off by 2e-9), and
   * y m √v/(1 + v) ≤ {@value #GH_MAX_SHIFT}: for y m &gt; 0 the mass of the small E[log Φ] ≈ −E[Φ(−y f)]
   * sits at t* = −y m √v/(1 + v), which must lie well inside the nodes (|tᵢ| ≤ 10.5 for 64 points).
   */
  private static double[] gaussHermite(double y, double m, double s) {
    int k = 0;
    while (s > GH_MAX_SD[k]) {
      k++;
    }
    double[] t = GH_T[k];
    double[] w = GH_W[k];
    double e = 0;
    double dm = 0;
    double dv = 0;
    double[] h = new double[3];
    for (int i = 0; i < t.length; i++) {
      logCdfRatio(y * (m + s * t[i]), h);
      e += w[i] * h[0];
      dm += w[i] * h[1];
      dv += w[i] * h[2];
    }
    return new double[] {e, y * dm, -0.5 * dv};
  }

  /**
   * out = (log Φ(z), r(z), r(z) d(z)) with r = N/Φ and d = z + r, from one erfcx or erfc: the formulas of
   * {@link Normal#logCdf} and {@link Normal#ratio} sharing their special-function call, and d by
   * {@link #zPlusRatio}'s continued fraction below z = −{@value #CF_SWITCH}.
   */
  private static void logCdfRatio(double z, double[] out) {
    double lc;
    double r;
    if (z < 0) {
      // Φ(z) = ½ erfcx(−z/√2) e^{−z²/2}: log Φ = log(½ erfcx) − z²/2 (z² split exactly by fma), r = √(2/π)/erfcx
      double u = Erf.erfcx(-z * INV_SQRT2);
      double zz = z * z;
      lc = Math.log(0.5 * u) - 0.5 * zz - 0.5 * Math.fma(z, z, -zz);
      r = SQRT_2_OVER_PI / u;
    } else {
      // q = Φ(−z) = ½ erfc(z/√2) = ½ erfcx(z/√2) e^{−z²/2} (the latter for z > 1, sharing N(z)'s exponential);
      // log Φ(z) = log1p(−q), r = N(z)/(1 − q)
      double pz = Normal.pdf(z);
      double q = z > 1 ? 0.5 * Erf.erfcx(z * INV_SQRT2) * (pz * SQRT_2PI) : 0.5 * Erf.erfc(z * INV_SQRT2);
      lc = Math.log1p(-q);
      r = pz / (1 - q);
    }
    double d = z < -CF_SWITCH ? zPlusRatio(z) : z + r;
    out[0] = lc;
    out[1] = r;
    out[2] = r * d;
  }

  /**
   * ∫ φ(t) h(m + s t) dt for the three integrands h = (log Φ(y f), y r(y f), −½ r(y f) d(y f)) on one shared
   * adaptive partition.
   *
   * <p>Range: φ(t) underflows to 0 for |t| &gt; 38.6 and every h is finite, so [−{@value #T_MAX},
   * {@value #T_MAX}] is the whole line in double precision. Initial partition: break points at 0, ±1, ±2, ±4,
   * ±8, ±16 (widths doubling away from the peak of φ, so that the peak is sampled however far away the kink
   * is) and at the kink t₀ = −m/s where y f = 0.
   *
   * <p>Rule: on each piece the 15-point Kronrod rule gives the values and |K15 − G7| plus a rounding floor
   * 50 ε ∫|g| the error estimates (QUADPACK QK15, Piessens et al. 1983, p. 117 — the constants and error
   * estimate of {@code org.approxgp.special.Quadrature}). The piece with the largest error relative to its
   * integral is bisected until, for every integrand, the summed estimate is ≤ {@value #VE_REL_TOL} ×
   * |integral| (each integrand has one sign on the whole line, so a relative tolerance is meaningful), or
   * 2000 pieces (QUADPACK QAG's globally adaptive strategy).
   */
  private static final class VeQuadrature {
    private static final double[] XGK = Quadrature.kronrod15Nodes();
    private static final double[] WGK = Quadrature.kronrod15Weights();
    private static final double[] WG = Quadrature.gauss7Weights();
    private static final double EPS = Math.ulp(1.0);
    private static final int MAX_PIECES = 2000;
    /** φ(t) underflows to 0 for |t| &gt; 38.6. */
    private static final double T_MAX = 40;
    /** The initial partition of [−T_MAX, T_MAX]. */
    private static final double[] BREAKS = {-T_MAX, -16, -8, -4, -2, -1, 0, 1, 2, 4, 8, 16, T_MAX};

    private final double y;
    private final double m;
    private final double s;
    private final double[] h = new double[3];
    // the pieces [lo, hi] with their three K15 values and error estimates
    private int count;
    private double[] lo = new double[64];
    private double[] hi = new double[64];
    private double[][] val = new double[64][];
    private double[][] err = new double[64][];

    private VeQuadrature(double y, double m, double s) {
      this.y = y;
      this.m = m;
      this.s = s;
    }

    static double[] integrate(double y, double m, double s) {
      VeQuadrature q = new VeQuadrature(y, m, s);
      double t0 = -m / s;
      boolean inserted = !(t0 > -T_MAX && t0 < T_MAX);
      double prev = BREAKS[0];
      for (int i = 1; i < BREAKS.length; i++) {
        double c = BREAKS[i];
        if (!inserted && t0 <= c) {
          if (t0 > prev && t0 < c) {
            q.add(prev, t0);
            prev = t0;
          }
          inserted = true;
        }
        q.add(prev, c);
        prev = c;
      }
      return q.adapt();
    }

    private double[] adapt() {
      double[] total = new double[3];
      double[] error = new double[3];
      while (true) {
        java.util.Arrays.fill(total, 0);
        java.util.Arrays.fill(error, 0);
        for (int p = 0; p < count; p++) {
          for (int c = 0; c < 3; c++) {
            total[c] += val[p][c];
            error[c] += err[p][c];
          }
        }
        boolean done = true;
        for (int c = 0; c < 3; c++) {
          if (Double.isNaN(total[c]) || Double.isNaN(error[c]) || Double.isInfinite(total[c])) {
            return new double[] {Double.NaN, Double.NaN, Double.NaN};
          }
          done &= error[c] <= VE_REL_TOL * Math.abs(total[c]);
        }
        if (done || count >= MAX_PIECES) {
          return total;
        }
        // the piece contributing most to the worst relative error
        int worst = -1;
        double w = -1;
        for (int p = 0; p < count; p++) {
          for (int c = 0; c < 3; c++) {
            double rel = err[p][c] / Math.abs(total[c]);
            if (rel > w) {
              w = rel;
              worst = p;
            }
          }
        }
        if (worst < 0) {
          return total;
        }
        double l = lo[worst];
        double u = hi[worst];
        double mid = 0.5 * (l + u);
        if (!(mid > l && mid < u)) {
          return total;
        }
        // replace the worst piece by the last one, then append its two halves
        count--;
        lo[worst] = lo[count];
        hi[worst] = hi[count];
        val[worst] = val[count];
        err[worst] = err[count];
        add(l, mid);
        add(mid, u);
      }
    }

    /** Adds the piece [l, u] with its K15 values and error estimates. */
    private void add(double l, double u) {
      if (count == lo.length) {
        int n = 2 * count;
        lo = java.util.Arrays.copyOf(lo, n);
        hi = java.util.Arrays.copyOf(hi, n);
        val = java.util.Arrays.copyOf(val, n);
        err = java.util.Arrays.copyOf(err, n);
      }
      double c = 0.5 * (l + u);
      double r = 0.5 * (u - l);
      double[] kr = new double[3];
      double[] gs = new double[3];
      double[] ab = new double[3];
      eval(c);
      for (int q = 0; q < 3; q++) {
        kr[q] = h[q] * WGK[7];
        gs[q] = h[q] * WG[3];
        ab[q] = Math.abs(h[q]) * WGK[7];
      }
      for (int j = 0; j < 7; j++) {
        double dx = r * XGK[j];
        eval(c - dx);
        double h0 = h[0];
        double h1 = h[1];
        double h2 = h[2];
        eval(c + dx);
        kr[0] += WGK[j] * (h0 + h[0]);
        kr[1] += WGK[j] * (h1 + h[1]);
        kr[2] += WGK[j] * (h2 + h[2]);
        ab[0] += WGK[j] * (Math.abs(h0) + Math.abs(h[0]));
        ab[1] += WGK[j] * (Math.abs(h1) + Math.abs(h[1]));
        ab[2] += WGK[j] * (Math.abs(h2) + Math.abs(h[2]));
        if (j % 2 == 1) {
          gs[0] += WG[j / 2] * (h0 + h[0]);
          gs[1] += WG[j / 2] * (h1 + h[1]);
          gs[2] += WG[j / 2] * (h2 + h[2]);
        }
      }
      double[] v = new double[3];
      double[] e = new double[3];
      for (int q = 0; q < 3; q++) {
        v[q] = kr[q] * r;
        e[q] = Math.abs((kr[q] - gs[q]) * r) + 50.0 * EPS * ab[q] * Math.abs(r);
      }
      lo[count] = l;
      hi[count] = u;
      val[count] = v;
      err[count] = e;
      count++;
    }

    /** The three integrands times φ(t) at t. */
    private void eval(double t) {
      double w = Normal.pdf(t);
      if (w == 0) {
        // |t| > 38.6: every h is finite, so each product is 0
        h[0] = 0;
        h[1] = 0;
        h[2] = 0;
        return;
      }
      logCdfRatio(y * (m + s * t), h);
      h[0] *= w;
      h[1] *= y * w;
      h[2] *= -0.5 * w;
    }
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
