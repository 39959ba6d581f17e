package org.approxgp.sparse;

import java.util.Arrays;
import org.approxgp.data.RegressionData;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.Matrix;
import org.approxgp.linalg.NotPositiveDefiniteException;

/**
 * SSGP's objective, the exact log marginal likelihood of the m-point model, and its gradient ({@link Ssgp}'s class
 * comment): two streaming passes over the rows, O(n m²) time, O(m²) memory.
 */
final class SsgpObjective {
  /** Rows per block of the streaming passes (only for memory locality; results do not depend on it). */
  private static final int BLOCK = 512;

  private SsgpObjective() {}

  /** Sufficient statistics of one pass and the quantities derived from them. */
  static final class Stats {
    Cholesky chol;
    double[] alpha;
    double negLogMarginal;
    double c;
    double yy;
    double bAb;
    int n;
    java.util.List<double[]> blocks; // Φ's blocks of BLOCK rows when kept, else null
  }

  /**
   * First pass: A = ΦΦᵀ + cI (c = mσₙ²/σ²), b = Φy, yᵀy; then L Lᵀ = A, α = A⁻¹b and −log p(y) (class comment).
   */
  static Stats stats(RegressionData data, int m, double[] w, double[] ell, double s2, double sn2) {
    return stats(data, m, w, ell, s2, sn2, false);
  }

  /**
   * Basis-function values n·2m up to which {@link #negLogMarginal} keeps the first pass's blocks of Φ for the
   * gradient's pass instead of computing their cosines and sines again (8·10⁶ doubles, 64 MB).
   */
  static final long KEEP_FEATURES = 8_000_000L;

  /** {@link #stats}; with {@code keep}, the blocks of Φ (rows × 2m each, row-major) in {@link Stats#blocks}. */
  static Stats stats(
      RegressionData data, int m, double[] w, double[] ell, double s2, double sn2, boolean keep) {
    int d = data.d();
    int k2 = 2 * m;
    int n = data.n();
    double[] a = new double[k2 * k2];
    double[] b = new double[k2];
    double yy = 0;
    double[] x = data.x();
    double[] y = data.y();
    double[] inv = SpectralBasis.inverse(ell);
    java.util.List<double[]> blocks = keep ? new java.util.ArrayList<>() : null;
    for (int start = 0; start < n; start += BLOCK) {
      int rows = Math.min(BLOCK, n - start);
      double[] buf = new double[rows * k2];
      if (keep) {
        blocks.add(buf);
      }
      for (int t = 0; t < rows; t++) {
        int i = start + t;
        SpectralBasis.features(x, i * d, d, m, w, inv, buf, t * k2);
        double yi = y[i];
        yy += yi * yi;
        for (int p = 0; p < k2; p++) {
          b[p] += buf[t * k2 + p] * yi;
        }
      }
      SpectralBasis.addGram(buf, rows, k2, a);
    }
    double c = m * sn2 / s2;
    for (int p = 0; p < k2; p++) {
      a[p * k2 + p] += c;
    }
    Stats st = new Stats();
    st.blocks = blocks;
    st.chol = Cholesky.factor(Matrix.wrap(k2, k2, a));
    double[] beta = st.chol.solveLower(b);
    st.bAb = SpectralBasis.dot(beta, beta);
    st.alpha = st.chol.solveUpper(beta);
    st.c = c;
    st.yy = yy;
    st.n = n;
    st.negLogMarginal = (yy - st.bAb) / (2 * sn2)
        + 0.5 * st.chol.logDet()
        - m * Math.log(c)
        + 0.5 * n * Math.log(2 * Math.PI * sn2);
    return st;
  }

  /**
   * −log p(y) at packed parameters p = [ω (m·d, row-major), log ℓ (d), log σ², log σₙ²] and, if {@code grad} is
   * not null, its gradient (written into grad). Returns +∞ where A is numerically singular.
   *
   * <p>Gradient (derived from the class formula with dA = dΦΦᵀ + ΦdΦᵀ, db = dΦ y): for row i,
   * ∂(−log p)/∂φᵢ = A⁻¹φᵢ − σₙ⁻²(yᵢ − φᵢᵀα) α =: Gᵢ; with zᵢₖ = ωₖᵀ(xᵢ/ℓ), ∂cos zᵢₖ/∂ωₖⱼ = −sin zᵢₖ · xᵢⱼ/ℓⱼ and
   * ∂sin zᵢₖ/∂ωₖⱼ = cos zᵢₖ · xᵢⱼ/ℓⱼ; ∂/∂log ℓⱼ = −Σₖ ωₖⱼ ∂/∂ωₖⱼ (zᵢₖ depends on ωₖⱼ/ℓⱼ only). Through
   * c = mσₙ²/σ²: ∂(−log p)/∂c = αᵀα/(2σₙ²) + ½ tr A⁻¹ − m/c, with ∂c/∂log σ² = −c, ∂c/∂log σₙ² = c, and the
   * explicit σₙ² terms give −(yᵀy − bᵀα)/(2σₙ²) + n/2 for log σₙ².
   */
  static double negLogMarginal(RegressionData data, int m, double[] p, double[] grad) {
    int d = data.d();
    int md = m * d;
    double[] w = Arrays.copyOf(p, md);
    double[] ell = new double[d];
    for (int j = 0; j < d; j++) {
      ell[j] = Math.exp(p[md + j]);
    }
    double s2 = Math.exp(p[md + d]);
    double sn2 = Math.exp(p[md + d + 1]);
    Stats st;
    try {
      st =
          stats(data, m, w, ell, s2, sn2, grad != null && (long) data.n() * 2 * m <= KEEP_FEATURES);
    } catch (NotPositiveDefiniteException e) {
      return Double.POSITIVE_INFINITY;
    }
    if (grad == null) {
      return st.negLogMarginal;
    }
    int k2 = 2 * m;
    double[] ainv = st.chol.inverse().data();
    double[] alpha = st.alpha;
    double[] inv = SpectralBasis.inverse(ell);
    double[] x = data.x();
    double[] y = data.y();
    Matrix ainvMatrix = Matrix.wrap(k2, k2, ainv);
    double[] u = new double[d];
    double[] gw = new double[md];
    double[] h = new double[m];
    for (int start = 0; start < st.n; start += BLOCK) {
      int rows = Math.min(BLOCK, st.n - start);
      double[] phi;
      if (st.blocks != null) {
        phi = st.blocks.get(start / BLOCK);
      } else {
        phi = new double[rows * k2];
        for (int t = 0; t < rows; t++) {
          SpectralBasis.features(x, (start + t) * d, d, m, w, inv, phi, t * k2);
        }
      }
      // the block's rows of Φ A⁻¹ (A⁻¹ symmetric) by the backend's matrix product
      double[] phiAinv = Matrix.wrap(rows, k2, phi).mult(ainvMatrix).data();
      for (int t = 0; t < rows; t++) {
        int i = start + t;
        int o = i * d;
        int ot = t * k2;
        for (int j = 0; j < d; j++) {
          u[j] = x[o + j] * inv[j];
        }
        double fa = 0;
        for (int q = 0; q < k2; q++) {
          fa += phi[ot + q] * alpha[q];
        }
        double r = (y[i] - fa) / sn2;
        for (int k = 0; k < m; k++) {
          // Gᵢ = A⁻¹φᵢ − rᵢα; ∂/∂z of G·φ: −G_cos sin z + G_sin cos z, with φ = (cos z, sin z)
          double gc = phiAinv[ot + 2 * k] - r * alpha[2 * k];
          double gs = phiAinv[ot + 2 * k + 1] - r * alpha[2 * k + 1];
          h[k] = -gc * phi[ot + 2 * k + 1] + gs * phi[ot + 2 * k];
        }
        for (int k = 0; k < m; k++) {
          double hk = h[k];
          int ok = k * d;
          for (int j = 0; j < d; j++) {
            gw[ok + j] += hk * u[j];
          }
        }
      }
    }
    System.arraycopy(gw, 0, grad, 0, md);
    for (int j = 0; j < d; j++) {
      double s = 0;
      for (int k = 0; k < m; k++) {
        s += w[k * d + j] * gw[k * d + j];
      }
      grad[md + j] = -s;
    }
    double trInv = 0;
    for (int q = 0; q < k2; q++) {
      trInv += ainv[q * k2 + q];
    }
    double dc = SpectralBasis.dot(alpha, alpha) / (2 * sn2) + 0.5 * trInv - m / st.c;
    grad[md + d] = -st.c * dc;
    grad[md + d + 1] = st.c * dc - (st.yy - st.bAb) / (2 * sn2) + 0.5 * st.n;
    return st.negLogMarginal;
  }
}
