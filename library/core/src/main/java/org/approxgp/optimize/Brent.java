package org.approxgp.optimize;

import java.util.function.DoubleUnaryOperator;

/** Brent's one-dimensional minimiser on a bracket, without derivatives. */
public final class Brent {
  /** (3 − √5)/2, the golden-section fraction. */
  private static final double GOLDEN = 0.3819660112501051;

  private Brent() {}

  /**
   * Brent's minimisation on [a, b] (Brent 1973, ch. 5: golden section with parabolic interpolation), absolute
   * tolerance {@code tol}; returns {argmin, min}.
   */
  public static double[] minimize(DoubleUnaryOperator g, double a, double b, double tol) {
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
