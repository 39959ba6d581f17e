package org.approxgp.sparse;

import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * The settings of an sVBSSGP fit ({@link Svbssgp}): {@link #defaults()} and one wither per setting; defaults follow the paper's AIRLINE settings where it
 * gives them (2m = 40, γ = 0, r = 5, §5) and are stated on each wither otherwise. An empty optional takes the
 * value from the data (stated on each component).
 *
 * @param m number of spectral frequencies (2m basis functions)
 * @param schedule the iteration cap ({@link Svbssgp#fit} stops earlier under the stopping rule), a = partitions drawn
 *     (uniformly, with replacement) per iteration as its batch (empty: every partition once per iteration), the
 *     Robbins–Monro schedule ρ_t of the natural-gradient steps of q(α) as its step, the seed of every random
 *     draw (same seed, same fit and predictions), and the stopping rule on the smoothed bound
 *     ({@link BoundMonitor}; empty: run to the cap)
 * @param minibatch B, rows drawn without replacement from each drawn partition (empty: all its rows)
 * @param gradientSamples b, samples z ~ N(0, I) per iteration (Appendix G)
 * @param gamma γ ∈ [−1, 1] of the test conditional (Proposition 1)
 * @param predictiveSamples r, samples of α for the predictive mean and variance (§4.2)
 * @param learningRate Adam step size of the hyperparameters (decayed by ρ_t/ρ₀)
 * @param learnHyperparameters whether σ_n², σ_s² and the prior length-scales ℓ are learned by the bound
 * @param noiseVariance initial σ_n² (empty: from the data, {@link Svbssgp} class comment, "Initialisation")
 * @param signalVariance initial σ_s² (empty: the sample variance of y)
 * @param lengthscales initial ℓ of the frequency prior Θ, one per input (empty: each input's standard deviation
 *     times the median heuristic's factor, {@link Svbssgp} class comment)
 */
public record SvbssgpOptions(
    int m,
    StochasticSchedule schedule,
    OptionalInt minibatch,
    int gradientSamples,
    double gamma,
    int predictiveSamples,
    double learningRate,
    boolean learnHyperparameters,
    OptionalDouble noiseVariance,
    OptionalDouble signalVariance,
    Optional<double[]> lengthscales) {

  public SvbssgpOptions {
    check(m, schedule, minibatch, gradientSamples, gamma, predictiveSamples, learningRate);
    checkInitial(noiseVariance, signalVariance, lengthscales);
    lengthscales = lengthscales.map(double[]::clone);
  }

  /** ℓ of the frequency prior (a copy), or empty for the default. */
  @Override
  public Optional<double[]> lengthscales() {
    return lengthscales.map(double[]::clone);
  }

  /** The default natural-gradient schedule ρ_t = 0.5/(1 + 0.05(t − 1))^0.6. */
  public static final StepSchedule DEFAULT_NATURAL_STEP = new StepSchedule(0.5, 0.05, 0.6);

  /** The default stopping rule: every stochastic fit's, {@link BoundMonitor.Rule#DEFAULT}. */
  public static final BoundMonitor.Rule DEFAULT_STOPPING = BoundMonitor.Rule.DEFAULT;

  /**
   * The defaults: m = 20 (the paper's 2m = 40), a = 10 partitions per iteration, all rows of each, b = 1
   * z-sample, at most 5000 iterations (the family's cap of a stochastic fit), γ = 0, r = 5, seed 0 (as every sparse
   * model's), Adam step 0.03, hyperparameters learned from data-driven initial values, ρ_t =
   * {@link #DEFAULT_NATURAL_STEP}, stopping by {@link #DEFAULT_STOPPING}.
   */
  public static SvbssgpOptions defaults() {
    return new SvbssgpOptions(
        20,
        StochasticSchedule.of(10, 5000, DEFAULT_NATURAL_STEP, 0).withStopping(DEFAULT_STOPPING),
        OptionalInt.empty(),
        1,
        0,
        5,
        0.03,
        true,
        OptionalDouble.empty(),
        OptionalDouble.empty(),
        Optional.empty());
  }

  /** Frequencies m (2m features); default 20 (the paper's 2m = 40). */
  public SvbssgpOptions withM(int v) {
    return new SvbssgpOptions(
        v,
        schedule,
        minibatch,
        gradientSamples,
        gamma,
        predictiveSamples,
        learningRate,
        learnHyperparameters,
        noiseVariance,
        signalVariance,
        lengthscales);
  }

  /** The iterations, partitions per iteration, step schedule ρ_t, seed and stopping rule at once. */
  public SvbssgpOptions withSchedule(StochasticSchedule v) {
    return new SvbssgpOptions(
        m,
        v,
        minibatch,
        gradientSamples,
        gamma,
        predictiveSamples,
        learningRate,
        learnHyperparameters,
        noiseVariance,
        signalVariance,
        lengthscales);
  }

  /** Partitions per iteration a; default 10 (the paper does not state it). */
  public SvbssgpOptions withPartitionsPerIteration(int v) {
    return withSchedule(schedule.withBatch(v));
  }

  /** Every partition once per iteration (a = p, no draw of partitions). */
  public SvbssgpOptions withEveryPartition() {
    return withSchedule(schedule.withFullBatch());
  }

  /** Iteration cap; default 1000 ({@link Svbssgp#fit} stops earlier when the bound has converged). */
  public SvbssgpOptions withIterations(int v) {
    return withSchedule(schedule.withIterations(v));
  }

  /** The natural-gradient step schedule ρ_t of q(α); default {@link #DEFAULT_NATURAL_STEP}. */
  public SvbssgpOptions withNaturalStep(StepSchedule v) {
    return withSchedule(schedule.withStep(v));
  }

  /** Seed; default 1. */
  public SvbssgpOptions withSeed(long v) {
    return withSchedule(schedule.withSeed(v));
  }

  /** The stopping rule on the smoothed bound; default {@link #DEFAULT_STOPPING}. */
  public SvbssgpOptions withStopping(BoundMonitor.Rule v) {
    return withSchedule(schedule.withStopping(v));
  }

  /** Run every iteration up to the cap. */
  public SvbssgpOptions withoutStopping() {
    return withSchedule(schedule.withoutStopping());
  }

  /** Rows per drawn partition B (≥ 1; at least a partition's size reads all of it); default all rows. */
  public SvbssgpOptions withMinibatch(int v) {
    return new SvbssgpOptions(
        m,
        schedule,
        OptionalInt.of(v),
        gradientSamples,
        gamma,
        predictiveSamples,
        learningRate,
        learnHyperparameters,
        noiseVariance,
        signalVariance,
        lengthscales);
  }

  /** All rows of each drawn partition (the paper's Theorem 1); the default. */
  public SvbssgpOptions withWholePartitions() {
    return new SvbssgpOptions(
        m,
        schedule,
        OptionalInt.empty(),
        gradientSamples,
        gamma,
        predictiveSamples,
        learningRate,
        learnHyperparameters,
        noiseVariance,
        signalVariance,
        lengthscales);
  }

  /** z samples per iteration b; default 1. */
  public SvbssgpOptions withGradientSamples(int v) {
    return new SvbssgpOptions(
        m,
        schedule,
        minibatch,
        v,
        gamma,
        predictiveSamples,
        learningRate,
        learnHyperparameters,
        noiseVariance,
        signalVariance,
        lengthscales);
  }

  /** γ of Proposition 1; default 0 (the paper's best, §5). */
  public SvbssgpOptions withGamma(double v) {
    return new SvbssgpOptions(
        m,
        schedule,
        minibatch,
        gradientSamples,
        v,
        predictiveSamples,
        learningRate,
        learnHyperparameters,
        noiseVariance,
        signalVariance,
        lengthscales);
  }

  /** r predictive samples; default 5 (the paper's AIRLINE setting). */
  public SvbssgpOptions withPredictiveSamples(int v) {
    return new SvbssgpOptions(
        m,
        schedule,
        minibatch,
        gradientSamples,
        gamma,
        v,
        learningRate,
        learnHyperparameters,
        noiseVariance,
        signalVariance,
        lengthscales);
  }

  /** Adam step size; default 0.03. */
  public SvbssgpOptions withLearningRate(double v) {
    return new SvbssgpOptions(
        m,
        schedule,
        minibatch,
        gradientSamples,
        gamma,
        predictiveSamples,
        v,
        learnHyperparameters,
        noiseVariance,
        signalVariance,
        lengthscales);
  }

  /** Learn σ_n², σ_s² and ℓ by the bound; default true. */
  public SvbssgpOptions withLearnHyperparameters(boolean v) {
    return new SvbssgpOptions(
        m,
        schedule,
        minibatch,
        gradientSamples,
        gamma,
        predictiveSamples,
        learningRate,
        v,
        noiseVariance,
        signalVariance,
        lengthscales);
  }

  /** Initial σ_n²; default from the data ({@link Svbssgp} class comment, "Initialisation"). */
  public SvbssgpOptions withNoiseVariance(double v) {
    return new SvbssgpOptions(
        m,
        schedule,
        minibatch,
        gradientSamples,
        gamma,
        predictiveSamples,
        learningRate,
        learnHyperparameters,
        OptionalDouble.of(v),
        signalVariance,
        lengthscales);
  }

  /** Initial σ_s²; default var(y). */
  public SvbssgpOptions withSignalVariance(double v) {
    return new SvbssgpOptions(
        m,
        schedule,
        minibatch,
        gradientSamples,
        gamma,
        predictiveSamples,
        learningRate,
        learnHyperparameters,
        noiseVariance,
        OptionalDouble.of(v),
        lengthscales);
  }

  /** Initial prior length-scales ℓ (Θ); default from the data ({@link Svbssgp} class comment, "Initialisation"). */
  public SvbssgpOptions withLengthscales(double... v) {
    return new SvbssgpOptions(
        m,
        schedule,
        minibatch,
        gradientSamples,
        gamma,
        predictiveSamples,
        learningRate,
        learnHyperparameters,
        noiseVariance,
        signalVariance,
        Optional.of(v));
  }

  /**
   * Rejects γ outside [−1, 1], the range of the paper's Proposition 1 (|γ| ≤ 1): the one check of γ in the project
   * (the registry and {@link SparseRegression.Options} call it).
   */
  public static double checkGamma(double gamma) {
    if (!(Math.abs(gamma) <= 1)) {
      throw new IllegalArgumentException(
          "must be in [-1, 1] (Proposition 1: |γ| <= 1), got " + gamma);
    }
    return gamma;
  }

  /** The settings of the options other than the initial values, validated. */
  private static void check(
      int m,
      StochasticSchedule schedule,
      OptionalInt minibatch,
      int gradientSamples,
      double gamma,
      int predictiveSamples,
      double learningRate) {
    if (schedule == null || minibatch == null) {
      throw new IllegalArgumentException("schedule and minibatch must not be null (use empty)");
    }
    if (m < 1
        || (minibatch.isPresent() && minibatch.getAsInt() < 1)
        || gradientSamples < 1
        || predictiveSamples < 1) {
      throw new IllegalArgumentException(
          "need m, minibatch, gradientSamples, predictiveSamples >= 1");
    }
    checkGamma(gamma);
    if (!(learningRate > 0) || !Double.isFinite(learningRate)) {
      throw new IllegalArgumentException("learning rate must be positive, got " + learningRate);
    }
  }

  /** The initial values of the options, validated: positive and finite where given. */
  private static void checkInitial(
      OptionalDouble noiseVariance,
      OptionalDouble signalVariance,
      Optional<double[]> lengthscales) {
    if (noiseVariance == null || signalVariance == null || lengthscales == null) {
      throw new IllegalArgumentException("the initial values must not be null (use empty)");
    }
    checkPositive("noise variance", noiseVariance);
    checkPositive("signal variance", signalVariance);
    for (double l : lengthscales.orElse(new double[0])) {
      if (!(l > 0) || !Double.isFinite(l)) {
        throw new IllegalArgumentException("length-scales must be positive, got " + l);
      }
    }
  }

  private static void checkPositive(String what, OptionalDouble v) {
    if (v.isPresent() && !(v.getAsDouble() > 0 && Double.isFinite(v.getAsDouble()))) {
      throw new IllegalArgumentException(what + " must be positive, got " + v.getAsDouble());
    }
  }
}
