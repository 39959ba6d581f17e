package org.approxgp.sparse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.approxgp.data.RegressionData;
import org.approxgp.inference.PredictiveMoments;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.linalg.Matrix;
import org.junit.jupiter.api.Test;

/**
 * PIC++ reduces to known models: one partition holding everything → exact GP (PITC's block is all of K);
 * singleton partitions → FITC (diagonal blocks); Z = X → exact GP for any partition (K − Q = 0); in general its
 * optimum and predictive are the dense PITC/PIC formulas of Snelson &amp; Ghahramani (2007).
 */
class PicTest {
  private static final SquaredExponential KERNEL =
      SquaredExponential.ard(new double[] {0.9, 1.2}, 1.3);
  private static final double NOISE = 0.05;

  /** One iteration over all blocks with step 1: the optimum q(u) = p_PITC(u | y). */
  private static Pic.Fit optimum(RegressionData train, int[] labels, RegressionData z) {
    int p = Arrays.stream(labels).max().getAsInt() + 1;
    InducingOptions once = new InducingOptions(
        StochasticSchedule.of(p, 1, StepSchedule.constant(1.0), 1),
        StepSchedule.constant(0.01),
        false);
    return Pic.fit(train, labels, z, KERNEL, NOISE, once, null);
  }

  /** The PITC training covariance Q + blkdiag(K − Q) + σ²I for the given labels. */
  private static Matrix pitc(RegressionData train, int[] labels, RegressionData z) {
    double[][] x = DenseGp.rows(train);
    Matrix q = DenseGp.nystrom(KERNEL, x, DenseGp.rows(z), x);
    Matrix k = KERNEL.matrix(x);
    int n = train.n();
    Matrix c = q.copy();
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        if (labels[i] == labels[j]) {
          c.set(i, j, k.get(i, j));
        }
      }
    }
    c.addDiagonal(NOISE);
    return c;
  }

  /** The dense PIC predictive: Cov(f*, y_j) = K*j in the test row's block, Q*j outside it. */
  private static PredictiveMoments densePic(
      RegressionData train, int[] labels, RegressionData z, RegressionData test, int[] testLabels) {
    double[][] x = DenseGp.rows(train);
    double[][] xt = DenseGp.rows(test);
    Matrix qx = DenseGp.nystrom(KERNEL, xt, DenseGp.rows(z), x);
    Matrix kx = KERNEL.cross(xt, x);
    Matrix cross = qx.copy();
    for (int t = 0; t < test.n(); t++) {
      for (int j = 0; j < train.n(); j++) {
        if (testLabels[t] == labels[j]) {
          cross.set(t, j, kx.get(t, j));
        }
      }
    }
    return DenseGp.predictive(
        pitc(train, labels, z), cross, train.y(), KERNEL.signalVariance(), NOISE);
  }

  @Test
  void onePartitionHoldingEverythingIsTheExactGp() {
    RegressionData train = DenseGp.synthetic(40, 0.2, 1);
    RegressionData z = KMeans.fit(train, 6, 1, 30).centroidInputs();
    int[] labels = new int[train.n()];
    Pic.Fit fit = optimum(train, labels, z);
    assertEquals(DenseGp.exactLogMarginal(KERNEL, NOISE, train), fit.elbo(), 1e-8);
    RegressionData test = DenseGp.synthetic(12, 0.2, 2);
    PredictiveMoments ours = fit.predict(test, new int[test.n()]);
    PredictiveMoments ref = DenseGp.exactPredictive(KERNEL, NOISE, train, test);
    assertEquals(0, DenseGp.maxAbsDiff(ref.mean(), ours.mean()), 1e-8);
    assertEquals(0, DenseGp.maxAbsDiff(ref.variance(), ours.variance()), 1e-8);
  }

  /**
   * Singleton partitions make PITC's blocks 1 × 1: the bound's optimum is FITC's log marginal likelihood, and a
   * test row in a partition without training rows gets FITC's predictive.
   */
  @Test
  void singletonPartitionsGiveFitc() {
    RegressionData train = DenseGp.synthetic(40, 0.2, 3);
    RegressionData z = KMeans.fit(train, 6, 1, 30).centroidInputs();
    int n = train.n();
    int[] labels = new int[n];
    for (int i = 0; i < n; i++) {
      labels[i] = i;
    }
    Pic.Fit fit = optimum(train, labels, z);
    double[][] x = DenseGp.rows(train);
    Matrix q = DenseGp.nystrom(KERNEL, x, DenseGp.rows(z), x);
    Matrix fitc = q.copy();
    for (int i = 0; i < n; i++) {
      fitc.set(i, i, KERNEL.signalVariance() + NOISE);
    }
    double fitcLml = DenseGp.logNormal(train.y(), fitc);
    assertEquals(fitcLml, fit.elbo(), 1e-8 * Math.abs(fitcLml));

    RegressionData test = DenseGp.synthetic(10, 0.2, 4);
    int[] far = new int[test.n()];
    Arrays.fill(far, n + 5); // no training rows in that partition
    PredictiveMoments ours = fit.predict(test, far);
    Matrix cross = DenseGp.nystrom(KERNEL, DenseGp.rows(test), DenseGp.rows(z), x);
    PredictiveMoments ref =
        DenseGp.predictive(fitc, cross, train.y(), KERNEL.signalVariance(), NOISE);
    assertEquals(0, DenseGp.maxAbsDiff(ref.mean(), ours.mean()), 1e-8);
    assertEquals(0, DenseGp.maxAbsDiff(ref.variance(), ours.variance()), 1e-8);
  }

  /** General partitions: the optimum bound is PITC's log marginal likelihood and prediction is dense PIC. */
  @Test
  void optimumAndPredictiveAreTheDensePitcAndPic() {
    RegressionData train = DenseGp.synthetic(45, 0.2, 5);
    RegressionData z = KMeans.fit(train, 5, 1, 30).centroidInputs();
    KMeans parts = KMeans.fit(train, 4, 2, 30);
    int[] labels = parts.assign(train);
    Pic.Fit fit = optimum(train, labels, z);
    double pitcLml = DenseGp.logNormal(train.y(), pitc(train, labels, z));
    assertEquals(pitcLml, fit.elbo(), 1e-8 * Math.abs(pitcLml));
    RegressionData test = DenseGp.synthetic(20, 0.2, 6);
    int[] testLabels = parts.assign(test);
    PredictiveMoments ours = fit.predict(test, testLabels);
    PredictiveMoments ref = densePic(train, labels, z, test, testLabels);
    assertEquals(0, DenseGp.maxAbsDiff(ref.mean(), ours.mean()), 1e-8);
    assertEquals(0, DenseGp.maxAbsDiff(ref.variance(), ours.variance()), 1e-8);
    // the precomputed predictor gives the same numbers, also for another q(u) of the same trainer
    PicPredictor pre = fit.predictor(test, testLabels);
    PredictiveMoments again = pre.predict(fit);
    assertEquals(0, DenseGp.maxAbsDiff(ours.mean(), again.mean()), 1e-10);
    assertEquals(0, DenseGp.maxAbsDiff(ours.variance(), again.variance()), 1e-10);
    // the local block matters: PIC differs from FITC-style prediction without it
    int[] none = new int[test.n()];
    Arrays.fill(none, 99);
    PredictiveMoments global = fit.predict(test, none);
    assertTrue(DenseGp.maxAbsDiff(global.mean(), ours.mean()) > 1e-3);
  }

  /** Z = X makes K − Q vanish: every partition gives the exact GP. */
  @Test
  void inducingAtTrainingInputsIsTheExactGpForAnyPartition() {
    RegressionData train = DenseGp.synthetic(25, 0.2, 7);
    RegressionData z = new RegressionData(train.x(), train.n(), train.d(), null);
    int[] labels = KMeans.fit(train, 3, 1, 30).assign(train);
    Pic.Fit fit = optimum(train, labels, z);
    assertEquals(DenseGp.exactLogMarginal(KERNEL, NOISE, train), fit.elbo(), 1e-7);
    RegressionData test = DenseGp.synthetic(10, 0.2, 8);
    PredictiveMoments ours = fit.predict(test, new int[test.n()]);
    PredictiveMoments ref = DenseGp.exactPredictive(KERNEL, NOISE, train, test);
    assertEquals(0, DenseGp.maxAbsDiff(ref.mean(), ours.mean()), 1e-7);
    assertEquals(0, DenseGp.maxAbsDiff(ref.variance(), ours.variance()), 1e-7);
  }

  /**
   * Sampling 2 of 20 partitions per iteration, the stochastic natural-gradient fit approaches the PITC
   * optimum: after 300 iterations the gap is below 5 % of the starting gap (hundreds of nats); it does not
   * vanish at a finite step size (the estimate of each step has variance ∝ (p/s)²).
   */
  @Test
  void stochasticBlockSamplingApproachesTheOptimum() {
    RegressionData train = DenseGp.synthetic(400, 0.2, 9);
    RegressionData z = KMeans.fit(train, 10, 1, 30).centroidInputs();
    int[] labels = KMeans.fit(train, 20, 2, 30).assign(train);
    double opt = DenseGp.logNormal(train.y(), pitc(train, labels, z));
    InducingOptions o = new InducingOptions(
        StochasticSchedule.of(2, 300, new StepSchedule(0.5, 0.05, 0.6), 3),
        StepSchedule.constant(0.01),
        false);
    Pic.Trainer t = new Pic.Trainer(train, labels, z, KERNEL, NOISE, o);
    double start = t.snapshot().elbo();
    assertTrue(start < opt - 100, "start " + start + " vs " + opt);
    for (int i = 0; i < o.schedule().iterations(); i++) {
      t.step();
    }
    Pic.Fit last = t.snapshot();
    double end = last.elbo();
    PicPredictor pre = last.predictor(train, labels);
    t.step();
    Pic.Fit next = t.snapshot();
    PredictiveMoments direct = next.predict(train, labels);
    PredictiveMoments cached = pre.predict(next);
    assertEquals(0, DenseGp.maxAbsDiff(direct.mean(), cached.mean()), 1e-9);
    assertEquals(0, DenseGp.maxAbsDiff(direct.variance(), cached.variance()), 1e-9);
    assertTrue(end <= opt + 1e-9, "a bound cannot exceed its maximum");
    assertTrue(
        opt - end < 0.05 * (opt - start), "end " + end + " vs optimum " + opt + ", start " + start);
  }

  /** ∂F/∂(log ℓ, log σ_f², log σ²) at a fixed, arbitrary q(u) against central differences (ARD and iso). */
  @Test
  void hyperparameterGradientMatchesCentralDifferences() {
    RegressionData train = DenseGp.synthetic(36, 0.2, 11);
    RegressionData z = KMeans.fit(train, 6, 2, 30).centroidInputs();
    int[] labels = KMeans.fit(train, 4, 3, 30).assign(train);
    int mM = z.n();
    SplittableRandom rng = new SplittableRandom(19);
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
    for (SquaredExponential kernel :
        new SquaredExponential[] {KERNEL, SquaredExponential.iso(0.8, 0.7)}) {
      double[] p = DtcBound.params(kernel, 0.1, 2);
      double[] g = new double[p.length];
      PicBound.objective(train, labels, z, p, kernel.isArd(), m, s, g);
      CentralDifferences.assertGradient(
          q -> PicBound.objective(train, labels, z, q, kernel.isArd(), m, s, null),
          p,
          g,
          1e-6,
          kernel.name());
    }
  }

  /** Learning the hyperparameters from a poor start raises the PITC log marginal likelihood (the optimum of F). */
  @Test
  void hyperparameterLearningImprovesThePitcEvidence() {
    RegressionData train = DenseGp.synthetic(240, 0.2, 12);
    RegressionData z = KMeans.fit(train, 8, 2, 30).centroidInputs();
    int[] labels = KMeans.fit(train, 12, 3, 30).assign(train);
    SquaredExponential poor = SquaredExponential.ard(new double[] {4, 4}, 0.3);
    InducingOptions o = new InducingOptions(
        StochasticSchedule.of(3, 200, new StepSchedule(0.5, 0.05, 0.6), 5),
        StepSchedule.constant(0.05),
        true);
    Pic.Fit fit = Pic.fit(train, labels, z, poor, 0.8, o, null);
    InducingOptions full = new InducingOptions(
        StochasticSchedule.of(12, 1, StepSchedule.constant(1.0), 1),
        StepSchedule.constant(0.01),
        false);
    double before = Pic.fit(train, labels, z, poor, 0.8, full, null).elbo();
    double after =
        Pic.fit(train, labels, z, fit.kernel(), fit.noiseVariance(), full, null).elbo();
    assertTrue(after > before + 100, "before " + before + ", after " + after);
  }

  /**
   * With every block in each iteration and learned hyperparameters, the fit is L-BFGS on the collapsed bound: it
   * stops converged before its cap, its bound never falls, its final bound is the dense PITC log marginal likelihood
   * at the learned hyperparameters (q(u) optimal), and there the gradient is ~0 relative to the start's.
   */
  @Test
  void fullBatchLearningReachesAStationaryPointOfThePitcEvidence() {
    RegressionData train = DenseGp.synthetic(120, 0.2, 13);
    RegressionData z = KMeans.fit(train, 8, 2, 30).centroidInputs();
    int[] labels = KMeans.fit(train, 6, 3, 30).assign(train);
    SquaredExponential poor = SquaredExponential.ard(new double[] {4, 4}, 0.3);
    InducingOptions o = InducingOptions.defaults(6, 300, 1);
    java.util.List<Double> trace = new java.util.ArrayList<>();
    Pic.Trainer t = new Pic.Trainer(train, labels, z, poor, 0.8, o);
    while (t.iteration() < o.schedule().iterations() && !t.stopped()) {
      trace.add(t.step());
    }
    assertTrue(t.converged() && t.iteration() < 300, t.stopReason() + " after " + t.iteration());
    for (int i = 1; i < trace.size(); i++) {
      assertTrue(
          trace.get(i) >= trace.get(i - 1) - 1e-9 * Math.abs(trace.get(i)), "bound fell at " + i);
    }
    Pic.Fit fit = t.snapshot();
    double end = trace.get(trace.size() - 1);
    assertEquals(fit.elbo(), end, 1e-9 * Math.abs(end));
    double[] p1 = DtcBound.params(fit.kernel(), fit.noiseVariance(), 2);
    double[] g1 = new double[p1.length];
    PicBound.objective(train, labels, z, p1, true, fit.mean(), fit.covariance(), g1);
    Pic.Fit start = Pic.fit(
        train,
        labels,
        z,
        poor,
        0.8,
        new InducingOptions(
            StochasticSchedule.of(6, 1, StepSchedule.constant(1.0), 1),
            StepSchedule.constant(0.01),
            false),
        null);
    double[] p0 = DtcBound.params(poor, 0.8, 2);
    double[] g0 = new double[p0.length];
    PicBound.objective(train, labels, z, p0, true, start.mean(), start.covariance(), g0);
    assertTrue(
        norm(g1) < 1e-3 * norm(g0), "gradient " + norm(g1) + " vs " + norm(g0) + " at the start");
    assertTrue(end > start.elbo() + 10, "end " + end + ", start " + start.elbo());
  }

  /**
   * Sampling blocks with the default options (decaying steps, learned hyperparameters), the fit ends by the
   * smoothed-bound rule before its cap, and the PITC evidence at the learned hyperparameters closes at least 90 % of
   * the gap between the start and the full-batch optimum.
   */
  @Test
  void stochasticDefaultsStopByTheBoundMonitor() {
    RegressionData train = DenseGp.synthetic(400, 0.2, 14);
    RegressionData z = KMeans.fit(train, 10, 1, 30).centroidInputs();
    int[] labels = KMeans.fit(train, 20, 2, 30).assign(train);
    SquaredExponential start = SquaredExponential.ard(new double[] {1, 1}, 1);
    InducingOptions o = InducingOptions.defaults(4, 5000, 3);
    Pic.Trainer t = new Pic.Trainer(train, labels, z, start, 0.25, o);
    while (t.iteration() < o.schedule().iterations() && !t.stopped()) {
      t.step();
    }
    assertEquals(BoundMonitor.StopReason.CONVERGED, t.stopReason(), "after " + t.iteration());
    assertTrue(t.iteration() < 5000);
    InducingOptions all = new InducingOptions(
        StochasticSchedule.of(20, 1, StepSchedule.constant(1.0), 1),
        StepSchedule.constant(0.01),
        false);
    Pic.Fit s = t.snapshot();
    double stochastic =
        Pic.fit(train, labels, z, s.kernel(), s.noiseVariance(), all, null).elbo();
    Pic.Fit full =
        Pic.fit(train, labels, z, start, 0.25, InducingOptions.defaults(20, 300, 3), null);
    double initial = Pic.fit(train, labels, z, start, 0.25, all, null).elbo();
    double gap = full.elbo() - initial;
    assertTrue(
        gap > 10 && full.elbo() - stochastic < 0.1 * gap,
        "start " + initial + ", stochastic " + stochastic + ", full batch " + full.elbo());
  }

  private static double norm(double[] g) {
    double s = 0;
    for (double v : g) {
      s += v * v;
    }
    return Math.sqrt(s);
  }
}
