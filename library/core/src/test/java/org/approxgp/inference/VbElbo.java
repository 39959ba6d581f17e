package org.approxgp.inference;

import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.JitterPolicy;
import org.approxgp.linalg.Matrix;

/**
 * The VB evidence lower bound and its partial derivatives by the direct formulas of {@link Vb}'s class comment:
 * the independent reference the tests hold {@link Vb}'s shared-factorisation code to.
 */
final class VbElbo {
  private VbElbo() {}

  /** The ELBO and its partial derivatives at (α, λ, θ). */
  static final class Evaluation {
    final double elbo;
    final double[] gradAlpha;
    final double[] gradLambda;
    final double[] gradTheta;

    Evaluation(double elbo, double[] gradAlpha, double[] gradLambda, double[] gradTheta) {
      this.elbo = elbo;
      this.gradAlpha = gradAlpha;
      this.gradLambda = gradLambda;
      this.gradTheta = gradTheta;
    }
  }

  /**
   * ELBO(α, λ) and (optionally) its partial derivatives by the class comment's direct formulas. {@link Vb#infer}
   * does not use it (its states and {@code Vb.thetaGradient} share the factorisations); it is the independent
   * reference the tests hold those to ({@code EvidenceGradientTest}, {@code VbGradientFormTest}).
   */
  static Evaluation of(Problem problem, double[] alpha, double[] lambda, boolean gradients) {
    return evaluate(
        problem,
        problem.kernel().matrix(problem.x()),
        alpha,
        lambda,
        JitterPolicy.none(),
        gradients);
  }

  private static Evaluation evaluate(
      Problem problem,
      Matrix k,
      double[] alpha,
      double[] lambda,
      JitterPolicy jitter,
      boolean gradients) {
    int n = alpha.length;
    double m0 = problem.priorMean();
    double[] sl = new double[n];
    for (int i = 0; i < n; i++) {
      if (!(lambda[i] >= 0)) {
        throw new IllegalArgumentException("λ[" + i + "] = " + lambda[i] + " must be ≥ 0");
      }
      sl[i] = Math.sqrt(lambda[i]);
    }
    Matrix bm = k.copy();
    bm.scaleRowsCols(sl, sl);
    bm.addDiagonal(1.0);
    Cholesky chol = Cholesky.factor(bm, jitter);
    // m = m₀ + Kα
    double[] m = k.mult(alpha);
    for (int i = 0; i < n; i++) {
      m[i] += m0;
    }
    // R = Λ½ B⁻¹ Λ½;  Σ = K − K R K
    Matrix r = chol.inverse();
    r.scaleRowsCols(sl, sl);
    Matrix kr = k.mult(r);
    Matrix sigma = kr.mult(k);
    sigma.scale(-1);
    double[] sd = sigma.data();
    double[] kd = k.data();
    for (int i = 0; i < sd.length; i++) {
      sd[i] += kd[i];
    }
    double[] v = sigma.diag();
    double[] gm = new double[n];
    double[] gv = new double[n];
    double e = Vb.expectedLogLik(problem, m, v, gm, gv);
    double value = e - Vb.kl(alpha, m, m0, lambda, v, chol);
    if (!gradients) {
      return new Evaluation(value, null, null, null);
    }
    // ∂/∂α = K (g_m − α)
    double[] diff = new double[n];
    for (int i = 0; i < n; i++) {
      diff[i] = gm[i] - alpha[i];
    }
    double[] gAlpha = k.mult(diff);
    // ∂/∂λᵢ = −Σⱼ Σⱼᵢ² (g_vⱼ + ½ λⱼ)
    double[] gLambda = new double[n];
    for (int j = 0; j < n; j++) {
      double c = gv[j] + 0.5 * lambda[j];
      for (int i = 0; i < n; i++) {
        double s = sd[j * n + i];
        gLambda[i] -= s * s * c;
      }
    }
    // M = sym(g_m αᵀ) + A diag(g_v) Aᵀ − ½ααᵀ − ½ RKR,  A = I − RK = (I − KR)ᵀ
    Matrix a = kr.transpose();
    a.scale(-1);
    a.addDiagonal(1.0);
    Matrix adg = a.copy();
    adg.scaleRowsCols(GaussianSiteApproximation.ones(n), gv);
    Matrix mm = adg.multTransB(a);
    Matrix rkr = r.mult(kr);
    double[] md = mm.data();
    double[] rd = rkr.data();
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        md[i * n + j] += 0.5 * (gm[i] * alpha[j] + alpha[i] * gm[j])
            - 0.5 * alpha[i] * alpha[j]
            - 0.5 * rd[i * n + j];
      }
    }
    mm.symmetrize(); // against roundoff (traceGradient expects a symmetric W)
    double[] gTheta = problem.kernel().traceGradient(problem.x(), mm);
    return new Evaluation(value, gAlpha, gLambda, gTheta);
  }
}
