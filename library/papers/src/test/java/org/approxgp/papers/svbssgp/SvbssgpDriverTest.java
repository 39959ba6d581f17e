package org.approxgp.papers.svbssgp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.OptionalInt;
import org.approxgp.data.RegressionSet;
import org.approxgp.data.RegressionSplits;
import org.approxgp.inference.PredictiveMoments;
import org.approxgp.sparse.SparseModel;
import org.approxgp.sparse.SparseRegression;
import org.approxgp.sparse.Ssgp;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The shared driver on 600 rows of the committed diamonds data (log price). */
class SvbssgpDriverTest {
  private static RegressionSplits.Standardized data;
  private static double baseline;

  @BeforeAll
  static void load() {
    RegressionSet d = SvbssgpFigures.data("diamonds-600");
    data = RegressionSplits.standardize(
        d.data(), RegressionSplits.paper(d.size(), 0).get(0), true);
    // RMSE of predicting the training mean, in log-price units
    double[] y = data.test().y();
    double s = 0;
    for (double v : y) {
      s += Math.pow(data.mean(v) - data.yMean(), 2);
    }
    baseline = Math.sqrt(s / y.length);
  }

  private static SvbssgpDriver.Settings settings(String method, boolean leaky) {
    return new SvbssgpDriver.Settings(method, 10, 8, 20, 12, 0, 5, 4, 0, leaky, 0, 3);
  }

  @Test
  void everyMethodTracesFiniteMetrics() {
    for (String m : SvbssgpDriver.METHODS) {
      SvbssgpDriver.Trace t = SvbssgpDriver.run(data, settings(m, false));
      int[] expected = {4, 8, 12
      }; // every method is traced per iteration (SSGP, VSSGP by their snapshots)
      assertArrayEquals(expected, t.iterations(), m);
      for (int i = 0; i < expected.length; i++) {
        assertTrue(Double.isFinite(t.rmse()[i]) && Double.isFinite(t.mnlp()[i]), m);
        assertTrue(
            i == 0 || t.seconds()[i] >= t.seconds()[i - 1], m + ": seconds must not decrease");
      }
    }
  }

  /**
   * SSGP, VSSGP and PIC++ predict better than the training mean after 12 iterations here (sVBSSGP and DTC++
   * need more iterations on these 26 one-hot-heavy inputs; the notebook shows their traces).
   */
  @Test
  void ssgpVssgpAndPicBeatTheMean() {
    for (String m : java.util.List.of("ssgp", "vssgp", "pic")) {
      double r = SvbssgpDriver.run(data, settings(m, false)).finalRmse();
      assertTrue(r < baseline, m + ": RMSE " + r + " not below the mean's " + baseline);
    }
  }

  @Test
  void sameSettingsSameTrace() {
    SvbssgpDriver.Trace a = SvbssgpDriver.run(data, settings("svbssgp", false));
    SvbssgpDriver.Trace b = SvbssgpDriver.run(data, settings("svbssgp", false));
    assertArrayEquals(a.rmse(), b.rmse(), 0);
    assertArrayEquals(a.mnlp(), b.mnlp(), 0);
  }

  @Test
  void metricsAreInTheTargetsUnits() {
    // the driver's SSGP RMSE/MNLP equal those of the same fit mapped back by hand
    SvbssgpDriver.Trace t = SvbssgpDriver.run(data, settings("ssgp", false));
    Ssgp fit = Ssgp.fit(data.train(), Ssgp.Options.earlyStopped(5, 12, 3), null);
    PredictiveMoments p = fit.predict(data.test());
    double[] y = data.test().y();
    double se = 0;
    double nlp = 0;
    for (int j = 0; j < y.length; j++) {
      double e = data.mean(y[j]) - data.mean(p.mean()[j]);
      double v = data.variance(p.variance()[j]);
      se += e * e;
      nlp += 0.5 * (Math.log(2 * Math.PI * v) + e * e / v);
    }
    assertEquals(Math.sqrt(se / y.length), t.finalRmse(), 1e-12);
    assertEquals(nlp / y.length, t.finalMnlp(), 1e-10);
    assertNotEquals(
        1.0, data.yScale(), "the target must really be rescaled for this test to mean anything");
  }

  /**
   * traceBlocks &gt; 0: the trace is on every test row of that many k-means partitions (those PIC++ and sVBSSGP
   * build: the same labels give the trainer's partition sizes), the final metrics on every test row and equal to
   * the full-trace run's.
   */
  @Test
  void traceBlocksTraceSomePartitionsAndScoreEveryRow() {
    SvbssgpDriver.Settings all = settings("pic", false);
    SvbssgpDriver.Settings few =
        new SvbssgpDriver.Settings("pic", 10, 8, 20, 12, 0, 5, 4, 3, false, 0, 3);
    assertEquals(8, few.options().partitionsFor(data.train().n()));
    int[] label = SparseRegression.testPartitions(
        data.train(), data.test(), 8, 3, few.partitioning(data.test()));
    int[] rows = SvbssgpDriver.traceRows(data.train(), data.test(), few);
    java.util.Set<Integer> chosen = new java.util.TreeSet<>();
    for (int r : rows) {
      chosen.add(label[r]);
    }
    assertEquals(3, chosen.size(), "partitions traced");
    int members = 0;
    for (int c : label) {
      members += chosen.contains(c) ? 1 : 0;
    }
    assertEquals(members, rows.length, "every test row of the chosen partitions");
    assertTrue(rows.length < data.test().n());
    int[] trainLabel = SparseRegression.testPartitions(
        data.train(), data.train(), 8, 3, few.partitioning(data.test()));
    int[] sizes = new int[8];
    for (int c : trainLabel) {
      sizes[c]++;
    }
    try (var t =
        SparseRegression.start(data.train(), few.options(), few.partitioning(data.test()), null)) {
      assertArrayEquals(t.partitionSizes(), sizes, "the trainer's partitions");
    }

    // every method traces the same rows, those models without partitions too
    for (String m : SvbssgpDriver.METHODS) {
      SvbssgpDriver.Settings other =
          new SvbssgpDriver.Settings(m, 10, 8, 20, 12, 0, 5, 4, 3, false, 0, 3);
      assertArrayEquals(rows, SvbssgpDriver.traceRows(data.train(), data.test(), other), m);
    }
    SvbssgpDriver.Trace d = SvbssgpDriver.run(
        data, new SvbssgpDriver.Settings("dtc", 10, 8, 20, 12, 0, 5, 4, 3, false, 0, 3));
    assertEquals(rows.length, d.traceRows());
    SvbssgpDriver.Trace a = SvbssgpDriver.run(data, all);
    SvbssgpDriver.Trace b = SvbssgpDriver.run(data, few);
    assertEquals(data.test().n(), a.traceRows());
    assertEquals(rows.length, b.traceRows());
    assertEquals(a.finalRmse(), b.finalRmse(), 0);
    assertEquals(a.finalMnlp(), b.finalMnlp(), 0);
    assertEquals(a.rmse()[a.rmse().length - 1], a.finalRmse(), 1e-12);
    // the last trace point: the final model's RMSE on the traced rows, by hand
    PredictiveMoments p =
        SvbssgpDriver.fit(data.train(), data.test(), few, (i, o, q) -> {}).prediction();
    double se = 0;
    for (int r : rows) {
      double e = data.mean(data.test().y()[r]) - data.mean(p.mean()[r]);
      se += e * e;
    }
    assertEquals(Math.sqrt(se / rows.length), b.rmse()[b.rmse().length - 1], 1e-12);
    assertNotEquals(b.finalRmse(), b.rmse()[b.rmse().length - 1]);
  }

  @Test
  void leakyPartitionsDifferFromTrainInputPartitions() {
    int[] honest;
    int[] leaky;
    SvbssgpDriver.Settings h = settings("svbssgp", false);
    SvbssgpDriver.Settings l = settings("svbssgp", true);
    try (var t =
        SparseRegression.start(data.train(), h.options(), h.partitioning(data.test()), null)) {
      honest = t.partitionSizes();
    }
    try (var t =
        SparseRegression.start(data.train(), l.options(), l.partitioning(data.test()), null)) {
      leaky = t.partitionSizes();
    }
    assertEquals(8, honest.length);
    assertEquals(data.train().n(), Arrays.stream(honest).sum());
    assertEquals(data.train().n(), Arrays.stream(leaky).sum());
    assertFalse(
        Arrays.equals(honest, leaky), Arrays.toString(honest) + " " + Arrays.toString(leaky));
  }

  /**
   * The paper's SSGP and VSSGP are the methods it compares, with their own learned frequencies: not the held-out
   * choice of {@code approxgp regress}'s defaults.
   */
  @Test
  void ssgpAndVssgpKeepTheirLearnedFrequencies() {
    for (String m : java.util.List.of("ssgp", "vssgp")) {
      assertEquals(
          SparseRegression.Frequencies.LEARNED, settings(m, false).options().frequencies(), m);
    }
  }

  /**
   * The paper runs step sVBSSGP by the library's schedule and Adam rate, which the shipped stores were computed
   * with, whatever {@code approxgp regress}'s default (a more slowly decaying step, {@link
   * SparseRegression.SvbssgpSteps#NATURAL_STEP}).
   */
  @Test
  void svbssgpKeepsTheLibrarysStepSchedule() {
    SparseRegression.SvbssgpSteps steps = settings("svbssgp", false).options().steps();
    assertEquals(org.approxgp.sparse.SvbssgpOptions.DEFAULT_NATURAL_STEP, steps.natural());
    assertEquals(
        org.approxgp.sparse.SvbssgpOptions.defaults().learningRate(), steps.learningRate());
    assertEquals(0.6, steps.natural().kappa());
    org.junit.jupiter.api.Assertions.assertNotEquals(
        SparseRegression.SvbssgpSteps.NATURAL_STEP,
        steps.natural(),
        "regress's default differs from the paper runs', so this test can tell them apart");
  }

  @Test
  void rejectsBadSettings() {
    assertThrows(IllegalArgumentException.class, () -> settings("gp", false));
    assertThrows(
        IllegalArgumentException.class,
        () -> new SvbssgpDriver.Settings("svbssgp", 7, 8, 20, 12, 0, 5, 4, 0, false, 0, 3));
    assertThrows(
        IllegalArgumentException.class,
        () -> new SvbssgpDriver.Settings("svbssgp", 10, 8, 20, 12, 0, 5, 4, 9, false, 0, 3));
    assertThrows(
        IllegalArgumentException.class,
        () -> new SvbssgpDriver.Settings("svbssgp", 10, 8, 20, 12, 0, 5, 4, -1, false, 0, 3));
    assertThrows(
        IllegalArgumentException.class,
        () -> SvbssgpDriver.run(
            data, new SvbssgpDriver.Settings("pic", 10, 1000, 20, 12, 0, 5, 4, 0, false, 0, 3)));
  }

  /**
   * The defaults: up to 200,000 rows min(200, n/50) partitions (at least 1), read whole while they average at
   * most 50 rows; beyond, partitions of about 1,000 rows (p grows with n) and 50 rows read per
   * drawn partition, so a step reads the same number of rows at 1e5 and at 3e6 rows.
   */
  @Test
  void partitionCountGrowsWithNAtFixedSize() {
    int[] small = {2, 199, 200, 442, 3999, 10_000, 19_999, 20_000, 100_000, 200_000};
    int[] partitions = {1, 3, 4, 8, 79, 200, 200, 200, 200, 200};
    for (int k = 0; k < small.length; k++) {
      assertEquals(partitions[k], SparseRegression.defaultPartitions(small[k]), "n = " + small[k]);
      assertEquals(
          partitions[k],
          SparseRegression.defaultPartitions(SparseModel.SVBSSGP, small[k]),
          "n = " + small[k]);
      assertEquals(
          Math.max(1, Math.min(200, small[k] / 20)),
          SparseRegression.defaultPartitions(SparseModel.PIC, small[k]),
          "pic, n = " + small[k]);
    }
    assertEquals(
        OptionalInt.empty(),
        SparseRegression.defaultSvbssgpMinibatch(40, SparseRegression.defaultPartitions(40)));
    assertEquals(
        OptionalInt.empty(),
        SparseRegression.defaultSvbssgpMinibatch(
            10_000, SparseRegression.defaultPartitions(10_000)));
    assertEquals(
        OptionalInt.of(50),
        SparseRegression.defaultSvbssgpMinibatch(
            10_001, SparseRegression.defaultPartitions(10_001)));
    int[] big = {200_001, 1_000_000, 2_000_000, 3_000_000};
    int[] want = {201, 1000, 2000, 3000};
    for (int k = 0; k < big.length; k++) {
      int p = SparseRegression.defaultPartitions(big[k]);
      assertEquals(want[k], p, "n = " + big[k]);
      assertTrue((double) big[k] / p <= SparseRegression.PARTITION_ROWS, "n = " + big[k]);
      assertEquals(OptionalInt.of(50), SparseRegression.defaultSvbssgpMinibatch(big[k], p));
    }
    assertEquals(
        OptionalInt.of(50),
        SparseRegression.defaultSvbssgpMinibatch(
            100_000, SparseRegression.defaultPartitions(100_000)));
  }
}
