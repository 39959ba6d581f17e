package org.approxgp.special;

/**
 * Gauss–Legendre quadrature on [−1, 1]: the n nodes are the roots of the Legendre polynomial P_n, found by
 * Newton's method from cos(π(i + ¾)/(n + ½)) on the recurrence j P_j = (2j − 1) x P_{j−1} − (j − 1) P_{j−2}
 * (stopping when the step is at most 1e-16), and the weights are 2/((1 − x²) P_n'(x)²) (Abramowitz &amp;
 * Stegun 25.4.29). Exact for polynomials of degree ≤ 2n − 1.
 */
public final class GaussLegendre {
  private GaussLegendre() {}

  /**
   * The n-point rule: {@code [0]} the nodes (decreasing from near 1), {@code [1]} the weights.
   *
   * @throws IllegalArgumentException if n &lt; 1
   */
  public static double[][] rule(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("need n >= 1 points, got " + n);
    }
    double[] x = new double[n];
    double[] w = new double[n];
    for (int i = 0; i < n; i++) {
      double r = Math.cos(Math.PI * (i + 0.75) / (n + 0.5));
      double dp = 0;
      for (int it = 0; it < 100; it++) {
        double p0 = 1;
        double p1 = r;
        for (int j = 2; j <= n; j++) {
          double p2 = ((2 * j - 1) * r * p1 - (j - 1) * p0) / j;
          p0 = p1;
          p1 = p2;
        }
        dp = n * (r * p1 - p0) / (r * r - 1);
        double dx = p1 / dp;
        r -= dx;
        if (Math.abs(dx) <= 1e-16) {
          break;
        }
      }
      x[i] = r;
      w[i] = 2 / ((1 - r * r) * dp * dp);
    }
    return new double[][] {x, w};
  }
}
