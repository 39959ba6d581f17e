package org.approxgp.optimize;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** {@link Brent}: smooth, kinked and end-of-bracket minima to the requested absolute tolerance. */
class BrentTest {

  @Test
  void smoothMinimum() {
    double[] r = Brent.minimize(x -> (x - 2) * (x - 2) + 1, 0, 5, 1e-10);
    assertEquals(2, r[0], 1e-8);
    assertEquals(1, r[1], 1e-15);
  }

  @Test
  void kinkedMinimumByGoldenSections() {
    double[] r = Brent.minimize(x -> Math.abs(x - 1.3), -4, 7, 1e-9);
    assertEquals(1.3, r[0], 1e-8);
  }

  @Test
  void minimumAtTheEndOfTheBracket() {
    double[] r = Brent.minimize(x -> Math.exp(x), -1, 3, 1e-10);
    assertEquals(-1, r[0], 1e-8);
  }
}
