package org.approxgp.sparse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.approxgp.data.RegressionData;
import org.approxgp.inference.PredictiveMoments;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.Matrix;
import org.junit.jupiter.api.Test;

class DtcTest {
  private static final SquaredExponential KERNEL =
      SquaredExponential.ard(new double[] {0.9, 1.2}, 1.3);
  private static final double NOISE = 0.05;

  private static InducingOptions fullStep(int n) {
    return new InducingOptions(
        StochasticSchedule.of(n, 1, StepSchedule.constant(1.0), 1),
        StepSchedule.constant(0.01),
        false);
  }

  /**
   * With Z = X and the full batch, the optimal q(u) is the exact posterior of f(X), and the bound equals the
   * exact log marginal likelihood (the Titsias gap ½σ⁻² tr(K − Q) vanishes). One natural-gradient step of size 1
   * reaches it from the prior.
   */
  @Test
  void inducingAtTrainingInputsGivesTheExactGp() {
    RegressionData train = DenseGp.synthetic(25, 0.2, 1);
    RegressionData z = new RegressionData(train.x(), train.n(), train.d(), null);
    Dtc.Fit fit = Dtc.fit(train, z, KERNEL, NOISE, fullStep(train.n()), null);

    double[][] x = DenseGp.rows(train);
    Matrix k = KERNEL.matrix(x);
    Matrix c = k.copy();
    c.addDiagonal(NOISE);
    Cholesky lc = Cholesky.factor(c);
    double[] postMean = k.mult(lc.solve(train.y()));
    Matrix kck = k.mult(lc.solve(k));
    for (int i = 0; i < train.n(); i++) {
      assertEquals(postMean[i], fit.mean()[i], 1e-8, "mean " + i);
      for (int j = 0; j < train.n(); j++) {
        assertEquals(
            k.get(i, j) - kck.get(i, j), fit.covariance().get(i, j), 1e-8, "cov " + i + "," + j);
      }
    }
    double exact = DenseGp.exactLogMarginal(KERNEL, NOISE, train);
    assertEquals(exact, fit.elbo(train), 1e-8);
    // the minibatch estimate with B = n is the same bound, evaluated at the prior before the step
    assertTrue(fit.objective() < exact);

    RegressionData test = DenseGp.synthetic(15, 0.2, 2);
    PredictiveMoments ours = fit.predict(test);
    PredictiveMoments ref = DenseGp.exactPredictive(KERNEL, NOISE, train, test);
    assertEquals(0, DenseGp.maxAbsDiff(ref.mean(), ours.mean()), 1e-8);
    assertEquals(0, DenseGp.maxAbsDiff(ref.variance(), ours.variance()), 1e-8);
  }

  /** Titsias's collapsed bound log N(y | 0, Q + σ²I) − tr(K − Q)/(2σ²), the maximum of L over q(u). */
  private static double titsias(RegressionData train, RegressionData z) {
    double[][] x = DenseGp.rows(train);
    double[][] zz = DenseGp.rows(z);
    Matrix q = DenseGp.nystrom(KERNEL, x, zz, x);
    double tr = 0;
    for (int i = 0; i < train.n(); i++) {
      tr += KERNEL.signalVariance() - q.get(i, i);
    }
    q.addDiagonal(NOISE);
    return DenseGp.logNormal(train.y(), q) - 0.5 * tr / NOISE;
  }

  /**
   * Hensman et al. 2013 (§3.1): for Gaussian likelihoods a natural-gradient step of length 1 on the full data
   * lands on the optimal q(u) (the bound then equals Titsias's collapsed bound), and the optimum is a fixed point.
   */
  @Test
  void oneNaturalStepOfSizeOneReachesTheOptimum() {
    RegressionData train = DenseGp.synthetic(60, 0.2, 3);
    RegressionData z = KMeans.fit(train, 8, 7, 30).centroidInputs();
    Dtc.Trainer t = new Dtc.Trainer(
        train,
        z,
        KERNEL,
        NOISE,
        new InducingOptions(
            StochasticSchedule.of(60, 2, StepSchedule.constant(1.0), 1),
            StepSchedule.constant(0.01),
            false));
    double atPrior = t.step();
    Dtc.Fit one = t.snapshot();
    double opt = titsias(train, z);
    assertEquals(opt, one.elbo(train), 1e-9 * Math.abs(opt));
    assertTrue(atPrior < opt - 1);
    double again = t.step();
    assertEquals(opt, again, 1e-9 * Math.abs(opt));
    Dtc.Fit two = t.snapshot();
    assertEquals(0, DenseGp.maxAbsDiff(one.mean(), two.mean()), 1e-9);
    assertEquals(0, one.covariance().maxAbsDiff(two.covariance()), 1e-9);
  }

  /** ∂L/∂(log ℓ, log σ_f², log σ²) at a fixed, arbitrary q(u) against central differences. */
  @Test
  void hyperparameterGradientMatchesCentralDifferences() {
    RegressionData train = DenseGp.synthetic(40, 0.2, 5);
    RegressionData z = KMeans.fit(train, 7, 2, 30).centroidInputs();
    int mM = z.n();
    SplittableRandom rng = new SplittableRandom(17);
    double[] m = new double[mM];
    double[] b = new double[mM * mM];
    for (int i = 0; i < mM; i++) {
      m[i] = rng.nextGaussian();
      for (int j = 0; j < mM; j++) {
        b[i * mM + j] = 0.3 * rng.nextGaussian();
      }
    }
    Matrix s = Matrix.wrap(mM, mM, b).multTransB(Matrix.wrap(mM, mM, b));
    s.addDiagonal(0.1);
    List<SquaredExponential> kernels = new ArrayList<>();
    kernels.add(KERNEL);
    kernels.add(SquaredExponential.iso(0.8, 0.7));
    for (SquaredExponential kernel : kernels) {
      double[] p = DtcBound.params(kernel, NOISE * 2, 2);
      double[] g = new double[p.length];
      DtcBound.objective(train, z, p, kernel.isArd(), m, s, g);
      CentralDifferences.assertGradient(
          q -> DtcBound.objective(train, z, q, kernel.isArd(), m, s, null),
          p,
          g,
          1e-6,
          kernel.name());
    }
  }

  /**
   * The collapsed bound of the full-batch fit ({@link DtcBound#collapsed}: Titsias' form, one pass for the value and
   * one for the gradient) against the SVGP bound {@link DtcBound#objective} at the optimal q(u) of {@link
   * DtcBound#optimalPosterior}, the two computations it replaces: the same value and gradient to rounding (the
   * envelope theorem makes ∂L/∂θ at that q the collapsed gradient), for ARD and isotropic kernels, with and without
   * K_uu's jitter, over several row chunks and with K(x, Z) kept or computed again in the gradient pass.
   */
  @Test
  void collapsedBoundEqualsTheBoundAtTheOptimalPosterior() {
    RegressionData train = DenseGp.synthetic(Dtc.CHUNK + 700, 0.2, 8);
    RegressionData z = KMeans.fit(train, 23, 3, 20).centroidInputs();
    List<SquaredExponential> kernels = new ArrayList<>();
    kernels.add(KERNEL);
    kernels.add(SquaredExponential.iso(0.8, 0.7));
    for (SquaredExponential kernel : kernels) {
      for (double eps : new double[] {0, InducingPosterior.KUU_JITTER}) {
        double[] p = DtcBound.params(kernel, NOISE * 2, 2);
        InducingPosterior q = DtcBound.optimalPosterior(train, z, p, kernel.isArd(), eps);
        double[] want = new double[p.length];
        double lWant =
            DtcBound.objective(train, z, p, kernel.isArd(), q.mean(), q.covariance(), want, eps);
        for (long keep : new long[] {DtcBound.KEEP_CROSS, 0}) {
          double[] got = new double[p.length];
          double l = DtcBound.collapsed(train, z, p, kernel.isArd(), eps, got, keep);
          String what = kernel.name() + ", jitter " + eps + ", keep " + keep;
          assertEquals(lWant, l, 1e-9 * Math.abs(lWant), what);
          assertEquals(
              l, DtcBound.collapsed(train, z, p, kernel.isArd(), eps, null, keep), 0, what);
          for (int j = 0; j < p.length; j++) {
            assertEquals(
                want[j], got[j], 1e-7 * Math.max(1, Math.abs(want[j])), what + ", parameter " + j);
          }
        }
      }
    }
  }

  /** The collapsed bound's gradient against central differences of its value, away from the data's optimum. */
  @Test
  void collapsedGradientMatchesCentralDifferences() {
    RegressionData train = DenseGp.synthetic(60, 0.2, 5);
    RegressionData z = KMeans.fit(train, 9, 2, 30).centroidInputs();
    for (SquaredExponential kernel : List.of(KERNEL, SquaredExponential.iso(0.8, 0.7))) {
      double[] p = DtcBound.params(kernel, NOISE * 3, 2);
      double[] g = new double[p.length];
      DtcBound.collapsed(train, z, p, kernel.isArd(), InducingPosterior.KUU_JITTER, g);
      CentralDifferences.assertGradient(
          q -> DtcBound.collapsed(train, z, q, kernel.isArd(), InducingPosterior.KUU_JITTER, null),
          p,
          g,
          1e-6,
          kernel.name());
    }
  }

  /**
   * Minibatch SVI with fixed hyperparameters approaches the optimum: after 400 steps of |B| = 40 on n = 400 the
   * full-data bound is within 1 nat of Titsias's bound (it starts hundreds of nats below).
   */
  @Test
  void minibatchFitApproachesTheOptimum() {
    RegressionData train = DenseGp.synthetic(400, 0.2, 6);
    RegressionData z = KMeans.fit(train, 15, 3, 30).centroidInputs();
    double opt = titsias(train, z);
    InducingOptions o = new InducingOptions(
        StochasticSchedule.of(40, 400, new StepSchedule(0.5, 0.05, 0.6), 9),
        StepSchedule.constant(0.01),
        false);
    Dtc.Trainer t = new Dtc.Trainer(train, z, KERNEL, NOISE, o);
    double start = t.snapshot().elbo(train);
    assertTrue(start < opt - 100, "start " + start + " vs optimum " + opt);
    for (int i = 0; i < o.schedule().iterations(); i++) {
      t.step();
    }
    double end = t.snapshot().elbo(train);
    assertTrue(end <= opt + 1e-9, "a bound cannot exceed its maximum over q");
    assertTrue(end > opt - 1, "end " + end + " vs optimum " + opt);
  }

  /** Learning the hyperparameters from a poor start raises the collapsed (optimal-q) bound. */
  @Test
  void hyperparameterLearningImprovesTheBound() {
    RegressionData train = DenseGp.synthetic(300, 0.2, 8);
    RegressionData z = KMeans.fit(train, 12, 3, 30).centroidInputs();
    SquaredExponential poor = SquaredExponential.ard(new double[] {4, 4}, 0.3);
    InducingOptions o = new InducingOptions(
        StochasticSchedule.of(50, 300, new StepSchedule(0.5, 0.05, 0.6), 4),
        StepSchedule.constant(0.05),
        true);
    Dtc.Fit fit = Dtc.fit(train, z, poor, 0.8, o, null);
    // the collapsed bound at the learned vs the initial hyperparameters (optimal q for each: one
    // full step)
    InducingOptions full = fullStep(train.n());
    double before = Dtc.fit(train, z, poor, 0.8, full, null).elbo(train);
    double after =
        Dtc.fit(train, z, fit.kernel(), fit.noiseVariance(), full, null).elbo(train);
    assertTrue(after > before + 100, "before " + before + ", after " + after);
    assertTrue(fit.noiseVariance() < 0.8 / 2, "noise " + fit.noiseVariance());
  }

  /** Same data and seed give bit-identical DTC++ and PIC++ fits (minibatch and partition sampling seeded). */
  @Test
  void sameSeedSameFit() {
    RegressionData train = DenseGp.synthetic(200, 0.2, 10);
    RegressionData z = KMeans.fit(train, 10, 3, 30).centroidInputs();
    InducingOptions o = InducingOptions.defaults(30, 25, 77);
    Dtc.Fit a = Dtc.fit(train, z, KERNEL, NOISE, o, null);
    Dtc.Fit b = Dtc.fit(train, z, KERNEL, NOISE, o, null);
    assertEquals(0, DenseGp.maxAbsDiff(a.mean(), b.mean()), 0.0);
    assertEquals(0, a.covariance().maxAbsDiff(b.covariance()), 0.0);
    assertEquals(a.noiseVariance(), b.noiseVariance(), 0.0);
    int[] labels = KMeans.fit(train, 8, 1, 30).assign(train);
    InducingOptions po = new InducingOptions(
        StochasticSchedule.of(2, 15, new StepSchedule(0.5, 0.05, 0.6), 5),
        StepSchedule.constant(0.01),
        true);
    Pic.Fit pa = Pic.fit(train, labels, z, KERNEL, NOISE, po, null);
    Pic.Fit pb = Pic.fit(train, labels, z, KERNEL, NOISE, po, null);
    assertEquals(0, DenseGp.maxAbsDiff(pa.mean(), pb.mean()), 0.0);
    assertEquals(pa.objective(), pb.objective(), 0.0);
    // and a different seed samples different minibatches
    Dtc.Fit c = Dtc.fit(train, z, KERNEL, NOISE, InducingOptions.defaults(30, 25, 78), null);
    assertTrue(DenseGp.maxAbsDiff(a.mean(), c.mean()) > 0);
  }

  /**
   * Full batch with learned hyperparameters: L-BFGS on the collapsed bound. Its reported bounds never fall, the
   * last equals the final model's full-data bound, and it ends at a stationary point: ∂L/∂θ at the optimal q(u)
   * (= the collapsed bound's gradient) is below 10⁻³ of its size at the start.
   */
  @Test
  void fullBatchReachesAStationaryPointOfTheCollapsedBound() {
    RegressionData train = DenseGp.synthetic(80, 0.2, 5);
    RegressionData z = KMeans.fit(train, 12, 3, 30).centroidInputs();
    SquaredExponential poor = SquaredExponential.ard(new double[] {4, 4}, 0.3);
    InducingOptions o = new InducingOptions(
        StochasticSchedule.of(train.n(), 200, new StepSchedule(0.5, 0.05, 0.6), 1),
        StepSchedule.constant(0.01),
        true);
    List<Double> trace = new ArrayList<>();
    Dtc.Fit fit = Dtc.fit(train, z, poor, 0.8, o, (it, obj, sec) -> trace.add(obj));
    // the fit stops when L-BFGS has converged, before the cap
    assertEquals(fit.iterations(), trace.size());
    assertTrue(trace.size() < 200, trace.size() + " iterations");
    int last = trace.size() - 1;
    for (int i = 1; i < trace.size(); i++) {
      assertTrue(
          trace.get(i) >= trace.get(i - 1) - 1e-9 * Math.abs(trace.get(i)), "bound fell at " + i);
    }
    assertEquals(fit.elbo(train), trace.get(last), 1e-9 * Math.abs(trace.get(last)));
    double[] p0 = DtcBound.params(poor, 0.8, 2);
    // the bound L-BFGS climbs: K_uu with the fixed jitter ε
    double eps = InducingPosterior.KUU_JITTER;
    InducingPosterior q0 = DtcBound.optimalPosterior(train, z, p0, true, eps);
    double[] g0 = new double[p0.length];
    DtcBound.objective(train, z, p0, true, q0.mean(), q0.covariance(), g0, eps);
    double[] p1 = DtcBound.params(fit.kernel(), fit.noiseVariance(), 2);
    double[] g1 = new double[p1.length];
    DtcBound.objective(train, z, p1, true, fit.mean(), fit.covariance(), g1, eps);
    assertTrue(
        norm(g1) < 1e-3 * norm(g0), "gradient " + norm(g1) + " vs " + norm(g0) + " at the start");
    assertTrue(fit.elbo(train) > trace.get(0));
  }

  private static double norm(double[] g) {
    double s = 0;
    for (double v : g) {
      s += v * v;
    }
    return Math.sqrt(s);
  }

  /**
   * The slope test's evaluations on a fixed batch use none of the fit's random numbers and change none of its
   * state: with them (the slope rule, never converging at a tolerance of 1e-12 nats per row) and without (the
   * windowed-means rule, which takes none), 120 stochastic iterations give the same estimates and q(u) to the bit.
   */
  @Test
  void theFixedBatchEvaluationsLeaveTheFitUnchanged() {
    RegressionData train = DenseGp.synthetic(300, 0.2, 12);
    RegressionData z = KMeans.fit(train, 10, 3, 30).centroidInputs();
    SquaredExponential start = SquaredExponential.ard(new double[] {1, 1}, 1);
    double[][] means = new double[2][];
    double[][] traces = new double[2][120];
    BoundMonitor.Rule[] rules = {
      new BoundMonitor.Rule(BoundMonitor.Test.SLOPE, 20, 1e-12), BoundMonitor.Rule.ADVI
    };
    for (int k = 0; k < 2; k++) {
      InducingOptions o = InducingOptions.defaults(30, 120, 5);
      o = o.withSchedule(o.schedule().withStopping(rules[k]));
      Dtc.Trainer t = new Dtc.Trainer(train, z, start, 0.25, o);
      for (int i = 0; i < 120; i++) {
        traces[k][i] = t.step();
      }
      means[k] = t.snapshot().mean();
    }
    assertArrayEquals(traces[0], traces[1]);
    assertArrayEquals(means[0], means[1]);
  }

  /**
   * Minibatches with the default options (decaying steps, learned hyperparameters): the fit ends by the
   * smoothed-bound rule before its cap, and at its hyperparameters the collapsed bound closes at least 90 % of the
   * gap between the start and the full-batch optimum.
   */
  @Test
  void stochasticDefaultsStopByTheBoundMonitor() {
    RegressionData train = DenseGp.synthetic(600, 0.2, 21);
    RegressionData z = KMeans.fit(train, 15, 3, 30).centroidInputs();
    SquaredExponential start = SquaredExponential.ard(new double[] {1, 1}, 1);
    InducingOptions o = InducingOptions.defaults(50, 5000, 4);
    Dtc.Trainer t = new Dtc.Trainer(train, z, start, 0.25, o);
    while (t.iteration() < o.schedule().iterations() && !t.stopped()) {
      t.step();
    }
    assertEquals(BoundMonitor.StopReason.CONVERGED, t.stopReason(), "after " + t.iteration());
    assertTrue(t.converged() && t.iteration() < 5000);
    Dtc.Fit s = t.snapshot();
    double[] p = DtcBound.params(s.kernel(), s.noiseVariance(), 2);
    InducingPosterior q = DtcBound.optimalPosterior(train, z, p, true);
    double stochastic = DtcBound.objective(train, z, p, true, q.mean(), q.covariance(), null);
    Dtc.Fit full =
        Dtc.fit(train, z, start, 0.25, InducingOptions.defaults(train.n(), 300, 4), null);
    double[] p0 = DtcBound.params(start, 0.25, 2);
    InducingPosterior q0 = DtcBound.optimalPosterior(train, z, p0, true);
    double initial = DtcBound.objective(train, z, p0, true, q0.mean(), q0.covariance(), null);
    // the collapsed bound at the learned hyperparameters closes at least 90 % of the gap from the
    // start to the
    // full-batch optimum
    double gap = full.elbo(train) - initial;
    assertTrue(
        gap > 10 && full.elbo(train) - stochastic < 0.1 * gap,
        "start " + initial + ", stochastic " + stochastic + ", full batch " + full.elbo(train));
  }

  /**
   * The stochastic fit that learns θ (Adam on minibatch gradients, natural steps on q(u), the default schedules and
   * stopping rule) ends near the full-batch collapsed optimum L*(θ̂) of the same model, from the same start (unit
   * length-scales, noise 0.25) on a wave whose fitted length-scales (≈ 0.4) put 100 inducing inputs close enough
   * together that K_uu is badly conditioned: its test RMSE within 10 % of the full-batch fit's (measured: 0.2 %),
   * its bound on all rows within 2 % of |L*| (measured: 1.3 %; the gap is mostly along the flat direction of
   * σ_f², 2.4 against 5.7).
   */
  @Test
  void stochasticFitLearningHyperparametersEndsNearTheCollapsedOptimum() {
    RegressionData train = wave(800, 11);
    RegressionData test = wave(400, 12);
    RegressionData z = KMeans.fit(train, 100, 1, 30).centroidInputs();
    SquaredExponential start = SquaredExponential.ard(new double[] {1, 1}, 1);
    Dtc.Fit full =
        Dtc.fit(train, z, start, 0.25, InducingOptions.defaults(train.n(), 1000, 1), null);
    Dtc.Fit stochastic =
        Dtc.fit(train, z, start, 0.25, InducingOptions.defaults(200, 5000, 1), null);
    double lStar = full.elbo(train);
    double l = stochastic.elbo(train);
    assertTrue(l > lStar - 0.02 * Math.abs(lStar), "bound " + l + " against L* " + lStar);
    double rmseFull = full.predict(test).rmse(test.y());
    double rmse = stochastic.predict(test).rmse(test.y());
    assertTrue(rmse < 1.1 * rmseFull, "test RMSE " + rmse + " against full batch " + rmseFull);
  }

  /** y = sin(3x₁) cos(2.5x₂) + N(0, 0.05²) on [−2, 2]², standardised scale. */
  private static RegressionData wave(int n, long seed) {
    SplittableRandom rng = new SplittableRandom(seed);
    double[][] x = new double[n][2];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      x[i][0] = rng.nextDouble(-2, 2);
      x[i][1] = rng.nextDouble(-2, 2);
      y[i] = Math.sin(3 * x[i][0]) * Math.cos(2.5 * x[i][1]) + 0.05 * rng.nextGaussian();
    }
    return RegressionData.of(x, y);
  }

  /**
   * With the fixed jitter the bound is a smooth function of the length-scale even where K_uu is numerically
   * singular: 144 inducing inputs on a 12 × 12 grid over [−1.7, 1.7]² (spacing 0.31), q(u) held at the optimum for
   * ℓ = 0.6, and ℓ swept from 1 down to 0.3 in 141 steps of Δlog ℓ = 0.0085. Along the sweep the bound rises to
   * one maximum and falls (its differences change sign once). Without the jitter (ε = 0) the factorisation
   * alternates between no jitter and {@code JitterPolicy.standard()}'s retry for ℓ above ≈ 0.7, and the bound jumps
   * erratically between −4·10⁴ and −2·10⁸ there (the minibatch spikes that froze the stochastic fit's Adam).
   */
  @Test
  void boundIsSmoothInTheLengthscaleWithTheFixedJitter() {
    RegressionData train = wave(300, 13);
    double[][] grid = new double[144][2];
    for (int i = 0; i < 144; i++) {
      grid[i][0] = -1.7 + 3.4 * (i % 12) / 11;
      grid[i][1] = -1.7 + 3.4 * (i / 12) / 11;
    }
    RegressionData z = RegressionData.of(grid, null);
    double[] at = {Math.log(0.6), Math.log(0.6), 0, Math.log(0.01)};
    Dtc.Trainer t = new Dtc.Trainer(
        train,
        z,
        SquaredExponential.ard(new double[] {0.6, 0.6}, 1),
        0.01,
        new InducingOptions(
            StochasticSchedule.of(train.n(), 1, StepSchedule.constant(1.0), 1),
            StepSchedule.constant(0.01),
            false));
    t.step();
    Dtc.Fit q = t.snapshot();
    int steps = 141;
    double[] bound = new double[steps];
    for (int s = 0; s < steps; s++) {
      double[] p = at.clone();
      p[0] = p[1] = Math.log(1.0) + (Math.log(0.3) - Math.log(1.0)) * s / (steps - 1);
      bound[s] = DtcBound.objective(
          train, z, p, true, q.mean(), q.covariance(), null, InducingPosterior.KUU_JITTER);
    }
    int signChanges = 0;
    for (int s = 2; s < steps; s++) {
      signChanges +=
          Math.signum(bound[s] - bound[s - 1]) != Math.signum(bound[s - 1] - bound[s - 2]) ? 1 : 0;
    }
    assertEquals(1, signChanges, "bound along the sweep: " + Arrays.toString(bound));
  }
}
