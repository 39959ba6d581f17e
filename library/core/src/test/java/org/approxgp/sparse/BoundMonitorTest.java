package org.approxgp.sparse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.function.IntToDoubleFunction;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;

/**
 * The stopping rules on a noisy bound: the slope test (the default) stops on noise around a constant and after a
 * rise has ended, never while the bound rises by more than its noise and the tolerance, and not at the plateau of
 * a moving average that stopped the windowed-means test; both flag a steady fall.
 */
class BoundMonitorTest {
  /** The slope test with a tolerance of 0.01 nats per row (the default's test, fixed constants). */
  private static final BoundMonitor.Rule SLOPE =
      new BoundMonitor.Rule(BoundMonitor.Test.SLOPE, 50, 0.01);

  private static final BoundMonitor.Rule MEANS = BoundMonitor.Rule.ADVI;

  /** Rows of the bound's sum: a tolerance of 0.01 nats per row is 10 nats. */
  private static final int ROWS = 1000;

  /**
   * Feeds {@code n} values trend(t) + sd·noise (seeded) to {@code mon} and returns the first iteration at which
   * it converged, or −1.
   */
  private static int firstConverged(
      BoundMonitor mon, int n, IntToDoubleFunction trend, double sd, long seed) {
    ZigguratSampler.NormalizedGaussian g =
        ZigguratSampler.NormalizedGaussian.of(RandomSource.XO_RO_SHI_RO_128_PP.create(seed));
    for (int t = 1; t <= n; t++) {
      mon.add(trend.applyAsDouble(t) + sd * g.sample());
      if (mon.converged()) {
        return t;
      }
    }
    return -1;
  }

  private static int firstConverged(
      BoundMonitor mon, int n, double a, double slope, double sd, long seed) {
    return firstConverged(mon, n, t -> a + slope * t, sd, seed);
  }

  @Test
  void slopeStopsOnNoiseAroundAConstantWithinABoundedNumberOfWindows() {
    // (|β̂| + 2 se)·R with se·R = sd·√(12/R) falls below the 10 nats of the tolerance once R = t/2
    // is long
    // enough: stopped by 20 windows of 50 on every seed, never before the first test at 2 windows
    for (long seed = 1; seed <= 20; seed++) {
      BoundMonitor mon = SLOPE.start(ROWS);
      int at = firstConverged(mon, 5000, -1000, 0, 20, seed);
      assertTrue(at >= 2 * SLOPE.window() && at <= 20 * SLOPE.window(), "seed " + seed + ": " + at);
      assertEquals(0, at % SLOPE.window(), "tests only at the end of a window");
      assertTrue(mon.riseBound() <= SLOPE.tolerance());
      assertFalse(mon.diverging());
    }
  }

  @Test
  void slopeIsScaleFree() {
    // an offset of the bound changes nothing; a bound over c times the rows with c times the trend
    // and noise
    // (the same per row) stops at the same iteration
    for (long seed = 1; seed <= 5; seed++) {
      int at = firstConverged(SLOPE.start(ROWS), 5000, t -> 300 * Math.exp(-t / 150.0), 20, seed);
      int shifted =
          firstConverged(SLOPE.start(ROWS), 5000, t -> 1e6 + 300 * Math.exp(-t / 150.0), 20, seed);
      int scaled = firstConverged(
          SLOPE.start(50 * ROWS), 5000, t -> -5e4 + 50 * 300 * Math.exp(-t / 150.0), 50 * 20, seed);
      assertTrue(at > 0, "seed " + seed);
      assertEquals(at, shifted, "seed " + seed);
      assertEquals(at, scaled, "seed " + seed);
    }
  }

  @Test
  void lastSlopeTestIsTheSlopeAndItsStandardErrorPerRow() {
    BoundMonitor mon = SLOPE.start(ROWS);
    ZigguratSampler.NormalizedGaussian g =
        ZigguratSampler.NormalizedGaussian.of(RandomSource.XO_RO_SHI_RO_128_PP.create(3));
    for (int t = 1; t < 2 * SLOPE.window(); t++) {
      mon.add(-1000 + 0.5 * t + 20 * g.sample());
    }
    assertEquals(null, mon.lastSlopeTest(), "no test before two windows");
    mon.add(-1000 + 0.5 * 2 * SLOPE.window() + 20 * g.sample());
    BoundMonitor.SlopeTest last = mon.lastSlopeTest();
    assertEquals(mon.slope() / ROWS, last.slope());
    assertEquals(mon.slopeStandardError() / ROWS, last.standardError());
    assertEquals(SLOPE.window(), last.iterations());
    assertEquals(
        mon.riseBound(),
        (last.slope() + BoundMonitor.Z * last.standardError()) * last.iterations(),
        1e-12 * Math.abs(mon.riseBound()));
    BoundMonitor means = MEANS.start(ROWS);
    for (int t = 1; t <= 400; t++) {
      means.add(-1000 + 20 * g.sample());
    }
    assertEquals(null, means.lastSlopeTest(), "the windowed-means rule runs no slope test");
  }

  @Test
  void slopeDoesNotStopWhileTheRiseIsSignificantAndMaterial() {
    // +0.5 nats per iteration under noise of sd 20: over the shortest regression (R = 50) the
    // slope's se is
    // 20·√(12/50³) ≈ 0.2, so the rise is significant, and 0.5·R ≥ 25 nats exceeds the 10 of the
    // tolerance
    for (long seed = 1; seed <= 5; seed++) {
      BoundMonitor mon = SLOPE.start(ROWS);
      assertEquals(-1, firstConverged(mon, 5000, -1000, 0.5, 20, seed), "seed " + seed);
      assertFalse(mon.diverging());
      assertTrue(mon.slope() - BoundMonitor.Z * mon.slopeStandardError() > 0);
    }
  }

  @Test
  void slopeStopsOnlyOnceTheRemainingRiseIsWithinTheTolerance() {
    // a rise of 300 nats that decays with a time constant of 150 iterations, under noise of sd 20:
    // the rule may
    // stop only where the true rise over the next R = t/2 iterations is below the 10 nats of the
    // tolerance
    for (long seed = 1; seed <= 10; seed++) {
      IntToDoubleFunction trend = t -> -1000 - 300 * Math.exp(-t / 150.0);
      BoundMonitor mon = SLOPE.start(ROWS);
      int at = firstConverged(mon, 5000, trend, 20, seed);
      assertTrue(at > 0, "seed " + seed + " never stopped");
      double ahead = trend.applyAsDouble(at + at / 2) - trend.applyAsDouble(at);
      assertTrue(
          ahead <= SLOPE.tolerance() * ROWS,
          "seed " + seed + ": stopped at " + at + " with " + ahead
              + " nats still to gain over the next " + at / 2 + " iterations");
    }
  }

  @Test
  void slopeKeepsGoingWhereTheMovingAverageHasPlateaued() {
    // the old failure: a bound still rising as 40·log t (27.7 nats, 0.028 per row, every time t
    // doubles) under
    // noise of sd 20 -- the windowed means (Stan ADVI's relative change, tolerance 0.01 of |L|)
    // settle early,
    // while the slope over the second half of the run still projects about 27 nats > the 10 of the
    // tolerance
    for (long seed = 1; seed <= 5; seed++) {
      IntToDoubleFunction trend = t -> -1000 + 40 * Math.log(t);
      int means = firstConverged(MEANS.start(ROWS), 5000, trend, 20, seed);
      assertTrue(means > 0 && means <= 500, "seed " + seed + ": means settled at " + means);
      BoundMonitor slope = SLOPE.start(ROWS);
      assertEquals(-1, firstConverged(slope, 5000, trend, 20, seed), "seed " + seed);
      assertTrue(slope.riseBound() > SLOPE.tolerance());
    }
  }

  @Test
  void slopesStandardErrorIsCalibratedUnderSeriallyCorrelatedNoise() {
    // AR(1) noise of stationary sd 20 around a constant, φ = 0, 0.5, 0.9: across 300 runs of 400
    // iterations
    // (the test at t = 400 regresses the last 200), the spread of the slope matches its reported
    // standard error;
    // the plain OLS se, ignoring the correlation, would be √((1 + φ)/(1 − φ)) = 1.7 and 4.4 times
    // too small
    for (double phi : new double[] {0, 0.5, 0.9}) {
      ZigguratSampler.NormalizedGaussian g =
          ZigguratSampler.NormalizedGaussian.of(RandomSource.XO_RO_SHI_RO_128_PP.create(11));
      int runs = 300;
      double sum = 0;
      double sq = 0;
      double se = 0;
      for (int k = 0; k < runs; k++) {
        BoundMonitor mon = SLOPE.start(ROWS);
        double e = 20 * g.sample();
        for (int t = 1; t <= 400; t++) {
          e = phi * e + Math.sqrt(1 - phi * phi) * 20 * g.sample();
          mon.add(-1000 + e);
        }
        sum += mon.slope();
        sq += mon.slope() * mon.slope();
        se += mon.slopeStandardError();
      }
      double sd = Math.sqrt((sq - sum * sum / runs) / (runs - 1));
      double ratio = sd / (se / runs);
      assertTrue(ratio > 0.8 && ratio < 1.35, "φ = " + phi + ": sd(slope) / se = " + ratio);
    }
  }

  @Test
  void slopeDoesNotStopOnAFallBeyondTheTolerance() {
    // falls of 0.05-0.15 nats per iteration (beyond the 10 nats of the tolerance once R exceeds
    // 67-200) under
    // noise of sd 40 or 80, often too noisy to be flagged as diverging: the upper one-sided test
    // alone stopped
    // nearly every seed of these by t = 800; the lower test keeps them going
    for (double[] c : new double[][] {{-0.05, 40}, {-0.1, 40}, {-0.15, 40}, {-0.1, 80}}) {
      for (long seed = 1; seed <= 10; seed++) {
        BoundMonitor mon = SLOPE.start(ROWS);
        assertEquals(
            -1,
            firstConverged(mon, 2000, -1000, c[0], c[1], seed),
            c[0] + ", " + c[1] + ", " + seed);
      }
    }
  }

  @Test
  void slopeFlagsASteadyFallAndDoesNotCallItConverged() {
    BoundMonitor mon = SLOPE.start(ROWS);
    assertEquals(-1, firstConverged(mon, 1000, -5000, -3, 100, 8));
    assertTrue(mon.diverging());
  }

  /**
   * Feeds {@code n} estimates trend(t) + rawSd·noise and, whenever one is due, an evaluation on the fixed sample
   * trend(t) + evalSd·noise (seeded); returns the first iteration at which the monitor converged, or −1.
   */
  private static int firstConvergedEvaluated(
      BoundMonitor mon, int n, IntToDoubleFunction trend, double rawSd, double evalSd, long seed) {
    ZigguratSampler.NormalizedGaussian g =
        ZigguratSampler.NormalizedGaussian.of(RandomSource.XO_RO_SHI_RO_128_PP.create(seed));
    for (int t = 1; t <= n; t++) {
      mon.add(trend.applyAsDouble(t) + rawSd * g.sample());
      if (mon.evaluationDue()) {
        mon.addEvaluation(trend.applyAsDouble(t) + evalSd * g.sample());
      }
      if (mon.converged()) {
        return t;
      }
    }
    return -1;
  }

  @Test
  void evaluationsOnAFixedSampleStopAFlatBoundWhoseEstimatesAreTooNoisy() {
    // per-iteration estimates with sd 500 around a constant: R >= 48 (500 / 10)^2 = 120,000
    // iterations before
    // the slope of the estimates could resolve the 10 nats of the tolerance, so they alone never
    // stop in 5,000;
    // the evaluations on the fixed sample (sd 10: the fit's own wander, no draw of rows) stop every
    // seed by 60
    // windows: over the last half of the run, r = t / 10 evaluations 5 iterations apart give the
    // change over R
    // the standard error 10 sqrt(12 / r), 2 nats at t = 3,000, where (|slope| + 2 se) R <= 10 holds
    // unless the
    // slope is 3 standard errors off (p = 0.003)
    for (long seed = 1; seed <= 20; seed++) {
      assertEquals(
          -1, firstConverged(SLOPE.start(ROWS), 5000, -1000, 0, 500, seed), "seed " + seed);
      BoundMonitor mon = SLOPE.start(ROWS);
      int at = firstConvergedEvaluated(mon, 5000, t -> -1000, 500, 10, seed);
      assertTrue(at >= 2 * SLOPE.window() && at <= 60 * SLOPE.window(), "seed " + seed + ": " + at);
      assertEquals(0, at % SLOPE.window(), "tests only at the end of a window");
      assertEquals(at / mon.evaluationPeriod(), mon.evaluations().length);
      assertFalse(mon.diverging());
    }
  }

  @Test
  void evaluationsOnAFixedSampleDoNotStopABoundThatStillRises() {
    // +0.05 nats per iteration (25 nats over R = 500, beyond the 10 of the tolerance once R > 200)
    // under
    // evaluation noise of sd 20 and estimate noise of sd 500: never stops in 5,000 iterations; and
    // a rise decaying
    // with a time constant of 300 iterations stops only where less than the tolerance is left to
    // gain over the
    // next R = t/2 iterations
    for (long seed = 1; seed <= 10; seed++) {
      BoundMonitor mon = SLOPE.start(ROWS);
      assertEquals(
          -1,
          firstConvergedEvaluated(mon, 5000, t -> -1000 + 0.05 * t, 500, 20, seed),
          "seed " + seed);
      assertTrue(mon.slope() - BoundMonitor.Z * mon.slopeStandardError() > 0, "seed " + seed);
      IntToDoubleFunction trend = t -> -1000 - 600 * Math.exp(-t / 300.0);
      int at = firstConvergedEvaluated(SLOPE.start(ROWS), 5000, trend, 500, 20, seed);
      assertTrue(at > 0, "seed " + seed + " never stopped");
      double ahead = trend.applyAsDouble(at + at / 2) - trend.applyAsDouble(at);
      assertTrue(
          ahead <= SLOPE.tolerance() * ROWS, "seed " + seed + ": stopped at " + at + ", " + ahead);
    }
  }

  @Test
  void anEvaluationIsTakenOnlyWhenDue() {
    BoundMonitor mon = SLOPE.start(ROWS);
    assertEquals(5, mon.evaluationPeriod());
    for (int t = 1; t <= 4; t++) {
      mon.add(-1);
      assertFalse(mon.evaluationDue());
    }
    assertThrows(IllegalStateException.class, () -> mon.addEvaluation(-1));
    mon.add(-1);
    assertTrue(mon.evaluationDue());
    mon.addEvaluation(-1);
    assertThrows(IllegalStateException.class, () -> mon.addEvaluation(-1));
    assertFalse(MEANS.start(ROWS).evaluationDue());
    int[] a = BoundMonitor.fixedSample(100, 10, 7);
    assertArrayEquals(a, BoundMonitor.fixedSample(100, 10, 7));
    assertEquals(
        10, java.util.Arrays.stream(a).distinct().filter(i -> i >= 0 && i < 100).count());
  }

  @Test
  void meansSettlesOnNoiseAroundAConstantAfterTheMinimumWindows() {
    for (long seed = 1; seed <= 5; seed++) {
      BoundMonitor mon = MEANS.start(ROWS);
      int at = firstConverged(mon, 1000, -1000, 0, 200, seed);
      assertTrue(
          at >= BoundMonitor.MIN_WINDOWS * 20 && at <= 300,
          "seed " + seed + ": converged at " + at);
      assertFalse(mon.diverging());
    }
  }

  @Test
  void meansDoesNotSettleOnASteadyRiseBeyondTheNoise() {
    // +3 per iteration: +180 over the 60 iterations compared, against 2 se(Δ) ≈ 2·√2·100/√20 ≈ 63
    // and 1 % of |L|
    BoundMonitor mon = MEANS.start(ROWS);
    assertTrue(firstConverged(mon, 1000, -5000, 3, 100, 7) < 0);
    assertFalse(mon.diverging());
  }

  @Test
  void meansFlagsASteadyFall() {
    BoundMonitor mon = MEANS.start(ROWS);
    assertTrue(firstConverged(mon, 400, -5000, -3, 100, 8) < 0);
    assertTrue(mon.diverging());
  }

  @Test
  void aWatchingMonitorTracesAndFlagsDivergenceButDecidesNothing() {
    for (BoundMonitor.Rule rule : new BoundMonitor.Rule[] {SLOPE, MEANS}) {
      BoundMonitor deciding = rule.start(ROWS);
      BoundMonitor watching = rule.watch(ROWS);
      assertTrue(deciding.decides());
      assertFalse(watching.decides());
      assertEquals(rule, watching.rule());
      ZigguratSampler.NormalizedGaussian g =
          ZigguratSampler.NormalizedGaussian.of(RandomSource.XO_RO_SHI_RO_128_PP.create(11));
      boolean converged = false;
      boolean due = false;
      boolean diverged = false;
      // noise around a constant (the deciding monitor converges), then a steady fall (both flag it)
      for (int t = 1; t <= 1600; t++) {
        double bound = (t <= 1000 ? -1000 : -1000 - 3.0 * (t - 1000)) + 20 * g.sample();
        deciding.add(bound);
        watching.add(bound);
        assertEquals(deciding.diverging(), watching.diverging(), rule.describe() + " at " + t);
        assertFalse(watching.converged(), rule.describe() + " at " + t);
        assertFalse(watching.evaluationDue(), rule.describe() + " at " + t);
        assertNull(watching.lastSlopeTest(), rule.describe() + " at " + t);
        assertThrows(IllegalStateException.class, () -> watching.addEvaluation(bound));
        converged |= deciding.converged();
        due |= deciding.evaluationDue();
        diverged |= watching.diverging();
      }
      assertArrayEquals(deciding.trace(), watching.trace());
      assertArrayEquals(new double[0], watching.evaluations());
      assertTrue(converged, rule.describe());
      assertTrue(diverged && watching.diverging(), rule.describe());
      assertEquals(rule.test() == BoundMonitor.Test.SLOPE, due, rule.describe());
      assertEquals(rule.test() == BoundMonitor.Test.SLOPE, deciding.takesEvaluations());
      assertFalse(watching.takesEvaluations());
      if (rule.test() == BoundMonitor.Test.SLOPE) {
        assertNotNull(deciding.lastSlopeTest());
        assertEquals(deciding.slope(), watching.slope());
        assertEquals(deciding.slopeStandardError(), watching.slopeStandardError());
      } else {
        assertEquals(deciding.gain(), watching.gain());
      }
    }
    assertTrue(BoundMonitor.of(Optional.of(MEANS), SLOPE, ROWS).decides());
    assertEquals(MEANS, BoundMonitor.of(Optional.of(MEANS), SLOPE, ROWS).rule());
    BoundMonitor none = BoundMonitor.of(Optional.empty(), SLOPE, ROWS);
    assertFalse(none.decides());
    assertEquals(SLOPE, none.rule());
  }

  @Test
  void theDefaultIsTheSlopeTest() {
    assertEquals(BoundMonitor.Test.SLOPE, BoundMonitor.Rule.DEFAULT.test());
    assertEquals(BoundMonitor.Rule.DEFAULT, BoundMonitor.Rule.defaults(BoundMonitor.Test.SLOPE));
    assertEquals(BoundMonitor.Rule.ADVI, BoundMonitor.Rule.defaults(BoundMonitor.Test.MEANS));
  }

  /**
   * The span sets how long a level stretch must last: a bound that rises by 1 nat per iteration (1,000 rows, so
   * 0.001 per row) until iteration 1,000 and is then level stops the half-span test once the level stretch fills
   * the second half of the run (about iteration 2,000) and the two-thirds test once it fills the last two thirds
   * (about 3,000); a level stretch from 1,000 to 2,600 followed by a further rise stops the first on the level and
   * not the second.
   */
  @Test
  void theSpanIsHowLongALevelStretchMustLastBeforeItStopsTheRun() {
    BoundMonitor.Rule half = SLOPE;
    BoundMonitor.Rule twoThirds = SLOPE.withSpan(2.0 / 3);
    assertEquals(BoundMonitor.DEFAULT_SPAN, half.span());
    IntToDoubleFunction levels = t -> Math.min(t, 1000);
    IntToDoubleFunction resumes = t -> t <= 1000 ? t : t <= 2600 ? 1000 : 1000 + (t - 2600);
    for (long seed = 1; seed <= 5; seed++) {
      int h = firstConverged(half.start(ROWS), 8000, levels, 1, seed);
      int tt = firstConverged(twoThirds.start(ROWS), 8000, levels, 1, seed);
      assertTrue(h >= 1800 && h <= 2200, "seed " + seed + ": half span stopped at " + h);
      assertTrue(tt >= 2700 && tt <= 3300, "seed " + seed + ": two-thirds span stopped at " + tt);
      int hr = firstConverged(half.start(ROWS), 8000, resumes, 1, seed);
      assertTrue(hr >= 1800 && hr <= 2600, "seed " + seed + ": half span stopped at " + hr);
      assertEquals(-1, firstConverged(twoThirds.start(ROWS), 8000, resumes, 1, seed));
    }
    assertEquals("slope (window 50, tolerance 0.01)", half.describe());
    assertTrue(twoThirds.describe().contains("span 0.666"), twoThirds.describe());
  }

  @Test
  void keepsTheTraceAndRejectsBadSettings() {
    BoundMonitor mon = new BoundMonitor.Rule(BoundMonitor.Test.MEANS, 2, 0.1).start(1);
    mon.add(1);
    mon.add(2);
    mon.add(3);
    assertArrayEquals(new double[] {1, 2, 3}, mon.trace());
    assertTrue(Double.isNaN(mon.gain()));
    BoundMonitor slope = SLOPE.start(ROWS);
    slope.add(1);
    assertTrue(Double.isNaN(slope.riseBound()));
    assertFalse(slope.converged());
    assertThrows(
        IllegalArgumentException.class,
        () -> new BoundMonitor.Rule(BoundMonitor.Test.SLOPE, 1, 0.01));
    assertThrows(
        IllegalArgumentException.class,
        () -> new BoundMonitor.Rule(BoundMonitor.Test.SLOPE, 20, 0));
    assertThrows(IllegalArgumentException.class, () -> new BoundMonitor.Rule(null, 20, 0.01));
    assertThrows(IllegalArgumentException.class, () -> SLOPE.withSpan(0));
    assertThrows(IllegalArgumentException.class, () -> SLOPE.withSpan(1));
    assertThrows(IllegalArgumentException.class, () -> SLOPE.start(0));
  }
}
