package org.approxgp.linalg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CholeskyTest {

  /** A = L Lᵀ with a small integer L: the factor must come back exactly. */
  @Test
  void exactIntegerFactor() {
    double[][] l = {{2, 0, 0, 0}, {1, 3, 0, 0}, {-1, 2, 1, 0}, {4, -2, 3, 5}};
    Matrix lm = Matrix.of(l);
    Matrix a = lm.multTransB(lm);
    Cholesky c = Cholesky.factor(a);
    assertEquals(0.0, c.lower().maxAbsDiff(lm));
    assertEquals(0.0, c.jitter());
    assertEquals(1, c.attempts());
    // det A = (2·3·1·5)² = 900
    assertEquals(Math.log(900), c.logDet(), 1e-15);
    // A x = b with x = (1, −2, 3, 0): integer arithmetic, exact
    double[] x = {1, -2, 3, 0};
    double[] b = a.mult(x);
    double[] got = c.solve(b);
    for (int i = 0; i < 4; i++) {
      assertEquals(x[i], got[i], 1e-13);
    }
    assertEquals(a.bilinear(x, x), c.quadForm(b), 1e-11);
  }

  /** The allocation-free quadratic form gives the allocating one's bits, whatever the scratch held before. */
  @ParameterizedTest
  @ValueSource(ints = {1, 2, 7, 40})
  void quadFormWithScratchIsBitIdentical(int n) {
    Cholesky c = Cholesky.factor(randomSpd(n, 11 + n));
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(5 + n);
    double[] scratch = new double[n];
    for (int rep = 0; rep < 20; rep++) {
      double[] b = new double[n];
      for (int i = 0; i < n; i++) {
        b[i] = rng.nextDouble() * 2 - 1;
      }
      double[] before = b.clone();
      assertEquals(
          Double.doubleToRawLongBits(c.quadForm(b)),
          Double.doubleToRawLongBits(c.quadForm(b, scratch)));
      assertTrue(java.util.Arrays.equals(before, b), "b must be left as it was");
    }
    assertThrows(
        IllegalArgumentException.class, () -> c.quadForm(new double[n], new double[n + 1]));
  }

  static Matrix randomSpd(int n, long seed) {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    Matrix g = Matrix.zeros(n, n);
    for (int i = 0; i < n * n; i++) {
      g.data()[i] = rng.nextDouble() * 2 - 1;
    }
    Matrix a = g.multTransB(g);
    a.addDiagonal(0.1 * n);
    return a;
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 7, 50, 130})
  void randomSpdSolvesAndInverse(int n) {
    Matrix a = randomSpd(n, 42 + n);
    Cholesky c = Cholesky.factor(a);
    Matrix l = c.lower();
    assertTrue(l.multTransB(l).maxAbsDiff(a) < 1e-12 * n);
    Matrix inv = c.inverse();
    assertTrue(a.mult(inv).maxAbsDiff(Matrix.identity(n)) < 1e-10);
    // triangular solves against the explicit factor
    Matrix b = randomSpd(n, 7);
    assertTrue(l.mult(c.solveLower(b)).maxAbsDiff(b) < 1e-10 * n);
    assertTrue(l.transpose().mult(c.solveUpper(b)).maxAbsDiff(b) < 1e-10 * n);
    double[] v = b.col(0);
    double[] y = c.solveLower(v);
    double[] back = l.mult(y);
    for (int i = 0; i < n; i++) {
      assertEquals(v[i], back[i], 1e-10 * n);
    }
    // log det against the product of the factor's diagonal computed independently via LU-free route
    double ld = 0;
    for (double d : l.diag()) {
      ld += 2 * Math.log(d);
    }
    assertEquals(ld, c.logDet(), 1e-12 * Math.max(1, Math.abs(ld)));
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 3, 64})
  void gramEqualsTransposeProduct(int n) {
    Matrix v = randomSpd(n, 5 * n);
    v.set(0, n - 1, 0.25);
    assertTrue(v.gram().maxAbsDiff(v.multTransA(v)) < 1e-12 * n);
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 5, 40})
  void rank1UpdateAndDowndateMatchRefactoring(int n) {
    Matrix a = randomSpd(n, 3 * n);
    double[] x = randomSpd(n, 99).col(0);
    Cholesky up = Cholesky.factor(a).rank1Update(x, +1);
    Matrix a2 = a.copy();
    a2.addRank1(1.0, x);
    assertTrue(up.lower().maxAbsDiff(Cholesky.factor(a2).lower()) < 1e-11 * n);
    Cholesky down = up.rank1Update(x, -1);
    assertTrue(down.lower().maxAbsDiff(Cholesky.factor(a).lower()) < 1e-10 * n);
  }

  @Test
  void downdateToIndefiniteThrows() {
    Matrix a = Matrix.identity(3);
    assertThrows(
        NotPositiveDefiniteException.class,
        () -> Cholesky.factor(a).rank1Update(new double[] {0, 2, 0}, -1));
  }

  @Test
  void singularMatrixNeedsReportedJitter() {
    // rank-one 3×3 matrix v vᵀ: singular
    Matrix a = Matrix.zeros(3, 3);
    a.addRank1(1.0, new double[] {1, 2, 3});
    assertThrows(NotPositiveDefiniteException.class, () -> Cholesky.factor(a, JitterPolicy.none()));
    Cholesky c = Cholesky.factor(a, JitterPolicy.standard());
    assertTrue(c.jitter() > 0, "jitter must be reported");
    assertTrue(c.attempts() > 1);
    Matrix l = c.lower();
    Matrix back = l.multTransB(l);
    Matrix expect = a.copy();
    expect.addDiagonal(c.jitter());
    assertTrue(back.maxAbsDiff(expect) < 1e-12);
  }

  @Test
  void indefiniteMatrixFailsEvenWithJitter() {
    Matrix a = Matrix.diagonal(new double[] {1, -1, 1});
    NotPositiveDefiniteException e = assertThrows(
        NotPositiveDefiniteException.class, () -> Cholesky.factor(a, JitterPolicy.standard()));
    assertTrue(e.lastJitter() > 0);
  }
}
