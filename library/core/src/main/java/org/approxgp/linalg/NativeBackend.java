package org.approxgp.linalg;

import java.nio.DoubleBuffer;
import org.bytedeco.javacpp.DoublePointer;
import org.bytedeco.openblas.global.openblas;

/**
 * OpenBLAS (BLAS + LAPACK) through the JavaCPP presets {@code org.bytedeco:openblas}, whose
 * platform JAR bundles the shared library (no system install).
 *
 * <p>Layout: our arrays are row-major. The cblas calls take {@code CblasRowMajor} directly. For LAPACK
 * we avoid LAPACKE's row-major path (which transposes into a scratch copy): a row-major n × n array
 * read as column-major is the transpose, so the row-major lower triangle is the column-major upper
 * triangle, and column-major dpotrf/dpotri with {@code uplo = 'U'} (A = UᵀU, U = Lᵀ) work in place on
 * exactly the entries we want.
 *
 * <p>Problems whose size is below {@code crossover} (n for a factorisation or solve, the cube root of
 * the multiply-add count for a product) go to {@link JavaBackend}: there the call overhead of the
 * native route (JNI plus JavaCPP's copy of each array) exceeds the arithmetic it saves.
 */
final class NativeBackend implements DenseBackend {
  private final DenseBackend small;
  private final int crossover;

  /**
   * Loads the native library and sets the BLAS thread count.
   *
   * @param threads OpenBLAS threads (1 by default: trials already run in parallel)
   * @param crossover sizes below this go to the pure-Java backend (0: never)
   * @throws LinkageError or another {@link Throwable} if the native library cannot load
   */
  NativeBackend(int threads, int crossover) {
    openblas.blas_set_num_threads(threads);
    this.small = JavaBackend.INSTANCE;
    this.crossover = crossover;
  }

  /** The same native library with another crossover (tests use 0 to exercise the native path at every size). */
  NativeBackend withCrossover(int c) {
    return new NativeBackend(c, this);
  }

  private NativeBackend(int crossover, NativeBackend base) {
    this.small = base.small;
    this.crossover = crossover;
  }

  int crossover() {
    return crossover;
  }

  /** Sets the number of threads OpenBLAS uses (process-wide). */
  static void setThreads(int threads) {
    openblas.blas_set_num_threads(threads);
  }

  /** The OpenBLAS build string ("OpenBLAS 0.3.31 ..."), as the library reports it. */
  static String version() {
    return openblas.OPENBLAS_VERSION.strip();
  }

  /** The number of threads OpenBLAS uses. */
  static int threads() {
    return openblas.blas_get_num_threads();
  }

  @Override
  public String name() {
    return "native";
  }

  private boolean isSmall(long m, long p, long k) {
    long c = crossover;
    return m * p * k < c * c * c;
  }

  @Override
  public boolean potrf(int n, double[] a) {
    if (n < crossover) {
      return small.potrf(n, a);
    }
    // the _work entry point skips LAPACKE's O(n²) NaN scan: a NaN in the lower triangle reaches a
    // diagonal
    // element of L, which dpotrf reports (info > 0) or Cholesky.decompose's diagonal check rejects
    int info = openblas.LAPACKE_dpotrf_work(openblas.LAPACK_COL_MAJOR, (byte) 'U', n, a, n);
    if (info < 0) {
      throw new IllegalStateException("LAPACKE_dpotrf: illegal argument " + (-info));
    }
    if (info > 0) {
      return false; // the leading minor of order info is not positive definite
    }
    for (int i = 0; i < n; i++) {
      java.util.Arrays.fill(a, i * n + i + 1, (i + 1) * n, 0.0);
    }
    return true;
  }

  @Override
  public void trsm(int n, double[] l, boolean transpose, int m, double[] b) {
    if (n < crossover || isSmall(n, n, m)) {
      small.trsm(n, l, transpose, m, b);
      return;
    }
    if (m == 0) {
      return;
    }
    openblas.cblas_dtrsm(
        openblas.CblasRowMajor,
        openblas.CblasLeft,
        openblas.CblasLower,
        transpose ? openblas.CblasTrans : openblas.CblasNoTrans,
        openblas.CblasNonUnit,
        n,
        m,
        1.0,
        l,
        n,
        b,
        m);
  }

  @Override
  public void gemm(
      boolean transA, boolean transB, int m, int p, int k, double[] a, double[] b, double[] c) {
    if (isSmall(m, p, k) || m == 0 || p == 0 || k == 0) {
      small.gemm(transA, transB, m, p, k, a, b, c);
      return;
    }
    openblas.cblas_dgemm(
        openblas.CblasRowMajor,
        transA ? openblas.CblasTrans : openblas.CblasNoTrans,
        transB ? openblas.CblasTrans : openblas.CblasNoTrans,
        m,
        p,
        k,
        1.0,
        a,
        transA ? m : k,
        b,
        transB ? k : p,
        0.0,
        c,
        p);
  }

  @Override
  public void gram(int rows, int cols, double[] a, double[] c) {
    if (isSmall(cols, cols, rows) || rows == 0 || cols == 0) {
      small.gram(rows, cols, a, c);
      return;
    }
    openblas.cblas_dsyrk(
        openblas.CblasRowMajor,
        openblas.CblasLower,
        openblas.CblasTrans,
        cols,
        rows,
        1.0,
        a,
        cols,
        0.0,
        c,
        cols);
    JavaBackend.mirrorLower(cols, c);
  }

  @Override
  public void inverse(int n, double[] l, double[] c) {
    if (n < crossover) {
      small.inverse(n, l, c);
      return;
    }
    System.arraycopy(l, 0, c, 0, n * n);
    int info = openblas.LAPACKE_dpotri_work(openblas.LAPACK_COL_MAJOR, (byte) 'U', n, c, n);
    if (info != 0) {
      throw new IllegalStateException(
          "LAPACKE_dpotri: info " + info + " on a valid Cholesky factor");
    }
    JavaBackend.mirrorLower(n, c);
  }

  /**
   * dsyrk on the upper triangle: the rows with wₗ &gt; 0 scaled by √wₗ (α = −1) and those with wₗ &lt; 0
   * scaled by √−wₗ (α = +1), so Σₗ wₗ uₗ uₗᵀ costs m²k flops (m = n − from) and one pass per sign (all
   * weights 1: one call on {@code u} itself). A trailing block (from &gt; 0) is packed into an m × m array
   * and back: JavaCPP passes whole Java arrays, with no offset.
   */
  @Override
  public void symmetricUpdateUpper(int n, int from, int k, double[] u, double[] w, double[] a) {
    int m = n - from;
    if (m < crossover || isSmall(m, m, k) || k == 0) {
      small.symmetricUpdateUpper(n, from, k, u, w, a);
      return;
    }
    boolean unit = from == 0;
    for (int l = 0; l < k && unit; l++) {
      unit = w[l] == 1.0;
    }
    if (unit) { // A − UᵀU: no scaled copy
      openblas.cblas_dsyrk(
          openblas.CblasRowMajor,
          openblas.CblasUpper,
          openblas.CblasTrans,
          n,
          k,
          -1.0,
          u,
          n,
          1.0,
          a,
          n);
      return;
    }
    double[] c = a;
    if (from > 0) {
      c = new double[m * m];
      for (int r = 0; r < m; r++) {
        System.arraycopy(a, (from + r) * n + from + r, c, r * m + r, m - r);
      }
    }
    syrkBySign(
        n,
        from,
        m,
        k,
        u,
        w,
        DoubleBuffer.wrap(new double[k * m]),
        DoubleBuffer.wrap(new double[k * m]),
        DoubleBuffer.wrap(c));
    if (from > 0) {
      for (int r = 0; r < m; r++) {
        System.arraycopy(c, r * m + r, a, (from + r) * n + from + r, m - r);
      }
    }
  }

  /**
   * C ← C − Σₗ wₗ vₗvₗᵀ on the upper triangle of the m × m matrix {@code c} (row-major), vₗ = the m entries of
   * {@code u} from l·n + from: the rows with wₗ &gt; 0 scaled by √wₗ into {@code pos} (one dsyrk, α = −1), those with
   * wₗ &lt; 0 by √−wₗ into {@code neg} (α = +1), rows with wₗ = 0 skipped. The buffers (≥ k m doubles for
   * {@code pos} and {@code neg}) may wrap Java arrays, which JavaCPP copies in and out, or be direct views of
   * native memory, which BLAS reads and writes in place.
   */
  private static void syrkBySign(
      int n,
      int from,
      int m,
      int k,
      double[] u,
      double[] w,
      DoubleBuffer pos,
      DoubleBuffer neg,
      DoubleBuffer c) {
    int kp = 0;
    int kn = 0;
    for (int l = 0; l < k; l++) {
      double wl = w[l];
      if (wl == 0) {
        continue;
      }
      double s = Math.sqrt(Math.abs(wl));
      DoubleBuffer dst = wl > 0 ? pos : neg;
      int o = (wl > 0 ? kp++ : kn++) * m;
      int ol = l * n + from;
      for (int j = 0; j < m; j++) {
        dst.put(o + j, s * u[ol + j]);
      }
    }
    if (kp > 0) {
      openblas.cblas_dsyrk(
          openblas.CblasRowMajor,
          openblas.CblasUpper,
          openblas.CblasTrans,
          m,
          kp,
          -1.0,
          pos,
          m,
          1.0,
          c,
          m);
    }
    if (kn > 0) {
      openblas.cblas_dsyrk(
          openblas.CblasRowMajor,
          openblas.CblasUpper,
          openblas.CblasTrans,
          m,
          kn,
          1.0,
          neg,
          m,
          1.0,
          c,
          m);
    }
  }

  /**
   * n doubles of native memory (JavaCPP's {@link DoublePointer}, malloc'd) and a buffer view of them for
   * Java-side reads and writes; {@link #close} frees the memory (the view must not be used afterwards).
   */
  static final class NativeArray implements AutoCloseable {
    private final DoublePointer pointer;
    private final DoubleBuffer buffer;

    NativeArray(long n) {
      if (n > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(n + " doubles exceed one buffer");
      }
      pointer = new DoublePointer(Math.max(n, 1));
      buffer = pointer.asBuffer();
    }

    DoubleBuffer buffer() {
      return buffer;
    }

    @Override
    public void close() {
      pointer.close();
    }
  }

  /**
   * {@link #symmetricUpdateUpper(int, int, int, double[], double[], double[])} with {@code from} = 0 on a
   * matrix held in native memory ({@link SymmetricUpdates}), with scratch {@code pos} and {@code neg} (≥ k n
   * doubles): {@code a} is updated in place, with no copy of it.
   */
  void symmetricUpdateUpper(
      int n, int k, double[] u, double[] w, NativeArray a, NativeArray pos, NativeArray neg) {
    syrkBySign(n, 0, n, k, u, w, pos.buffer(), neg.buffer(), a.buffer());
  }

  /**
   * dgetrf + dgetrs. The row-major A read as column-major is Aᵀ, so dgetrf factors Aᵀ = P L U in place and
   * dgetrs with trans = 'T' solves (Aᵀ)ᵀ x = b; b is a vector, the same in either layout.
   */
  @Override
  public boolean luSolve(int n, double[] a, double[] b) {
    if (n < crossover) {
      return small.luSolve(n, a, b);
    }
    int[] ipiv = new int[n];
    int info = openblas.LAPACKE_dgetrf_work(openblas.LAPACK_COL_MAJOR, n, n, a, n, ipiv);
    if (info < 0) {
      throw new IllegalStateException("LAPACKE_dgetrf: illegal argument " + (-info));
    }
    if (info > 0) {
      return false; // U(info, info) is exactly zero
    }
    info =
        openblas.LAPACKE_dgetrs_work(openblas.LAPACK_COL_MAJOR, (byte) 'T', n, 1, a, n, ipiv, b, n);
    if (info != 0) {
      throw new IllegalStateException("LAPACKE_dgetrs: info " + info);
    }
    return true;
  }
}
