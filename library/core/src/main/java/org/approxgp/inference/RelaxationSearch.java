package org.approxgp.inference;

import java.util.function.DoubleUnaryOperator;
import org.approxgp.optimize.Brent;

/**
 * The one-dimensional searches behind {@link RelaxedEp}'s choice of bᵢ: minimise G(b) = Q(b) + penalty over an
 * admissible interval [lo, hi] ∋ 0 (the paper specifies no search, appendix B says only "line search"). G is
 * +∞ where not admissible. Both searches keep b = 0 (EP) unless a point with a strictly smaller G is found.
 *
 * <ul>
 * <li>{@link #local}: probe G at ±δ; a side is searched (Brent, or Brent on a bracket found downhill from the
 *     probe when Brent on the whole side does not beat the probe) only when its probe is strictly below G(0). The
 *     local minimum reached from b = 0: a site relaxes only when the penalty is below |Q'(0)|.</li>
 * <li>{@link #global}: G on a scan of the whole interval (0, and on each side 25 points log-spaced in |b| from
 *     1e-4 of the side's length to its end), then Brent on the bracket [x_{j−1}, x_{j+1}] around the smallest
 *     scanned value: the minimiser over the admissible range, to the scan's resolution (a minimum narrower than
 *     the scan's spacing can be missed; the scan makes that unlikely, not impossible).</li>
 * </ul>
 */
final class RelaxationSearch {
  private static final int SCAN_PER_SIDE = 25;
  /** The probe δλ on each side of b = 0 of the local search. */
  private static final double PROBE = 1e-3;
  /** Brent's tolerance on bλ. */
  private static final double TOLERANCE = 1e-6;

  private RelaxationSearch() {}

  /**
   * argmin of G over bλ ∈ [0, {@link RelaxedEp#MAX_RELATIVE_B}] ({@link RelaxedEp.Relaxation#NONNEGATIVE}) or
   * [{@link RelaxedEp#MIN_RELATIVE_B}, {@link RelaxedEp#MAX_RELATIVE_B}] ({@link RelaxedEp.Relaxation#SIGNED}),
   * λ the cavity variance: {@link RelaxedEp.Search#LOCAL} by {@link #local} with the probe δλ = 1e-3 (so a large
   * penalty costs three evaluations of G), {@link RelaxedEp.Search#GLOBAL} by {@link #global}; Brent's tolerance
   * (Brent 1973 ch. 5) is 1e-6 on bλ.
   */
  static double minimise(
      RelaxedEp.Search search,
      RelaxedEp.Relaxation relaxation,
      DoubleUnaryOperator g,
      double lambda) {
    double lo = relaxation == RelaxedEp.Relaxation.SIGNED ? RelaxedEp.MIN_RELATIVE_B / lambda : 0;
    double hi = RelaxedEp.MAX_RELATIVE_B / lambda;
    return search == RelaxedEp.Search.LOCAL
        ? local(g, lo, hi, PROBE / lambda, TOLERANCE / lambda)
        : global(g, lo, hi, TOLERANCE / lambda);
  }

  /**
   * The local search from b = 0: probes at ±{@code probe} (the left one only when lo &lt; 0), Brent on [0, hi] and
   * [lo, 0] for a side whose probe descends; returns the argmin (0 unless strictly beaten).
   */
  static double local(DoubleUnaryOperator g, double lo, double hi, double probe, double tol) {
    double g0 = g.applyAsDouble(0);
    boolean right = hi > 0 && g.applyAsDouble(probe) < g0;
    boolean left = lo < 0 && g.applyAsDouble(-probe) < g0;
    double best = 0;
    double gBest = g0;
    if (right) {
      double[] r = descend(g, 0, hi, probe, tol);
      if (r[1] < gBest) {
        best = r[0];
        gBest = r[1];
      }
    }
    if (left) {
      double[] l = descend(g, lo, 0, -probe, tol);
      if (l[1] < gBest) {
        best = l[0];
      }
    }
    return best;
  }

  /**
   * Brent on the side [lo, hi] whose probe p descends from 0; when Brent does not get below G(p) (it can stall
   * where most of the side is +∞, e.g. reading C's admissible b &lt; 1/(2σ̂²) is a small part of [0, 100/λ]),
   * the minimum is bracketed downhill from p instead (p, 2p, 4p, ... while G decreases, capped at the side's end)
   * and Brent runs on that bracket. Returns {argmin, min}.
   */
  private static double[] descend(
      DoubleUnaryOperator g, double lo, double hi, double p, double tol) {
    double[] r = Brent.minimize(g, lo, hi, tol);
    double gp = g.applyAsDouble(p);
    if (r[1] < gp) {
      return r;
    }
    double end = p > 0 ? hi : lo;
    double prev = 0;
    double x = p;
    double gx = gp;
    double next = x;
    while (x != end) {
      next = Math.abs(2 * x) < Math.abs(end) ? 2 * x : end;
      double gn = g.applyAsDouble(next);
      if (!(gn < gx)) {
        break;
      }
      prev = x;
      x = next;
      gx = gn;
    }
    double a = Math.min(prev, next);
    double b = Math.max(prev, next);
    double[] s = b > a ? Brent.minimize(g, a, b, tol) : new double[] {x, gx};
    return s[1] < gx ? s : new double[] {x, gx};
  }

  /** The global search (class comment): scan of [lo, hi], then Brent on the bracket of the scan's minimum. */
  static double global(DoubleUnaryOperator g, double lo, double hi, double tol) {
    int nl = lo < 0 ? SCAN_PER_SIDE : 0;
    int nr = hi > 0 ? SCAN_PER_SIDE : 0;
    double[] x = new double[nl + 1 + nr];
    for (int k = 0;
        k < nl;
        k++) { // lo · 10^{−4 (k / (n − 1))}, k = 0 is lo itself, increasing towards 0
      x[k] = lo * Math.pow(10, -4.0 * k / (SCAN_PER_SIDE - 1));
    }
    x[nl] = 0;
    for (int k = 0; k < nr; k++) {
      x[nl + 1 + k] = hi * Math.pow(10, -4.0 * (SCAN_PER_SIDE - 1 - k) / (SCAN_PER_SIDE - 1));
    }
    double g0 = g.applyAsDouble(0);
    int j = nl;
    double gj = g0;
    for (int k = 0; k < x.length; k++) {
      if (k == nl) {
        continue;
      }
      double v = g.applyAsDouble(x[k]);
      if (v < gj) {
        j = k;
        gj = v;
      }
    }
    double a = x[Math.max(0, j - 1)];
    double b = x[Math.min(x.length - 1, j + 1)];
    double best = x[j];
    double gBest = gj;
    if (b > a) {
      double[] r = Brent.minimize(g, a, b, tol);
      if (r[1] < gBest) {
        best = r[0];
        gBest = r[1];
      }
    }
    return gBest < g0 ? best : 0;
  }
}
