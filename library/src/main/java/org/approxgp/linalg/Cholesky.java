package org.approxgp.linalg;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.CholeskyDecomposition_F64;

/**
 * The Cholesky factorisation A + δI = L Lᵀ of a symmetric positive-definite matrix, with L lower
 * triangular and δ ≥ 0 the jitter the {@link JitterPolicy} needed (reported by {@link #jitter()}).
 *
 * <p>Immutable once built: the factor is never modified by the solve methods (they return new
 * arrays). Golub &amp; Van Loan §4.2.
 */
public final class Cholesky {
  private final int n;
  private final double[] l; // row-major lower factor; upper part is zero
  private final double jitter;
  private final int attempts;

  private Cholesky(int n, double[] l, double jitter, int attempts) {
    this.n = n;
    this.l = l;
    this.jitter = jitter;
    this.attempts = attempts;
  }

  /**
   * Factors A (not modified; only its lower triangle is read).
   *
   * @throws NotPositiveDefiniteException if the factorisation fails with every jitter allowed
   */
  public static Cholesky factor(Matrix a, JitterPolicy policy) {
    a.requireSquare();
    int n = a.rows();
    double meanDiag = 0;
    for (int i = 0; i < n; i++) {
      meanDiag += a.get(i, i);
    }
    meanDiag = n == 0 ? 1 : meanDiag / n;
    if (!(meanDiag > 0) || !Double.isFinite(meanDiag)) {
      throw new NotPositiveDefiniteException("matrix has non-positive or non-finite mean diagonal " + meanDiag, 0);
    }
    double jitter = 0;
    for (int attempt = 0; attempt <= policy.maxTries(); attempt++) {
      if (attempt > 0) {
        jitter = policy.initial() * meanDiag * Math.pow(policy.growth(), attempt - 1);
      }
      double[] work = a.data().clone();
      for (int i = 0; i < n; i++) {
        work[i * n + i] += jitter;
      }
      if (decompose(n, work)) {
        return new Cholesky(n, work, jitter, attempt + 1);
      }
    }
    throw new NotPositiveDefiniteException(
        "matrix (" + n + "x" + n + ") is not positive definite"
            + (policy.maxTries() > 0 ? " even with jitter " + jitter : " and no jitter is allowed"),
        jitter);
  }

  /** Factors A with {@link JitterPolicy#none()}. */
  public static Cholesky factor(Matrix a) {
    return factor(a, JitterPolicy.none());
  }

  /** Wraps an existing lower-triangular factor (copied; upper triangle ignored). */
  public static Cholesky ofFactor(Matrix lower) {
    lower.requireSquare();
    int n = lower.rows();
    double[] l = new double[n * n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j <= i; j++) {
        l[i * n + j] = lower.get(i, j);
      }
      if (!(l[i * n + i] > 0)) {
        throw new IllegalArgumentException("factor diagonal " + i + " is not positive: " + l[i * n + i]);
      }
    }
    return new Cholesky(n, l, 0, 1);
  }

  private static boolean decompose(int n, double[] work) {
    DMatrixRMaj m = DMatrixRMaj.wrap(n, n, work);
    CholeskyDecomposition_F64<DMatrixRMaj> chol = DecompositionFactory_DDRM.chol(n, true);
    if (!chol.decompose(m)) {
      return false;
    }
    DMatrixRMaj lower = chol.getT(null);
    double[] ld = lower.data;
    for (int i = 0; i < n; i++) {
      double d = ld[i * n + i];
      if (!(d > 0) || !Double.isFinite(d)) {
        return false;
      }
      for (int j = 0; j < n; j++) {
        work[i * n + j] = j <= i ? ld[i * n + j] : 0.0;
      }
    }
    return true;
  }

  public int size() {
    return n;
  }

  /** The jitter δ added to the diagonal before factoring (0 when none was needed). */
  public double jitter() {
    return jitter;
  }

  /** How many factorisations were tried (1 = succeeded without jitter). */
  public int attempts() {
    return attempts;
  }

  /** L as a new matrix. */
  public Matrix lower() {
    return Matrix.wrap(n, n, l.clone());
  }

  /** L[i][j] (0 above the diagonal). */
  public double lowerAt(int i, int j) {
    return l[i * n + j];
  }

  /** log det(A + δI) = 2 Σ log L_ii. */
  public double logDet() {
    double s = 0;
    for (int i = 0; i < n; i++) {
      s += Math.log(l[i * n + i]);
    }
    return 2 * s;
  }

  /** x with L x = b (forward substitution). */
  public double[] solveLower(double[] b) {
    Matrix.requireInner(n, b.length);
    double[] x = b.clone();
    for (int i = 0; i < n; i++) {
      double s = x[i];
      int o = i * n;
      for (int k = 0; k < i; k++) {
        s -= l[o + k] * x[k];
      }
      x[i] = s / l[o + i];
    }
    return x;
  }

  /** x with Lᵀ x = b (back substitution). */
  public double[] solveUpper(double[] b) {
    Matrix.requireInner(n, b.length);
    double[] x = b.clone();
    for (int i = n - 1; i >= 0; i--) {
      x[i] /= l[i * n + i];
      double xi = x[i];
      for (int k = 0; k < i; k++) {
        x[k] -= l[i * n + k] * xi;
      }
    }
    return x;
  }

  /** x with (L Lᵀ) x = b. */
  public double[] solve(double[] b) {
    return solveUpper(solveLower(b));
  }

  /**
   * X with L X = B (new matrix; B not modified). Row-oriented forward substitution,
   * X_i = (B_i − Σ_{k&lt;i} L_ik X_k)/L_ii, with rows taken four at a time so that each row X_k is
   * read once per block instead of once per row (the inner loops are axpys the JIT vectorises).
   */
  public Matrix solveLower(Matrix b) {
    Matrix.requireInner(n, b.rows());
    int m = b.cols();
    double[] x = b.data().clone();
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
        finishRow(x, m, i, i0);
      }
    }
    for (int i = i0; i < n; i++) {
      finishRow(x, m, i, 0);
    }
    return Matrix.wrap(n, m, x);
  }

  /** Completes row i of a forward substitution whose contributions from rows below {@code from} are done. */
  private void finishRow(double[] x, int m, int i, int from) {
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

  /** X with Lᵀ X = B (new matrix; B not modified). */
  public Matrix solveUpper(Matrix b) {
    Matrix.requireInner(n, b.rows());
    int m = b.cols();
    double[] x = b.data().clone();
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
    return Matrix.wrap(n, m, x);
  }

  /** X with (L Lᵀ) X = B. */
  public Matrix solve(Matrix b) {
    return solveUpper(solveLower(b));
  }

  /**
   * (L Lᵀ)⁻¹ as a new symmetric matrix, via M = L⁻¹ (lower triangular, built row by row:
   * row_i = (e_i − Σ_{k&lt;i} L_ik row_k)/L_ii) and A⁻¹ = Mᵀ M = Σ_k row_k row_kᵀ, each in n³/6
   * multiply-adds (a third of solving against the identity).
   */
  public Matrix inverse() {
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
    double[] a = new double[n * n];
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
    for (int p = 0; p < n; p++) {
      for (int q = 0; q < p; q++) {
        a[q * n + p] = a[p * n + q];
      }
    }
    return Matrix.wrap(n, n, a);
  }

  /** bᵀ (L Lᵀ)⁻¹ b = ‖L⁻¹ b‖². */
  public double quadForm(double[] b) {
    double[] y = solveLower(b);
    double s = 0;
    for (double v : y) {
      s += v * v;
    }
    return s;
  }

  /**
   * The factor of L Lᵀ + sign · x xᵀ (sign = +1 update, −1 downdate), as a new {@code Cholesky}
   * (Gill, Golub, Murray &amp; Saunders 1974, method C1 via Givens-like hyperbolic rotations).
   *
   * @throws NotPositiveDefiniteException if a downdate makes the matrix indefinite
   */
  public Cholesky rank1Update(double[] x, int sign) {
    Matrix.requireInner(n, x.length);
    if (sign != 1 && sign != -1) {
      throw new IllegalArgumentException("sign must be +1 or -1, got " + sign);
    }
    double[] nl = l.clone();
    double[] w = x.clone();
    for (int k = 0; k < n; k++) {
      double lkk = nl[k * n + k];
      // r² = L_kk² ± w_k²: the new diagonal element
      double r2 = lkk * lkk + sign * w[k] * w[k];
      if (!(r2 > 0)) {
        throw new NotPositiveDefiniteException("rank-1 downdate makes the matrix indefinite at row " + k, 0);
      }
      double r = Math.sqrt(r2);
      double c = r / lkk;
      double s = w[k] / lkk;
      nl[k * n + k] = r;
      for (int i = k + 1; i < n; i++) {
        double lik = (nl[i * n + k] + sign * s * w[i]) / c;
        w[i] = c * w[i] - s * lik;
        nl[i * n + k] = lik;
      }
    }
    return new Cholesky(n, nl, jitter, attempts);
  }
}
