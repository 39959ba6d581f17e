package org.approxgp.special;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Gauss–Legendre rules integrate x^k exactly for k ≤ 2n − 1 and not x^{2n}; the weights sum to 2. */
class GaussLegendreTest {

  @Test
  void exactUpToDegreeTwoNMinusOne() {
    for (int n : new int[] {1, 2, 8, 16, 40}) {
      double[][] r = GaussLegendre.rule(n);
      for (int k = 0; k <= 2 * n; k++) {
        double s = 0;
        for (int i = 0; i < n; i++) {
          s += r[1][i] * Math.pow(r[0][i], k);
        }
        double exact = k % 2 == 1 ? 0 : 2.0 / (k + 1);
        if (k <= 2 * n - 1) {
          assertEquals(exact, s, 4e-15, "n=" + n + ", x^" + k);
        } else {
          // x^{2n}: the rule's error is 2^{2n+1} (n!)^4 / ((2n+1) ((2n)!)^3) · (2n)! ≠ 0
          assertEquals(
              true, Math.abs(s - exact) > 1e-3 * Math.pow(0.25, n) * 2.0 / (2 * n + 1), "n=" + n);
        }
      }
    }
    assertThrows(IllegalArgumentException.class, () -> GaussLegendre.rule(0));
  }
}
