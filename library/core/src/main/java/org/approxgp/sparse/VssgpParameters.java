package org.approxgp.sparse;

/**
 * The packed parameter vector p of {@link Vssgp}: [μ_ω (m d), log s_ω (m d), log ℓ (d), log σ², log σₙ², μ_a (2m),
 * the lower triangle of S_a's Cholesky factor L_a (2m(2m+1)/2, its diagonal in log space)], row-major.
 */
final class VssgpParameters {
  private VssgpParameters() {}

  static int size(int m, int d) {
    int k = 2 * m;
    return 2 * m * d + d + 2 + k + k * (k + 1) / 2;
  }

  static int offLogEll(int m, int d) {
    return 2 * m * d;
  }

  static int offMuA(int m, int d) {
    return 2 * m * d + d + 2;
  }

  static int offChol(int m, int d) {
    return offMuA(m, d) + 2 * m;
  }

  /** Index of L_a[p][q] (q ≤ p) in the packed lower triangle. */
  static int tri(int pp, int q) {
    return pp * (pp + 1) / 2 + q;
  }

  /**
   * Packs parameters (for tests and warm starts).
   *
   * @param muW means of q(ω), m × d row-major
   * @param sW variances of q(ω), m × d
   * @param h hyperparameters
   * @param muA mean of q(a), 2m
   * @param cholA lower Cholesky factor of S_a, 2m × 2m row-major (upper part ignored)
   */
  static double[] pack(
      int m,
      int d,
      double[] muW,
      double[] sW,
      Ssgp.Hyperparameters h,
      double[] muA,
      double[] cholA) {
    int k = 2 * m;
    double[] p = new double[size(m, d)];
    System.arraycopy(muW, 0, p, 0, m * d);
    for (int t = 0; t < m * d; t++) {
      p[m * d + t] = Math.log(sW[t]);
    }
    int o = offLogEll(m, d);
    double[] ell = h.lengthscales();
    for (int j = 0; j < d; j++) {
      p[o + j] = Math.log(ell[j]);
    }
    p[o + d] = Math.log(h.signalVariance());
    p[o + d + 1] = Math.log(h.noiseVariance());
    System.arraycopy(muA, 0, p, offMuA(m, d), k);
    int oc = offChol(m, d);
    for (int a = 0; a < k; a++) {
      for (int b = 0; b <= a; b++) {
        double v = cholA[a * k + b];
        p[oc + tri(a, b)] = a == b ? Math.log(v) : v;
      }
    }
    return p;
  }

  /** q(ω)'s variances s (m × d) from the log-variances in p. */
  static double[] frequencyVariances(double[] p, int m, int d) {
    int md = m * d;
    double[] s = new double[md];
    for (int t = 0; t < md; t++) {
      s[t] = Math.exp(p[md + t]);
    }
    return s;
  }

  /** 1/ℓ per input from the log length-scales in p. */
  static double[] inverseLengthscales(double[] p, int m, int d) {
    int oe = offLogEll(m, d);
    double[] inv = new double[d];
    for (int j = 0; j < d; j++) {
      inv[j] = Math.exp(-p[oe + j]);
    }
    return inv;
  }

  static Ssgp.Hyperparameters unpackHyperparameters(double[] p, int m, int d) {
    int o = offLogEll(m, d);
    double[] ell = new double[d];
    for (int j = 0; j < d; j++) {
      ell[j] = Math.exp(p[o + j]);
    }
    return new Ssgp.Hyperparameters(ell, Math.exp(p[o + d]), Math.exp(p[o + d + 1]));
  }

  /** L_a as a full 2m × 2m row-major array. */
  static double[] chol(double[] p, int m, int d) {
    int k = 2 * m;
    int oc = offChol(m, d);
    double[] l = new double[k * k];
    for (int a = 0; a < k; a++) {
      for (int b = 0; b <= a; b++) {
        double v = p[oc + tri(a, b)];
        l[a * k + b] = a == b ? Math.exp(v) : v;
      }
    }
    return l;
  }

  /** S = L Lᵀ (row-major k × k). */
  static double[] gram(double[] l, int k) {
    double[] s = new double[k * k];
    for (int a = 0; a < k; a++) {
      for (int b = 0; b <= a; b++) {
        double v = 0;
        for (int t = 0; t <= b; t++) {
          v += l[a * k + t] * l[b * k + t];
        }
        s[a * k + b] = v;
        s[b * k + a] = v;
      }
    }
    return s;
  }
}
