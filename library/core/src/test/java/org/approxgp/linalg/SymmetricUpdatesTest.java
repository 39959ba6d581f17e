package org.approxgp.linalg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link SymmetricUpdates} on each backend (the native one off the Java heap, also with crossover 0 and
 * at a size below its default crossover, where it keeps a Java array): weighted rank-k updates of either
 * sign against a naive loop over the explicit sum, entries and columns read from the upper triangle.
 */
class SymmetricUpdatesTest {

  static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> backends() {
    return BackendTest.backends();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("backends")
  void updatesMatchTheExplicitSum(String name) {
    DenseBackend b = BackendTest.backend(name);
    for (int n : new int[] {7, 53}) {
      Matrix a0 = BackendTest.random(n, n, 11 + n);
      a0.symmetrize();
      // the strict lower triangle is never read: garbage there must not matter
      Matrix given = a0.copy();
      for (int r = 1; r < n; r++) {
        for (int c = 0; c < r; c++) {
          given.set(r, c, Double.NaN);
        }
      }
      int k = 5;
      Matrix u = BackendTest.random(k, n, 3 + n);
      double[] w = {0.7, -1.3, 0.0, 2.1, -0.4};
      double[] col = new double[n + 3];
      SymmetricUpdates s = BackendTest.on(b, () -> {
        SymmetricUpdates t = SymmetricUpdates.of(given);
        t.update(k, u.data(), w);
        t.update(2, u.data(), new double[] {-0.5, 0.25}); // a second update of fewer rows
        return t;
      });
      for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
          double want = a0.get(i, j);
          for (int l = 0; l < k; l++) {
            want -= w[l] * u.get(l, i) * u.get(l, j);
          }
          want -= -0.5 * u.get(0, i) * u.get(0, j) + 0.25 * u.get(1, i) * u.get(1, j);
          if (i == j) {
            assertEquals(want, s.diagonal(i), 1e-13, name + " n=" + n + " diagonal " + i);
          }
          s.column(j, col, 3);
          assertEquals(want, col[3 + i], 1e-13, name + " n=" + n + " (" + i + ", " + j + ")");
        }
      }
      assertEquals(n, s.size());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("backends")
  void closeIsIdempotentAndEndsUseOffTheHeap(String name) {
    DenseBackend b = BackendTest.backend(name);
    SymmetricUpdates s = BackendTest.on(b, () -> SymmetricUpdates.of(Matrix.identity(20)));
    s.update(1, new double[20], new double[] {1.0}); // allocates the scratch rows too
    s.close();
    s.close();
    if (name.equals("ejml")) {
      assertEquals(1.0, s.diagonal(3), 0.0, "a Java array stays readable");
    } else {
      assertThrows(IllegalStateException.class, () -> s.diagonal(3));
      assertThrows(IllegalStateException.class, () -> s.column(3, new double[20], 0));
      assertThrows(
          IllegalStateException.class, () -> s.update(1, new double[20], new double[] {1.0}));
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("backends")
  void rejectsTooFewRowsOrWeights(String name) {
    DenseBackend b = BackendTest.backend(name);
    SymmetricUpdates s = BackendTest.on(b, () -> SymmetricUpdates.of(Matrix.identity(20)));
    assertThrows(IllegalArgumentException.class, () -> s.update(2, new double[20], new double[2]));
    assertThrows(IllegalArgumentException.class, () -> s.update(1, new double[20], new double[0]));
    assertThrows(IllegalArgumentException.class, () -> SymmetricUpdates.of(Matrix.zeros(2, 3)));
  }
}
