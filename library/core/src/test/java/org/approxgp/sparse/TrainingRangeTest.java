package org.approxgp.sparse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.approxgp.data.RegressionData;
import org.approxgp.inference.PredictiveMoments;
import org.junit.jupiter.api.Test;

/** The training rows' box: which test rows lie outside it, and each input held at its edge. */
class TrainingRangeTest {
  private static final RegressionData TRAIN =
      RegressionData.of(new double[][] {{0, 10}, {2, -5}, {1, 3}}, new double[] {1, 2, 3});

  @Test
  void inputsOutsideTheBoxAreHeldAtItsEdgeAndTheTargetsKept() {
    TrainingRange r = TrainingRange.of(TRAIN);
    RegressionData test = RegressionData.of(
        new double[][] {{-1, 0}, {1, 11}, {3, -6}, {0, 10}, {1.5, 2}},
        new double[] {7, 8, 9, 10, 11});
    // rows 0-2 have an input outside; row 3 lies on the edge, row 4 inside
    assertEquals(3, r.rowsOutside(test));
    RegressionData c = r.clamp(test);
    assertArrayEquals(new double[] {0, 0, 1, 10, 2, -5, 0, 10, 1.5, 2}, c.x(), 0.0);
    assertArrayEquals(test.y(), c.y(), 0.0);
    assertEquals(0, r.rowsOutside(c));
    // the test rows themselves are left untouched
    assertArrayEquals(new double[] {-1, 0, 1, 11, 3, -6, 0, 10, 1.5, 2}, test.x(), 0.0);
  }

  @Test
  void rowsInsideTheBoxComeBackAsTheyAre() {
    TrainingRange r = TrainingRange.of(TRAIN);
    RegressionData inside = RegressionData.of(new double[][] {{0.5, 1}, {2, 10}}, null);
    assertSame(inside, r.clamp(inside));
    assertSame(TRAIN, r.clamp(TRAIN));
  }

  /**
   * Off the range, the prediction at the edge carried by the SE prior: ρ = exp(−½ Σ δ²/ℓ²), mean ρ μ_c, variance
   * ρ² (v_c − σₙ²) + σ²(1 − ρ²) + σₙ²; inside, the edge's moments unchanged; far off, the prior's.
   */
  @Test
  void revertCarriesTheEdgesPredictionToTheRowBySePrior() {
    TrainingRange r = TrainingRange.of(TRAIN);
    // row 0: a = 3 is 1 beyond a's largest (2); row 1: inside; row 2: b = -25 is 20 beyond b's
    // smallest (-5), and a
    // = -1 is 1 below a's smallest (0)
    RegressionData test = RegressionData.of(new double[][] {{3, 0}, {1, 1}, {-1, -25}}, null);
    PredictiveMoments atEdge =
        new PredictiveMoments(new double[] {1.0, -0.4, 0.7}, new double[] {0.6, 0.3, 0.5});
    double[] ell = {1.0, 4.0};
    double sf2 = 2.0;
    double sn2 = 0.1;
    PredictiveMoments p = r.revert(test, atEdge, ell, sf2, sn2);
    double rho = Math.exp(-0.5);
    assertEquals(rho * 1.0, p.mean()[0], 1e-15);
    assertEquals(rho * rho * 0.5 + sf2 * (1 - rho * rho) + sn2, p.variance()[0], 1e-15);
    assertEquals(-0.4, p.mean()[1], 0.0);
    assertEquals(0.3, p.variance()[1], 0.0);
    double far = Math.exp(-0.5 * (1 + 25)); // (1/1)² + (20/4)²
    assertEquals(far * 0.7, p.mean()[2], 1e-18);
    assertEquals(sf2 + sn2, p.variance()[2], 1e-9);
  }

  @Test
  void testRowsOfAnotherWidthAreRefused() {
    TrainingRange r = TrainingRange.of(TRAIN);
    RegressionData wide = RegressionData.of(new double[][] {{1, 2, 3}}, null);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> r.clamp(wide));
    assertEquals("test rows have 3 inputs, the training rows 2", e.getMessage());
  }
}
