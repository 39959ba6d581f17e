package org.approxgp.linalg;

/**
 * The Cholesky factorisation A + δI = L Lᵀ of a symmetric positive-definite matrix, with L lower
 * triangular and δ ≥ 0 the jitter the {@link JitterPolicy} needed (reported by {@link #jitter()}).
 *
 * <p>Immutable once built: the factor is never modified by the solve methods (they return new
 * arrays). The factorisation, the matrix solves and the inverse run on the current {@link Linalg} backend;
 * the jitter policy around them is the same for every backend. Golub &amp; Van Loan §4.2.
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
      throw new NotPositiveDefiniteException(
          "matrix has non-positive or non-finite mean diagonal " + meanDiag, 0);
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

  /** Below this order {@link #factorInPlace} factors in plain Java (no allocation); from it on, by the backend. */
  static final int IN_PLACE_BACKEND_MIN = 128;

  /**
   * In place, without jitter: {@code a} (square; only its lower triangle is read) becomes its lower Cholesky factor
   * L with the strict upper triangle zero. For hot loops that refactor a matrix of fixed size every iteration (a
   * stochastic natural-gradient step): below order {@value #IN_PLACE_BACKEND_MIN} it allocates nothing
   * (column-oriented Cholesky–Banachiewicz in plain Java), from it on the backend's dpotrf is used.
   *
   * @return false if {@code a} is not numerically positive definite ({@code a} is then unspecified)
   */
  public static boolean factorInPlace(Matrix a) {
    a.requireSquare();
    int n = a.rows();
    double[] w = a.data();
    if (n >= IN_PLACE_BACKEND_MIN) {
      return decompose(n, w);
    }
    for (int j = 0; j < n; j++) {
      int oj = j * n;
      double djj = w[oj + j];
      for (int k = 0; k < j; k++) {
        djj -= w[oj + k] * w[oj + k];
      }
      if (!(djj > 0) || !Double.isFinite(djj)) {
        return false;
      }
      double ljj = Math.sqrt(djj);
      w[oj + j] = ljj;
      for (int i = j + 1; i < n; i++) {
        int oi = i * n;
        double s = w[oi + j];
        for (int k = 0; k < j; k++) {
          s -= w[oi + k] * w[oj + k];
        }
        w[oi + j] = s / ljj;
      }
      for (int k = j + 1; k < n; k++) {
        w[oj + k] = 0;
      }
    }
    return true;
  }

  /** In place: x ← L⁻¹ x for the lower factor L in {@code l} (upper triangle ignored; no allocation). */
  public static void solveLowerInPlace(Matrix l, double[] x) {
    int n = l.rows();
    Matrix.requireInner(n, x.length);
    double[] a = l.data();
    for (int i = 0; i < n; i++) {
      double s = x[i];
      int o = i * n;
      for (int k = 0; k < i; k++) {
        s -= a[o + k] * x[k];
      }
      x[i] = s / a[o + i];
    }
  }

  /** In place: x ← L⁻ᵀ x for the lower factor L in {@code l} (upper triangle ignored; no allocation). */
  public static void solveUpperInPlace(Matrix l, double[] x) {
    int n = l.rows();
    Matrix.requireInner(n, x.length);
    double[] a = l.data();
    for (int i = n - 1; i >= 0; i--) {
      x[i] /= a[i * n + i];
      double xi = x[i];
      int o = i * n;
      for (int k = 0; k < i; k++) {
        x[k] -= a[o + k] * xi;
      }
    }
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
        throw new IllegalArgumentException(
            "factor diagonal " + i + " is not positive: " + l[i * n + i]);
      }
    }
    return new Cholesky(n, l, 0, 1);
  }

  /**
   * Factors {@code work} in place with the current backend. A factorisation counts as failed when the
   * backend reports it (dpotrf's info &gt; 0) or a diagonal element of L is not positive and finite;
   * the same test on every backend, so the jitter retries of {@link #factor} are backend-independent.
   */
  private static boolean decompose(int n, double[] work) {
    if (!Linalg.current().potrf(n, work)) {
      return false;
    }
    for (int i = 0; i < n; i++) {
      double d = work[i * n + i];
      if (!(d > 0) || !Double.isFinite(d)) {
        return false;
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
    solveLowerInPlace(x);
    return x;
  }

  /** Overwrites x with L⁻¹x, the operations of {@link #solveLower(double[])} in the same order. */
  private void solveLowerInPlace(double[] x) {
    int i = 0;
    // rows i and i + 1 together: two independent sums over k < i (overlapping the additions'
    // latency), then x[i], then row i + 1's last term; each row's terms are subtracted in the
    // order of the one-row loop
    for (; i + 2 <= n; i += 2) {
      int o = i * n;
      int p = o + n;
      double s = x[i];
      double t = x[i + 1];
      for (int k = 0; k < i; k++) {
        double xk = x[k];
        s -= l[o + k] * xk;
        t -= l[p + k] * xk;
      }
      double xi = s / l[o + i];
      x[i] = xi;
      t -= l[p + i] * xi;
      x[i + 1] = t / l[p + i + 1];
    }
    for (; i < n; i++) {
      double s = x[i];
      int o = i * n;
      for (int k = 0; k < i; k++) {
        s -= l[o + k] * x[k];
      }
      x[i] = s / l[o + i];
    }
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

  /** X with L X = B (new matrix; B not modified; BLAS dtrsm). */
  public Matrix solveLower(Matrix b) {
    Matrix.requireInner(n, b.rows());
    double[] x = b.data().clone();
    Linalg.current().trsm(n, l, false, b.cols(), x);
    return Matrix.wrap(n, b.cols(), x);
  }

  /** In place: B ← L⁻¹ B (BLAS dtrsm; saves {@link #solveLower(Matrix)}'s copy when B is scratch). */
  public void solveLowerInPlace(Matrix b) {
    Matrix.requireInner(n, b.rows());
    Linalg.current().trsm(n, l, false, b.cols(), b.data());
  }

  /** X with Lᵀ X = B (new matrix; B not modified; BLAS dtrsm). */
  public Matrix solveUpper(Matrix b) {
    Matrix.requireInner(n, b.rows());
    double[] x = b.data().clone();
    Linalg.current().trsm(n, l, true, b.cols(), x);
    return Matrix.wrap(n, b.cols(), x);
  }

  /** X with (L Lᵀ) X = B (new matrix; two dtrsm on one copy of B). */
  public Matrix solve(Matrix b) {
    Matrix.requireInner(n, b.rows());
    double[] x = b.data().clone();
    DenseBackend be = Linalg.current();
    be.trsm(n, l, false, b.cols(), x);
    be.trsm(n, l, true, b.cols(), x);
    return Matrix.wrap(n, b.cols(), x);
  }

  /** (L Lᵀ)⁻¹ as a new symmetric matrix (LAPACK dpotri). */
  public Matrix inverse() {
    double[] a = new double[n * n];
    Linalg.current().inverse(n, l, a);
    return Matrix.wrap(n, n, a);
  }

  /** bᵀ (L Lᵀ)⁻¹ b = ‖L⁻¹ b‖². */
  public double quadForm(double[] b) {
    return quadForm(b, new double[n]);
  }

  /**
   * {@link #quadForm(double[])} without allocating (that method calls this one with a fresh scratch):
   * {@code scratch} (length n, overwritten) holds L⁻¹b; for loops over many b (a predictor's test rows).
   */
  public double quadForm(double[] b, double[] scratch) {
    Matrix.requireInner(n, b.length);
    Matrix.requireInner(n, scratch.length);
    System.arraycopy(b, 0, scratch, 0, n);
    solveLowerInPlace(scratch);
    double s = 0;
    for (double v : scratch) {
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
        throw new NotPositiveDefiniteException(
            "rank-1 downdate makes the matrix indefinite at row " + k, 0);
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
