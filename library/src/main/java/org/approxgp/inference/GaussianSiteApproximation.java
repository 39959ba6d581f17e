package org.approxgp.inference;

import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.JitterPolicy;
import org.approxgp.linalg.Matrix;

/**
 * The Gaussian posterior q(f) = N(μ, Σ) ∝ N(f | m₀1, K) Π_i t̃_i(f_i) implied by non-negative site
 * precisions, in the stable form of R&amp;W §3.6 (Alg. 3.5 lines 9–10):
 * S̃^½ = diag(√τ̃), B = I + S̃^½ K S̃^½ = L Lᵀ, V = L⁻¹ S̃^½ K, Σ = K − VᵀV, μ = m₀ + Σ (ν̃ − τ̃ m₀).
 * Also α = (K + S̃⁻¹)⁻¹(μ̃ − m₀) = b (R&amp;W eq. 5.27's b), so that the predictive mean is
 * m₀ + k*ᵀ α (eq. 3.60) and the predictive variance k** − ‖L⁻¹ S̃^½ k*‖² (eq. 3.61).
 *
 * <p>Computed from scratch every time (never accumulated), as GPML and R&amp;W recommend: repeated
 * rank-one updates lose precision.
 */
final class GaussianSiteApproximation {
  final int n;
  final Matrix k;
  final double priorMean;
  final double[] tau;
  final double[] nu;
  final double[] sw;
  final Cholesky chol; // of B
  final Matrix sigma; // full Σ (null when only the diagonal was requested)
  final double[] sigmaDiag;
  final double[] mu;
  final double[] alpha;

  private GaussianSiteApproximation(int n, Matrix k, double priorMean, double[] tau, double[] nu, double[] sw,
      Cholesky chol, Matrix sigma, double[] sigmaDiag, double[] mu, double[] alpha) {
    this.n = n;
    this.k = k;
    this.priorMean = priorMean;
    this.tau = tau;
    this.nu = nu;
    this.sw = sw;
    this.chol = chol;
    this.sigma = sigma;
    this.sigmaDiag = sigmaDiag;
    this.mu = mu;
    this.alpha = alpha;
  }

  /**
   * @param fullSigma whether to form all of Σ (sequential EP needs it; the diagonal suffices otherwise)
   */
  static GaussianSiteApproximation compute(Matrix k, double priorMean, double[] tau, double[] nu,
      JitterPolicy jitter, boolean fullSigma) {
    int n = k.rows();
    double[] sw = new double[n];
    for (int i = 0; i < n; i++) {
      if (!(tau[i] >= 0)) {
        throw new IllegalArgumentException("site precision " + i + " is " + tau[i] + "; the stable form needs τ̃ ≥ 0");
      }
      sw[i] = Math.sqrt(tau[i]);
    }
    // B = I + S̃½ K S̃½
    Matrix b = k.copy();
    b.scaleRowsCols(sw, sw);
    b.addDiagonal(1.0);
    Cholesky chol = Cholesky.factor(b, jitter);
    // ν̃ − τ̃ m₀: site natural means relative to the prior mean
    double[] nuc = new double[n];
    for (int i = 0; i < n; i++) {
      nuc[i] = nu[i] - tau[i] * priorMean;
    }
    // α = b = ν̃c − S̃½ B⁻¹ S̃½ K ν̃c (R&W eq. 5.27, with the prior mean removed)
    double[] kn = k.mult(nuc);
    double[] t = new double[n];
    for (int i = 0; i < n; i++) {
      t[i] = sw[i] * kn[i];
    }
    t = chol.solve(t);
    double[] alpha = new double[n];
    for (int i = 0; i < n; i++) {
      alpha[i] = nuc[i] - sw[i] * t[i];
    }
    // μ = m₀ + K α
    double[] mu = k.mult(alpha);
    for (int i = 0; i < n; i++) {
      mu[i] += priorMean;
    }
    // V = L⁻¹ S̃½ K; Σ = K − VᵀV
    Matrix swk = k.copy();
    swk.scaleRowsCols(sw, ones(n));
    Matrix v = chol.solveLower(swk);
    double[] vd = v.data();
    double[] diag = new double[n];
    double[] kd = k.data();
    for (int i = 0; i < n; i++) {
      diag[i] = kd[i * n + i];
    }
    for (int r = 0; r < n; r++) {
      int o = r * n;
      for (int i = 0; i < n; i++) {
        diag[i] -= vd[o + i] * vd[o + i];
      }
    }
    Matrix sigma = null;
    if (fullSigma) {
      sigma = k.copy();
      Matrix vtv = v.gram();
      double[] sd = sigma.data();
      double[] qd = vtv.data();
      for (int i = 0; i < sd.length; i++) {
        sd[i] -= qd[i];
      }
    }
    return new GaussianSiteApproximation(n, k, priorMean, tau.clone(), nu.clone(), sw, chol, sigma, diag, mu, alpha);
  }

  static double[] ones(int n) {
    double[] o = new double[n];
    java.util.Arrays.fill(o, 1.0);
    return o;
  }

  /** R = S̃½ B⁻¹ S̃½ = (K + S̃⁻¹)⁻¹ (n × n, new matrix). */
  Matrix rMatrix() {
    Matrix r = chol.inverse();
    r.scaleRowsCols(sw, sw);
    return r;
  }

  /** Cavity precisions τ₋ᵢ = 1/Σᵢᵢ − τ̃ᵢ and natural means ν₋ᵢ = μᵢ/Σᵢᵢ − ν̃ᵢ (R&amp;W eq. 3.56). */
  double[][] cavities() {
    double[] tc = new double[n];
    double[] nc = new double[n];
    for (int i = 0; i < n; i++) {
      tc[i] = 1.0 / sigmaDiag[i] - tau[i];
      nc[i] = mu[i] / sigmaDiag[i] - nu[i];
    }
    return new double[][] {tc, nc};
  }
}
