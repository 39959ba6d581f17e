package org.approxgp.special;

import java.util.function.DoubleUnaryOperator;

/**
 * An n-point Gauss–Laguerre rule (weight e^{−u} on [0, ∞)) and ∫₀^∞ g(t) dt with it after the scaling t = u/λ.
 * Immutable.
 */
public final class GaussLaguerre {
  private final double[] x;
  private final double[] w;

  private GaussLaguerre(double[][] rule) {
    this.x = rule[0];
    this.w = rule[1];
  }

  /** The n-point rule (n ≥ 1). */
  public static GaussLaguerre of(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("a Gauss–Laguerre rule needs n >= 1 points, got " + n);
    }
    return new GaussLaguerre(rule(n));
  }

  /** The nodes uᵢ (copy). */
  public double[] nodes() {
    return x.clone();
  }

  /** The weights wᵢ (copy). */
  public double[] weights() {
    return w.clone();
  }

  /**
   * (1/λ) Σ wᵢ e^{uᵢ} g(uᵢ/λ) ≈ ∫₀^∞ g(t) dt for a non-negative g decaying like e^{−λ t}; non-positive values of g
   * are skipped (the product e^{uᵢ} g is formed in log space, so a tiny g at a large node does not overflow).
   */
  public double integrate(DoubleUnaryOperator g, double lambda) {
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
  private static double[][] rule(int n) {
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
}
