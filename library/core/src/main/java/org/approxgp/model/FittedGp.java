package org.approxgp.model;

import java.util.List;
import org.approxgp.data.RegressionData;
import org.approxgp.inference.FittedModel;
import org.approxgp.inference.Posterior;
import org.approxgp.inference.Prediction;
import org.approxgp.inference.PredictiveMoments;
import org.approxgp.kernel.Kernel;
import org.approxgp.likelihood.Likelihood;

/**
 * The result of {@link GpModel#fit}: the posterior at the final hyperparameters and how the
 * optimisation went. Immutable.
 *
 * @param posterior posterior at the final hyperparameters (its diagnostics are the last inference's)
 * @param method inference method name
 * @param optimized whether hyperparameters were optimised
 * @param iterations optimiser iterations (0 without optimisation)
 * @param evaluations objective evaluations (inference runs) including the final one
 * @param converged optimiser met its stopping rule and the final inference converged
 * @param optimizerStatus the optimiser's stop reason ("" without optimisation)
 * @param activeBounds names of hyperparameters that ended at a bound
 * @param seconds wall time of the whole fit
 */
public record FittedGp(
    Posterior posterior,
    String method,
    boolean optimized,
    int iterations,
    int evaluations,
    boolean converged,
    String optimizerStatus,
    List<String> activeBounds,
    double seconds)
    implements FittedModel {

  public Kernel kernel() {
    return posterior.problem().kernel();
  }

  /** The likelihood at the final hyperparameters (learned when it has any and the fit optimised). */
  public Likelihood likelihood() {
    return posterior.problem().likelihood();
  }

  public double logEvidence() {
    return posterior.logEvidence();
  }

  public Prediction predict(double[][] xTest) {
    return posterior.predict(xTest);
  }

  public double[] logPredictive(double[][] xTest, double[] yTest) {
    return posterior.logPredictive(xTest, yTest);
  }

  /** The posterior's {@link Posterior#predictY}. */
  @Override
  public PredictiveMoments predictY(RegressionData test) {
    return posterior.predictY(test);
  }

  @Override
  public double[] logPredictiveDensity(RegressionData test) {
    return posterior.logPredictiveDensity(test);
  }
}
