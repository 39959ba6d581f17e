package org.approxgp.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.approxgp.special.Autocovariance;
import org.junit.jupiter.api.Test;

/** Rank-normalised split-R-hat and bulk ESS on chains whose answers are known. */
class ChainDiagnosticsTest {

  /** M chains of AR(1) x_t = φ x_{t−1} + √(1 − φ²) e_t (stationary N(0, 1)), each started at a stationary draw. */
  private static double[][] ar1(int m, int n, double phi, long seed) {
    double[][] c = new double[m][n];
    for (int j = 0; j < m; j++) {
      UniformRandomProvider rng = Streams.of(seed, j);
      ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(rng);
      double x = g.sample();
      for (int t = 0; t < n; t++) {
        x = phi * x + Math.sqrt(1 - phi * phi) * g.sample();
        c[j][t] = x;
      }
    }
    return c;
  }

  @Test
  void independentDrawsHaveRhatNearOneAndEssNearTheirNumber() {
    ChainDiagnostics.Result r = ChainDiagnostics.of(ar1(4, 5000, 0, 1));
    assertTrue(r.rhat() < 1.005, "R-hat of iid chains " + r.rhat());
    // ESS of 20,000 iid draws: its estimator's relative sd is a few per cent
    assertEquals(20_000, r.bulkEss(), 0.1 * 20_000, "bulk ESS of iid draws");
  }

  @Test
  void autocorrelatedChainsHaveTheAr1Ess() {
    double phi = 0.9;
    ChainDiagnostics.Result r = ChainDiagnostics.of(ar1(4, 20_000, phi, 2));
    // AR(1): τ = (1 + φ)/(1 − φ) = 19, so ESS = 80,000/19 ≈ 4211
    double expected = 80_000 * (1 - phi) / (1 + phi);
    assertEquals(expected, r.bulkEss(), 0.15 * expected, "bulk ESS of AR(1) chains, phi 0.9");
    assertTrue(r.rhat() < 1.01, "R-hat " + r.rhat());
  }

  @Test
  void chainsThatDisagreeInLocationOrScaleHaveLargeRhat() {
    double[][] c = ar1(4, 2000, 0.5, 3);
    for (int t = 0; t < 2000; t++) {
      c[3][t] += 1.0; // one chain shifted by one sd
    }
    assertTrue(
        ChainDiagnostics.of(c).rhat() > 1.05,
        "shifted chain: R-hat " + ChainDiagnostics.of(c).rhat());
    double[][] s = ar1(4, 2000, 0.5, 4);
    for (int t = 0; t < 2000; t++) {
      s[3][t] *= 3.0; // same centre, three times the spread: only the folded R-hat sees it
    }
    assertTrue(
        ChainDiagnostics.of(s).rhat() > 1.05,
        "over-dispersed chain: R-hat " + ChainDiagnostics.of(s).rhat());
  }

  @Test
  void fftAutocovarianceEqualsTheDirectSum() {
    double[] x = ar1(1, 777, 0.7, 5)[0];
    double[] g = Autocovariance.of(x);
    double mean = 0;
    for (double v : x) {
      mean += v;
    }
    mean /= x.length;
    for (int k : new int[] {0, 1, 2, 10, 300, 776}) {
      double s = 0;
      for (int t = 0; t + k < x.length; t++) {
        s += (x[t] - mean) * (x[t + k] - mean);
      }
      assertEquals(s / x.length, g[k], 1e-12, "autocovariance at lag " + k);
    }
  }
}
