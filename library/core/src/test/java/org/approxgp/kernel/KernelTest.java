package org.approxgp.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.stream.Stream;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.approxgp.linalg.Matrix;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class KernelTest {

  static double[][] points(int n, int d, long seed) {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    double[][] x = new double[n][d];
    for (double[] r : x) {
      for (int k = 0; k < d; k++) {
        r[k] = rng.nextDouble() * 4 - 2;
      }
    }
    return x;
  }

  static Stream<Kernel> kernels() {
    return Stream.of(
        SquaredExponential.iso(1.3, 0.7),
        SquaredExponential.ard(new double[] {0.5, 2.0, 1.1}, 2.5),
        Linear.of(0.4));
  }

  @Test
  void seValueByHand() {
    SquaredExponential k = SquaredExponential.ard(new double[] {2, 0.5}, 3);
    double[][] x = {{0, 0}, {1, 1}};
    // r² = (1/2)² + (1/0.5)² = 4.25
    assertEquals(3 * Math.exp(-0.5 * 4.25), k.matrix(x).get(0, 1), 1e-15);
    assertEquals(3 * Math.exp(-0.5 * 4.25), k.cross(x, x).get(1, 0), 1e-15);
    assertEquals(3, k.diagonal(x)[1]);
  }

  /** Analytic gradients against central differences in θ. */
  @ParameterizedTest
  @MethodSource("kernels")
  void gradientsMatchFiniteDifferences(Kernel k) {
    double[][] x = points(6, 3, 1);
    double[] theta = k.logHyperparameters();
    Matrix w = Matrix.zeros(6, 6);
    double[][] p = points(6, 6, 2);
    for (int a = 0; a < 6; a++) {
      for (int b = 0; b < 6; b++) {
        w.set(a, b, p[a][b] + p[b][a]);
      }
    }
    double[] tg = k.traceGradient(x, w);
    double h = 1e-6;
    for (int j = 0; j < theta.length; j++) {
      double[] tp = theta.clone();
      double[] tm = theta.clone();
      tp[j] += h;
      tm[j] -= h;
      Matrix kp = k.withLogHyperparameters(tp).matrix(x);
      Matrix km = k.withLogHyperparameters(tm).matrix(x);
      Matrix g = k.gradient(x, j);
      for (int a = 0; a < 6; a++) {
        for (int b = 0; b < 6; b++) {
          double fd = (kp.get(a, b) - km.get(a, b)) / (2 * h);
          assertEquals(fd, g.get(a, b), 1e-8 * Math.max(1, Math.abs(fd)));
        }
      }
      assertEquals(g.dot(w), tg[j], 1e-12 * Math.max(1, Math.abs(tg[j])));
    }
  }

  /**
   * The cross and diagonal trace gradients (inducing-point evidence gradients) against central differences of
   * Σ W_ab k(a_a, b_b) and Σ w_a k(x_a, x_a) in θ.
   */
  @ParameterizedTest
  @MethodSource("kernels")
  void crossAndDiagonalTraceGradientsMatchFiniteDifferences(Kernel k) {
    double[][] a = points(4, 3, 4);
    double[][] b = points(7, 3, 5);
    double[][] p = points(4, 7, 6);
    Matrix w = Matrix.of(p);
    double[] v = points(1, 7, 7)[0];
    double[] cg = k.crossTraceGradient(a, b, w);
    double[] dg = k.diagonalTraceGradient(b, v);
    double[] theta = k.logHyperparameters();
    double h = 1e-6;
    for (int j = 0; j < theta.length; j++) {
      double[] tp = theta.clone();
      double[] tm = theta.clone();
      tp[j] += h;
      tm[j] -= h;
      Kernel kp = k.withLogHyperparameters(tp);
      Kernel km = k.withLogHyperparameters(tm);
      double fd = (kp.cross(a, b).dot(w) - km.cross(a, b).dot(w)) / (2 * h);
      assertEquals(fd, cg[j], 1e-8 * Math.max(1, Math.abs(fd)), "cross, θ" + j);
      double sp = 0;
      double sm = 0;
      double[] dp = kp.diagonal(b);
      double[] dm = km.diagonal(b);
      for (int i = 0; i < v.length; i++) {
        sp += v[i] * dp[i];
        sm += v[i] * dm[i];
      }
      double fdd = (sp - sm) / (2 * h);
      assertEquals(fdd, dg[j], 1e-8 * Math.max(1, Math.abs(fdd)), "diagonal, θ" + j);
    }
  }

  /** The input gradient of Σ W_ab k(a_a, b_b) against central differences in each a_ac. */
  @ParameterizedTest
  @MethodSource("kernels")
  void crossInputGradientMatchesFiniteDifferences(Kernel k) {
    double[][] a = points(4, 3, 8);
    double[][] b = points(7, 3, 9);
    Matrix w = Matrix.of(points(4, 7, 10));
    double[][] g = k.crossInputGradient(a, b, w);
    double h = 1e-6;
    for (int i = 0; i < a.length; i++) {
      for (int c = 0; c < 3; c++) {
        double[][] ap = new double[a.length][];
        double[][] am = new double[a.length][];
        for (int r = 0; r < a.length; r++) {
          ap[r] = a[r].clone();
          am[r] = a[r].clone();
        }
        ap[i][c] += h;
        am[i][c] -= h;
        double fd = (k.cross(ap, b).dot(w) - k.cross(am, b).dot(w)) / (2 * h);
        assertEquals(fd, g[i][c], 1e-8 * Math.max(1, Math.abs(fd)), "row " + i + ", column " + c);
      }
    }
  }

  @ParameterizedTest
  @MethodSource("kernels")
  void matrixEqualsCrossAndDiagonal(Kernel k) {
    double[][] x = points(5, 3, 3);
    Matrix m = k.matrix(x);
    Matrix c = k.cross(x, x);
    assertEquals(0.0, m.maxAbsDiff(c), 1e-15);
    double[] d = k.diagonal(x);
    for (int i = 0; i < 5; i++) {
      assertEquals(m.get(i, i), d[i], 1e-15);
    }
    assertEquals(
        0.0, k.withLogHyperparameters(k.logHyperparameters()).matrix(x).maxAbsDiff(m), 1e-14);
  }

  /**
   * The SE trace gradient with K at hand (M = W ∘ K, one product M Z) against the pairwise sum, for iso and ARD
   * kernels on inputs far from the origin (offset 1000, so the centring matters) with a random symmetric W of
   * mixed signs: each entry to 1e-12 of its own absolute-value sum Σ_ab |M_ab| (z_ak − z_bk)².
   */
  @Test
  void seTraceGradientWithKMatchesThePairwiseSum() {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(7);
    int n = 90;
    int d = 4;
    double[][] x = new double[n][d];
    for (double[] row : x) {
      for (int c = 0; c < d; c++) {
        row[c] = 1000 + 3 * rng.nextDouble();
      }
    }
    Matrix w = Matrix.zeros(n, n);
    for (int a = 0; a < n; a++) {
      for (int b = 0; b <= a; b++) {
        double v = rng.nextDouble() * 2 - 1;
        w.set(a, b, v);
        w.set(b, a, v);
      }
    }
    double[] ls = {0.7, 1.3, 2.9, 0.4};
    for (SquaredExponential k :
        new SquaredExponential[] {SquaredExponential.iso(1.1, 2.5), SquaredExponential.ard(ls, 0.8)
        }) {
      double[] direct = k.traceGradient(x, w);
      double[] withK = k.traceGradient(x, w, k.matrix(x));
      Matrix km = k.matrix(x);
      int m = direct.length - 1;
      double[] scale = new double[m + 1];
      for (int a = 0; a < n; a++) {
        for (int b = 0; b < n; b++) {
          double am = Math.abs(w.get(a, b) * km.get(a, b));
          scale[m] += am;
          for (int c = 0; c < d; c++) {
            double t = (x[a][c] - x[b][c]) / (k.isArd() ? ls[c] : 1.1);
            scale[k.isArd() ? c : 0] += am * t * t;
          }
        }
      }
      for (int j = 0; j <= m; j++) {
        assertEquals(direct[j], withK[j], 1e-12 * scale[j], k.name() + " entry " + j);
      }
    }
  }

  @Test
  void badArgumentsAreRejected() {
    assertThrows(IllegalArgumentException.class, () -> SquaredExponential.iso(0, 1));
    assertThrows(IllegalArgumentException.class, () -> SquaredExponential.iso(1, Double.NaN));
    assertThrows(
        IllegalArgumentException.class,
        () -> SquaredExponential.ard(new double[] {1, 1}, 1).matrix(points(2, 3, 1)));
  }
}
