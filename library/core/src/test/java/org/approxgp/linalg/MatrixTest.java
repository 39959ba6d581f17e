package org.approxgp.linalg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** {@link Matrix#symmetrize}: each off-diagonal pair becomes its mean, the diagonal is kept. */
class MatrixTest {

  @Test
  void symmetrizeAveragesTheOffDiagonalPairs() {
    Matrix a = Matrix.of(new double[][] {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}});
    a.symmetrize();
    assertArrayEquals(new double[] {1, 3, 5, 3, 5, 7, 5, 7, 9}, a.data(), 0.0);
    assertThrows(IllegalArgumentException.class, () -> Matrix.zeros(2, 3).symmetrize());
  }
}
