package org.approxgp.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.approxgp.inference.Ep;
import org.approxgp.inference.MomentMatching;
import org.approxgp.inference.PowerEp;
import org.approxgp.inference.Problem;
import org.approxgp.inference.SiteLoopOptions;
import org.approxgp.inference.SparsePosterior;
import org.approxgp.inference.SparseProblem;
import org.approxgp.inference.SparseSiteLoop;
import org.approxgp.kernel.Kernel;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.likelihood.Gaussian;
import org.approxgp.likelihood.Probit;
import org.approxgp.optimize.Lbfgs;
import org.junit.jupiter.api.Test;

/**
 * {@link SparseGpModel}: with Z = X and θ learned, sparse EP's optimum is exact EP's ({@link GpModel}); with M &lt; n,
 * learning Z as well raises the energy above learning θ alone and ends at a stationary point.
 */
class SparseGpModelTest {

  private static final SiteLoopOptions LOOP = SiteLoopOptions.defaults().withTolerance(1e-10);
  private static final Lbfgs.Settings TIGHT = new Lbfgs.Settings(1000, 0, 1e-7, 10);

  /** n points uniform on [−2, 2]², labels sign(sin(1.5 (x₀ + x₁)) + noise), noise uniform of the given width. */
  private static Problem data(long seed, int n, double noise) {
    UniformRandomProvider rng = RandomSource.SPLIT_MIX_64.create(seed);
    double[][] x = new double[n][2];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      x[i][0] = -2 + 4 * rng.nextDouble();
      x[i][1] = -2 + 4 * rng.nextDouble();
      y[i] = Math.sin(1.5 * (x[i][0] + x[i][1])) + noise * (rng.nextDouble() - 0.5) >= 0 ? 1 : -1;
    }
    Kernel k = SquaredExponential.ard(new double[] {1.5, 0.6}, 0.8);
    return Problem.of(k, x, y, Probit.get());
  }

  @Test
  void atTheTrainingInputsTheLearnedHyperparametersAreExactEps() {
    Problem p = data(3, 50, 2.5);
    FittedGp exact = GpModel.fit(
        p,
        InferenceMethod.ep(Ep.Options.defaults().withLoop(LOOP)),
        new GpModel.FitOptions(true, TIGHT, Bounds.defaults(p.kernel())));
    SparseGpModel.Fit sparse = SparseGpModel.fit(
        new SparseProblem(p, p.x()),
        MomentMatching.ep(),
        LOOP,
        new SparseGpModel.FitOptions(false, TIGHT));
    double[] te = exact.posterior().problem().kernel().logHyperparameters();
    double[] ts = sparse.posterior().problem().problem().kernel().logHyperparameters();
    System.out.printf(
        "Z = X: exact EP θ %s log Z %.10f (%s); sparse EP θ %s log Z %.10f (%s, %d runs)%n",
        Arrays.toString(te),
        exact.posterior().logEvidence(),
        exact.optimizerStatus(),
        Arrays.toString(ts),
        sparse.posterior().logEvidence(),
        sparse.status(),
        sparse.evaluations());
    assertTrue(
        exact.converged() && sparse.converged(), exact.optimizerStatus() + " / " + sparse.status());
    assertTrue(exact.activeBounds().isEmpty(), "an interior optimum: " + exact.activeBounds());
    for (int j = 0; j < te.length; j++) {
      assertEquals(te[j], ts[j], 1e-6, "log-hyperparameter " + j);
    }
    assertEquals(
        exact.posterior().logEvidence(), sparse.posterior().logEvidence(), 1e-8, "log evidence");
  }

  @Test
  void learningTheInducingInputsRaisesTheEnergyToAStationaryPoint() {
    Problem p = data(5, 150, 0.6);
    double[][] z = Arrays.copyOf(p.x(), 8); // the first 8 training inputs
    SparseProblem start = new SparseProblem(p, z);
    double initial = SparseSiteLoop.run(start, PowerEp.of(0.5), LOOP.withGradient(false), null)
        .logEvidence();
    SparseGpModel.Fit theta =
        SparseGpModel.fit(start, PowerEp.of(0.5), LOOP, new SparseGpModel.FitOptions(false, TIGHT));
    SparseGpModel.Fit both =
        SparseGpModel.fit(start, PowerEp.of(0.5), LOOP, new SparseGpModel.FitOptions(true, TIGHT));
    SparsePosterior post = both.posterior();
    double norm = 0;
    for (double g : post.logEvidenceGradient()) {
      norm = Math.max(norm, Math.abs(g));
    }
    for (double[] row : post.inducingGradient()) {
      for (double g : row) {
        norm = Math.max(norm, Math.abs(g));
      }
    }
    System.out.printf(
        "M=8, n=150, power EP 0.5: start %.6f, θ learned %.6f (%s), θ and Z %.6f (%s, %d iterations, |grad| %.1e)%n",
        initial,
        theta.posterior().logEvidence(),
        theta.status(),
        post.logEvidence(),
        both.status(),
        both.iterations(),
        norm);
    assertTrue(theta.posterior().logEvidence() > initial, "learning θ raises the energy");
    assertTrue(
        post.logEvidence() > theta.posterior().logEvidence(),
        "learning Z as well raises it further");
    assertTrue(both.converged(), both.status());
    assertTrue(norm < 1e-3, "gradient at the optimum " + norm);
  }

  @Test
  void likelihoodHyperparametersAreRefused() {
    Problem p = data(1, 10, 0.6);
    Problem g = new Problem(p.kernel(), p.x(), p.y(), Gaussian.of(0.1), 0.0);
    IllegalArgumentException e = assertThrows(
        IllegalArgumentException.class,
        () -> SparseGpModel.fit(
            new SparseProblem(g, p.x()),
            MomentMatching.ep(),
            LOOP,
            SparseGpModel.FitOptions.hyperparameters()));
    assertTrue(e.getMessage().contains("noise"), e.getMessage());
  }
}
