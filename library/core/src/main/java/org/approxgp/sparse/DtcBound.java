package org.approxgp.sparse;

import java.util.Arrays;
import org.approxgp.data.RegressionData;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.JitterPolicy;
import org.approxgp.linalg.Matrix;

/**
 * The DTC++ (SVGP) bound and its gradient (Hensman, Fusi &amp; Lawrence 2013, eq. 4; Titsias 2009 for the optimal
 * q(u)), shared by {@link Dtc}'s trainer, {@link Dtc.Fit#elbo} and the gradient test.
 */
final class DtcBound {
  private DtcBound() {}

  /** (log ℓ…, log σ_f², log σ²) of a kernel and noise. */
  static double[] params(SquaredExponential kernel, double noiseVariance, int d) {
    kernel.checkDimension(d);
    double[] kp = kernel.logHyperparameters();
    double[] p = Arrays.copyOf(kp, kp.length + 1);
    p[kp.length] = Math.log(noiseVariance);
    return p;
  }

  static SquaredExponential.Rows kernelOf(double[] params, int d, boolean ard) {
    return new SquaredExponential.Rows(Arrays.copyOf(params, params.length - 1), d, ard);
  }

  /**
   * The optimal q(u) on all rows at hyperparameters {@code params} (Titsias 2009; the natural-gradient step with
   * ρ = 1 from any start): S⁻¹ = K_uu⁻¹ + σ⁻² Σᵢ aᵢaᵢᵀ, S⁻¹m = σ⁻² Σᵢ aᵢyᵢ, aᵢ = K_uu⁻¹k_u(xᵢ). Streams over rows.
   */
  static InducingPosterior optimalPosterior(
      RegressionData train, RegressionData z, double[] params, boolean ard) {
    return optimalPosterior(train, z, params, ard, 0);
  }

  /** As {@link #optimalPosterior(RegressionData, RegressionData, double[], boolean)} with K_uu + εI, ε = {@code
   * jitter}. */
  static InducingPosterior optimalPosterior(
      RegressionData train, RegressionData z, double[] params, boolean ard, double jitter) {
    int d = train.d();
    int mM = z.n();
    SquaredExponential.Rows k = kernelOf(params, d, ard);
    Cholesky kuu = InducingPosterior.kuu(k, z, jitter);
    double beta = Math.exp(-params[params.length - 1]);
    Matrix target = kuu.inverse();
    double[] td = target.data();
    double[] t1 = new double[mM];
    int n = train.n();
    for (int from = 0; from < n; from += Dtc.CHUNK) {
      int to = Math.min(n, from + Dtc.CHUNK);
      int b = to - from;
      double[] xb = Arrays.copyOfRange(train.x(), from * d, to * d);
      Matrix a = kuu.solve(k.cross(z.x(), mM, xb, b));
      double[] aat = a.multTransB(a).data();
      for (int i = 0; i < td.length; i++) {
        td[i] += beta * aat[i];
      }
      double[] ad = a.data();
      for (int p = 0; p < mM; p++) {
        double sy = 0;
        for (int i = 0; i < b; i++) {
          sy += ad[p * b + i] * train.y()[from + i];
        }
        t1[p] += beta * sy;
      }
    }
    InducingPosterior q = InducingPosterior.prior(kuu);
    q.step(target, t1, 1.0);
    return q;
  }

  /**
   * Most entries of K(Z, X) and L⁻¹K(Z, X) together (n·M each) the collapsed bound keeps between its two passes over
   * the data (128 MB at the most); past this the second pass computes them again.
   */
  static final long KEEP_CROSS = 1L << 24;

  /**
   * The collapsed bound L*(θ) = max_q L(θ, q) (Titsias 2009, eq. 9: log N(y | 0, σ²I + Q_nn) − tr(K_nn − Q_nn)/(2σ²),
   * Q_nn = K_nuK⁻¹K_un, K = K_uu + εI) and, if {@code grad} is not null, ∂L* / ∂θ into it: the value and gradient of
   * {@link #objective} at {@link #optimalPosterior} (the SVGP bound at its optimal q(u) is Titsias' bound), at less
   * than half the work (one kernel matrix and ~2.5 n·M² multiply-adds per evaluation instead of two kernel matrices
   * and ~6 n·M²; every other product is M × M). With β = σ⁻², K = LLᵀ, A = L⁻¹K_uf, W = AAᵀ, B = I + βW = L_BL_Bᵀ
   * and e = L_B⁻¹Ay (matrix inversion and determinant lemmas, as in GPflow's SGPR):
   * L* = −(n/2) log 2πσ² − ½ log|B| − (β/2) yᵀy + (β²/2) eᵀe − (β/2)(n σ_f² − tr W).
   * Derivatives (from L* as a function of P = K_ufK_fu, v = K_uf y and K, then rewritten through L so that no two
   * large matrices are subtracted): with ŵ = L_B⁻ᵀe, X = (β/2)(I − B⁻¹) − (β³/2)ŵŵᵀ and
   * Y = ½(I − B⁻¹) − (β/2)W − (β²/2)ŵŵᵀ, ∂L* / ∂K_uf = 2L⁻ᵀXA + β²(L⁻ᵀŵ)yᵀ, ∂L* / ∂K = L⁻ᵀYL⁻¹, and
   * ∂L* / ∂β = n/(2β) − tr(I − B⁻¹)/(2β) − ½yᵀy + β eᵀe − (β²/2) ŵᵀWŵ − ½(n σ_f² − tr W); each contracted with
   * ∂K/∂θ. (A first form through P = K_ufK_fu and K⁻¹ directly squared K's condition number: its value was noisy at
   * 1e-5 nats on 2,000 rows of diamonds at M = 420, and L-BFGS stopped there by the relative-decrease test.) Two passes
   * over the rows in chunks (the second only for the gradient); K(Z, x) and A are kept between them while 2n·M &le;
   * {@link #KEEP_CROSS}.
   *
   * @throws org.approxgp.linalg.NotPositiveDefiniteException if K or B cannot be factored
   */
  static double collapsed(
      RegressionData train,
      RegressionData z,
      double[] params,
      boolean ard,
      double jitter,
      double[] grad) {
    return collapsed(train, z, params, ard, jitter, grad, KEEP_CROSS);
  }

  /**
   * As {@link #collapsed(RegressionData, RegressionData, double[], boolean, double, double[])}, keeping K(Z, x) and A
   * while 2n·M &le; {@code keep}.
   */
  static double collapsed(
      RegressionData train,
      RegressionData z,
      double[] params,
      boolean ard,
      double jitter,
      double[] grad,
      long keep) {
    int d = train.d();
    int mM = z.n();
    int n = train.n();
    SquaredExponential.Rows k = kernelOf(params, d, ard);
    Cholesky kuu = InducingPosterior.kuu(k, z, jitter);
    double beta = Math.exp(-params[params.length - 1]);
    double sf2 = k.signalVariance();
    int chunks = (n + Dtc.CHUNK - 1) / Dtc.CHUNK;
    boolean kept = 2L * n * mM <= keep;
    Matrix[] kzx = kept ? new Matrix[chunks] : null;
    Matrix[] as = kept ? new Matrix[chunks] : null;
    Matrix wm = Matrix.zeros(mM, mM);
    double[] ay = new double[mM];
    double yy = 0;
    for (int c = 0; c < chunks; c++) {
      int from = c * Dtc.CHUNK;
      int to = Math.min(n, from + Dtc.CHUNK);
      Matrix u = k.cross(
          z.x(), mM, Arrays.copyOfRange(train.x(), from * d, to * d), to - from); // K(Z, x_c)
      Matrix a = kuu.solveLower(u); // A_c = L⁻¹K(Z, x_c)
      SpectralBasis.addGram(a.transpose().data(), to - from, mM, wm.data()); // W += A_cA_cᵀ
      double[] yc = Arrays.copyOfRange(train.y(), from, to);
      double[] acy = a.mult(yc);
      for (int i = 0; i < mM; i++) {
        ay[i] += acy[i];
      }
      for (double yi : yc) {
        yy += yi * yi;
      }
      if (kept) {
        kzx[c] = u;
        as[c] = a;
      }
    }
    wm.symmetrize();
    Matrix b = wm.copy();
    b.scale(beta);
    b.addDiagonal(1);
    Cholesky cb = Cholesky.factor(b, JitterPolicy.none());
    double[] e = cb.solveLower(ay);
    double ee = SpectralBasis.dot(e, e);
    double trW = 0;
    for (int i = 0; i < mM; i++) {
      trW += wm.get(i, i);
    }
    double value = -0.5 * n * Math.log(2 * Math.PI / beta)
        - 0.5 * cb.logDet()
        - 0.5 * beta * yy
        + 0.5 * beta * beta * ee
        - 0.5 * beta * (n * sf2 - trW);
    if (grad == null) {
      return value;
    }
    double[] binv = cb.inverse().data();
    double[] wh = cb.solveUpper(e); // ŵ = L_B⁻ᵀe
    double[] w = kuu.solveUpper(wh); // L⁻ᵀŵ = Σ⁻¹K_uf y
    double[] wd = wm.data();
    double[] x = new double[mM * mM];
    double[] y = new double[mM * mM];
    double b3 = beta * beta * beta;
    double b2 = beta * beta;
    double trIminusBinv = 0;
    for (int i = 0; i < mM; i++) {
      for (int j = 0; j < mM; j++) {
        int o = i * mM + j;
        double ib = (i == j ? 1 : 0) - binv[o]; // (I − B⁻¹)_ij
        double ww = wh[i] * wh[j];
        x[o] = 0.5 * beta * ib - 0.5 * b3 * ww;
        y[o] = 0.5 * ib - 0.5 * beta * wd[o] - 0.5 * b2 * ww;
      }
      trIminusBinv += 1 - binv[i * mM + i];
    }
    Matrix cx = kuu.solveUpper(Matrix.wrap(mM, mM, x)); // L⁻ᵀX
    int nk = params.length - 1;
    double[] gk = new double[nk];
    for (int c = 0; c < chunks; c++) {
      int from = c * Dtc.CHUNK;
      int to = Math.min(n, from + Dtc.CHUNK);
      int cnt = to - from;
      double[] xc = Arrays.copyOfRange(train.x(), from * d, to * d);
      Matrix u = kept ? kzx[c] : k.cross(z.x(), mM, xc, cnt);
      Matrix a = kept ? as[c] : kuu.solveLower(u);
      double[] g = cx.mult(a).data(); // ∂L* / ∂K(Z, x_c) = 2L⁻ᵀXA_c + β² w y_cᵀ
      for (int i = 0; i < mM; i++) {
        for (int t = 0; t < cnt; t++) {
          g[i * cnt + t] = 2 * g[i * cnt + t] + b2 * w[i] * train.y()[from + t];
        }
      }
      k.accumulateGradient(Matrix.wrap(mM, cnt, g), u, z.x(), xc, gk);
    }
    Matrix gkuu = kuu.solveUpper(kuu.solveUpper(Matrix.wrap(mM, mM, y)).transpose()); // L⁻ᵀYL⁻¹
    Matrix kzz = k.cross(z.x(), mM, z.x(), mM);
    k.accumulateGradient(gkuu, kzz, z.x(), z.x(), gk);
    System.arraycopy(gk, 0, grad, 0, nk);
    grad[nk - 1] += -0.5 * beta * n * sf2; // the trace term's n σ_f²
    double whWwh = wm.bilinear(wh, wh);
    double dBeta = 0.5 * n / beta
        - 0.5 * trIminusBinv / beta
        - 0.5 * yy
        + beta * ee
        - 0.5 * b2 * whWwh
        - 0.5 * (n * sf2 - trW);
    grad[nk] = -beta * dBeta; // ∂/∂log σ² = −β ∂/∂β
    return value;
  }

  static void requireDim(RegressionData rows, int d) {
    if (rows.d() != d) {
      throw new IllegalArgumentException("rows have " + rows.d() + " inputs, expected " + d);
    }
  }

  /**
   * The bound L (full data, scale 1) at hyperparameters {@code params} and q(u) = N(m, S); if {@code grad} is
   * non-null, ∂L/∂params (m, S held fixed) is written into it. Streams over rows in chunks.
   */
  static double objective(
      RegressionData train,
      RegressionData z,
      double[] params,
      boolean ard,
      double[] m,
      Matrix s,
      double[] grad) {
    return objective(train, z, params, ard, m, s, grad, 0);
  }

  /** As {@link #objective(RegressionData, RegressionData, double[], boolean, double[], Matrix, double[])} with
   * K_uu + εI, ε = {@code jitter}. */
  static double objective(
      RegressionData train,
      RegressionData z,
      double[] params,
      boolean ard,
      double[] m,
      Matrix s,
      double[] grad,
      double jitter) {
    int d = train.d();
    SquaredExponential.Rows k = kernelOf(params, d, ard);
    Cholesky kuu = InducingPosterior.kuu(k, z, jitter);
    Matrix kinv = kuu.inverse();
    Terms terms = new Terms(z.n(), params.length);
    int n = train.n();
    for (int from = 0; from < n; from += Dtc.CHUNK) {
      int to = Math.min(n, from + Dtc.CHUNK);
      double[] xb = Arrays.copyOfRange(train.x(), from * d, to * d);
      double[] yb = Arrays.copyOfRange(train.y(), from, to);
      accumulate(k, params, z, kuu, kinv, m, s, xb, yb, to - from, terms);
    }
    return finishWith(k, params, z, kuu, kinv, m, s, null, 1.0, terms, grad);
  }

  /** Sums over rows that the bound and its gradient need (unscaled). */
  static final class Terms {
    final Matrix aat; // Σ A Aᵀ
    final double[] ar; // Σ A r
    final double[] ay; // Σ A y
    double quad; // Σ (rᵢ² + k̃ᵢᵢ + aᵢᵀSaᵢ)
    int rows;
    final double[]
        gradUb; // Σ_ab G_ub,ab ∂K_ub,ab/∂θ_kernel without the factor σ⁻², per kernel parameter

    Terms(int mM, int np) {
      aat = Matrix.zeros(mM, mM);
      ar = new double[mM];
      ay = new double[mM];
      gradUb = new double[np - 1];
    }
  }

  /**
   * Adds one block of rows (xb, yb; b rows) to {@code terms}. With A = K_uu⁻¹K_uB, r = y − Aᵀm, ν = K_uu⁻¹m,
   * the data part of L is D = −½ Σᵢ[log 2πσ² + σ⁻²(rᵢ² + k̃ᵢᵢ + aᵢᵀSaᵢ)], and (K_uB entries independent)
   * ∂D/∂K_uB = σ⁻²(ν rᵀ + A − K_uu⁻¹ S A); that matrix is contracted here with ∂K_uB/∂θ.
   */
  static void accumulate(
      SquaredExponential.Rows k,
      double[] params,
      RegressionData z,
      Cholesky kuu,
      Matrix kinv,
      double[] m,
      Matrix s,
      double[] xb,
      double[] yb,
      int b,
      Terms t) {
    int mM = z.n();
    Matrix kub = k.cross(z.x(), mM, xb, b);
    Matrix a = kuu.solve(kub);
    Matrix sa = s.mult(a);
    double[] nu = kuu.solve(m);
    double[] ad = a.data();
    double[] kd = kub.data();
    double[] sd = sa.data();
    double[] r = new double[b];
    double sf2 = k.signalVariance();
    for (int i = 0; i < b; i++) {
      double mu = 0;
      double qii = 0;
      double c = 0;
      for (int p = 0; p < mM; p++) {
        double av = ad[p * b + i];
        mu += av * m[p];
        qii += kd[p * b + i] * av;
        c += av * sd[p * b + i];
      }
      r[i] = yb[i] - mu;
      t.quad += r[i] * r[i] + (sf2 - qii) + c;
    }
    t.rows += b;
    // Σ A Aᵀ, Σ A r, Σ A y
    Matrix aat = a.multTransB(a);
    double[] tad = t.aat.data();
    double[] nad = aat.data();
    for (int i = 0; i < tad.length; i++) {
      tad[i] += nad[i];
    }
    for (int p = 0; p < mM; p++) {
      double sr = 0;
      double sy = 0;
      for (int i = 0; i < b; i++) {
        sr += ad[p * b + i] * r[i];
        sy += ad[p * b + i] * yb[i];
      }
      t.ar[p] += sr;
      t.ay[p] += sy;
    }
    // G_ub / σ⁻² = ν rᵀ + A − K⁻¹ S A
    Matrix kisa = kinv.mult(sa);
    double[] gd = new double[mM * b];
    double[] kisad = kisa.data();
    for (int p = 0; p < mM; p++) {
      for (int i = 0; i < b; i++) {
        int o = p * b + i;
        gd[o] = nu[p] * r[i] + ad[o] - kisad[o];
      }
    }
    k.accumulateGradient(Matrix.wrap(mM, b, gd), kub, z.x(), xb, t.gradUb);
  }

  static double finish(
      SquaredExponential.Rows k,
      double[] params,
      RegressionData z,
      Cholesky kuu,
      Matrix kinv,
      InducingPosterior q,
      double scale,
      Terms t,
      double[] grad) {
    double[] m = q.mean();
    Matrix s = q.covariance();
    return finishWith(k, params, z, kuu, kinv, m, s, q, scale, t, grad);
  }

  /**
   * L = scale · D − KL and, if asked, ∂L/∂θ. With β = σ⁻², s = scale, ν = K⁻¹m:
   * <ul>
   *   <li>∂L/∂log σ² = s Σᵢ[−½ + ½β(rᵢ² + k̃ᵢᵢ + aᵢᵀSaᵢ)];</li>
   *   <li>∂L/∂K_uB = sβ(ν rᵀ + A − K⁻¹SA) (accumulated), ∂L/∂kᵢᵢ = −½sβ;</li>
   *   <li>∂L/∂K_uu = sβ[−(A r)νᵀ − ½AAᵀ + ½(AAᵀSK⁻¹ + K⁻¹SAAᵀ)] + ½[K⁻¹SK⁻¹ + ννᵀ − K⁻¹] (the last bracket
   *       from −KL), contracted with ∂K_uu/∂θ.</li>
   * </ul>
   */
  static double finishWith(
      SquaredExponential.Rows k,
      double[] params,
      RegressionData z,
      Cholesky kuu,
      Matrix kinv,
      double[] m,
      Matrix s,
      InducingPosterior q,
      double scale,
      Terms t,
      double[] grad) {
    int mM = z.n();
    double noise = Math.exp(params[params.length - 1]);
    double beta = 1 / noise;
    double data = scale * (-0.5 * t.rows * Math.log(2 * Math.PI * noise) - 0.5 * beta * t.quad);
    double logDetS;
    if (q != null) {
      logDetS = q.logDetCovariance();
    } else {
      logDetS = Cholesky.factor(s.copy(), JitterPolicy.none()).logDet();
    }
    double[] nu = kuu.solve(m);
    double mt = 0;
    for (int p = 0; p < mM; p++) {
      mt += m[p] * nu[p];
    }
    double kl = 0.5 * (kinv.dot(s) + mt - mM + kuu.logDet() - logDetS);
    double value = data - kl;
    if (grad != null) {
      int nk = params.length - 1;
      double sf2 = k.signalVariance();
      for (int j = 0; j < nk; j++) {
        grad[j] = scale * beta * t.gradUb[j];
      }
      grad[nk - 1] += -0.5 * scale * beta * t.rows * sf2; // k_ii = σ_f², ∂k_ii/∂log σ_f² = σ_f²
      grad[nk] = scale * (-0.5 * t.rows + 0.5 * beta * t.quad);
      Matrix kis = kinv.mult(s); // K⁻¹S
      Matrix aatSki = t.aat.mult(kis.transpose()); // AAᵀ S K⁻¹
      Matrix kisAat = kis.mult(t.aat); // K⁻¹ S AAᵀ
      Matrix kisk = kis.mult(kinv); // K⁻¹ S K⁻¹
      double[] g = new double[mM * mM];
      double[] aat = t.aat.data();
      double[] x1 = aatSki.data();
      double[] x2 = kisAat.data();
      double[] x3 = kisk.data();
      double[] ki = kinv.data();
      double sb = scale * beta;
      for (int p = 0; p < mM; p++) {
        for (int c = 0; c < mM; c++) {
          int o = p * mM + c;
          g[o] = sb * (-t.ar[p] * nu[c] - 0.5 * aat[o] + 0.5 * (x1[o] + x2[o]))
              + 0.5 * (x3[o] + nu[p] * nu[c] - ki[o]);
        }
      }
      Matrix kzz = k.cross(z.x(), mM, z.x(), mM);
      k.accumulateGradient(Matrix.wrap(mM, mM, g), kzz, z.x(), z.x(), grad);
    }
    return value;
  }
}
