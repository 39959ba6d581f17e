package org.approxgp.sparse;

import java.util.Arrays;
import org.approxgp.data.RegressionData;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.JitterPolicy;
import org.approxgp.linalg.Matrix;

/**
 * VSSGP's variational lower bound and its gradient ({@link Vssgp}'s class comment gives the bound, the
 * expectations of the trigonometric features under q(ω) and the packed parameter layout): one streaming pass over
 * the rows per evaluation, O(|rows| m²) time and O(m²) memory.
 */
final class VssgpBound {

  private VssgpBound() {}

  // ---- the bound and its gradient
  // ------------------------------------------------------------------------------

  /** Per-batch sums. */
  static final class Stats {
    double[] psi; // Σ Ψᵢ (full symmetric)
    double[] b; // Σ yᵢ φ̄ᵢ
    double yy;
    int rows;
  }

  /**
   * The expectations of row x (at xo) under q: φ̄ (2m, written at phibar[off…]) and the 2 × 2 block covariances
   * dvar[3k..3k+3) = (Var cos zₖ, Var sin zₖ, Cov(cos zₖ, sin zₖ)); if trig is not null also trig[to + 3k..to + 3k
   * + 3) = (e^{−2v}, cos 2m, sin 2m); always u[uo…uo + d) = x/ℓ.
   */
  static void expectations(
      double[] x,
      int xo,
      int d,
      int m,
      double[] muW,
      double[] sW,
      double[] invEll,
      double[] phibar,
      int off,
      double[] dvar,
      double[] trig,
      int to,
      double[] u,
      int uo) {
    for (int j = 0; j < d; j++) {
      u[uo + j] = x[xo + j] * invEll[j];
    }
    for (int k = 0; k < m; k++) {
      double mk = 0;
      double vk = 0;
      int ok = k * d;
      for (int j = 0; j < d; j++) {
        double uj = u[uo + j];
        mk += muW[ok + j] * uj;
        vk += sW[ok + j] * uj * uj;
      }
      double rho = Math.exp(-0.5 * vk);
      double r4 = Math.exp(-2 * vk);
      double cm = Math.cos(mk);
      double sm = Math.sin(mk);
      double c2m = cm * cm - sm * sm;
      double s2m = 2 * sm * cm;
      double cb = rho * cm;
      double sb = rho * sm;
      phibar[off + 2 * k] = cb;
      phibar[off + 2 * k + 1] = sb;
      // E[cos²] − E[cos]², E[sin²] − E[sin]², E[sin cos] − E[sin]E[cos]
      dvar[3 * k] = 0.5 * (1 + r4 * c2m) - cb * cb;
      dvar[3 * k + 1] = 0.5 * (1 - r4 * c2m) - sb * sb;
      dvar[3 * k + 2] = 0.5 * r4 * s2m - cb * sb;
      if (trig != null) {
        trig[to + 3 * k] = r4;
        trig[to + 3 * k + 1] = c2m;
        trig[to + 3 * k + 2] = s2m;
      }
    }
  }

  /**
   * One pass over the rows (null: all): Σ Ψᵢ, Σ yᵢφ̄ᵢ, Σ yᵢ²; if e (= μ_aμ_aᵀ + S_a) is given, also
   * gMu[k·d + j] = Σᵢ ∂Bᵢ/∂mᵢₖ · uᵢⱼ and gV[k·d + j] = Σᵢ ∂Bᵢ/∂vᵢₖ · uᵢⱼ² (Bᵢ: class comment), where, with
   * c̄ = e^{−v/2}cos m, s̄ = e^{−v/2}sin m, the 2 × 2 block (E_cc, E_ss, E_cs) of e and w = e φ̄ᵢ:
   * ∂B/∂c̄ = 2(w_c − yμ_c − c̄E_cc − s̄E_cs), ∂B/∂s̄ = 2(w_s − yμ_s − s̄E_ss − c̄E_cs),
   * ∂B/∂m = −s̄ ∂B/∂c̄ + c̄ ∂B/∂s̄ + e^{−2v}[sin 2m (E_ss − E_cc) + 2 cos 2m E_cs],
   * ∂B/∂v = −½(c̄ ∂B/∂c̄ + s̄ ∂B/∂s̄) + e^{−2v}[cos 2m (E_ss − E_cc) − 2 sin 2m E_cs].
   */
  static Stats accumulate(
      RegressionData data, int[] rows, int m, double[] p, double[] e, double[] gMu, double[] gV) {
    int d = data.d();
    int k2 = 2 * m;
    int md = m * d;
    double[] muW = Arrays.copyOf(p, md);
    double[] sW = VssgpParameters.frequencyVariances(p, m, d);
    double[] invEll = VssgpParameters.inverseLengthscales(p, m, d);
    double[] muA =
        Arrays.copyOfRange(p, VssgpParameters.offMuA(m, d), VssgpParameters.offMuA(m, d) + k2);
    int nRows = rows == null ? data.n() : rows.length;
    double[] x = data.x();
    double[] y = data.y();
    double[] psi = new double[k2 * k2];
    double[] b = new double[k2];
    double yy = 0;
    int block = 256;
    double[] dvar = new double[3 * m];
    double[] trig = e == null ? null : new double[block * 3 * m];
    double[] u = new double[block * d];
    Matrix eMatrix = e == null ? null : Matrix.wrap(k2, k2, e);
    double[] eb = e == null ? null : diagonalBlocks(e, m);
    double[] yb = new double[block];
    for (int start = 0; start < nRows; start += block) {
      int cnt = Math.min(block, nRows - start);
      double[] buf = new double[cnt * k2];
      for (int t = 0; t < cnt; t++) {
        int i = rows == null ? start + t : rows[start + t];
        int bo = t * k2;
        expectations(x, i * d, d, m, muW, sW, invEll, buf, bo, dvar, trig, 3 * m * t, u, d * t);
        double yi = y[i];
        yy += yi * yi;
        for (int a = 0; a < k2; a++) {
          b[a] += yi * buf[bo + a];
        }
        for (int k = 0; k < m; k++) {
          int c = 2 * k;
          psi[c * k2 + c] += dvar[3 * k];
          psi[(c + 1) * k2 + c + 1] += dvar[3 * k + 1];
          psi[(c + 1) * k2 + c] += dvar[3 * k + 2];
          psi[c * k2 + c + 1] += dvar[3 * k + 2];
        }
      }
      SpectralBasis.addGram(buf, cnt, k2, psi);
      if (e == null) {
        continue;
      }
      // wᵢ = e φ̄ᵢ for the block's rows at once (e symmetric): the rows of φ̄ e
      double[] w = Matrix.wrap(cnt, k2, buf).mult(eMatrix).data();
      for (int t = 0; t < cnt; t++) {
        yb[t] = y[rows == null ? start + t : rows[start + t]];
      }
      frequencyGradient(cnt, buf, trig, u, yb, m, d, eb, muA, w, gMu, gV);
    }
    Stats st = new Stats();
    st.psi = psi;
    st.b = b;
    st.yy = yy;
    st.rows = nRows;
    return st;
  }

  /** Rows per block of the collapsed bound's passes (as {@link #accumulate}'s). */
  private static final int BLOCK = 256;

  /**
   * Doubles of per-row expectations (φ̄ᵢ, the trigonometric terms and x/ℓ: 2m + 3m + d per row) {@link #collapsed}
   * keeps between its two passes; above it the second pass recomputes them.
   */
  static final long KEEP_ROWS = 1L << 24;

  /** One block of rows' expectations ({@link #expectations}): φ̄ (cnt × 2m), trig (cnt × 3m), u = x/ℓ (cnt × d). */
  private record Block(int start, int cnt, double[] phi, double[] trig, double[] u) {}

  /**
   * The collapsed bound L* = max over q(a) of L, on all rows, and, if {@code grad} is not null, ∂L* / ∂x written into
   * its first {@link VssgpParameters#offMuA} entries: x holds those entries of the packed parameters (q(ω) and the
   * hyperparameters; {@link Vssgp}'s class comment). The value is L (as {@link #evaluate}) at the optimal q(a),
   * S_a = A⁻¹, μ_a = A⁻¹b/σₙ², A = Ψ/σₙ² + I/λ (as {@link Vssgp#optimalWeights}), with log|S_a| = −log|A|; the
   * gradient is L's at that q(a) held fixed (the envelope theorem: q(a) is stationary), the q(ω) and hyperparameter
   * entries of {@link #evaluate}'s. One pass over the rows for Ψ, b and yᵀy and a second for the frequency
   * gradients (which need E = S_a + μ_aμ_aᵀ, known only after the first), reusing the first pass's expectations
   * while n(5m + d) &le; {@link #KEEP_ROWS}: half the transcendental functions of {@link Vssgp#optimalWeights}
   * then {@link #evaluate}, and none of their O(m³) work on q(a)'s Cholesky parameters, which the collapsed fit
   * does not optimise.
   *
   * @throws org.approxgp.linalg.NotPositiveDefiniteException if A cannot be factored
   */
  static double collapsed(RegressionData data, int m, double[] x, double[] grad) {
    return collapsed(data, m, x, grad, KEEP_ROWS);
  }

  /** As {@link #collapsed(RegressionData, int, double[], double[])}, keeping the expectations while n(5m + d) &le; keepRows. */
  static double collapsed(RegressionData data, int m, double[] x, double[] grad, long keepRows) {
    int n = data.n();
    int d = data.d();
    int k2 = 2 * m;
    int md = m * d;
    double[] muW = Arrays.copyOf(x, md);
    double[] sW = VssgpParameters.frequencyVariances(x, m, d);
    double[] invEll = VssgpParameters.inverseLengthscales(x, m, d);
    int oe = VssgpParameters.offLogEll(m, d);
    double lam = Math.exp(x[oe + d]) / m;
    double sn2 = Math.exp(x[oe + d + 1]);
    double[] y = data.y();
    boolean keep = grad != null && (long) n * (5L * m + d) <= keepRows;
    Block[] kept = keep ? new Block[(n + BLOCK - 1) / BLOCK] : null;
    double[] psi = new double[k2 * k2];
    double[] b = new double[k2];
    double[] dvar = new double[3 * m];
    double yy = 0;
    for (int start = 0, blk = 0; start < n; start += BLOCK, blk++) {
      Block bl = block(data, start, m, muW, sW, invEll, dvar, psi);
      for (int t = 0; t < bl.cnt; t++) {
        double yi = y[start + t];
        yy += yi * yi;
        int bo = t * k2;
        for (int a = 0; a < k2; a++) {
          b[a] += yi * bl.phi[bo + a];
        }
      }
      SpectralBasis.addGram(bl.phi, bl.cnt, k2, psi);
      if (keep) {
        kept[blk] = bl;
      }
    }
    double[] amat = new double[k2 * k2];
    for (int t = 0; t < k2 * k2; t++) {
      amat[t] = psi[t] / sn2;
    }
    for (int a = 0; a < k2; a++) {
      amat[a * k2 + a] += 1 / lam;
    }
    Cholesky ca = Cholesky.factor(Matrix.wrap(k2, k2, amat), JitterPolicy.standard());
    double[] muA = ca.solve(b);
    for (int a = 0; a < k2; a++) {
      muA[a] /= sn2;
    }
    double[] e = ca.inverse().data(); // S_a, then E = S_a + μ_aμ_aᵀ
    double trS = 0;
    for (int a = 0; a < k2; a++) {
      trS += e[a * k2 + a];
      for (int c = 0; c < k2; c++) {
        e[a * k2 + c] += muA[a] * muA[c];
      }
    }
    double trPsiE = 0;
    for (int t = 0; t < k2 * k2; t++) {
      trPsiE += psi[t] * e[t];
    }
    double muMu = SpectralBasis.dot(muA, muA);
    double sumB = yy - 2 * SpectralBasis.dot(b, muA) + trPsiE;
    double ell = -0.5 * n * Math.log(2 * Math.PI * sn2) - sumB / (2 * sn2);
    double klW = 0;
    for (int t = 0; t < md; t++) {
      klW += 0.5 * (sW[t] + x[t] * x[t] - 1 - x[md + t]);
    }
    double klA = 0.5 * ((trS + muMu) / lam - k2 + k2 * Math.log(lam) + ca.logDet());
    double value = ell - klW - klA;
    if (grad == null) {
      return value;
    }
    double[] gMu = new double[md];
    double[] gV = new double[md];
    Matrix eMatrix = Matrix.wrap(k2, k2, e);
    double[] eb = diagonalBlocks(e, m);
    for (int start = 0, blk = 0; start < n; start += BLOCK, blk++) {
      Block bl = keep ? kept[blk] : block(data, start, m, muW, sW, invEll, dvar, null);
      double[] w = Matrix.wrap(bl.cnt, k2, bl.phi).mult(eMatrix).data(); // rows of φ̄ E
      double[] yb = Arrays.copyOfRange(y, bl.start, bl.start + bl.cnt);
      frequencyGradient(bl.cnt, bl.phi, bl.trig, bl.u, yb, m, d, eb, muA, w, gMu, gV);
    }
    double coef = -1 / (2 * sn2);
    for (int t = 0; t < md; t++) {
      grad[t] = coef * gMu[t] - x[t];
      grad[md + t] = sW[t] * coef * gV[t] - 0.5 * (sW[t] - 1);
    }
    for (int j = 0; j < d; j++) {
      double acc = 0;
      for (int k = 0; k < m; k++) {
        int t = k * d + j;
        acc += x[t] * gMu[t] + 2 * sW[t] * gV[t];
      }
      grad[oe + j] = -coef * acc;
    }
    grad[oe + d] = -0.5 * (k2 - (trS + muMu) / lam);
    grad[oe + d + 1] = -0.5 * n + sumB / (2 * sn2);
    return value;
  }

  /**
   * Rows [start, start + {@value #BLOCK}) ∩ [0, n): their expectations ({@link #expectations}); if psi is not null
   * each row's 2 × 2 covariance blocks Dᵢ are added into it (Ψ = Σ φ̄ᵢφ̄ᵢᵀ + Dᵢ).
   */
  private static Block block(
      RegressionData data,
      int start,
      int m,
      double[] muW,
      double[] sW,
      double[] invEll,
      double[] dvar,
      double[] psi) {
    int d = data.d();
    int k2 = 2 * m;
    int cnt = Math.min(BLOCK, data.n() - start);
    double[] x = data.x();
    Block bl =
        new Block(start, cnt, new double[cnt * k2], new double[cnt * 3 * m], new double[cnt * d]);
    double[] dsum =
        psi == null ? null : new double[3 * m]; // the block's Σ Dᵢ, (cc, ss, cs) per frequency
    for (int t = 0; t < cnt; t++) {
      expectations(
          x,
          (start + t) * d,
          d,
          m,
          muW,
          sW,
          invEll,
          bl.phi,
          t * k2,
          dvar,
          bl.trig,
          3 * m * t,
          bl.u,
          d * t);
      if (dsum != null) {
        for (int q = 0; q < 3 * m; q++) {
          dsum[q] += dvar[q];
        }
      }
    }
    if (psi != null) {
      for (int k = 0; k < m; k++) {
        int c = 2 * k;
        psi[c * k2 + c] += dsum[3 * k];
        psi[(c + 1) * k2 + c + 1] += dsum[3 * k + 1];
        psi[(c + 1) * k2 + c] += dsum[3 * k + 2];
        psi[c * k2 + c + 1] += dsum[3 * k + 2];
      }
    }
    return bl;
  }

  /** The 2 × 2 diagonal blocks of the 2m × 2m matrix e: (e_cc, e_ss, e_cs) per frequency. */
  private static double[] diagonalBlocks(double[] e, int m) {
    int k2 = 2 * m;
    double[] eb = new double[3 * m];
    for (int k = 0; k < m; k++) {
      int c = 2 * k;
      eb[3 * k] = e[c * k2 + c];
      eb[3 * k + 1] = e[(c + 1) * k2 + c + 1];
      eb[3 * k + 2] = e[c * k2 + c + 1];
    }
    return eb;
  }

  /**
   * Adds cnt rows' terms of gMu and gV ({@link #accumulate}'s formulas) from their expectations φ̄ (phi), trig and
   * u = x/ℓ ({@link #expectations}' layouts), targets yb, w = the rows of φ̄E and eb = {@link #diagonalBlocks} of E.
   */
  private static void frequencyGradient(
      int cnt,
      double[] phi,
      double[] trig,
      double[] u,
      double[] yb,
      int m,
      int d,
      double[] eb,
      double[] muA,
      double[] w,
      double[] gMu,
      double[] gV) {
    int k2 = 2 * m;
    for (int t = 0; t < cnt; t++) {
      double yi = yb[t];
      int bo = t * k2;
      int to = 3 * m * t;
      int uo = d * t;
      for (int k = 0; k < m; k++) {
        int c = 2 * k;
        double cb = phi[bo + c];
        double sb = phi[bo + c + 1];
        double ecc = eb[3 * k];
        double ess = eb[3 * k + 1];
        double ecs = eb[3 * k + 2];
        double dc = 2 * (w[bo + c] - yi * muA[c] - cb * ecc - sb * ecs);
        double ds = 2 * (w[bo + c + 1] - yi * muA[c + 1] - sb * ess - cb * ecs);
        double r4 = trig[to + 3 * k];
        double c2m = trig[to + 3 * k + 1];
        double s2m = trig[to + 3 * k + 2];
        double dm = -sb * dc + cb * ds + r4 * (s2m * (ess - ecc) + 2 * c2m * ecs);
        double dv = -0.5 * (cb * dc + sb * ds) + r4 * (c2m * (ess - ecc) - 2 * s2m * ecs);
        int ok = k * d;
        for (int j = 0; j < d; j++) {
          double uj = u[uo + j];
          gMu[ok + j] += dm * uj;
          gV[ok + j] += dv * uj * uj;
        }
      }
    }
  }

  /**
   * The bound (or its minibatch estimate over {@code rows}; null = all rows) at packed parameters p and, if
   * {@code grad} is not null, its gradient with respect to p (written into grad). The gradient of the data term
   * through q(a): ∂/∂μ_a = −c(Ψμ_a − b)/σₙ², ∂/∂S_a = −cΨ/(2σₙ²), i.e. ∂/∂L_a = −cΨL_a/σₙ² (c = n/|rows|,
   * Ψ = Σ Ψᵢ, b = Σ yᵢφ̄ᵢ); KL(q(a) ‖ N(0, λI)) = ½[(tr S_a + μ_aᵀμ_a)/λ − 2m + 2m log λ − log|S_a|] with
   * λ = σ²/m gives ∂/∂μ_a = μ_a/λ, ∂/∂L_pq = L_pq/λ − δ_pq/L_pp, ∂/∂log λ = ½[2m − (tr S_a + μ_aᵀμ_a)/λ];
   * KL(q(ω) ‖ N(0, I)) = ½ Σ (s + μ² − 1 − log s).
   */
  static Vssgp.Bound evaluate(RegressionData data, int[] rows, int m, double[] p, double[] grad) {
    int d = data.d();
    int k2 = 2 * m;
    int md = m * d;
    Ssgp.Hyperparameters h = VssgpParameters.unpackHyperparameters(p, m, d);
    double sn2 = h.noiseVariance();
    double lam = h.signalVariance() / m;
    int oa = VssgpParameters.offMuA(m, d);
    double[] muA = Arrays.copyOfRange(p, oa, oa + k2);
    double[] l = VssgpParameters.chol(p, m, d);
    double[] s = VssgpParameters.gram(l, k2);
    double[] e = s.clone();
    for (int a = 0; a < k2; a++) {
      for (int b = 0; b < k2; b++) {
        e[a * k2 + b] += muA[a] * muA[b];
      }
    }
    double[] gMu = grad == null ? null : new double[md];
    double[] gV = grad == null ? null : new double[md];
    Stats st = accumulate(data, rows, m, p, grad == null ? null : e, gMu, gV);
    double scale = (double) data.n() / st.rows;
    double trPsiE = 0;
    for (int t = 0; t < k2 * k2; t++) {
      trPsiE += st.psi[t] * e[t];
    }
    double sumB = st.yy - 2 * SpectralBasis.dot(st.b, muA) + trPsiE;
    double ell = scale * (-0.5 * st.rows * Math.log(2 * Math.PI * sn2) - sumB / (2 * sn2));
    double klW = 0;
    for (int t = 0; t < md; t++) {
      double sw = Math.exp(p[md + t]);
      klW += 0.5 * (sw + p[t] * p[t] - 1 - p[md + t]);
    }
    double trS = 0;
    double logDetS = 0;
    for (int a = 0; a < k2; a++) {
      trS += s[a * k2 + a];
      logDetS += 2 * Math.log(l[a * k2 + a]);
    }
    double muMu = SpectralBasis.dot(muA, muA);
    double klA = 0.5 * ((trS + muMu) / lam - k2 + k2 * Math.log(lam) - logDetS);
    Vssgp.Bound bound = new Vssgp.Bound(ell, klW, klA);
    if (grad == null) {
      return bound;
    }
    double coef = -scale / (2 * sn2);
    int oe = VssgpParameters.offLogEll(m, d);
    for (int t = 0; t < md; t++) {
      double sw = Math.exp(p[md + t]);
      grad[t] = coef * gMu[t] - p[t];
      grad[md + t] = sw * coef * gV[t] - 0.5 * (sw - 1);
    }
    for (int j = 0; j < d; j++) {
      double acc = 0;
      for (int k = 0; k < m; k++) {
        int t = k * d + j;
        acc += p[t] * gMu[t] + 2 * Math.exp(p[md + t]) * gV[t];
      }
      grad[oe + j] = -coef * acc;
    }
    grad[oe + d] = -0.5 * (k2 - (trS + muMu) / lam);
    grad[oe + d + 1] = scale * (-0.5 * st.rows + sumB / (2 * sn2));
    for (int a = 0; a < k2; a++) {
      double psiMu = 0;
      for (int b = 0; b < k2; b++) {
        psiMu += st.psi[a * k2 + b] * muA[b];
      }
      grad[oa + a] = 2 * coef * (psiMu - st.b[a]) - muA[a] / lam;
    }
    int oc = VssgpParameters.offChol(m, d);
    for (int a = 0; a < k2; a++) {
      for (int b = 0; b <= a; b++) {
        double psiL = 0; // (Ψ L)_ab = Σ_t Ψ_at L_tb, L_tb = 0 for t < b
        for (int t = b; t < k2; t++) {
          psiL += st.psi[a * k2 + t] * l[t * k2 + b];
        }
        double lab = l[a * k2 + b];
        double gab = 2 * coef * psiL - lab / lam + (a == b ? 1 / lab : 0);
        grad[oc + VssgpParameters.tri(a, b)] = a == b ? lab * gab : gab;
      }
    }
    return bound;
  }
}
