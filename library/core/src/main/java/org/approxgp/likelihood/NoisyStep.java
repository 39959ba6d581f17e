package org.approxgp.likelihood;

import org.approxgp.special.GaussLegendre;
import org.approxgp.special.Normal;

/**
 * The noisy-step (labelling-error) likelihood of Qi &amp; Guo, "Message passing with relaxed moment matching"
 * (REP), eq. 8:
 * <pre>
 *   p(y | f) = (1 − ε) H(y f) + ε H(−y f) = ε + (1 − 2ε) H(y f),   y ∈ {−1, +1},  0 &lt; ε &lt; ½,
 * </pre>
 * H the Heaviside step: a label is flipped with probability ε. At f = 0 exactly H(0) = ½ (so that
 * p(+1 | 0) + p(−1 | 0) = 1; a set of measure zero, it changes no integral). ε is a <b>fixed</b>
 * hyperparameter (the paper never learns it): {@link #hyperparameterNames()} is empty, and a different ε is
 * a different likelihood ({@link #of}).
 *
 * <p><b>Power-tilted moments</b> (every closed form here is the case u = 1 of these). With a cavity
 * N(f | m, v), s = √v, z = y m/s and REP appendix C, eq. 41, p(y | f)^u = a + d H(y f),
 * a = ε^u, d = (1 − ε)^u − ε^u:
 * <pre>
 *   Z_u  = a + d Φ(z)                                                 (REP eq. 36 / eq. 41 denominator)
 *   α    = ∂ log Z_u / ∂(y m) = d φ(z) / (s Z_u)                       (REP eq. 14 for u = 1, eq. 41)
 *   mean = m + y v α                                                   (REP eq. 14)
 *   var  = v − v α (v α + y m) = v [1 − sα (sα + z)]                   (∂² log Z/∂m² = −α(α + y m/v))
 * </pre>
 * <b>Numerics</b> (the hard regions are listed in the README of the reference tables,
 * {@code src/test/resources/likelihood/noisy-step/}). log Z is a log-sum-exp of log a and
 * log d + log Φ(z) (log Φ accurate far into the tail, so Z never underflows to the ε-less value);
 * d = ε^u expm1(u log((1 − ε)/ε)) has no cancellation for small u. With the weights w₀ = a/Z_u,
 * w₁ = d Φ(z)/Z_u = 1 − w₀ (each from its own log), λ = φ(z)/Φ(z) (never a ratio of two underflowed
 * numbers) and δ = z + λ &gt; 0, sα = λ w₁ and
 * <pre>
 *   var/v = 1 − λ w₁ (δ − λ w₀) = (1 − λ δ) + w₀ λ (δ + λ w₁),
 * </pre>
 * a sum of non-negative terms: 1 − λδ is the variance of a standard normal truncated to t &gt; −z, and for
 * z &lt; −6 it is computed as δ(2g − δ) from the continued fraction δ = 1/(x + 2g), g = 1/(x + 3/(x + 4/…)),
 * x = −z (Abramowitz &amp; Stegun 26.2.14; 1 − xδ = 2gδ exactly), which avoids the cancellation of
 * 1 − λδ ≈ 1/z². The tilted variance can exceed v (the w₀ term): the EP site precision is then negative.
 *
 * <p><b>Tilted CDF</b> (u = 1; t = (x − m)/s, t₀ = −m/s; the tilted density is ε N on y f &lt; 0 and
 * (1 − ε) N on y f &gt; 0): Z F(x) and Z (1 − F(x)) are each a sum of non-negative normal masses,
 * <pre>
 *   y = +1:  Z F = ε Φ(t) + (1 − 2ε) P(t₀ &lt; T ≤ t),    Z (1 − F) = ε Φ̄(t) + (1 − 2ε) Φ̄(max(t, t₀)),
 *   y = −1:  Z F = ε Φ(t) + (1 − 2ε) Φ(min(t, t₀)),     Z (1 − F) = ε Φ̄(t) + (1 − 2ε) P(t &lt; T ≤ t₀),
 * </pre>
 * and F = (Z F)/(Z F + Z (1 − F)), the smaller tail divided directly, so both tails keep relative accuracy.
 */
public final class NoisyStep implements Likelihood, java.io.Serializable {
  private static final long serialVersionUID = 1L;

  /** Below z = −{@value}, 1 − λδ is taken from the continued fraction (as in {@link Probit}). */
  private static final double CF_SWITCH = Probit.CF_SWITCH;

  private final double epsilon;
  private final double logEps;
  /** log(1 − ε). */
  private final double logOneMinusEps;
  /** log((1 − ε)/ε) = log1p((1 − 2ε)/ε) &gt; 0. */
  private final double logOdds;

  /**
   * A noisy step with labelling-error rate ε.
   *
   * @param epsilon the flip probability, in (0, ½)
   * @throws IllegalArgumentException if ε is not in (0, ½)
   */
  public NoisyStep(double epsilon) {
    if (!(epsilon > 0 && epsilon < 0.5)) {
      throw new IllegalArgumentException(
          "noisy-step epsilon (label-flip probability) must be in (0, 0.5), got " + epsilon);
    }
    this.epsilon = epsilon;
    this.logEps = Math.log(epsilon);
    this.logOneMinusEps = Math.log1p(-epsilon);
    this.logOdds = Math.log1p((1 - 2 * epsilon) / epsilon);
  }

  /** {@code new NoisyStep(epsilon)}. */
  public static NoisyStep of(double epsilon) {
    return new NoisyStep(epsilon);
  }

  /** The label-flip probability ε. */
  public double epsilon() {
    return epsilon;
  }

  @Override
  public String name() {
    return "noisy-step";
  }

  @Override
  public String toString() {
    return "NoisyStep(epsilon=" + epsilon + ")";
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof NoisyStep n && Double.compare(n.epsilon, epsilon) == 0;
  }

  @Override
  public int hashCode() {
    return Double.hashCode(epsilon);
  }

  @Override
  public void validate(double y) {
    if (y != 1.0 && y != -1.0) {
      throw new IllegalArgumentException("noisy-step labels must be -1 or +1, got " + y);
    }
  }

  /** log p(y | f) = log(1 − ε) for y f &gt; 0, log ε for y f &lt; 0, log ½ at f = 0; all derivatives 0 (a.e.). */
  @Override
  public LogDensity logDensity(double y, double f) {
    double z = y * f;
    double value = z > 0 ? logOneMinusEps : z < 0 ? logEps : -Math.log(2);
    return new LogDensity(value, 0, 0, 0);
  }

  /** The step jumps at f = 0 for either label. */
  @Override
  public double[] breakpoints(double y) {
    return new double[] {0};
  }

  @Override
  public TiltedMoments tilted(double y, double m, double v) {
    return powerTilted(y, m, v, 1.0);
  }

  /**
   * E_p̂[log p(y | f)] in closed form (Qi &amp; Guo eq. 36, its first term): log p is log(1 − ε) where y f &gt; 0 and
   * log ε elsewhere, so with Φ = Φ(y m/√v) and Ẑ = ε + (1 − 2ε) Φ it is
   * {[(1 − ε) log(1 − ε) − ε log ε] Φ + ε log ε} / Ẑ.
   */
  @Override
  public double tiltedExpectedLogDensity(double y, double m, double v) {
    validate(y);
    if (!(v > 0) || !Double.isFinite(v) || !Double.isFinite(m)) {
      throw new IllegalArgumentException(
          "need finite m and positive finite v, got N(" + m + ", " + v + ")");
    }
    double phi = Normal.cdf(y * m / Math.sqrt(v));
    double z = epsilon + (1 - 2 * epsilon) * phi;
    double le = epsilon * Math.log(epsilon);
    return (((1 - epsilon) * Math.log1p(-epsilon) - le) * phi + le) / z;
  }

  /**
   * Moments of N(f | m, v) p(y | f)^u in closed form (REP appendix C, eq. 41; see the class comment for the
   * formulas and their numerics); u = 1 is {@link #tilted}.
   *
   * @param u the power, positive and finite
   */
  @Override
  public TiltedMoments powerTilted(double y, double m, double v, double u) {
    checkCavity(m, v);
    if (!(u > 0) || !Double.isFinite(u)) {
      throw new IllegalArgumentException("power must be positive and finite, got " + u);
    }
    double s = Math.sqrt(v);
    double z = y * m / s;
    double logA = u * logEps;
    // d = (1 − ε)^u − ε^u = ε^u expm1(u log((1 − ε)/ε)), no cancellation for small u (README,
    // region 4)
    double logD = logA + logExpm1(u * logOdds);
    Weights w = weights(logA, logD, z);
    double lambda = Normal.ratio(z);
    double delta = Probit.zPlusRatio(z);
    double sAlpha = lambda * w.w1;
    double mean = m + y * s * sAlpha;
    // var/v = (1 − λδ) + w₀ λ (δ + λ w₁), all terms ≥ 0
    double variance =
        v * (truncatedVariance(z, lambda, delta) + w.w0 * lambda * (delta + lambda * w.w1));
    return new TiltedMoments(w.logZ, mean, variance);
  }

  /** log Z and the two mixture weights of Z = A + D Φ(z), each from its own logarithm. */
  private record Weights(double logZ, double w0, double w1) {}

  private static Weights weights(double logA, double logD, double z) {
    double logB = logD + Normal.logCdf(z);
    double hi = Math.max(logA, logB);
    double lo = Math.min(logA, logB);
    double logZ = hi + Math.log1p(Math.exp(lo - hi));
    return new Weights(logZ, Math.exp(logA - logZ), Math.exp(logB - logZ));
  }

  /** log(e^x − 1) for x &gt; 0, without overflow for large x. */
  private static double logExpm1(double x) {
    return x > 30 ? x + Math.log1p(-Math.exp(-x)) : Math.log(Math.expm1(x));
  }

  /**
   * 1 − λ(z)δ(z), the variance of a standard normal truncated to t &gt; −z; for z &lt; −6 as δ(2g − δ) with
   * the continued fraction of the class comment (backward recurrence, depth 60: converged to machine
   * precision at x ≥ 6, as {@link Probit#zPlusRatio}).
   */
  static double truncatedVariance(double z, double lambda, double delta) {
    if (z < -CF_SWITCH) {
      double x = -z;
      double t = x;
      for (int k = 60; k >= 3; k--) {
        t = x + k / t;
      }
      double g = 1.0 / t;
      double d = 1.0 / (x + 2 * g);
      return d * (2 * g - d);
    }
    return 1 - lambda * delta;
  }

  private static void checkCavity(double m, double v) {
    if (!(v > 0) || !Double.isFinite(v) || !Double.isFinite(m)) {
      throw new IllegalArgumentException(
          "need finite m and positive finite v, got N(" + m + ", " + v + ")");
    }
  }

  /** The tilted CDF (u = 1) in closed form; see the class comment. */
  @Override
  public double tiltedCdf(double y, double m, double v, double x) {
    checkCavity(m, v);
    if (Double.isNaN(x)) {
      throw new IllegalArgumentException("x is NaN");
    }
    if (x == Double.NEGATIVE_INFINITY) {
      return 0;
    }
    if (x == Double.POSITIVE_INFINITY) {
      return 1;
    }
    double s = Math.sqrt(v);
    double t = (x - m) / s;
    double t0 = -m / s;
    double q = 1 - 2 * epsilon;
    double lower;
    double upper;
    if (y > 0) {
      lower = epsilon * Normal.cdf(t) + (x > 0 ? q * normalMass(t0, x / s) : 0);
      upper = epsilon * Normal.survival(t) + q * Normal.survival(Math.max(t, t0));
    } else {
      lower = epsilon * Normal.cdf(t) + q * Normal.cdf(Math.min(t, t0));
      upper = epsilon * Normal.survival(t) + (x < 0 ? q * normalMass(t0, x / s) : 0);
    }
    double total = lower + upper;
    return lower <= upper ? lower / total : 1 - upper / total;
  }

  /**
   * The standard normal mass between t₀ and t₀ + w (w of either sign), w passed separately so that a short
   * interval keeps its width exactly (forming t₀ + w first would cost the absolute rounding error of t₀). From
   * the tails when both ends are on one side of 0 (a small mass far out is a difference of two small numbers,
   * not of two numbers near 1); when that difference would still cancel (the smaller tail more than half the
   * larger: a short interval, e.g. x just past the jump) as ∫₀^|w| φ(t₀ ± u) du by 16-point Gauss–Legendre,
   * whose integrand φ(t₀) e^{∓t₀u − u²/2} is analytic with scale 1/(|t₀| + |w|) ≳ |w| there, so the rule is
   * exact to rounding.
   */
  static double normalMass(double t0, double w) {
    if (w == 0) {
      return 0;
    }
    double a = w > 0 ? t0 : t0 + w;
    double b = w > 0 ? t0 + w : t0;
    double big;
    double small;
    if (a >= 0) {
      big = Normal.survival(a);
      small = Normal.survival(b);
    } else if (b <= 0) {
      big = Normal.cdf(b);
      small = Normal.cdf(a);
    } else {
      return 1 - Normal.cdf(a) - Normal.survival(b);
    }
    if (small <= 0.5 * big) {
      return big - small;
    }
    double len = Math.abs(w);
    double sign = Math.signum(w);
    double sum = 0;
    for (int i = 0; i < GL_X.length; i++) {
      double u = 0.5 * len * (1 + GL_X[i]);
      sum += GL_W[i] * Normal.pdf(t0 + sign * u);
    }
    return 0.5 * len * sum;
  }

  /** 16-point Gauss–Legendre nodes and weights on [−1, 1] ({@link GaussLegendre}). */
  private static final double[][] GL = GaussLegendre.rule(16);

  private static final double[] GL_X = GL[0];
  private static final double[] GL_W = GL[1];

  /** E[log p] = log ε + log((1 − ε)/ε) Φ(z), z = y m/√v; ∂/∂m = y L φ(z)/√v, ∂/∂v = −L φ(z) z/(2v). */
  @Override
  public VariationalExpectation variationalExpectation(double y, double m, double v) {
    checkCavity(m, v);
    double s = Math.sqrt(v);
    double z = y * m / s;
    // for z > 0 from the other end, log(1 − ε) − L Φ(−z), so that the value keeps full accuracy
    double value =
        z <= 0 ? logEps + logOdds * Normal.cdf(z) : logOneMinusEps - logOdds * Normal.cdf(-z);
    double pdf = Normal.pdf(z);
    return new VariationalExpectation(value, y * logOdds * pdf / s, -logOdds * pdf * z / (2 * v));
  }

  /**
   * log p(y* | D) = log(ε + (1 − 2ε) Φ(y* m/√v)) (README of the reference tables: √v, not √(1 + v) as for
   * the probit); at v = 0 the limit log p(y* | m).
   */
  @Override
  public double logPredictive(double y, double m, double v) {
    if (v == 0) {
      return logDensity(y, m).value();
    }
    checkCavity(m, v);
    return weights(logEps, Math.log1p(-2 * epsilon), y * m / Math.sqrt(v)).logZ;
  }

  /** p(y* = +1) = ε + (1 − 2ε) Φ(m/√v). */
  public double predictivePositive(double m, double v) {
    return predictive(m, v).density(1);
  }

  /** E[y | f] = (1 − 2ε) sign(f). */
  @Override
  public double conditionalMean(double f) {
    return (1 - 2 * epsilon) * Math.signum(f);
  }

  /** Var[y | f] = 1 − E[y | f]². */
  @Override
  public double conditionalVariance(double f) {
    double mu = conditionalMean(f);
    return (1 - mu) * (1 + mu);
  }

  /** The Bernoulli predictive p(y* = ±1) = ε + (1 − 2ε) Φ(±m/√v); at v = 0 the step itself. */
  @Override
  public Predictive predictive(double m, double v) {
    if (!(v >= 0) || !Double.isFinite(v) || !Double.isFinite(m)) {
      throw new IllegalArgumentException("need finite m and v >= 0, got N(" + m + ", " + v + ")");
    }
    double z = v > 0
        ? m / Math.sqrt(v)
        : m > 0 ? Double.POSITIVE_INFINITY : m < 0 ? Double.NEGATIVE_INFINITY : 0;
    return new LabelPredictive(this, z);
  }

  /**
   * p(y* = ±1) = ε + (1 − 2ε) Φ(±z); mean (1 − 2ε)(Φ(z) − Φ(−z)), variance 4 p(+1) p(−1), mode sign(z).
   */
  record LabelPredictive(NoisyStep lik, double z) implements Predictive {
    @Override
    public double logDensity(double y) {
      lik.validate(y);
      return weights(lik.logEps, Math.log1p(-2 * lik.epsilon), y * z).logZ;
    }

    @Override
    public double density(double y) {
      lik.validate(y);
      return lik.epsilon + (1 - 2 * lik.epsilon) * Normal.cdf(y * z);
    }

    @Override
    public double mean() {
      return (1 - 2 * lik.epsilon) * (Normal.cdf(z) - Normal.cdf(-z));
    }

    @Override
    public double variance() {
      return 4 * density(1) * density(-1);
    }

    @Override
    public double mode() {
      return z > 0 ? 1 : z < 0 ? -1 : Double.NaN;
    }
  }
}
