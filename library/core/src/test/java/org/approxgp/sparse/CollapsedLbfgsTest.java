package org.approxgp.sparse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CollapsedLbfgsTest {

  /**
   * A bound that keeps rising along θ₀ (as the collapsed bound along the log length-scale of an input it finds
   * irrelevant, here without the vanishing gradient that makes the walk slow): unbounded, L-BFGS's steps grow
   * until θ₀ = log ℓ overflows exp; in the box θ₀ stops at the limit, where e^θ₀ is finite, and θ₁ at its optimum.
   */
  @Test
  void logHyperparametersStayWhereTheirExponentialIsFinite() {
    CollapsedLbfgs.Bound rising = (t, g) -> {
      g[0] = 1e-3;
      g[1] = -(t[1] - 0.5);
      return 1e-3 * t[0] - 0.5 * (t[1] - 0.5) * (t[1] - 0.5);
    };
    CollapsedLbfgs fit = new CollapsedLbfgs(rising, new double[] {0.0, 0.0}, 1000);
    double[] last = fit.iterate(fit.size() - 1);
    assertEquals(CollapsedLbfgs.LOG_LIMIT, last[0], 0.0);
    assertTrue(Double.isFinite(Math.exp(last[0])));
    assertEquals(0.5, last[1], 1e-6);
    for (int t = 0; t < fit.size(); t++) {
      double[] x = fit.iterate(t);
      assertTrue(
          Math.abs(x[0]) <= CollapsedLbfgs.LOG_LIMIT && Math.abs(x[1]) <= CollapsedLbfgs.LOG_LIMIT);
    }
  }

  /** Inside the box nothing changes: a concave bound's maximiser is found as unbounded. */
  @Test
  void anInteriorOptimumIsFoundAsWithoutTheBox() {
    CollapsedLbfgs.Bound peak = (t, g) -> {
      g[0] = -2 * (t[0] - 3);
      g[1] = -4 * (t[1] + 2);
      return -(t[0] - 3) * (t[0] - 3) - 2 * (t[1] + 2) * (t[1] + 2);
    };
    CollapsedLbfgs fit = new CollapsedLbfgs(peak, new double[] {0.0, 0.0}, 100);
    double[] last = fit.iterate(fit.size() - 1);
    assertEquals(3, last[0], 1e-6);
    assertEquals(-2, last[1], 1e-6);
    assertEquals(BoundMonitor.StopReason.CONVERGED, fit.stopReason());
  }
}
