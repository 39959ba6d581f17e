package org.approxgp.optimize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@link Anderson}: on a linear contraction g(x) = A x + b in n dimensions, Anderson with memory ≥ n is a
 * Krylov method (Walker &amp; Ni 2011, Thm 2.2: equivalent to GMRES) and reaches the fixed point in at most n + 1
 * steps, where the plain iteration is still far from it.
 */
class AndersonTest {

  private static final double[][] A = {{0.5, 0.3, 0.1}, {-0.2, 0.6, 0.2}, {0.1, 0.1, 0.7}};
  private static final double[] B = {1, -2, 0.5};

  private static double[] g(double[] x) {
    double[] y = B.clone();
    for (int i = 0; i < 3; i++) {
      for (int j = 0; j < 3; j++) {
        y[i] += A[i][j] * x[j];
      }
    }
    return y;
  }

  private static double[] residual(double[] x) {
    double[] y = g(x);
    for (int i = 0; i < 3; i++) {
      y[i] -= x[i];
    }
    return y;
  }

  private static double norm(double[] v) {
    double s = 0;
    for (double e : v) {
      s += e * e;
    }
    return Math.sqrt(s);
  }

  @Test
  void solvesALinearFixedPointInNPlusOneSteps() {
    Anderson aa = new Anderson(5);
    double[] x = {0, 0, 0};
    double[] plain = {0, 0, 0};
    for (int k = 0; k < 4; k++) {
      double[] f = residual(x);
      double[] next = aa.next(x, f);
      if (k == 0) {
        assertNull(next, "no memory yet");
        next = g(x);
      }
      x = next;
      plain = g(plain);
    }
    // exact in exact arithmetic; the δ = 1e-12 tr(ΔFᵀΔF) regularisation leaves ~1e-9 of the initial
    // residual
    double r0 = norm(residual(new double[3]));
    assertTrue(
        norm(residual(x)) < 1e-8 * r0, "Anderson residual " + norm(residual(x)) + " of " + r0);
    assertTrue(
        norm(residual(plain)) > 1e-2,
        "the plain iteration after 4 steps: " + norm(residual(plain)));
  }

  @Test
  void resetForgetsTheMemory() {
    Anderson aa = new Anderson(2);
    double[] x0 = {0, 0, 0};
    aa.next(x0, residual(x0));
    double[] x1 = g(x0);
    assertTrue(aa.next(x1, residual(x1)) != null);
    aa.reset();
    assertNull(aa.next(x1, residual(x1)));
    assertEquals(3, x1.length);
    assertThrows(IllegalArgumentException.class, () -> new Anderson(0));
  }
}
