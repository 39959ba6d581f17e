package org.approxgp.likelihood;

import org.approxgp.special.Gammas;
import org.approxgp.special.Hypergeometric1F1;
import org.approxgp.special.LogSpace;
import org.approxgp.special.SignedLog;

/**
 * Poisson likelihood with the square link, p(y | f) = (f²)^y e^{−f²}/y!, y ∈ ℕ (Zhang et al. 2020,
 * "Quantile Propagation", §6.2 and appendix C.2; Walder &amp; Bishop 2017; Flaxman et al. 2017).
 *
 * <p><b>Tilted distribution.</b> With the cavity N(f | μ, σ²), completing the square in
 * N(f | μ, σ²) e^{−f²} gives (eq. 52)
 * <pre>
 *   q̃(f) ∝ f^{2y} N(f | β, s²),   β = μ/(1 + 2σ²),   s² = σ²/(1 + 2σ²) = α/2,   h = μ²/(1 + 2σ²)   (eq. 55, 67)
 * </pre>
 * and everything is a moment of a Gaussian: with x = −β²/(2s²) = −h/(2σ²) ≤ 0 and
 * E_{N(β,s²)}[f^{2y}] = (2s²)^y Γ(y + ½)/√π · 1F1(−y; ½; x),
 * <pre>
 *   log Z = −h − ½ log(1 + 2σ²) − log y! + y log α + log Γ(y + ½) − ½ log π + log 1F1(−y; ½; x)   (eq. 53–54)
 * </pre>
 * The mean and variance follow from ∂/∂μ log Z (eq. 56–60) with d/dx 1F1(a; b; x) = (a/b) 1F1(a+1; b+1; x);
 * writing r₁ = 1F1(1−y; 3/2; x)/1F1(−y; ½; x) and r₂ = 1F1(2−y; 5/2; x)/1F1(−y; ½; x), eq. 57 and 60
 * simplify to
 * <pre>
 *   μ̃ = β (1 + 2y r₁)
 *   σ̃² = s² (1 + 2y r₁) + 2yβ² [ (2(y−1)/3) r₂ − 2y r₁² ]
 * </pre>
 * (algebraically identical to σ² + σ⁴ ∂²_μ log Z of eq. 58–60; the form above avoids the σ² − 2σ⁴/(1+2σ²)
 * cancellation). For x ≤ 0 every term of the three 1F1 polynomials is positive, so they are evaluated
 * as {@link SignedLog}s without cancellation for any y and μ; the ratios are exponentials of log
 * differences. The bracket in σ̃² cancels by a factor ≈ y for large |x| (measured accuracy in the tests).
 *
 * <p><b>Tilted CDF</b> (eq. 61–67): with u = x − β, expanding (t + β)^{2y} binomially,
 * <pre>
 *   F(x) = Σ_k C(2y,k) β^{2y−k} ∫_{−∞}^{u} t^k e^{−t²/α} dt  /  Σ_{k even} C(2y,k) β^{2y−k} α^{(k+1)/2} Γ((k+1)/2),
 *   ∫_{−∞}^{u} t^k e^{−t²/α} dt = ½ α^{(k+1)/2} Γ((k+1)/2) · { Q((k+1)/2, u²/α)       k even, u ≤ 0
 *                                                              1 + P((k+1)/2, u²/α)   k even, u > 0
 *                                                              −Q((k+1)/2, u²/α)      k odd }
 * </pre>
 * (eq. 66 with the regularised incomplete gamma functions P, Q), summed with a signed log-sum-exp. The
 * sum of the absolute values of the terms is at most ∫ (|t| + |β|)^{2y} e^{−t²/α} dt ≤ 2 × the
 * denominator, so F has absolute error O(y ε); the denominator is the same sum (the u → ∞ limit), so
 * F(∞) = 1 exactly.
 *
 * <p><b>Variational expectation.</b> E_{N(m,v)}[log p] = y E[log f²] − (m² + v) − log y!. f²/v is a
 * non-central χ²₁ with non-centrality 2a, a = m²/(2v), i.e. a Poisson(a) mixture of χ²_{1+2j}, and
 * E[log χ²_ν] = log 2 + ψ(ν/2), so
 * <pre>
 *   E[log f²] = log(2v) + S₀,   S₀ = Σ_j Pois(j; a) ψ(j + ½)
 *   dS₀/da = S₁ = Σ_j Pois(j; a)/(j + ½) = 2 ₁F₁(1; 3/2; −a) = 2 D(√a)/√a   (D: Dawson's integral)
 *   ∂E[log f²]/∂m = S₁ m/v,   ∂E[log f²]/∂v = (1 − a S₁)/v
 * </pre>
 * For a ≥ {@value #ASYMPTOTIC_A} the asymptotic series E[log f²] = log m² − Σ_{k≥1} (2k−1)!!/(k (2a)^k),
 * a S₁ = 1 + Σ_{k≥1} (2k−1)!!/(2a)^k is used instead (its terms decrease until k ≈ a). Note
 * ∂E/∂v = y(1 − a S₁)/v − 1 is positive for small a and v &lt; y: log p is not concave in f.
 */
public final class PoissonSquareLink implements Likelihood, java.io.Serializable {
  private static final long serialVersionUID = 1L;

  /** Deserialises to the one instance. */
  private Object readResolve() {
    return INSTANCE;
  }

  private static final PoissonSquareLink INSTANCE = new PoissonSquareLink();
  private static final double LOG_PI = Math.log(Math.PI);
  /** ψ(½) = −γ − 2 log 2. */
  private static final double DIGAMMA_HALF = -0.5772156649015329 - 2 * Math.log(2);
  /** Above this a = m²/(2v) the variational expectation uses the asymptotic series. */
  static final double ASYMPTOTIC_A = 100;
  /** Largest count accepted (the 1F1 polynomials and the CDF sum have O(y) terms). */
  public static final int MAX_COUNT = 100_000;

  private PoissonSquareLink() {}

  public static PoissonSquareLink get() {
    return INSTANCE;
  }

  @Override
  public String name() {
    return "poisson-square";
  }

  @Override
  public void validate(double y) {
    if (!(y >= 0) || y != Math.rint(y) || y > MAX_COUNT) {
      throw new IllegalArgumentException(
          "poisson-square counts must be integers in 0.." + MAX_COUNT + ", got " + y);
    }
  }

  private static int count(double y) {
    INSTANCE.validate(y);
    return (int) y;
  }

  private static void checkCavity(double m, double v) {
    if (!(v > 0) || !Double.isFinite(v) || !Double.isFinite(m)) {
      throw new IllegalArgumentException(
          "cavity needs finite mean and positive finite variance, got N(" + m + ", " + v + ")");
    }
  }

  /** For y &gt; 0, log p = 2y log|f| − f² − log y! is singular at f = 0. */
  @Override
  public double[] breakpoints(double y) {
    return count(y) > 0 ? new double[] {0} : new double[0];
  }

  /** E[y | f] = f² (the Poisson rate). */
  @Override
  public double conditionalMean(double f) {
    return f * f;
  }

  /** Var[y | f] = f². */
  @Override
  public double conditionalVariance(double f) {
    return f * f;
  }

  @Override
  public LogDensity logDensity(double y, double f) {
    int n = count(y);
    // log p = 2y log|f| − f² − log y!;  d1 = 2y/f − 2f;  d2 = −2y/f² − 2;  d3 = 4y/f³
    double lf = n == 0 ? 0.0 : 2 * n * Math.log(Math.abs(f));
    double value = lf - f * f - Gammas.logGamma(n + 1.0);
    if (n == 0) {
      return new LogDensity(value, -2 * f, -2, 0);
    }
    return new LogDensity(value, 2 * n / f - 2 * f, -2 * n / (f * f) - 2, 4 * n / (f * f * f));
  }

  @Override
  public TiltedMoments tilted(double y, double m, double v) {
    int n = count(y);
    checkCavity(m, v);
    double c = 1 + 2 * v;
    double beta = m / c; // eq. 67
    double s2 = v / c; // = α/2
    double h = m * beta; // μ²/(1+2σ²), eq. 55
    double x = -beta * beta / (2 * s2); // = −h/(2σ²)
    SignedLog f0 = Hypergeometric1F1.logNegativeInteger(n, 0.5, x);
    // eq. 53-54: log Z = −h − ½ log(1+2σ²) − log y! + y log α + log Γ(y+½) − ½ log π + log 1F1(−y;
    // ½; x)
    double logZ = -h
        - 0.5 * Math.log(c)
        - Gammas.logGamma(n + 1.0)
        + n * Math.log(2 * s2)
        + Gammas.logGamma(n + 0.5)
        - 0.5 * LOG_PI
        + f0.logAbs();
    if (n == 0) {
      return new TiltedMoments(logZ, beta, s2);
    }
    double r1 =
        Math.exp(Hypergeometric1F1.logNegativeInteger(n - 1, 1.5, x).logAbs() - f0.logAbs());
    // eq. 57: μ̃ = σ² ∂_μ log Z + μ = β (1 + 2y r₁)
    double mean = beta * (1 + 2 * n * r1);
    double bracket = -2.0 * n * r1 * r1;
    if (n >= 2) {
      double r2 =
          Math.exp(Hypergeometric1F1.logNegativeInteger(n - 2, 2.5, x).logAbs() - f0.logAbs());
      bracket += 2.0 * (n - 1) / 3.0 * r2;
    }
    // eq. 58-60: σ̃² = σ² + σ⁴ ∂²_μ log Z = s² (1 + 2y r₁) + 2yβ² [(2(y−1)/3) r₂ − 2y r₁²]
    double variance = s2 * (1 + 2 * n * r1) + 2 * n * beta * beta * bracket;
    return new TiltedMoments(logZ, mean, variance);
  }

  @Override
  public double tiltedCdf(double y, double m, double v, double xq) {
    int n = count(y);
    checkCavity(m, v);
    if (Double.isNaN(xq)) {
      throw new IllegalArgumentException("x is NaN");
    }
    if (xq == Double.NEGATIVE_INFINITY) {
      return 0;
    }
    if (xq == Double.POSITIVE_INFINITY) {
      return 1;
    }
    double c = 1 + 2 * v;
    double beta = m / c;
    double alpha = 2 * v / c;
    double logAlpha = Math.log(alpha);
    double logAbsBeta = Math.log(Math.abs(beta));
    int betaSign = beta > 0 ? 1 : beta < 0 ? -1 : 0;
    double u = xq - beta;
    double z = u * u / alpha;
    int terms = 2 * n + 1;
    double[] num = new double[terms];
    int[] numSign = new int[terms];
    double[] den = new double[terms];
    int[] denSign = new int[terms];
    double logFact2n = Gammas.logGamma(2.0 * n + 1);
    for (int k = 0; k <= 2 * n; k++) {
      int p = 2 * n - k;
      // C(2y,k) β^{2y−k} α^{(k+1)/2} Γ((k+1)/2) as a signed log (β^0 = 1 even for β = 0)
      int sign = p == 0 ? 1 : (betaSign == 0 ? 0 : (p % 2 == 0 ? 1 : betaSign));
      if (sign == 0) {
        continue;
      }
      double a = 0.5 * (k + 1);
      double lt = logFact2n
          - Gammas.logGamma(k + 1.0)
          - Gammas.logGamma(p + 1.0)
          + (p == 0 ? 0 : p * logAbsBeta)
          + a * logAlpha
          + Gammas.logGamma(a);
      if (k % 2 == 0) {
        den[k] = lt; // bracket = 2 in the u → ∞ limit; the common factor ½ cancels
        denSign[k] = sign;
        if (u <= 0) {
          num[k] = lt + Gammas.logRegularizedQ(a, z) - Math.log(2);
        } else {
          num[k] = lt + Math.log1p(Gammas.regularizedP(a, z)) - Math.log(2);
        }
        numSign[k] = sign;
      } else {
        num[k] = lt + Gammas.logRegularizedQ(a, z) - Math.log(2);
        numSign[k] = -sign;
      }
    }
    SignedLog top = LogSpace.signedSum(num, numSign);
    SignedLog bottom = LogSpace.signedSum(den, denSign);
    if (top.sign() <= 0) {
      return 0; // a tiny negative value is rounding error (|error| = O(y ε))
    }
    return Math.min(1.0, Math.exp(top.logAbs() - bottom.logAbs()));
  }

  @Override
  public VariationalExpectation variationalExpectation(double y, double m, double v) {
    int n = count(y);
    if (!(v >= 0) || !Double.isFinite(v) || !Double.isFinite(m)) {
      throw new IllegalArgumentException("need finite m and v >= 0, got m=" + m + ", v=" + v);
    }
    double logFact = Gammas.logGamma(n + 1.0);
    // E[f²] = m² + v
    double e = -(m * m + v) - logFact;
    double dm = -2 * m;
    double dv = -1;
    if (n == 0) {
      return new VariationalExpectation(e, dm, dv);
    }
    double[] l = logSquareMoments(m, v);
    return new VariationalExpectation(e + n * l[0], dm + n * l[1], dv + n * l[2]);
  }

  /**
   * E[log f²], ∂/∂m and ∂/∂v for f ~ N(m, v) (see the class comment). v = 0 gives log m², 2/m,
   * −1/m² (−∞ etc. when m = 0 too).
   *
   * @return {E[log f²], ∂E[log f²]/∂m, ∂E[log f²]/∂v}
   */
  public static double[] logSquareMoments(double m, double v) {
    if (v == 0) {
      return new double[] {Math.log(m * m), 2 / m, -1 / (m * m)};
    }
    double a = m * m / (2 * v);
    if (a >= ASYMPTOTIC_A) {
      // E[log f²] = log m² − Σ_k (2k−1)!!/(k (2a)^k);  a S₁ = 1 + Σ_k (2k−1)!!/(2a)^k
      double t = 1;
      double sumL = 0;
      double sumS = 0;
      for (int k = 1; k < 200; k++) {
        t *= (2 * k - 1) / (2 * a);
        sumL += t / k;
        sumS += t;
        if (t < 1e-18 * sumS) {
          break;
        }
      }
      double aS1 = 1 + sumS;
      return new double[] {Math.log(m * m) - sumL, aS1 / a * m / v, -sumS / v};
    }
    // S₀ = Σ_j Pois(j; a) ψ(j + ½), S₁ = Σ_j Pois(j; a)/(j + ½); ψ(j + 3/2) = ψ(j + ½) + 1/(j + ½)
    double p = Math.exp(-a);
    double psi = DIGAMMA_HALF;
    double s0 = 0;
    double s1 = 0;
    double ptot = 0;
    for (int j = 0; ; j++) {
      s0 += p * psi;
      s1 += p / (j + 0.5);
      ptot += p;
      if (j > a && p < 1e-18 * ptot) {
        break;
      }
      psi += 1 / (j + 0.5);
      p *= a / (j + 1);
    }
    double dmv = m == 0 ? 0 : s1 * m / v;
    return new double[] {Math.log(2 * v) + s0, dmv, (1 - a * s1) / v};
  }

  /**
   * The predictive distribution of a count y* when f* ~ N(m, v): f*² moment-matched by a Gamma and
   * integrated against the Poisson (QP paper appendix H, eq. 119–122). Its mean and variance are exact
   * (the Gamma matches E[f*²] and Var[f*²]); its log density is the paper's approximation of
   * {@link #logPredictive}.
   */
  @Override
  public NegativeBinomialPredictive predictive(double m, double v) {
    return NegativeBinomialPredictive.of(m, v);
  }
}
