package org.approxgp.sparse;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.function.ToDoubleFunction;

/** The check each sparse bound's analytic gradient is held to: central differences of its value. */
final class CentralDifferences {

  /** Step h of every difference. */
  static final double STEP = 1e-5;

  private CentralDifferences() {}

  /**
   * Asserts, for every coordinate j of x, g[j] = (f(x + h eⱼ) − f(x − h eⱼ)) / 2h (h = {@value #STEP}) within
   * {@code tol} · max(1, |difference|); a failure names {@code label} and j.
   */
  static void assertGradient(
      ToDoubleFunction<double[]> f, double[] x, double[] g, double tol, String label) {
    for (int j = 0; j < x.length; j++) {
      double[] plus = x.clone();
      double[] minus = x.clone();
      plus[j] += STEP;
      minus[j] -= STEP;
      double fd = (f.applyAsDouble(plus) - f.applyAsDouble(minus)) / (2 * STEP);
      assertEquals(fd, g[j], tol * Math.max(1, Math.abs(fd)), label + " parameter " + j);
    }
  }
}
