package org.approxgp.sparse;

import org.approxgp.data.RegressionData;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.JitterPolicy;
import org.approxgp.linalg.Matrix;

/**
 * The PIC++ (PITC) bound restricted to sampled blocks and its gradient (Snelson &amp; Ghahramani 2007;
 * the stochastic form of {@link Pic}), shared by {@link Pic}'s trainer, its fit and the tests.
 */
final class PicBound {
  private PicBound() {}

  /** The value of an evaluation and the K_uu⁻¹ it used. */
  record Eval(double value, Matrix kinv) {}

  /**
   * What an evaluation reads beside θ and q(u): the training rows and their blocks, the blocks
   * {@code which[0 … count)} it sums over with the sum scaled by {@code scale}, the inducing inputs Z, whether the
   * kernel is ARD and the jitter on K_uu's diagonal.
   */
  record Sample(
      RegressionData train,
      RowBlocks blocks,
      int[] which,
      int count,
      double scale,
      RegressionData z,
      boolean ard,
      double jitter) {

    /** Every non-empty block, unscaled. */
    static Sample all(
        RegressionData train, RowBlocks blocks, RegressionData z, boolean ard, double jitter) {
      int[] nonEmpty = blocks.nonEmpty();
      return new Sample(train, blocks, nonEmpty, nonEmpty.length, 1.0, z, ard, jitter);
    }
  }

  /** {@link #evaluate(Sample, double[], double[], Matrix, double, Matrix, double[], double[])} at q(u) = q. */
  static Eval evaluate(
      Sample sample, double[] params, InducingPosterior q, Matrix lam, double[] t1, double[] grad) {
    return evaluate(sample, params, q.mean(), q.covariance(), q.logDetCovariance(), lam, t1, grad);
  }

  /**
   * F restricted to the sample's blocks, their sum scaled by its {@code scale}, minus KL, at θ = {@code params}
   * and q(u) = N(m, S) (log|S| = {@code logDetS}); optionally the natural-gradient sums Σ AΓ⁻¹Aᵀ into
   * {@code lam} and Σ AΓ⁻¹y into {@code t1} (unscaled), and ∂/∂params into {@code grad} (scaled). The KL part of
   * the gradient (as in {@link Dtc}): ∂(−KL)/∂K_uu = ½[K⁻¹SK⁻¹ + ννᵀ − K⁻¹].
   */
  static Eval evaluate(
      Sample sample,
      double[] params,
      double[] m,
      Matrix s,
      double logDetS,
      Matrix lam,
      double[] t1,
      double[] grad) {
    RegressionData train = sample.train();
    RegressionData z = sample.z();
    double scale = sample.scale();
    int d = train.d();
    int mM = z.n();
    SquaredExponential.Rows k = DtcBound.kernelOf(params, d, sample.ard());
    Cholesky kuu = InducingPosterior.kuu(k, z, sample.jitter());
    Matrix kinv = kuu.inverse();
    double noise = Math.exp(params[params.length - 1]);
    double[] nu = kuu.solve(m);
    Matrix kinvS = grad == null ? null : kinv.mult(s);
    double[] gK = grad == null ? null : new double[mM * mM];
    Matrix uSum = grad == null ? null : Matrix.zeros(mM, mM); // scale · Σ_k U_k, U_k = A_kΓ_k⁻¹A_kᵀ
    double sum = 0;
    for (int i = 0; i < sample.count(); i++) {
      PicBlock b =
          PicBlock.of(k, noise, z, kuu, train, sample.blocks().rows(sample.which()[i]));
      sum += b.expectedLogLik(m, s);
      if (lam != null) {
        b.addNatural(lam, t1);
      }
      if (grad != null) {
        b.gradient(k, z, noise, m, s, nu, kinvS, scale, gK, uSum, grad);
      }
    }
    double mt = 0;
    for (int a = 0; a < mM; a++) {
      mt += m[a] * nu[a];
    }
    double kl = 0.5 * (kinv.dot(s) + mt - mM + kuu.logDet() - logDetS);
    if (grad != null) {
      double[] kisk = kinvS.mult(kinv).data();
      double[] ki = kinv.data();
      // the blocks' ½(U S K⁻¹ + K⁻¹ S U) terms (PicBlock.gradient), linear in U: formed once from
      // Σ_k U_k
      double[] usk = uSum.mult(kinvS.transpose()).data();
      double[] ksu = kinvS.mult(uSum).data();
      for (int a = 0; a < mM; a++) {
        for (int c = 0; c < mM; c++) {
          int o = a * mM + c;
          gK[o] += 0.5 * (kisk[o] + nu[a] * nu[c] - ki[o]) + 0.5 * (usk[o] + ksu[o]);
        }
      }
      k.accumulateGradient(
          Matrix.wrap(mM, mM, gK), k.cross(z.x(), mM, z.x(), mM), z.x(), z.x(), grad);
    }
    return new Eval(scale * sum - kl, kinv);
  }

  /**
   * F on all training blocks at hyperparameters {@code params} and q(u) = N(m, S), with ∂F/∂params into
   * {@code grad} if non-null (m, S fixed) — for the gradient test.
   */
  static double objective(
      RegressionData train,
      int[] partition,
      RegressionData z,
      double[] params,
      boolean ard,
      double[] m,
      Matrix s,
      double[] grad) {
    RowBlocks blocks = RowBlocks.of(partition, RowBlocks.max(partition) + 1);
    double logDetS = Cholesky.factor(s.copy(), JitterPolicy.none()).logDet();
    return evaluate(Sample.all(train, blocks, z, ard, 0), params, m, s, logDetS, null, null, grad)
        .value();
  }
}
