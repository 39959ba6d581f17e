package org.approxgp.optimize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class LbfgsTest {

  /** Rosenbrock's function, minimum 0 at (1, 1). */
  static double rosenbrock(double[] x, double[] g) {
    double a = 1 - x[0];
    double b = x[1] - x[0] * x[0];
    g[0] = -2 * a - 400 * x[0] * b;
    g[1] = 200 * b;
    return a * a + 100 * b * b;
  }

  @Test
  void findsRosenbrockMinimum() {
    Lbfgs.Result r = Lbfgs.minimize(
        LbfgsTest::rosenbrock, new double[] {-1.2, 1}, new Lbfgs.Settings(1000, 0, 1e-10, 10));
    assertTrue(r.converged(), r.status());
    assertEquals(1.0, r.x()[0], 1e-6);
    assertEquals(1.0, r.x()[1], 1e-6);
    assertTrue(r.activeBounds().isEmpty());
  }

  @Test
  void reportsActiveBound() {
    // minimum of (x − 3)² + (y + 1)² at (3, −1); box x ≤ 2 makes x's bound active
    Objective f = (x, g) -> {
      g[0] = 2 * (x[0] - 3);
      g[1] = 2 * (x[1] + 1);
      return (x[0] - 3) * (x[0] - 3) + (x[1] + 1) * (x[1] + 1);
    };
    Lbfgs.Result r = Lbfgs.minimize(
        f, new double[] {0, 0}, new double[] {-5, -5}, new double[] {2, 5}, Lbfgs.Settings.paper());
    assertEquals(List.of(0), r.activeBounds());
    assertEquals(2.0, r.x()[0]);
    assertEquals(-1.0, r.x()[1], 1e-4);
    assertEquals(1.0, r.value(), 1e-6);
  }

  @Test
  void nonFiniteRegionIsAvoided() {
    // f = x² − log(x) … undefined for x ≤ 0; minimum at x = 1/√2
    Objective f = (x, g) -> {
      if (x[0] <= 0) {
        return Double.NaN;
      }
      g[0] = 2 * x[0] - 1 / x[0];
      return x[0] * x[0] - Math.log(x[0]);
    };
    Lbfgs.Result r = Lbfgs.minimize(f, new double[] {3}, Lbfgs.Settings.paper());
    assertEquals(1 / Math.sqrt(2), r.x()[0], 1e-4);
  }

  /**
   * A pseudo-Huber bowl √(1 + |x − c|²) with its minimum at c = (2, 2) beside a wall where f cannot be
   * evaluated (x₀ + x₁ > 4.5, as an inference that fails there). Far from c the bowl is nearly flat,
   * so quasi-Newton steps overshoot into the wall. The minimiser must back off and still reach the
   * minimum, not stop at the first failed trial point.
   */
  @Test
  void failedTrialPointsDoNotEndTheSearch() {
    int[] failures = {0};
    Objective f = (x, g) -> {
      if (x[0] + x[1] > 4.5) {
        failures[0]++;
        return Double.POSITIVE_INFINITY;
      }
      double a = x[0] - 2;
      double b = x[1] - 2;
      double v = Math.sqrt(1 + a * a + b * b);
      g[0] = a / v;
      g[1] = b / v;
      return v;
    };
    Lbfgs.Result r = Lbfgs.minimize(f, new double[] {-20, -30}, Lbfgs.Settings.paper());
    assertTrue(failures[0] > 0, "the test must actually hit the wall");
    assertEquals(2.0, r.x()[0], 1e-5, r.toString());
    assertEquals(2.0, r.x()[1], 1e-5, r.toString());
  }

  /**
   * A negative objective: a relative-decrease test (f_{k−1} − f_k)/f_k &lt; δ would be met at once when f_k &lt; 0
   * (liblbfgs' was); this one divides by max(|f_{k−1}|, |f_k|), so Rosenbrock − 1000 is minimised like
   * Rosenbrock, and the progress callback sees every iteration.
   */
  @Test
  void negativeObjectiveIsMinimisedToo() {
    int[] calls = {0};
    Lbfgs.Result r = Lbfgs.minimize(
        (x, g) -> rosenbrock(x, g) - 1000,
        new double[] {-1.2, 1},
        null,
        null,
        new Lbfgs.Settings(1000, 1e-12, 1e-10, 10),
        (it, x, fx) -> calls[0] = it);
    assertEquals(1.0, r.x()[0], 1e-4);
    assertEquals(1.0, r.x()[1], 1e-4);
    assertTrue(r.iterations() > 10, r.status());
    assertEquals(r.iterations(), calls[0]);
  }

  /** Every stop says why: the cap, a wrong gradient (no descent possible), a failed start, a flat end. */
  @Test
  void statusNamesSayWhy() {
    Lbfgs.Result cap = Lbfgs.minimize(
        LbfgsTest::rosenbrock, new double[] {-1.2, 1}, new Lbfgs.Settings(3, 0, 1e-10, 10));
    assertEquals(3, cap.iterations());
    assertFalse(cap.converged());
    assertTrue(cap.status().startsWith("MAX_ITERATIONS"), cap.status());

    // the gradient's sign is wrong: every "descent" direction goes uphill
    Lbfgs.Result wrong = Lbfgs.minimize(
        (x, g) -> {
          g[0] = -2 * x[0];
          return x[0] * x[0];
        },
        new double[] {1},
        Lbfgs.Settings.paper());
    assertFalse(wrong.converged());
    assertTrue(wrong.status().startsWith("LINE_SEARCH_FAILED"), wrong.status());
    assertEquals(1.0, wrong.x()[0]);

    Lbfgs.Result start =
        Lbfgs.minimize((x, g) -> Double.NaN, new double[] {1}, Lbfgs.Settings.paper());
    assertFalse(start.converged());
    assertEquals(1, start.evaluations());
    assertTrue(start.status().startsWith("NON_FINITE_START"), start.status());

    // gtol 0: only the relative-decrease rule can stop it
    Lbfgs.Result flat = Lbfgs.minimize(
        LbfgsTest::rosenbrock, new double[] {-1.2, 1}, new Lbfgs.Settings(1000, 1e-9, 0, 10));
    assertTrue(flat.converged(), flat.status());
    assertTrue(
        flat.status().equals("CONVERGED_FUNCTION") || flat.status().equals("CONVERGED_GRADIENT"),
        flat.status());
    assertEquals(1.0, flat.x()[0], 1e-3);
  }

  /**
   * Moré &amp; Thuente's (1994) test functions 1 and 2: φ(α) = −α/(α² + 2) and (α + 0.004)⁵ − 2(α + 0.004)⁴, from
   * their starting steps 1e-3, 1e-1, 10, 1e3. Whatever the start, the step returned meets both strong Wolfe
   * conditions.
   */
  @Test
  void moreThuenteStepsMeetTheStrongWolfeConditions() {
    MoreThuente.Phi f1 = (a, d) -> {
      d[0] = (a * a - 2) / ((a * a + 2) * (a * a + 2));
      return -a / (a * a + 2);
    };
    MoreThuente.Phi f2 = (a, d) -> {
      double b = a + 0.004;
      d[0] = 5 * Math.pow(b, 4) - 8 * Math.pow(b, 3);
      return Math.pow(b, 5) - 2 * Math.pow(b, 4);
    };
    double[] d0 = new double[1];
    for (MoreThuente.Phi phi : List.of(f1, f2)) {
      double f0 = phi.at(0, d0);
      double g0 = d0[0];
      for (double a0 : new double[] {1e-3, 1e-1, 10, 1e3}) {
        MoreThuente.Outcome o = MoreThuente.search(phi, f0, g0, a0, 1e10);
        double[] d = new double[1];
        double f = phi.at(o.step(), d);
        assertTrue(o.wolfe(), o.toString());
        assertTrue(f <= f0 + MoreThuente.MU * o.step() * g0, o.toString());
        assertTrue(Math.abs(d[0]) <= MoreThuente.ETA * Math.abs(g0), o.toString());
        assertTrue(o.evaluations() <= 12, o.toString());
      }
    }
  }

  /** A NaN wall just past the first trial step: the search steps back instead of ending. */
  @Test
  void moreThuenteBacksOffFromNonFiniteValues() {
    MoreThuente.Phi phi = (a, d) -> {
      if (a > 0.5) {
        return Double.NaN;
      }
      d[0] = 2 * (a - 0.3);
      return (a - 0.3) * (a - 0.3);
    };
    MoreThuente.Outcome o = MoreThuente.search(phi, 0.09, -0.6, 100, 1e10);
    assertTrue(o.wolfe(), o.toString());
    assertTrue(o.step() > 0 && o.step() <= 0.5, o.toString());
  }

  /** f fails at every positive step: the search ends (no exception) with step 0 after its evaluation cap. */
  @Test
  void moreThuenteEndsWhenFFailsEverywhere() {
    MoreThuente.Outcome o = MoreThuente.search((a, d) -> Double.NaN, 1, -1, 1, 1e10);
    assertFalse(o.wolfe(), o.toString());
    assertEquals(0, o.step());
    assertEquals(MoreThuente.MAX_EVALUATIONS, o.evaluations(), o.toString());
    Lbfgs.Result r = Lbfgs.minimize(
        (x, g) -> {
          g[0] = -1;
          return x[0] > 0 ? Double.NaN : -x[0];
        },
        new double[] {0},
        Lbfgs.Settings.paper());
    assertFalse(r.converged());
    assertTrue(r.status().startsWith("LINE_SEARCH_FAILED"), r.status());
    assertEquals(0.0, r.x()[0]);
  }

  /**
   * An objective with noise of 1e-7 in f (as an inference converged to a tolerance) and an exact gradient: the
   * line search meets the noise floor before the gradient test; the run ends CONVERGED_FUNCTION near the
   * minimum, not LINE_SEARCH_FAILED.
   */
  @Test
  void noisyObjectiveEndsConvergedAtItsNoiseFloor() {
    Objective f = (x, g) -> {
      g[0] = 2 * (x[0] - 1);
      g[1] = 20 * (x[1] + 2);
      // deterministic noise in [−1e-7, 1e-7] from the bits of x
      long h = Double.doubleToLongBits(x[0]) * 0x9E3779B97F4A7C15L ^ Double.doubleToLongBits(x[1]);
      double noise = 1e-7 * ((h >>> 11) * 0x1.0p-53 * 2 - 1);
      return 100 + (x[0] - 1) * (x[0] - 1) + 10 * (x[1] + 2) * (x[1] + 2) + noise;
    };
    Lbfgs.Result r = Lbfgs.minimize(f, new double[] {3, 1}, Lbfgs.Settings.paper());
    assertTrue(r.converged(), r.status());
    assertEquals(1.0, r.x()[0], 2e-3, r.status());
    assertEquals(-2.0, r.x()[1], 2e-3, r.status());
  }
}
