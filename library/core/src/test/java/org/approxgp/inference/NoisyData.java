package org.approxgp.inference;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.apache.commons.rng.simple.RandomSource;

/**
 * Seeded synthetic 2-D classification data in the spirit of Qi &amp; Guo §6.2 (the paper gives no means
 * or covariances): class +1 from N((0, 0), I), class −1 from an equal mixture of N((−2.5, 1.5), 0.5 I) and
 * N((2.5, −1.5), 0.5 I); n/2 points per class; each label flipped independently with probability
 * {@code flip}.
 */
final class NoisyData {
  final double[][] x;
  final double[] y;

  private NoisyData(double[][] x, double[] y) {
    this.x = x;
    this.y = y;
  }

  static NoisyData of(long seed, int n, double flip) {
    UniformRandomProvider rng = RandomSource.SPLIT_MIX_64.create(seed);
    ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(rng);
    double[][] x = new double[n][2];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      boolean positive = i % 2 == 0;
      if (positive) {
        x[i][0] = g.sample();
        x[i][1] = g.sample();
      } else {
        double s = rng.nextBoolean() ? 1 : -1;
        x[i][0] = s * 2.5 + Math.sqrt(0.5) * g.sample();
        x[i][1] = -s * 1.5 + Math.sqrt(0.5) * g.sample();
      }
      y[i] = positive ? 1 : -1;
      if (rng.nextDouble() < flip) {
        y[i] = -y[i];
      }
    }
    return new NoisyData(x, y);
  }
}
