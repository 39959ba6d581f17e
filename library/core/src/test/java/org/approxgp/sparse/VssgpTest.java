package org.approxgp.sparse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.approxgp.data.RegressionData;
import org.approxgp.inference.PredictiveMoments;
import org.approxgp.linalg.Cholesky;
import org.approxgp.special.GaussHermite;
import org.junit.jupiter.api.Test;

class VssgpTest {

  /** Random packed parameters: μ_ω ∼ N(0, 1), s_ω ∈ [0.05, 0.5], q(a) with a random mean and Cholesky factor. */
  static double[] randomParameters(int m, int d, Ssgp.Hyperparameters h, long seed) {
    SplittableRandom rng = new SplittableRandom(seed);
    int k = 2 * m;
    double[] muW = new double[m * d];
    double[] sW = new double[m * d];
    for (int t = 0; t < m * d; t++) {
      muW[t] = rng.nextGaussian();
      sW[t] = rng.nextDouble(0.05, 0.5);
    }
    double[] muA = new double[k];
    double[] l = new double[k * k];
    for (int a = 0; a < k; a++) {
      muA[a] = 0.5 * rng.nextGaussian();
      for (int b = 0; b < a; b++) {
        l[a * k + b] = 0.1 * rng.nextGaussian();
      }
      l[a * k + a] = rng.nextDouble(0.1, 0.4);
    }
    return VssgpParameters.pack(m, d, muW, sW, h, muA, l);
  }

  /** The analytic gradient of the bound against central differences, every parameter, full batch and minibatch. */
  @Test
  void gradientMatchesCentralDifferences() {
    RegressionData data = SsgpTest.smallProblem(40, 2, 21);
    int m = 3;
    Ssgp.Hyperparameters h = new Ssgp.Hyperparameters(new double[] {0.8, 1.4}, 1.3, 0.2);
    double[] p = randomParameters(m, 2, h, 22);
    int[][] batches = {null, {3, 7, 7, 19, 30, 0, 12}};
    for (int[] rows : batches) {
      double[] g = new double[p.length];
      Vssgp.evaluate(data, rows, m, p, g);
      CentralDifferences.assertGradient(
          q -> Vssgp.evaluate(data, rows, m, q, null).value(),
          p,
          g,
          1e-6,
          rows == null ? "full" : "batch");
    }
  }

  /**
   * The collapsed bound ({@code VssgpBound.collapsed}, L-BFGS's objective in full batch) equals the bound at the
   * optimal q(a) ({@code Vssgp.optimalWeights}, then {@code Vssgp.evaluate}), value and gradient in q(ω) and the
   * hyperparameters, over two blocks of rows, with the first pass's expectations kept or recomputed.
   */
  @Test
  void collapsedBoundEqualsTheBoundAtTheOptimalWeights() {
    RegressionData data = SsgpTest.smallProblem(300, 2, 31);
    int m = 4;
    Ssgp.Hyperparameters h = new Ssgp.Hyperparameters(new double[] {0.7, 1.9}, 1.6, 0.15);
    for (long seed : new long[] {32, 33}) {
      double[] p = randomParameters(m, 2, h, seed);
      Vssgp.optimalWeights(data, null, m, p);
      double[] g = new double[p.length];
      double want = Vssgp.evaluate(data, null, m, p, g).value();
      int nq = VssgpParameters.offMuA(m, 2);
      double[] x = java.util.Arrays.copyOf(p, nq);
      for (long keep : new long[] {VssgpBound.KEEP_ROWS, 0}) {
        double[] gc = new double[nq];
        double got = VssgpBound.collapsed(data, m, x, gc, keep);
        assertEquals(want, got, 1e-10 * Math.abs(want), "value, keep " + keep);
        assertEquals(want, VssgpBound.collapsed(data, m, x, null, keep), 1e-10 * Math.abs(want));
        for (int k = 0; k < nq; k++) {
          assertEquals(
              g[k], gc[k], 1e-8 * Math.max(1, Math.abs(g[k])), "param " + k + ", keep " + keep);
        }
      }
    }
  }

  /** The collapsed bound's gradient against central differences of its value (which re-optimises q(a) at each). */
  @Test
  void collapsedGradientMatchesCentralDifferences() {
    RegressionData data = SsgpTest.smallProblem(60, 2, 41);
    int m = 3;
    Ssgp.Hyperparameters h = new Ssgp.Hyperparameters(new double[] {0.9, 1.2}, 1.1, 0.3);
    int nq = VssgpParameters.offMuA(m, 2);
    double[] x = java.util.Arrays.copyOf(randomParameters(m, 2, h, 42), nq);
    double[] g = new double[nq];
    VssgpBound.collapsed(data, m, x, g);
    CentralDifferences.assertGradient(
        q -> VssgpBound.collapsed(data, m, q, null), x, g, 1e-6, "collapsed");
  }

  /**
   * The expected squared residual E_q[(y − φ(x)ᵀa)²] from the closed-form feature expectations equals its
   * Gauss–Hermite quadrature over the two frequency arguments (m = 2), and so does the predictive variance
   * E_q[(φ(x)ᵀa)²] − E_q[φ(x)ᵀa]² + σₙ².
   */
  @Test
  void featureExpectationsMatchQuadrature() {
    int m = 2;
    int d = 2;
    Ssgp.Hyperparameters h = new Ssgp.Hyperparameters(new double[] {0.7, 1.9}, 1.1, 0.3);
    double[] p = randomParameters(m, d, h, 23);
    double[] x = {0.9, -1.4};
    double y = 0.37;
    RegressionData one = new RegressionData(x.clone(), 1, d, new double[] {y});
    double ell = Vssgp.evaluate(one, null, m, p, null).expectedLogLikelihood();
    double closedForm =
        -2 * h.noiseVariance() * (ell + 0.5 * Math.log(2 * Math.PI * h.noiseVariance()));
    double[] mk = new double[m];
    double[] vk = new double[m];
    double[] ellv = h.lengthscales();
    for (int k = 0; k < m; k++) {
      for (int j = 0; j < d; j++) {
        double u = x[j] / ellv[j];
        mk[k] += p[k * d + j] * u;
        vk[k] += Math.exp(p[m * d + k * d + j]) * u * u;
      }
    }
    Vssgp fitted = vssgpAt(m, d, p);
    double[] muA = fitted.weightMean();
    double[] s = fitted.weightCovariance().data();
    GaussHermite gh = GaussHermite.of(60);
    double e2 = gh.expectNormal(
        mk[0],
        vk[0],
        z0 -> gh.expectNormal(mk[1], vk[1], z1 -> {
          double[] phi = {Math.cos(z0), Math.sin(z0), Math.cos(z1), Math.sin(z1)};
          double f = SpectralBasis.dot(phi, muA);
          double quad = 0;
          for (int a = 0; a < 4; a++) {
            for (int b = 0; b < 4; b++) {
              quad += phi[a] * s[a * 4 + b] * phi[b];
            }
          }
          return (y - f) * (y - f) + quad;
        }));
    assertEquals(e2, closedForm, 1e-12);
    double mean = gh.expectNormal(
        mk[0],
        vk[0],
        z0 -> gh.expectNormal(
            mk[1],
            vk[1],
            z1 -> SpectralBasis.dot(
                new double[] {Math.cos(z0), Math.sin(z0), Math.cos(z1), Math.sin(z1)}, muA)));
    double second = gh.expectNormal(
        mk[0],
        vk[0],
        z0 -> gh.expectNormal(mk[1], vk[1], z1 -> {
          double[] phi = {Math.cos(z0), Math.sin(z0), Math.cos(z1), Math.sin(z1)};
          double f = SpectralBasis.dot(phi, muA);
          double quad = 0;
          for (int a = 0; a < 4; a++) {
            for (int b = 0; b < 4; b++) {
              quad += phi[a] * s[a * 4 + b] * phi[b];
            }
          }
          return f * f + quad;
        }));
    PredictiveMoments pr = fitted.predict(new RegressionData(x.clone(), 1, d, null));
    assertEquals(mean, pr.mean()[0], 1e-12);
    assertEquals(second - mean * mean + h.noiseVariance(), pr.variance()[0], 1e-12);
  }

  /** A Vssgp holding the packed parameters p (0 Adam steps, then the parameters replaced). */
  static Vssgp vssgpAt(int m, int d, double[] p) {
    return Vssgp.fromParameters(m, d, p);
  }

  /**
   * As the frequency variances vanish, the bound without its KL(q(ω) ‖ p(ω)) term (which diverges) is at most the
   * SSGP log marginal likelihood at the frequency means, with equality when q(a) is the exact posterior
   * N(A⁻¹Φy, σₙ²A⁻¹) — also when q(a) is set by {@code optimalWeights}; any other q(a) is strictly below.
   */
  @Test
  void boundMeetsSsgpEvidenceInTheZeroVarianceLimit() {
    RegressionData data = SsgpTest.smallProblem(60, 2, 24);
    int m = 4;
    int d = 2;
    Ssgp.Hyperparameters h = new Ssgp.Hyperparameters(new double[] {0.9, 1.6}, 1.2, 0.05);
    SplittableRandom rng = new SplittableRandom(25);
    double[] muW = new double[m * d];
    double[] sW = new double[m * d];
    for (int t = 0; t < m * d; t++) {
      muW[t] = rng.nextGaussian();
      sW[t] = 1e-30;
    }
    SpectralFeatures f = SpectralBasis.toFeatures(muW, h.lengthscales(), d);
    Ssgp ssgp = Ssgp.condition(data, f, h.signalVariance(), h.noiseVariance());
    double lml = ssgp.logMarginalLikelihood();
    double[] l = Cholesky.factor(ssgp.weightCovariance()).lower().data();
    double[] p = VssgpParameters.pack(m, d, muW, sW, h, ssgp.weightMean(), l);
    Vssgp.Bound exact = Vssgp.evaluate(data, null, m, p, null);
    assertEquals(lml, exact.expectedLogLikelihood() - exact.klWeights(), 1e-9 * Math.abs(lml));
    double[] q = p.clone();
    Vssgp.optimalWeights(data, null, m, q);
    Vssgp.Bound opt = Vssgp.evaluate(data, null, m, q, null);
    assertEquals(lml, opt.expectedLogLikelihood() - opt.klWeights(), 1e-9 * Math.abs(lml));
    double[] muA = ssgp.weightMean();
    for (int a = 0; a < muA.length; a++) {
      muA[a] += 0.05 * rng.nextGaussian();
    }
    for (int t = 0; t < l.length; t++) {
      l[t] *= 0.7;
    }
    Vssgp.Bound off =
        Vssgp.evaluate(data, null, m, VssgpParameters.pack(m, d, muW, sW, h, muA, l), null);
    assertTrue(off.expectedLogLikelihood() - off.klWeights() < lml - 1e-3, off + " vs " + lml);
  }

  /**
   * On the sine problem VSSGP fitted by Adam on minibatches of 50 predicts near the noise level: test RMSE
   * within 15 % of σ = 0.1, and the full-data bound rose from the initial one.
   */
  @Test
  void fitsTheSineToTheNoiseLevel() {
    RegressionData[] s = SsgpTest.sine(11);
    List<Double> trace = new ArrayList<>();
    Vssgp.Options o = new Vssgp.Options(
        10,
        StochasticSchedule.of(50, 3000, StepSchedule.constant(0.02), 13),
        Optional.empty(),
        0.01);
    Vssgp fit = Vssgp.fit(s[0], o, (it, obj, sec) -> trace.add(obj));
    Vssgp start = Vssgp.fit(
        s[0],
        new Vssgp.Options(
            10,
            StochasticSchedule.of(50, 0, StepSchedule.constant(0.02), 13),
            Optional.empty(),
            0.01),
        null);
    double rmse = fit.predict(s[1]).rmse(s[1].y());
    assertTrue(rmse < 1.15 * SsgpTest.SINE_NOISE, "RMSE " + rmse + ", " + fit);
    assertTrue(fit.bound(s[0]).value() > start.bound(s[0]).value());
    assertEquals(3000, trace.size());
  }

  /** The per-step snapshots are the Adam iterates: one per step, the last equal to the returned fit. */
  @Test
  void snapshotsFollowTheSteps() {
    RegressionData[] s = SsgpTest.sine(11);
    Vssgp.Options o = new Vssgp.Options(
        10, StochasticSchedule.of(50, 40, StepSchedule.constant(0.02), 13), Optional.empty(), 0.01);
    List<double[]> means = new ArrayList<>();
    Vssgp fit = Vssgp.fit(
        s[0], o, null, (it, model) -> means.add(model.get().predict(s[1]).mean()));
    assertEquals(40, means.size());
    assertArrayEquals(fit.predict(s[1]).mean(), means.get(39), 1e-12);
    assertTrue(Math.abs(means.get(0)[0] - means.get(39)[0]) > 1e-6, "the snapshots do not move");
  }

  /**
   * Full batch (batch size 0): L-BFGS on the collapsed bound stops converged before its cap at a stationary point
   * of the bound (the gradient in q(ω) and the hyperparameters, with q(a) optimal, is ~0 relative to its size at
   * the start), predicts the sine near the noise level, and its snapshots are its iterates.
   */
  @Test
  void fullBatchConvergesToAStationaryPoint() {
    RegressionData[] s = SsgpTest.sine(11);
    int m = 10;
    List<Double> trace = new ArrayList<>();
    List<double[]> means = new ArrayList<>();
    Vssgp fit = Vssgp.fit(
        s[0],
        new Vssgp.Options(
            m,
            StochasticSchedule.fullBatch(2000, StepSchedule.constant(0.01), 13),
            Optional.empty(),
            0.01),
        (it, obj, sec) -> trace.add(obj),
        (it, model) -> means.add(model.get().predict(s[1]).mean()));
    Vssgp start = Vssgp.fit(
        s[0],
        new Vssgp.Options(
            m,
            StochasticSchedule.fullBatch(0, StepSchedule.constant(0.01), 13),
            Optional.empty(),
            0.01),
        null);
    assertTrue(fit.iterations() > 0 && fit.iterations() < 2000, "iterations " + fit.iterations());
    assertEquals(fit.iterations(), trace.size());
    assertEquals(fit.iterations(), means.size());
    assertArrayEquals(fit.predict(s[1]).mean(), means.get(means.size() - 1), 1e-12);
    assertEquals(
        fit.bound(s[0]).value(), trace.get(trace.size() - 1), 1e-9 * Math.abs(trace.get(0)));
    int nq = 2 * m * s[0].d() + s[0].d() + 2;
    double[] g0 = new double[start.parameters().length];
    Vssgp.evaluate(s[0], null, m, start.parameters(), g0);
    double[] g = new double[g0.length];
    Vssgp.evaluate(s[0], null, m, fit.parameters(), g);
    assertTrue(
        norm(g, nq) < 1e-3 * norm(g0, nq), norm(g, nq) + " vs " + norm(g0, nq) + " at the start");
    assertTrue(fit.bound(s[0]).value() > start.bound(s[0]).value());
    double rmse = fit.predict(s[1]).rmse(s[1].y());
    assertTrue(rmse < 1.15 * SsgpTest.SINE_NOISE, "RMSE " + rmse + ", " + fit);
  }

  /**
   * Full batch under a slope rule: each L-BFGS run also stops when the slope test on its exact bound finds it
   * settled. The run is the rule-free run cut short (L-BFGS is deterministic: the same iterates up to the stop), it
   * reports converged with the test's evidence within the tolerance, and a windowed-means rule changes nothing in full
   * batch (the sVBSSGP paper's stored full-batch runs name it). One start (s₀ = 1), so both runs keep the same.
   */
  @Test
  void fullBatchStopsBySlopeTestOnItsExactBound() {
    RegressionData[] s = SsgpTest.sine(11);
    int m = 10;
    StochasticSchedule free = StochasticSchedule.fullBatch(2000, StepSchedule.constant(0.01), 13);
    List<double[]> freeMeans = new ArrayList<>();
    Vssgp unruled = Vssgp.fit(
        s[0],
        new Vssgp.Options(m, free, Optional.empty(), 1.0),
        null,
        (it, model) -> freeMeans.add(model.get().predict(s[1]).mean()));
    BoundMonitor.Rule slope = new BoundMonitor.Rule(BoundMonitor.Test.SLOPE, 20, 0.05);
    Vssgp ruled = Vssgp.fit(
        s[0], new Vssgp.Options(m, free.withStopping(slope), Optional.empty(), 1.0), null);
    assertEquals(BoundMonitor.StopReason.CONVERGED, ruled.stopReason());
    assertTrue(
        ruled.iterations() >= 40 && ruled.iterations() < unruled.iterations(),
        ruled.iterations() + " vs " + unruled.iterations() + " without the rule");
    assertArrayEquals(
        freeMeans.get(ruled.iterations() - 1), ruled.predict(s[1]).mean(), 0.0, "the same iterate");
    BoundMonitor.SlopeTest t = ruled.lastSlopeTest();
    assertTrue(t != null && t.iterations() >= 20, String.valueOf(t));
    assertTrue(
        (t.slope() + BoundMonitor.Z * t.standardError()) * t.iterations() <= 0.05, t.toString());
    assertTrue(
        (t.slope() - BoundMonitor.Z * t.standardError()) * t.iterations() >= -0.05, t.toString());
    assertEquals(null, unruled.lastSlopeTest());
    Vssgp means = Vssgp.fit(
        s[0],
        new Vssgp.Options(m, free.withStopping(BoundMonitor.Rule.ADVI), Optional.empty(), 1.0),
        null);
    assertEquals(unruled.iterations(), means.iterations());
    assertEquals(unruled.stopReason(), means.stopReason());
    assertArrayEquals(unruled.predict(s[1]).mean(), means.predict(s[1]).mean(), 0.0);
  }

  private static double norm(double[] g, int k) {
    double s = 0;
    for (int t = 0; t < k; t++) {
      s += g[t] * g[t];
    }
    return Math.sqrt(s);
  }

  /**
   * Minibatches with the default options (natural steps for q(a), decaying Adam steps, the stopping rule): the fit
   * ends converged before its cap and predicts the sine near the noise level.
   */
  @Test
  void minibatchDefaultsStopByTheBoundMonitor() {
    RegressionData[] s = SsgpTest.sine(11);
    Vssgp fit = Vssgp.fit(s[0], Vssgp.Options.of(10, 5000, 50, 13), null);
    assertEquals(BoundMonitor.StopReason.CONVERGED, fit.stopReason(), "after " + fit.iterations());
    assertTrue(fit.iterations() < 5000);
    double rmse = fit.predict(s[1]).rmse(s[1].y());
    assertTrue(rmse < 1.15 * SsgpTest.SINE_NOISE, "RMSE " + rmse + ", " + fit);
  }

  /**
   * A line search's trial point may push a log length-scale past exp's range (here, from unit length-scales on
   * nine inputs of which seven are irrelevant, to 0 by underflow): the full-batch fit treats it as an infinite
   * objective and steps back, instead of failing with the constructor's "length-scales must be positive and
   * finite" (which it did on these data, seed 9). The fit ends at a finite bound with finite predictions.
   */
  @Test
  void fullBatchSurvivesATrialStepThatOverflowsALengthscale() {
    SplittableRandom r = new SplittableRandom(9);
    int n = 300;
    int d = 9;
    double[][] x = new double[n][d];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < d; j++) {
        x[i][j] = r.nextGaussian();
      }
      y[i] = x[i][0] + 0.3 * x[i][1] * x[i][1] + 0.3 * r.nextGaussian();
    }
    RegressionData train = RegressionData.of(x, y);
    double[] ones = new double[d];
    java.util.Arrays.fill(ones, 1.0);
    Vssgp fit = Vssgp.fit(
        train,
        new Vssgp.Options(
            20,
            StochasticSchedule.fullBatch(1000, StepSchedule.constant(0.01), 9),
            Optional.of(new Ssgp.Hyperparameters(ones, 1, 0.25)),
            0.01),
        null);
    assertTrue(Double.isFinite(fit.bound(train).value()), fit.toString());
    for (double v : fit.predict(train).mean()) {
      assertTrue(Double.isFinite(v), fit.toString());
    }
    assertTrue(fit.converged(), fit.stopReason() + " " + fit);
  }
}
