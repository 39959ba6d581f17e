package org.approxgp.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.approxgp.linalg.Matrix;
import org.junit.jupiter.api.Test;

/**
 * The SE kernel matrix, which forms several distances at a time, equals its cross-covariance of the inputs with
 * themselves (one distance at a time) to the bit: every squared distance is added up over the coordinates in the
 * same order. Stored results are reproduced to the bit, so that order is part of the contract.
 */
class KernelMatrixRoundingTest {

  @Test
  void matrixEqualsCrossWithItself() {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(5);
    for (int n = 1; n <= 11; n++) {
      int d = 1 + n % 4 * 5;
      double[][] x = new double[n][d];
      double[] ls = new double[d];
      for (int c = 0; c < d; c++) {
        ls[c] = 0.3 + 3 * rng.nextDouble();
        for (int i = 0; i < n; i++) {
          x[i][c] = 4 * rng.nextDouble() - 2;
        }
      }
      for (SquaredExponential k : new SquaredExponential[] {
        SquaredExponential.iso(1.7, 2.3), SquaredExponential.ard(ls, 0.8)
      }) {
        Matrix km = k.matrix(x);
        Matrix kc = k.cross(x, x);
        for (int i = 0; i < n; i++) {
          for (int j = 0; j < n; j++) {
            assertEquals(
                Double.doubleToRawLongBits(kc.get(i, j)),
                Double.doubleToRawLongBits(km.get(i, j)),
                k + ", n = " + n + ", (" + i + ", " + j + ")");
          }
        }
      }
    }
  }
}
