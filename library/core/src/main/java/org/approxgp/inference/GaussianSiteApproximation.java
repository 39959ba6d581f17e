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
 * <p>Computed from scratch from the sites (never accumulated): {@link SiteLoop} forms it at the start
 * of a run, after every parallel sweep, and after the last sequential sweep, so the evidence, gradient
 * and predictions never carry the rounding of the sequential sweeps' rank-one updates.
 */
final class GaussianSiteApproximation {
  final int n;
  final Matrix k;
  final double priorMean;
  final double[] tau;
  final double[] nu;
  final double[] sw;
  final Cholesky chol; // of B
  /**
   * Σ when it was requested ({@code fullSigma}), else null. Only its upper triangle (diagonal included) is
   * defined: the one reader, {@link SiteLoop}, copies that triangle into the matrix its sequential sweeps
   * update.
   */
  final Matrix sigma;

  final double[] sigmaDiag;
  final double[] mu;
  final double[] alpha;
  /** Cholesky factor of K (the KEEP parameterisation; null for the √τ̃ form, where {@link #sw} is set). */
  final Cholesky kChol;

  private GaussianSiteApproximation(
      int n,
      Matrix k,
      double priorMean,
      double[] tau,
      double[] nu,
      double[] sw,
      Cholesky chol,
      Matrix sigma,
      double[] sigmaDiag,
      double[] mu,
      double[] alpha) {
    this(n, k, priorMean, tau, nu, sw, chol, sigma, sigmaDiag, mu, alpha, null);
  }

  private GaussianSiteApproximation(
      int n,
      Matrix k,
      double priorMean,
      double[] tau,
      double[] nu,
      double[] sw,
      Cholesky chol,
      Matrix sigma,
      double[] sigmaDiag,
      double[] mu,
      double[] alpha,
      Cholesky kChol) {
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
    this.kChol = kChol;
  }

  /**
   * @param fullSigma whether to form all of Σ (sequential EP needs it; the diagonal suffices otherwise)
   */
  static GaussianSiteApproximation compute(
      Matrix k,
      double priorMean,
      double[] tau,
      double[] nu,
      JitterPolicy jitter,
      boolean fullSigma) {
    int n = k.rows();
    double[] sw = new double[n];
    for (int i = 0; i < n; i++) {
      if (!(tau[i] >= 0)) {
        throw new IllegalArgumentException(
            "site precision " + i + " is " + tau[i] + "; the stable form needs τ̃ ≥ 0");
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
    chol.solveLowerInPlace(swk);
    Matrix v = swk;
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
      // upper triangle of K − Σ_r v_r v_rᵀ over the rows v_r of V: one symmetric rank-n update
      // (dsyrk)
      sigma = k.copy();
      double[] unit = new double[n];
      java.util.Arrays.fill(unit, 1.0);
      sigma.symmetricUpdateUpper(0, n, vd, unit);
    }
    return new GaussianSiteApproximation(
        n, k, priorMean, tau.clone(), nu.clone(), sw, chol, sigma, diag, mu, alpha);
  }

  /**
   * {@link #compute} when every τ̃ᵢ = 0 (a cold start): S̃½ = 0, so B = I = L, α = ν̃ − τ̃ m₀, μ = m₀ + K α,
   * V = 0 and Σ = K, with the same floating-point results as the general path (whose products with
   * S̃½ = 0 are all zero) but without its three n³ passes over zeros.
   */
  static GaussianSiteApproximation computeAtZeroPrecision(
      Matrix k, double priorMean, double[] tau, double[] nu, boolean fullSigma) {
    int n = k.rows();
    double[] alpha = new double[n];
    for (int i = 0; i < n; i++) {
      if (tau[i] != 0) {
        throw new IllegalArgumentException("site precision " + i + " is " + tau[i] + ", not 0");
      }
      alpha[i] = nu[i] - tau[i] * priorMean;
    }
    double[] mu = k.mult(alpha);
    for (int i = 0; i < n; i++) {
      mu[i] += priorMean;
    }
    Cholesky chol = Cholesky.ofFactor(Matrix.identity(n));
    return new GaussianSiteApproximation(
        n,
        k,
        priorMean,
        tau.clone(),
        nu.clone(),
        new double[n],
        chol,
        fullSigma ? k.copy() : null,
        k.diag(),
        mu,
        alpha);
  }

  /**
   * The posterior for site precisions of any sign (the KEEP policy, Minka 2001): a parameterisation that
   * never takes √τ̃. With K = L Lᵀ (factored once per run by the caller, jitter reported),
   * <pre>
   * B = I + Lᵀ S̃ L,   Σ = (K⁻¹ + S̃)⁻¹ = L B⁻¹ Lᵀ,   μ = m₀ + Σ (ν̃ − τ̃ m₀),
   * α = K⁻¹(μ − m₀) = L⁻ᵀ B⁻¹ Lᵀ (ν̃ − τ̃ m₀).
   * </pre>
   * Since Lᵀ Σ⁻¹ L = B, B is symmetric positive definite exactly when the posterior is, so its Cholesky
   * factorisation (no jitter: a jitter would hide an indefinite posterior) is the positive-definiteness
   * test. log|B| = log|I + S̃K| = log|I + S̃½ K S̃½| (Sylvester), the same determinant the √τ̃ form
   * factors, so the evidence formula of {@link SiteLoop} applies unchanged.
   *
   * @throws org.approxgp.linalg.NotPositiveDefiniteException when B (equivalently Σ) is not positive definite
   */
  static GaussianSiteApproximation computeKeep(
      Matrix k, Cholesky kChol, double priorMean, double[] tau, double[] nu, boolean fullSigma) {
    int n = k.rows();
    for (int i = 0; i < n; i++) {
      if (!Double.isFinite(tau[i]) || !Double.isFinite(nu[i])) {
        throw new IllegalArgumentException(
            "site " + i + " is (" + tau[i] + ", " + nu[i] + "); it must be finite");
      }
    }
    Matrix l = kChol.lower();
    // B = I + Lᵀ (S̃ L)
    Matrix sl = l.copy();
    sl.scaleRowsCols(tau, ones(n));
    Matrix b = l.multTransA(sl);
    b.symmetrize();
    b.addDiagonal(1.0);
    Cholesky chol = Cholesky.factor(b, org.approxgp.linalg.JitterPolicy.none());
    double[] nuc = new double[n];
    for (int i = 0; i < n; i++) {
      nuc[i] = nu[i] - tau[i] * priorMean;
    }
    // α = L⁻ᵀ B⁻¹ Lᵀ ν̃c
    double[] alpha = kChol.solveUpper(chol.solve(l.multTransA(nuc)));
    // V = C⁻¹ Lᵀ (C the Cholesky factor of B): Σ = VᵀV, μ − m₀ = Vᵀ V ν̃c
    Matrix v = chol.solveLower(l.transpose());
    double[] mu = v.multTransA(v.mult(nuc));
    for (int i = 0; i < n; i++) {
      mu[i] += priorMean;
    }
    double[] vd = v.data();
    double[] diag = new double[n];
    for (int r = 0; r < n; r++) {
      int o = r * n;
      for (int i = 0; i < n; i++) {
        diag[i] += vd[o + i] * vd[o + i];
      }
    }
    Matrix sigma = fullSigma ? v.gram() : null;
    return new GaussianSiteApproximation(
        n, k, priorMean, tau.clone(), nu.clone(), null, chol, sigma, diag, mu, alpha, kChol);
  }

  /**
   * Predictive latent variances k** − k*ᵀ (K + S̃⁻¹)⁻¹ k* at test points with cross-covariances
   * {@code ks} (n × m) and prior variances {@code kss} (R&amp;W eq. 3.61). √τ̃ form: k** − ‖L⁻¹ S̃½ k*‖²
   * (Alg. 3.6). KEEP form: (K + S̃⁻¹)⁻¹ = K⁻¹ − K⁻¹ Σ K⁻¹, so with w = L_K⁻¹ k* the variance is
   * k** − ‖w‖² + ‖C⁻¹ w‖² (C the factor of B). Not clamped here.
   */
  double[] predictiveVariance(Matrix ks, double[] kss) {
    int m = kss.length;
    double[] var = kss.clone();
    if (kChol == null) {
      Matrix sks = ks.copy();
      sks.scaleRowsCols(sw, ones(m));
      Matrix v = chol.solveLower(sks);
      double[] vd = v.data();
      for (int r = 0; r < n; r++) {
        int o = r * m;
        for (int j = 0; j < m; j++) {
          var[j] -= vd[o + j] * vd[o + j];
        }
      }
      return var;
    }
    Matrix w = kChol.solveLower(ks);
    Matrix u = chol.solveLower(w);
    double[] wd = w.data();
    double[] ud = u.data();
    for (int r = 0; r < n; r++) {
      int o = r * m;
      for (int j = 0; j < m; j++) {
        var[j] += ud[o + j] * ud[o + j] - wd[o + j] * wd[o + j];
      }
    }
    return var;
  }

  static double[] ones(int n) {
    double[] o = new double[n];
    java.util.Arrays.fill(o, 1.0);
    return o;
  }

  /**
   * R = S̃½ B⁻¹ S̃½ = (K + S̃⁻¹)⁻¹ (n × n, new matrix). In the KEEP form, by Woodbury,
   * (K + S̃⁻¹)⁻¹ = S̃ − S̃ (K⁻¹ + S̃)⁻¹ S̃ = S̃ − S̃ Σ S̃, defined for any sign of τ̃ (and τ̃ = 0).
   */
  Matrix rMatrix() {
    if (kChol != null) {
      Matrix l = kChol.lower();
      Matrix v = chol.solveLower(l.transpose());
      Matrix r = v.gram();
      r.scale(-1);
      r.scaleRowsCols(tau, tau);
      for (int i = 0; i < n; i++) {
        r.set(i, i, r.get(i, i) + tau[i]);
      }
      return r;
    }
    Matrix r = chol.inverse();
    r.scaleRowsCols(sw, sw);
    return r;
  }
}
