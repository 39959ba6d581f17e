package org.approxgp.sparse;

import java.util.SplittableRandom;
import org.approxgp.data.RegressionData;
import org.approxgp.inference.ExactGpr;
import org.approxgp.inference.PredictiveMoments;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.Matrix;

/**
 * Dense reference computations for small problems (tests only): exact GP regression (through {@link ExactGpr},
 * the one exact-GP oracle of the tests) and the sparse approximations written as exact GPs with a modified prior
 * covariance (Quiñonero-Candela &amp; Rasmussen 2005): Q_ab = K_au K_uu⁻¹ K_ub; DTC/Titsias use Q, FITC Q + diag(K − Q), PITC Q + blkdiag(K − Q).
 */
final class DenseGp {
  private DenseGp() {}

  /** Rows as double[][] for the kernel API. */
  static double[][] rows(RegressionData data) {
    double[][] r = new double[data.n()][];
    for (int i = 0; i < data.n(); i++) {
      r[i] = data.row(i);
    }
    return r;
  }

  /** A smooth 2-input test function with Gaussian noise; inputs uniform on [−3, 3]². */
  static RegressionData synthetic(int n, double noiseSd, long seed) {
    SplittableRandom rng = new SplittableRandom(seed);
    double[][] x = new double[n][2];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      x[i][0] = rng.nextDouble(-3, 3);
      x[i][1] = rng.nextDouble(-3, 3);
      y[i] = Math.sin(1.3 * x[i][0]) + 0.5 * Math.cos(0.9 * x[i][1]) + noiseSd * rng.nextGaussian();
    }
    return RegressionData.of(x, y);
  }

  /** Q(a, b) = K(a, Z) K(Z, Z)⁻¹ K(Z, b). */
  static Matrix nystrom(SquaredExponential k, double[][] a, double[][] z, double[][] b) {
    Cholesky kuu = Cholesky.factor(k.matrix(z));
    Matrix kza = k.cross(z, a);
    Matrix kzb = k.cross(z, b);
    return kza.multTransA(kuu.solve(kzb));
  }

  /** log N(y | 0, C). */
  static double logNormal(double[] y, Matrix c) {
    Cholesky l = Cholesky.factor(c);
    return -0.5 * (y.length * Math.log(2 * Math.PI) + l.logDet() + l.quadForm(y));
  }

  /** Exact GP log marginal likelihood log N(y | 0, K + σ²I) (R&amp;W eq. 2.30), by the one exact-GP oracle. */
  static double exactLogMarginal(SquaredExponential k, double noise, RegressionData train) {
    return ExactGpr.of(k, rows(train), train.y(), noise, 0).logEvidence();
  }

  /**
   * Predictive of y* for a GP whose training covariance is {@code cov} (noise included) and whose
   * cross-covariance test × train is {@code cross}: mean c C⁻¹y, variance k** − c C⁻¹cᵀ + σ².
   */
  static PredictiveMoments predictive(
      Matrix cov, Matrix cross, double[] y, double prior, double noise) {
    Cholesky l = Cholesky.factor(cov);
    double[] alpha = l.solve(y);
    int nt = cross.rows();
    double[] mu = cross.mult(alpha);
    double[] var = new double[nt];
    for (int t = 0; t < nt; t++) {
      double[] c = cross.row(t);
      var[t] = prior - l.quadForm(c) + noise;
    }
    return new PredictiveMoments(mu, var);
  }

  /** Exact GP predictive of y* (R&amp;W eq. 2.25–2.26 plus σ²), by the one exact-GP oracle ({@link ExactGpr}). */
  static PredictiveMoments exactPredictive(
      SquaredExponential k, double noise, RegressionData train, RegressionData test) {
    ExactGpr e = ExactGpr.of(k, rows(train), train.y(), noise, 0, rows(test));
    double[] var = e.predVar().clone();
    for (int j = 0; j < var.length; j++) {
      var[j] += noise;
    }
    return new PredictiveMoments(e.predMean(), var);
  }

  static double maxAbsDiff(double[] a, double[] b) {
    double m = 0;
    for (int i = 0; i < a.length; i++) {
      m = Math.max(m, Math.abs(a[i] - b[i]));
    }
    return m;
  }
}
