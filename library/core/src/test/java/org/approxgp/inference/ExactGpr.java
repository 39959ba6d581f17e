package org.approxgp.inference;

import org.approxgp.kernel.Kernel;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.Matrix;

/**
 * Exact GP regression with a constant prior mean, the reference every consistency test compares an
 * approximate method with a Gaussian likelihood against (R&amp;W Alg. 2.1 with m₀ ≠ 0), computed
 * independently of the inference code from one Cholesky of K + σ²I:
 * <pre>
 *   mean = m₀ + K (K + σ²I)⁻¹ (y − m₀),   cov = K − K (K + σ²I)⁻¹ K,
 *   predictive mean m₀ + K*ᵀ (K + σ²I)⁻¹ (y − m₀), variance k** − K*ᵀ (K + σ²I)⁻¹ K*,
 *   log N(y | m₀, K + σ²I) = −½ rᵀ(K + σ²I)⁻¹r − ½ log|K + σ²I| − (n/2) log 2π
 * </pre>
 * The one exact-GP oracle of the tests (the consistency, contract, QP and sparse-regression tests use it).
 *
 * @param mean posterior mean at the training inputs
 * @param variance posterior marginal variances at the training inputs
 * @param predMean predictive latent means at the test inputs
 * @param predVar predictive latent variances at the test inputs
 * @param logEvidence log p(y | X, θ)
 */
public record ExactGpr(
    double[] mean, double[] variance, double[] predMean, double[] predVar, double logEvidence) {

  /** Exact GPR for kernel {@code kern}, noise variance {@code noise} and prior mean {@code m0}, tested at xs. */
  public static ExactGpr of(
      Kernel kern, double[][] x, double[] y, double noise, double m0, double[][] xs) {
    int n = y.length;
    Matrix k = kern.matrix(x);
    Matrix ky = k.copy();
    ky.addDiagonal(noise);
    Cholesky l = Cholesky.factor(ky);
    double[] r = new double[n];
    for (int i = 0; i < n; i++) {
      r[i] = y[i] - m0;
    }
    double[] a = l.solve(r);
    double[] mean = k.mult(a);
    for (int i = 0; i < n; i++) {
      mean[i] += m0;
    }
    // Σ = K − VᵀV with V = L⁻¹K
    Matrix v = l.solveLower(k);
    double[] var = new double[n];
    for (int i = 0; i < n; i++) {
      double s = k.get(i, i);
      for (int q = 0; q < n; q++) {
        s -= v.get(q, i) * v.get(q, i);
      }
      var[i] = s;
    }
    Matrix ks = kern.cross(x, xs);
    double[] pm = ks.multTransA(a);
    double[] kss = kern.diagonal(xs);
    Matrix vs = l.solveLower(ks);
    double[] pv = new double[xs.length];
    for (int j = 0; j < xs.length; j++) {
      pm[j] += m0;
      double s = kss[j];
      for (int q = 0; q < n; q++) {
        s -= vs.get(q, j) * vs.get(q, j);
      }
      pv[j] = s;
    }
    double quad = 0;
    for (int i = 0; i < n; i++) {
      quad += r[i] * a[i];
    }
    double lz = -0.5 * quad - 0.5 * l.logDet() - 0.5 * n * Math.log(2 * Math.PI);
    return new ExactGpr(mean, var, pm, pv, lz);
  }

  /** Exact GPR with the training inputs as test inputs (the predictive latent equals the posterior there). */
  public static ExactGpr of(Kernel kern, double[][] x, double[] y, double noise, double m0) {
    return of(kern, x, y, noise, m0, x);
  }
}
