package org.approxgp.reference;

import org.approxgp.inference.Problem;
import org.approxgp.inference.Sites;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.JitterPolicy;
import org.approxgp.linalg.Matrix;

/**
 * The Gaussian q that elliptical slice sampling draws its ellipses from. Writing the unnormalised posterior
 * p*(f) = N(f | m₀, K) Πᵢ p(yᵢ | fᵢ) as q(f) exp(ℓ(f)) with ℓ = log p* − log q, elliptical slice sampling with
 * "prior" q and "likelihood" exp ℓ samples p(f | y) exactly for any q (R. Nishihara, I. Murray &amp; R. P. Adams,
 * "Parallel MCMC with generalized elliptical slice sampling", JMLR 15, 2014, §3). With q the GP prior, ℓ is the
 * log likelihood and this is plain elliptical slice sampling; with q close to the posterior, ℓ varies little and
 * the chain mixes in a few steps where plain sampling of a GP with a large signal variance needs hundreds of
 * thousands. The choice of q changes the speed, never the target: the R̂ and ESS checks certify the draws.
 *
 * <p>q is held in the prior's whitened coordinates u = L_K⁻¹ (f − m₀) (u ~ N(0, I) under the prior, L_K the
 * Cholesky factor of K): q(u) = N(u | u_q, A Aᵀ). Nothing here inverts K, whose Cholesky factor may be nearly
 * singular for long length-scales or large signal variances.
 *
 * @param whitenedMean u_q (n)
 * @param root A (n × n, upper triangular, A Aᵀ = q's whitened covariance), or null for the prior (u_q = 0, A = I)
 * @param name what q is, for reports ("prior", "EP at the compared hyperparameters", …)
 */
public record GaussianReference(double[] whitenedMean, Matrix root, String name) {

  public GaussianReference {
    whitenedMean = whitenedMean.clone();
    root = root == null ? null : root.copy();
    if (root != null
        && (root.rows() != whitenedMean.length || root.cols() != whitenedMean.length)) {
      throw new IllegalArgumentException(
          "the root must be " + whitenedMean.length + " x " + whitenedMean.length);
    }
  }

  @Override
  public double[] whitenedMean() {
    return whitenedMean.clone();
  }

  @Override
  public Matrix root() {
    return root == null ? null : root.copy();
  }

  /** The GP prior N(m₀ 1, K) of {@code problem}. */
  public static GaussianReference prior(Problem problem) {
    return new GaussianReference(new double[problem.size()], null, "prior");
  }

  /**
   * The Gaussian approximation with site parameters {@code sites} (from any method), q(f) ∝ N(f | m₀, K)
   * Πᵢ exp(−½ τ̃ᵢ fᵢ² + ν̃ᵢ fᵢ). In whitened coordinates (Woodbury; Rasmussen &amp; Williams 2006, eq. 3.53):
   * <pre>
   *   Σ_u = (I + L_Kᵀ S̃ L_K)⁻¹ = L_P⁻ᵀ L_P⁻¹ with P = I + L_Kᵀ S̃ L_K = L_P L_Pᵀ, so A = L_P⁻ᵀ;
   *   u_q = Σ_u L_Kᵀ (ν̃ − τ̃ m₀)   (from μ_q − m₀ = Σ_q (ν̃ − τ̃ m₀) and Σ_q = L_K Σ_u L_Kᵀ).
   * </pre>
   * Negative site precisions are set to 0 first (with ν̃ kept), which keeps P ≥ I positive definite; any q is
   * valid, and this one stays close to the method's.
   */
  public static GaussianReference fromSites(Problem problem, Sites sites, String name) {
    int n = problem.size();
    Matrix lk = Cholesky.factor(problem.kernel().matrix(problem.x()), JitterPolicy.standard())
        .lower();
    double[] tau = sites.tau();
    double[] nu = sites.nu();
    double m0 = problem.priorMean();
    // M = S̃½ L_K, P = I + Mᵀ M
    Matrix mm = Matrix.zeros(n, n);
    double[] b = new double[n];
    for (int i = 0; i < n; i++) {
      double t = Math.max(tau[i], 0);
      double s = Math.sqrt(t);
      for (int j = 0; j <= i; j++) {
        mm.set(i, j, s * lk.get(i, j));
      }
      b[i] = nu[i] - t * m0;
    }
    Matrix p = mm.gram();
    for (int i = 0; i < n; i++) {
      p.set(i, i, p.get(i, i) + 1);
    }
    Cholesky lp = Cholesky.factor(p, JitterPolicy.none());
    // A = L_P⁻ᵀ: solve L_Pᵀ A = I
    Matrix a = lp.solveUpper(Matrix.identity(n));
    // u_q = L_P⁻ᵀ L_P⁻¹ L_Kᵀ b
    double[] c = new double[n];
    for (int j = 0; j < n; j++) {
      double s = 0;
      for (int i = j; i < n; i++) {
        s += lk.get(i, j) * b[i];
      }
      c[j] = s;
    }
    return new GaussianReference(lp.solve(c), a, name);
  }
}
