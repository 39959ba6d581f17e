package org.approxgp.papers.qp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.approxgp.kernel.Kernel;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.optimize.Lbfgs;
import org.junit.jupiter.api.Test;

class GpyZeroMeanVbTest {

  @Test
  void gradientsMatchCentralDifferences() {
    QpMining.CoalSplit d = QpMining.split(0, QpMining.Protocol.authors());
    double[][] x = d.xTrain();
    double[] y = d.trainCounts();
    int n = x.length;
    Kernel k = SquaredExponential.iso(3.0, 0.7);
    double[] beta = new double[n];
    for (int i = 0; i < n; i++) {
      beta[i] = 0.3 + 0.02 * i * (i % 3 == 0 ? -1 : 1);
    }
    GpyZeroMeanVb.Eval e = GpyZeroMeanVb.evaluate(k, x, y, beta);
    double h = 1e-6;
    for (int i : new int[] {0, 7, n - 1}) {
      double[] bp = beta.clone();
      double[] bm = beta.clone();
      bp[i] += h;
      bm[i] -= h;
      double fd = (GpyZeroMeanVb.evaluate(k, x, y, bp).elbo()
              - GpyZeroMeanVb.evaluate(k, x, y, bm).elbo())
          / (2 * h);
      assertEquals(fd, e.gradBeta()[i], 1e-6 * (1 + Math.abs(fd)), "β " + i);
    }
    for (int j = 0; j < 2; j++) {
      double[] tp = k.logHyperparameters();
      double[] tm = k.logHyperparameters();
      tp[j] += h;
      tm[j] -= h;
      double fd = (GpyZeroMeanVb.evaluate(k.withLogHyperparameters(tp), x, y, beta)
                  .elbo()
              - GpyZeroMeanVb.evaluate(k.withLogHyperparameters(tm), x, y, beta).elbo())
          / (2 * h);
      assertEquals(fd, e.gradTheta()[j], 1e-6 * (1 + Math.abs(fd)), "θ " + j);
    }
  }

  @Test
  void fitRaisesTheElboFromGpysStartAndPredictsModeZero() {
    QpMining.CoalSplit d = QpMining.split(1, QpMining.Protocol.authors());
    int n = d.xTrain().length;
    double[] ones = new double[n];
    java.util.Arrays.fill(ones, 1.0);
    Kernel k0 = SquaredExponential.iso(1.0, 1.0);
    double start = GpyZeroMeanVb.evaluate(k0, d.xTrain(), d.trainCounts(), ones).elbo();
    GpyZeroMeanVb.Fit fit =
        GpyZeroMeanVb.fit(k0, d.xTrain(), d.trainCounts(), Lbfgs.Settings.paper());
    assertTrue(fit.optimizer().converged(), fit.optimizer().status());
    assertTrue(fit.elbo() > start, fit.elbo() + " vs " + start);
    for (double v : fit.predictiveVariance(d.xTest())) {
      assertTrue(v > 0, "variance " + v);
      assertEquals(
          0.0, org.approxgp.likelihood.NegativeBinomialPredictive.of(0.0, v).mode());
    }
  }

  @Test
  void aLineSearchTrialWhoseLengthScaleOverflowsBacksOffInsteadOfEndingTheFit() {
    // seed 135 under the authors' protocol with the paper's start (ℓ = σ_f² = 1 switched off GPy's
    // start):
    // L-BFGS extrapolates log ℓ past exp's range; this fit used to end in IllegalArgumentException
    QpMining.Protocol p = QpMining.singleSwitches(QpMining.Protocol.authors()).get("gpyStart");
    QpMining.SeedResult r = QpMining.fit(135, java.util.List.of("vb"), p);
    QpMining.MethodResult vb = r.methods().get(0);
    assertEquals("vb", vb.method());
    assertTrue(Double.isFinite(vb.te()) && Double.isFinite(vb.ntll()), vb.toString());
    assertTrue(vb.lengthscale() > 0 && Double.isFinite(vb.lengthscale()), vb.toString());
  }
}
