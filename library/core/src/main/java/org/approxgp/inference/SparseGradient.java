package org.approxgp.inference;

import java.util.Arrays;
import org.approxgp.kernel.Kernel;
import org.approxgp.likelihood.Likelihood;
import org.approxgp.likelihood.TiltedMoments;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.Matrix;

/**
 * ∂ log Z / ∂θ and ∂ log Z / ∂Z of {@link SparseSiteLoop}'s Power-EP energy (the kernel's log-hyperparameters and the
 * inducing inputs), with the sites held at
 * their converged values: at a fixed point of a KL rule (EP, Power EP) the energy is stationary in the sites (Minka
 * 2004; Bui, Yan &amp; Turner 2017, §3), so this partial derivative is the total derivative; at QP's fixed point it
 * is not, and the loop refuses to compute it. Derivation: {@code docs/derivations/sparse-power-ep.md} §5.
 *
 * <p>With Q = K_uu, U = K_uf, Ψ = Q + U T̃ Uᵀ, ψ = U ν̃c (ν̃c = ν̃ − τ̃ m₀), the energy is
 * <pre>
 * F = ½ log|Q| − ½ log|Ψ| + ½ ψᵀΨ⁻¹ψ + Σₙ ℓₙ(uₙᵀΨ⁻¹ψ, uₙᵀΨ⁻¹uₙ, kₙₙ − uₙᵀQ⁻¹uₙ),
 * </pre>
 * ℓₙ = log sₙ as a function of (m_gₙ − m₀, V_gₙ, dₙ) with derivatives (γ_m, γ_V, γ_d), and
 * dF = tr(Y dQ) + tr(G_Uᵀ dU) + Σ γ_dₙ dkₙₙ with, in the whitened terms of {@link SparseApproximation}
 * (Q = L Lᵀ, A = L⁻¹U, B = I + A T̃ Aᵀ, m = B⁻¹Aν̃c, ẽ = B⁻¹Aγ_m):
 * <pre>
 * X̃ = −½ (B⁻¹ + m mᵀ + ẽ mᵀ + m ẽᵀ) − B⁻¹ A Γ_V Aᵀ B⁻¹,
 * Y = L⁻ᵀ (½ I + X̃ + A Γ_d Aᵀ) L⁻¹,
 * G_U = L⁻ᵀ [(m + ẽ) ν̃cᵀ + 2 X̃ A T̃ + m γ_mᵀ + 2 B⁻¹ A Γ_V − 2 A Γ_d].
 * </pre>
 * In Z through the kernel's input derivatives: ∂F/∂z_a = 2 Σ_b Y_ab ∂k(z_a, z_b)/∂z_a + Σₙ (G_U)_aₙ ∂k(z_a, xₙ)/∂z_a.
 * Cost O(nM² + nMd); beyond the loop's own arrays, O(M² + BLOCK·M) memory (the n × M terms by blocks of
 * {@link SparseApproximation#BLOCK} training rows).
 */
final class SparseGradient {
  private SparseGradient() {}

  /**
   * The gradient in θ (the kernel's log-hyperparameters) and in Z.
   *
   * @param theta ∂F/∂θ
   * @param inducing ∂F/∂Z (M × d)
   */
  record Result(double[] theta, double[][] inducing) {}

  static Result of(
      Problem problem,
      double[][] z,
      Cholesky kuu,
      SparseApproximation a,
      double[] d,
      double alpha) {
    int n = a.n;
    int m = a.m;
    double m0 = a.priorMean;
    double[] gm = new double[n];
    double[] gv = new double[n];
    double[] gd = new double[n];
    double[] nuc = new double[n];
    Likelihood lik = problem.likelihood();
    for (int i = 0; i < n; i++) {
      nuc[i] = rowTerms(
          lik,
          alpha,
          m0,
          problem.y()[i],
          a.tau[i],
          a.nu[i],
          a.gMean[i],
          a.gVariance[i],
          d[i],
          gm,
          gv,
          gd,
          i);
    }
    Matrix binv = a.b.inverse();
    double[] e = binv.mult(Matrix.wrap(n, m, a.rows).multTransA(gm)); // ẽ = B⁻¹ A γ_m
    Matrix agv = SparseApproximation.weightedGram(a.rows, n, m, gv); // A Γ_V Aᵀ
    Matrix agd = SparseApproximation.weightedGram(a.rows, n, m, gd); // A Γ_d Aᵀ
    Kernel kern = problem.kernel();
    Middle mid = middle(kern, z, kuu, binv, a.mean, e, agv, agd);
    double[] g = mid.g();
    double[] gdiag = kern.diagonalTraceGradient(problem.x(), gd);
    for (int j = 0; j < g.length; j++) {
      g[j] += gdiag[j];
    }
    double[][] gz = mid.gz();
    // G_U = L⁻ᵀ G̃ by blocks of training rows
    double[][] xs = problem.x();
    for (int from = 0; from < n; from += SparseApproximation.BLOCK) {
      int b = Math.min(SparseApproximation.BLOCK, n - from);
      double[] block = new double[b * m];
      System.arraycopy(a.rows, from * m, block, 0, b * m);
      Result part = blockTerms(
          kern,
          z,
          kuu,
          block,
          b,
          Arrays.copyOfRange(xs, from, from + b),
          from,
          nuc,
          a.tau,
          gm,
          gv,
          gd,
          mid.x(),
          binv,
          a.mean,
          e);
      double[] gc = part.theta();
      for (int j = 0; j < g.length; j++) {
        g[j] += gc[j];
      }
      double[][] gzx = part.inducing();
      for (int r = 0; r < gz.length; r++) {
        for (int c = 0; c < gz[r].length; c++) {
          gz[r][c] += gzx[r][c];
        }
      }
    }
    return new Result(g, gz);
  }

  /**
   * Row i's (γ_m, γ_V, γ_d) of ℓᵢ = log sᵢ (class comment) into {@code gm}, {@code gv}, {@code gd} at {@code o},
   * from its site, marginal q(gᵢ) = N(gMean, gVar) and dᵢ; returns ν̃cᵢ = ν̃ᵢ − τ̃ᵢ m₀.
   */
  static double rowTerms(
      Likelihood lik,
      double alpha,
      double m0,
      double y,
      double tau,
      double nu,
      double gMean,
      double gVar,
      double di,
      double[] gm,
      double[] gv,
      double[] gd,
      int o) {
    double nuc = nu - tau * m0;
    double mc = gMean - m0;
    double v = gVar;
    // cavity of gₙ about m₀ (precision 1/v − ατ̃, natural mean mc/v − αν̃c) in a form that stays
    // finite as
    // v → 0, where aₙ ≈ 0 (a row far from every inducing input, its kernel values underflowed: 1/v
    // overflowed and the gradient was NaN): with r = 1/(1 − ατ̃v), the cavity's variance is s = v r
    // and its
    // mean c = (mc − αν̃c v) r
    double r = 1 / (1 - alpha * tau * v);
    double s = v * r;
    double c = (mc - alpha * nuc * v) * r;
    double vf = s + di;
    TiltedMoments t =
        alpha == 1 ? lik.tilted(y, m0 + c, vf) : lik.powerTilted(y, m0 + c, vf, alpha);
    // ∂ log Ẑ / ∂(mean, variance) of the f-cavity
    double a1 = (t.mean() - m0 - c) / vf;
    double a2 = 0.5 * (a1 * a1 + (t.variance() - vf) / (vf * vf));
    // ∂(log C + log Ẑ)/∂τ₋, ∂/∂ν₋ (class comment; the derivation note §5) taken to (m_g, V_g): with
    // ln = c + a1 s and lt = −½(s + c²) − a1 c s − a2 s²,
    //   γ_m = (ln − mc)/(αv),  γ_V = (−lt − ln mc − ½v + ½mc²)/(αv²),
    // whose 1/v and 1/v² cancel: c − mc = v δ with δ = α(τ̃ mc − ν̃c) r, and s − v = v · ατ̃v r, so
    //   γ_m = (δ + a1 r)/α,  γ_V = (½δ² + a1 r δ + a2 r² + ½ατ̃ r)/α
    double delta = alpha * (tau * mc - nuc) * r;
    gm[o] = (delta + a1 * r) / alpha;
    gv[o] = (0.5 * delta * delta + a1 * r * delta + a2 * r * r + 0.5 * alpha * tau * r) / alpha;
    gd[o] = a2 / alpha;
    return nuc;
  }

  /**
   * The M × M part (class comment): X̃, Y, and the gradient's terms through K_uu, tr(Y dQ): ∂θ from
   * {@link Kernel#traceGradient} and ∂Z = 2 Σ_b Y_ab ∂k(z_a, z_b)/∂z_a.
   *
   * @param x X̃
   */
  record Middle(Matrix x, double[] g, double[][] gz) {}

  static Middle middle(
      Kernel kern,
      double[][] z,
      Cholesky kuu,
      Matrix binv,
      double[] mu,
      double[] e,
      Matrix agv,
      Matrix agd) {
    int m = mu.length;
    // X̃ = −½ (B⁻¹ + m mᵀ + ẽ mᵀ + m ẽᵀ) − B⁻¹ A Γ_V Aᵀ B⁻¹,  Ỹ = ½ I + X̃ + A Γ_d Aᵀ
    Matrix x = binv.mult(agv).mult(binv);
    double[] xd = x.data();
    double[] bd = binv.data();
    for (int r = 0; r < m; r++) {
      for (int col = 0; col < m; col++) {
        int k = r * m + col;
        xd[k] = -xd[k] - 0.5 * (bd[k] + mu[r] * mu[col] + e[r] * mu[col] + mu[r] * e[col]);
      }
    }
    x.symmetrize();
    Matrix yt = x.copy();
    yt.addDiagonal(0.5);
    double[] ytd = yt.data();
    double[] agdd = agd.data();
    for (int k = 0; k < ytd.length; k++) {
      ytd[k] += agdd[k];
    }
    // unwhiten: Y = L⁻ᵀ Ỹ L⁻¹
    Matrix y = kuu.solveUpper(kuu.solveUpper(yt).transpose()).transpose();
    y.symmetrize();
    double[] g = kern.traceGradient(z, y);
    // ∂F/∂z_a = 2 Σ_b Y_ab ∂k(z_a, z_b)/∂z_a + Σₙ (G_U)_an ∂k(z_a, xₙ)/∂z_a  (Y symmetric, k(z_a,
    // z_b) = k(z_b, z_a))
    double[][] gz = kern.crossInputGradient(z, z, y);
    for (double[] row : gz) {
      for (int c = 0; c < row.length; c++) {
        row[c] *= 2;
      }
    }
    return new Middle(x, g, gz);
  }

  /**
   * One block's terms through K_uf (from zero): G_U = L⁻ᵀ G̃ for its b rows ({@code block}, b × M; inputs
   * {@code xb}), G̃ column n = ν̃cₙ (m + ẽ) + 2 τ̃ₙ X̃ aₙ + γ_mₙ m + 2 γ_Vₙ B⁻¹aₙ − 2 γ_dₙ aₙ, and its ∂θ
   * ({@link Kernel#crossTraceGradient}) and ∂Z ({@link Kernel#crossInputGradient}); the per-row arrays are read
   * from {@code off}.
   */
  static Result blockTerms(
      Kernel kern,
      double[][] z,
      Cholesky kuu,
      double[] block,
      int b,
      double[][] xb,
      int off,
      double[] nuc,
      double[] tau,
      double[] gm,
      double[] gv,
      double[] gd,
      Matrix x,
      Matrix binv,
      double[] mu,
      double[] e) {
    int m = mu.length;
    Matrix rows = Matrix.wrap(b, m, block);
    double[] xa = rows.mult(x).data(); // row i: (X̃ aᵢ)ᵀ
    double[] ba = rows.mult(binv).data(); // row i: (B⁻¹ aᵢ)ᵀ
    Matrix gt = Matrix.zeros(m, b);
    double[] gtd = gt.data();
    for (int i = 0; i < b; i++) {
      int gi = off + i;
      int o = i * m;
      for (int r = 0; r < m; r++) {
        gtd[r * b + i] = nuc[gi] * (mu[r] + e[r])
            + 2 * tau[gi] * xa[o + r]
            + gm[gi] * mu[r]
            + 2 * gv[gi] * ba[o + r]
            - 2 * gd[gi] * block[o + r];
      }
    }
    Matrix gu = kuu.solveUpper(gt);
    return new Result(kern.crossTraceGradient(z, xb, gu), kern.crossInputGradient(z, xb, gu));
  }
}
