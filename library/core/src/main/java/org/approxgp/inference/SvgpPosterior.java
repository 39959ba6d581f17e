package org.approxgp.inference;

import org.approxgp.data.RegressionData;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.Matrix;

/**
 * A fitted SVGP classifier ({@link Svgp}; Hensman, Matthews &amp; Ghahramani, AISTATS 2015): q(u) on M inducing
 * inputs Z in whitened coordinates v = L⁻¹(u − m₀) (K_uu = L Lᵀ), q(v) = N(m, CCᵀ), the bound it reached and the
 * optimiser's diagnostics. Immutable; holds O(M² + Md) numbers. At an input x* with a* = L⁻¹ k_u(x*),
 * <pre>
 * E[f*] = m₀ + a*ᵀm,   Var[f*] = k** − ‖a*‖² + ‖Cᵀa*‖²
 * </pre>
 * (Hensman et al. eq. 4 at a test input), and y* is predicted through the likelihood ({@link Prediction#observed},
 * {@link Prediction#logPredictive}), as every latent GP is.
 */
public final class SvgpPosterior implements FittedModel {
  private final SparseProblem sparse;
  private final Cholesky kuu;
  private final double[] mean;
  private final Matrix factor;
  private final double elbo;
  private final Diagnostics diagnostics;

  SvgpPosterior(
      SparseProblem sparse,
      Cholesky kuu,
      double[] mean,
      Matrix factor,
      double elbo,
      Diagnostics diagnostics) {
    this.sparse = sparse;
    this.kuu = kuu;
    this.mean = mean.clone();
    this.factor = factor.copy();
    this.elbo = elbo;
    this.diagnostics = diagnostics;
  }

  /** The problem at the fitted θ, with the fitted Z. */
  public SparseProblem problem() {
    return sparse;
  }

  /** The bound L = Σ E_q[log p(yₙ | fₙ)] − KL(q(v) ‖ N(0, I)) reached (all n rows). */
  public double elbo() {
    return elbo;
  }

  public Diagnostics diagnostics() {
    return diagnostics;
  }

  /** The whitened mean m (a copy). */
  public double[] whitenedMean() {
    return mean.clone();
  }

  /** The whitened covariance S = CCᵀ (M × M). */
  public Matrix whitenedCovariance() {
    return factor.multTransB(factor);
  }

  /** E_q[u] = m₀ + L m. */
  public double[] inducingMean() {
    double[] u = kuu.lower().mult(mean);
    for (int a = 0; a < u.length; a++) {
      u[a] += sparse.problem().priorMean();
    }
    return u;
  }

  /** Cov_q[u] = L S Lᵀ. */
  public Matrix inducingCovariance() {
    Matrix lc = kuu.lower().mult(factor);
    return lc.multTransB(lc);
  }

  /** The jitter K_uu needed (0: none). */
  public double inducingJitter() {
    return kuu.jitter();
  }

  /** Latent predictive mean and variance at test inputs (class comment). */
  public Prediction predict(double[][] xTest) {
    Problem p = sparse.problem();
    Matrix as = kuu.solveLower(p.kernel().cross(sparse.z(), xTest)); // M × t
    Matrix cs = factor.multTransA(as);
    return Prediction.whitened(p.priorMean(), mean, as, cs, p.kernel().diagonal(xTest));
  }

  @Override
  public PredictiveMoments predictY(RegressionData test) {
    return predict(test.rows()).observed(sparse.problem().likelihood());
  }

  @Override
  public double[] logPredictiveDensity(RegressionData test) {
    FittedModel.requireTargets(test);
    return predict(test.rows()).logPredictive(sparse.problem().likelihood(), test.y());
  }

  @Override
  public String toString() {
    Problem p = sparse.problem();
    return "SvgpPosterior[" + p.likelihood().name() + ", " + p.kernel().name() + ", n=" + p.size()
        + ", M=" + sparse.inducing() + ", ELBO " + elbo + ", " + diagnostics + "]";
  }
}
