package org.approxgp.sparse;

import org.approxgp.data.RegressionData;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.JitterPolicy;
import org.approxgp.linalg.Matrix;

/** One training block's quantities: x, y, A = K_uu⁻¹K_uk, the Cholesky of Γ_k = K_kk − Q_kk + σ²I. */
final class PicBlock {
  final int size;
  final double[] x;
  final double[] y;
  final Matrix kub; // K_uk, M × n_k
  final Matrix a; // M × n_k
  final Cholesky gamma;
  private Matrix w; // Γ⁻¹Aᵀ, computed on first use

  private PicBlock(int size, double[] x, double[] y, Matrix kub, Matrix a, Cholesky gamma) {
    this.size = size;
    this.x = x;
    this.y = y;
    this.kub = kub;
    this.a = a;
    this.gamma = gamma;
  }

  /** W = Γ_k⁻¹ A_kᵀ (n_k × M). */
  Matrix w() {
    if (w == null) {
      w = gamma.solve(a.transpose());
    }
    return w;
  }

  static PicBlock of(
      SquaredExponential.Rows k,
      double noise,
      RegressionData z,
      Cholesky kuu,
      RegressionData train,
      int[] rows) {
    int nb = rows.length;
    double[] x = train.gatherX(rows, 0, nb);
    double[] y = train.gatherY(rows, 0, nb);
    Matrix kub = k.cross(z.x(), z.n(), x, nb);
    Matrix v = kuu.solveLower(kub); // V = L⁻¹K_uk, Q_kk = VᵀV
    Matrix a = kuu.solveUpper(v);
    Matrix g = k.cross(x, nb, x, nb);
    double[] gd = g.data();
    double[] qd = v.gram().data();
    for (int i = 0; i < gd.length; i++) {
      gd[i] -= qd[i];
    }
    g.addDiagonal(noise);
    return new PicBlock(nb, x, y, kub, a, Cholesky.factor(g, JitterPolicy.standard()));
  }

  /** r = y − P_k m = y − Aᵀm. */
  double[] residual(double[] m) {
    double[] mu = a.multTransA(m);
    double[] r = new double[size];
    for (int i = 0; i < size; i++) {
      r[i] = y[i] - mu[i];
    }
    return r;
  }

  /** E_q[log N(y_k | P_k u, Γ_k)] = log N(y_k | Aᵀm, Γ_k) − ½ tr(Γ_k⁻¹ Aᵀ S A). */
  double expectedLogLik(double[] m, Matrix s) {
    double[] r = residual(m);
    Matrix w = w(); // Γ⁻¹Aᵀ  (n_k × M)
    Matrix sa = s.mult(a); // M × n_k
    double tr = 0;
    double[] wd = w.data();
    double[] sd = sa.data();
    int mM = a.rows();
    for (int i = 0; i < size; i++) {
      for (int p = 0; p < mM; p++) {
        tr += wd[i * mM + p] * sd[p * size + i];
      }
    }
    return -0.5 * (size * Math.log(2 * Math.PI) + gamma.logDet() + gamma.quadForm(r) + tr);
  }

  /**
   * Adds scale · ∂f_k/∂θ to {@code grad}, scale · ∂f_k/∂K_uu to {@code gK} except its ½(USK⁻¹ + K⁻¹SU) term, and
   * scale · U to {@code uSum} (the caller forms that term once from the sum over blocks, saving two M³ products per
   * block), where
   * f_k = −½[log|Γ| + rᵀΓ⁻¹r + tr(Γ⁻¹C)] + const, r = y − Aᵀm, C = AᵀSA, Γ = K_kk − K_kuK⁻¹K_uk + σ²I.
   * With α = Γ⁻¹r, W = Γ⁻¹Aᵀ, U = AW, ν = K⁻¹m and G_Γ = ∂f/∂Γ = ½[ααᵀ + WSWᵀ − Γ⁻¹]:
   * ∂f/∂K_kk = G_Γ; ∂f/∂K_uk = ναᵀ − K⁻¹SWᵀ − 2AG_Γ; ∂f/∂K_uu = −(Aα)νᵀ + ½(USK⁻¹ + K⁻¹SU) + AG_ΓAᵀ;
   * ∂f/∂log σ² = σ² tr(G_Γ). (With Γ = σ²I these are DTC's terms without the trace term of Titsias.)
   */
  void gradient(
      SquaredExponential.Rows k,
      RegressionData z,
      double noise,
      double[] m,
      Matrix s,
      double[] nu,
      Matrix kinvS,
      double scale,
      double[] gK,
      Matrix uSum,
      double[] grad) {
    int mM = a.rows();
    int n = size;
    double[] alpha = gamma.solve(residual(m));
    Matrix wm = w();
    Matrix wsw = wm.mult(s).multTransB(wm); // W S Wᵀ (n × n)
    double[] gg = gamma.inverse().data();
    double[] wswd = wsw.data();
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        int o = i * n + j;
        gg[o] = 0.5 * (alpha[i] * alpha[j] + wswd[o] - gg[o]);
      }
    }
    Matrix gGamma = Matrix.wrap(n, n, gg);
    double tr = 0;
    for (int i = 0; i < n; i++) {
      tr += gg[i * n + i];
    }
    grad[grad.length - 1] += scale * noise * tr;
    Matrix gScaled = gGamma.copy();
    gScaled.scale(scale);
    k.accumulateGradient(gScaled, k.cross(x, n, x, n), x, x, grad);
    Matrix ag = a.mult(gGamma); // A G_Γ (M × n)
    double[] agd = ag.data();
    double[] ksw = kinvS.multTransB(wm).data(); // K⁻¹ S Wᵀ (M × n)
    double[] gub = new double[mM * n];
    for (int p = 0; p < mM; p++) {
      for (int i = 0; i < n; i++) {
        int o = p * n + i;
        gub[o] = scale * (nu[p] * alpha[i] - ksw[o] - 2 * agd[o]);
      }
    }
    k.accumulateGradient(Matrix.wrap(mM, n, gub), kub, z.x(), x, grad);
    double[] aAlpha = a.mult(alpha);
    double[] u = a.mult(wm).data(); // U = A Γ⁻¹ Aᵀ
    double[] agat = ag.multTransB(a).data(); // A G_Γ Aᵀ
    double[] us = uSum.data();
    for (int p = 0; p < mM; p++) {
      for (int c = 0; c < mM; c++) {
        int o = p * mM + c;
        gK[o] += scale * (-aAlpha[p] * nu[c] + agat[o]);
        us[o] += scale * u[o];
      }
    }
  }

  /** Adds A Γ⁻¹ Aᵀ to {@code lam} and A Γ⁻¹ y to {@code t1}. */
  void addNatural(Matrix lam, double[] t1) {
    Matrix awt = a.mult(w()); // A Γ⁻¹ Aᵀ
    double[] ld = lam.data();
    double[] ad = awt.data();
    for (int i = 0; i < ld.length; i++) {
      ld[i] += ad[i];
    }
    double[] ay = w().multTransA(y); // A Γ⁻¹ y = Wᵀ y
    for (int p = 0; p < t1.length; p++) {
      t1[p] += ay[p];
    }
  }
}
