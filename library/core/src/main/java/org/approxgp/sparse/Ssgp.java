package org.approxgp.sparse;

import java.util.Arrays;
import java.util.Optional;
import org.approxgp.data.RegressionData;
import org.approxgp.inference.PredictiveMoments;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.Matrix;
import org.approxgp.linalg.NotPositiveDefiniteException;
import org.approxgp.optimize.Lbfgs;

/**
 * Sparse-spectrum GP regression, SSGP (Lázaro-Gredilla, Quiñonero-Candela, Rasmussen &amp; Figueiras-Vidal,
 * "Sparse spectrum Gaussian process regression", JMLR 11, 2010; the sVBSSGP paper §2, eq. 1–2, calls it the
 * m-point model): y = Φᵀa + ε with the 2m trigonometric basis functions φ(x) of eq. 2, weights
 * a ∼ N(0, (σ²/m) I) and noise ε ∼ N(0, σₙ² I). The m spectral frequencies and the hyperparameters (length-scales
 * ℓ, signal variance σ², noise variance σₙ²) are point estimates maximising the exact log marginal likelihood
 * with L-BFGS and its analytic gradient; the prior mean is zero (standardise the targets first).
 *
 * <p><b>Parameterisation.</b> The frequencies are learned in units scaled by the length-scales,
 * rᵢⱼ = ωᵢⱼ/(2πℓⱼ), as in Lázaro-Gredilla et al.'s own parameterisation (their §3, ARD version): the
 * argument of the basis functions is then 2π rᵢᵀx = ωᵢᵀ(x/ℓ), the ω start as standard normal draws (the
 * spectral density of eq. 1 in these units is N(0, I) whatever ℓ), every ω coordinate is O(1) whatever the scale
 * of the inputs (a better conditioned problem for L-BFGS), and ℓⱼ moves all m frequencies of input j at once
 * (a relevance per input). The parameterisation is redundant (ℓⱼ and a common scaling of column j of ω give the
 * same model) — harmless for L-BFGS. The paper's θ = vec(r) (with the length-scales inside) is
 * {@link #features()}.
 *
 * <p><b>Cost and memory.</b> One evaluation of the objective and its gradient makes two streaming passes over
 * the rows (O(n m²) time): the first accumulates ΦΦᵀ, Φy and yᵀy, the second the gradient through each row's
 * features; neither ever holds Φ (2m × n), only O(m²) accumulators and one row's features, beside the O(n d)
 * input array itself. Prediction costs O(m²) per test row.
 */
public final class Ssgp {

  /**
   * Hyperparameters of the SE-ARD kernel k(x, x') = σ² exp(−½ Σⱼ (xⱼ − x'ⱼ)²/ℓⱼ²) (eq. 1) and the noise.
   *
   * @param lengthscales ℓ, one per input, positive
   * @param signalVariance σ², positive
   * @param noiseVariance σₙ², positive
   */
  public record Hyperparameters(
      double[] lengthscales, double signalVariance, double noiseVariance) {

    public Hyperparameters {
      lengthscales = lengthscales.clone();
      for (double l : lengthscales) {
        if (!(l > 0) || !Double.isFinite(l)) {
          throw new IllegalArgumentException("length-scales must be positive and finite, got " + l);
        }
      }
      if (!(signalVariance > 0) || !Double.isFinite(signalVariance)) {
        throw new IllegalArgumentException(
            "signal variance must be positive and finite, got " + signalVariance);
      }
      if (!(noiseVariance > 0) || !Double.isFinite(noiseVariance)) {
        throw new IllegalArgumentException(
            "noise variance must be positive and finite, got " + noiseVariance);
      }
    }

    @Override
    public double[] lengthscales() {
      return lengthscales.clone();
    }

    /**
     * Defaults from the training data (GPML-style): ℓⱼ = half the range of input j (1 for a constant input),
     * σ² = var(y) and σₙ² = var(y)/4 (both 1 if y is constant).
     */
    public static Hyperparameters fromData(RegressionData train) {
      SpectralBasis.requireTargets(train);
      int d = train.d();
      double[] ell = new double[d];
      for (int j = 0; j < d; j++) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < train.n(); i++) {
          double v = train.x(i, j);
          lo = Math.min(lo, v);
          hi = Math.max(hi, v);
        }
        ell[j] = hi > lo ? (hi - lo) / 2 : 1.0;
      }
      double mean = 0;
      for (double v : train.y()) {
        mean += v;
      }
      mean /= train.n();
      double var = 0;
      for (double v : train.y()) {
        var += (v - mean) * (v - mean);
      }
      var /= train.n();
      if (!(var > 0)) {
        var = 1;
      }
      return new Hyperparameters(ell, var, var / 4);
    }

    @Override
    public String toString() {
      return "Hyperparameters[ℓ=" + Arrays.toString(lengthscales) + ", σ²=" + signalVariance
          + ", σₙ²=" + noiseVariance + "]";
    }
  }

  /**
   * How to fit.
   *
   * @param m number of spectral frequencies (2m basis functions), ≥ 1
   * @param iterations L-BFGS iteration cap, ≥ 0 (0: no optimisation, the initial model conditioned on the data)
   * @param seed seed of the initial frequency draw
   * @param initial initial hyperparameters; empty: {@link Hyperparameters#fromData}
   * @param holdout fraction of the training rows held out for early stopping ({@link SsgpHoldout}), in [0, 1);
   *     0: maximise the likelihood of all rows to convergence or the cap
   * @param fixedFallback with held-out rows: let them choose between the learned frequencies and a few seeded
   *     frequency draws (the first the initial one) with fitted hyperparameters ({@link FixedFrequencies}); false:
   *     always the learned ones
   */
  public record Options(
      int m,
      int iterations,
      long seed,
      Optional<Hyperparameters> initial,
      double holdout,
      boolean fixedFallback) {

    public Options {
      if (initial == null) {
        throw new IllegalArgumentException(
            "initial must not be null (Optional.empty() for the data's)");
      }
      if (m < 1 || iterations < 0) {
        throw new IllegalArgumentException(
            "need m >= 1 and iterations >= 0, got m=" + m + ", iterations=" + iterations);
      }
      if (!(holdout >= 0 && holdout < 1)) {
        throw new IllegalArgumentException("holdout must be in [0, 1), got " + holdout);
      }
    }

    /** Options without the fixed-frequency fallback. */
    public Options(
        int m, int iterations, long seed, Optional<Hyperparameters> initial, double holdout) {
      this(m, iterations, seed, initial, holdout, false);
    }

    /** Options with the data-driven initial hyperparameters, no held-out rows. */
    public static Options of(int m, int iterations, long seed) {
      return new Options(m, iterations, seed, Optional.empty(), 0);
    }

    /** These options starting from {@code h} instead of the data-driven hyperparameters. */
    public Options withInitial(Hyperparameters h) {
      return new Options(m, iterations, seed, Optional.of(h), holdout, fixedFallback);
    }

    /** These options holding out {@code fraction} of the rows for early stopping (0: none). */
    public Options withHoldout(double fraction) {
      return new Options(m, iterations, seed, initial, fraction, fixedFallback);
    }

    /**
     * These options with the held-out rows also choosing between the learned frequencies and a few seeded draws
     * with fitted hyperparameters ({@link FixedFrequencies}; needs held-out rows).
     */
    public Options withFixedFallback(boolean on) {
      return new Options(m, iterations, seed, initial, holdout, on);
    }

    /**
     * Data-driven initial hyperparameters and early stopping on {@value #DEFAULT_HOLDOUT} of the rows held out
     * (what {@code approxgp regress} runs; {@link SsgpHoldout}).
     */
    public static Options earlyStopped(int m, int iterations, long seed) {
      return new Options(m, iterations, seed, Optional.empty(), DEFAULT_HOLDOUT);
    }

    /** The held-out fraction of {@link #earlyStopped}. */
    public static final double DEFAULT_HOLDOUT = 0.2;
  }

  private static final String NO_OPTIMISATION = "no optimisation";
  private static final String CONDITIONED = "conditioned";
  private static final String ITERATE = "iterate";

  private final double[] omega; // m × d, scaled units
  private final Hyperparameters hyp;
  private final SpectralFeatures features;
  private final Cholesky chol; // of A = ΦΦᵀ + (m σₙ²/σ²) I
  private final double[] alpha; // A⁻¹ Φ y: posterior mean of a
  private final double logMarginalLikelihood;
  private final int iterations;
  private final boolean converged;
  private final String status;
  private BoundMonitor.StopReason
      stopReason; // set by fit for early-stopped runs; null: derived from the status

  private Ssgp(
      double[] omega,
      Hyperparameters hyp,
      SsgpObjective.Stats st,
      int iterations,
      boolean converged,
      String status) {
    this.omega = omega;
    this.hyp = hyp;
    this.features = SpectralBasis.toFeatures(omega, hyp.lengthscales, hyp.lengthscales.length);
    this.chol = st.chol;
    this.alpha = st.alpha;
    this.logMarginalLikelihood = -st.negLogMarginal;
    this.iterations = iterations;
    this.converged = converged;
    this.status = status;
  }

  /**
   * Fits SSGP to {@code train}: draws ω ∼ N(0, I) (m × d, seeded), then maximises the log marginal likelihood
   * over (ω, log ℓ, log σ², log σₙ²) with L-BFGS for at most {@code options.iterations()} iterations, telling
   * {@code listener} the log marginal likelihood after each.
   */
  public static Ssgp fit(RegressionData train, Options options, IterationListener listener) {
    return fit(train, options, listener, null);
  }

  /**
   * As {@link #fit(RegressionData, Options, IterationListener)}, also giving {@code snapshots} (if not null) the
   * model at the L-BFGS iterate after each iteration (with held-out rows: the model kept so far, the best held-out
   * iterate conditioned on all rows), for per-iteration test metrics.
   */
  public static Ssgp fit(
      RegressionData train,
      Options options,
      IterationListener listener,
      SnapshotListener<Ssgp> snapshots) {
    SpectralBasis.requireTargets(train);
    int m = options.m();
    int d = train.d();
    Hyperparameters h0 = options.initial().orElseGet(() -> Hyperparameters.fromData(train));
    if (h0.lengthscales.length != d) {
      throw new IllegalArgumentException(
          h0.lengthscales.length + " length-scales for " + d + " inputs");
    }
    double[] p0 = FixedFrequencies.initial(m, d, options.seed(), h0);
    if (options.iterations() == 0) {
      return of(train, m, d, p0, 0, true, NO_OPTIMISATION + " (0 iterations)");
    }
    long t0 = System.nanoTime();
    IterationListener l = listener == null ? IterationListener.NONE : listener;
    Lbfgs.Progress progress = (it, x, fx) -> {
      l.onIteration(it, -fx, (System.nanoTime() - t0) * 1e-9);
      if (snapshots != null) {
        double[] xi = x.clone();
        snapshots.onIteration(it, () -> of(train, m, d, xi, it, false, ITERATE + " " + it));
      }
    };
    if (options.holdout() > 0 && train.n() >= 2) {
      SsgpHoldout.Result r = SsgpHoldout.fit(
          train,
          m,
          p0,
          options.iterations(),
          options.holdout(),
          options.seed(),
          options.fixedFallback(),
          progress);
      // the snapshots are the model kept so far (the best held-out iterate), conditioned on all
      // rows
      Ssgp fit = of(train, m, d, r.p(), r.iterations(), r.reason().metStoppingRule(), r.status());
      fit.stopReason = r.reason();
      return fit;
    }
    Lbfgs.Result r = Lbfgs.minimize(
        (x, g) -> negLogMarginal(train, m, x, g),
        p0,
        null,
        null,
        new Lbfgs.Settings(options.iterations(), 1e-9, 1e-5, 10),
        progress);
    return of(train, m, d, r.x(), r.iterations(), r.converged(), r.status());
  }

  /** The model at parameter vector {@code p} (layout of {@link #fit}) conditioned on {@code train}. */
  static Ssgp at(RegressionData train, int m, int d, double[] p) {
    return of(train, m, d, p, 0, false, ITERATE);
  }

  /**
   * The model at parameter vector {@code p} (layout of {@link #fit}) conditioned on {@code train}, reporting
   * {@code status} and {@code reason}.
   */
  static Ssgp at(
      RegressionData train, int m, double[] p, String status, BoundMonitor.StopReason reason) {
    Ssgp s = of(train, m, train.d(), p, 0, reason.metStoppingRule(), status);
    s.stopReason = reason;
    return s;
  }

  /** The model at parameter vector {@code p} (layout of {@link #fit}). */
  private static Ssgp of(
      RegressionData train, int m, int d, double[] p, int iters, boolean conv, String status) {
    Hyperparameters h = SpectralBasis.unpack(p, m, d);
    double[] w = Arrays.copyOf(p, m * d);
    SsgpObjective.Stats st =
        SsgpObjective.stats(train, m, w, h.lengthscales, h.signalVariance(), h.noiseVariance());
    return new Ssgp(w, h, st, iters, conv, status);
  }

  /**
   * The SSGP posterior at fixed frequencies θ = vec(r) and hyperparameters (no optimisation).
   *
   * @throws NotPositiveDefiniteException if ΦΦᵀ + (mσₙ²/σ²) I is numerically singular
   */
  public static Ssgp condition(
      RegressionData train, SpectralFeatures f, double signalVariance, double noiseVariance) {
    SpectralBasis.requireTargets(train);
    if (f.d() != train.d()) {
      throw new IllegalArgumentException(
          f.d() + "-dimensional frequencies for " + train.d() + " inputs");
    }
    double[] ones = new double[f.d()];
    Arrays.fill(ones, 1.0);
    double[] w = SpectralBasis.scaled(f);
    SsgpObjective.Stats st =
        SsgpObjective.stats(train, f.m(), w, ones, signalVariance, noiseVariance);
    Hyperparameters h = new Hyperparameters(ones, signalVariance, noiseVariance);
    return new Ssgp(w, h, st, 0, true, CONDITIONED + " at fixed frequencies");
  }

  /**
   * The exact log marginal likelihood of the m-point model at fixed frequencies (Lázaro-Gredilla et al. 2010,
   * eq. 8): with A = ΦΦᵀ + (mσₙ²/σ²) I and Φ = Φ_θ(X) (2m × n),
   * log p(y) = −[yᵀy − yᵀΦᵀA⁻¹Φy]/(2σₙ²) − ½ log|A| + m log(mσₙ²/σ²) − (n/2) log(2πσₙ²),
   * i.e. log N(y | 0, (σ²/m) ΦᵀΦ + σₙ² I) by the Woodbury identity and the matrix determinant lemma.
   */
  public static double logMarginalLikelihood(
      RegressionData train, SpectralFeatures f, double signalVariance, double noiseVariance) {
    return condition(train, f, signalVariance, noiseVariance).logMarginalLikelihood();
  }

  /** Predictive mean and variance of y* (eq. 7 of Lázaro-Gredilla et al.): φ*ᵀA⁻¹Φy and σₙ²(1 + φ*ᵀA⁻¹φ*). */
  public PredictiveMoments predict(RegressionData test) {
    if (test.d() != hyp.lengthscales.length) {
      throw new IllegalArgumentException(
          "test rows have " + test.d() + " inputs, the model " + features.d());
    }
    int n = test.n();
    double[] mean = new double[n];
    double[] var = new double[n];
    double[] phi = new double[features.size()];
    double sn2 = hyp.noiseVariance();
    for (int i = 0; i < n; i++) {
      features.features(test.x(), i * test.d(), phi);
      mean[i] = SpectralBasis.dot(phi, alpha);
      double[] v = chol.solveLower(phi);
      var[i] = sn2 * (1 + SpectralBasis.dot(v, v));
    }
    return new PredictiveMoments(mean, var);
  }

  /** The fitted frequencies θ = vec(r), rᵢⱼ = ωᵢⱼ/(2πℓⱼ) (the paper's units, length-scales inside). */
  public SpectralFeatures features() {
    return features;
  }

  /** The fitted (or given) hyperparameters. */
  public Hyperparameters hyperparameters() {
    return hyp;
  }

  /** log p(y) at the fitted parameters (eq. 8 of Lázaro-Gredilla et al.). */
  public double logMarginalLikelihood() {
    return logMarginalLikelihood;
  }

  /** Posterior mean of the weights a, A⁻¹Φy (copy). */
  public double[] weightMean() {
    return alpha.clone();
  }

  /** Posterior covariance of the weights a, σₙ² A⁻¹ (a new 2m × 2m matrix). */
  public Matrix weightCovariance() {
    Matrix c = chol.inverse();
    c.scale(hyp.noiseVariance());
    return c;
  }

  /** L-BFGS iterations run. */
  public int iterations() {
    return iterations;
  }

  /** Whether L-BFGS met a stopping test (false at the iteration cap). */
  public boolean converged() {
    return converged;
  }

  /** L-BFGS's status. */
  public String status() {
    return status;
  }

  /**
   * Why the fit stopped: L-BFGS converged, reached its iteration cap or could not lower the objective
   * (NOT_STOPPED when no optimisation ran).
   */
  public BoundMonitor.StopReason stopReason() {
    if (stopReason != null) {
      return stopReason;
    }
    if (status.startsWith(NO_OPTIMISATION)
        || status.startsWith(CONDITIONED)
        || status.startsWith(ITERATE)) {
      return BoundMonitor.StopReason.NOT_STOPPED;
    }
    if (converged) {
      return BoundMonitor.StopReason.CONVERGED;
    }
    return status.startsWith(Lbfgs.Status.MAX_ITERATIONS.name())
        ? BoundMonitor.StopReason.ITERATION_CAP
        : BoundMonitor.StopReason.OPTIMIZER_FAILED;
  }

  @Override
  public String toString() {
    return "Ssgp[m=" + features.m() + ", " + hyp + ", log p(y)=" + logMarginalLikelihood + ", "
        + iterations + " iterations, " + status + "]";
  }

  /** −log p(y) at packed parameters p and its gradient into {@code grad} ({@link SsgpObjective#negLogMarginal}). */
  static double negLogMarginal(RegressionData data, int m, double[] p, double[] grad) {
    return SsgpObjective.negLogMarginal(data, m, p, grad);
  }
}
