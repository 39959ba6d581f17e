package org.approxgp.inference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.likelihood.Gaussian;
import org.approxgp.likelihood.NoisyStep;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.Matrix;
import org.junit.jupiter.api.Test;

/**
 * {@link EllipticalSliceSampler} against exact GP regression (Gaussian likelihood): the posterior is
 * N(K(K + σ²I)⁻¹ y, K − K(K + σ²I)⁻¹K) (R&amp;W eq. 2.23–2.24 at the training inputs). Error bars from the
 * chain's own effective sample sizes: a mean coordinate within 4.5 sd/√ESS, a covariance entry within 4.5
 * sd(h)/√ESS(h), h = (f_a − μ̂_a)(f_b − μ̂_b) the chain of centred products (its sd and ESS estimated from the
 * chain). 4.5 standard errors over 8 + 36 quantities: a false alarm has probability below 1e-3 even
 * ignoring correlations between them.
 */
class EllipticalSliceSamplerTest {
  static final int N = 8;

  static double[][] inputs() {
    double[][] x = new double[N][1];
    for (int i = 0; i < N; i++) {
      x[i][0] = -2 + 4.0 * i / (N - 1);
    }
    return x;
  }

  static double[] targets() {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(5L);
    double[] y = new double[N];
    double[][] x = inputs();
    for (int i = 0; i < N; i++) {
      y[i] = Math.sin(2 * x[i][0]) + 0.3 * (rng.nextDouble() - 0.5);
    }
    return y;
  }

  @Test
  void gaussianLikelihoodMatchesExactPosteriorWithinMonteCarloError() {
    double noise = 0.1;
    double[][] x = inputs();
    double[] y = targets();
    Matrix k = SquaredExponential.iso(0.8, 1.2).matrix(x);
    Matrix ky = k.copy();
    for (int i = 0; i < N; i++) {
      ky.set(i, i, ky.get(i, i) + noise);
    }
    Cholesky c = Cholesky.factor(ky);
    double[] alpha = c.solve(y);
    Matrix kinvk = c.solve(k); // (K + σ²I)⁻¹ K
    double[] mu = new double[N];
    double[][] sigma = new double[N][N];
    for (int i = 0; i < N; i++) {
      for (int j = 0; j < N; j++) {
        mu[i] += k.get(i, j) * alpha[j];
        double s = 0;
        for (int l = 0; l < N; l++) {
          s += k.get(i, l) * kinvk.get(l, j);
        }
        sigma[i][j] = k.get(i, j) - s;
      }
    }
    EllipticalSliceSampler.Result r = EllipticalSliceSampler.of(k.toArray(), y, Gaussian.of(noise))
        .seed(20261123L).burnIn(2000).thin(2).samples(20_000).run();
    System.out.println("ESS on exact GP regression (n = " + N + "): " + r);
    assertTrue(r.ess().min() > 1000, r.ess().toString());
    double[][] chain = r.chain();
    double worstMean = 0;
    double worstCov = 0;
    for (int a = 0; a < N; a++) {
      double z = Math.abs(r.mean()[a] - mu[a]) / r.meanStdError()[a];
      worstMean = Math.max(worstMean, z);
      for (int b = 0; b <= a; b++) {
        double[] h = new double[chain.length];
        double hm = 0;
        for (int t = 0; t < chain.length; t++) {
          h[t] = (chain[t][a] - r.mean()[a]) * (chain[t][b] - r.mean()[b]);
          hm += h[t];
        }
        hm /= h.length;
        double hv = 0;
        for (double v : h) {
          hv += (v - hm) * (v - hm);
        }
        hv /= h.length - 1;
        double se = Math.sqrt(hv / EllipticalSliceSampler.effectiveSampleSize(h));
        worstCov = Math.max(worstCov, Math.abs(r.covariance()[a][b] - sigma[a][b]) / se);
      }
    }
    System.out.printf("ESS vs exact: worst mean |diff|/se %.2f, worst covariance |diff|/se %.2f%n", worstMean,
        worstCov);
    assertTrue(worstMean < 4.5, "mean off by " + worstMean + " standard errors");
    assertTrue(worstCov < 4.5, "covariance off by " + worstCov + " standard errors");
  }

  @Test
  void sameSeedIsBitReproducibleAndOtherSeedsDiffer() {
    double[][] k = SquaredExponential.iso(1.0, 1.0).matrix(inputs()).toArray();
    double[] labels = {1, 1, -1, 1, -1, -1, 1, -1};
    EllipticalSliceSampler s = EllipticalSliceSampler.of(k, labels, NoisyStep.of(0.1)).burnIn(100).samples(500);
    EllipticalSliceSampler.Result a = s.seed(3).run();
    EllipticalSliceSampler.Result b = s.seed(3).run();
    assertArrayEquals(a.mean(), b.mean(), 0.0);
    for (int i = 0; i < N; i++) {
      assertArrayEquals(a.covariance()[i], b.covariance()[i], 0.0);
    }
    assertEquals(a.likelihoodEvaluations(), b.likelihoodEvaluations());
    EllipticalSliceSampler.Result c = s.seed(4).run();
    assertTrue(c.mean()[0] != a.mean()[0]);
    assertEquals(500, a.samples());
  }

  /** ESS of known chains: i.i.d. draws ≈ N; an AR(1) chain with coefficient φ ≈ N (1 − φ)/(1 + φ). */
  @Test
  void effectiveSampleSizeOfKnownChains() {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(11L);
    var g = org.apache.commons.rng.sampling.distribution.ZigguratSampler.NormalizedGaussian.of(rng);
    int n = 100_000;
    double[] iid = new double[n];
    double[] ar = new double[n];
    double phi = 0.8;
    for (int t = 0; t < n; t++) {
      iid[t] = g.sample();
      ar[t] = (t == 0 ? 0 : phi * ar[t - 1]) + Math.sqrt(1 - phi * phi) * g.sample();
    }
    double essIid = EllipticalSliceSampler.effectiveSampleSize(iid);
    double essAr = EllipticalSliceSampler.effectiveSampleSize(ar);
    // estimator noise: a few percent at N = 1e5 (Geyer 1992)
    assertEquals(1.0, essIid / n, 0.06, "iid ESS " + essIid);
    assertEquals((1 - phi) / (1 + phi), essAr / n, 0.015, "AR(1) ESS " + essAr);
  }

  @Test
  void rejectsBadOptions() {
    double[][] k = {{1, 0}, {0, 1}};
    double[] y = {1, -1};
    var s = EllipticalSliceSampler.of(k, y, NoisyStep.of(0.1));
    assertThrows(IllegalArgumentException.class, () -> s.thin(0));
    assertThrows(IllegalArgumentException.class, () -> s.burnIn(-1));
    assertThrows(IllegalArgumentException.class, () -> s.samples(2));
    assertThrows(IllegalArgumentException.class, () -> EllipticalSliceSampler.of(k, new double[] {1, 0},
        NoisyStep.of(0.1)));
    assertThrows(IllegalArgumentException.class, () -> EllipticalSliceSampler.of(new double[][] {{1}}, y,
        NoisyStep.of(0.1)));
  }
}
