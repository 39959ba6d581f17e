package org.approxgp.likelihood;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The pruned Gauss–Hermite sums of probit's variational expectation ({@code ProbitExpectation.gaussHermite}
 * with its cut) against the same rule summed over every node, on a grid of √v over the three tiers and m out
 * to ±40 (where the small E[log Φ] and its derivatives sit in one tail): within 1e-15 relative, two orders
 * under the tests' 2e-12 against the reference quadratures. The bound the pruning rests on is what this
 * checks: a cut of 1e-10 instead of 1e-17 fails here.
 */
class ProbitGaussHermitePruningTest {

  @Test
  void prunedSumsEqualFullSums() {
    for (double y : new double[] {-1, 1}) {
      for (int a = 1; a <= 40; a++) {
        double s = 0.05 * a;
        for (int b = -80; b <= 80; b++) {
          double m = 0.5 * b;
          double[] pruned = ProbitExpectation.gaussHermite(y, m, s, ProbitExpectation.GH_CUT);
          double[] full = ProbitExpectation.gaussHermite(y, m, s, 0);
          for (int c = 0; c < 3; c++) {
            assertEquals(
                full[c],
                pruned[c],
                1e-15 * Math.abs(full[c]),
                "quantity " + c + " at y=" + y + " m=" + m + " √v=" + s);
          }
        }
      }
    }
  }
}
