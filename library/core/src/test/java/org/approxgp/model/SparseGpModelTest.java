package org.approxgp.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.JitterPolicy;
import org.approxgp.linalg.Matrix;
import org.approxgp.optimize.Lbfgs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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

  /**
   * Gaussian likelihood, M = 8 &lt; n = 60: θ and the noise variance learned on the sparse Power-EP energy (the noise
   * by central differences) end at a stationary point of the closed-form collapsed bound
   * F_α = log N(y | m₀, Q + αD + σ²I) − (1 − α)/(2α) Σ log(1 + α dₙ/σ²) (FITC's evidence at α = 1), computed densely
   * here, and the energy there equals F_α.
   */
  @ParameterizedTest(name = "alpha={0}")
  @ValueSource(doubles = {1.0, 0.5})
  void gaussianNoiseIsLearnedToAStationaryPointOfTheCollapsedBound(double alpha) {
    UniformRandomProvider rng = RandomSource.SPLIT_MIX_64.create(9);
    int n = 60;
    double[][] x = new double[n][1];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      x[i][0] = -3 + 6 * rng.nextDouble();
      y[i] = Math.sin(2 * x[i][0]) + 0.6 * (rng.nextDouble() - 0.5);
    }
    double[][] z = new double[8][1];
    for (int a = 0; a < 8; a++) {
      z[a][0] = -2.8 + 0.8 * a;
    }
    Problem p = new Problem(SquaredExponential.iso(1.0, 1.0), x, y, Gaussian.of(0.5), 0.0);
    SparseGpModel.Fit fit = SparseGpModel.fit(
        new SparseProblem(p, z),
        alpha == 1 ? MomentMatching.ep() : PowerEp.of(alpha),
        LOOP,
        new SparseGpModel.FitOptions(false, TIGHT));
    Problem q = fit.posterior().problem().problem();
    double[] theta = concat(q.kernel().logHyperparameters(), q.likelihood().logHyperparameters());
    double f = collapsed(q, z, alpha, theta);
    double h = 1e-5;
    double worst = 0;
    for (int j = 0; j < theta.length; j++) {
      double[] tp = theta.clone();
      double[] tm = theta.clone();
      tp[j] += h;
      tm[j] -= h;
      worst = Math.max(
          worst, Math.abs(collapsed(q, z, alpha, tp) - collapsed(q, z, alpha, tm)) / (2 * h));
    }
    System.out.printf(
        "gaussian alpha=%s: learned log θ %s, energy %.10f, closed form %.10f, its largest |∂F/∂log θ| %.1e (%s)%n",
        alpha, Arrays.toString(theta), fit.posterior().logEvidence(), f, worst, fit.status());
    assertTrue(fit.converged(), fit.status());
    assertEquals(
        f, fit.posterior().logEvidence(), 1e-9 * Math.abs(f), "energy against the closed form");
    assertTrue(worst < 1e-6, "the closed form is stationary at the learned θ: " + worst);
  }

  private static double[] concat(double[] a, double[] b) {
    double[] c = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, c, a.length, b.length);
    return c;
  }

  /** F_α at θ = (kernel log θ, log σ²), densely in n × n. */
  private static double collapsed(Problem p, double[][] z, double alpha, double[] theta) {
    Kernel k = p.kernel().withLogHyperparameters(Arrays.copyOf(theta, theta.length - 1));
    double noise = Math.exp(theta[theta.length - 1]);
    double[][] x = p.x();
    int n = x.length;
    Cholesky kuu = Cholesky.factor(k.matrix(z), JitterPolicy.none());
    Matrix a = kuu.solveLower(k.cross(z, x));
    Matrix q = a.multTransA(a);
    Matrix c = q.copy();
    double[] kd = k.diagonal(x);
    double penalty = 0;
    for (int i = 0; i < n; i++) {
      double d = kd[i] - q.get(i, i);
      c.set(i, i, q.get(i, i) + alpha * d + noise);
      penalty += Math.log1p(alpha * d / noise);
    }
    Cholesky cc = Cholesky.factor(c, JitterPolicy.none());
    double[] r = new double[n];
    for (int i = 0; i < n; i++) {
      r[i] = p.y()[i] - p.priorMean();
    }
    return -0.5 * cc.quadForm(r)
        - 0.5 * cc.logDet()
        - 0.5 * n * Math.log(2 * Math.PI)
        - (1 - alpha) / (2 * alpha) * penalty;
  }
}
