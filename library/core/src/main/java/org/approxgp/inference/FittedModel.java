package org.approxgp.inference;

import org.approxgp.data.RegressionData;
import org.approxgp.metrics.Metrics;

/**
 * What every fitted GP in the project answers, latent ({@code model.FittedGp}: EP, QP, VB, Laplace, Power EP,
 * Relaxed EP on any likelihood) or sparse ({@code sparse.SparseRegression.Fit}: sVBSSGP, DTC++, PIC++, SSGP,
 * VSSGP): the predictive distribution of the observation y* at test inputs, as GPflow's {@code predict_y} and
 * {@code predict_log_density}. Test rows are {@link RegressionData} (row-major inputs on the scale the model was
 * trained on; targets, where given, the observations). The metrics of every model are computed from these two
 * methods by {@link Metrics}, once.
 */
public interface FittedModel {

  /** Mean and variance of y* at each test row. */
  PredictiveMoments predictY(RegressionData test);

  /**
   * log p(y*_i | x*_i, D) of each test row's target under the model's predictive distribution.
   *
   * @throws IllegalArgumentException if {@code test} has no targets
   */
  double[] logPredictiveDensity(RegressionData test);

  /** Root mean squared error of the predictive means against the test targets ({@link Metrics#rmse}). */
  default double rmse(RegressionData test) {
    requireTargets(test);
    return Metrics.rmse(predictY(test).mean(), test.y());
  }

  /**
   * Negative log predictive density, −(1/m) Σ log p(y*_i | D) ({@link Metrics#negativeLogLikelihood}): the QP
   * paper's test NLL for classification, the sVBSSGP paper's MNLP for regression.
   */
  default double nlpd(RegressionData test) {
    return Metrics.negativeLogLikelihood(logPredictiveDensity(test));
  }

  /** Refuses test rows without targets, naming what is missing. */
  static void requireTargets(RegressionData test) {
    if (!test.hasTargets()) {
      throw new IllegalArgumentException("the test rows have no targets to score against");
    }
  }
}
