package org.approxgp.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.approxgp.data.RegressionData;
import org.approxgp.inference.ExactGpr;
import org.approxgp.inference.FittedModel;
import org.approxgp.inference.Prediction;
import org.approxgp.inference.PredictiveMoments;
import org.approxgp.inference.Problem;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.likelihood.Gaussian;
import org.approxgp.likelihood.Probit;
import org.approxgp.metrics.Metrics;
import org.approxgp.sparse.SparseModel;
import org.approxgp.sparse.SparseRegression;
import org.junit.jupiter.api.Test;

/**
 * Latent and sparse GPs answer through one interface ({@link FittedModel}): the predictive moments of y* and the
 * log predictive density, from which every model's RMSE and NLPD are computed by the same code. Checked against
 * the exact GP (an independent oracle), the probit predictive in closed form, and the sparse models' own MNLP.
 */
class FittedModelTest {
  private static final double NOISE = 0.1;

  /** y = sin(3x) + noise on [−2, 2]: n rows, one input. */
  private static RegressionData data(int n, long seed) {
    Random r = new Random(seed);
    double[][] x = new double[n][1];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      x[i][0] = -2 + 4 * r.nextDouble();
      y[i] = Math.sin(3 * x[i][0]) + Math.sqrt(NOISE) * r.nextGaussian();
    }
    return RegressionData.of(x, y);
  }

  private static double[][] rows(RegressionData d) {
    double[][] x = new double[d.n()][];
    for (int i = 0; i < x.length; i++) {
      x[i] = d.row(i);
    }
    return x;
  }

  @Test
  void aLatentGaussianGpPredictsYAsTheExactGp() {
    RegressionData train = data(40, 1);
    RegressionData test = data(15, 2);
    SquaredExponential k = SquaredExponential.iso(0.7, 1.3);
    FittedModel m = GpModel.fit(
        Problem.of(k, rows(train), train.y(), Gaussian.of(NOISE)),
        InferenceMethod.ep(),
        GpModel.FitOptions.fixed());
    ExactGpr exact = ExactGpr.of(k, rows(train), train.y(), NOISE, 0, rows(test));
    PredictiveMoments py = m.predictY(test);
    double[] logp = m.logPredictiveDensity(test);
    double nlpd = 0;
    for (int j = 0; j < test.n(); j++) {
      double v = exact.predVar()[j] + NOISE;
      double e = test.y()[j] - exact.predMean()[j];
      assertEquals(exact.predMean()[j], py.mean()[j], 1e-9);
      assertEquals(v, py.variance()[j], 1e-9);
      double lp = -0.5 * (Math.log(2 * Math.PI * v) + e * e / v);
      assertEquals(lp, logp[j], 1e-9);
      nlpd -= lp / test.n();
    }
    assertEquals(nlpd, m.nlpd(test), 1e-9);
    assertEquals(Metrics.rmse(py.mean(), test.y()), m.rmse(test));
  }

  @Test
  void aProbitClassifierPredictsTheMomentsOfItsLabels() {
    RegressionData raw = data(50, 3);
    double[] labels = new double[raw.n()];
    for (int i = 0; i < labels.length; i++) {
      labels[i] = raw.y()[i] > 0 ? 1 : -1;
    }
    double[][] x = rows(raw);
    FittedGp f = GpModel.fit(
        Problem.of(SquaredExponential.iso(0.8, 2), x, labels, Probit.get()),
        InferenceMethod.ep(),
        GpModel.FitOptions.fixed());
    double[][] xs = {{-1.5}, {0.1}, {0.5}, {1.9}};
    RegressionData test = RegressionData.of(xs, new double[] {1, -1, 1, -1});
    Prediction latent = f.predict(xs);
    PredictiveMoments py = f.predictY(test);
    double[] logp = f.logPredictiveDensity(test);
    for (int j = 0; j < xs.length; j++) {
      double p =
          Probit.get().predictivePositive(latent.latentMean()[j], latent.latentVariance()[j]);
      assertEquals(2 * p - 1, py.mean()[j], 1e-12);
      assertEquals(1 - (2 * p - 1) * (2 * p - 1), py.variance()[j], 1e-12);
      assertEquals(Math.log(test.y()[j] > 0 ? p : 1 - p), logp[j], 1e-12);
    }
  }

  @Test
  void sparseAndLatentModelsAreScoredByTheSameCode() {
    RegressionData train = data(200, 4);
    RegressionData test = data(60, 5);
    SparseRegression.Fit sparse;
    try (SparseRegression.Trainer t = SparseRegression.start(
        train,
        SparseRegression.Options.defaults(SparseModel.SSGP),
        SparseRegression.Partitioning.honest(),
        null)) {
      while (t.step()) {
        // to its stopping rule
      }
      sparse = t.snapshot();
    }
    FittedModel latent = GpModel.fit(
        Problem.of(SquaredExponential.iso(0.7, 1.0), rows(train), train.y(), Gaussian.of(NOISE)),
        InferenceMethod.ep(),
        GpModel.FitOptions.fixed());
    // the sparse model's NLPD through the interface is its MNLP (sVBSSGP paper §5) to the bit
    assertEquals(sparse.predict(test).mnlp(test.y()), sparse.nlpd(test));
    assertEquals(sparse.predict(test).rmse(test.y()), sparse.rmse(test));
    for (FittedModel m : List.of(latent, sparse)) {
      double nlpd = m.nlpd(test);
      double rmse = m.rmse(test);
      // both near the noise floor of this data: RMSE √0.1 ≈ 0.32, NLPD ½ log(2πe·0.1) ≈ 0.27
      assertTrue(rmse > 0.2 && rmse < 0.5, m.getClass().getSimpleName() + " RMSE " + rmse);
      assertTrue(nlpd > 0 && nlpd < 0.8, m.getClass().getSimpleName() + " NLPD " + nlpd);
    }
    RegressionData unlabelled = RegressionData.of(rows(test), null);
    assertThrows(IllegalArgumentException.class, () -> latent.nlpd(unlabelled));
    assertThrows(IllegalArgumentException.class, () -> sparse.nlpd(unlabelled));
  }
}
