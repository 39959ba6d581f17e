package org.approxgp.linalg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** {@link Linalg#withUlpPerturbation}: a perturbation of rounding size, seeded, on the calling thread only. */
@Tag("rounding")
class UlpPerturbationTest {

  /** A well-conditioned SPD matrix of order n (A = G Gᵀ + n I). */
  private static Matrix spd(int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    double[] g = new double[n * n];
    for (int i = 0; i < g.length; i++) {
      g[i] = r.nextDouble(-1, 1);
    }
    Matrix gm = Matrix.wrap(n, n, g);
    Matrix a = gm.multTransB(gm);
    for (int i = 0; i < n; i++) {
      a.set(i, i, a.get(i, i) + n);
    }
    return a;
  }

  private static double[] solve(Matrix a, double[] b) {
    return Cholesky.factor(a).solve(b);
  }

  @Test
  void movesAStableSolveByRoundingOnlyAndDependsOnItsSeedAlone() {
    for (int n : new int[] {5, 40, 200}) {
      Matrix a = spd(n, n);
      double[] b = new double[n];
      Arrays.fill(b, 1.0);
      double[] plain = solve(a, b);
      double[] moved = Linalg.withUlpPerturbation(7, () -> solve(a, b));
      double[] again = Linalg.withUlpPerturbation(7, () -> solve(a, b));
      double[] other = Linalg.withUlpPerturbation(8, () -> solve(a, b));
      assertArrayEquals(moved, again, 0.0, "the same seed, the same bits");
      assertFalse(Arrays.equals(plain, moved), "order " + n + ": the perturbation moves the bits");
      assertFalse(Arrays.equals(moved, other), "order " + n + ": another seed, other bits");
      for (int i = 0; i < n; i++) {
        assertEquals(plain[i], moved[i], 1e-13 * Math.abs(plain[i]), "order " + n + ", entry " + i);
      }
      assertArrayEquals(plain, solve(a, b), 0.0, "the thread's backend is restored");
    }
  }

  @Test
  void leavesTheCallersMatrixAlone() {
    Matrix a = spd(30, 1);
    Matrix copy = a.copy();
    Linalg.withUlpPerturbation(1, () -> Cholesky.factor(a));
    assertTrue(Arrays.equals(copy.data(), a.data()));
  }
}
