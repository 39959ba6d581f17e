package org.approxgp.inference;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.approxgp.kernel.Kernel;
import org.approxgp.kernel.SquaredExponential;

/** Small seeded random problems for the consistency and gradient tests. */
final class SmallProblems {
  private SmallProblems() {}

  /** n × d inputs uniform on [−2, 2]. */
  static double[][] inputs(long seed, int n, int d) {
    UniformRandomProvider rng = RandomSource.SPLIT_MIX_64.create(seed);
    double[][] x = new double[n][d];
    for (double[] row : x) {
      for (int j = 0; j < d; j++) {
        row[j] = -2 + 4 * rng.nextDouble();
      }
    }
    return x;
  }

  /** ±1 labels from sign(sin(x₀ + x₁…) + noise), seeded. */
  static double[] labels(long seed, double[][] x) {
    UniformRandomProvider rng = RandomSource.SPLIT_MIX_64.create(seed + 1);
    double[] y = new double[x.length];
    for (int i = 0; i < x.length; i++) {
      double s = 0;
      for (double v : x[i]) {
        s += v;
      }
      y[i] = Math.sin(1.5 * s) + 0.6 * (rng.nextDouble() - 0.5) >= 0 ? 1.0 : -1.0;
    }
    return y;
  }

  /** Real targets sin(x₀ + …) + 0.3 + noise. */
  static double[] targets(long seed, double[][] x) {
    UniformRandomProvider rng = RandomSource.SPLIT_MIX_64.create(seed + 2);
    double[] y = new double[x.length];
    for (int i = 0; i < x.length; i++) {
      double s = 0;
      for (double v : x[i]) {
        s += v;
      }
      y[i] = Math.sin(s) + 0.3 + 0.2 * (rng.nextDouble() - 0.5);
    }
    return y;
  }

  static Kernel iso() {
    return SquaredExponential.iso(0.9, 1.7);
  }

  static Kernel ard(int d) {
    double[] ell = new double[d];
    for (int j = 0; j < d; j++) {
      ell[j] = 0.7 + 0.4 * j;
    }
    return SquaredExponential.ard(ell, 1.3);
  }
}
