package org.approxgp.sparse;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.approxgp.data.RegressionData;
import org.junit.jupiter.api.Test;

/**
 * The curvature of the natural-gradient step (Svbssgp class comment, "Steps") is unbiased: the partition- and
 * minibatch-sampled Ĝ = (p/a) Σ_k (|X_i|/B) Σ_rows σ_n⁻² J Jᵀ at α ~ q has the mean E_q[Σ_all rows σ_n⁻² J Jᵀ], the
 * Gauss–Newton curvature of the whole data, computed here independently (J written out from Lemma 2's
 * f = Σ_l s_{2l} cos a_l + s_{2l+1} sin a_l, α drawn as b + M z from the η view, every row). As a control of the
 * test's power, the same sums without the minibatch weight |X_i|/B must be rejected.
 */
class SvbssgpCurvatureTest {

  @Test
  void curvatureEstimateIsUnbiased() {
    RegressionData data = SvbssgpTest.synthetic(120, 2, 0.1, 13);
    int[] labels = SvbssgpTest.sortedBlocks(data, 4);
    int m = 2;
    int d = 2;
    int dim = m * d + 2 * m;
    SvbssgpOptions o = SvbssgpOptions.defaults()
        .withM(m)
        .withPartitionsPerIteration(2)
        .withMinibatch(8)
        .withGradientSamples(1)
        .withLengthscales(0.6, 0.9)
        .withNoiseVariance(0.05)
        .withSignalVariance(0.8)
        .withSeed(6);
    SvbssgpTrainer t = new SvbssgpTrainer(data, labels, o, null);
    // a generic q: move b and give M off-diagonal entries through the η view
    double[] eta = t.eta().clone();
    UniformRandomProvider r0 = RandomSource.XO_RO_SHI_RO_128_PP.create(5L);
    for (int i = 0; i < dim; i++) {
      eta[i] += 0.3 * (r0.nextDouble() - 0.5);
      for (int j = 0; j < i; j++) {
        eta[t.triIndex(i, j)] = 0.05 * (r0.nextDouble() - 0.5);
      }
      eta[t.triIndex(i, i)] = Math.log(0.1);
    }
    t.setEta(eta);
    double noise = Math.exp(eta[t.iNoise()]);
    double[] invEll = {Math.exp(-eta[t.iNoise() + 2]), Math.exp(-eta[t.iNoise() + 3])};

    int draws = 20_000;
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(99L);
    ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(rng);
    double[] sum = new double[dim * dim];
    double[] sumSq = new double[dim * dim];
    for (int k = 0; k < draws; k++) {
      t.estimate(rng, g);
      double[] c = t.curvature().data();
      for (int i = 0; i < dim; i++) {
        for (int j = i; j < dim; j++) {
          double v = -c[i * dim + j];
          sum[i * dim + j] += v;
          sumSq[i * dim + j] += v * v;
        }
      }
    }
    // reference: E_q over z of the full-data Gauss–Newton curvature, by plain Monte Carlo over
    // every row
    int zs = 20_000;
    double[] ref = new double[dim * dim];
    double[] refSq = new double[dim * dim];
    // control: every row with weight 1 instead of |X_i|/B = 30/8 times (p/a)·… — i.e. the sums a
    // strategy that forgot
    // the minibatch weight would form, whose mean is the full curvature × B/|X_i|
    double minibatchShare = 8.0 / 30.0;
    UniformRandomProvider rz = RandomSource.XO_RO_SHI_RO_128_PP.create(42L);
    ZigguratSampler.NormalizedGaussian gz = ZigguratSampler.NormalizedGaussian.of(rz);
    double[] jac = new double[dim];
    double[] g1 = new double[dim * dim];
    for (int k = 0; k < zs; k++) {
      double[] alpha = new double[dim];
      double[] z = new double[dim];
      for (int i = 0; i < dim; i++) {
        z[i] = gz.sample();
      }
      for (int i = 0; i < dim; i++) {
        double s = eta[i];
        for (int j = 0; j < i; j++) {
          s += eta[t.triIndex(i, j)] * z[j];
        }
        alpha[i] = s + Math.exp(eta[t.triIndex(i, i)]) * z[i];
      }
      java.util.Arrays.fill(g1, 0);
      for (int row = 0; row < data.n(); row++) {
        for (int l = 0; l < m; l++) {
          double a = 0;
          for (int c = 0; c < d; c++) {
            a += alpha[l * d + c] * data.x(row, c) * invEll[c];
          }
          double s0 = alpha[m * d + 2 * l];
          double s1 = alpha[m * d + 2 * l + 1];
          jac[m * d + 2 * l] = Math.cos(a);
          jac[m * d + 2 * l + 1] = Math.sin(a);
          for (int c = 0; c < d; c++) {
            jac[l * d + c] = (-s0 * Math.sin(a) + s1 * Math.cos(a)) * data.x(row, c) * invEll[c];
          }
        }
        for (int i = 0; i < dim; i++) {
          for (int j = i; j < dim; j++) {
            g1[i * dim + j] += jac[i] * jac[j] / noise;
          }
        }
      }
      for (int i = 0; i < dim * dim; i++) {
        ref[i] += g1[i];
        refSq[i] += g1[i] * g1[i];
      }
    }
    int rejectedWrong = 0;
    int entries = 0;
    for (int i = 0; i < dim; i++) {
      for (int j = i; j < dim; j++) {
        int q = i * dim + j;
        double mean = sum[q] / draws;
        double se = Math.sqrt(Math.max(sumSq[q] / draws - mean * mean, 0) / (draws - 1));
        double rm = ref[q] / zs;
        double rse = Math.sqrt(Math.max(refSq[q] / zs - rm * rm, 0) / (zs - 1));
        double tol = 4 * Math.hypot(se, rse);
        assertTrue(
            Math.abs(mean - rm) <= tol,
            "entry (" + i + ", " + j + "): sampled " + mean + " vs full data " + rm + " (4 se "
                + tol + ")");
        if (Math.abs(mean * minibatchShare - rm) > tol) {
          rejectedWrong++;
        }
        entries++;
      }
    }
    assertTrue(
        rejectedWrong >= entries / 2,
        "the test lacks power: only " + rejectedWrong + " of " + entries
            + " entries reject the curvature without the minibatch weight");
  }
}
