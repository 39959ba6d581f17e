package org.approxgp.optimize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class AdamTest {

  /** Bias correction: the first step is α·sign(g) (up to ε) whatever the scale of g. */
  @Test
  void firstStepHasTheLearningRateWhateverTheGradientScale() {
    double[] x = {0, 0, 0};
    Adam adam = new Adam(3, new Adam.Settings(0.1, 0.9, 0.999, 0));
    adam.step(x, new double[] {1e-6, -3.0, 2e5});
    assertEquals(-0.1, x[0], 1e-15);
    assertEquals(0.1, x[1], 1e-15);
    assertEquals(-0.1, x[2], 1e-15);
  }

  /** Two steps by hand from Algorithm 1 of Kingma &amp; Ba. */
  @Test
  void twoStepsMatchAlgorithmOne() {
    double[] x = {1.0};
    Adam adam = new Adam(1, new Adam.Settings(0.5, 0.8, 0.9, 1e-3));
    adam.step(x, new double[] {2.0});
    adam.step(x, new double[] {-1.0});
    double m1 = 0.2 * 2;
    double v1 = 0.1 * 4;
    double x1 = 1 - 0.5 * (m1 / 0.2) / (Math.sqrt(v1 / 0.1) + 1e-3);
    double m2 = 0.8 * m1 + 0.2 * -1;
    double v2 = 0.9 * v1 + 0.1 * 1;
    double x2 = x1 - 0.5 * (m2 / (1 - 0.64)) / (Math.sqrt(v2 / (1 - 0.81)) + 1e-3);
    assertEquals(x2, x[0], 1e-15);
    assertEquals(2, adam.steps());
  }

  /** With noisy gradients of ½‖x − c‖² it settles near c (within a few step sizes). */
  @Test
  void minimisesANoisyQuadratic() {
    double[] c = {3, -1, 0.5};
    double[] x = new double[3];
    SplittableRandom rng = new SplittableRandom(1);
    Adam adam = new Adam(3, Adam.Settings.of(0.05));
    for (int t = 0; t < 3000; t++) {
      double[] g = new double[3];
      for (int i = 0; i < 3; i++) {
        g[i] = x[i] - c[i] + 0.1 * rng.nextGaussian();
      }
      adam.step(x, g);
    }
    for (int i = 0; i < 3; i++) {
      assertEquals(c[i], x[i], 0.05);
    }
  }

  @Test
  void rejectsBadSettings() {
    assertThrows(IllegalArgumentException.class, () -> new Adam.Settings(0, 0.9, 0.999, 1e-8));
    assertThrows(IllegalArgumentException.class, () -> new Adam.Settings(0.1, 1, 0.999, 1e-8));
  }

  /** With per-coordinate units the steps are those of plain Adam times the unit (here over two steps). */
  @Test
  void unitsScaleTheSteps() {
    double[] plain = {1.0, -2.0};
    double[] scaled = plain.clone();
    double[] unit = {0.1, 3.0};
    Adam a = new Adam(2, Adam.Settings.of(0.05));
    Adam b = new Adam(2, Adam.Settings.of(0.05));
    for (double[] g : new double[][] {{2.0, -0.5}, {1.0, 4.0}}) {
      double[] before = plain.clone();
      double[] beforeScaled = scaled.clone();
      a.step(plain, g);
      b.step(scaled, g, unit);
      for (int i = 0; i < 2; i++) {
        assertEquals(unit[i] * (plain[i] - before[i]), scaled[i] - beforeScaled[i], 1e-15);
      }
    }
  }
}
