package org.approxgp.sparse;

import java.util.Arrays;
import java.util.Optional;
import java.util.SplittableRandom;
import org.approxgp.data.RegressionData;
import org.approxgp.inference.PredictiveMoments;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.JitterPolicy;
import org.approxgp.linalg.Matrix;
import org.approxgp.optimize.Adam;

/**
 * Variational sparse-spectrum GP regression, VSSGP (Gal &amp; Turner, "Improving the Gaussian process sparse
 * spectrum approximation by representing uncertainty in frequency inputs", ICML 2015), in the notation of the
 * sVBSSGP paper (§2, eq. 1–3; Remark 1–2): the m-point model y = Φ_θᵀa + ε of {@link Ssgp} with a prior on the
 * frequencies instead of a point estimate, and the factorised variational posterior
 * q(r₁, …, r_m, a) = Πᵢ q(rᵢ) · q(a) with q(rᵢ) Gaussian with a diagonal covariance and q(a) = N(μ_a, S_a) a full
 * Gaussian over the 2m weights (a is the sVBSSGP paper's nuisance vector s).
 *
 * <p><b>Units.</b> As in {@link Ssgp} the frequencies are handled in length-scale units ωᵢⱼ = 2πℓⱼrᵢⱼ, in which
 * the prior of eq. 1 is p(ω) = N(0, I) for every ℓ; q(ωᵢⱼ) = N(μᵢⱼ, sᵢⱼ). The length-scales then enter only the
 * likelihood (through x/ℓ), so they, σ² and σₙ² are learned by maximising the same bound (type-II ML on the
 * bound, as Gal &amp; Turner do for their hyperparameters).
 *
 * <p><b>The bound.</b> L = E_q[log p(y | ω, a)] − KL(q(ω) ‖ N(0, I)) − KL(q(a) ‖ N(0, (σ²/m) I)) ≤ log p(y), with
 * E_q[log p(y | ω, a)] = Σᵢ [−½ log(2πσₙ²) − Bᵢ/(2σₙ²)] and
 * Bᵢ = E_q[(yᵢ − φ(xᵢ)ᵀa)²] = yᵢ² − 2yᵢ φ̄ᵢᵀμ_a + tr(Ψᵢ (μ_aμ_aᵀ + S_a)), φ̄ᵢ = E_q[φ(xᵢ)], Ψᵢ = E_q[φ(xᵢ)φ(xᵢ)ᵀ].
 * Under q each argument zₖ = ωₖᵀ(x/ℓ) = 2π rₖᵀx is Gaussian, N(mₖ, vₖ) with mₖ = μₖᵀu, vₖ = Σⱼ sₖⱼ uⱼ², u = x/ℓ,
 * and the characteristic function E[e^{iz}] = e^{im − v/2} gives (Gal &amp; Turner §4, the expectations of their
 * eq. 9–10 with the phases dropped):
 * E[cos z] = e^{−v/2} cos m, E[sin z] = e^{−v/2} sin m — i.e. E[cos(2π rᵀx)] = exp(−2π² xᵀΣ_r x) cos(2π μ_rᵀx)
 * with Σ_r the covariance of r — and, from cos²z = ½(1 + cos 2z), sin²z = ½(1 − cos 2z), sin z cos z = ½ sin 2z,
 * E[cos² z] = ½(1 + e^{−2v} cos 2m), E[sin² z] = ½(1 − e^{−2v} cos 2m), E[sin z cos z] = ½ e^{−2v} sin 2m.
 * Distinct frequencies are independent under q, so Ψᵢ = φ̄ᵢφ̄ᵢᵀ + Dᵢ with Dᵢ block diagonal: the 2 × 2 covariance
 * of (cos zₖ, sin zₖ) for each k.
 *
 * <p><b>Optimisation, full batch</b> (batch size 0 or ≥ n; what {@code approxgp regress} uses while n·(2m)² is small). For
 * fixed q(ω) and hyperparameters the bound is a concave quadratic in (μ_a, S_a) with the closed-form maximiser
 * S_a = (Ψ/σₙ² + (m/σ²) I)⁻¹, μ_a = S_a b/σₙ² (Ψ = Σᵢ Ψᵢ, b = Σᵢ yᵢφ̄ᵢ; Gal &amp; Turner 2015 §4 note that the
 * optimal q(a) is Gaussian and can be found analytically), and the maximised ("collapsed") bound is
 * L* = −(n/2) log 2πσₙ² − yᵀy/(2σₙ²) + ½ bᵀA⁻¹b/σₙ⁴ − ½ log|λA| − KL(q(ω) ‖ p(ω)), A = Ψ/σₙ² + I/λ, λ = σ²/m
 * (the Titsias (2009) construction applied to VSSGP). Its gradient with respect to (μ_ω, log s_ω, log ℓ, log σ²,
 * log σₙ²) is the gradient of L at that q(a) with q(a) held fixed (q(a) is a stationary point: envelope theorem).
 * So the full-batch fit maximises L* with L-BFGS ({@link VssgpFullBatch}, deterministic, stopping on a relative decrease
 * below 1e-9 or a small gradient, or, under a slope stopping rule, when that test finds the exact bound settled; two
 * starts, see {@code VssgpFullBatch.fit}) over those m·d + m·d + d + 2 parameters —
 * not over the 2m(2m + 1)/2 entries of
 * S_a's Cholesky factor, on which a first-order method with one step size for every coordinate (Adam) does not
 * settle: on scikit-learn's diabetes data (m = 100, 2,000 Adam steps at α = 0.01) the bound still swung by
 * ±15 nats between iterations at the end, its gradient norm was 10³, and the q(a) it reached was 18 nats below
 * the optimal q(a) at the same q(ω).
 *
 * <p><b>Optimisation, minibatches.</b> On unbiased minibatch estimates of L (the data term scaled by n/|batch|;
 * rows drawn uniformly with replacement, seeded): q(a), the conjugate part, by natural-gradient steps of a
 * decaying size towards its optimum for the batch (as DTC++'s q(u); {@code weightStep}), q(ω) and the
 * hyperparameters by Adam ({@link Adam}) at a decaying rate, variances in log space. q(a) starts at its optimum
 * for the initial q(ω) given the first batch; the run stops at its cap or when the smoothed bound estimate has
 * converged ({@link BoundMonitor}).
 *
 * <p><b>Prediction</b> (γ = 1 in Proposition 1 of the sVBSSGP paper, the degenerate test conditional
 * f* = φ(x*)ᵀa): E[f*] = φ̄*ᵀμ_a and Var[f*] = E_q[(φ*ᵀa)²] − E[f*]² = tr(Ψ*(μ_aμ_aᵀ + S_a)) − (φ̄*ᵀμ_a)²
 * = φ̄*ᵀS_aφ̄* + tr(D*(μ_aμ_aᵀ + S_a)); the variance of y* adds σₙ².
 *
 * <p><b>Cost and memory.</b> O(|batch| m²) per iteration (one pass over the batch rows accumulating the 2m × 2m
 * Σ Ψᵢ and Σ yᵢφ̄ᵢ); memory O(m²) + O(m d) beside the O(n d) inputs; never an n × m matrix.
 */
public final class Vssgp {

  /**
   * How to fit.
   *
   * @param m number of spectral frequencies (2m basis functions)
   * @param schedule at most {@code iterations} L-BFGS iterations (full batch, i.e. no batch or one ≥ n; it stops
   *     earlier when converged) or minibatch steps of {@code batch} rows with Adam's learning rate α_t =
   *     {@code step} (it stops earlier when {@code stopping} says the smoothed bound has converged); the seed seeds
   *     the initial frequency means and the minibatches
   * @param initial initial hyperparameters, or empty for {@link Ssgp.Hyperparameters#fromData}
   * @param initialFrequencyVariance initial sᵢⱼ of q(ω) in length-scale units (the prior has variance 1); in full
   *     batch a second start from the prior's variance 1 is also run and the higher bound kept
   */
  public record Options(
      int m,
      StochasticSchedule schedule,
      Optional<Ssgp.Hyperparameters> initial,
      double initialFrequencyVariance) {

    public Options {
      if (m < 1) {
        throw new IllegalArgumentException("need m >= 1, got " + m);
      }
      if (schedule == null
          || initial == null
          || !(initialFrequencyVariance > 0)
          || !Double.isFinite(initialFrequencyVariance)) {
        throw new IllegalArgumentException(
            "need a schedule, an initial (or empty) and a positive initial frequency variance, got "
                + schedule + ", " + initial + ", " + initialFrequencyVariance);
      }
    }

    /**
     * The initial variance s₀ of each frequency under q(ω) of {@link #of}, in length-scale units (the prior's is 1).
     */
    public static final double DEFAULT_FREQUENCY_VARIANCE = 0.01;

    /**
     * {@code batch} rows per step (≥ n: full batch), data-driven initial hyperparameters, initial frequency variance
     * {@value #DEFAULT_FREQUENCY_VARIANCE}; with minibatches Adam's rate α_t = 0.01/(1 + 0.01 (t − 1))^0.6 and the stopping rule of the
     * inducing-point fits ({@link InducingOptions#DEFAULT_STOPPING}).
     */
    public static Options of(int m, int iterations, int batch, long seed) {
      return new Options(
          m,
          StochasticSchedule.of(batch, iterations, new StepSchedule(0.01, 0.01, 0.6), seed)
              .withStopping(InducingOptions.DEFAULT_STOPPING),
          Optional.empty(),
          DEFAULT_FREQUENCY_VARIANCE);
    }

    public Options withM(int v) {
      return new Options(v, schedule, initial, initialFrequencyVariance);
    }

    public Options withSchedule(StochasticSchedule v) {
      return new Options(m, v, initial, initialFrequencyVariance);
    }

    public Options withInitial(Ssgp.Hyperparameters v) {
      return new Options(m, schedule, Optional.of(v), initialFrequencyVariance);
    }

    public Options withInitialFrequencyVariance(double v) {
      return new Options(m, schedule, initial, v);
    }
  }

  /**
   * The variational lower bound (class comment) and its parts; for a minibatch the data term is the unbiased
   * estimate (n/|batch|) Σ_{i ∈ batch}.
   */
  public record Bound(double expectedLogLikelihood, double klFrequencies, double klWeights) {

    /** L = E_q[log p(y | ω, a)] − KL(q(ω) ‖ p(ω)) − KL(q(a) ‖ p(a)). */
    public double value() {
      return expectedLogLikelihood - klFrequencies - klWeights;
    }
  }

  private final int m;
  private final int d;
  private final double[] p; // packed parameters (layout: VssgpParameters)
  private final Ssgp.Hyperparameters hyp;
  private final int iterations;
  private final BoundMonitor.StopReason stopReason;
  private final BoundMonitor.SlopeTest lastSlopeTest;

  private Vssgp(
      int m,
      int d,
      double[] p,
      int iterations,
      BoundMonitor.StopReason stopReason,
      BoundMonitor.SlopeTest lastSlopeTest) {
    this.m = m;
    this.d = d;
    this.p = p;
    this.hyp = VssgpParameters.unpackHyperparameters(p, m, d);
    this.iterations = iterations;
    this.stopReason = stopReason;
    this.lastSlopeTest = lastSlopeTest;
  }

  /** The model at packed parameters p (owned), after {@code iterations} iterations that stopped for {@code reason}. */
  static Vssgp of(int m, int d, double[] p, int iterations, BoundMonitor.StopReason reason) {
    return of(m, d, p, iterations, reason, null);
  }

  /** As {@link #of(int, int, double[], int, BoundMonitor.StopReason)}, with the stopping rule's last slope test. */
  static Vssgp of(
      int m,
      int d,
      double[] p,
      int iterations,
      BoundMonitor.StopReason reason,
      BoundMonitor.SlopeTest lastSlopeTest) {
    return new Vssgp(m, d, p, iterations, reason, lastSlopeTest);
  }

  // ---- fitting
  // ------------------------------------------------------------------------------------------------

  /**
   * Fits VSSGP to {@code train}: μ_ω ∼ N(0, I) (seeded), s_ω = the initial variance, hyperparameters from the
   * options; then, in full batch, at most {@code options.schedule().iterations()} L-BFGS iterations on the collapsed bound
   * L* (class comment), or, with minibatches, q(a) optimal for the initial q(ω) given the first batch and
   * {@code options.schedule().iterations()} Adam steps on the minibatch estimate of the bound. The listener gets, per
   * iteration, the bound: in full batch the exact L* at the iterate after the iteration, with minibatches the
   * estimate at the point where the step's gradient was taken.
   */
  public static Vssgp fit(RegressionData train, Options options, IterationListener listener) {
    return fit(train, options, listener, null);
  }

  /**
   * As {@link #fit(RegressionData, Options, IterationListener)}, also giving {@code snapshots} (if not null) the
   * model after each iteration (for per-iteration test metrics).
   */
  public static Vssgp fit(
      RegressionData train,
      Options options,
      IterationListener listener,
      SnapshotListener<Vssgp> snapshots) {
    SpectralBasis.requireTargets(train);
    int m = options.m();
    int d = train.d();
    int n = train.n();
    Ssgp.Hyperparameters h0 =
        options.initial().orElseGet(() -> Ssgp.Hyperparameters.fromData(train));
    if (h0.lengthscales().length != d) {
      throw new IllegalArgumentException(
          h0.lengthscales().length + " length-scales for " + d + " inputs");
    }
    SplittableRandom rng = new SplittableRandom(options.schedule().seed());
    double[] muW = new double[m * d];
    for (int t = 0; t < muW.length; t++) {
      muW[t] = rng.nextGaussian();
    }
    double[] sW = new double[m * d];
    Arrays.fill(sW, options.initialFrequencyVariance());
    int k = 2 * m;
    double[] eye = new double[k * k];
    for (int a = 0; a < k; a++) {
      eye[a * k + a] = 1;
    }
    double[] p = VssgpParameters.pack(m, d, muW, sW, h0, new double[k], eye);
    IterationListener l = listener == null ? IterationListener.NONE : listener;
    boolean full = options.schedule().fullBatchFor(n);
    if (full) {
      return VssgpFullBatch.fit(
          train,
          m,
          p,
          options.schedule().iterations(),
          options.schedule().stopping().orElse(null),
          l,
          snapshots);
    }
    return VssgpMinibatch.fit(train, options, p, rng, l, snapshots);
  }

  /**
   * The part of a stopping rule that the full-batch fit applies ({@code VssgpFullBatch}): a {@link
   * BoundMonitor.Test#SLOPE} rule, tested on the exact bound after every L-BFGS iteration; null for a {@link
   * BoundMonitor.Test#MEANS} rule or none (L-BFGS's own tests alone).
   */
  public static BoundMonitor.Rule fullBatchStopping(BoundMonitor.Rule rule) {
    return rule != null && rule.test() == BoundMonitor.Test.SLOPE ? rule : null;
  }

  /**
   * Sets q(a) (in p) to its optimum for the current q(ω) and hyperparameters on the given rows (null: all),
   * scaled to n: S_a = (c Σᵢ Ψᵢ/σₙ² + (m/σ²) I)⁻¹, μ_a = S_a c Σᵢ yᵢφ̄ᵢ/σₙ², c = n/|rows| (the stationary point of
   * the bound in μ_a and S_a).
   */
  static void optimalWeights(RegressionData data, int[] rows, int m, double[] p) {
    weightStep(data, rows, m, p, 1.0);
  }

  /**
   * Moves q(a) (in p) by a natural-gradient step of size ρ towards its optimum on the given rows (ρ = 1: the
   * optimum, {@link #optimalWeights}): in the natural parameters Λ = S_a⁻¹, η = S_a⁻¹μ_a,
   * Λ ← (1 − ρ)Λ + ρ(c Σᵢ Ψᵢ/σₙ² + (m/σ²) I), η ← (1 − ρ)η + ρ c Σᵢ yᵢφ̄ᵢ/σₙ² (Hensman et al. 2013, §3.1 for the
   * same conjugate structure in SVGP; q(a)'s optimum is Gaussian, Gal &amp; Turner 2015 §4).
   */
  static void weightStep(RegressionData data, int[] rows, int m, double[] p, double rho) {
    int d = data.d();
    int k = 2 * m;
    VssgpBound.Stats st = VssgpBound.accumulate(data, rows, m, p, null, null, null);
    Ssgp.Hyperparameters h = VssgpParameters.unpackHyperparameters(p, m, d);
    double sn2 = h.noiseVariance();
    double scale = (double) data.n() / st.rows;
    double[] prec = new double[k * k];
    double[] rhs = new double[k];
    if (rho < 1) { // the current natural parameters, weighted 1 − ρ
      Cholesky cs = Cholesky.factor(
          Matrix.wrap(k, k, VssgpParameters.gram(VssgpParameters.chol(p, m, d), k)),
          JitterPolicy.standard());
      double[] lam = cs.inverse().data();
      double[] eta = Matrix.wrap(k, k, lam)
          .mult(Arrays.copyOfRange(
              p, VssgpParameters.offMuA(m, d), VssgpParameters.offMuA(m, d) + k));
      for (int t = 0; t < k * k; t++) {
        prec[t] = (1 - rho) * lam[t];
      }
      for (int a = 0; a < k; a++) {
        rhs[a] = (1 - rho) * eta[a];
      }
    }
    for (int t = 0; t < k * k; t++) {
      prec[t] += rho * scale * st.psi[t] / sn2;
    }
    for (int a = 0; a < k; a++) {
      prec[a * k + a] += rho * m / h.signalVariance();
      rhs[a] += rho * scale * st.b[a] / sn2;
    }
    Cholesky cp = Cholesky.factor(Matrix.wrap(k, k, prec), JitterPolicy.standard());
    double[] mu = cp.solve(rhs);
    Cholesky cs = Cholesky.factor(cp.inverse(), JitterPolicy.standard());
    System.arraycopy(mu, 0, p, VssgpParameters.offMuA(m, d), k);
    int oc = VssgpParameters.offChol(m, d);
    for (int a = 0; a < k; a++) {
      for (int b = 0; b <= a; b++) {
        double v = cs.lowerAt(a, b);
        p[oc + VssgpParameters.tri(a, b)] = a == b ? Math.log(v) : v;
      }
    }
  }

  /**
   * The bound (or its minibatch estimate over {@code rows}; null = all rows) at packed parameters p and, if
   * {@code grad} is not null, its gradient ({@link VssgpBound#evaluate}).
   */
  static Bound evaluate(RegressionData data, int[] rows, int m, double[] p, double[] grad) {
    return VssgpBound.evaluate(data, rows, m, p, grad);
  }

  // ---- prediction and accessors
  // -------------------------------------------------------------------------------

  /** Predictive mean and variance of y* with the degenerate (γ = 1) test conditional (class comment). */
  public PredictiveMoments predict(RegressionData test) {
    if (test.d() != d) {
      throw new IllegalArgumentException("test rows have " + test.d() + " inputs, the model " + d);
    }
    int k2 = 2 * m;
    int md = m * d;
    double[] muW = Arrays.copyOf(p, md);
    double[] sW = VssgpParameters.frequencyVariances(p, m, d);
    double[] invEll = SpectralBasis.inverse(hyp.lengthscales());
    double[] muA = weightMean();
    double[] l = VssgpParameters.chol(p, m, d);
    double[] s = VssgpParameters.gram(l, k2);
    double sn2 = hyp.noiseVariance();
    double[] phibar = new double[k2];
    double[] dvar = new double[3 * m];
    double[] u = new double[d];
    int n = test.n();
    double[] mean = new double[n];
    double[] var = new double[n];
    for (int i = 0; i < n; i++) {
      VssgpBound.expectations(
          test.x(), i * d, d, m, muW, sW, invEll, phibar, 0, dvar, null, 0, u, 0);
      mean[i] = SpectralBasis.dot(phibar, muA);
      double v = 0;
      for (int a = 0; a < k2; a++) {
        double t = 0;
        for (int b = 0; b < k2; b++) {
          t += s[a * k2 + b] * phibar[b];
        }
        v += phibar[a] * t;
      }
      for (int k = 0; k < m; k++) {
        int c = 2 * k;
        double ecc = s[c * k2 + c] + muA[c] * muA[c];
        double ess = s[(c + 1) * k2 + c + 1] + muA[c + 1] * muA[c + 1];
        double ecs = s[c * k2 + c + 1] + muA[c] * muA[c + 1];
        v += dvar[3 * k] * ecc + dvar[3 * k + 1] * ess + 2 * dvar[3 * k + 2] * ecs;
      }
      var[i] = v + sn2;
    }
    return new PredictiveMoments(mean, var);
  }

  /** The exact bound on {@code train} (one full pass). */
  public Bound bound(RegressionData train) {
    if (train.d() != d) {
      throw new IllegalArgumentException("rows have " + train.d() + " inputs, the model " + d);
    }
    SpectralBasis.requireTargets(train);
    return evaluate(train, null, m, p, null);
  }

  /** Mean of q(a) (2m). */
  public double[] weightMean() {
    return Arrays.copyOfRange(
        p, VssgpParameters.offMuA(m, d), VssgpParameters.offMuA(m, d) + 2 * m);
  }

  /** Covariance S_a of q(a) (a new 2m × 2m matrix). */
  public Matrix weightCovariance() {
    return Matrix.wrap(2 * m, 2 * m, VssgpParameters.gram(VssgpParameters.chol(p, m, d), 2 * m));
  }

  /** The learned hyperparameters. */
  public Ssgp.Hyperparameters hyperparameters() {
    return hyp;
  }

  /** Iterations done: L-BFGS iterations (full batch; may stop early when converged) or minibatch steps. */
  public int iterations() {
    return iterations;
  }

  /**
   * Why the fit stopped: full batch, L-BFGS's verdict (converged, its iteration cap, or a failed line search) or
   * the slope rule's (converged); with minibatches, the smoothed bound's convergence or the cap. NOT_STOPPED for an intermediate snapshot.
   */
  public BoundMonitor.StopReason stopReason() {
    return stopReason;
  }

  /**
   * With minibatches, the last {@link BoundMonitor.Test#SLOPE} test of the stopping rule ({@link
   * BoundMonitor#lastSlopeTest()}); null in full batch, without a stopping rule, under another rule, or before the
   * first test.
   */
  public BoundMonitor.SlopeTest lastSlopeTest() {
    return lastSlopeTest;
  }

  /** Whether the fit converged ({@link #stopReason()} is {@code CONVERGED}). */
  public boolean converged() {
    return stopReason == BoundMonitor.StopReason.CONVERGED;
  }

  /** A model holding packed parameters p (copied; for tests and warm starts). */
  static Vssgp fromParameters(int m, int d, double[] p) {
    if (p.length != VssgpParameters.size(m, d)) {
      throw new IllegalArgumentException(
          p.length + " parameters, expected " + VssgpParameters.size(m, d));
    }
    return new Vssgp(m, d, p.clone(), 0, BoundMonitor.StopReason.NOT_STOPPED, null);
  }

  /** The packed parameter vector (copy). */
  double[] parameters() {
    return p.clone();
  }

  @Override
  public String toString() {
    return "Vssgp[m=" + m + ", " + hyp + ", " + iterations + " iterations]";
  }
}
