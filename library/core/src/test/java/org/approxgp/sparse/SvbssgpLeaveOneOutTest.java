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

  private static final int N = 48;

  /** 48 rows of a noisy 1-d sine in contiguous thirds (local neighbourhoods), and sVBSSGP fitted on them, 2m = 10. */
  private record Thirds(RegressionData train, int[] labels, Svbssgp model) {
    static Thirds fitted() {
      java.util.SplittableRandom rng = new java.util.SplittableRandom(7);
      double[][] x = new double[N][1];
      double[] y = new double[N];
      int[] labels = new int[N];
      for (int i = 0; i < N; i++) {
        x[i][0] = -3 + 6.0 * i / (N - 1);
        y[i] = Math.sin(2 * x[i][0]) + 0.2 * rng.nextGaussian();
        labels[i] = i * 3 / N;
      }
      RegressionData train = RegressionData.of(x, y);
      SvbssgpOptions o = SvbssgpOptions.defaults().withM(5).withIterations(300).withSeed(4);
      return new Thirds(train, labels, Svbssgp.fit(train, labels, o, IterationListener.NONE));
    }
  }

  /**
   * With the model's noise (no local noise to refit), the closed form equals the brute force to rounding: for every
   * row, the predictive at that row from its partition with the row taken out (the row moved to a partition of its
   * own), at each γ.
   */
  @Test
  void closedFormEqualsRefittingEachPartitionWithoutTheRow() {
    Thirds f = Thirds.fitted();
    RegressionData train = f.train();
    int[] labels = f.labels();
    Svbssgp model = f.model();
    int n = N;
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
  }

  /**
   * The default γ is the grid's leave-one-out minimiser: on a smooth 1-d sine in contiguous partitions the local
   * conditional is the better predictor, and a γ that is set is kept.
   */
  @Test
  void defaultGammaIsTheLeaveOneOutMinimiser() {
    Svbssgp model = Thirds.fitted().model();
    SparseRegression.Options d = SparseRegression.Options.defaults(SparseModel.SVBSSGP);
    double[] loo =
        model.leaveOneOutMnlp(SparseRegression.GAMMA_GRID, d.samples(), d.seed(), d.noise());
    double chosen = SparseRegression.leaveOneOutGamma(model, d);
    int at = java.util.Arrays.binarySearch(SparseRegression.GAMMA_GRID, chosen);
    assertTrue(at >= 0, "γ = " + chosen + " on the grid");
    for (double v : loo) {
      assertTrue(loo[at] <= v, java.util.Arrays.toString(loo));
    }
    assertTrue(
        loo[0] < loo[loo.length - 1], "local beats global: " + java.util.Arrays.toString(loo));
    SparseRegression.Options set = org.approxgp.model.Registry.regression(
        "svbssgp", org.approxgp.model.Settings.of("gamma", 0.25));
    assertEquals(0.25, SparseRegression.leaveOneOutGamma(model, set));
  }
}
