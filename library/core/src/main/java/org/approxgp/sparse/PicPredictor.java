package org.approxgp.sparse;

import java.util.Arrays;
import org.approxgp.data.RegressionData;
import org.approxgp.inference.PredictiveMoments;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.Matrix;

/**
 * PIC's predictive at a fixed test set with the q(u)-free parts precomputed (RVGP's {@code PrecomputedData}):
 * μ* = M m + H y_k, σ*² = v₀ + (M S Mᵀ)** with v₀ = k** − Q** − H J_k* + σ². Valid for every q(u) of fits
 * that share the kernel, noise, inducing inputs and training partition of the fit it was built from.
 */
public final class PicPredictor {
  private final Pic.Fit source;
  private final int mM;
  private final double[] rowsM; // n_t × M, row-major
  private final double[] offset; // H y_k
  private final double[] base; // v₀

  PicPredictor(Pic.Fit fit, RegressionData test, int[] testPartition) {
    this.source = fit;
    this.mM = fit.inducing().n();
    int nt = test.n();
    rowsM = new double[nt * mM];
    offset = new double[nt];
    base = new double[nt];
    forEachBlock(fit, test, testPartition, (rows, prep) -> {
      int c = rows.length;
      for (int t = 0; t < c; t++) {
        int row = rows[t];
        for (int a = 0; a < mM; a++) {
          rowsM[row * mM + a] = prep.mt[a * c + t];
        }
        offset[row] = prep.offset[t];
        base[row] = prep.base[t];
      }
    });
  }

  /** Predictions at q(u) of {@code fit}, which must share the kernel, noise, Z and training data. */
  public PredictiveMoments predict(Pic.Fit fit) {
    if (!Arrays.equals(fit.kernel().logHyperparameters(), source.kernel().logHyperparameters())
        || fit.kernel().isArd() != source.kernel().isArd()
        || fit.noiseVariance() != source.noiseVariance()
        || fit.inducing() != source.inducing()
        || fit.train() != source.train()) {
      throw new IllegalArgumentException(
          "this predictor was built for another kernel, noise, Z or training set");
    }
    int nt = offset.length;
    double[] mu = new double[nt];
    double[] var = new double[nt];
    double[] m = fit.mean();
    double[] s = fit.covariance().data();
    double[] sm = new double[mM];
    for (int t = 0; t < nt; t++) {
      int o = t * mM;
      double mean = offset[t];
      for (int a = 0; a < mM; a++) {
        mean += rowsM[o + a] * m[a];
      }
      // (M S Mᵀ)_tt = Σ_a M_ta (S M_tᵀ)_a
      double v = 0;
      for (int a = 0; a < mM; a++) {
        double acc = 0;
        int sa = a * mM;
        for (int b = 0; b < mM; b++) {
          acc += s[sa + b] * rowsM[o + b];
        }
        sm[a] = acc;
        v += rowsM[o + a] * acc;
      }
      mu[t] = mean;
      var[t] = base[t] + v;
    }
    return new PredictiveMoments(mu, var);
  }

  /** One test partition's q-free quantities: Mᵀ (M × n_t, column per test row), H y_k, v₀. */
  record Prepared(double[] mt, double[] offset, double[] base) {
    void apply(double[] m, Matrix s, int[] rows, double[] mu, double[] var) {
      int c = rows.length;
      int mM = m.length;
      Matrix smt = s.mult(Matrix.wrap(mM, c, mt));
      double[] sd = smt.data();
      for (int t = 0; t < c; t++) {
        double mean = offset[t];
        double v = 0;
        for (int a = 0; a < mM; a++) {
          mean += mt[a * c + t] * m[a];
          v += mt[a * c + t] * sd[a * c + t];
        }
        mu[rows[t]] = mean;
        var[rows[t]] = base[t] + v;
      }
    }
  }

  interface BlockSink {
    void accept(int[] rows, Prepared prep);
  }

  /** Calls {@code sink} for every test partition with its rows and prepared quantities. */
  static void forEachBlock(Pic.Fit fit, RegressionData test, int[] testPartition, BlockSink sink) {
    RegressionData train = fit.train();
    int d = train.d();
    DtcBound.requireDim(test, d);
    if (testPartition.length != test.n()) {
      throw new IllegalArgumentException(
          testPartition.length + " labels for " + test.n() + " test rows");
    }
    SquaredExponential.Rows k = fit.kernel().rows(d);
    Cholesky kuu = InducingPosterior.kuu(k, fit.inducing(), fit.inducingJitter());
    RowBlocks blocks = fit.blocks();
    RowBlocks testBlocks =
        RowBlocks.of(testPartition, Math.max(blocks.count(), RowBlocks.max(testPartition) + 1));
    for (int c = 0; c < testBlocks.count(); c++) {
      int[] rows = testBlocks.rows(c);
      if (rows.length == 0) {
        continue;
      }
      double[] xt = test.gatherX(rows, 0, rows.length);
      PicBlock local = c < blocks.count() && blocks.size(c) > 0
          ? PicBlock.of(k, fit.noiseVariance(), fit.inducing(), kuu, train, blocks.rows(c))
          : null;
      sink.accept(
          rows, prepare(k, kuu, fit.inducing(), fit.noiseVariance(), local, xt, rows.length));
    }
  }

  /**
   * With A_* = K_uu⁻¹K_u* (columns P_*ᵀ), J_*k = K_*k − Q_*k and Hᵀ = Γ_k⁻¹ J_k*: Mᵀ = A_* − A_k Hᵀ,
   * offset = H y_k, v₀ = k** − Q** − (H J_k*)** + σ² (no local block: H = 0).
   */
  private static Prepared prepare(
      SquaredExponential.Rows k,
      Cholesky kuu,
      RegressionData z,
      double noise,
      PicBlock local,
      double[] xt,
      int nt) {
    int mM = z.n();
    Matrix kut = k.cross(z.x(), mM, xt, nt);
    Matrix at = kuu.solve(kut);
    double[] mt = at.data().clone();
    double[] off = new double[nt];
    double[] hj = new double[nt];
    if (local != null) {
      int nb = local.size;
      Matrix jtb = k.cross(xt, nt, local.x, nb);
      double[] jd = jtb.data();
      double[] qd = kut.multTransA(local.a).data(); // Q_*k = K_*u K⁻¹ K_uk
      for (int i = 0; i < jd.length; i++) {
        jd[i] -= qd[i];
      }
      Matrix ht = local.gamma.solve(jtb.transpose()); // n_b × n_t
      double[] htd = ht.data();
      double[] pd = local.a.mult(ht).data(); // A_k Hᵀ
      for (int i = 0; i < mt.length; i++) {
        mt[i] -= pd[i];
      }
      for (int t = 0; t < nt; t++) {
        double o = 0;
        double dj = 0;
        for (int j = 0; j < nb; j++) {
          o += htd[j * nt + t] * local.y[j];
          dj += htd[j * nt + t] * jd[t * nb + j];
        }
        off[t] = o;
        hj[t] = dj;
      }
    }
    double[] kd = kut.data();
    double[] ad = at.data();
    double[] base = new double[nt];
    for (int t = 0; t < nt; t++) {
      double q = 0;
      for (int a = 0; a < mM; a++) {
        q += kd[a * nt + t] * ad[a * nt + t];
      }
      base[t] = Math.max(k.signalVariance() - q - hj[t], 0) + noise;
    }
    return new Prepared(mt, off, base);
  }
}
