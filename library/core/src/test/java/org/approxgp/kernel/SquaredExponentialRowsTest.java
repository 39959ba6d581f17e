package org.approxgp.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;
import org.approxgp.linalg.Matrix;
import org.junit.jupiter.api.Test;

/**
 * The kernel's two evaluators agree: {@link SquaredExponential.Rows} (row-major blocks, the sparse models') and
 * {@link SquaredExponential#cross} (the latent GPs'), and the row evaluator's gradient contraction equals central
 * differences of Σ G_ab K_ab in each log-hyperparameter.
 */
class SquaredExponentialRowsTest {

  private static double[][] rows(double[] flat, int n, int d) {
    double[][] r = new double[n][d];
    for (int i = 0; i < n; i++) {
      System.arraycopy(flat, i * d, r[i], 0, d);
    }
    return r;
  }

  private static double[] random(SplittableRandom rng, int len) {
    double[] v = new double[len];
    for (int i = 0; i < len; i++) {
      v[i] = 2 * rng.nextDouble() - 1;
    }
    return v;
  }

  @Test
  void rowsEqualTheKernelsCrossCovarianceArdAndIso() {
    SplittableRandom rng = new SplittableRandom(7);
    int d = 3;
    double[] a = random(rng, 5 * d);
    double[] b = random(rng, 4 * d);
    for (SquaredExponential k : new SquaredExponential[] {
      SquaredExponential.ard(new double[] {0.7, 1.9, 0.4}, 1.6), SquaredExponential.iso(0.8, 0.5)
    }) {
      Matrix fromRows = k.rows(d).cross(a, 5, b, 4);
      Matrix fromKernel = k.cross(rows(a, 5, d), rows(b, 4, d));
      for (int i = 0; i < 5; i++) {
        for (int j = 0; j < 4; j++) {
          assertEquals(
              fromKernel.get(i, j), fromRows.get(i, j), 1e-14 * k.signalVariance(), k.name());
        }
      }
      assertEquals(k.signalVariance(), k.rows(d).signalVariance(), 1e-15 * k.signalVariance());
    }
  }

  @Test
  void gradientContractionMatchesCentralDifferences() {
    SplittableRandom rng = new SplittableRandom(11);
    int d = 2;
    double[] a = random(rng, 6 * d);
    double[] b = random(rng, 3 * d);
    double[] g = random(rng, 6 * 3);
    for (boolean ard : new boolean[] {true, false}) {
      double[] theta = ard ? new double[] {-0.3, 0.4, 0.2} : new double[] {0.1, -0.5};
      SquaredExponential.Rows k = new SquaredExponential.Rows(theta, d, ard);
      Matrix kab = k.cross(a, 6, b, 3);
      double[] grad = new double[theta.length];
      k.accumulateGradient(Matrix.wrap(6, 3, g), kab, a, b, grad);
      for (int p = 0; p < theta.length; p++) {
        double h = 1e-6;
        double[] up = theta.clone();
        double[] down = theta.clone();
        up[p] += h;
        down[p] -= h;
        double fd = (contract(g, new SquaredExponential.Rows(up, d, ard).cross(a, 6, b, 3))
                - contract(g, new SquaredExponential.Rows(down, d, ard).cross(a, 6, b, 3)))
            / (2 * h);
        assertEquals(fd, grad[p], 1e-8, "ard " + ard + " parameter " + p);
      }
    }
  }

  @Test
  void anArdKernelRefusesOtherDimensions() {
    SquaredExponential k = SquaredExponential.ard(new double[] {1, 2}, 1);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> k.rows(3));
    assertEquals("ARD kernel has 2 length-scales, data 3 inputs", e.getMessage());
  }

  @Test
  void ofLogInvertsLogHyperparameters() {
    SquaredExponential k = SquaredExponential.ard(new double[] {0.5, 3}, 2);
    SquaredExponential back = SquaredExponential.ofLog(k.logHyperparameters(), true);
    assertEquals(k.lengthscales()[1], back.lengthscales()[1], 1e-15 * 3);
    assertEquals(k.signalVariance(), back.signalVariance(), 1e-15 * 2);
  }

  private static double contract(double[] g, Matrix k) {
    double s = 0;
    for (int i = 0; i < g.length; i++) {
      s += g[i] * k.data()[i];
    }
    return s;
  }
}
