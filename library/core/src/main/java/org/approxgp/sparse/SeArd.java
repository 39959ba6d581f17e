package org.approxgp.sparse;

import org.approxgp.data.RegressionData;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.linalg.Matrix;

/**
 * The SE kernel k(x, x') = σ_f² exp(−½ Σⱼ (xⱼ − x'ⱼ)²/ℓⱼ²) (R&amp;W eq. 4.9, ARD eq. 5.1) on row-major blocks of
 * rows, for the inducing-point methods ({@link Dtc}, {@link Pic}): cross-covariance matrices of a block against
 * the inducing inputs and the contraction Σ_ab G_ab ∂K_ab/∂θ with θ = (log ℓ, log σ_f²), which is all a
 * hyperparameter gradient needs (never forms ∂K/∂θ).
 *
 * <p>Package-private; log-parameters are held as (log ℓ₁ … log ℓ_L, log σ_f²) with L = d (ARD) or 1 (iso).
 */
final class SeArd {
  private final double[] inv2; // 1/ℓⱼ² per input dimension
  private final double sf2;
  private final int d;
  private final boolean ard;

  SeArd(double[] logParams, int d, boolean ard) {
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

  /** The log-parameters of a kernel, checked against the input dimension. */
  static double[] logParams(SquaredExponential k, int d) {
    if (k.isArd() && k.lengthscales().length != d) {
      throw new IllegalArgumentException(
          "ARD kernel has " + k.lengthscales().length + " length-scales, data " + d + " inputs");
    }
    return k.logHyperparameters();
  }

  static SquaredExponential kernel(double[] logParams, boolean ard) {
    int nl = logParams.length - 1;
    double[] l = new double[nl];
    for (int j = 0; j < nl; j++) {
      l[j] = Math.exp(logParams[j]);
    }
    double s = Math.exp(logParams[nl]);
    return ard ? SquaredExponential.ard(l, s) : SquaredExponential.iso(l[0], s);
  }

  double signalVariance() {
    return sf2;
  }

  /** K(a, b) for row-major a (na × d) and b (nb × d), as an na × nb matrix. */
  Matrix cross(double[] a, int na, double[] b, int nb) {
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
  void accumulateGradient(Matrix g, Matrix kab, double[] a, double[] b, double[] out) {
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

  /** Rows {@code idx[from … to)} of {@code data} gathered into a contiguous row-major array. */
  static double[] gatherX(RegressionData data, int[] idx, int from, int to) {
    int d = data.d();
    double[] x = data.x();
    double[] out = new double[(to - from) * d];
    for (int k = from; k < to; k++) {
      System.arraycopy(x, idx[k] * d, out, (k - from) * d, d);
    }
    return out;
  }

  /** Targets {@code idx[from … to)} of {@code data}. */
  static double[] gatherY(RegressionData data, int[] idx, int from, int to) {
    double[] y = data.y();
    double[] out = new double[to - from];
    for (int k = from; k < to; k++) {
      out[k - from] = y[idx[k]];
    }
    return out;
  }
}
