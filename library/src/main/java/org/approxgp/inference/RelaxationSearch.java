package org.approxgp.inference;

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
  private static final double GOLDEN = 0.3819660112501051;
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
      double[] r = brent(g, 0, hi, tol);
      if (r[1] < gBest) {
        best = r[0];
        gBest = r[1];
      }
    }
    if (left) {
      double[] l = brent(g, lo, 0, tol);
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
      double[] r = brent(g, a, b, tol);
      if (r[1] < gBest) {
        best = r[0];
        gBest = r[1];
      }
    }
    return gBest < g0 ? best : 0;
  }

  /**
   * Brent's minimisation on [a, b] (Brent 1973, ch. 5: golden section with parabolic interpolation), absolute
   * tolerance {@code tol}; returns {argmin, min}.
   */
  static double[] brent(DoubleUnaryOperator g, double a, double b, double tol) {
    double x = a + GOLDEN * (b - a);
    double w = x;
    double v = x;
    double fx = g.applyAsDouble(x);
    double fw = fx;
    double fv = fx;
    double d = 0;
    double e = 0;
    for (int it = 0; it < 100; it++) {
      double xm = 0.5 * (a + b);
      double tol1 = tol + 1e-10 * Math.abs(x);
      double tol2 = 2 * tol1;
      if (Math.abs(x - xm) <= tol2 - 0.5 * (b - a)) {
        break;
      }
      boolean useGolden = true;
      if (Math.abs(e) > tol1 && Double.isFinite(fx) && Double.isFinite(fw) && Double.isFinite(fv)) {
        double r = (x - w) * (fx - fv);
        double q = (x - v) * (fx - fw);
        double p = (x - v) * q - (x - w) * r;
        q = 2 * (q - r);
        if (q > 0) {
          p = -p;
        }
        q = Math.abs(q);
        double etemp = e;
        e = d;
        if (Math.abs(p) < Math.abs(0.5 * q * etemp) && p > q * (a - x) && p < q * (b - x)) {
          d = p / q;
          double u = x + d;
          if (u - a < tol2 || b - u < tol2) {
            d = xm >= x ? tol1 : -tol1;
          }
          useGolden = false;
        }
      }
      if (useGolden) {
        e = x >= xm ? a - x : b - x;
        d = GOLDEN * e;
      }
      double u = Math.abs(d) >= tol1 ? x + d : x + (d > 0 ? tol1 : -tol1);
      double fu = g.applyAsDouble(u);
      if (fu <= fx) {
        if (u >= x) {
          a = x;
        } else {
          b = x;
        }
        v = w;
        fv = fw;
        w = x;
        fw = fx;
        x = u;
        fx = fu;
      } else {
        if (u < x) {
          a = u;
        } else {
          b = u;
        }
        if (fu <= fw || w == x) {
          v = w;
          fv = fw;
          w = u;
          fw = fu;
        } else if (fu <= fv || v == x || v == w) {
          v = u;
          fv = fu;
        }
      }
    }
    return new double[] {x, fx};
  }
}
