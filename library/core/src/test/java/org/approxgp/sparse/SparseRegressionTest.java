package org.approxgp.sparse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.OptionalInt;
import org.approxgp.data.RegressionData;
import org.approxgp.inference.PredictiveMoments;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The family's one shape ({@link SparseRegression#start}): every model sets up, steps until its rule or cap, says
 * why it stopped, and predicts; SSGP and VSSGP, stepped through a paused worker, give exactly what their one-call fits
 * give; an abandoned fit releases its worker.
 */
class SparseRegressionTest {
  private static final RegressionData TRAIN = DenseGp.synthetic(300, 0.1, 5);
  private static final RegressionData TEST = DenseGp.synthetic(40, 0.1, 6);

  private static SparseRegression.Options options(String model, int iterations) {
    return options(
        model,
        iterations,
        SparseRegression.Options.defaults(SparseModel.of(model)).frequencies());
  }

  private static SparseRegression.Options options(
      String model, int iterations, SparseRegression.Frequencies frequencies) {
    return options(
        model,
        iterations,
        frequencies,
        SparseRegression.Options.defaults(SparseModel.of(model)).extrapolation());
  }

  private static SparseRegression.Options options(
      String model,
      int iterations,
      SparseRegression.Frequencies frequencies,
      SparseRegression.Extrapolation extrapolation) {
    SparseRegression.Options d = SparseRegression.Options.defaults(SparseModel.of(model));
    return new SparseRegression.Options(
        SparseModel.of(model),
        OptionalInt.of(12),
        OptionalInt.of(6),
        OptionalInt.of(20),
        OptionalInt.of(iterations),
        OptionalInt.empty(),
        d.gamma(),
        d.samples(),
        d.noise(),
        3,
        frequencies,
        d.steps(),
        d.stopping(),
        extrapolation,
        d.start(),
        d.frequencyVariance());
  }

  @ParameterizedTest
  @ValueSource(strings = {"svbssgp", "dtc", "pic", "ssgp", "vssgp"})
  void everyModelStepsToAVerdictAndPredicts(String model) {
    try (SparseRegression.Trainer t = SparseRegression.start(
        TRAIN, options(model, 25), SparseRegression.Partitioning.honest(), null)) {
      assertEquals(0, t.iteration());
      // set-up apart where it is separable; SSGP and VSSGP initialise inside their optimiser
      boolean separable = !model.equals("ssgp") && !model.equals("vssgp");
      assertEquals(separable, t.setupSeconds() >= 0, model + " " + t.setupSeconds());
      assertEquals(!separable, Double.isNaN(t.setupSeconds()), model);
      int steps = 0;
      while (t.step()) {
        steps++;
        assertEquals(steps, t.iteration(), "one iteration per step");
        assertTrue(Double.isFinite(t.objective()) || Double.isNaN(t.objective()));
      }
      assertFalse(t.step(), "a stopped trainer stays stopped");
      assertTrue(t.iteration() >= 1 && t.iteration() <= 25, model + ": " + t.iteration());
      SparseRegression.Fit f = t.snapshot();
      PredictiveMoments p = f.predict(TEST);
      assertEquals(TEST.n(), p.mean().length);
      for (int i = 0; i < TEST.n(); i++) {
        assertTrue(Double.isFinite(p.mean()[i]) && p.variance()[i] > 0, model + " row " + i);
      }
      assertNotEquals(BoundMonitor.StopReason.NOT_STOPPED, f.outcome().stopReason(), model);
      assertEquals(2, f.outcome().lengthscales().length);
      assertTrue(f.outcome().noiseVariance() > 0 && f.outcome().signalVariance() > 0);
      assertEquals(
          model.equals("svbssgp") || model.equals("pic") ? 6 : 0, t.partitionSizes().length);
      assertEquals(model.equals("svbssgp"), f.svbssgp() != null);
    }
  }

  /**
   * Stepping SSGP and VSSGP through the paused worker changes nothing: the same model as the one-call fit, with
   * the learned frequencies and with the held-out choice.
   */
  @ParameterizedTest
  @ValueSource(strings = {"LEARNED", "HELD_OUT"})
  void steppedFitsEqualTheirOneCallFits(String which) {
    SparseRegression.Frequencies fr = SparseRegression.Frequencies.valueOf(which);
    boolean held = fr == SparseRegression.Frequencies.HELD_OUT;
    Ssgp direct = Ssgp.fit(
        TRAIN, Ssgp.Options.earlyStopped(6, 40, 3).withFixedFallback(held), IterationListener.NONE);
    Vssgp.Options vo = Vssgp.Options.of(6, 40, TRAIN.n(), 3)
        .withInitialFrequencyVariance(SparseRegression.VSSGP_FREQUENCY_VARIANCE);
    PredictiveMoments vDirect;
    int vIterations;
    if (held) {
      VssgpChoice.Chosen c = VssgpChoice.fit(TRAIN, vo, IterationListener.NONE, null);
      vDirect = c.predict(TEST);
      vIterations = c.iterations();
    } else {
      Vssgp f = Vssgp.fit(TRAIN, vo, IterationListener.NONE);
      vDirect = f.predict(TEST);
      vIterations = f.iterations();
    }
    // at the test rows as given (some lie just outside the training rows' range), as the one-call
    // fits predict
    SparseRegression.Extrapolation free = SparseRegression.Extrapolation.FREE;
    try (SparseRegression.Trainer s = SparseRegression.start(
            TRAIN, options("ssgp", 40, fr, free), SparseRegression.Partitioning.honest(), null);
        SparseRegression.Trainer v = SparseRegression.start(
            TRAIN, options("vssgp", 40, fr, free), SparseRegression.Partitioning.honest(), null)) {
      PredictiveMoments first = null;
      while (s.step()) {
        if (s.iteration() == 1) {
          first = s.snapshot().predict(TEST); // the paused iterate's model
        }
      }
      while (v.step()) {
        // to the end
      }
      assertEquals(direct.iterations(), s.iteration());
      assertArrayEquals(direct.predict(TEST).mean(), s.snapshot().predict(TEST).mean(), 0.0);
      assertArrayEquals(
          direct.predict(TEST).variance(), s.snapshot().predict(TEST).variance(), 0.0);
      assertArrayEquals(vDirect.mean(), v.snapshot().predict(TEST).mean(), 0.0);
      assertArrayEquals(vDirect.variance(), v.snapshot().predict(TEST).variance(), 0.0);
      assertEquals(vIterations, v.iteration());
      assertFalse(
          java.util.Arrays.equals(first.mean(), s.snapshot().predict(TEST).mean()),
          "the first iterate's model is not the final one");
    }
  }

  /**
   * SSGP, VSSGP and sVBSSGP at a row outside the training range: under {@code CLAMP} exactly what they predict at that row held
   * at the range's edge; under the default {@code REVERT} that prediction carried to the row by the model's own SE
   * prior ({@link TrainingRange#revert} with the fit's hyperparameters); under {@code FREE} at the row as given. Inside
   * the range all three predict the same.
   */
  @ParameterizedTest
  @ValueSource(strings = {"ssgp", "vssgp", "svbssgp"})
  void spectralModelsPredictOutsideTheTrainingRangeFromItsEdge(String model) {
    assertEquals(
        model.equals("svbssgp")
            ? SparseRegression.Extrapolation.FREE
            : SparseRegression.Extrapolation.REVERT,
        SparseRegression.Options.defaults(SparseModel.of(model)).extrapolation());
    TrainingRange range = TrainingRange.of(TRAIN);
    double[][] outside = {{6, 0.5}, {-7, 2}, {0.3, 9}, {3.5, -3.4}};
    double[][] inside = {{0.1, -0.2}, {1.5, 2.5}};
    double[][] rows = new double[outside.length + inside.length][];
    System.arraycopy(outside, 0, rows, 0, outside.length);
    System.arraycopy(inside, 0, rows, outside.length, inside.length);
    RegressionData test = RegressionData.of(rows, null);
    RegressionData atEdge = range.clamp(test);
    assertEquals(outside.length, range.rowsOutside(test));
    assertEquals(0, range.rowsOutside(atEdge));
    SparseRegression.Frequencies fr = SparseRegression.Frequencies.LEARNED;
    SparseRegression.Extrapolation[] rules = SparseRegression.Extrapolation.values();
    PredictiveMoments[] p = new PredictiveMoments[rules.length];
    PredictiveMoments edge = null;
    SparseRegression.Outcome fitted = null;
    for (int k = 0; k < rules.length; k++) {
      try (SparseRegression.Trainer t = SparseRegression.start(
          TRAIN, options(model, 40, fr, rules[k]), SparseRegression.Partitioning.honest(), null)) {
        while (t.step()) {
          // to the end
        }
        p[k] = t.snapshot().predict(test);
        if (rules[k] == SparseRegression.Extrapolation.FREE) {
          edge = t.snapshot().predict(atEdge);
          fitted = t.snapshot().outcome();
        }
      }
    }
    PredictiveMoments revert = p[SparseRegression.Extrapolation.REVERT.ordinal()];
    PredictiveMoments clamp = p[SparseRegression.Extrapolation.CLAMP.ordinal()];
    PredictiveMoments free = p[SparseRegression.Extrapolation.FREE.ordinal()];
    assertArrayEquals(edge.mean(), clamp.mean(), 0.0);
    assertArrayEquals(edge.variance(), clamp.variance(), 0.0);
    double[] ell = fitted.lengthscales();
    for (int i = 0; i < rows.length; i++) {
      if (i < outside.length) {
        assertNotEquals(free.mean()[i], clamp.mean()[i], model + " row " + i);
        double q = 0;
        for (int j = 0; j < 2; j++) {
          double delta = rows[i][j] - atEdge.x(i, j);
          q += delta * delta / (ell[j] * ell[j]);
        }
        double rho = Math.exp(-0.5 * q);
        double sn2 = fitted.noiseVariance();
        assertEquals(rho * edge.mean()[i], revert.mean()[i], 1e-12, model + " row " + i);
        assertEquals(
            // sVBSSGP's local noise (PredictiveNoise.LOCAL) can be below σₙ²: the latent part is
            // kept ≥ 0
            rho * rho * Math.max(edge.variance()[i] - sn2, 0)
                + fitted.signalVariance() * (1 - rho * rho)
                + sn2,
            revert.variance()[i],
            1e-12,
            model + " row " + i);
      } else {
        for (PredictiveMoments other : new PredictiveMoments[] {revert, clamp}) {
          assertEquals(free.mean()[i], other.mean()[i], 0.0, model + " row " + i);
          assertEquals(free.variance()[i], other.variance()[i], 0.0, model + " row " + i);
        }
      }
    }
  }

  /**
   * SSGP's default 2m grows as √n ln n from the paper's 40 (up to 82 rows) until n·(2m)² reaches SSGP's work
   * budget, then falls back towards 40; sVBSSGP keeps 40, and a 2m that is set is kept.
   */
  @Test
  void ssgpsDefaultFeaturesGrowWithTheRowsWithinTheWorkBudget() {
    SparseRegression.Options d = SparseRegression.Options.defaults(SparseModel.SSGP);
    assertTrue(d.features().isEmpty());
    assertEquals(40, d.featuresFor(60));
    assertEquals(40, d.featuresFor(82), "√82 ln 82 = 39.9");
    assertEquals(42, d.featuresFor(83), "√83 ln 83 = 40.3");
    assertEquals(92, d.featuresFor(267), "penguins' training rows: 91.3");
    assertEquals(102, d.featuresFor(314), "cars': 101.9");
    assertEquals(340, d.featuresFor(2000), "diamonds': 339.9, within the budget (590)");
    assertEquals(
        428, d.featuresFor(3791), "college's: √(7e8 / 3,791) = 429.7 below √n ln n = 507.4");
    assertEquals(402, d.featuresFor(4307), "volcano's: √(7e8 / 4,307) = 403.1");
    assertEquals(374, d.featuresFor(5000));
    assertEquals(264, d.featuresFor(10_000));
    assertEquals(40, d.featuresFor(437_500), "the budget's 40");
    assertEquals(40, d.featuresFor(3_000_000), "never below the paper's 40");
    for (int n = 1; n <= 500_000; n += 97) {
      int k = d.featuresFor(n);
      assertTrue(k % 2 == 0 && k >= 40, "2m = " + k + " at n = " + n);
      assertTrue(k == 40 || (double) n * k * k <= SparseRegression.SSGP_WORK, "n = " + n);
      assertTrue(k == 40 || k <= Math.sqrt(n) * Math.log(n) + 2, "n = " + n);
    }
    assertEquals(
        40,
        SparseRegression.Options.defaults(SparseModel.SVBSSGP).featuresFor(5000),
        "sVBSSGP keeps the paper's 2m");
    assertEquals(12, options("ssgp", 5).featuresFor(5000), "a 2m that is set is kept");
  }

  /**
   * VSSGP's 2m is SSGP's ({@link SparseRegression#defaultFeatures}), and its default fit runs full batch at it up to
   * the budget n·(2m)² ≤ SSGP_WORK (437,500 rows at 2m = 40), by minibatches beyond.
   */
  @Test
  void vssgpTakesSsgpsFeaturesAndFitsThemFullBatch() {
    SparseRegression.Options d = SparseRegression.Options.defaults(SparseModel.VSSGP);
    assertTrue(d.features().isEmpty());
    assertEquals(40, d.featuresFor(60));
    assertEquals(402, d.featuresFor(4307), "volcano's 4,307 rows: SSGP's 402");
    assertEquals(374, d.featuresFor(5000));
    for (int n = 1; n <= 600_000; n += 997) {
      int k = d.featuresFor(n);
      assertEquals(SparseRegression.defaultFeatures(SparseModel.SSGP, n), k, "n = " + n);
      assertEquals(
          (double) n * k * k <= SparseRegression.SSGP_WORK, d.fullBatchFor(n, 6), "n = " + n);
      assertEquals(n < 437_500, d.fullBatchFor(n, 6), "n = " + n);
    }
    assertEquals(
        SparseRegression.VSSGP_FREQUENCY_VARIANCE, d.frequencyVarianceOrDefault(), "regress's s₀");
    assertEquals(12, options("vssgp", 5).featuresFor(5000), "a 2m that is set is kept");
  }

  /**
   * A model is checked only against its own sizes: SSGP on fewer rows than PIC++'s default M = 250 runs, DTC++ and
   * PIC++ at their defaults take M = n there, and an M that is set beyond n is refused.
   */
  @Test
  void eachModelIsCheckedAgainstItsOwnSizes() {
    RegressionData few = DenseGp.synthetic(60, 0.1, 8);
    try (SparseRegression.Trainer t = SparseRegression.start(
        few,
        SparseRegression.Options.defaults(SparseModel.SSGP),
        SparseRegression.Partitioning.honest(),
        null)) {
      assertTrue(t.step());
    }
    for (SparseModel m : List.of(SparseModel.DTC, SparseModel.PIC)) {
      assertEquals(60, SparseRegression.Options.defaults(m).inducingFor(60, 1), m.toString());
    }
    try (SparseRegression.Trainer t = SparseRegression.start(
        few,
        SparseRegression.Options.defaults(SparseModel.DTC),
        SparseRegression.Partitioning.honest(),
        null)) {
      assertTrue(t.step());
    }
    SparseRegression.Options d = SparseRegression.Options.defaults(SparseModel.DTC);
    SparseRegression.Options set = new SparseRegression.Options(
        d.model(),
        d.features(),
        d.partitions(),
        OptionalInt.of(250),
        d.iterations(),
        d.minibatch(),
        d.gamma(),
        d.samples(),
        d.noise(),
        d.seed(),
        d.frequencies(),
        d.steps(),
        d.stopping(),
        d.extrapolation(),
        d.start(),
        d.frequencyVariance());
    IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class,
        () -> SparseRegression.start(few, set, SparseRegression.Partitioning.honest(), null));
    assertTrue(
        e.getMessage().contains("M = 250 inducing inputs exceed the 60 training rows"),
        e.getMessage());
  }

  /**
   * DTC++'s default M is the largest from 250 on whose full-batch evaluation, (d + 2)(nM² + M³) multiply-adds, stays
   * within {@link SparseRegression#DTC_WORK}, at most n; such a fit runs in full batch, and from about 23,000 rows
   * of six inputs on M is 250 and the fit stochastic. PIC++ keeps 250.
   */
  @Test
  void dtcDefaultInducingFillsItsFullBatchBudget() {
    SparseRegression.Options d = SparseRegression.Options.defaults(SparseModel.DTC);
    assertTrue(d.inducing().isEmpty());
    assertEquals(521, d.inducingFor(5000, 6), "txhousing's training rows");
    assertEquals(768, d.inducingFor(4307, 2), "volcano's");
    assertEquals(420, d.inducingFor(2000, 26), "diamonds'");
    assertEquals(1000, d.inducingFor(1000, 2), "at most n");
    assertEquals(272, d.inducingFor(20_000, 6));
    assertEquals(250, d.inducingFor(3_000_000, 6), "never below 250");
    double budget = SparseRegression.DTC_WORK;
    for (int dims : new int[] {1, 2, 6, 14, 26}) {
      for (int n = 1; n <= 100_000; n += 173) {
        int m = d.inducingFor(n, dims);
        assertTrue(m >= 1 && m <= n, "M = " + m + " at n = " + n);
        assertTrue(
            m == Math.min(n, 250) || SparseRegression.inducingWork(n, dims, m) <= budget,
            "n = " + n);
        assertTrue(
            m == n || m == 250 || SparseRegression.inducingWork(n, dims, m + 1) > budget,
            "the largest, n = " + n);
        assertEquals(
            SparseRegression.inducingWork(n, dims, m) <= budget,
            d.fullBatchFor(n, dims),
            "n = " + n);
      }
    }
    assertTrue(d.fullBatchFor(23_000, 6));
    assertFalse(d.fullBatchFor(24_000, 6));
    assertEquals(1000, d.iterationsFor(5000, 6), "full batch: L-BFGS's cap");
    assertEquals(5000, d.iterationsFor(24_000, 6), "stochastic");
    SparseRegression.Options pic = SparseRegression.Options.defaults(SparseModel.PIC);
    assertEquals(250, pic.inducingFor(5000, 6));
    assertEquals(250, pic.inducingFor(3_000_000, 6));
    assertTrue(pic.fullBatchFor(5000, 6), "PIC++: (d + 2)(nM² + M³) <= 4.5e9");
    assertTrue(pic.fullBatchFor(4307, 2), "volcano");
    assertTrue(pic.fullBatchFor(3791, 14), "college");
    assertTrue(pic.fullBatchFor(2000, 26), "diamonds");
    assertFalse(pic.fullBatchFor(9000, 6));
    assertTrue(pic.fullBatchFor(2300, 26));
    assertFalse(pic.fullBatchFor(2400, 26));
    for (int dims : new int[] {1, 2, 6, 14, 26}) {
      for (int n = 250; n <= 40_000; n += 137) {
        assertEquals(
            SparseRegression.inducingWork(n, dims, 250) <= SparseRegression.PIC_WORK,
            pic.fullBatchFor(n, dims),
            "n = " + n + ", d = " + dims);
      }
    }
    SparseRegression.Options svb = SparseRegression.Options.defaults(SparseModel.SVBSSGP);
    assertEquals(150_000, svb.iterationsFor(4307, 2), "sVBSSGP's cap on two inputs");
    assertEquals(150_000, svb.iterationsFor(3_000_000, 1), "at most SVBSSGP_ITERATIONS");
    assertEquals(120_000, svb.iterationsFor(3_000_000, 3), "the same at any n");
    assertEquals(54_545, svb.iterationsFor(300, 9));
    assertEquals(21_428, svb.iterationsFor(2000, 26));
    assertEquals(150_000, SparseRegression.SVBSSGP_ITERATIONS);
    SparseRegression.Options capped = new SparseRegression.Options(
        svb.model(),
        svb.features(),
        svb.partitions(),
        svb.inducing(),
        OptionalInt.of(1234),
        svb.minibatch(),
        svb.gamma(),
        svb.samples(),
        svb.noise(),
        svb.seed(),
        svb.frequencies(),
        svb.steps(),
        svb.stopping(),
        svb.extrapolation(),
        svb.start(),
        svb.frequencyVariance());
    assertEquals(1234, capped.iterationsFor(4307, 2), "a set cap wins");
    assertEquals(new StepSchedule(0.5, 0.05, 0.4), svb.steps().natural(), "regress's step");
  }

  @Test
  void anAbandonedFitReleasesItsWorker() throws InterruptedException {
    SparseRegression.Trainer t = SparseRegression.start(
        TRAIN, options("ssgp", 200), SparseRegression.Partitioning.honest(), null);
    assertTrue(t.step() && t.step());
    assertTrue(workers() >= 1, "the paused fit runs on its worker");
    t.close();
    t.close(); // idempotent
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (workers() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertEquals(0, workers(), "the worker ended");
  }

  private static long workers() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(th -> th.getName().equals("sparse-fit") && th.isAlive())
        .count();
  }

  /**
   * DTC++'s median-heuristic start ({@code FamilyTrainers.medianKernel}): ℓⱼ = sⱼ·r with one r for every input, so an
   * input scaled by 1,000 starts 1,000 times as long and a constant input adds nothing to r; r, the median distance
   * between rows in standard deviations, is near its population value on two independent uniform inputs (1.7739 by
   * 2·10⁷ Monte Carlo pairs with numpy; the spread of r over seeds at 2,000 pairs and 4,000 rows is 0.028, so
   * the tolerance 0.15 is five of those).
   */
  @Test
  void medianHeuristicStartScalesWithEachInput() {
    java.util.SplittableRandom rng = new java.util.SplittableRandom(11);
    int n = 4000;
    double[][] rows = new double[n][];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      rows[i] = new double[] {rng.nextDouble(), 1000 * rng.nextDouble(), 3.0};
    }
    double[] ell = FamilyTrainers.medianKernel(RegressionData.of(rows, y), 5).lengthscales();
    double[] sd = new double[3];
    for (int j = 0; j < 2; j++) {
      double mean = 0;
      for (double[] r : rows) {
        mean += r[j] / n;
      }
      for (double[] r : rows) {
        sd[j] += (r[j] - mean) * (r[j] - mean) / (n - 1);
      }
      sd[j] = Math.sqrt(sd[j]);
    }
    double r = ell[0] / sd[0];
    assertEquals(r, ell[1] / sd[1], 1e-12 * r, "one r for every input");
    assertEquals(r, ell[2], 1e-12 * r, "a constant input keeps the standard deviation 1");
    assertEquals(1.7739, r, 0.15, "median distance in standard deviations");
    assertArrayEquals(
        ell, FamilyTrainers.medianKernel(RegressionData.of(rows, y), 5).lengthscales(), "seeded");
  }
}
