package org.approxgp.sparse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;

/** The stopping rule on the smoothed bound: settles on noise around a constant, not on a rising or falling trend. */
class BoundMonitorTest {

  /** Feeds {@code n} values a + slope·t + sd·noise (seeded) and returns the first iteration at which it converged. */
  private static int firstConverged(
      BoundMonitor mon, int n, double a, double slope, double sd, long seed) {
    ZigguratSampler.NormalizedGaussian g =
        ZigguratSampler.NormalizedGaussian.of(RandomSource.XO_RO_SHI_RO_128_PP.create(seed));
    for (int t = 1; t <= n; t++) {
      mon.add(a + slope * t + sd * g.sample());
      if (mon.converged()) {
        return t;
      }
    }
    return -1;
  }

  @Test
  void noiseAroundAConstantConvergesAfterTheMinimumWindows() {
    for (long seed = 1; seed <= 5; seed++) {
      BoundMonitor mon = new BoundMonitor(20, 0.01);
      int at = firstConverged(mon, 1000, -1000, 0, 200, seed);
      assertTrue(
          at >= BoundMonitor.MIN_WINDOWS * 20 && at <= 300,
          "seed " + seed + ": converged at " + at);
      assertFalse(mon.diverging());
    }
  }

  @Test
  void aSteadyRiseBeyondTheNoiseDoesNotConverge() {
    // +3 per iteration: +180 over the 60 iterations compared, against 2 se(Δ) ≈ 2·√2·100/√20 ≈ 63
    // and 1 % of |L|
    BoundMonitor mon = new BoundMonitor(20, 0.01);
    assertTrue(firstConverged(mon, 1000, -5000, 3, 100, 7) < 0);
    assertFalse(mon.diverging());
  }

  @Test
  void aSteadyFallIsFlaggedAsDiverging() {
    BoundMonitor mon = new BoundMonitor(20, 0.01);
    assertTrue(firstConverged(mon, 400, -5000, -3, 100, 8) < 0);
    assertTrue(mon.diverging());
  }

  @Test
  void keepsTheTraceAndRejectsBadSettings() {
    BoundMonitor mon = new BoundMonitor(2, 0.1);
    mon.add(1);
    mon.add(2);
    mon.add(3);
    assertArrayEquals(new double[] {1, 2, 3}, mon.trace());
    assertTrue(Double.isNaN(mon.gain()));
    assertThrows(IllegalArgumentException.class, () -> new BoundMonitor(1, 0.01));
    assertThrows(IllegalArgumentException.class, () -> new BoundMonitor(20, 0));
  }
}
