package org.approxgp.inference;

import org.approxgp.data.RegressionData;
import org.approxgp.linalg.Matrix;

/**
 * An immutable Gaussian approximation q(f) = N(μ, Σ) to the posterior of a {@link Problem}, from any
 * method (EP, QP, Laplace, VB all produce Gaussian sites), with its log evidence (or ELBO), the
 * gradient of that with respect to the kernel's log-hyperparameters (null when not computed), and
 * diagnostics.
 */
public final class Posterior implements FittedModel {
  private final Problem problem;
  private final GaussianSiteApproximation approx;
  private final double logEvidence;
  private final double[] gradient;
  private final Diagnostics diagnostics;

  Posterior(
      Problem problem,
      GaussianSiteApproximation approx,
      double logEvidence,
      double[] gradient,
      Diagnostics diagnostics) {
    this.problem = problem;
    this.approx = approx;
    this.logEvidence = logEvidence;
    this.gradient = gradient == null ? null : gradient.clone();
    this.diagnostics = diagnostics;
  }

  public Problem problem() {
    return problem;
  }

  /** The Gaussian approximation itself (for {@link QpGradient}). */
  GaussianSiteApproximation approx() {
    return approx;
  }

  /** The site parameters (usable as an explicit warm start). */
  public Sites sites() {
    return Sites.of(approx.tau, approx.nu);
  }

  /** Posterior mean μ at the training inputs. */
  public double[] mean() {
    return approx.mu.clone();
  }

  /** Posterior marginal variances diag Σ at the training inputs. */
  public double[] variance() {
    return approx.sigmaDiag.clone();
  }

  /** α with μ = m₀ + K α. */
  public double[] alpha() {
    return approx.alpha.clone();
  }

  /**
   * log q(D): the method's approximation to log p(y | X, θ) (the ELBO for VB); NaN only when the site loop ran with
   * the evidence optional ({@link SiteLoopOptions#requireEvidence()} false) and it is undefined at this posterior.
   */
  public double logEvidence() {
    return logEvidence;
  }

  /** ∂ logEvidence / ∂θ for the kernel's log-hyperparameters, or null if not computed. */
  public double[] logEvidenceGradient() {
    return gradient == null ? null : gradient.clone();
  }

  public Diagnostics diagnostics() {
    return diagnostics;
  }

  /**
   * The same posterior with another log-evidence gradient (e.g. a numerical one, for a method whose
   * analytic gradient is not exact, as QP's).
   */
  public Posterior withLogEvidenceGradient(double[] g) {
    if (g.length != problem.kernel().size()) {
      throw new IllegalArgumentException("gradient has " + g.length + " entries, kernel has "
          + problem.kernel().size());
    }
    return new Posterior(problem, approx, logEvidence, g, diagnostics);
  }

  /**
   * Latent predictive distribution at test inputs (R&amp;W eq. 3.60–3.61 in the stable form of
   * Alg. 3.6): mean m₀ + K*ᵀ α, variance k** − ‖L⁻¹ S̃^½ K*‖² (with negative site precisions kept, the
   * form of {@code GaussianSiteApproximation.predictiveVariance}).
   */
  public Prediction predict(double[][] xTest) {
    Matrix ks = problem.kernel().cross(problem.x(), xTest); // n × m
    double[] kss = problem.kernel().diagonal(xTest);
    int m = xTest.length;
    double[] mean = ks.multTransA(approx.alpha);
    for (int j = 0; j < m; j++) {
      mean[j] += approx.priorMean;
    }
    double[] var = approx.predictiveVariance(ks, kss);
    for (int j = 0; j < m; j++) {
      // roundoff can push a tiny variance below zero far from the data; never return a negative
      // variance
      var[j] = Math.max(var[j], 0.0);
    }
    return new Prediction(mean, var);
  }

  /**
   * Mean and variance of y* at each test row under the likelihood's predictive distribution at the latent
   * prediction ({@link org.approxgp.likelihood.Likelihood#predictive}: for probit E[y*] = 2p − 1, for a Gaussian
   * the latent variance plus the noise).
   */
  @Override
  public PredictiveMoments predictY(RegressionData test) {
    return predict(test.rows()).observed(problem.likelihood());
  }

  @Override
  public double[] logPredictiveDensity(RegressionData test) {
    FittedModel.requireTargets(test);
    return logPredictive(test.rows(), test.y());
  }

  /** log p(y*_j | D) for observed test targets under the likelihood's predictive distribution. */
  public double[] logPredictive(double[][] xTest, double[] yTest) {
    return predict(xTest).logPredictive(problem.likelihood(), yTest);
  }

  @Override
  public String toString() {
    return "Posterior[" + problem.likelihood().name() + ", " + problem.kernel().name() + ", n="
        + approx.n + ", log evidence " + logEvidence + ", " + diagnostics + "]";
  }
}
