package org.approxgp.sparse;

import org.approxgp.data.RegressionData;
import org.approxgp.linalg.Matrix;

/**
 * The trigonometric basis of the m-point model in length-scale units (ωₖⱼ = 2πℓⱼrₖⱼ; {@link Ssgp}'s class comment)
 * and the small helpers SSGP and VSSGP share.
 */
final class SpectralBasis {
  private SpectralBasis() {}

  /** 1/ℓ elementwise. */
  static double[] inverse(double[] ell) {
    double[] inv = new double[ell.length];
    for (int j = 0; j < ell.length; j++) {
      inv[j] = 1.0 / ell[j];
    }
    return inv;
  }

  /** out[off + 2k] = cos zₖ, out[off + 2k + 1] = sin zₖ with zₖ = Σⱼ ωₖⱼ xⱼ/ℓⱼ (= 2π rₖᵀx, eq. 2). */
  static void features(
      double[] x, int xo, int d, int m, double[] w, double[] invEll, double[] out, int off) {
    for (int k = 0; k < m; k++) {
      double z = 0;
      int ok = k * d;
      for (int j = 0; j < d; j++) {
        z += w[ok + j] * x[xo + j] * invEll[j];
      }
      out[off + 2 * k] = Math.cos(z);
      out[off + 2 * k + 1] = Math.sin(z);
    }
  }

  /**
   * acc += bufᵀ buf, both triangles, for the rows × k row-major block buf (length rows·k): the block's Gram by the
   * linear-algebra backend (BLAS dsyrk on the native one).
   */
  static void addGram(double[] buf, int rows, int k, double[] acc) {
    double[] g = Matrix.wrap(rows, k, buf).gram().data();
    for (int p = 0; p < acc.length; p++) {
      acc[p] += g[p];
    }
  }

  /** ω = 2π r (the frequencies in the units of unit length-scales). */
  static double[] scaled(SpectralFeatures f) {
    double[] w = f.frequencies().clone();
    for (int k = 0; k < w.length; k++) {
      w[k] *= 2 * Math.PI;
    }
    return w;
  }

  /** rₖⱼ = ωₖⱼ/(2πℓⱼ). */
  static SpectralFeatures toFeatures(double[] w, double[] ell, int d) {
    int m = w.length / d;
    double[] r = new double[w.length];
    for (int k = 0; k < m; k++) {
      for (int j = 0; j < d; j++) {
        r[k * d + j] = w[k * d + j] / (2 * Math.PI * ell[j]);
      }
    }
    return new SpectralFeatures(r, m, d);
  }

  static Ssgp.Hyperparameters unpack(double[] p, int m, int d) {
    double[] ell = new double[d];
    for (int j = 0; j < d; j++) {
      ell[j] = Math.exp(p[m * d + j]);
    }
    return new Ssgp.Hyperparameters(ell, Math.exp(p[m * d + d]), Math.exp(p[m * d + d + 1]));
  }

  static double dot(double[] a, double[] b) {
    double s = 0;
    for (int k = 0; k < a.length; k++) {
      s += a[k] * b[k];
    }
    return s;
  }

  static void requireTargets(RegressionData train) {
    if (!train.hasTargets()) {
      throw new IllegalArgumentException("training data must have targets");
    }
    if (train.n() < 1) {
      throw new IllegalArgumentException("no training rows");
    }
  }
}
