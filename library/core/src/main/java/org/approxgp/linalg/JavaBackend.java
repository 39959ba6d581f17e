package org.approxgp.linalg;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.CholeskyDecomposition_F64;

/**
 * The pure-Java backend: EJML's Cholesky and products, and blocked row-oriented Java loops for the
 * triangular solves, the Gram product and the inverse (the JIT vectorises their inner axpys). Always
 * available; the fallback when the native library cannot load.
 */
final class JavaBackend implements DenseBackend {
  static final JavaBackend INSTANCE = new JavaBackend();

  private JavaBackend() {}

  @Override
  public String name() {
    return "ejml";
  }

  @Override
  public boolean potrf(int n, double[] a) {
    mirrorLower(
        n, a); // only the lower triangle may be read; EJML's inner Cholesky reads the upper one
    DMatrixRMaj m = DMatrixRMaj.wrap(n, n, a);
    CholeskyDecomposition_F64<DMatrixRMaj> chol = DecompositionFactory_DDRM.chol(n, true);
    if (!chol.decompose(m)) {
      return false;
    }
    DMatrixRMaj lower = chol.getT(null);
    double[] ld = lower.data;
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        a[i * n + j] = j <= i ? ld[i * n + j] : 0.0;
      }
    }
    return true;
  }

  @Override
  public void trsm(int n, double[] l, boolean transpose, int m, double[] b) {
    if (transpose) {
      backward(n, l, m, b);
    } else {
      forward(n, l, m, b);
    }
  }

  /**
   * Row-oriented forward substitution, X_i = (B_i − Σ_{k&lt;i} L_ik X_k)/L_ii, with rows taken four at
   * a time so that each row X_k is read once per block instead of once per row.
   */
  private static void forward(int n, double[] l, int m, double[] x) {
    int i0 = 0;
    for (; i0 + 4 <= n; i0 += 4) {
      int o0 = i0 * m;
      int o1 = o0 + m;
      int o2 = o1 + m;
      int o3 = o2 + m;
      for (int k = 0; k < i0; k++) {
        double l0 = l[i0 * n + k];
        double l1 = l[(i0 + 1) * n + k];
        double l2 = l[(i0 + 2) * n + k];
        double l3 = l[(i0 + 3) * n + k];
        int ok = k * m;
        for (int j = 0; j < m; j++) {
          double xk = x[ok + j];
          x[o0 + j] -= l0 * xk;
          x[o1 + j] -= l1 * xk;
          x[o2 + j] -= l2 * xk;
          x[o3 + j] -= l3 * xk;
        }
      }
      for (int i = i0; i < i0 + 4; i++) {
        finishRow(n, l, x, m, i, i0);
      }
    }
    for (int i = i0; i < n; i++) {
      finishRow(n, l, x, m, i, 0);
    }
  }

  /** Completes row i of a forward substitution whose contributions from rows below {@code from} are done. */
  private static void finishRow(int n, double[] l, double[] x, int m, int i, int from) {
    int oi = i * m;
    for (int k = from; k < i; k++) {
      double lik = l[i * n + k];
      if (lik == 0) {
        continue;
      }
      int ok = k * m;
      for (int j = 0; j < m; j++) {
        x[oi + j] -= lik * x[ok + j];
      }
    }
    double inv = 1.0 / l[i * n + i];
    for (int j = 0; j < m; j++) {
      x[oi + j] *= inv;
    }
  }

  /** Back substitution with Lᵀ: X_i = X_i / L_ii, then X_k −= L_ik X_i for k &lt; i. */
  private static void backward(int n, double[] l, int m, double[] x) {
    for (int i = n - 1; i >= 0; i--) {
      int oi = i * m;
      double inv = 1.0 / l[i * n + i];
      for (int j = 0; j < m; j++) {
        x[oi + j] *= inv;
      }
      for (int k = 0; k < i; k++) {
        double lik = l[i * n + k];
        if (lik == 0) {
          continue;
        }
        int ok = k * m;
        for (int j = 0; j < m; j++) {
          x[ok + j] -= lik * x[oi + j];
        }
      }
    }
  }

  @Override
  public void gemm(
      boolean transA, boolean transB, int m, int p, int k, double[] a, double[] b, double[] c) {
    DMatrixRMaj am = transA ? DMatrixRMaj.wrap(k, m, a) : DMatrixRMaj.wrap(m, k, a);
    DMatrixRMaj bm = transB ? DMatrixRMaj.wrap(p, k, b) : DMatrixRMaj.wrap(k, p, b);
    DMatrixRMaj cm = DMatrixRMaj.wrap(m, p, c);
    if (transA && transB) {
      CommonOps_DDRM.multTransAB(am, bm, cm);
    } else if (transA) {
      CommonOps_DDRM.multTransA(am, bm, cm);
    } else if (transB) {
      CommonOps_DDRM.multTransB(am, bm, cm);
    } else {
      CommonOps_DDRM.mult(am, bm, cm);
    }
  }

  /**
   * Σ_k r_k r_kᵀ over rows r_k, accumulated into the lower triangle four rows at a time (so the result
   * is streamed once per four rows), then mirrored.
   */
  @Override
  public void gram(int rows, int m, double[] data, double[] c) {
    java.util.Arrays.fill(c, 0, m * m, 0.0);
    int k0 = 0;
    for (; k0 + 4 <= rows; k0 += 4) {
      int a0 = k0 * m;
      int a1 = a0 + m;
      int a2 = a1 + m;
      int a3 = a2 + m;
      for (int p = 0; p < m; p++) {
        double v0 = data[a0 + p];
        double v1 = data[a1 + p];
        double v2 = data[a2 + p];
        double v3 = data[a3 + p];
        int op = p * m;
        for (int q = 0; q <= p; q++) {
          c[op + q] +=
              v0 * data[a0 + q] + v1 * data[a1 + q] + v2 * data[a2 + q] + v3 * data[a3 + q];
        }
      }
    }
    for (int k = k0; k < rows; k++) {
      int a = k * m;
      for (int p = 0; p < m; p++) {
        double v = data[a + p];
        int op = p * m;
        for (int q = 0; q <= p; q++) {
          c[op + q] += v * data[a + q];
        }
      }
    }
    mirrorLower(m, c);
  }

  /**
   * Via M = L⁻¹ (lower triangular, built row by row: row_i = (e_i − Σ_{k&lt;i} L_ik row_k)/L_ii) and
   * A⁻¹ = Mᵀ M = Σ_k row_k row_kᵀ, each in n³/6 multiply-adds (a third of solving against I).
   */
  @Override
  public void inverse(int n, double[] l, double[] a) {
    double[] m = new double[n * n];
    for (int i = 0; i < n; i++) {
      int oi = i * n;
      for (int k = 0; k < i; k++) {
        double lik = l[oi + k];
        if (lik == 0) {
          continue;
        }
        int ok = k * n;
        for (int j = 0; j <= k; j++) {
          m[oi + j] -= lik * m[ok + j];
        }
      }
      m[oi + i] += 1.0;
      double inv = 1.0 / l[oi + i];
      for (int j = 0; j <= i; j++) {
        m[oi + j] *= inv;
      }
    }
    java.util.Arrays.fill(a, 0, n * n, 0.0);
    for (int k = 0; k < n; k++) {
      int ok = k * n;
      for (int p = 0; p <= k; p++) {
        double mp = m[ok + p];
        if (mp == 0) {
          continue;
        }
        int op = p * n;
        for (int q = 0; q <= p; q++) {
          a[op + q] += mp * m[ok + q];
        }
      }
    }
    mirrorLower(n, a);
  }

  /**
   * Row by row, four update vectors at a time: row r's part A[r, r..n) −= Σₗ (wₗ uₗ[r]) uₗ[r..n), so each
   * row of A is streamed once per four vectors (contiguous; the JIT vectorises the inner loop).
   */
  @Override
  public void symmetricUpdateUpper(int n, int from, int k, double[] u, double[] w, double[] a) {
    for (int r = from; r < n; r++) {
      int o = r * n;
      int l = 0;
      for (; l + 4 <= k; l += 4) {
        int o0 = l * n;
        int o1 = o0 + n;
        int o2 = o1 + n;
        int o3 = o2 + n;
        double c0 = w[l] * u[o0 + r];
        double c1 = w[l + 1] * u[o1 + r];
        double c2 = w[l + 2] * u[o2 + r];
        double c3 = w[l + 3] * u[o3 + r];
        for (int j = r; j < n; j++) {
          a[o + j] -= c0 * u[o0 + j] + c1 * u[o1 + j] + c2 * u[o2 + j] + c3 * u[o3 + j];
        }
      }
      for (; l < k; l++) {
        int ol = l * n;
        double c = w[l] * u[ol + r];
        if (c == 0) {
          continue;
        }
        for (int j = r; j < n; j++) {
          a[o + j] -= c * u[ol + j];
        }
      }
    }
  }

  /**
   * Gaussian elimination with partial pivoting (Golub &amp; Van Loan §3.4.3), row-oriented: for each column
   * the largest remaining |entry| is swapped onto the diagonal, the rows below are eliminated (their
   * multipliers applied to b as it goes), then back substitution with U.
   */
  @Override
  public boolean luSolve(int n, double[] t, double[] b) {
    for (int c = 0; c < n; c++) {
      int piv = c;
      double best = Math.abs(t[c * n + c]);
      for (int r = c + 1; r < n; r++) {
        double v = Math.abs(t[r * n + c]);
        if (v > best) {
          best = v;
          piv = r;
        }
      }
      if (!(best > 0)) {
        return false;
      }
      if (piv != c) {
        for (int j = 0; j < n; j++) {
          double tmp = t[c * n + j];
          t[c * n + j] = t[piv * n + j];
          t[piv * n + j] = tmp;
        }
        double tmp = b[c];
        b[c] = b[piv];
        b[piv] = tmp;
      }
      double inv = 1.0 / t[c * n + c];
      int oc = c * n;
      for (int r = c + 1; r < n; r++) {
        int or = r * n;
        double f = t[or + c] * inv;
        if (f == 0) {
          continue;
        }
        t[or + c] = 0;
        for (int j = c + 1; j < n; j++) {
          t[or + j] -= f * t[oc + j];
        }
        b[r] -= f * b[c];
      }
    }
    for (int c = n - 1; c >= 0; c--) {
      double s = b[c];
      int oc = c * n;
      for (int j = c + 1; j < n; j++) {
        s -= t[oc + j] * b[j];
      }
      b[c] = s / t[oc + c];
    }
    return true;
  }

  /** Copies the strict lower triangle of the n × n row-major {@code c} onto its upper triangle. */
  static void mirrorLower(int n, double[] c) {
    for (int p = 0; p < n; p++) {
      for (int q = 0; q < p; q++) {
        c[q * n + p] = c[p * n + q];
      }
    }
  }
}
