package org.approxgp.linalg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link Cholesky#factorInPlace} and the in-place vector solves agree with the allocating factor and solves. */
class CholeskyInPlaceTest {

  private static Matrix spd(int n, long seed) {
    UniformRandomProvider r = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    Matrix a = Matrix.zeros(n + 3, n);
    for (int i = 0; i < a.data().length; i++) {
      a.data()[i] = r.nextDouble() - 0.5;
    }
    Matrix g = a.gram();
    g.addDiagonal(0.1);
    return g;
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 7, 40, Cholesky.IN_PLACE_BACKEND_MIN + 5})
  void agreesWithFactorAndSolves(int n) {
    Matrix a = spd(n, n);
    Cholesky ref = Cholesky.factor(a);
    Matrix l = a.copy();
    assertTrue(Cholesky.factorInPlace(l));
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        assertEquals(
            j <= i ? ref.lowerAt(i, j) : 0,
            l.get(i, j),
            1e-12 * (1 + Math.abs(ref.lowerAt(i, i))),
            "(" + i + ", " + j + ")");
      }
    }
    double[] b = new double[n];
    for (int i = 0; i < n; i++) {
      b[i] = Math.sin(i + 1.0);
    }
    double[] x = b.clone();
    Cholesky.solveLowerInPlace(l, x);
    assertArrayEquals(ref.solveLower(b), x, 1e-9);
    x = b.clone();
    Cholesky.solveUpperInPlace(l, x);
    assertArrayEquals(ref.solveUpper(b), x, 1e-9);
  }

  @ParameterizedTest
  @ValueSource(ints = {5, Cholesky.IN_PLACE_BACKEND_MIN + 5})
  void reportsAnIndefiniteMatrix(int n) {
    Matrix a = spd(n, 3);
    a.set(n - 1, n - 1, -1);
    assertFalse(Cholesky.factorInPlace(a));
  }
}
