package org.approxgp.linalg;

import java.util.Arrays;
import org.ejml.data.DMatrixRMaj;

/**
 * A dense real matrix stored row-major in one {@code double[]}.
 *
 * <p>Mutable by design (it is a numerical work array); methods document whether they modify
 * {@code this} ("Modified") or return a new matrix. {@link #data()} exposes the backing array for hot
 * loops in the packages above: element (i, j) is {@code data()[i * cols() + j]}.
 */
public final class Matrix {
  private final int rows;
  private final int cols;
  private final double[] data;

  private Matrix(int rows, int cols, double[] data) {
    if (rows < 0 || cols < 0) {
      throw new IllegalArgumentException("negative dimension " + rows + "x" + cols);
    }
    if (data.length != rows * cols) {
      throw new IllegalArgumentException("data length " + data.length + " != " + rows + "*" + cols);
    }
    this.rows = rows;
    this.cols = cols;
    this.data = data;
  }

  /** A rows × cols matrix of zeros. */
  public static Matrix zeros(int rows, int cols) {
    return new Matrix(rows, cols, new double[rows * cols]);
  }

  /** The n × n identity. */
  public static Matrix identity(int n) {
    Matrix m = zeros(n, n);
    for (int i = 0; i < n; i++) {
      m.data[i * n + i] = 1.0;
    }
    return m;
  }

  /** Wraps (does not copy) a row-major array. */
  public static Matrix wrap(int rows, int cols, double[] rowMajor) {
    return new Matrix(rows, cols, rowMajor);
  }

  /** Copies a rectangular {@code double[][]} (rows of equal length). */
  public static Matrix of(double[][] a) {
    int r = a.length;
    int c = r == 0 ? 0 : a[0].length;
    double[] d = new double[r * c];
    for (int i = 0; i < r; i++) {
      if (a[i].length != c) {
        throw new IllegalArgumentException(
            "ragged array: row " + i + " has " + a[i].length + " != " + c);
      }
      System.arraycopy(a[i], 0, d, i * c, c);
    }
    return new Matrix(r, c, d);
  }

  /** The diagonal matrix diag(v). */
  public static Matrix diagonal(double[] v) {
    Matrix m = zeros(v.length, v.length);
    for (int i = 0; i < v.length; i++) {
      m.data[i * v.length + i] = v[i];
    }
    return m;
  }

  public int rows() {
    return rows;
  }

  public int cols() {
    return cols;
  }

  /** The backing row-major array (not a copy). */
  public double[] data() {
    return data;
  }

  public double get(int i, int j) {
    return data[i * cols + j];
  }

  /** Modified. */
  public void set(int i, int j, double v) {
    data[i * cols + j] = v;
  }

  public Matrix copy() {
    return new Matrix(rows, cols, data.clone());
  }

  /** The diagonal as a new array. */
  public double[] diag() {
    int n = Math.min(rows, cols);
    double[] d = new double[n];
    for (int i = 0; i < n; i++) {
      d[i] = data[i * cols + i];
    }
    return d;
  }

  /** Row i as a new array. */
  public double[] row(int i) {
    return Arrays.copyOfRange(data, i * cols, (i + 1) * cols);
  }

  /** Column j as a new array. */
  public double[] col(int j) {
    double[] c = new double[rows];
    for (int i = 0; i < rows; i++) {
      c[i] = data[i * cols + j];
    }
    return c;
  }

  public double[][] toArray() {
    double[][] a = new double[rows][];
    for (int i = 0; i < rows; i++) {
      a[i] = row(i);
    }
    return a;
  }

  public Matrix transpose() {
    Matrix t = zeros(cols, rows);
    for (int i = 0; i < rows; i++) {
      for (int j = 0; j < cols; j++) {
        t.data[j * rows + i] = data[i * cols + j];
      }
    }
    return t;
  }

  /** this · b (new matrix). */
  public Matrix mult(Matrix b) {
    requireInner(cols, b.rows);
    Matrix c = zeros(rows, b.cols);
    Linalg.current().gemm(false, false, rows, b.cols, cols, data, b.data, c.data);
    return c;
  }

  /** thisᵀ · b (new matrix). */
  public Matrix multTransA(Matrix b) {
    requireInner(rows, b.rows);
    Matrix c = zeros(cols, b.cols);
    Linalg.current().gemm(true, false, cols, b.cols, rows, data, b.data, c.data);
    return c;
  }

  /** thisᵀ · this (new symmetric matrix; BLAS dsyrk, half the work of {@code multTransA(this)}). */
  public Matrix gram() {
    double[] c = new double[cols * cols];
    Linalg.current().gram(rows, cols, data, c);
    return wrap(cols, cols, c);
  }

  /** this · bᵀ (new matrix). */
  public Matrix multTransB(Matrix b) {
    requireInner(cols, b.cols);
    Matrix c = zeros(rows, b.rows);
    Linalg.current().gemm(false, true, rows, b.rows, cols, data, b.data, c.data);
    return c;
  }

  /** this · v (new vector). */
  public double[] mult(double[] v) {
    requireInner(cols, v.length);
    double[] out = new double[rows];
    int i = 0;
    // four rows at a time: four independent sums, each still added up in column order (the same
    // roundings as one row at a time), so that the additions' latency overlaps
    for (; i + 4 <= rows; i += 4) {
      int o0 = i * cols;
      int o1 = o0 + cols;
      int o2 = o1 + cols;
      int o3 = o2 + cols;
      double s0 = 0;
      double s1 = 0;
      double s2 = 0;
      double s3 = 0;
      for (int j = 0; j < cols; j++) {
        double vj = v[j];
        s0 += data[o0 + j] * vj;
        s1 += data[o1 + j] * vj;
        s2 += data[o2 + j] * vj;
        s3 += data[o3 + j] * vj;
      }
      out[i] = s0;
      out[i + 1] = s1;
      out[i + 2] = s2;
      out[i + 3] = s3;
    }
    for (; i < rows; i++) {
      double s = 0;
      int o = i * cols;
      for (int j = 0; j < cols; j++) {
        s += data[o + j] * v[j];
      }
      out[i] = s;
    }
    return out;
  }

  /** thisᵀ · v (new vector). */
  public double[] multTransA(double[] v) {
    requireInner(rows, v.length);
    double[] out = new double[cols];
    for (int i = 0; i < rows; i++) {
      double vi = v[i];
      if (vi == 0) {
        continue;
      }
      int o = i * cols;
      for (int j = 0; j < cols; j++) {
        out[j] += data[o + j] * vi;
      }
    }
    return out;
  }

  /** Modified: this ← this + alpha · x xᵀ (symmetric rank-one update; square matrices). */
  public void addRank1(double alpha, double[] x) {
    requireSquare();
    requireInner(rows, x.length);
    for (int i = 0; i < rows; i++) {
      double ax = alpha * x[i];
      if (ax == 0) {
        continue;
      }
      int o = i * cols;
      for (int j = 0; j < cols; j++) {
        data[o + j] += ax * x[j];
      }
    }
  }

  /**
   * Modified, trailing upper triangle only: for from ≤ r ≤ j &lt; n, this[r, j] −= Σₗ wₗ uₗ[r] uₗ[j] over the
   * first k rows uₗ of {@code u} (stored row-major, k × n; entries before {@code from} are not read),
   * weights of either sign; every other entry is neither read nor written. With from = 0 it is the upper
   * triangle of this − Uᵀ diag(w) U: a symmetric rank-k update through the backend (BLAS dsyrk), e.g. k
   * delayed rank-one updates applied at once (square matrices).
   */
  public void symmetricUpdateUpper(int from, int k, double[] u, double[] w) {
    requireSquare();
    if (from < 0 || from > rows || k < 0 || u.length < (long) k * rows || w.length < k) {
      throw new IllegalArgumentException("need 0 <= from = " + from + " <= " + rows + ", k = " + k
          + " >= 0 rows of length " + rows + " and k weights, got " + u.length + " values and "
          + w.length
          + " weights");
    }
    Linalg.current().symmetricUpdateUpper(rows, from, k, u, w, data);
  }

  /**
   * x with A x = b for this square matrix A by LU with partial pivoting (LAPACK dgetrf/dgetrs on the native
   * backend; Golub &amp; Van Loan §3.4). This matrix and b are unchanged.
   *
   * @throws SingularMatrixException if a pivot is exactly zero
   */
  public double[] luSolve(double[] b) {
    requireSquare();
    requireInner(rows, b.length);
    double[] x = b.clone();
    if (!Linalg.current().luSolve(rows, data.clone(), x)) {
      throw new SingularMatrixException(
          "the " + rows + "x" + rows + " matrix is singular (zero pivot in LU)");
    }
    return x;
  }

  /**
   * Modified: this ← (this + thisᵀ)/2 (square matrices), each off-diagonal pair replaced by its mean: removes
   * the round-off asymmetry of a product that is symmetric in exact arithmetic.
   */
  public void symmetrize() {
    requireSquare();
    int n = rows;
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < i; j++) {
        double v = 0.5 * (data[i * n + j] + data[j * n + i]);
        data[i * n + j] = v;
        data[j * n + i] = v;
      }
    }
  }

  /** Modified: this ← this + alpha · I. */
  public void addDiagonal(double alpha) {
    requireSquare();
    for (int i = 0; i < rows; i++) {
      data[i * cols + i] += alpha;
    }
  }

  /** Modified: this ← alpha · this. */
  public void scale(double alpha) {
    for (int k = 0; k < data.length; k++) {
      data[k] *= alpha;
    }
  }

  /** Modified: row i ← row i · r[i] and column j ← column j · c[j], i.e. this ← diag(r) · this · diag(c). */
  public void scaleRowsCols(double[] r, double[] c) {
    requireInner(rows, r.length);
    requireInner(cols, c.length);
    for (int i = 0; i < rows; i++) {
      int o = i * cols;
      double ri = r[i];
      for (int j = 0; j < cols; j++) {
        data[o + j] *= ri * c[j];
      }
    }
  }

  /** Σ_ij this_ij · b_ij (Frobenius inner product). */
  public double dot(Matrix b) {
    requireInner(rows, b.rows);
    requireInner(cols, b.cols);
    double s = 0;
    for (int k = 0; k < data.length; k++) {
      s += data[k] * b.data[k];
    }
    return s;
  }

  /** xᵀ · this · y. */
  public double bilinear(double[] x, double[] y) {
    requireInner(rows, x.length);
    requireInner(cols, y.length);
    double s = 0;
    for (int i = 0; i < rows; i++) {
      double t = 0;
      int o = i * cols;
      for (int j = 0; j < cols; j++) {
        t += data[o + j] * y[j];
      }
      s += x[i] * t;
    }
    return s;
  }

  /** Largest |this_ij − b_ij|. */
  public double maxAbsDiff(Matrix b) {
    requireInner(rows, b.rows);
    requireInner(cols, b.cols);
    double m = 0;
    for (int k = 0; k < data.length; k++) {
      m = Math.max(m, Math.abs(data[k] - b.data[k]));
    }
    return m;
  }

  DMatrixRMaj ejml() {
    return DMatrixRMaj.wrap(rows, cols, data);
  }

  void requireSquare() {
    if (rows != cols) {
      throw new IllegalArgumentException("matrix is " + rows + "x" + cols + ", not square");
    }
  }

  static void requireInner(int a, int b) {
    if (a != b) {
      throw new IllegalArgumentException("dimension mismatch: " + a + " vs " + b);
    }
  }

  @Override
  public String toString() {
    return "Matrix[" + rows + "x" + cols + "]";
  }
}
