package org.approxgp.sparse;

import org.approxgp.data.RegressionData;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.JitterPolicy;
import org.approxgp.linalg.Matrix;

/**
 * The variational posterior q(u) = N(m, S) over the M inducing outputs u = f(Z), held in natural parameters
 * θ₁ = S⁻¹m and Λ = S⁻¹ (θ₂ = −½Λ), and its natural-gradient step (Hensman, Fusi &amp; Lawrence 2013, §3.1:
 * with the natural parameterisation the natural gradient of the bound is the difference between the optimum
 * implied by the current data and the current parameters, so a step of size ρ is
 * θ ← (1 − ρ) θ + ρ θ̂ with θ̂₂ = −½(K⁻¹ + (n/B) Σ_b (Λ-contributions)) and θ̂₁ = (n/B) Σ_b (θ₁-contributions)).
 *
 * <p>Package-private and mutable (the state of a running fit); snapshots are copied into records.
 */
final class InducingPosterior {
  private Matrix precision; // Λ = S⁻¹
  private double[] theta1; // S⁻¹ m
  private Cholesky cholPrecision;
  private Matrix covariance; // S
  private double[] mean; // m

  private InducingPosterior(Matrix precision, double[] theta1) {
    set(precision, theta1);
  }

  /** q(u) = p(u) = N(0, K_uu), the usual start (Λ = K⁻¹, θ₁ = 0). */
  static InducingPosterior prior(Cholesky kuu) {
    return new InducingPosterior(kuu.inverse(), new double[kuu.size()]);
  }

  private void set(Matrix lambda, double[] t1) {
    lambda.symmetrize(); // against round-off, before factoring
    precision = lambda;
    theta1 = t1;
    cholPrecision = Cholesky.factor(lambda, JitterPolicy.standard());
    covariance = cholPrecision.inverse();
    mean = cholPrecision.solve(t1);
  }

  /**
   * One natural-gradient step of size ρ towards the optimum implied by a (scaled) minibatch:
   * Λ ← (1 − ρ)Λ + ρ Λ̂, θ₁ ← (1 − ρ)θ₁ + ρ θ̂₁ (Hensman et al. 2013, eq. 9–10 in natural parameters).
   * With ρ = 1 and the full data this lands on the optimum in one step.
   */
  void step(Matrix targetPrecision, double[] targetTheta1, double rho) {
    if (!(rho > 0 && rho <= 1)) {
      throw new IllegalArgumentException("natural-gradient step must be in (0, 1], got " + rho);
    }
    double[] a = precision.data();
    double[] t = targetPrecision.data();
    double[] nl = new double[a.length];
    for (int k = 0; k < a.length; k++) {
      nl[k] = (1 - rho) * a[k] + rho * t[k];
    }
    double[] n1 = new double[theta1.length];
    for (int k = 0; k < n1.length; k++) {
      n1[k] = (1 - rho) * theta1[k] + rho * targetTheta1[k];
    }
    set(Matrix.wrap(precision.rows(), precision.cols(), nl), n1);
  }

  /** m (not a copy). */
  double[] mean() {
    return mean;
  }

  /** S (not a copy). */
  Matrix covariance() {
    return covariance;
  }

  /** log det S = −log det Λ. */
  double logDetCovariance() {
    return -cholPrecision.logDet();
  }

  /** Jitter added when factoring Λ (0 when none was needed). */
  double jitter() {
    return cholPrecision.jitter();
  }

  /**
   * KL(q(u) ‖ p(u)) = ½[tr(K⁻¹S) + mᵀK⁻¹m − M + log|K| − log|S|] (Hensman et al. 2013, eq. 8's KL term).
   *
   * @param kinv K_uu⁻¹
   */
  double kl(Cholesky kuu, Matrix kinv) {
    double[] nu = kuu.solve(mean);
    double mt = 0;
    for (int a = 0; a < nu.length; a++) {
      mt += mean[a] * nu[a];
    }
    return 0.5 * (kinv.dot(covariance) + mt - mean.length + kuu.logDet() - logDetCovariance());
  }

  /**
   * The fixed jitter ε added to the diagonal of K_uu while DTC++ learns θ (stochastically or in full batch) or
   * PIC++ learns it stochastically (GPflow's default jitter, 10⁻⁶, on the standardised scale the family fits on;
   * PIC++'s full-batch fits, fits at fixed θ and their exact-GP, FITC and PITC identities keep ε = 0; the fit
   * records which it used). It makes the inducing variables
   * u = f(Z) + ε_u, ε_u ∼ N(0, εI) — the bound stays a lower bound on log p(y), and ∂K_uu/∂θ is unchanged — and
   * keeps K_uu's conditioning a smooth function of θ: without it, a stochastic fit at M = 250 on two inputs
   * (4,307 rows) alternated between a factor with no jitter and one with the retry jitter of
   * {@link JitterPolicy#standard()} (≈ 2·10⁻¹⁰), and the unjittered K_uu⁻¹ gave one minibatch a bound of −3·10⁶ and
   * a gradient of 7·10⁸, whose square then held Adam's second moment (β₂ = 0.999) high enough to freeze the
   * length-scales for the rest of the run. DTC++'s full-batch L-BFGS at M = 500 on 5,000 rows of txhousing met the
   * same switch along a line search (its line search failed, projected gradient 704): the collapsed bound with ε
   * fixed is smooth in θ, so L-BFGS converges there.
   */
  static final double KUU_JITTER = 1e-6;

  /** The Cholesky factor of K_uu + εI at the inducing inputs (ε: 0 or {@link #KUU_JITTER}). */
  static Cholesky kuu(SquaredExponential.Rows k, RegressionData z, double jitter) {
    Matrix c = k.cross(z.x(), z.n(), z.x(), z.n());
    double[] cd = c.data();
    for (int a = 0; a < z.n(); a++) {
      cd[a * z.n() + a] += jitter;
    }
    return Cholesky.factor(c, JitterPolicy.standard());
  }

  /**
   * The natural-gradient step of size ρ towards the optimum for a batch with a Gaussian likelihood (Hensman et al.
   * 2013, §3.1): target precision K_uu⁻¹ + c Σ aᵢaᵢᵀ and target S⁻¹m = c Σ aᵢyᵢ, c = (n/|B|) σ⁻² (sums in
   * {@code aat}, {@code ay}).
   */
  void stepTowards(Matrix kinv, Matrix aat, double[] ay, double c, double rho) {
    Matrix target = kinv.copy();
    double[] td = target.data();
    double[] ad = aat.data();
    for (int i = 0; i < td.length; i++) {
      td[i] += c * ad[i];
    }
    double[] t1 = new double[ay.length];
    for (int a = 0; a < t1.length; a++) {
      t1[a] = c * ay[a];
    }
    step(target, t1, rho);
  }
}
