package org.approxgp.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class MetricsTest {

  @Test
  void testErrorCountsMisclassificationsAndTies() {
    // by hand: correct, wrong, wrong, tie → (0 + 1 + 1 + 0.5)/4
    assertEquals(
        2.5 / 4,
        Metrics.testError(new double[] {0.9, 0.2, 0.6, 0.5}, new double[] {1, 1, -1, 1}),
        0);
  }

  @Test
  void nllRmseMnlpW2ByHand() {
    assertEquals(0.5, Metrics.negativeLogLikelihood(new double[] {-0.25, -0.75}), 1e-15);
    assertEquals(
        Math.sqrt((1 + 4) / 2.0), Metrics.rmse(new double[] {0, 0}, new double[] {1, -2}), 1e-15);
    assertEquals(
        0.5 * Math.log(2 * Math.PI * 4) + 1.0 / 8,
        Metrics.mnlp(new double[] {0}, new double[] {4}, new double[] {1}),
        1e-15);
    assertEquals(5.0, Metrics.wasserstein2Gaussian(0, 1, 3, 25), 1e-15);
    assertEquals(1.5, Metrics.meanAbsoluteError(new double[] {2, 0}, new double[] {1, 2}), 0);
  }

  @Test
  void rmseAndMnlpSurviveSquaresThatOverflow() {
    // errors of 1e200: e² overflows, the answers do not
    assertEquals(1e200, Metrics.rmse(new double[] {0, 0}, new double[] {1e200, -1e200}), 1e185);
    double mnlp = Metrics.mnlp(new double[] {0}, new double[] {1e300}, new double[] {1e200});
    assertEquals(0.5 * (Math.log(2 * Math.PI * 1e300) + 1e100), mnlp, 1e86);
    double[] lp =
        Metrics.gaussianLogDensities(new double[] {0}, new double[] {1e300}, new double[] {1e200});
    assertEquals(-mnlp, lp[0]);
  }

  @Test
  void rejectsMismatchedOrEmpty() {
    assertThrows(
        IllegalArgumentException.class, () -> Metrics.testError(new double[1], new double[2]));
    assertThrows(
        IllegalArgumentException.class, () -> Metrics.negativeLogLikelihood(new double[0]));
  }
}
