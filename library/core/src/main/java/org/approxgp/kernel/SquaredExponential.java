package org.approxgp.kernel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.approxgp.linalg.Matrix;

/**
 * Squared-exponential kernel k(x, x') = s · exp(−½ Σ_k (x_k − x'_k)² / ℓ_k²) (R&amp;W eq. 4.9; ARD
 * form eq. 5.1 with M = diag(ℓ)⁻²). Isotropic: one ℓ shared by all inputs; ARD: one ℓ_k per input.
 *
 * <p>θ = (log ℓ_1, …, log ℓ_m, log s). Gradients: ∂K/∂log s = K; ∂K_ab/∂log ℓ_k = K_ab ·
 * (x_ak − x_bk)²/ℓ_k² (ARD) and K_ab · r²_ab (iso, r² the scaled squared distance).
 */
public final class SquaredExponential implements Kernel, java.io.Serializable {
  private static final long serialVersionUID = 1L;

  private final double[] lengthscales; // length 1 (iso) or d (ARD)
  private final double signalVariance;
  private final boolean ard;

  private SquaredExponential(double[] lengthscales, double signalVariance, boolean ard) {
    for (double l : lengthscales) {
      if (!(l > 0) || !Double.isFinite(l)) {
        throw new IllegalArgumentException("length-scale must be positive and finite, got " + l);
      }
    }
    if (!(signalVariance > 0) || !Double.isFinite(signalVariance)) {
      throw new IllegalArgumentException(
          "signal variance must be positive and finite, got " + signalVariance);
    }
    this.lengthscales = lengthscales.clone();
    this.signalVariance = signalVariance;
    this.ard = ard;
  }

  /** Isotropic SE with one length-scale. */
  public static SquaredExponential iso(double lengthscale, double signalVariance) {
    return new SquaredExponential(new double[] {lengthscale}, signalVariance, false);
  }

  /** ARD SE with one length-scale per input dimension. */
  public static SquaredExponential ard(double[] lengthscales, double signalVariance) {
    if (lengthscales.length == 0) {
      throw new IllegalArgumentException("ARD kernel needs at least one length-scale");
    }
    return new SquaredExponential(lengthscales, signalVariance, true);
  }

  public boolean isArd() {
    return ard;
  }

  public double[] lengthscales() {
    return lengthscales.clone();
  }

  public double signalVariance() {
    return signalVariance;
  }

  @Override
  public String name() {
    return ard ? "se-ard" : "se-iso";
  }

  @Override
  public double[] logHyperparameters() {
    double[] t = new double[lengthscales.length + 1];
    for (int k = 0; k < lengthscales.length; k++) {
      t[k] = Math.log(lengthscales[k]);
    }
    t[lengthscales.length] = Math.log(signalVariance);
    return t;
  }

  @Override
  public List<String> hyperparameterNames() {
    List<String> names = new ArrayList<>();
    if (ard) {
      for (int k = 0; k < lengthscales.length; k++) {
        names.add("log_lengthscale_" + k);
      }
    } else {
      names.add("log_lengthscale");
    }
    names.add("log_signal_variance");
    return names;
  }

  @Override
  public SquaredExponential withLogHyperparameters(double[] theta) {
    if (theta.length != lengthscales.length + 1) {
      throw new IllegalArgumentException(
          "expected " + (lengthscales.length + 1) + " hyperparameters, got " + theta.length);
    }
    double[] l = new double[lengthscales.length];
    for (int k = 0; k < l.length; k++) {
      l[k] = Math.exp(theta[k]);
    }
    return new SquaredExponential(l, Math.exp(theta[l.length]), ard);
  }

  private double[] inverseLengthscales(int d) {
    double[] inv = new double[d];
    if (ard) {
      if (d != lengthscales.length) {
        throw new IllegalArgumentException("inputs have " + d + " columns but the ARD kernel has "
            + lengthscales.length + " length-scales");
      }
      for (int k = 0; k < d; k++) {
        inv[k] = 1.0 / lengthscales[k];
      }
    } else {
      Arrays.fill(inv, 1.0 / lengthscales[0]);
    }
    return inv;
  }

  /** Rows of x divided element-wise by the length-scales. */
  private double[][] scaled(double[][] x, double[] inv) {
    double[][] z = new double[x.length][];
    for (int i = 0; i < x.length; i++) {
      if (x[i].length != inv.length) {
        throw new IllegalArgumentException(
            "row " + i + " has " + x[i].length + " columns, expected " + inv.length);
      }
      z[i] = new double[inv.length];
      for (int k = 0; k < inv.length; k++) {
        z[i][k] = x[i][k] * inv[k];
      }
    }
    return z;
  }

  private static int dim(double[][] x) {
    return x.length == 0 ? 0 : x[0].length;
  }

  private static double sqDist(double[] a, double[] b) {
    double s = 0;
    for (int k = 0; k < a.length; k++) {
      double t = a[k] - b[k];
      s += t * t;
    }
    return s;
  }

  @Override
  public Matrix matrix(double[][] x) {
    int n = x.length;
    double[][] z = scaled(x, inverseLengthscales(dim(x)));
    Matrix k = Matrix.zeros(n, n);
    double[] kd = k.data();
    for (int i = 0; i < n; i++) {
      kd[i * n + i] = signalVariance;
      double[] zi = z[i];
      int j = 0;
      // four distances at a time: independent sums (their additions' latency overlaps), each over
      // the
      // coordinates in order as sqDist adds them, so the same bits
      for (; j + 4 <= i; j += 4) {
        double[] z0 = z[j];
        double[] z1 = z[j + 1];
        double[] z2 = z[j + 2];
        double[] z3 = z[j + 3];
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        double s3 = 0;
        for (int c = 0; c < zi.length; c++) {
          double zc = zi[c];
          double t0 = zc - z0[c];
          double t1 = zc - z1[c];
          double t2 = zc - z2[c];
          double t3 = zc - z3[c];
          s0 += t0 * t0;
          s1 += t1 * t1;
          s2 += t2 * t2;
          s3 += t3 * t3;
        }
        put(kd, n, i, j, signalVariance * Math.exp(-0.5 * s0));
        put(kd, n, i, j + 1, signalVariance * Math.exp(-0.5 * s1));
        put(kd, n, i, j + 2, signalVariance * Math.exp(-0.5 * s2));
        put(kd, n, i, j + 3, signalVariance * Math.exp(-0.5 * s3));
      }
      for (; j < i; j++) {
        put(kd, n, i, j, signalVariance * Math.exp(-0.5 * sqDist(zi, z[j])));
      }
    }
    return k;
  }

  /** K[i][j] = K[j][i] = v in the row-major n × n array {@code kd}. */
  private static void put(double[] kd, int n, int i, int j, double v) {
    kd[i * n + j] = v;
    kd[j * n + i] = v;
  }

  @Override
  public Matrix cross(double[][] a, double[][] b) {
    int d = a.length > 0 ? a[0].length : dim(b);
    double[] inv = inverseLengthscales(d);
    double[][] za = scaled(a, inv);
    double[][] zb = scaled(b, inv);
    Matrix k = Matrix.zeros(a.length, b.length);
    double[] kd = k.data();
    for (int i = 0; i < a.length; i++) {
      for (int j = 0; j < b.length; j++) {
        kd[i * b.length + j] = signalVariance * Math.exp(-0.5 * sqDist(za[i], zb[j]));
      }
    }
    return k;
  }

  @Override
  public double[] diagonal(double[][] x) {
    double[] d = new double[x.length];
    Arrays.fill(d, signalVariance);
    return d;
  }

  @Override
  public Matrix gradient(double[][] x, int j) {
    int m = lengthscales.length;
    if (j < 0 || j > m) {
      throw new IndexOutOfBoundsException("hyperparameter " + j + " of " + (m + 1));
    }
    Matrix k = matrix(x);
    if (j == m) {
      return k; // ∂K/∂log s = K
    }
    int n = x.length;
    double[] kd = k.data();
    if (ard) {
      // ∂K_ab/∂log ℓ_j = K_ab (x_aj − x_bj)²/ℓ_j²
      double inv2 = 1.0 / (lengthscales[j] * lengthscales[j]);
      for (int a = 0; a < n; a++) {
        for (int b = 0; b < n; b++) {
          double t = x[a][j] - x[b][j];
          kd[a * n + b] *= t * t * inv2;
        }
      }
    } else {
      double[][] z = scaled(x, inverseLengthscales(dim(x)));
      for (int a = 0; a < n; a++) {
        for (int b = 0; b < n; b++) {
          kd[a * n + b] *= sqDist(z[a], z[b]);
        }
      }
    }
    return k;
  }

  @Override
  public double[] traceGradient(double[][] x, Matrix w) {
    int n = x.length;
    int d = dim(x);
    int m = lengthscales.length;
    double[] inv = inverseLengthscales(d);
    double[][] z = scaled(x, inv);
    double[] g = new double[m + 1];
    double[] wd = w.data();
    for (int a = 0; a < n; a++) {
      // diagonal: r = 0, only the signal-variance term
      g[m] += wd[a * n + a] * signalVariance;
      for (int b = 0; b < a; b++) {
        double[] za = z[a];
        double[] zb = z[b];
        double r2 = 0;
        for (int k = 0; k < d; k++) {
          double t = za[k] - zb[k];
          r2 += t * t;
        }
        // W symmetric: the (a,b) and (b,a) terms are equal
        double kw = 2 * wd[a * n + b] * signalVariance * Math.exp(-0.5 * r2);
        g[m] += kw;
        if (ard) {
          for (int k = 0; k < d; k++) {
            double t = za[k] - zb[k];
            g[k] += kw * t * t;
          }
        } else {
          g[0] += kw * r2;
        }
      }
    }
    return g;
  }

  /**
   * Σ_ab W_ab ∂k(a_a, b_b)/∂θ: ∂k/∂log s = k, ∂k/∂log ℓ_c = k (a_c − b_c)²/ℓ_c² (ARD; iso: k r² with r the scaled
   * distance), O(na nb d): the contraction {@link Rows#accumulateGradient} of the inducing-point regressors, on
   * K(a, b) from {@link Rows#cross}.
   */
  @Override
  public double[] crossTraceGradient(double[][] a, double[][] b, Matrix w) {
    if (w.rows() != a.length || w.cols() != b.length) {
      throw new IllegalArgumentException(
          "W must be " + a.length + " x " + b.length + ", got " + w.rows() + " x " + w.cols());
    }
    int d = a.length > 0 ? a[0].length : dim(b);
    Rows r = rows(d);
    double[] fa = flatten(a, d);
    double[] fb = flatten(b, d);
    double[] g = new double[lengthscales.length + 1];
    r.accumulateGradient(w, r.cross(fa, a.length, fb, b.length), fa, fb, g);
    return g;
  }

  private static double[] flatten(double[][] x, int d) {
    double[] f = new double[x.length * d];
    for (int i = 0; i < x.length; i++) {
      if (x[i].length != d) {
        throw new IllegalArgumentException(
            "row " + i + " has " + x[i].length + " inputs, expected " + d);
      }
      System.arraycopy(x[i], 0, f, i * d, d);
    }
    return f;
  }

  /** ∂k(a, b)/∂a_c = −k(a, b) (a_c − b_c)/ℓ_c². */
  @Override
  public double[][] crossInputGradient(double[][] a, double[][] b, Matrix w) {
    if (w.rows() != a.length || w.cols() != b.length) {
      throw new IllegalArgumentException(
          "W must be " + a.length + " x " + b.length + ", got " + w.rows() + " x " + w.cols());
    }
    int d = a.length > 0 ? a[0].length : dim(b);
    double[] inv = inverseLengthscales(d);
    double[][] za = scaled(a, inv);
    double[][] zb = scaled(b, inv);
    double[] wd = w.data();
    double[][] g = new double[a.length][d];
    for (int i = 0; i < a.length; i++) {
      double[] zi = za[i];
      double[] gi = g[i];
      int o = i * b.length;
      for (int j = 0; j < b.length; j++) {
        double wij = wd[o + j];
        if (wij == 0) {
          continue;
        }
        double[] zj = zb[j];
        double kw = wij * signalVariance * Math.exp(-0.5 * sqDist(zi, zj));
        for (int c = 0; c < d; c++) {
          // (a_c − b_c)/ℓ_c² = (z_ac − z_bc)/ℓ_c
          gi[c] -= kw * (zi[c] - zj[c]) * inv[c];
        }
      }
    }
    return g;
  }

  /** k(x, x) = s: only the signal variance, Σ_a w_a s. */
  @Override
  public double[] diagonalTraceGradient(double[][] x, double[] w) {
    double[] g = new double[lengthscales.length + 1];
    double s = 0;
    for (double v : w) {
      s += v;
    }
    g[lengthscales.length] = s * signalVariance;
    return g;
  }

  /**
   * With M = W ∘ K (element-wise; symmetric) and z the inputs scaled by the length-scales:
   * <pre>
   *   g_s = Σ_ab M_ab                                             (∂K/∂log s² = K)
   *   g_k = Σ_ab M_ab (z_ak − z_bk)² = 2 Σ_a z_ak (z_ak r_a − (M Z)_ak),   r = M 1   (ARD, per dimension)
   *   g_ℓ = Σ_k g_k                                               (iso: ∂K_ab/∂log ℓ = K_ab r²_ab)
   * </pre>
   * (expanding the square and using the symmetry of M), so the O(n² d) work is the product M Z (BLAS dgemm
   * through {@code linalg}) and K is not re-evaluated. The SE kernel is translation invariant, so z is
   * centred per column first: the two terms of g_k then stay of the size of the data's spread and the
   * cancellation between them of the size of the direct sum's own.
   */
  @Override
  public double[] traceGradient(double[][] x, Matrix w, Matrix k) {
    int n = x.length;
    int d = dim(x);
    if (k.rows() != n || k.cols() != n || w.rows() != n || w.cols() != n) {
      throw new IllegalArgumentException("K and W must be " + n + " x " + n + ", got " + k.rows()
          + " x " + k.cols() + " and " + w.rows() + " x " + w.cols());
    }
    int m = lengthscales.length;
    double[] inv = inverseLengthscales(d);
    double[] g = new double[m + 1];
    double[] wd = w.data();
    double[] kd = k.data();
    Matrix mm = Matrix.zeros(n, n);
    double[] md = mm.data();
    double[] r = new double[n];
    double total = 0;
    for (int a = 0; a < n; a++) {
      int o = a * n;
      double ra = 0;
      for (int b = 0; b < n; b++) {
        double v = wd[o + b] * kd[o + b];
        md[o + b] = v;
        ra += v;
      }
      r[a] = ra;
      total += ra;
    }
    g[m] = total;
    if (n == 0 || d == 0) {
      return g;
    }
    Matrix z = Matrix.zeros(n, d);
    double[] zd = z.data();
    for (int c = 0; c < d; c++) {
      double mean = 0;
      for (int a = 0; a < n; a++) {
        mean += x[a][c];
      }
      mean /= n;
      for (int a = 0; a < n; a++) {
        zd[a * d + c] = (x[a][c] - mean) * inv[c];
      }
    }
    double[] mz = mm.mult(z).data();
    for (int c = 0; c < d; c++) {
      double s = 0;
      for (int a = 0; a < n; a++) {
        double za = zd[a * d + c];
        s += za * (za * r[a] - mz[a * d + c]);
      }
      g[ard ? c : 0] += 2 * s;
    }
    return g;
  }

  @Override
  public String toString() {
    return name() + "(lengthscales=" + Arrays.toString(lengthscales) + ", signalVariance="
        + signalVariance + ")";
  }

  /**
   * This kernel's row-major evaluator over log-hyperparameters θ = (log ℓ₁ … log ℓ_L, log σ_f²) for inputs with
   * {@code d} dimensions: θ is {@link #logHyperparameters()} (its log of each stored value, then its exp: the
   * evaluator works in the optimiser's coordinates).
   *
   * @throws IllegalArgumentException when this kernel is ARD with other than {@code d} length-scales
   */
  public Rows rows(int d) {
    checkDimension(d);
    return new Rows(logHyperparameters(), d, ard);
  }

  /**
   * Checks that this kernel applies to inputs of {@code d} dimensions.
   *
   * @throws IllegalArgumentException when this kernel is ARD with other than {@code d} length-scales
   */
  public void checkDimension(int d) {
    if (ard && lengthscales.length != d) {
      throw new IllegalArgumentException(
          "ARD kernel has " + lengthscales.length + " length-scales, data " + d + " inputs");
    }
  }

  /**
   * The SE kernel with log-hyperparameters θ = (log ℓ₁ … log ℓ_L, log σ_f²), L = number of length-scales (ARD) or
   * 1 (iso): ℓⱼ = exp θⱼ, σ_f² = exp θ_L.
   *
   * @throws IllegalArgumentException when a value is not positive and finite after exponentiation
   */
  public static SquaredExponential ofLog(double[] logParams, boolean ard) {
    int nl = logParams.length - 1;
    double[] l = new double[nl];
    for (int j = 0; j < nl; j++) {
      l[j] = Math.exp(logParams[j]);
    }
    double s = Math.exp(logParams[nl]);
    return ard ? ard(l, s) : iso(l[0], s);
  }

  /**
   * The SE kernel k(x, x') = σ_f² exp(−½ Σⱼ (xⱼ − x'ⱼ)²/ℓⱼ²) (R&amp;W eq. 4.9, ARD eq. 5.1) evaluated on row-major
   * blocks of rows at unconstrained log-hyperparameters (an optimiser's iterate, which need not make a valid
   * {@link SquaredExponential}: a length-scale may overflow to ∞), for the inducing-point regressors: cross-covariance
   * matrices of a block against the inducing inputs and the contraction Σ_ab G_ab ∂K_ab/∂θ with θ = (log ℓ,
   * log σ_f²), which is all a hyperparameter gradient needs (∂K/∂θ is never formed).
   */
  public static final class Rows {
    private final double[] inv2; // 1/ℓⱼ² per input dimension
    private final double sf2;
    private final int d;
    private final boolean ard;

    /**
     * The evaluator at log-hyperparameters {@code logParams} (L + 1 values, L = d for ARD, 1 for iso) on inputs of
     * {@code d} dimensions.
     */
    public Rows(double[] logParams, int d, boolean ard) {
      this.d = d;
      this.ard = ard;
      int nl = ard ? d : 1;
      if (logParams.length != nl + 1) {
        throw new IllegalArgumentException(
            "expected " + (nl + 1) + " log-parameters, got " + logParams.length);
      }
      inv2 = new double[d];
      for (int j = 0; j < d; j++) {
        double l = Math.exp(logParams[ard ? j : 0]);
        inv2[j] = 1.0 / (l * l);
      }
      sf2 = Math.exp(logParams[nl]);
    }

    /** σ_f². */
    public double signalVariance() {
      return sf2;
    }

    /** K(a, b) for row-major a (na × d) and b (nb × d), as an na × nb matrix. */
    public Matrix cross(double[] a, int na, double[] b, int nb) {
      double[] out = new double[na * nb];
      for (int i = 0; i < na; i++) {
        int oa = i * d;
        for (int j = 0; j < nb; j++) {
          int ob = j * d;
          double q = 0;
          for (int t = 0; t < d; t++) {
            double u = a[oa + t] - b[ob + t];
            q += u * u * inv2[t];
          }
          out[i * nb + j] = sf2 * Math.exp(-0.5 * q);
        }
      }
      return Matrix.wrap(na, nb, out);
    }

    /**
     * g = Σ_ab G_ab ∂K_ab/∂θ for K = K(a, b) given as {@code kab}: ∂K_ab/∂log ℓⱼ = K_ab (a_j − b_j)²/ℓⱼ² and
     * ∂K_ab/∂log σ_f² = K_ab. Added into {@code g} (length L + 1).
     */
    public void accumulateGradient(Matrix g, Matrix kab, double[] a, double[] b, double[] out) {
      int na = kab.rows();
      int nb = kab.cols();
      double[] gd = g.data();
      double[] kd = kab.data();
      int nl = ard ? d : 1;
      double[] acc = new double[d];
      double accS = 0;
      for (int i = 0; i < na; i++) {
        int oa = i * d;
        for (int j = 0; j < nb; j++) {
          double w = gd[i * nb + j] * kd[i * nb + j];
          if (w == 0) {
            continue;
          }
          accS += w;
          int ob = j * d;
          for (int t = 0; t < d; t++) {
            double u = a[oa + t] - b[ob + t];
            acc[t] += w * u * u;
          }
        }
      }
      for (int t = 0; t < d; t++) {
        out[ard ? t : 0] += acc[t] * inv2[t];
      }
      out[nl] += accS;
    }
  }
}
