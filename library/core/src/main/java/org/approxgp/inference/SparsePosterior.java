package org.approxgp.inference;

import org.approxgp.data.RegressionData;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.Matrix;

/**
 * The result of {@link SparseSiteLoop}: q(f) = p(f | u) q(u) on M inducing inputs Z, written with Gaussian sites
 * on gₙ = E[fₙ | u], its Power-EP log evidence (Bui, Yan &amp; Turner 2017, §3), and the loop's diagnostics.
 * Immutable; holds O(nM + M²) numbers.
 *
 * <p>In the whitened coordinates v = L_uu⁻¹(u − m₀), q(v) = N(m, B⁻¹) ({@link SparseApproximation}); at an input x*
 * with a* = L_uu⁻¹ k_u(x*), the latent prediction is
 * <pre>
 * E[f*] = m₀ + a*ᵀm,  Var[f*] = k** − ‖a*‖² + ‖L_B⁻¹a*‖²
 * </pre>
 * (p(f* | u) has variance k** − k*ᵤK_uu⁻¹kᵤ*, q(u) adds its own), and at a training input the same with dₙ for
 * k** − ‖a*‖².
 */
public final class SparsePosterior implements FittedModel {
  private final SparseProblem sparse;
  private final Cholesky kuu;
  private final SparseApproximation approx;
  private final double[] d;
  private final double logEvidence;
  private final double[] gradient;
  private final double[][] inducingGradient;
  private final double power;
  private final Diagnostics diagnostics;

  SparsePosterior(
      SparseProblem sparse,
      Cholesky kuu,
      SparseApproximation approx,
      double[] d,
      double logEvidence,
      SparseGradient.Result gradient,
      double power,
      Diagnostics diagnostics) {
    this.sparse = sparse;
    this.kuu = kuu;
    this.approx = approx;
    this.d = d;
    this.logEvidence = logEvidence;
    this.gradient = gradient == null ? null : gradient.theta().clone();
    this.inducingGradient = gradient == null ? null : gradient.inducing();
    this.power = power;
    this.diagnostics = diagnostics;
  }

  public SparseProblem problem() {
    return sparse;
  }

  /** The sites on gₙ (usable as a warm start). */
  public Sites sites() {
    return Sites.of(approx.tau, approx.nu);
  }

  /** The power α of the sites (1 for EP and QP). */
  public double power() {
    return power;
  }

  /** E_q[fₙ] = E_q[gₙ] at the training inputs. */
  public double[] mean() {
    return approx.gMean.clone();
  }

  /** Var_q[fₙ] = dₙ + Var_q[gₙ] at the training inputs. */
  public double[] variance() {
    double[] v = new double[d.length];
    for (int i = 0; i < v.length; i++) {
      v[i] = d[i] + approx.gVariance[i];
    }
    return v;
  }

  /** The FITC conditional variances dₙ = kₙₙ − kₙᵤK_uu⁻¹kᵤₙ (clamped at 0). */
  public double[] conditionalVariance() {
    return d.clone();
  }

  /** E_q[u] (M values): m₀ + L_uu m. */
  public double[] inducingMean() {
    double[] u = kuu.lower().mult(approx.mean);
    for (int a = 0; a < u.length; a++) {
      u[a] += approx.priorMean;
    }
    return u;
  }

  /** Cov_q[u] = L_uu B⁻¹ L_uuᵀ (M × M). */
  public Matrix inducingCovariance() {
    Matrix l = kuu.lower();
    return l.mult(approx.b.inverse()).multTransB(l);
  }

  /**
   * The Power-EP approximation to log p(y | X, θ) at these inducing inputs (NaN only when the loop ran with the
   * evidence optional and it is undefined here).
   */
  public double logEvidence() {
    return logEvidence;
  }

  /** ∂ logEvidence / ∂θ in the kernel's log-hyperparameters (Z fixed), or null if not computed. */
  public double[] logEvidenceGradient() {
    return gradient == null ? null : gradient.clone();
  }

  /** ∂ logEvidence / ∂Z (M × d, a copy; θ fixed), or null if not computed. */
  public double[][] inducingGradient() {
    if (inducingGradient == null) {
      return null;
    }
    double[][] g = new double[inducingGradient.length][];
    for (int a = 0; a < g.length; a++) {
      g[a] = inducingGradient[a].clone();
    }
    return g;
  }

  public Diagnostics diagnostics() {
    return diagnostics;
  }

  /** Latent predictive mean and variance at test inputs (class comment). */
  public Prediction predict(double[][] xTest) {
    Problem p = sparse.problem();
    Matrix kus = p.kernel().cross(sparse.z(), xTest); // M × t
    double[] kss = p.kernel().diagonal(xTest);
    Matrix as = kuu.solveLower(kus);
    Matrix ws = approx.b.solveLower(as);
    return Prediction.whitened(approx.priorMean, approx.mean, as, ws, kss);
  }

  /** Mean and variance of y* under the likelihood's predictive distribution (for probit E[y*] = 2p − 1). */
  @Override
  public PredictiveMoments predictY(RegressionData test) {
    return predict(test.rows()).observed(sparse.problem().likelihood());
  }

  @Override
  public double[] logPredictiveDensity(RegressionData test) {
    FittedModel.requireTargets(test);
    return logPredictive(test.rows(), test.y());
  }

  /** log p(y*ⱼ | D) for observed test targets under the likelihood's predictive distribution. */
  public double[] logPredictive(double[][] xTest, double[] yTest) {
    return predict(xTest).logPredictive(sparse.problem().likelihood(), yTest);
  }

  @Override
  public String toString() {
    Problem p = sparse.problem();
    return "SparsePosterior[" + p.likelihood().name() + ", " + p.kernel().name() + ", n=" + p.size()
        + ", M=" + sparse.inducing() + ", log evidence " + logEvidence + ", " + diagnostics + "]";
  }
}
