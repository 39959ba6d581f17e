package org.approxgp.inference;

import org.approxgp.likelihood.Likelihood;
import org.approxgp.likelihood.TiltedMoments;
import org.approxgp.linalg.Matrix;
import org.approxgp.linalg.SingularMatrixException;
import org.approxgp.projection.Projection;

/**
 * The exact gradient of Quantile Propagation's hyperparameter objective by implicit differentiation of
 * its fixed point (the adjoint method), instead of 2·dim θ extra inferences by central differences.
 * Valid for every moment-matching rule with EP's whole-site cavity and the tilted normaliser in the
 * evidence ({@link MomentMatching}: QP with an exact or table-backed W2 projection, Lp); for EP it
 * reduces to R&amp;W eq. 5.27. Derivation (details in {@code docs/derivations/qp-gradient.md}):
 *
 * <p><b>Objective.</b> With sites s = (τ̃, ν̃) (raw natural parameters), the posterior q = N(μ, Σ),
 * Σ = (K⁻¹ + S̃)⁻¹, μ = m₀ + Σ(ν̃ − τ̃ m₀), the cavity of site i c̄ᵢ = (τ₋ᵢ, ν₋ᵢ) = (Λᵢ − τ̃ᵢ, ηᵢ − ν̃ᵢ)
 * with Λᵢ = 1/Σᵢᵢ, ηᵢ = μᵢ/Σᵢᵢ (R&amp;W eq. 3.56), the EP energy (R&amp;W eq. 3.65; QP paper eq. 2/4, the
 * objective {@link SiteLoop} evaluates) is
 * <pre>
 *   L(s, θ) = G(s, θ) + Σᵢ hᵢ(c̄ᵢ, sᵢ),
 *   G = log ∫ N(f | m₀, K) Πᵢ exp(−½ τ̃ᵢ fᵢ² + ν̃ᵢ fᵢ) df,
 *   hᵢ = log Ẑᵢ(c̄ᵢ) − log ∫ N(f | c̄ᵢ) exp(−½ τ̃ᵢ f² + ν̃ᵢ f) df .
 * </pre>
 * Since cavity × site = marginal qᵢ identically, the explicit site derivatives of G and of hᵢ cancel
 * (both are ±(E_qᵢ f, −½ E_qᵢ f²)), and the cavity derivative of hᵢ is the moment difference between the
 * tilted distribution p̂ᵢ and qᵢ (log-partition derivatives):
 * <pre>
 *   ∂hᵢ/∂τ₋ᵢ = −½ (E_p̂ f² − E_q f²),   ∂hᵢ/∂ν₋ᵢ = E_p̂ f − E_q f,          (1)
 * </pre>
 * both zero at an EP fixed point (moment matching), and at a QP fixed point the second is zero (the W2
 * projection keeps EP's mean, QP paper eq. 17) but the first is ½ (σ*ᵢ² − σ_EPᵢ²) ≠ 0 (Theorem 2). The
 * partial derivative in θ with the sites fixed is ∂G/∂θ = ½ tr((ααᵀ − R) ∂K/∂θ) (R&amp;W eq. 5.27, R =
 * (K + S̃⁻¹)⁻¹) plus the cavities' θ-dependence through (Λ, η), weighted by (1).
 *
 * <p><b>Fixed point.</b> The parallel site map is F(s, θ) = Pr(c̄) − c̄ with c̄ = m̄(s, θ) − s, m̄ = (Λ, η),
 * and Pr the projection in natural parameters, (τ̂, ν̂) = (σ*⁻², μ* σ*⁻²) of the cavity (QP paper
 * Algorithm 1, line 10, eq. 17 and 23). With P̃ = ∂Pr/∂c̄ − I (2 × 2 blocks), J = ∂c̄/∂s = ∂m̄/∂s − I and
 * g_θ = ∂m̄/∂θ, the implicit function theorem gives ds*(θ)/dθ = (I − P̃J)⁻¹ P̃ g_θ, and with w = ∂L/∂c̄ from (1),
 * ∂L/∂s = wᵀJ, ∂L/∂θ|s = ∂G/∂θ + wᵀ g_θ, so (push-through identity I + J(I − P̃J)⁻¹P̃ = (I − JP̃)⁻¹)
 * <pre>
 *   dL/dθ = ∂G/∂θ + ρᵀ g_θ,   (I − J P̃)ᵀ ρ = w     (one dense 2n × 2n solve).      (2)
 * </pre>
 * Pieces: ∂Σᵢᵢ/∂τ̃ⱼ = −Σᵢⱼ², ∂μᵢ/∂τ̃ⱼ = −Σᵢⱼ μⱼ, ∂μᵢ/∂ν̃ⱼ = Σᵢⱼ, so ∂Λᵢ/∂τ̃ⱼ = Σᵢⱼ²/Σᵢᵢ², ∂ηᵢ/∂τ̃ⱼ =
 * −Σᵢⱼ μⱼ/Σᵢᵢ + μᵢ Σᵢⱼ²/Σᵢᵢ², ∂ηᵢ/∂ν̃ⱼ = Σᵢⱼ/Σᵢᵢ, ∂Λᵢ/∂ν̃ⱼ = 0; in θ, dΣ = A dK Aᵀ and dμ = A dK α with
 * A = ΣK⁻¹ = I − KR. Then ρᵀ g_θ = Σᵢ aᵢ dΣᵢᵢ + bᵢ dμᵢ with aᵢ = −(ρ_Λᵢ + ρ_ηᵢ μᵢ)/Σᵢᵢ², bᵢ = ρ_ηᵢ/Σᵢᵢ,
 * and the whole gradient is one trace: dL/dθⱼ = tr(W ∂K/∂θⱼ) with
 * <pre>
 *   W = ½ (ααᵀ − R) + Aᵀ diag(a) A + ½ (u αᵀ + α uᵀ),   u = Aᵀ b.
 * </pre>
 *
 * <p><b>The projection's derivatives</b> ∂Pr/∂c̄ come from the scalar map (m, v) ↦ (τ̂, ν̂) of the cavity
 * mean and variance by the central difference f′ ≈ (f(h) − f(−h))/(2h) with steps h_m = ε√v, h_v = εv,
 * ε = {@value #FD_STEP} (4 projections per site): its truncation error is ε²/6 times the third derivative on
 * the scale (√v, v) on which the projection varies, ~2e-9 relatively. The errors of the exact W2 quadrature
 * (nodes placed by the EP moments, smooth in (m, v)) and of the table's Lagrange interpolant vary smoothly
 * with the cavity except where the quadrature's adaptive level or range changes, so in practice they do
 * not turn into δ/ε noise: the gradient agrees with a fourth-order
 * difference of ε = 1e-2 (8 projections per site) to 3e-10–4e-10 relatively on the test problems, and with
 * finite differences of the evidence to 6e-11–3e-10 ({@code QpGradientTest}). Then the chain rule to natural
 * cavity parameters, ∂m/∂τ₋ = −mv, ∂m/∂ν₋ = v, ∂v/∂τ₋ = −v², ∂v/∂ν₋ = 0. A site clipped by
 * {@link SiteLoop.NegativeSitePrecision#CLIP} (τ̃ = 0 from a negative proposal) has F_τ ≡ 0 nearby: its τ row of
 * P̃ is zero.
 *
 * <p>Cost per gradient: three n³ products through {@code linalg}, the (2n)³/3 LU of (2), 4n projections
 * — against 2·dim θ whole inferences for central differences.
 */
public final class QpGradient {
  /** Relative step ε of the projection's finite difference (see the class comment). */
  static final double FD_STEP = 1e-4;

  private QpGradient() {}

  /**
   * The posterior with its log-evidence gradient replaced by the implicit-differentiation gradient (2).
   *
   * @throws InferenceException when the gradient cannot be computed (an improper cavity, a singular
   *     I − ∂F/∂s, a projection failing at a perturbed cavity, a non-finite result), with the run's diagnostics
   * @param projection the projection the run used (e.g. {@link MomentMatching#projection()})
   * @param negativeSites the run's policy (CLIP makes clipped sites' precisions locally constant)
   */
  public static Posterior withGradient(
      Posterior posterior, Projection projection, SiteLoop.NegativeSitePrecision negativeSites) {
    double[] g;
    try {
      g = gradient(
          posterior.problem(),
          posterior.approx(),
          projection,
          negativeSites,
          true,
          posterior.diagnostics());
    } catch (InferenceException e) {
      throw e;
    } catch (ArithmeticException e) {
      // a projection that fails at a perturbed cavity (e.g. a W2 integral that does not converge)
      throw new InferenceException("QP gradient: " + e.getMessage(), posterior.diagnostics(), e);
    }
    for (double v : g) {
      if (!Double.isFinite(v)) {
        throw new InferenceException(
            "non-finite QP log-evidence gradient", posterior.diagnostics(), null);
      }
    }
    return posterior.withLogEvidenceGradient(g);
  }

  /**
   * dL/dθ by (2); with {@code implicit} false, only the partial derivative ∂L/∂θ at fixed sites (ρ = w), for
   * the test that the implicit term matters.
   */
  static double[] gradient(
      Problem problem,
      GaussianSiteApproximation a,
      Projection projection,
      SiteLoop.NegativeSitePrecision negativeSites,
      boolean implicit,
      Diagnostics diagnostics) {
    int n = a.n;
    Matrix k = a.k;
    double[] mu = a.mu;
    double[] alpha = a.alpha;
    // R = (K + S̃⁻¹)⁻¹, A = I − K R, Σ = A K (symmetrised below)
    Matrix r = a.rMatrix();
    Matrix kr = k.mult(r);
    Matrix am = kr.copy();
    am.scale(-1);
    am.addDiagonal(1);
    Matrix sigma = am.mult(k);
    sigma.symmetrize();
    double[] sd = sigma.data();
    double[] s2 = a.sigmaDiag;
    Likelihood lik = problem.likelihood();
    double[] y = problem.y();
    // w = ∂L/∂c̄ (eq. 1) and the blocks P̃ᵢ = ∂Pr/∂c̄ − I, row-major [ττ, τν, ντ, νν]
    double[] w = new double[2 * n];
    double[][] pt = new double[n][];
    for (int i = 0; i < n; i++) {
      double tc = 1.0 / s2[i] - a.tau[i];
      double nc = mu[i] / s2[i] - a.nu[i];
      if (!(tc > 0)) {
        throw new InferenceException(
            "improper cavity at site " + i + ": the QP gradient is undefined", diagnostics, null);
      }
      double m = nc / tc;
      double v = 1.0 / tc;
      TiltedMoments t = lik.tilted(y[i], m, v);
      w[2 * i] = -0.5 * ((t.variance() + t.mean() * t.mean()) - (s2[i] + mu[i] * mu[i]));
      w[2 * i + 1] = t.mean() - mu[i];
      if (implicit) {
        pt[i] = projectionJacobian(projection, lik, y[i], m, v);
        pt[i][0] -= 1;
        pt[i][3] -= 1;
        if (negativeSites == SiteLoop.NegativeSitePrecision.CLIP && a.tau[i] == 0) {
          TiltedMoments pr = projection.project(lik, y[i], m, v);
          if (1.0 / pr.variance() - tc < 0) {
            pt[i][0] = 0;
            pt[i][1] = 0;
          }
        }
      }
    }
    double[] rho = implicit ? solveAdjoint(n, sd, s2, mu, pt, w, diagnostics) : w;
    double[] aw = new double[n];
    double[] bw = new double[n];
    for (int i = 0; i < n; i++) {
      aw[i] = -(rho[2 * i] + rho[2 * i + 1] * mu[i]) / (s2[i] * s2[i]);
      bw[i] = rho[2 * i + 1] / s2[i];
    }
    // W = ½(ααᵀ − R) + Aᵀ diag(a) A + ½(u αᵀ + α uᵀ), u = Aᵀ b
    Matrix da = am.copy();
    da.scaleRowsCols(aw, GaussianSiteApproximation.ones(n));
    Matrix wm = am.multTransA(da);
    double[] u = am.multTransA(bw);
    double[] wd = wm.data();
    double[] rd = r.data();
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        wd[i * n + j] +=
            0.5 * (alpha[i] * alpha[j] - rd[i * n + j]) + 0.5 * (u[i] * alpha[j] + alpha[i] * u[j]);
      }
    }
    return problem.kernel().traceGradient(problem.x(), wm, a.k);
  }

  /**
   * ∂(τ̂, ν̂)/∂(τ₋, ν₋) of the projection in natural parameters at cavity N(m, v), row-major
   * [∂τ̂/∂τ₋, ∂τ̂/∂ν₋, ∂ν̂/∂τ₋, ∂ν̂/∂ν₋], by the central difference in (m, v) (class comment).
   */
  static double[] projectionJacobian(
      Projection projection, Likelihood lik, double y, double m, double v) {
    double hm = FD_STEP * Math.sqrt(v);
    double hv = FD_STEP * v;
    double[] dm = centralDifference(projection, lik, y, m, v, hm, 0);
    double[] dv = centralDifference(projection, lik, y, m, v, 0, hv);
    // chain rule: m = ν₋/τ₋, v = 1/τ₋
    double mt = -m * v;
    double mn = v;
    double vt = -v * v;
    return new double[] {dm[0] * mt + dv[0] * vt, dm[0] * mn, dm[1] * mt + dv[1] * vt, dm[1] * mn};
  }

  /** [∂τ̂, ∂ν̂] along the step (hm, hv) in (m, v), divided by its length (one of hm, hv is 0). */
  private static double[] centralDifference(
      Projection projection, Likelihood lik, double y, double m, double v, double hm, double hv) {
    double[] p1 = natural(projection.project(lik, y, m + hm, v + hv));
    double[] m1 = natural(projection.project(lik, y, m - hm, v - hv));
    double h = hm + hv;
    return new double[] {(p1[0] - m1[0]) / (2 * h), (p1[1] - m1[1]) / (2 * h)};
  }

  /** (1/σ², μ/σ²) of a projection. */
  private static double[] natural(TiltedMoments t) {
    return new double[] {1.0 / t.variance(), t.mean() / t.variance()};
  }

  /**
   * Solves (I − J P̃)ᵀ ρ = w (eq. 2) by LU with partial pivoting ({@link Matrix#luSolve}, LAPACK
   * dgetrf/dgetrs). Index 2i is site i's precision component, 2i + 1 its natural-mean component; J's blocks
   * from the class comment.
   */
  static double[] solveAdjoint(
      int n,
      double[] sd,
      double[] s2,
      double[] mu,
      double[][] pt,
      double[] w,
      Diagnostics diagnostics) {
    int m = 2 * n;
    // T = (I − J P̃)ᵀ: T[(j,b),(i,a)] = δ − Σ_k J[(i,a),(j,k)] P̃ⱼ[k,b]
    double[] t = new double[m * m];
    for (int i = 0; i < n; i++) {
      double si = s2[i];
      for (int j = 0; j < n; j++) {
        double sij = sd[i * n + j];
        double q = sij * sij / (si * si);
        double jLt = q - (i == j ? 1 : 0);
        double jEt = -sij * mu[j] / si + mu[i] * q;
        double jEn = sij / si - (i == j ? 1 : 0);
        double[] p = pt[j];
        // (J P̃)[(i,Λ),(j,b)] = J[Λ,τ] P̃[τ,b];  (J P̃)[(i,η),(j,b)] = J[η,τ] P̃[τ,b] + J[η,ν]
        // P̃[ν,b]
        int rowT = 2 * j * m;
        int rowN = (2 * j + 1) * m;
        t[rowT + 2 * i] = -jLt * p[0];
        t[rowN + 2 * i] = -jLt * p[1];
        t[rowT + 2 * i + 1] = -(jEt * p[0] + jEn * p[2]);
        t[rowN + 2 * i + 1] = -(jEt * p[1] + jEn * p[3]);
      }
    }
    for (int d = 0; d < m; d++) {
      t[d * m + d] += 1;
    }
    try {
      return Matrix.wrap(m, m, t).luSolve(w);
    } catch (SingularMatrixException e) {
      throw new InferenceException(
          "the QP fixed point is singular (I − ∂F/∂s not invertible)", diagnostics, e);
    }
  }
}
