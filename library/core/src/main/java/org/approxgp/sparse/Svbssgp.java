package org.approxgp.sparse;

import java.util.Arrays;
import org.approxgp.data.RegressionData;
import org.approxgp.inference.PredictiveMoments;
import org.approxgp.linalg.Matrix;

/**
 * sVBSSGP: stochastic variational Bayesian sparse-spectrum GP regression (Hoang, Hoang &amp; Low, AAAI 2017).
 *
 * <p><b>Model</b> (paper §2). The SE-ARD kernel is replaced by its m-frequency trigonometric estimate
 * φ_θ(x)ᵀ Λ φ_θ(x'), Λ = (σ_s²/m) I (eq. 1–2, {@link SpectralFeatures}). The frequencies θ = vec(r₁…r_m) get
 * the prior N(0, Θ), Θ = (4π² I ⊗ Δ)⁻¹, Δ = diag(ℓ²) (§2); the nuisance weights s (2m of them) get
 * p(s) = N(0, Λ) independent of θ (eq. 3), and y | α ~ N(Φ_θ(X)ᵀ s, σ_n² I) with α = vec(θ, s) (Lemma 2).
 *
 * <p><b>Variational family</b> (§3.1, Lemma 1, Remark 2). q(α) is one <em>joint</em> Gaussian over all frequencies
 * and weights. A run holds it as N(b, Λ_q⁻¹) by its mean and precision (the natural parameters Λ_q b and −½ Λ_q);
 * Lemma 1's α = M z + b holds with M = L⁻ᵀ, Λ_q = L Lᵀ, and {@link #scale()} reports the lower factor M of
 * Λ_q⁻¹.
 *
 * <p><b>Frequencies in prior units; learned length-scales.</b> θ is written θ_lc = ε_lc / (2π ℓ_c) with
 * p(ε) = N(0, I) — the same prior N(0, (4π²Δ)⁻¹) on θ as eq. 1 — and q is the joint Gaussian over
 * α = vec(ε, s). The bound L is the same functional of q(θ, s) in either coordinate system (the Jacobian
 * Σ log(2π ℓ) cancels between log p and the entropy); ℓ, σ_n² and σ_s² are learned by ascending L (type-II
 * maximum likelihood, as SSGP learns ℓ) when {@link SvbssgpOptions#learnHyperparameters()}:
 * ∂L/∂ log ℓ_c = Σ_rows (v/σ_n²) Σ_l (−s_{2l} sin a_l + s_{2l+1} cos a_l)(−ε_lc x_c/ℓ_c) with
 * a_l = Σ_c ε_lc x_c/ℓ_c, ∂L/∂ log σ_n² = Σ_rows (½ v²/σ_n² − ½), ∂L/∂ log σ_s² = ½ sᵀs / λ − m (λ = σ_s²/m),
 * each estimated from the same partition-sampled draws as the paper's gradient (Theorem 1, eq. 22; rows of a
 * minibatch B &lt; |X_i| weighted by |X_i|/B, which keeps every estimate unbiased). The fitted model
 * ({@link #mean()}, {@link #scale()}) reports q in θ coordinates: b_θ = D b_ε, M_θ = D M_ε,
 * D = diag(1/(2π ℓ_c)).
 *
 * <p><b>Steps</b>. The paper maximises L by stochastic gradient ascent on η = vec(M, b) with the unbiased
 * estimate of eq. 22 and asks only for "appropriately scheduled" steps (§4.1). Plain or Adam steps on (b, M) do
 * not fit: Adam moves every one of the D(D+1)/2 entries of M by about its step size whatever its gradient, so
 * on 26 inputs (D = 560, 157,000 entries) the row norms of M — the spread of q — grow with every step, the
 * data term collapses and the bound estimate falls tenfold over 1,000 steps (see {@code SvbssgpFitBench}). A run
 * instead takes natural-gradient steps for q (Amari 1998; Hoffman et al. 2013; Khan &amp; Lin 2017; the practice
 * of GPflow's NaturalGradient, Salimbeni et al. 2018): in the natural parameters the step is
 * Λ_q ← (1 − ρ_t) Λ_q + ρ_t (P + Ĝ), b ← b + ρ_t Λ_q⁻¹ ĝ_b, where P = blkdiag(I, λ⁻¹ I) is the prior precision,
 * ĝ_b = (p/a) Σ_k F_{i_k} − P b the unbiased estimate of ∂L/∂b (eq. 22's data part, Theorem 1) and
 * Ĝ = (p/a) Σ_k Σ_{rows of X_{i_k}} σ_n⁻² J Jᵀ, J = ∂(φ_θ(x)ᵀ s)/∂α at the sampled α, the unbiased estimate of the
 * Gauss–Newton curvature E_q[σ_n⁻² Σ J Jᵀ] of −log p(y | α) (Lemma 2). It is the exact −E_q[∇² log p(y | α)]
 * (Price's theorem; the natural gradient's precision target) in the s block, where log p(y | α) is quadratic, so
 * q(s | θ) moves to the conjugate posterior at ρ = 1; in the frequency block it drops the term
 * σ_n⁻² E[v ∇²f], which keeps Λ_q positive definite at every step (a convex combination of positive definite
 * matrices; the variational online Gauss–Newton rule of Khan et al. 2018). The fixed point in b is the bound's
 * stationary point exactly; in Λ_q it is the Gauss–Newton approximation of it. The step is the Robbins–Monro
 * ρ_t = ρ₀/(1 + τ(t − 1))^κ (the step of {@link SvbssgpOptions#schedule()}). The hyperparameters take Adam steps (Kingma &amp; Ba
 * 2015) of size {@link SvbssgpOptions#learningRate()} (log ℓ at 3 ×, ℓ must often move by orders of magnitude), decayed
 * by the same schedule ρ_t/ρ₀.
 *
 * <p><b>Stopping.</b> Each iteration's bound estimate goes to a {@link BoundMonitor} ({@link
 * StochasticSchedule#stopping()}; by default the OLS slope of the estimates with its standard error, {@link
 * BoundMonitor.Test#SLOPE}); {@link #fit} stops when it finds the bound no longer rising or at
 * the cap {@link StochasticSchedule#iterations()}, and the model reports {@link #converged()}, {@link #stopReason()},
 * {@link #diverging()} and the {@link #boundTrace()}.
 *
 * <p><b>Initialisation.</b> ℓ_c = sd_c √med, med the median over random pairs of rows of the squared distance of
 * the inputs scaled to unit variance (the median heuristic per dimension; ≈ 2d, so with many inputs the prior's
 * features are not noise); σ_s² = var(y); b_ε a draw from the prior N(0, I) (random Fourier features) with
 * precision 100 I; (b_s, Λ_ss) the exact Gaussian posterior of s given θ = b_θ on the rows of min(p, 10a)
 * randomly drawn partitions (reweighted), and the default σ_n² that fit's mean squared residual, kept within
 * [0.01, 1] × var(y).
 *
 * <p><b>Where the data terms are summed.</b> The gradient's data terms (Theorem 1) are delegated to a
 * {@link PartitionGradients} strategy (default: in this JVM; the {@code approxgp-spark} module runs them as a
 * Spark job, with the same bits). The curvature Ĝ is summed in this JVM over the same drawn rows. The run makes
 * every random draw itself, so the strategy does not change the draws.
 *
 * <p><b>Prediction</b> (Proposition 1, §4.2): see {@link #predict(RegressionData, int[], double, int, long)}.
 *
 * <p><b>Cost and memory.</b> Nothing of size n × m is formed; an iteration touches a·B rows (a·|X_i| with whole
 * partitions) and costs O(a B D² + D³) for the curvature and the factorisation of Λ_q, independent of n.
 */
public final class Svbssgp {

  /** log ℓ moves at this multiple of the hyperparameters' Adam step (class comment, "Steps"). */
  static final double LENGTHSCALE_STEP_FACTOR = 3;

  private final RegressionData train;
  private final RowBlocks parts;
  private final int m;
  private final int d;
  private final int dim;
  private final double[] b;
  private final double[] scale; // M, row-major dim × dim, lower triangular
  private final double noiseVariance;
  private final double signalVariance;
  private final double[] lengthscales;
  private final SvbssgpOptions options;
  private final int iterations;
  private final double[] boundTrace;
  private final boolean converged;
  private final boolean diverging;
  private final BoundMonitor.StopReason stopReason;
  private final BoundMonitor.SlopeTest lastSlopeTest;

  Svbssgp(SvbssgpTrainer t, BoundMonitor.StopReason reason) {
    this.train = t.grouped;
    this.parts = t.local;
    this.m = t.m;
    this.d = t.d;
    this.dim = t.dim;
    this.lengthscales = new double[d];
    for (int j = 0; j < d; j++) {
      lengthscales[j] = Math.exp(t.hyper[2 + j]);
    }
    // q over θ = ε / (2π ℓ) (coordinate-wise): b_θ = D b_ε, M_θ = D M_ε with D = diag(1 / (2π ℓ_c))
    // on θ rows
    this.b = Arrays.copyOf(t.b, dim);
    this.scale = t.unpackScale();
    for (int i = 0; i < m * d; i++) {
      double f = 1 / (2 * Math.PI * lengthscales[i % d]);
      b[i] *= f;
      for (int j = 0; j <= i; j++) {
        scale[i * dim + j] *= f;
      }
    }
    this.noiseVariance = Math.exp(t.hyper[0]);
    this.signalVariance = Math.exp(t.hyper[1]);
    this.options = t.options;
    this.iterations = t.iteration;
    this.boundTrace = t.monitor.trace();
    this.converged = t.stopped();
    this.diverging = t.monitor.diverging();
    this.stopReason = reason;
    this.lastSlopeTest = t.monitor.lastSlopeTest();
  }

  /**
   * Fits q(α) by natural-gradient steps until the bound estimate has converged ({@link BoundMonitor}) or
   * {@link StochasticSchedule#iterations()} steps are done, calling {@code listener} after each with the step's estimate of
   * the bound L.
   *
   * @param partitionOfRow partition label 0…p−1 of every training row (p = largest label + 1)
   */
  public static Svbssgp fit(
      RegressionData train,
      int[] partitionOfRow,
      SvbssgpOptions options,
      IterationListener listener) {
    return fit(train, partitionOfRow, options, listener, null);
  }

  /**
   * As {@link #fit(RegressionData, int[], SvbssgpOptions, IterationListener)}, the data terms of each gradient (Theorem 1)
   * summed by {@code gradients} (null: in this JVM; see {@link #start(RegressionData, int[], SvbssgpOptions,
   * PartitionGradients)}).
   */
  public static Svbssgp fit(
      RegressionData train,
      int[] partitionOfRow,
      SvbssgpOptions options,
      IterationListener listener,
      PartitionGradients gradients) {
    SvbssgpTraining t = start(train, partitionOfRow, options, gradients);
    long t0 = System.nanoTime();
    while (t.iteration() < options.schedule().iterations() && !t.converged()) {
      double elbo = t.step();
      listener.onIteration(t.iteration(), elbo, (System.nanoTime() - t0) * 1e-9);
    }
    return t.current();
  }

  /** A training run positioned before its first step, for callers that predict between steps. */
  public static SvbssgpTraining start(
      RegressionData train, int[] partitionOfRow, SvbssgpOptions options) {
    return start(train, partitionOfRow, options, null);
  }

  /**
   * A training run whose data terms (Theorem 1) are summed by {@code gradients} (null: in this JVM). The strategy
   * must hold the same training rows and partition labels as {@code train} and {@code partitionOfRow}.
   */
  public static SvbssgpTraining start(
      RegressionData train,
      int[] partitionOfRow,
      SvbssgpOptions options,
      PartitionGradients gradients) {
    return new SvbssgpTraining(new SvbssgpTrainer(train, partitionOfRow, options, gradients));
  }

  /** Number of spectral frequencies m. */
  public int m() {
    return m;
  }

  /** Input dimension d. */
  public int d() {
    return d;
  }

  /** Dimension D = m·d + 2m of α = vec(θ, s). */
  public int dimension() {
    return dim;
  }

  /** Number of training partitions p. */
  public int partitions() {
    return parts.count();
  }

  /** Iterations that produced this model. */
  public int iterations() {
    return iterations;
  }

  /** The options of the fit. */
  public SvbssgpOptions options() {
    return options;
  }

  /** b, the mean of q(α) (θ row-major m × d, then s). */
  public double[] mean() {
    return b.clone();
  }

  /** M (lower triangular), so that Cov_q(α) = M Mᵀ. */
  public Matrix scale() {
    return Matrix.wrap(dim, dim, scale.clone());
  }

  /** σ_n². */
  public double noiseVariance() {
    return noiseVariance;
  }

  /** σ_s². */
  public double signalVariance() {
    return signalVariance;
  }

  /** ℓ of the frequency prior Θ (learned when {@link SvbssgpOptions#learnHyperparameters()}). */
  public double[] priorLengthscales() {
    return lengthscales.clone();
  }

  /**
   * Whether the fit's stopping rule found the bound converged ({@link BoundMonitor#converged()}); false for a fit
   * without a stopping rule, which runs to the cap.
   */
  public boolean converged() {
    return converged;
  }

  /** Why the fit stopped. */
  public BoundMonitor.StopReason stopReason() {
    return stopReason;
  }

  /**
   * The last {@link BoundMonitor.Test#SLOPE} test of the fit's stopping rule ({@link BoundMonitor#lastSlopeTest()});
   * null without a stopping rule, under another rule, or before the first test.
   */
  public BoundMonitor.SlopeTest lastSlopeTest() {
    return lastSlopeTest;
  }

  /** Whether the smoothed bound was falling over the last windows of the fit. */
  public boolean diverging() {
    return diverging;
  }

  /** The bound estimate of every step of the fit. */
  public double[] boundTrace() {
    return boundTrace.clone();
  }
  /**
   * r samples α_j = M z_j + b from q(α) (§4.2), z_j ~ N(0, I) from a generator seeded by {@code seed}; the
   * same samples that {@link #predict(RegressionData, int[], double, int, long)} uses for that seed.
   */
  public double[][] sampleAlphas(int r, long seed) {
    return SvbssgpPredictor.sampleAlphas(b, scale, dim, r, seed);
  }

  /** Predictions with the options' γ, r and seed. */
  public PredictiveMoments predict(RegressionData test, int[] partitionOfTestRow) {
    return predict(
        test,
        partitionOfTestRow,
        options.gamma(),
        options.predictiveSamples(),
        options.schedule().seed());
  }

  /**
   * Predictive mean and variance of y* (Proposition 1 and §4.2). For each of r samples α_j = (θ_j, s_j) from
   * q(α) and a test input x* in partition k, the test conditional is N(μ_j, σ_j²) with
   * μ_j = γ φᵀ s_j + (1 − γ) φᵀ Γ_k⁻¹ Φ(X_k) y_k and σ_j² = (1 − γ²) σ_n² φᵀ Γ_k⁻¹ φ, φ = φ_{θ_j}(x*),
   * Γ_k = Φ(X_k) Φ(X_k)ᵀ + σ_n² Λ⁻¹ (Proposition 1; γ = 0 is the local SSGP on partition k's training rows,
   * γ = 1 the degenerate conditional N(φᵀ s_j, 0) of VSSGP, Remark 1). The mean is (1/r) Σ μ_j and the latent
   * variance follows the paper's law-of-total-variance estimate (1/r) Σ (σ_j² + μ_j²) − mean² (§4.2); the
   * returned variance adds σ_n² (the variance of y*, paper §5).
   *
   * @param partitionOfTestRow partition of each test row, in 0…p−1 (e.g. the nearest k-means centroid)
   */
  public PredictiveMoments predict(
      RegressionData test, int[] partitionOfTestRow, double gamma, int r, long seed) {
    return predict(
        test, partitionOfTestRow, gamma, r, seed, SparseRegression.PredictiveNoise.MODEL);
  }

  /** As above; {@code noise}: the local terms' noise variance ({@link SparseRegression.PredictiveNoise}). */
  public PredictiveMoments predict(
      RegressionData test,
      int[] labels,
      double gamma,
      int r,
      long seed,
      SparseRegression.PredictiveNoise noise) {
    return SvbssgpPredictor.predict(this, train, parts, test, labels, gamma, r, seed, noise);
  }

  /**
   * The training rows' leave-one-out mean negative log predictive density at each γ of {@code gammas} with r samples
   * and {@code seed} ({@link SvbssgpPredictor#leaveOneOutMnlp}).
   */
  public double[] leaveOneOutMnlp(
      double[] gammas, int r, long seed, SparseRegression.PredictiveNoise noise) {
    return SvbssgpPredictor.leaveOneOutMnlp(this, train, parts, gammas, r, seed, noise);
  }

  @Override
  public String toString() {
    return "Svbssgp[m=" + m + ", d=" + d + ", p=" + parts.count() + ", iterations=" + iterations
        + ", noiseVariance=" + noiseVariance + ", signalVariance=" + signalVariance + "]";
  }
}
