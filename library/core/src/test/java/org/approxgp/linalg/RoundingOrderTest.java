package org.approxgp.linalg;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;

/**
 * The Java kernels that work on several rows at once round exactly as the plain one-row loops (each row's terms
 * added in column order): {@link Matrix#mult(double[])} and {@link Cholesky#solveLower}, to the bit, for every
 * row count modulo the unrolling. Stored results are reproduced to the bit, so their order of additions is
 * part of their contract.
 */
class RoundingOrderTest {

  private static double[] gaussians(UniformRandomProvider rng, int n) {
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      // a spread of magnitudes, so that a different order of additions rounds differently
      v[i] = (rng.nextDouble() - 0.5) * Math.pow(10, 6 * rng.nextDouble() - 3);
    }
    return v;
  }

  @Test
  void multRoundsAsOneRowAtATime() {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(11);
    for (int rows = 1; rows <= 13; rows++) {
      int cols = 2 + rows % 5 * 7;
      double[] a = gaussians(rng, rows * cols);
      double[] v = gaussians(rng, cols);
      double[] got = Matrix.wrap(rows, cols, a.clone()).mult(v);
      for (int i = 0; i < rows; i++) {
        double s = 0;
        for (int j = 0; j < cols; j++) {
          s += a[i * cols + j] * v[j];
        }
        assertEquals(
            Double.doubleToRawLongBits(s),
            Double.doubleToRawLongBits(got[i]),
            rows + " rows, row " + i);
      }
    }
  }

  @Test
  void solveLowerRoundsAsOneRowAtATime() {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(12);
    for (int n = 1; n <= 13; n++) {
      double[] l = new double[n * n];
      for (int i = 0; i < n; i++) {
        for (int k = 0; k < i; k++) {
          l[i * n + k] = rng.nextDouble() - 0.5;
        }
        l[i * n + i] = 0.5 + rng.nextDouble();
      }
      double[] b = gaussians(rng, n);
      double[] got = Cholesky.ofFactor(Matrix.wrap(n, n, l.clone())).solveLower(b);
      double[] x = b.clone();
      for (int i = 0; i < n; i++) {
        double s = x[i];
        for (int k = 0; k < i; k++) {
          s -= l[i * n + k] * x[k];
        }
        x[i] = s / l[i * n + i];
        assertEquals(
            Double.doubleToRawLongBits(x[i]),
            Double.doubleToRawLongBits(got[i]),
            "n = " + n + ", x" + i);
      }
    }
  }
}
