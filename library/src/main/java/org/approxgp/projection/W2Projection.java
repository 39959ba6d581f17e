package org.approxgp.projection;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.DoubleUnaryOperator;
import org.approxgp.likelihood.Likelihood;
import org.approxgp.likelihood.TiltedMoments;
import org.approxgp.special.GaussLegendre;
import org.approxgp.special.Normal;
import org.approxgp.special.NumericalException;
import org.approxgp.special.Quadrature;

/**
 * The L2-Wasserstein projection argmin_N W₂²(q̃, N) of Quantile Propagation (Zhang et al. 2020, eq. 5
 * of the main text / eq. 7 in the appendix version; derivation in appendix A, eq. 11–23):
 * <pre>
 *   μ* = E_q̃[f]                                       (eq. 17: the same mean as EP)
 *   σ* = √2 ∫₀¹ F⁻¹(u) erf⁻¹(2u − 1) du
 *      = (2π)^(−½) ∫ exp(−[erf⁻¹(2F(f) − 1)]²) df      (eq. 23)
 *      = ∫ N(Φ⁻¹(F(f))) df
 * </pre>
 * with F the tilted CDF ({@link Likelihood#tiltedCdf}). The last line is the same integrand: Φ⁻¹(p) =
 * √2 erf⁻¹(2p − 1), so N(Φ⁻¹(F)) = (2π)^(−½) exp(−[erf⁻¹(2F − 1)]²). σ* ≤ σ_EP (Theorem 2).
 *
 * <p><b>Numerics.</b> The integrand is evaluated through the smaller tail p = min(F, 1 − F) (N is even,
 * so N(Φ⁻¹(F)) = N(Φ⁻¹(p))), and F is clipped to [0, 1] by the likelihood; in the tails N(Φ⁻¹(p)) ≈
 * p √(2 log(1/p)), so an absolute error ε in F costs at most ≈ ε √(2 log(1/ε)) in the integrand. The
 * integral over the real line is done by the trapezoid rule after the map f = μ̂ + σ̂ sinh τ centred on
 * and scaled by the EP moments (μ̂, σ̂), refined level by level until consecutive levels agree to the
 * requested tolerance (the difference is the returned error estimate). For the probit at σ &gt; 10 the tilted CDF
 * at the nodes is accumulated by Gauss–Legendre sums of the tilted density instead of evaluated in closed form
 * ({@link #cumulative}, for a likelihood with exact tilted tails: ~8× cheaper there, and more accurate at σ ≳ 100, where Owen's formula is
 * ill-conditioned).
 * Where the finest level does not reach the tolerance (wide cavities, σ ≳ 50: the likelihood's unit-width step at
 * f = 0 is a feature of relative width 1/σ on the EP scale), adaptive Gauss–Kronrod split at the likelihood's unit
 * scale around 0 and at the EP scale takes over ({@link #sigma}).
 *
 * <p>With {@link QpTable}s the variance comes from the first table that covers (y, m, √v) for this likelihood
 * ({@link #probitTabulated()}: the shipped table, then the wide one); otherwise the integral is computed exactly
 * — never the EP variance.
 */
public final class W2Projection implements Projection {
  /** Default relative tolerance of σ* in {@link #exact()}. */
  public static final double DEFAULT_REL_TOL = 1e-11;
  /** Accept a non-converged quadrature only if its error estimate is below this relative level. */
  private static final double ACCEPT_REL_ERR = 1e-7;

  private final double relTol;
  /** Tables in order of precedence (the first that covers a cavity serves it); empty for the exact projection. */
  private final List<QpTable> tables;

  private W2Projection(double relTol, List<QpTable> tables) {
    if (!(relTol > 0 && relTol < 1e-2)) {
      throw new IllegalArgumentException("relative tolerance must be in (0, 1e-2), got " + relTol);
    }
    this.relTol = relTol;
    this.tables = List.copyOf(tables);
  }

  /** W2 projection computing σ* by adaptive quadrature for every site (relative tolerance 1e-11). */
  public static W2Projection exact() {
    return new W2Projection(DEFAULT_REL_TOL, List.of());
  }

  /** W2 projection computing σ* by adaptive quadrature to the given relative tolerance. */
  public static W2Projection exact(double relTol) {
    return new W2Projection(relTol, List.of());
  }

  /**
   * W2 projection reading σ* / σ_EP from the first of {@code tables} that covers the cavity, exact where none
   * does.
   */
  public static W2Projection tabulated(QpTable... tables) {
    if (tables.length == 0 || Arrays.stream(tables).anyMatch(Objects::isNull)) {
      throw new IllegalArgumentException("tables must be given and not null");
    }
    return new W2Projection(DEFAULT_REL_TOL, Arrays.asList(tables));
  }

  /**
   * The shipped probit tables: {@link QpTables#probit()} (μ ∈ [−10, 10], σ ∈ [0.1, 10]) first, where it covers
   * the cavity, then {@link QpTables#probitWide()} (wide cavities, on (z, ln σ)); exact for other likelihoods and
   * off both grids.
   */
  public static W2Projection probitTabulated() {
    return tabulated(QpTables.probit(), QpTables.probitWide());
  }

  /**
   * The W2 projection for {@code likelihood}: tabulated where the project ships tables for it
   * ({@link QpTables#shipped}; the probit's), exact otherwise.
   */
  public static W2Projection forLikelihood(Likelihood likelihood) {
    List<QpTable> shipped = QpTables.shipped(likelihood.name());
    return shipped.isEmpty() ? exact() : tabulated(shipped.toArray(QpTable[]::new));
  }

  /**
   * Every table the project ships ({@link QpTables#shipped}), exact where none covers a site: each table serves
   * only its own likelihood, so for any likelihood this is {@link #forLikelihood} of it, without knowing it in
   * advance. QP's default ({@code Qp.options()}).
   */
  public static W2Projection shipped() {
    return tabulated(QpTables.all().toArray(QpTable[]::new));
  }

  /** The first table in use, or null for the exact projection. */
  public QpTable table() {
    return tables.isEmpty() ? null : tables.get(0);
  }

  /** The tables in use, in order of precedence (empty for the exact projection). */
  public List<QpTable> tables() {
    return tables;
  }

  /** Whether one of the tables serves (likelihood, y, m, v) (else {@link #project} computes σ* exactly). */
  public boolean covers(Likelihood likelihood, double y, double m, double v) {
    return tableFor(likelihood, y, m, v) != null;
  }

  private QpTable tableFor(Likelihood likelihood, double y, double m, double v) {
    for (QpTable t : tables) {
      if (t.covers(likelihood, y, m, v)) {
        return t;
      }
    }
    return null;
  }

  @Override
  public TiltedMoments project(Likelihood likelihood, double y, double m, double v) {
    TiltedMoments kl = likelihood.tilted(y, m, v);
    double sdEp = Math.sqrt(kl.variance());
    QpTable t = tableFor(likelihood, y, m, v);
    double sd;
    if (t != null) {
      sd = t.ratio(y, m, Math.sqrt(v)) * sdEp;
    } else {
      sd = sigma(likelihood, y, m, v, kl, relTol).value();
    }
    return new TiltedMoments(kl.logZ(), kl.mean(), sd * sd);
  }

  @Override
  public String name() {
    return tables.isEmpty() ? "w2" : "w2-table";
  }

  /**
   * σ* of eq. 23 with its quadrature error estimate.
   *
   * @param value σ*
   * @param errorEstimate absolute error estimate of σ*
   * @param evaluations number of tilted-CDF evaluations
   * @param converged whether the requested tolerance was met
   */
  public record Sigma(double value, double errorEstimate, int evaluations, boolean converged) {}

  /** σ* for q̃ ∝ N(f | m, v) p(y | f) to relative tolerance {@code relTol}. */
  public static Sigma sigma(Likelihood likelihood, double y, double m, double v, double relTol) {
    return sigma(likelihood, y, m, v, likelihood.tilted(y, m, v), relTol);
  }

  static Sigma sigma(
      Likelihood lik, double y, double m, double v, TiltedMoments kl, double relTol) {
    if (!(v > 0) || !Double.isFinite(m)) {
      throw new IllegalArgumentException(
          "cavity must have finite mean and positive variance, got " + m + ", " + v);
    }
    double c = kl.mean();
    double s = Math.sqrt(kl.variance());
    if (!(s > 0) || !Double.isFinite(c)) {
      throw new NumericalException(
          "tilted moments not usable: mean " + c + ", variance " + kl.variance());
    }
    DoubleUnaryOperator g = f -> tailDensity(lik.tiltedCdf(y, m, v, f));
    if (lik.exactTiltedTails() && v > CUMULATIVE_MIN_VARIANCE && jumps(lik, y).length == 0) {
      Sigma r = cumulative(lik, y, m, v, c, s, kl.logZ(), relTol);
      if (r.converged()) {
        return r;
      }
    }
    double[] jumps = jumps(lik, y);
    Sigma r =
        jumps.length == 0 ? sinhTrapezoid(g, c, s, relTol) : splitAtKinks(g, c, s, jumps, relTol);
    if (!r.converged() && jumps.length == 0) {
      // the trapezoid's nodes follow the EP scale s; a likelihood that changes on its own unit
      // scale near f = 0
      // (the probit's step when the cavity is wide, σ ≳ 50) is a feature of relative width 1/s that
      // the finest
      // level h = 2⁻⁸ does not resolve to relTol: split adaptive Gauss–Kronrod there instead
      Sigma k = splitAtKinks(g, c, s, unitScalePoints(lik, y), relTol);
      if (k.converged() || k.errorEstimate() < r.errorEstimate()) {
        r = new Sigma(
            k.value(), k.errorEstimate(), r.evaluations() + k.evaluations(), k.converged());
      }
    }
    if (!(r.value() > 0)
        || !Double.isFinite(r.value())
        || (!r.converged() && !(r.errorEstimate() <= ACCEPT_REL_ERR * r.value()))) {
      throw new NumericalException("W2 projection integral failed: sigma* = " + r.value() + " +- "
          + r.errorEstimate() + " for y = " + y + ", cavity N(" + m + ", " + v + ")");
    }
    return r;
  }

  /** Finest trapezoid step of {@link #sinhTrapezoid}: 2⁻⁸. */
  private static final int MAX_LEVEL = 8;
  /** Nodes whose weighted value is below this fraction of the running sum end the τ range. */
  private static final double TAIL_CUT = 1e-18;
  /** Hard bound on |τ|: sinh 12 ≈ 8e4 standard deviations of the EP projection. */
  private static final double TAU_MAX = 12;

  /** How far {@link #walk} went: k steps of h, the running sum after them, the nodes evaluated. */
  private record Walk(int k, double sum, int evaluations) {}

  /**
   * The τ range of the sinh-mapped trapezoid on one side: from τ = 0 in direction {@code dir}, nodes at k h are
   * added to the running {@code sum} until two consecutive ones contribute at most {@value #TAIL_CUT} of it or
   * |τ| passes {@value #TAU_MAX}.
   */
  private static Walk walk(
      DoubleUnaryOperator g, double c, double s, double h, int dir, double sum) {
    int small = 0;
    int k = 1;
    int evals = 0;
    for (; k * h <= TAU_MAX; k++) {
      double t = node(g, c, s, dir * k * h);
      evals++;
      sum += t;
      small = Math.abs(t) <= TAIL_CUT * Math.abs(sum) ? small + 1 : 0;
      if (small == 2) {
        break;
      }
    }
    return new Walk(Math.min(k, (int) (TAU_MAX / h)), sum, evals);
  }

  /**
   * ∫ g(f) df over ℝ by the trapezoid rule after f = c + s sinh τ, df = s cosh τ dτ, with step h = 2⁻ˡ
   * halved level by level reusing the earlier nodes. A Gaussian-like g becomes doubly exponentially
   * decaying in τ and stays analytic in the strip |Im τ| &lt; π/4, so the trapezoid error falls like
   * exp(−π²/(2h)) (about 1e-17 at h = 1/8); heavier tails (q̃ wider than its EP projection in one tail)
   * only widen the τ range logarithmically. (The double-exponential sinh(π/2 sinh τ) map was tried and
   * rejected: its narrower strip made the error estimate below stop early at the 1e-11 level.) The τ range is fixed on the first level by
   * walking outwards until two consecutive nodes contribute less than {@value #TAIL_CUT} of the sum (the
   * integrand, N(Φ⁻¹(F)) for a unimodal q̃, is unimodal). The error estimate of I_l is |I_l − I_{l−1}|
   * (conservative: the error decays exponentially in 1/h). The sharper heuristic Δ²/|I| was tried and
   * rejected: it stopped one level early with errors near 1e-10.
   */
  static Sigma sinhTrapezoid(DoubleUnaryOperator g, double c, double s, double relTol) {
    double h = 0.5;
    Walk left = walk(g, c, s, h, -1, node(g, c, s, 0));
    Walk right = walk(g, c, s, h, 1, left.sum());
    double sum = right.sum();
    int evals = 1 + left.evaluations() + right.evaluations();
    double tauLeft = left.k() * h;
    double tauRight = right.k() * h;
    double prev = sum * h;
    double err = Double.POSITIVE_INFINITY;
    for (int level = 2; level <= MAX_LEVEL; level++) {
      h *= 0.5;
      for (double t = h; t < tauRight; t += 2 * h) {
        sum += node(g, c, s, t);
        evals++;
      }
      for (double t = h; t < tauLeft; t += 2 * h) {
        sum += node(g, c, s, -t);
        evals++;
      }
      double cur = sum * h;
      // the error falls exponentially in 1/h, so |I_h − I_2h| bounds the error of I_h
      // (conservatively)
      err = Math.abs(cur - prev);
      prev = cur;
      if (err <= relTol * Math.abs(cur)) {
        return new Sigma(cur, err, evals, true);
      }
    }
    return new Sigma(prev, err, evals, false);
  }

  /**
   * Cavity variances above which {@link #cumulative} serves first a likelihood with exact tilted tails (the probit;
   * σ &gt; 10).
   */
  static final double CUMULATIVE_MIN_VARIANCE = 100;
  /** Finest level of {@link #cumulative}: h = 2⁻¹¹ (a level costs ~16 densities per node, no tilted CDF). */
  private static final int CUMULATIVE_MAX_LEVEL = 11;
  /** Gauss–Legendre rule of {@link #cumulative}'s segments. */
  private static final double[][] GAUSS_LEGENDRE_8 = GaussLegendre.rule(8);

  /**
   * σ* of eq. 23 for observation y and cavity N(m, v), by the same sinh-mapped trapezoid rule as
   * {@link #sinhTrapezoid} but with the tilted CDF at the nodes accumulated instead of evaluated: between
   * consecutive nodes fₖ &lt; fₖ₊₁ the mass ∫ q̃ = ∫ N(f | m, v) p(y | f) df / Z is an 8-point Gauss–Legendre sum of
   * the density, added up from the outermost node inwards (the lower tail left of the tilted mean c, the upper
   * tail right of it, both sums of positive terms, so each tail keeps its relative accuracy), started from the
   * likelihood's exact tails F(f_min) and 1 − F(f_max) ({@link Likelihood#tiltedCdf},
   * {@link Likelihood#tiltedSurvival}; {@link Likelihood#exactTiltedTails} says they are exact, as the probit's by
   * Owen's T are). One density value costs an exp and a log p, against a tilted CDF at each node, which for the
   * probit at wide cavities (σ ≫ 1, ρ → −1) is the expensive branch. The τ range is the trapezoid's
   * ({@value #TAIL_CUT} rule at h = ½, evaluating g); each level h = 2⁻ˡ recomputes all its segments (their width
   * s cosh τ h shrinks with h, so the segment sums converge with the trapezoid), and the error estimate is
   * |I_l − I_{l−1}| as in {@link #sinhTrapezoid}. Not converged by the finest level (it happens for the probit at
   * σ ≳ 100 near z ≈ 5, where its unit step sits in the far lower tail of the tilted distribution), the caller
   * uses the generic path.
   *
   * @param c the tilted mean
   * @param s the EP standard deviation
   * @param logZ log Z, the tilted normaliser
   */
  static Sigma cumulative(
      Likelihood lik,
      double y,
      double m,
      double v,
      double c,
      double s,
      double logZ,
      double relTol) {
    DoubleUnaryOperator g = f -> tailDensity(lik.tiltedCdf(y, m, v, f));
    double h = 0.5;
    Walk left = walk(g, c, s, h, -1, 0);
    Walk right = walk(g, c, s, h, 1, left.sum());
    int evals = left.evaluations() + right.evaluations();
    double tauLeft = -left.k() * h;
    double tauRight = right.k() * h;
    double lowerStart = lik.tiltedCdf(y, m, v, c + s * Math.sinh(tauLeft));
    double upperStart = lik.tiltedSurvival(y, m, v, c + s * Math.sinh(tauRight));
    evals += 2;
    double prev = Double.NaN;
    double err = Double.POSITIVE_INFINITY;
    for (int level = 1; level <= CUMULATIVE_MAX_LEVEL; level++) {
      int nLeft = (int) Math.round(-tauLeft / h);
      int n = nLeft + (int) Math.round(tauRight / h) + 1;
      double[] f = new double[n];
      for (int i = 0; i < n; i++) {
        f[i] = c + s * Math.sinh((i - nLeft) * h);
      }
      double[] tail = new double[n];
      tail[0] = lowerStart;
      for (int i = 1; i < n && f[i] <= c; i++) {
        tail[i] = tail[i - 1] + segmentMass(lik, y, f[i - 1], f[i], m, v, logZ);
        evals += 8;
      }
      tail[n - 1] = f[n - 1] > c ? upperStart : tail[n - 1];
      for (int i = n - 2; i >= 0 && f[i] > c; i--) {
        tail[i] = tail[i + 1] + segmentMass(lik, y, f[i], f[i + 1], m, v, logZ);
        evals += 8;
      }
      double sum = 0;
      for (int i = 0; i < n; i++) {
        // N(Φ⁻¹(F)) through the smaller tail; near the mean either tail may exceed ½
        double p = tail[i] <= 0.5 ? tail[i] : 1 - tail[i];
        if (p > 0) {
          sum += Normal.pdf(Normal.quantile(p)) * s * Math.cosh((i - nLeft) * h);
        }
      }
      double cur = sum * h;
      if (level > 1) {
        err = Math.abs(cur - prev);
        if (err <= relTol * Math.abs(cur)) {
          return new Sigma(cur, err, evals, true);
        }
      }
      prev = cur;
      h *= 0.5;
    }
    return new Sigma(prev, err, evals, false);
  }

  /** ∫_a^b N(f | m, v) p(y | f) df / Z by 8-point Gauss–Legendre, log Z = {@code logZ}. */
  private static double segmentMass(
      Likelihood lik, double y, double a, double b, double m, double v, double logZ) {
    double mid = 0.5 * (a + b);
    double half = 0.5 * (b - a);
    double sd = Math.sqrt(v);
    double[] x = GAUSS_LEGENDRE_8[0];
    double[] w = GAUSS_LEGENDRE_8[1];
    double sum = 0;
    for (int i = 0; i < x.length; i++) {
      double f = mid + half * x[i];
      sum += w[i] * Math.exp(Normal.logPdf((f - m) / sd) + lik.logDensityValue(y, f) - logZ);
    }
    return sum * half / sd;
  }

  /**
   * The breakpoints b of the likelihood where log p(y | ·) jumps (a step), probed at b ± 1e-9 (1 + |b|): there
   * q̃ jumps and N(Φ⁻¹(F)) has a kink. A breakpoint where log p is continuous (the Poisson square link's
   * log f² → −∞ from both sides at 0) leaves q̃ smooth enough for the trapezoid rule and is not returned.
   */
  static double[] jumps(Likelihood lik, double y) {
    return java.util.Arrays.stream(lik.breakpoints(y))
        .filter(b -> {
          double h = 1e-9 * (1 + Math.abs(b));
          double lo = lik.logDensity(y, b - h).value();
          double hi = lik.logDensity(y, b + h).value();
          return Double.isFinite(lo) && Double.isFinite(hi) && Math.abs(hi - lo) > 1e-6;
        })
        .toArray();
  }

  /**
   * ∫ g over ℝ for a likelihood whose log density jumps (a step: q̃ jumps there, so N(Φ⁻¹(F)) has a kink and the
   * trapezoid rule's exponential convergence is lost): adaptive Gauss–Kronrod ({@link Quadrature}) with the
   * range split at the breakpoints and, to keep the scale of the tilted distribution in view, at
   * c, c ± 2s, c ± 8s, c ± 30s.
   */
  static Sigma splitAtKinks(
      DoubleUnaryOperator g, double c, double s, double[] kinks, double relTol) {
    double[] pts = new double[kinks.length + 7];
    System.arraycopy(kinks, 0, pts, 0, kinks.length);
    double[] offsets = {0, -2, 2, -8, 8, -30, 30};
    for (int i = 0; i < offsets.length; i++) {
      pts[kinks.length + i] = c + offsets[i] * s;
    }
    Quadrature.Result q =
        Quadrature.integrate(g, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, 0, relTol, pts);
    return new Sigma(q.value(), q.errorEstimate(), q.evaluations(), q.converged());
  }

  /**
   * Split points for the fallback of {@link #sigma}: the likelihood's breakpoints and f = 0, ±1, ±3, ±6, the unit
   * scale on which the probit Φ(y f) (and the square link's f²) changes around 0.
   */
  static double[] unitScalePoints(Likelihood lik, double y) {
    double[] bp = lik.breakpoints(y);
    double[] unit = {0, -1, 1, -3, 3, -6, 6};
    double[] pts = Arrays.copyOf(bp, bp.length + unit.length);
    System.arraycopy(unit, 0, pts, bp.length, unit.length);
    return pts;
  }

  private static double node(DoubleUnaryOperator g, double c, double s, double tau) {
    double val = g.applyAsDouble(c + s * Math.sinh(tau));
    double w = s * Math.cosh(tau);
    return val == 0 ? 0 : val * w;
  }

  /** N(Φ⁻¹(F)) via the smaller tail, 0 at F ∈ {0, 1}; F outside [0, 1] is clipped. */
  static double tailDensity(double cdf) {
    double p = cdf <= 0.5 ? cdf : 1 - cdf;
    if (!(p > 0)) {
      return 0;
    }
    return Normal.pdf(Normal.quantile(p));
  }
}
