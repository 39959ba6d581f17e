package org.approxgp.projection;

import java.util.Arrays;
import java.util.function.DoubleUnaryOperator;
import org.approxgp.likelihood.Likelihood;
import org.approxgp.special.GaussLegendre;
import org.approxgp.special.Normal;
import org.approxgp.special.Quadrature;

/**
 * The quadrature rules behind {@link W2Projection#sigma}: σ* = ∫ N(Φ⁻¹(F(f))) df (QP paper, eq. 23) by the
 * sinh-mapped trapezoid rule centred on the EP moments ({@link #sinhTrapezoid}), by Gauss–Legendre accumulation of
 * the tilted CDF for wide cavities ({@link #cumulative}), or by adaptive Gauss–Kronrod split at the likelihood's
 * jumps and unit scale ({@link #splitAtKinks}). {@link W2Projection}'s class comment says when each is used.
 */
final class W2Quadrature {
  private W2Quadrature() {}

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
  static W2Projection.Sigma sinhTrapezoid(
      DoubleUnaryOperator g, double c, double s, double relTol) {
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
        return new W2Projection.Sigma(cur, err, evals, true);
      }
    }
    return new W2Projection.Sigma(prev, err, evals, false);
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
  static W2Projection.Sigma cumulative(
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
          return new W2Projection.Sigma(cur, err, evals, true);
        }
      }
      prev = cur;
      h *= 0.5;
    }
    return new W2Projection.Sigma(prev, err, evals, false);
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
  static W2Projection.Sigma splitAtKinks(
      DoubleUnaryOperator g, double c, double s, double[] kinks, double relTol) {
    double[] pts = new double[kinks.length + 7];
    System.arraycopy(kinks, 0, pts, 0, kinks.length);
    double[] offsets = {0, -2, 2, -8, 8, -30, 30};
    for (int i = 0; i < offsets.length; i++) {
      pts[kinks.length + i] = c + offsets[i] * s;
    }
    Quadrature.Result q =
        Quadrature.integrate(g, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, 0, relTol, pts);
    return new W2Projection.Sigma(q.value(), q.errorEstimate(), q.evaluations(), q.converged());
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
