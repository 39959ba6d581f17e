package org.approxgp.linalg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every {@link DenseBackend} operation through the public {@link Matrix}/{@link Cholesky} API, on each
 * backend: against naive loops, and the backends against each other. The native backend runs with
 * crossover 0 (native code at every size, so small sizes test it too) and with its default crossover.
 */
class BackendTest {

  static Stream<Arguments> backends() {
    return Stream.of("ejml", "native", "native-default").map(Arguments::of);
  }

  /** The backend a test parameter names; skips (assumption) when the native library cannot load. */
  static DenseBackend backend(String name) {
    if (name.equals("ejml")) {
      return JavaBackend.INSTANCE;
    }
    Assumptions.assumeTrue(
        Linalg.nativeAvailable(),
        () -> "native OpenBLAS backend cannot load here: " + Linalg.nativeUnavailableReason());
    NativeBackend nb = (NativeBackend) Linalg.byName("native");
    return name.equals("native") ? nb.withCrossover(0) : nb;
  }

  static <T> T on(DenseBackend b, Supplier<T> body) {
    return Linalg.with(b, body);
  }

  static Matrix random(int r, int c, long seed) {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    Matrix g = Matrix.zeros(r, c);
    for (int i = 0; i < r * c; i++) {
      g.data()[i] = rng.nextDouble() * 2 - 1;
    }
    return g;
  }

  static Matrix naiveProduct(Matrix a, Matrix b) {
    Matrix c = Matrix.zeros(a.rows(), b.cols());
    for (int i = 0; i < a.rows(); i++) {
      for (int j = 0; j < b.cols(); j++) {
        double s = 0;
        for (int k = 0; k < a.cols(); k++) {
          s += a.get(i, k) * b.get(k, j);
        }
        c.set(i, j, s);
      }
    }
    return c;
  }

  static double maxAbs(Matrix a) {
    double m = 0;
    for (double v : a.data()) {
      m = Math.max(m, Math.abs(v));
    }
    return m;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("backends")
  void exactIntegerFactorOnEveryBackend(String name) {
    DenseBackend b = backend(name);
    double[][] l = {{2, 0, 0, 0}, {1, 3, 0, 0}, {-1, 2, 1, 0}, {4, -2, 3, 5}};
    Matrix lm = Matrix.of(l);
    Matrix a = naiveProduct(lm, lm.transpose());
    Cholesky c = on(b, () -> Cholesky.factor(a));
    assertEquals(0.0, c.lower().maxAbsDiff(lm));
    assertEquals(Math.log(900), c.logDet(), 1e-15);
    assertEquals(b.name(), on(b, Linalg::backendName));
  }

  /** Factor, solves with matrix right-hand sides, inverse: residuals, upper-triangle handling. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("backends")
  void factorSolvesInverse(String name) {
    DenseBackend b = backend(name);
    for (int n : new int[] {1, 2, 5, 33, 64, 130, 257}) {
      Matrix g = random(n, n, 11 + n);
      Matrix a = naiveProduct(g, g.transpose());
      a.addDiagonal(0.1 * n);
      // garbage above the diagonal must not be read
      Matrix lowerOnly = a.copy();
      for (int i = 0; i < n; i++) {
        for (int j = i + 1; j < n; j++) {
          lowerOnly.set(i, j, 1e300);
        }
      }
      Cholesky c = on(b, () -> Cholesky.factor(lowerOnly));
      assertEquals(1, c.attempts());
      Matrix l = c.lower();
      for (int i = 0; i < n; i++) {
        for (int j = i + 1; j < n; j++) {
          assertEquals(0.0, l.get(i, j), "upper triangle of L must be zero");
        }
      }
      double scale = maxAbs(a);
      assertTrue(
          naiveProduct(l, l.transpose()).maxAbsDiff(a) < 1e-14 * n * scale, "L Lᵀ = A, n=" + n);
      Matrix rhs = random(n, 7, 3 * n);
      Matrix x1 = on(b, () -> c.solveLower(rhs));
      assertTrue(naiveProduct(l, x1).maxAbsDiff(rhs) < 1e-12 * n, "L X = B, n=" + n);
      Matrix x2 = on(b, () -> c.solveUpper(rhs));
      assertTrue(naiveProduct(l.transpose(), x2).maxAbsDiff(rhs) < 1e-12 * n, "Lᵀ X = B, n=" + n);
      Matrix x3 = on(b, () -> c.solve(rhs));
      assertTrue(naiveProduct(a, x3).maxAbsDiff(rhs) < 1e-11 * n, "A X = B, n=" + n);
      assertEquals(0.0, rhs.maxAbsDiff(random(n, 7, 3 * n)), "right-hand side not modified");
      Matrix inv = on(b, c::inverse);
      assertTrue(
          naiveProduct(a, inv).maxAbsDiff(Matrix.identity(n)) < 1e-11 * n, "A A⁻¹ = I, n=" + n);
      assertEquals(0.0, inv.maxAbsDiff(inv.transpose()), "inverse exactly symmetric");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("backends")
  void productsAgainstNaiveLoops(String name) {
    DenseBackend b = backend(name);
    int[][] shapes = {{1, 1, 1}, {3, 5, 2}, {70, 40, 90}, {130, 65, 129}};
    for (int[] s : shapes) {
      Matrix a = random(s[0], s[2], s[0] + 7L * s[1]);
      Matrix c = random(s[2], s[1], s[1] + 13L * s[2]);
      Matrix ref = naiveProduct(a, c);
      double tol = 1e-13 * s[2];
      assertTrue(on(b, () -> a.mult(c)).maxAbsDiff(ref) < tol, "A B");
      Matrix at = a.transpose();
      Matrix ct = c.transpose();
      assertTrue(on(b, () -> at.multTransA(c)).maxAbsDiff(ref) < tol, "Aᵀ B");
      assertTrue(on(b, () -> a.multTransB(ct)).maxAbsDiff(ref) < tol, "A Bᵀ");
      Matrix gram = on(b, a::gram);
      assertTrue(gram.maxAbsDiff(naiveProduct(at, a)) < tol * 2, "Aᵀ A");
      assertEquals(0.0, gram.maxAbsDiff(gram.transpose()), "Gram exactly symmetric");
    }
  }

  /**
   * The weighted rank-k update of a trailing upper triangle against a naive loop, with weights of both signs
   * and a zero weight, from the first row and from inside the matrix; every entry outside the trailing upper
   * triangle is left exactly as it was.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("backends")
  void symmetricUpdateUpperAgainstNaiveLoop(String name) {
    DenseBackend b = backend(name);
    int[][] shapes = {
      {1, 1, 0},
      {5, 3, 0},
      {5, 3, 2},
      {40, 7, 0},
      {130, 33, 0},
      {130, 33, 61},
      {300, 32, 0},
      {300, 32, 100},
      {300, 32, 299}
    };
    for (int[] s : shapes) {
      int n = s[0];
      int k = s[1];
      int from = s[2];
      Matrix u = random(k, n, 31L * n + k);
      double[] w = random(1, k, 17L * k).data();
      if (k > 2) {
        w[1] = 0;
      }
      Matrix a = random(n, n, 3L * n);
      Matrix ref = a.copy();
      for (int l = 0; l < k; l++) {
        ref.addRank1(-w[l], u.row(l));
      }
      on(b, () -> {
        a.symmetricUpdateUpper(from, k, u.data(), w);
        return null;
      });
      Matrix before = random(n, n, 3L * n);
      for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
          if (i >= from && j >= i) {
            assertEquals(
                ref.get(i, j), a.get(i, j), 1e-13 * (k + 1), "(" + i + ", " + j + "), n=" + n);
          } else {
            assertEquals(
                before.get(i, j), a.get(i, j), 0.0, "(" + i + ", " + j + ") untouched, n=" + n);
          }
        }
      }
    }
  }

  /** LU with partial pivoting: A x = b to rounding, inputs unchanged, a pivot-requiring and a singular matrix. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("backends")
  void luSolveAgainstResidualAndSingularity(String name) {
    DenseBackend b = backend(name);
    for (int n : new int[] {1, 2, 9, 64, 257}) {
      Matrix a = random(n, n, 11L * n);
      double[] rhs = random(1, n, 13L * n).data();
      Matrix a0 = a.copy();
      double[] rhs0 = rhs.clone();
      double[] x = on(b, () -> a.luSolve(rhs));
      double[] ax = a.mult(x);
      double scale = maxAbs(a) * maxAbs(Matrix.wrap(1, n, x)) * n;
      for (int i = 0; i < n; i++) {
        assertEquals(rhs[i], ax[i], 1e-13 * scale, "residual, n=" + n);
      }
      assertEquals(0.0, a.maxAbsDiff(a0), "A unchanged");
      assertArrayEquals(rhs0, rhs, 0.0, "b unchanged");
    }
    // a zero leading entry: no solve without pivoting; [[0, 1], [1, 1]] x = (1, 3) ⇒ x = (2, 1)
    Matrix p = Matrix.of(new double[][] {{0, 1}, {1, 1}});
    assertArrayEquals(new double[] {2, 1}, on(b, () -> p.luSolve(new double[] {1, 3})), 1e-15);
    // rank 2 of 3 (second row = 2 × first): elimination in exact arithmetic, so the last pivot is
    // exactly 0
    Matrix sing = Matrix.of(new double[][] {{1, 2, 3}, {2, 4, 6}, {1, 1, 1}});
    assertThrows(
        SingularMatrixException.class, () -> on(b, () -> sing.luSolve(new double[] {1, 1, 1})));
  }

  /** Non-square zero-size edge cases do not reach BLAS with an illegal leading dimension. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("backends")
  void emptyDimensions(String name) {
    DenseBackend b = backend(name);
    Matrix a = Matrix.zeros(0, 3);
    Matrix c = Matrix.zeros(3, 0);
    assertEquals(3, on(b, () -> c.mult(a)).rows());
    assertEquals(0.0, maxAbs(on(b, () -> a.gram())));
    assertEquals(0, on(b, () -> a.mult(c)).rows());
  }

  /**
   * A symmetric matrix with eigenvalues (1, …, 1, −λ): it needs jitter above λ. With λ = 3e-9 (mean
   * diagonal ≈ 1) the standard policy's retries 1e-10, 1e-9 fail and 1e-8 succeeds, on every backend.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("backends")
  void jitterRetriesAreBackendIndependent(String name) {
    DenseBackend b = backend(name);
    for (int n : new int[] {6, 80}) {
      Matrix a = indefinite(n, 3e-9);
      double meanDiag = 0;
      for (double d : a.diag()) {
        meanDiag += d / n;
      }
      Cholesky c = on(b, () -> Cholesky.factor(a, JitterPolicy.standard()));
      assertEquals(4, c.attempts(), "n=" + n);
      assertEquals(1e-8 * meanDiag, c.jitter(), 1e-22, "n=" + n);
      NotPositiveDefiniteException e = assertThrows(
          NotPositiveDefiniteException.class,
          () -> on(b, () -> Cholesky.factor(a, JitterPolicy.none())));
      assertEquals(0.0, e.lastJitter());
      NotPositiveDefiniteException e2 = assertThrows(
          NotPositiveDefiniteException.class,
          () -> on(b, () -> Cholesky.factor(a, new JitterPolicy(1e-10, 10, 2))));
      assertEquals(1e-9 * meanDiag, e2.lastJitter(), 1e-22);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("backends")
  void nanIsNotPositiveDefinite(String name) {
    DenseBackend b = backend(name);
    for (int n : new int[] {5, 70}) {
      Matrix a = Matrix.identity(n);
      a.set(n - 1, 0, Double.NaN);
      a.set(0, n - 1, Double.NaN);
      assertThrows(
          NotPositiveDefiniteException.class,
          () -> on(b, () -> Cholesky.factor(a, JitterPolicy.standard())));
    }
  }

  /** Q diag(1, …, 1, −λ) Qᵀ with Q a product of Householder reflections from a seeded vector. */
  static Matrix indefinite(int n, double lambda) {
    Matrix v = random(n, 1, 99 + n);
    double norm2 = 0;
    for (double x : v.data()) {
      norm2 += x * x;
    }
    // H = I − 2 v vᵀ/‖v‖², orthogonal and symmetric; A = H D H
    Matrix d = Matrix.identity(n);
    d.set(n - 1, n - 1, -lambda);
    Matrix h = Matrix.identity(n);
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        h.set(i, j, h.get(i, j) - 2 * v.data()[i] * v.data()[j] / norm2);
      }
    }
    Matrix a = naiveProduct(naiveProduct(h, d), h);
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < i; j++) {
        double s = 0.5 * (a.get(i, j) + a.get(j, i));
        a.set(i, j, s);
        a.set(j, i, s);
      }
    }
    return a;
  }

  /** The backends agree with each other to rounding on a larger problem (factor, solves, inverse, products). */
  @Test
  void nativeAgreesWithEjml() {
    DenseBackend nb = backend("native");
    DenseBackend jb = JavaBackend.INSTANCE;
    int n = 300;
    Matrix g = random(n, n, 5);
    Matrix a = naiveProduct(g, g.transpose());
    a.addDiagonal(n);
    Cholesky cj = on(jb, () -> Cholesky.factor(a));
    Cholesky cn = on(nb, () -> Cholesky.factor(a));
    assertTrue(cj.lower().maxAbsDiff(cn.lower()) < 1e-12 * Math.sqrt(maxAbs(a)));
    assertEquals(cj.logDet(), cn.logDet(), 1e-12 * Math.abs(cj.logDet()));
    Matrix rhs = random(n, 40, 6);
    assertTrue(on(jb, () -> cj.solve(rhs)).maxAbsDiff(on(nb, () -> cn.solve(rhs))) < 1e-12);
    assertTrue(on(jb, cj::inverse).maxAbsDiff(on(nb, cn::inverse)) < 1e-14);
    assertTrue(on(jb, () -> g.mult(rhs)).maxAbsDiff(on(nb, () -> g.mult(rhs))) < 1e-12);
    assertTrue(on(jb, g::gram).maxAbsDiff(on(nb, g::gram)) < 1e-11);
    double[] v = rhs.col(0);
    assertArrayEquals(cj.solve(v), cn.solve(v), 1e-12);
    assertArrayEquals(on(jb, () -> g.luSolve(v)), on(nb, () -> g.luSolve(v)), 1e-9);
    Matrix sj = a.copy();
    Matrix sn = a.copy();
    double[] w = rhs.col(1);
    on(jb, () -> {
      sj.symmetricUpdateUpper(7, 40, rhs.transpose().data(), w);
      return null;
    });
    on(nb, () -> {
      sn.symmetricUpdateUpper(7, 40, rhs.transpose().data(), w);
      return null;
    });
    assertTrue(sj.maxAbsDiff(sn) < 1e-11);
  }

  /** The process default follows -Dapproxgp.linalg (native when unset and loadable); the surefire JVM sees the property. */
  @Test
  void defaultFollowsTheSystemProperty() {
    String wanted = System.getProperty(Linalg.PROPERTY, "");
    String expected = wanted.equals("ejml") || !Linalg.nativeAvailable() ? "ejml" : "native";
    System.out.println(
        "linalg default backend: " + Linalg.defaultBackendName() + " (-D" + Linalg.PROPERTY + "="
            + wanted + ", native available: " + Linalg.nativeAvailable() + ", OpenBLAS threads: "
            + Linalg.nativeThreads() + ")");
    assertEquals(expected, Linalg.defaultBackendName());
    assertEquals(expected, Linalg.backendName());
    if (Linalg.nativeAvailable()) {
      assertEquals(Integer.getInteger(Linalg.PROPERTY + ".threads", 1), Linalg.nativeThreads());
    }
  }

  /** setNativeThreads changes OpenBLAS's process-wide count and returns the previous one; it rejects < 1. */
  @Test
  void nativeThreadCountCanBeSetAndRestored() {
    Assumptions.assumeTrue(Linalg.nativeAvailable(), "native OpenBLAS backend cannot load here");
    int before = Linalg.nativeThreads();
    assertThrows(IllegalArgumentException.class, () -> Linalg.setNativeThreads(0));
    assertEquals(before, Linalg.setNativeThreads(2));
    try {
      assertEquals(2, Linalg.nativeThreads());
      Matrix g = random(300, 300, 9);
      Matrix one = on(JavaBackend.INSTANCE, g::gram);
      assertTrue(on(backend("native"), g::gram).maxAbsDiff(one) < 1e-11, "two-thread dsyrk agrees");
    } finally {
      assertEquals(2, Linalg.setNativeThreads(before));
    }
    assertEquals(before, Linalg.nativeThreads());
  }

  @Test
  void unknownBackendNameIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> Linalg.withBackend("cuda", () -> 1));
    assertEquals(java.util.List.of("ejml", "native"), Linalg.backendNames());
  }
}
