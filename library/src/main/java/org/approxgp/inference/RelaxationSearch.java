package org.approxgp.inference;

import org.approxgp.optimize.Brent;

import java.util.function.DoubleUnaryOperator;

/**
 * The one-dimensional searches behind {@link RelaxedEp}'s choice of bᵢ: minimise G(b) = Q(b) + penalty over an
 * admissible interval [lo, hi] ∋ 0 (the paper specifies no search, appendix B says only "line search"). G is
 * +∞ where not admissible. Both searches keep b = 0 (EP) unless a point with a strictly smaller G is found.
 *
 * <ul>
 * <li>{@link #local}: probe G at ±δ; a side is searched (Brent) only when its probe is strictly below G(0). The
 *     local minimum reached from b = 0: a site relaxes only when the penalty is below |Q'(0)|.</li>
 * <li>{@link #global}: G on a scan of the whole interval (0, and on each side 25 points log-spaced in |b| from
 *     1e-4 of the side's length to its end), then Brent on the bracket [x_{j−1}, x_{j+1}] around the smallest
 *     scanned value: the minimiser over the admissible range, to the scan's resolution (a minimum narrower than
 *     the scan's spacing can be missed; the scan makes that unlikely, not impossible).</li>
 * </ul>
 */
final class RelaxationSearch {
  private static final int SCAN_PER_SIDE = 25;

  private RelaxationSearch() {
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
      double[] r = Brent.minimize(g, 0, hi, tol);
      if (r[1] < gBest) {
        best = r[0];
        gBest = r[1];
      }
    }
    if (left) {
      double[] l = Brent.minimize(g, lo, 0, tol);
      if (l[1] < gBest) {
        best = l[0];
      }
    }
    return best;
  }

  /** The global search (class comment): scan of [lo, hi], then Brent on the bracket of the scan's minimum. */
  static double global(DoubleUnaryOperator g, double lo, double hi, double tol) {
    int nl = lo < 0 ? SCAN_PER_SIDE : 0;
    int nr = hi > 0 ? SCAN_PER_SIDE : 0;
    double[] x = new double[nl + 1 + nr];
    for (int k = 0; k < nl; k++) { // lo · 10^{−4 (k / (n − 1))}, k = 0 is lo itself, increasing towards 0
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
