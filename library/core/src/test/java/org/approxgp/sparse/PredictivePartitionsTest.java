package org.approxgp.sparse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalInt;
import java.util.SplittableRandom;
import org.approxgp.data.RegressionData;
import org.approxgp.inference.PredictiveMoments;
import org.junit.jupiter.api.Test;

/**
 * sVBSSGP's local predictive reads the partitions held-out rows choose ({@code FamilyTrainers.predictivePartitions},
 * {@link SparseRegression#PREDICTIVE_PARTITION_ROWS}), unless the partitions are set.
 */
class PredictivePartitionsTest {

  /**
   * A chirp, y = sin(40x²) + noise on x ∈ [0, 1]: its frequency grows along x, so one set of 2m = 8 shared
   * basis functions fits it only locally, and smaller partitions predict it better.
   */
  private static RegressionData chirp(int n, long seed) {
    SplittableRandom rng = new SplittableRandom(seed);
    double[][] x = new double[n][1];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      x[i][0] = rng.nextDouble();
      y[i] = Math.sin(40 * x[i][0] * x[i][0]) + 0.05 * rng.nextGaussian();
    }
    return RegressionData.of(x, y);
  }

  private static SparseRegression.Options options(OptionalInt partitions) {
    SparseRegression.Options d = SparseRegression.Options.defaults(SparseModel.SVBSSGP);
    return new SparseRegression.Options(
        SparseModel.SVBSSGP,
        OptionalInt.of(8),
        partitions,
        d.inducing(),
        OptionalInt.of(400),
        d.minibatch(),
        d.gamma(),
        d.samples(),
        d.noise(),
        5,
        d.frequencies(),
        d.steps(),
        d.stopping(),
        d.extrapolation(),
        d.start());
  }

  private static SparseRegression.Fit fit(RegressionData train, SparseRegression.Options o) {
    try (SparseRegression.Trainer t =
        SparseRegression.start(train, o, SparseRegression.Partitioning.honest(), null)) {
      while (t.step()) {
        // to the verdict
      }
      return t.snapshot();
    }
  }

  /**
   * The choice is the candidate with the lower held-out MNLP, each held-out row predicted from the partitions of the
   * other rows (recomputed here from the split and k-means the rule names); on the chirp that is the smaller
   * partitions, and the fit then predicts test rows from partitions of that size on all training rows.
   */
  @Test
  void heldOutRowsChooseThePartitionsThePredictiveReads() {
    RegressionData train = chirp(1000, 1);
    RegressionData test = chirp(300, 2);
    SparseRegression.Options o = options(OptionalInt.empty());
    assertEquals(10, o.partitionsFor(train.n()), "the fit's partitions: 100 rows each");
    SparseRegression.Fit f = fit(train, o);
    Svbssgp model = f.svbssgp();
    FixedFrequencies.Split split =
        FixedFrequencies.split(train, Ssgp.Options.DEFAULT_HOLDOUT, o.seed());
    double[] score = new double[SparseRegression.PREDICTIVE_PARTITION_ROWS.length];
    for (int c = 0; c < score.length; c++) {
      int q = SparseRegression.defaultPartitions(
          split.fit().n(), SparseRegression.PREDICTIVE_PARTITION_ROWS[c]);
      FamilyTrainers.Partitions pq = FamilyTrainers.partitions(
          split.fit(), q, o.seed(), SparseRegression.Partitioning.honest());
      score[c] = SvbssgpPredictor.predict(
              model,
              split.fit(),
              RowBlocks.of(pq.labels(), q),
              split.held(),
              pq.assign(split.held()),
              o.gamma(),
              o.samples(),
              o.seed(),
              o.noise())
          .mnlp(split.held().y());
    }
    assertTrue(
        score[1] < score[0] - 0.05,
        "partitions of 50 rows predict the chirp's held-out rows better: " + score[0] + " vs "
            + score[1]);
    assertEquals(20, f.predictivePartitions().getAsInt(), "1,000 rows at 50 a partition");
    FamilyTrainers.Partitions all =
        FamilyTrainers.partitions(train, 20, o.seed(), SparseRegression.Partitioning.honest());
    PredictiveMoments want = SvbssgpPredictor.predict(
        model,
        train,
        RowBlocks.of(all.labels(), 20),
        test,
        all.assign(test),
        o.gamma(),
        o.samples(),
        o.seed(),
        o.noise());
    PredictiveMoments got = f.predict(test);
    assertArrayEquals(want.mean(), got.mean(), 0.0);
    assertArrayEquals(want.variance(), got.variance(), 0.0);
    PredictiveMoments training = model.predict(
        test,
        FamilyTrainers.partitions(train, 10, o.seed(), SparseRegression.Partitioning.honest())
            .assign(test),
        o.gamma(),
        o.samples(),
        o.seed(),
        o.noise());
    assertTrue(
        got.mnlp(test.y()) < training.mnlp(test.y()),
        "and the test rows agree: " + got.mnlp(test.y()) + " vs " + training.mnlp(test.y()));
  }

  /** Partitions that are set serve the fit and the predictive alike: no choice is made. */
  @Test
  void setPartitionsServeThePredictiveToo() {
    RegressionData train = chirp(600, 3);
    SparseRegression.Fit f = fit(train, options(OptionalInt.of(4)));
    assertEquals(4, f.predictivePartitions().getAsInt());
    SparseRegression.Fit g = fit(train, options(OptionalInt.of(12)));
    assertEquals(12, g.predictivePartitions().getAsInt());
  }
}
