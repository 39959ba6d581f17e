package org.approxgp.bench;

import org.approxgp.baseline.LogisticRegression;
import org.approxgp.inference.Prediction;
import org.approxgp.likelihood.Probit;
import org.approxgp.metrics.Metrics;

/**
 * Test error and NLL per row of a probit GP's latent predictions or of a logistic regression, by {@link Metrics}
 * (the one test error and NLL of every table): the sparse classification benches' scoring.
 */
record ClassifierScore(double testError, double nll) {

  /** A probit GP's latent predictions at the test rows against their ±1 labels. */
  static ClassifierScore of(Prediction p, double[] y) {
    double[] positive = new double[y.length];
    for (int j = 0; j < y.length; j++) {
      positive[j] = Probit.get().predictivePositive(p.latentMean()[j], p.latentVariance()[j]);
    }
    return new ClassifierScore(
        Metrics.testError(positive, y),
        Metrics.negativeLogLikelihood(p.logPredictive(Probit.get(), y)));
  }

  /** A logistic regression at the test rows {@code x} against their ±1 labels. */
  static ClassifierScore of(LogisticRegression lr, double[][] x, double[] y) {
    double[] positive = new double[y.length];
    double[] log = new double[y.length];
    for (int j = 0; j < y.length; j++) {
      positive[j] = lr.probability(x[j]);
      log[j] = lr.logProbability(x[j], y[j]);
    }
    return new ClassifierScore(Metrics.testError(positive, y), Metrics.negativeLogLikelihood(log));
  }
}
