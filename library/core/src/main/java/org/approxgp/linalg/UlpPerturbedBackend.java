package org.approxgp.linalg;

import java.util.SplittableRandom;

/**
 * Another backend with every Cholesky factorisation's input perturbed by one unit in the last place: before each
 * {@link #potrf}, each diagonal entry of the matrix is moved one ulp up or down (a seeded coin per entry), and the
 * factorisation proceeds on the base backend. Every other kernel is the base's, unchanged.
 *
 * <p>A perturbation of rounding size, for telling a chaotic computation from a stable one ({@link
 * Linalg#withUlpPerturbation}): a stable result moves by about the condition number times 1e-16, a chaotic one
 * (a site loop that oscillates, a discrete choice among near-ties) by as much as the run itself varies. Every
 * posterior of the site loops is recomputed from a Cholesky factor, so every sweep is perturbed. Not thread-safe:
 * one instance serves one thread.
 */
final class UlpPerturbedBackend implements DenseBackend {
  private final DenseBackend base;
  private final SplittableRandom coin;

  UlpPerturbedBackend(DenseBackend base, long seed) {
    this.base = base;
    this.coin = new SplittableRandom(seed);
  }

  @Override
  public String name() {
    return base.name();
  }

  @Override
  public boolean potrf(int n, double[] a) {
    for (int i = 0; i < n; i++) {
      double d = a[i * n + i];
      a[i * n + i] = coin.nextBoolean() ? Math.nextUp(d) : Math.nextDown(d);
    }
    return base.potrf(n, a);
  }

  @Override
  public void trsm(int n, double[] l, boolean transpose, int m, double[] b) {
    base.trsm(n, l, transpose, m, b);
  }

  @Override
  public void gemm(
      boolean transA, boolean transB, int m, int p, int k, double[] a, double[] b, double[] c) {
    base.gemm(transA, transB, m, p, k, a, b, c);
  }

  @Override
  public void gram(int rows, int cols, double[] a, double[] c) {
    base.gram(rows, cols, a, c);
  }

  @Override
  public void inverse(int n, double[] l, double[] c) {
    base.inverse(n, l, c);
  }

  @Override
  public void symmetricUpdateUpper(int n, int from, int k, double[] u, double[] w, double[] a) {
    base.symmetricUpdateUpper(n, from, k, u, w, a);
  }

  @Override
  public boolean luSolve(int n, double[] a, double[] b) {
    return base.luSolve(n, a, b);
  }
}
