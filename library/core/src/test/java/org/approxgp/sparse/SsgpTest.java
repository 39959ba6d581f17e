package org.approxgp.sparse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.approxgp.data.RegressionData;
import org.approxgp.inference.PredictiveMoments;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.Matrix;
import org.junit.jupiter.api.Test;

class SsgpTest {

  /** n rows of d inputs ~ U(−2, 2), y = Σⱼ sin(xⱼ) + N(0, 0.1²). */
  static RegressionData smallProblem(int n, int d, long seed) {
    SplittableRandom rng = new SplittableRandom(seed);
    double[][] x = new double[n][d];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < d; j++) {
        x[i][j] = rng.nextDouble(-2, 2);
        y[i] += Math.sin(x[i][j]);
      }
      y[i] += 0.1 * rng.nextGaussian();
    }
    return RegressionData.of(x, y);
  }

  /** The dense n × n covariance (σ²/m) ΦᵀΦ + σₙ² I of the finite-feature kernel (eq. 2). */
  static Matrix denseCovariance(RegressionData data, SpectralFeatures f, double s2, double sn2) {
    int n = data.n();
    Matrix k = Matrix.zeros(n, n);
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        k.set(i, j, f.kernel(data.row(i), data.row(j), s2) + (i == j ? sn2 : 0));
      }
    }
    return k;
  }

  /** (a) At fixed frequencies the m-point model's log p(y) is that of the exact GP with the feature kernel. */
  @Test
  void logMarginalLikelihoodEqualsExactGpWithFeatureKernel() {
    RegressionData data = smallProblem(40, 3, 1);
    SpectralFeatures f =
        SpectralFeatures.sample(7, new double[] {0.8, 1.3, 2.1}, new SplittableRandom(2));
    double s2 = 1.7;
    double sn2 = 0.05;
    Cholesky c = Cholesky.factor(denseCovariance(data, f, s2, sn2));
    double exact =
        -0.5 * c.quadForm(data.y()) - 0.5 * c.logDet() - 0.5 * data.n() * Math.log(2 * Math.PI);
    double ssgp = Ssgp.logMarginalLikelihood(data, f, s2, sn2);
    assertEquals(exact, ssgp, 1e-9);
    // and with more basis functions than rows (ΦᵀΦ of full rank), another noise level
    RegressionData few = smallProblem(12, 3, 3);
    SpectralFeatures g =
        SpectralFeatures.sample(9, new double[] {0.5, 0.7, 1.0}, new SplittableRandom(4));
    Cholesky c2 = Cholesky.factor(denseCovariance(few, g, 0.6, 0.3));
    double exact2 =
        -0.5 * c2.quadForm(few.y()) - 0.5 * c2.logDet() - 0.5 * few.n() * Math.log(2 * Math.PI);
    assertEquals(exact2, Ssgp.logMarginalLikelihood(few, g, 0.6, 0.3), 1e-9);
  }

  /** (d) Predictive mean and variance of y* equal the exact GP's with the feature kernel. */
  @Test
  void predictionEqualsExactGpWithFeatureKernel() {
    RegressionData data = smallProblem(35, 2, 5);
    RegressionData test = smallProblem(10, 2, 6);
    SpectralFeatures f =
        SpectralFeatures.sample(6, new double[] {0.9, 1.4}, new SplittableRandom(7));
    double s2 = 1.3;
    double sn2 = 0.02;
    PredictiveMoments p = Ssgp.condition(data, f, s2, sn2).predict(test);
    Cholesky c = Cholesky.factor(denseCovariance(data, f, s2, sn2));
    double[] alpha = c.solve(data.y());
    for (int t = 0; t < test.n(); t++) {
      double[] ks = new double[data.n()];
      for (int i = 0; i < data.n(); i++) {
        ks[i] = f.kernel(test.row(t), data.row(i), s2);
      }
      double mean = SpectralBasis.dot(ks, alpha);
      double var = f.kernel(test.row(t), test.row(t), s2) - c.quadForm(ks) + sn2;
      assertEquals(mean, p.mean()[t], 1e-10, "mean " + t);
      assertEquals(var, p.variance()[t], 1e-10, "variance " + t);
    }
  }

  /**
   * The limit of many features: with m spectral points drawn from the SE spectral density at fixed
   * hyperparameters, the feature kernel is a Monte Carlo estimate of the SE kernel with error O(1/√m)
   * (Lázaro-Gredilla et al. 2010, §2), so SSGP's predictive approaches the exact GP's. Averaged over four draws of
   * the frequencies, the largest predictive-mean and -variance differences must shrink at least threefold from
   * m = 16 to m = 1024 (the rate predicts eightfold; measured 5.0× and 7.9×: 0.189 → 0.038 and 0.108 → 0.014)
   * and end below 0.08 (mean; targets of unit scale) and 0.03 (variance), about twice the values measured.
   */
  @Test
  void manyFeaturesApproachTheExactGp() {
    RegressionData data = smallProblem(60, 2, 21);
    RegressionData test = smallProblem(20, 2, 22);
    double[] ell = {0.9, 1.4};
    double s2 = 1.1;
    double sn2 = 0.05;
    PredictiveMoments exact = DenseGp.exactPredictive(
        org.approxgp.kernel.SquaredExponential.ard(ell, s2), sn2, data, test);
    double[] meanErr = new double[2];
    double[] varErr = new double[2];
    int[] ms = {16, 1024};
    for (int a = 0; a < ms.length; a++) {
      for (int seed = 0; seed < 4; seed++) {
        SpectralFeatures f = SpectralFeatures.sample(ms[a], ell, new SplittableRandom(100 + seed));
        PredictiveMoments p = Ssgp.condition(data, f, s2, sn2).predict(test);
        meanErr[a] += DenseGp.maxAbsDiff(exact.mean(), p.mean()) / 4;
        varErr[a] += DenseGp.maxAbsDiff(exact.variance(), p.variance()) / 4;
      }
    }
    System.out.printf(
        java.util.Locale.ROOT,
        "SSGP vs exact GP: max |mean diff| %.4f (m=16) %.4f (m=1024); max |var"
            + " diff| %.4f %.4f%n",
        meanErr[0],
        meanErr[1],
        varErr[0],
        varErr[1]);
    assertTrue(meanErr[1] < meanErr[0] / 3, "mean error " + meanErr[0] + " -> " + meanErr[1]);
    assertTrue(varErr[1] < varErr[0] / 3, "variance error " + varErr[0] + " -> " + varErr[1]);
    assertTrue(meanErr[1] < 0.08, "mean error at m = 1024: " + meanErr[1]);
    assertTrue(varErr[1] < 0.03, "variance error at m = 1024: " + varErr[1]);
  }

  /** (b) The analytic gradient of −log p(y) against central differences, every parameter. */
  @Test
  void gradientMatchesCentralDifferences() {
    RegressionData data = smallProblem(50, 3, 8);
    int m = 4;
    int d = 3;
    SplittableRandom rng = new SplittableRandom(9);
    double[] p = new double[m * d + d + 2];
    for (int k = 0; k < m * d; k++) {
      p[k] = rng.nextGaussian();
    }
    p[m * d] = Math.log(0.7);
    p[m * d + 1] = Math.log(1.5);
    p[m * d + 2] = Math.log(2.5);
    p[m * d + d] = Math.log(1.2);
    p[m * d + d + 1] = Math.log(0.1);
    double[] g = new double[p.length];
    Ssgp.negLogMarginal(data, m, p, g);
    CentralDifferences.assertGradient(
        q -> Ssgp.negLogMarginal(data, m, q, null), p, g, 1e-6, "SSGP");
  }

  /** 1-D sine: y = sin(2x) + N(0, 0.1²), x ∼ U(−3, 3) (two periods); n = 400 train, 1000 test. */
  static RegressionData[] sine(long seed) {
    SplittableRandom rng = new SplittableRandom(seed);
    RegressionData[] out = new RegressionData[2];
    int[] sizes = {400, 1000};
    for (int s = 0; s < 2; s++) {
      double[] x = new double[sizes[s]];
      double[] y = new double[sizes[s]];
      for (int i = 0; i < x.length; i++) {
        x[i] = rng.nextDouble(-3, 3);
        y[i] = Math.sin(2 * x[i]) + SINE_NOISE * rng.nextGaussian();
      }
      out[s] = new RegressionData(x, x.length, 1, y);
    }
    return out;
  }

  static final double SINE_NOISE = 0.1;

  /**
   * (c) On the sine problem the fitted SSGP predicts to the noise level: test RMSE against the noisy targets
   * within 10 % of the noise standard deviation 0.1 (the RMSE of the true function is 0.1 ± 2.2 % with 1000
   * test points), and the log marginal likelihood rose during the fit.
   */
  @Test
  void fitsTheSineToTheNoiseLevel() {
    RegressionData[] s = sine(11);
    List<Double> trace = new ArrayList<>();
    Ssgp fit = Ssgp.fit(s[0], Ssgp.Options.of(10, 200, 12), (it, obj, sec) -> trace.add(obj));
    double rmse = fit.predict(s[1]).rmse(s[1].y());
    assertTrue(rmse < 1.1 * SINE_NOISE, "RMSE " + rmse + ", " + fit);
    assertTrue(fit.hyperparameters().noiseVariance() < 2 * SINE_NOISE * SINE_NOISE, fit.toString());
    assertTrue(
        trace.size() == fit.iterations() && trace.get(trace.size() - 1) > trace.get(0),
        trace.toString());
    assertEquals(
        fit.logMarginalLikelihood(), trace.get(trace.size() - 1), 1e-6 * Math.abs(trace.get(0)));
  }

  /**
   * The per-iteration snapshots (for RMSE-vs-iteration traces) are the L-BFGS iterates: the first predicts worse
   * than the last on the sine problem, and the last equals the returned fit.
   */
  @Test
  void snapshotsFollowTheIterates() {
    RegressionData[] s = sine(11);
    List<double[]> means = new ArrayList<>();
    List<Double> lml = new ArrayList<>();
    Ssgp fit = Ssgp.fit(s[0], Ssgp.Options.of(10, 200, 12), null, (it, model) -> {
      means.add(model.get().predict(s[1]).mean());
      lml.add(model.get().logMarginalLikelihood());
    });
    assertEquals(fit.iterations(), means.size());
    assertArrayEquals(fit.predict(s[1]).mean(), means.get(means.size() - 1), 1e-12);
    assertEquals(fit.logMarginalLikelihood(), lml.get(lml.size() - 1), 1e-9 * Math.abs(lml.get(0)));
    double first =
        new PredictiveMoments(means.get(0), new double[means.get(0).length]).rmse(s[1].y());
    assertTrue(first > fit.predict(s[1]).rmse(s[1].y()), "first iterate RMSE " + first);
  }

  /**
   * Early stopping on held-out rows guards against SSGP's overfitting: with 100 rows of 5 inputs (one relevant,
   * noise sd 0.3) and m = 40 frequencies (200 free frequency coordinates), the fit maximised to convergence
   * predicts 1,000 test rows with a worse MNLP than the early-stopped one, which stops because its held-out trace
   * stopped improving.
   */
  @Test
  void earlyStoppingOnHeldOutRowsBeatsTheOverfittedOptimum() {
    SplittableRandom rng = new SplittableRandom(5);
    RegressionData[] s = new RegressionData[2];
    int[] sizes = {100, 1000};
    for (int k = 0; k < 2; k++) {
      double[] x = new double[sizes[k] * 5];
      double[] y = new double[sizes[k]];
      for (int i = 0; i < sizes[k]; i++) {
        for (int j = 0; j < 5; j++) {
          x[i * 5 + j] = rng.nextGaussian();
        }
        y[i] = Math.sin(2 * x[i * 5]) + 0.3 * rng.nextGaussian();
      }
      s[k] = new RegressionData(x, sizes[k], 5, y);
    }
    Ssgp full = Ssgp.fit(s[0], Ssgp.Options.of(40, 1000, 2), null);
    Ssgp early = Ssgp.fit(s[0], Ssgp.Options.earlyStopped(40, 1000, 2), null);
    assertEquals(BoundMonitor.StopReason.EARLY_STOPPED, early.stopReason(), early.status());
    double fullMnlp = full.predict(s[1]).mnlp(s[1].y());
    double earlyMnlp = early.predict(s[1]).mnlp(s[1].y());
    assertTrue(
        earlyMnlp < fullMnlp - 0.1,
        "early " + earlyMnlp + ", converged " + fullMnlp + " (" + full + ")");
  }
}
