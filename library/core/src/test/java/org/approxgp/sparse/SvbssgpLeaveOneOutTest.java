package org.approxgp.sparse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.approxgp.data.RegressionData;
import org.approxgp.inference.PredictiveMoments;
import org.junit.jupiter.api.Test;

/**
 * sVBSSGP's leave-one-out density of the training rows ({@link SvbssgpPredictor#leaveOneOutMnlp}), which chooses
 * regress's default γ ({@link SparseRegression#leaveOneOutGamma}).
 */
class SvbssgpLeaveOneOutTest {

  /** A fitted model on 48 rows of a 1-d sine in 3 partitions of 16, 2m = 10. */
  private static Svbssgp fitted(RegressionData train, int[] labels) {
    SvbssgpOptions o = SvbssgpOptions.defaults().withM(5).withIterations(300).withSeed(4);
    return Svbssgp.fit(train, labels, o, IterationListener.NONE);
  }

  private static RegressionData sine(int n, long seed) {
    java.util.SplittableRandom rng = new java.util.SplittableRandom(seed);
    double[][] x = new double[n][1];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      x[i][0] = -3 + 6.0 * i / (n - 1);
      y[i] = Math.sin(2 * x[i][0]) + 0.2 * rng.nextGaussian();
    }
    return RegressionData.of(x, y);
  }

  /**
   * With the model's noise (no local noise to refit), the closed form equals the brute force to rounding: for every
   * row, the predictive at that row from its partition with the row taken out (the row moved to a partition of its
   * own), at each γ.
   */
  @Test
  void closedFormEqualsRefittingEachPartitionWithoutTheRow() {
    int n = 48;
    RegressionData train = sine(n, 7);
    int[] labels = new int[n];
    for (int i = 0; i < n; i++) {
      labels[i] = i * 3 / n; // contiguous thirds: local neighbourhoods
    }
    Svbssgp model = fitted(train, labels);
    RowBlocks parts = RowBlocks.of(labels, 3);
    double[] gammas = {0, 0.3, 0.7, 1};
    SparseRegression.PredictiveNoise noise = SparseRegression.PredictiveNoise.MODEL;
    double[] closed = model.leaveOneOutMnlp(gammas, 5, 11, noise);
    for (int c = 0; c < gammas.length; c++) {
      double sum = 0;
      for (int i = 0; i < n; i++) {
        int[] without = labels.clone();
        without[i] = 3; // alone in a fourth partition
        RowBlocks minus = RowBlocks.of(without, 4);
        RegressionData row =
            RegressionData.of(new double[][] {train.row(i)}, new double[] {train.y()[i]});
        PredictiveMoments p = SvbssgpPredictor.predict(
            model, train, minus, row, new int[] {labels[i]}, gammas[c], 5, 11, noise);
        sum += p.mnlp(row.y());
      }
      assertEquals(sum / n, closed[c], 1e-9 * Math.abs(sum / n), "γ = " + gammas[c]);
    }
    assertTrue(parts.count() == 3);
  }

  /**
   * The default γ is the grid's leave-one-out minimiser: on a smooth 1-d sine in contiguous partitions the local
   * conditional is the better predictor, and a γ that is set is kept.
   */
  @Test
  void defaultGammaIsTheLeaveOneOutMinimiser() {
    int n = 48;
    RegressionData train = sine(n, 7);
    int[] labels = new int[n];
    for (int i = 0; i < n; i++) {
      labels[i] = i * 3 / n;
    }
    Svbssgp model = fitted(train, labels);
    SparseRegression.Options d = SparseRegression.Options.defaults(SparseModel.SVBSSGP);
    double[] loo =
        model.leaveOneOutMnlp(SparseRegression.GAMMA_GRID, d.samples(), d.seed(), d.noise());
    double chosen = SparseRegression.leaveOneOutGamma(model, d);
    int at = java.util.Arrays.binarySearch(SparseRegression.GAMMA_GRID, chosen);
    assertTrue(at >= 0, "γ = " + chosen + " on the grid");
    for (double v : loo) {
      assertTrue(loo[at] <= v, java.util.Arrays.toString(loo));
    }
    SparseRegression.Options set = org.approxgp.model.Registry.regression(
        "svbssgp", org.approxgp.model.Settings.of("gamma", 0.25));
    assertEquals(0.25, SparseRegression.leaveOneOutGamma(model, set));
  }
}
