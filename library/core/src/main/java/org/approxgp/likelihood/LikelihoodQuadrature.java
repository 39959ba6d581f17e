package org.approxgp.likelihood;

import java.util.Arrays;
import java.util.function.DoubleUnaryOperator;
import org.approxgp.special.NumericalException;
import org.approxgp.special.Quadrature;

/**
 * The quadrature behind {@link Likelihood}'s default methods: every quantity computed by numerical
 * integration from {@link Likelihood#logDensity} alone (the GPflow pattern: a quadrature fallback that the
 * analytic overrides are tested against).
 *
 * <p>Tilted integrals ∫ h(f) N(f | m, v) p(y | f)^u df are done by adaptive Gauss–Kronrod quadrature of
 * exp(ℓ(f) − ℓ(f₀)), ℓ the log integrand and f₀ its numerically located mode, on the pieces of the real
 * line cut at f₀ and at the likelihood's {@link Likelihood#breakpoints breakpoints} (where log p is not
 * smooth, e.g. the jump of a step likelihood at 0), so nothing under- or overflows and no piece contains a
 * kink.
 * Gaussian expectations E_{N(m,v)}[h(f)] are integrated in t = (f − m)/√v with the same cuts.
 */
final class LikelihoodQuadrature {
  /** Relative tolerance asked of the adaptive quadrature. */
  static final double REL_TOL = 1e-13;

  private static final double LOG_2PI = Math.log(2 * Math.PI);

  private LikelihoodQuadrature() {}

  private static void checkCavity(double m, double v) {
    if (!(v > 0) || !Double.isFinite(v) || !Double.isFinite(m)) {
      throw new IllegalArgumentException(
          "need finite m and positive finite v, got N(" + m + ", " + v + ")");
    }
  }

  /** log N(f | m, v) + u log p(y | f). */
  private static DoubleUnaryOperator logIntegrand(
      Likelihood lik, double y, double m, double v, double u) {
    double c = -0.5 * (LOG_2PI + Math.log(v));
    return f -> c - (f - m) * (f - m) / (2 * v) + u * lik.logDensity(y, f).value();
  }

  /**
   * A point near the maximum of ℓ, found on a grid over m ± 12√v and refined by golden section. When the grid's
   * best point is at one end of the window, the maximum lies beyond it (a likelihood that pulls the tilted mass far
   * from the cavity, e.g. e^{−f²} against a cavity mean of 150): the window moves to centre on that point with
   * twice the half-width, until the best point is inside it.
   */
  static double mode(DoubleUnaryOperator ell, double m, double v) {
    double s = Math.sqrt(v);
    int grid = 241;
    double centre = m;
    double half = 12 * s;
    double best = m;
    double bestVal = Double.NEGATIVE_INFINITY;
    double h = 0;
    for (int moves = 0; moves < 64; moves++) {
      int bestK = -1;
      for (int k = 0; k < grid; k++) {
        double f = centre + half * (-1 + 2.0 * k / (grid - 1));
        double val = ell.applyAsDouble(f);
        if (val > bestVal) {
          bestVal = val;
          best = f;
          bestK = k;
        }
      }
      h = 2 * half / (grid - 1);
      if (bestK != 0 && bestK != grid - 1) {
        break;
      }
      centre = best;
      half *= 2;
    }
    double a = best - h;
    double b = best + h;
    final double g = (Math.sqrt(5) - 1) / 2;
    for (int it = 0; it < 80 && b - a > 1e-12 * (1 + Math.abs(best)); it++) {
      double c = b - g * (b - a);
      double d = a + g * (b - a);
      if (ell.applyAsDouble(c) > ell.applyAsDouble(d)) {
        b = d;
      } else {
        a = c;
      }
    }
    double f0 = 0.5 * (a + b);
    // a jump (step likelihood) can leave golden section at a worse point than the grid's best
    return ell.applyAsDouble(f0) >= bestVal ? f0 : best;
  }

  /** Sorted distinct finite cut points: {@code extra} and the likelihood's breakpoints for y. */
  private static double[] cuts(Likelihood lik, double y, double... extra) {
    double[] bp = lik.breakpoints(y);
    double[] all = Arrays.copyOf(extra, extra.length + bp.length);
    System.arraycopy(bp, 0, all, extra.length, bp.length);
    return Arrays.stream(all).filter(Double::isFinite).sorted().distinct().toArray();
  }

  /** ∫ over (−∞, ∞) split at the sorted points {@code cuts}. */
  private static double integrateLine(DoubleUnaryOperator g, double[] cuts) {
    return integrateRange(g, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, cuts);
  }

  /** ∫_a^b split at those of the sorted points {@code cuts} strictly inside (a, b). */
  private static double integrateRange(DoubleUnaryOperator g, double a, double b, double[] cuts) {
    double sum = 0;
    double lo = a;
    for (double c : cuts) {
      if (c > lo && c < b) {
        sum += Quadrature.integrate(g, lo, c, 0.0, REL_TOL).value();
        lo = c;
      }
    }
    return sum + Quadrature.integrate(g, lo, b, 0.0, REL_TOL).value();
  }

  /** Tilted log Z, mean and variance by adaptive quadrature ({@code powerTilted} with u = 1). */
  static TiltedMoments tilted(Likelihood lik, double y, double m, double v) {
    return powerTilted(lik, y, m, v, 1.0);
  }

  /**
   * log ∫ N(f | m, v) p(y | f)^u df and the mean and variance of the normalised integrand (the power-EP
   * tilted distribution, Minka 2004, "Power EP", eq. 9), by adaptive quadrature.
   */
  static TiltedMoments powerTilted(Likelihood lik, double y, double m, double v, double u) {
    checkCavity(m, v);
    if (!(u > 0) || !Double.isFinite(u)) {
      throw new IllegalArgumentException("power must be positive and finite, got " + u);
    }
    DoubleUnaryOperator ell = logIntegrand(lik, y, m, v, u);
    double f0 = mode(ell, m, v);
    double l0 = ell.applyAsDouble(f0);
    double[] cuts = cuts(lik, y, f0);
    DoubleUnaryOperator g = f -> Math.exp(ell.applyAsDouble(f) - l0);
    double z = integrateLine(g, cuts);
    // moments about f0, then shifted: E[f] = f0 + E[f − f0], Var = E[(f − f0)²] − E[f − f0]²
    double e1 = integrateLine(f -> (f - f0) * g.applyAsDouble(f), cuts) / z;
    double e2 = integrateLine(f -> (f - f0) * (f - f0) * g.applyAsDouble(f), cuts) / z;
    TiltedMoments t = new TiltedMoments(l0 + Math.log(z), f0 + e1, e2 - e1 * e1);
    if (!Double.isFinite(t.logZ())
        || !Double.isFinite(t.mean())
        || !(t.variance() > 0)
        || !Double.isFinite(t.variance())) {
      throw new NumericalException(
          lik.name() + ": power-tilted moments by quadrature are not finite at y = " + y
              + ", cavity N(" + m + ", " + v + "), u = " + u + ": " + t);
    }
    return t;
  }

  /**
   * E_p̂[log p(y | f)] under the tilted distribution p̂ ∝ N(f | m, v) p(y | f), by adaptive quadrature around the
   * tilted mode (as {@link #powerTilted}): ∫ q̃ log p / ∫ q̃ with q̃ = N p scaled by its value at the mode; a
   * point where log p = −∞ carries no tilted mass and adds nothing.
   */
  static double tiltedExpectedLogDensity(Likelihood lik, double y, double m, double v) {
    checkCavity(m, v);
    DoubleUnaryOperator ell = logIntegrand(lik, y, m, v, 1.0);
    double f0 = mode(ell, m, v);
    double l0 = ell.applyAsDouble(f0);
    double[] cuts = cuts(lik, y, f0);
    DoubleUnaryOperator g = f -> Math.exp(ell.applyAsDouble(f) - l0);
    double z = integrateLine(g, cuts);
    double e = integrateLine(
            f -> {
              double w = g.applyAsDouble(f);
              return w == 0 ? 0 : w * lik.logDensity(y, f).value();
            },
            cuts)
        / z;
    if (!Double.isFinite(e)) {
      throw new NumericalException(
          lik.name() + ": tilted expected log density by quadrature is not finite at y = " + y
              + ", cavity N(" + m + ", " + v + ")");
    }
    return e;
  }

  /** Tilted CDF F(x) by adaptive quadrature; the smaller tail is integrated directly. */
  static double tiltedCdf(Likelihood lik, double y, double m, double v, double x) {
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
    DoubleUnaryOperator ell = logIntegrand(lik, y, m, v, 1.0);
    double f0 = mode(ell, m, v);
    double l0 = ell.applyAsDouble(f0);
    double[] cuts = cuts(lik, y, f0);
    DoubleUnaryOperator g = f -> Math.exp(ell.applyAsDouble(f) - l0);
    double z = integrateLine(g, cuts);
    if (x <= f0) {
      return Math.min(1, integrateRange(g, Double.NEGATIVE_INFINITY, x, cuts) / z);
    }
    return Math.max(0, 1 - integrateRange(g, x, Double.POSITIVE_INFINITY, cuts) / z);
  }

  /**
   * E_{N(f|m,v)}[h(f)] = ∫ φ(t) h(m + √v t) dt, split at t = 0 and at the likelihood's breakpoints.
   */
  static double normalExpectation(
      Likelihood lik, double y, double m, double v, DoubleUnaryOperator h) {
    return normalExpectation(lik.breakpoints(y), m, v, h);
  }

  /** E_{N(f|m,v)}[h(f)], split at t = 0 and at the given points {@code bp} (in f). */
  static double normalExpectation(double[] bp, double m, double v, DoubleUnaryOperator h) {
    double s = Math.sqrt(v);
    double[] t = new double[bp.length + 1];
    for (int i = 0; i < bp.length; i++) {
      t[i] = (bp[i] - m) / s;
    }
    t[bp.length] = 0;
    double[] cuts =
        Arrays.stream(t).filter(Double::isFinite).sorted().distinct().toArray();
    double c = -0.5 * LOG_2PI;
    return integrateLine(
        w -> {
          double e = Math.exp(c - 0.5 * w * w);
          if (e == 0) {
            return 0;
          }
          double f = m + s * w;
          double hv = h.applyAsDouble(f);
          // the semi-infinite map of Quadrature evaluates its finite end, here a breakpoint where
          // log p may be
          // −∞ (Poisson, y > 0: log f² at 0, an integrable singularity): one point of measure zero
          return !Double.isFinite(hv) && atBreakpoint(f, bp) ? 0 : e * hv;
        },
        cuts);
  }

  private static boolean atBreakpoint(double f, double[] bp) {
    for (double b : bp) {
      if (Math.abs(f - b) <= 1e-12 * (1 + Math.abs(b))) {
        return true;
      }
    }
    return false;
  }

  /**
   * E = E_{N(m,v)}[log p(y | f)] and its derivatives by quadrature, with the derivatives from the
   * score-function identities (differentiate the Gaussian density, not log p):
   * <pre>
   *   ∂E/∂m = E[(ℓ(f) − c) t]/√v,   ∂E/∂v = E[(ℓ(f) − c)(t² − 1)]/(2v),   t = (f − m)/√v,
   * </pre>
   * valid for any c since E[t] = E[t² − 1] = 0; c = ℓ(m) removes most of the cancellation. Unlike
   * Bonnet's and Price's theorems (E[ℓ'], ½E[ℓ'']) they need only log p, so they hold for a step likelihood
   * (ℓ' has a delta at the jump) and for the Poisson square link (ℓ'' = −2y/f² is not integrable at 0).
   */
  static VariationalExpectation variationalExpectation(
      Likelihood lik, double y, double m, double v) {
    checkCavity(m, v);
    double s = Math.sqrt(v);
    double c0 = lik.logDensity(y, m).value();
    double c = Double.isFinite(c0) ? c0 : 0;
    DoubleUnaryOperator ell = f -> lik.logDensity(y, f).value();
    double e = normalExpectation(lik, y, m, v, ell);
    double dm = normalExpectation(lik, y, m, v, f -> (ell.applyAsDouble(f) - c) * (f - m)) / v;
    double dv = normalExpectation(lik, y, m, v, f -> {
          double t = (f - m) / s;
          return (ell.applyAsDouble(f) - c) * (t * t - 1);
        })
        / (2 * v);
    return new VariationalExpectation(e, dm, dv);
  }
}
