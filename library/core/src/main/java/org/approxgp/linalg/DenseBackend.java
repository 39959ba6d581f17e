package org.approxgp.linalg;

/**
 * The dense kernels {@link Matrix} and {@link Cholesky} delegate to: Cholesky factorisation (LAPACK
 * dpotrf), triangular solves with a matrix right-hand side (BLAS dtrsm), the Gram product (dsyrk), the
 * general product (dgemm), the inverse from a Cholesky factor (dpotri), a weighted symmetric rank-k update
 * of a trailing upper triangle (dsyrk) and a general solve by LU with partial pivoting (dgetrf/dgetrs).
 * Every array is row-major and dense; a factor is lower triangular with zeros above the diagonal.
 *
 * <p>Implementations: {@link JavaBackend} (EJML plus blocked Java loops, the pure-Java fallback) and
 * {@link NativeBackend} (OpenBLAS through JavaCPP). The log-determinant is not part of the seam: it is
 * 2 Σ log L_ii on the factor's diagonal (O(n)), computed by {@link Cholesky#logDet()} identically for
 * every backend. Golub &amp; Van Loan, <i>Matrix Computations</i>, 4th ed., §4.2 (Cholesky), §3.1
 * (triangular systems), §1.1 (matrix products), §3.4 (LU with partial pivoting).
 */
interface DenseBackend {

  /** The name reported by {@link Linalg#backendName()} and written into result rows. */
  String name();

  /**
   * In place: the lower Cholesky factor L of the n × n matrix in {@code a} (only its lower triangle is
   * read), with the strict upper triangle set to zero.
   *
   * @return false if the matrix is not numerically positive definite (dpotrf's info &gt; 0); the
   *     contents of {@code a} are then unspecified
   */
  boolean potrf(int n, double[] a);

  /**
   * In place: B ← L⁻¹ B ({@code transpose} false) or B ← L⁻ᵀ B ({@code transpose} true), with L the
   * n × n lower factor in {@code l} and B an n × m matrix.
   */
  void trsm(int n, double[] l, boolean transpose, int m, double[] b);

  /**
   * c ← op(A) · op(B) (c overwritten), with op(A) of size m × k and op(B) of size k × p. A is stored
   * as m × k ({@code transA} false) or k × m ({@code transA} true), likewise B.
   */
  void gemm(
      boolean transA, boolean transB, int m, int p, int k, double[] a, double[] b, double[] c);

  /** c ← Aᵀ A (c overwritten, both triangles) for A stored rows × cols; c is cols × cols. */
  void gram(int rows, int cols, double[] a, double[] c);

  /** c ← (L Lᵀ)⁻¹ (c overwritten, both triangles) for the n × n lower factor in {@code l}. */
  void inverse(int n, double[] l, double[] c);

  /**
   * In place on the trailing upper triangle of the n × n matrix {@code a}: for from ≤ r ≤ j &lt; n,
   * A[r, j] ← A[r, j] − Σₗ wₗ uₗ[r] uₗ[j] over the k rows uₗ of {@code u} (stored k × n; entries before
   * {@code from} are not read) with weights wₗ of either sign. Every other entry of {@code a} is neither
   * read nor written.
   */
  void symmetricUpdateUpper(int n, int from, int k, double[] u, double[] w, double[] a);

  /**
   * In place: b ← A⁻¹ b for the n × n matrix {@code a} (destroyed: it holds the LU factors afterwards)
   * by LU with partial pivoting.
   *
   * @return false if a pivot is exactly zero (A singular); {@code b} is then unspecified
   */
  boolean luSolve(int n, double[] a, double[] b);
}
