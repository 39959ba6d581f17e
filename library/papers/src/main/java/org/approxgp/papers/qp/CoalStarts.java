package org.approxgp.papers.qp;

import org.approxgp.inference.Posterior;
import org.approxgp.inference.Problem;
import org.approxgp.inference.Sites;
import org.approxgp.inference.Vb;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.likelihood.NegativeBinomialPredictive;
import org.approxgp.likelihood.PoissonSquareLink;
import org.approxgp.model.InferenceMethod;

/**
 * Where the coal-mining row's inferences start ({@link QpMining}): GPy's VB start, the likelihood's own
 * Gaussian approximation at its mode, a counter of the inferences a fit makes, and VB fitted as GPy fits it.
 */
final class CoalStarts {
  private CoalStarts() {}

  /**
   * GPy's start for {@code GPVariationalGaussianApproximation} with the square link and no mean function:
   * α = 0, β = 1, i.e. sites τ̃ = β² = 1, ν̃ = 0 (the posterior mean K α = 0). Warm starts pass through.
   */
  static InferenceMethod gpyVbStart(InferenceMethod inner) {
    return coldStart(inner, problem -> {
      int n = problem.size();
      double[] tau = new double[n];
      java.util.Arrays.fill(tau, 1.0);
      return Sites.of(tau, new double[n]);
    });
  }

  /**
   * Starts a cold inference from the likelihood's own Gaussian approximation at its positive mode
   * instead of from the prior: for y = 0, p(0 | f) = e^{−f²} is Gaussian (τ̃ = 2, ν̃ = 0); for y ≥ 1 the
   * mode of log p is f̂ = √y with −∂² log p = 2y/f̂² + 2 = 4 (τ̃ = 4, ν̃ = 4√y). Warm starts pass through.
   *
   * <p>Why: {@link Vb} requires ∂E/∂v ≤ 0 at every site (its site precision is −2∂E/∂v), but at the
   * prior N(1, σ_f²) ∂E/∂v = y(1 − a S₁)/v − 1 is positive for counts y ≥ 2 or so (log p is not
   * concave in f across 0), so VB from the prior throws before its first step. From these sites the
   * marginal variances are ≤ ¼ and ∂E/∂v &lt; 0 everywhere on the coal data.
   */
  static InferenceMethod likelihoodModeStart(InferenceMethod inner) {
    return coldStart(inner, problem -> {
      int n = problem.size();
      double[] tau = new double[n];
      double[] nu = new double[n];
      for (int i = 0; i < n; i++) {
        double y = problem.y()[i];
        tau[i] = y == 0 ? 2 : 4;
        nu[i] = y == 0 ? 0 : 4 * Math.sqrt(y);
      }
      return Sites.of(tau, nu);
    });
  }

  /** {@code inner}, its cold inferences started from {@code start}'s sites; warm starts pass through. */
  private static InferenceMethod coldStart(
      InferenceMethod inner, java.util.function.Function<Problem, Sites> start) {
    return InferenceMethod.of(
        inner.name(),
        (problem, warm) -> inner.infer(problem, warm != null ? warm : start.apply(problem)));
  }

  /** Counts clipped and total site updates over every inference run of a fit. */
  static final class Counting implements InferenceMethod {
    final InferenceMethod inner;
    long clipped;
    long updates;

    Counting(InferenceMethod inner) {
      this.inner = inner;
    }

    @Override
    public String name() {
      return inner.name();
    }

    @Override
    public Posterior infer(Problem problem, Sites warmStart) {
      Posterior p = inner.infer(problem, warmStart);
      clipped += p.diagnostics().clippedSites();
      updates += (long) p.diagnostics().iterations() * problem.size();
      return p;
    }
  }

  /**
   * VB as the authors ran it ({@link QpMining.Protocol#vbMeanFunction()} false): {@link GpyZeroMeanVb}, joint L-BFGS
   * over (β, log θ) from β = 1 and {@code k0}; the predictive mean is 0 at every test year.
   */
  static QpMining.MethodResult fitGpyVb(long seed, SquaredExponential k0, QpMining.CoalSplit d) {
    long t0 = System.nanoTime();
    GpyZeroMeanVb.Fit fit;
    try {
      fit = GpyZeroMeanVb.fit(
          k0, d.xTrain(), d.trainCounts(), org.approxgp.optimize.Lbfgs.Settings.paper());
    } catch (RuntimeException e) {
      throw new IllegalStateException(
          "vb (zero mean, as GPy) failed on seed " + seed + ": " + e, e);
    }
    double[] var = fit.predictiveVariance(d.xTest());
    int m = d.testCounts().length;
    double te = 0;
    double ntll = 0;
    double ntllExact = 0;
    for (int j = 0; j < m; j++) {
      NegativeBinomialPredictive nb = NegativeBinomialPredictive.of(0.0, var[j]);
      double y = d.testCounts()[j];
      te += Math.abs(y - nb.mode());
      ntll -= nb.logPmf(y);
      ntllExact -= PoissonSquareLink.get().logPredictive(y, 0.0, Math.max(var[j], 1e-300));
    }
    SquaredExponential k = (SquaredExponential) fit.kernel();
    var opt = fit.optimizer();
    return new QpMining.MethodResult(
        "vb",
        te / m,
        ntll / m,
        ntllExact / m,
        k.lengthscales()[0],
        k.signalVariance(),
        -fit.elbo(),
        opt.converged(),
        fit.atBound(),
        (long) opt.evaluations() * d.xTrain().length,
        (System.nanoTime() - t0) * 1e-9,
        opt.status() + "; vb zero mean (as GPy), " + opt.iterations()
            + " L-BFGS iterations, β² < 1e-8 at " + fit.atBound() + " of " + d.xTrain().length
            + " sites");
  }
}
