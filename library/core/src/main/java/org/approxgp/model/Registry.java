package org.approxgp.model;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.approxgp.inference.Ep;
import org.approxgp.inference.LaplaceOptions;
import org.approxgp.inference.PowerEp;
import org.approxgp.inference.Qp;
import org.approxgp.inference.RelaxedEp;
import org.approxgp.inference.SiteLoop;
import org.approxgp.inference.SiteLoopOptions;
import org.approxgp.inference.VbOptions;
import org.approxgp.likelihood.Gaussian;
import org.approxgp.likelihood.Likelihood;
import org.approxgp.likelihood.NoisyStep;
import org.approxgp.likelihood.PoissonSquareLink;
import org.approxgp.likelihood.Probit;
import org.approxgp.sparse.BoundMonitor;
import org.approxgp.sparse.SparseModel;
import org.approxgp.sparse.SparseRegression;
import org.approxgp.sparse.StepSchedule;
import org.approxgp.sparse.SvbssgpOptions;

/**
 * The one place where names become objects: inference methods, likelihoods and sparse regression models by the
 * names the command line, the notebooks, the experiments and Spark use, each with its {@link Settings}, each value validated here and only here.
 * A refusal is a {@link SettingException} naming the setting, so that the command line can name its flag
 * ({@code --power}) and a notebook the setting ({@code power}).
 *
 * <pre>{@code
 * InferenceMethod rep = Registry.inference("rep", Settings.of("penalty", 10, "site-reading", "c"));
 * Likelihood lik = Registry.likelihood("noisy-step", Settings.of("epsilon", 0.1));
 * }</pre>
 *
 * <p>The typed constructors behind the names ({@link Methods#powerEp}, {@link Methods#relaxedEp}, the options
 * records of {@code inference}) stay available for settings the names do not cover (e.g. a sweep cap).
 */
public final class Registry {
  private Registry() {}

  private static final String NEGATIVE_SITES = "negative-sites";
  private static final String MAX_SWEEPS = "max-sweeps";
  private static final String GRADIENT = "gradient";
  private static final String EVIDENCE = "evidence";

  /**
   * A name's entry: the settings it takes, in the order the help lists them, and the factory that builds the object
   * from settings already checked to be among them (each factory validates each value once, naming the setting).
   */
  private record Entry<T>(List<String> settings, Function<Settings, T> factory) {}

  private static <T> Entry<T> entry(List<String> settings, Function<Settings, T> factory) {
    return new Entry<>(settings, factory);
  }

  /** Each inference method's name, its settings and its factory. */
  private static final Map<String, Entry<InferenceMethod>> INFERENCE = ordered(
      "ep", entry(List.of(NEGATIVE_SITES, MAX_SWEEPS, GRADIENT, EVIDENCE), Registry::ep),
      "qp", entry(List.of(NEGATIVE_SITES), Registry::qp),
      "laplace", entry(List.of(), s -> InferenceMethod.laplace(LaplaceOptions.defaults())),
      "vb", entry(List.of(), s -> InferenceMethod.vb(VbOptions.defaults())),
      "power-ep",
          entry(
              List.of("power", "power-ep-variant", NEGATIVE_SITES, MAX_SWEEPS, GRADIENT, EVIDENCE),
              Registry::powerEp),
      "rep",
          entry(
              List.of(
                  "penalty",
                  "site-reading",
                  "relaxation",
                  "penalty-form",
                  "relaxation-search",
                  "objective",
                  NEGATIVE_SITES,
                  MAX_SWEEPS,
                  GRADIENT,
                  EVIDENCE),
              Registry::relaxedEp));

  /** Each likelihood's name, its settings (required, for the two that have one) and its factory. */
  private static final Map<String, Entry<Likelihood>> LIKELIHOOD = ordered(
      "probit", entry(List.of(), s -> Probit.get()),
      "poisson-square", entry(List.of(), s -> PoissonSquareLink.get()),
      "noisy-step", entry(List.of("epsilon"), Registry::noisyStep),
      "gaussian", entry(List.of("noise-variance"), Registry::gaussian));

  /** Each sparse regression model's name and its settings ({@link SparseRegression#MODELS}). */
  private static final Map<String, List<String>> REGRESSION = ordered(
      "svbssgp",
          List.of(
              "features",
              "partitions",
              "minibatch",
              "gamma",
              "samples",
              "predictive-noise",
              "extrapolation",
              "step-initial",
              "step-tau",
              "step-kappa",
              "learning-rate",
              "stopping",
              "stop-window",
              "stop-tolerance",
              "stop-span",
              "iterations",
              "seed"),
      "dtc",
          List.of(
              "inducing",
              "initial-lengthscales",
              "minibatch",
              "stopping",
              "stop-window",
              "stop-tolerance",
              "stop-span",
              "iterations",
              "seed"),
      "pic",
          List.of(
              "inducing",
              "initial-lengthscales",
              "partitions",
              "stopping",
              "stop-window",
              "stop-tolerance",
              "stop-span",
              "iterations",
              "seed"),
      "ssgp", List.of("features", "frequencies", "extrapolation", "iterations", "seed"),
      "vssgp",
          List.of(
              "features",
              "minibatch",
              "frequencies",
              "frequency-variance",
              "extrapolation",
              "stopping",
              "stop-window",
              "stop-tolerance",
              "stop-span",
              "iterations",
              "seed"));

  /** Inference method names: ep, qp, laplace, vb, power-ep, rep. */
  public static List<String> inferenceNames() {
    return List.copyOf(INFERENCE.keySet());
  }

  /** Likelihood names: probit, poisson-square, noisy-step, gaussian. */
  public static List<String> likelihoodNames() {
    return List.copyOf(LIKELIHOOD.keySet());
  }

  /** Sparse regression model names: svbssgp, dtc, pic, ssgp, vssgp. */
  public static List<String> regressionNames() {
    return List.copyOf(REGRESSION.keySet());
  }

  /**
   * The settings inference method, likelihood or regression model {@code name} takes.
   *
   * @throws SettingException for an unknown name
   */
  public static List<String> settingsOf(String name) {
    List<String> s = INFERENCE.containsKey(name)
        ? INFERENCE.get(name).settings()
        : LIKELIHOOD.containsKey(name) ? LIKELIHOOD.get(name).settings() : REGRESSION.get(name);
    if (s == null) {
      throw new SettingException(
          "name",
          "unknown '" + name + "' (inference: " + String.join(", ", INFERENCE.keySet())
              + "; likelihood: " + String.join(", ", LIKELIHOOD.keySet()) + "; regression: "
              + String.join(", ", REGRESSION.keySet()) + ")");
    }
    return s;
  }

  /** {@link #regression(String, Settings)} at its defaults. */
  public static SparseRegression.Options regression(String name) {
    return regression(name, Settings.none());
  }

  /**
   * The sparse regression model called {@code name} with {@code settings} (unset ones at their defaults; those
   * that depend on the data — partitions, iterations, minibatch — are chosen where the data are known):
   * <ul>
   *   <li>{@code features} 2m, even, &ge; 2 (ssgp, vssgp, svbssgp; default {@value
   *       SparseRegression#DEFAULT_FEATURES}, for ssgp growing with the rows: {@link
   *       SparseRegression#defaultFeatures});
   *   <li>{@code inducing} M &ge; 1 (dtc, pic; default {@link SparseRegression#defaultInducing}: for pic {@value
   *       SparseRegression#DEFAULT_INDUCING}, for dtc growing with the data within a work budget);
   *   <li>{@code partitions} p &ge; 1 (svbssgp, pic);
   *   <li>{@code minibatch} rows &ge; 1 per step (vssgp, dtc) or per sampled partition (svbssgp), or "all" (full
   *       batch; whole partitions);
   *   <li>{@code gamma} γ ∈ [−1, 1] (svbssgp; default: chosen by leave-one-out, {@link
   *       SparseRegression#leaveOneOutGamma}) and {@code samples} r &ge; 1 (svbssgp; default 5, the paper's);
   *   <li>{@code predictive-noise} "local" (default) or "model" (svbssgp; {@link SparseRegression.PredictiveNoise});
   *   <li>{@code frequencies} "held-out" (default) or "learned" (ssgp, vssgp; {@link SparseRegression.Frequencies});
   *   <li>{@code extrapolation} "revert", "clamp" or "free" (ssgp, vssgp, svbssgp; default revert for ssgp and
   *       vssgp, free for svbssgp: {@link SparseRegression.Extrapolation});
   *   <li>{@code frequency-variance} s₀ &gt; 0, VSSGP's initial variance of each frequency under q(ω) in length-scale
   *       units (vssgp; default {@value org.approxgp.sparse.SparseRegression#VSSGP_FREQUENCY_VARIANCE});
   *   <li>{@code initial-lengthscales} "median" or "unit" (dtc, pic; default median for dtc, unit for pic: {@link
   *       SparseRegression.LengthscaleStart});
   *   <li>sVBSSGP's stochastic optimisation ({@link SparseRegression.SvbssgpSteps}): the natural-gradient step
   *       ρ_t = ρ₀/(1 + τ(t − 1))^κ by {@code step-initial} ρ₀ ∈ (0, 1], {@code step-tau} τ &ge; 0 and
   *       {@code step-kappa} κ &ge; 0 (defaults 0.5, 0.05, 0.4: {@link SparseRegression.SvbssgpSteps#NATURAL_STEP})
   *       and Adam's {@code learning-rate} &gt; 0 (0.03);
   *   <li>the stopping rule of a stochastic fit (svbssgp; dtc, pic and vssgp when not full batch;
   *       {@link BoundMonitor}): {@code stopping} "slope" (default: the bound's regression slope with its standard
   *       error, {@link BoundMonitor.Test#SLOPE}), "means" (Stan ADVI's windowed means, {@link
   *       BoundMonitor.Test#MEANS}) or "none" (every iteration to the cap), with {@code stop-window} W &ge; 2 and
   *       {@code stop-tolerance} &gt; 0 (defaults {@link BoundMonitor.Rule#defaults}: 50 and 0.05 nats per
   *       training row for slope, 20 and a relative 0.01 for means) and, for slope, {@code stop-span} in (0, 1), the
   *       fraction of the run its regression spans (default ½; svbssgp ⅔, {@link
   *       SparseRegression#SVBSSGP_STOPPING});
   *   <li>{@code iterations} cap &ge; 1 and {@code seed} (every model).
   * </ul>
   *
   * @throws SettingException naming the setting, for an unknown name, a setting the model does not take or a
   *     value out of range
   */
  public static SparseRegression.Options regression(String name, Settings settings) {
    List<String> takes = REGRESSION.get(name);
    if (takes == null) {
      throw new SettingException(
          "model",
          "unknown '" + name + "' (known: " + String.join(", ", REGRESSION.keySet()) + ")");
    }
    check(name, settings, takes, REGRESSION);
    SparseModel model = SparseModel.of(name);
    SparseRegression.Options d = SparseRegression.Options.defaults(model);
    java.util.OptionalInt features = settings.has("features")
        ? java.util.OptionalInt.of(integer(settings, "features", 0, 2))
        : d.features();
    if (features.isPresent() && features.getAsInt() % 2 != 0) {
      throw new SettingException(
          "features",
          "must be an even number >= 2 (2m basis functions), got " + features.getAsInt());
    }
    java.util.OptionalDouble gamma =
        settings.has("gamma") ? java.util.OptionalDouble.of(settings.number("gamma")) : d.gamma();
    try {
      if (gamma.isPresent()) {
        SvbssgpOptions.checkGamma(gamma.getAsDouble());
      }
    } catch (IllegalArgumentException e) {
      throw new SettingException("gamma", e.getMessage());
    }
    Long seed = settings.whole("seed");
    // minibatch "all": every row (full batch for vssgp and dtc, whole partitions for svbssgp)
    java.util.OptionalInt minibatch = "all".equals(settings.word("minibatch"))
        ? java.util.OptionalInt.of(Integer.MAX_VALUE)
        : optional(settings, "minibatch");
    SparseRegression.SvbssgpSteps steps = svbssgpSteps(settings, d.steps());
    BoundMonitor.Rule stopping = stopping(settings, d.stopping());
    return new SparseRegression.Options(
        model,
        features,
        optional(settings, "partitions"),
        optional(settings, "inducing"),
        optional(settings, "iterations"),
        minibatch,
        gamma,
        integer(settings, "samples", d.samples(), 1),
        predictiveNoise(settings.word("predictive-noise"), d.noise()),
        seed == null ? d.seed() : seed,
        frequencies(settings.word("frequencies"), d.frequencies()),
        steps,
        stopping,
        extrapolation(settings.word("extrapolation"), d.extrapolation()),
        lengthscaleStart(settings.word("initial-lengthscales"), d.start()),
        frequencyVariance(settings, d.frequencyVariance()));
  }

  /** VSSGP's {@code frequency-variance}: a positive finite number as set, else {@code d}. */
  private static java.util.OptionalDouble frequencyVariance(
      Settings settings, java.util.OptionalDouble d) {
    if (!settings.has("frequency-variance")) {
      return d;
    }
    double v = settings.number("frequency-variance");
    if (!(v > 0) || !Double.isFinite(v)) {
      throw new SettingException(
          "frequency-variance",
          "must be a positive number, got " + settings.word("frequency-variance"));
    }
    return java.util.OptionalDouble.of(v);
  }

  /** sVBSSGP's step schedule, Adam rate and stopping rule from {@code settings}, unset ones as {@code d}'s. */
  private static SparseRegression.SvbssgpSteps svbssgpSteps(
      Settings settings, SparseRegression.SvbssgpSteps d) {
    StepSchedule n = d.natural();
    double rho = settings.has("step-initial") ? settings.number("step-initial") : n.initial();
    if (!(rho > 0 && rho <= 1)) {
      throw new SettingException(
          "step-initial", "must be in (0, 1], got " + settings.word("step-initial"));
    }
    double tau = nonNegative(settings, "step-tau", n.tau());
    double kappa = nonNegative(settings, "step-kappa", n.kappa());
    double rate =
        settings.has("learning-rate") ? settings.number("learning-rate") : d.learningRate();
    if (!(rate > 0) || !Double.isFinite(rate)) {
      throw new SettingException(
          "learning-rate", "must be a positive number, got " + settings.word("learning-rate"));
    }
    return new SparseRegression.SvbssgpSteps(new StepSchedule(rho, tau, kappa), rate);
  }

  /**
   * The stopping rule of a stochastic fit from {@code settings}: {@code stopping} slope, means or none (null),
   * window and tolerance as set, else the test's defaults ({@link BoundMonitor.Rule#defaults}); unset, {@code d}.
   */
  private static BoundMonitor.Rule stopping(Settings settings, BoundMonitor.Rule d) {
    String stop = settings.word("stopping");
    Map<String, Optional<BoundMonitor.Test>> rules = ordered(
        "slope", Optional.of(BoundMonitor.Test.SLOPE),
        "means", Optional.of(BoundMonitor.Test.MEANS),
        "none", Optional.<BoundMonitor.Test>empty());
    Optional<BoundMonitor.Test> test = stop == null
        ? Optional.ofNullable(d == null ? null : d.test())
        : choice("stopping", stop, rules);
    if (test.isEmpty()) {
      for (String which : List.of("stop-window", "stop-tolerance", "stop-span")) {
        if (settings.has(which)) {
          throw new SettingException(which, "has no effect with stopping none");
        }
      }
      return null;
    }
    if (test.get() != BoundMonitor.Test.SLOPE && settings.has("stop-span")) {
      throw new SettingException("stop-span", "has no effect with stopping " + stop);
    }
    // the model's own default when its test is chosen (SVGP's slope rule differs from the
    // regressors')
    BoundMonitor.Rule rule = stop == null || (d != null && d.test() == test.get())
        ? d
        : BoundMonitor.Rule.defaults(test.get());
    int window = integer(settings, "stop-window", rule.window(), 2);
    double tolerance =
        settings.has("stop-tolerance") ? settings.number("stop-tolerance") : rule.tolerance();
    if (!(tolerance > 0) || !Double.isFinite(tolerance)) {
      throw new SettingException(
          "stop-tolerance", "must be a positive number, got " + settings.word("stop-tolerance"));
    }
    double span = settings.has("stop-span") ? settings.number("stop-span") : rule.span();
    if (!(span > 0 && span < 1)) {
      throw new SettingException(
          "stop-span", "must be a number in (0, 1), got " + settings.word("stop-span"));
    }
    return new BoundMonitor.Rule(test.get(), window, tolerance, span);
  }

  private static double nonNegative(Settings s, String key, double fallback) {
    double v = s.has(key) ? s.number(key) : fallback;
    if (!(v >= 0) || !Double.isFinite(v)) {
      throw new SettingException(key, "must be a number >= 0, got " + s.word(key));
    }
    return v;
  }

  /** A whole number &ge; {@code min}, or {@code fallback} when unset. */
  private static int integer(Settings s, String key, int fallback, int min) {
    Double v = s.number(key);
    if (v == null) {
      return fallback;
    }
    if (v != Math.rint(v) || v < min || v > Integer.MAX_VALUE) {
      throw new SettingException(key, "must be a whole number >= " + min + ", got " + s.word(key));
    }
    return v.intValue();
  }

  private static java.util.OptionalInt optional(Settings s, String key) {
    return s.has(key)
        ? java.util.OptionalInt.of(integer(s, key, 0, 1))
        : java.util.OptionalInt.empty();
  }

  /** {@link #inference(String, Settings)} at its defaults. */
  public static InferenceMethod inference(String name) {
    return inference(name, Settings.none());
  }

  /**
   * The inference method called {@code name} with {@code settings} (unset ones at their defaults):
   * <ul>
   *   <li>ep, qp — {@code negative-sites} keep|clip (default clip, as GPML); qp's hyperparameter gradient is the
   *       exact one of its objective ({@link Methods.QpGradientKind#IMPLICIT}); ep also takes {@code max-sweeps}
   *       and {@code gradient} exact|none (below);
   *   <li>laplace, vb — no settings;
   *   <li>power-ep — {@code power} u ∈ (0, 1] (default {@value Methods#DEFAULT_POWER}), {@code power-ep-variant}
   *       minka|appendix-c ({@link PowerEp.Variant}), {@code negative-sites} (default keep, Minka's EP as the
   *       Relaxed EP paper runs it);
   *   <li>rep — {@code penalty} c &gt; 0 (default {@value Methods#DEFAULT_PENALTY}), {@code site-reading} a|b|c,
   *       {@code relaxation} nonnegative|signed, {@code penalty-form} eq35|eq4, {@code relaxation-search}
   *       local|global ({@link Methods.RepReading} has the equations), {@code objective} clean|unnormalised|eq36
   *       (the line search's Q(b), {@link RelaxedEp.Objective}: default clean, the KL derived from eq. 5;
   *       unnormalised, eq. 4/5's KL of unnormalised densities; eq36, appendix B's eq. 36 as printed),
   *       {@code negative-sites} (default keep);
   *   <li>ep, power-ep, rep — {@code max-sweeps}, the site loop's sweep cap, a whole number &ge; 1 (default
   *       {@link SiteLoopOptions#defaults()}'s); {@code gradient}, the log-evidence gradient: ep's "exact"
   *       (R&amp;W eq. 5.27, the default), power-ep's and rep's "numerical" (central differences, the default), or
   *       "none" for every one of them (fits at fixed hyperparameters: no gradient is computed, and
   *       {@link org.approxgp.inference.Posterior#logEvidenceGradient()} is null); {@code evidence}
   *       required|optional (default required): optional, with {@code gradient} none, returns a proper posterior
   *       whose EP-form log evidence is undefined with {@link org.approxgp.inference.Posterior#logEvidence()} NaN
   *       instead of failing ({@link SiteLoopOptions#requireEvidence()}).
   * </ul>
   *
   * @throws SettingException naming the setting, for an unknown name, a setting the method does not take or a
   *     value out of range
   */
  public static InferenceMethod inference(String name, Settings settings) {
    Entry<InferenceMethod> e = INFERENCE.get(name);
    if (e == null) {
      throw new SettingException(
          "inference",
          "unknown '" + name + "' (known: " + String.join(", ", INFERENCE.keySet()) + ")");
    }
    check(name, settings, e.settings(), settingsOf(INFERENCE));
    return e.factory().apply(settings);
  }

  /**
   * An inference method on inducing points ({@link org.approxgp.inference.SparseSiteLoop}, Bui, Yan &amp; Turner's
   * Power-EP framework): the exact method's site rule and loop settings, what it is called in the sparse family and
   * its power α.
   *
   * @param name the sparse method's name: fitc-ep, sparse-qp or sparse-power-ep
   * @param rule the exact method's site rule ({@link org.approxgp.inference.MomentMatching} or {@link PowerEp})
   * @param loop the site loop's settings (gradient on for ep and power-ep unless {@code gradient} none; off for qp)
   * @param power α: 1 for ep and qp, u for power-ep
   * @param energyGradient whether the sparse energy's gradient holds at the rule's fixed point (ep, power-ep), so that
   *     hyperparameters and inducing inputs can be learned ({@link SparseGpModel#fit})
   */
  public record SparseMethod(
      String name,
      org.approxgp.inference.SiteUpdate<?> rule,
      SiteLoopOptions loop,
      double power,
      boolean energyGradient) {}

  /** The inference methods that have a sparse form in the site loop: ep, qp, power-ep (vb's is {@link #svgp}). */
  public static List<String> sparseInferenceNames() {
    return List.of("ep", "qp", "power-ep");
  }

  /** The settings of SVGP ({@link #svgp}), in the order the help lists them. */
  public static final List<String> SVGP_SETTINGS = List.of(
      "minibatch",
      "learning-rate",
      "natural-step",
      "iterations",
      "stopping",
      "stop-window",
      "stop-tolerance");

  /**
   * vb on inducing points: SVGP classification (Hensman, Matthews &amp; Ghahramani, AISTATS 2015;
   * {@link org.approxgp.inference.Svgp}, fitted by {@link SvgpModel}), with its optimiser's settings, unset ones at
   * {@link SvgpModel.Options#defaults()}:
   * <ul>
   *   <li>{@code minibatch} B &ge; 1 rows per Adam step (default {@value SvgpModel#DEFAULT_MINIBATCH}; B &ge; n
   *       steps on every row), or "all": the full batch by L-BFGS (deterministic);
   *   <li>{@code learning-rate} Adam's α &gt; 0 (default {@value SvgpModel#DEFAULT_LEARNING_RATE});
   *   <li>{@code natural-step} γ ∈ [0, 1]: natural-gradient steps for q(u), Adam for θ and Z (default {@value
   *       SvgpModel#DEFAULT_NATURAL_STEP}: Adam for q(u) too; {@link org.approxgp.inference.Svgp#naturalStep}),
   *       refused with "all";
   *   <li>{@code iterations} the cap &ge; 1 (default {@value SvgpModel#DEFAULT_ITERATIONS});
   *   <li>{@code stopping} slope|means|none, {@code stop-window}, {@code stop-tolerance}: the minibatch fit's
   *       stopping rule ({@link BoundMonitor}; default {@link SvgpModel#DEFAULT_STOPPING}: slope, 50, {@value
   *       SvgpModel#DEFAULT_STOP_TOLERANCE} nats per row, on evaluations on a fixed sample of rows), refused with
   *       "all".
   * </ul>
   * Whether θ and Z are learned and the seed are the caller's ({@link SvgpModel.Options#withLearning},
   * {@link SvgpModel.Options#withSeed}).
   *
   * @throws SettingException naming the setting, for a setting SVGP does not take or a value out of range
   */
  public static SvgpModel.Options svgp(Settings settings) {
    Map<String, List<String>> all = new LinkedHashMap<>(settingsOf(INFERENCE));
    all.put("svgp", SVGP_SETTINGS);
    check("svgp", settings, SVGP_SETTINGS, all);
    SvgpModel.Options d = SvgpModel.Options.defaults();
    boolean full = "all".equals(settings.word("minibatch"));
    int b = full ? SvgpModel.FULL_BATCH : integer(settings, "minibatch", d.minibatch(), 1);
    double rate =
        settings.has("learning-rate") ? settings.number("learning-rate") : d.learningRate();
    if (!(rate > 0) || !Double.isFinite(rate)) {
      throw new SettingException(
          "learning-rate", "must be a positive number, got " + settings.word("learning-rate"));
    }
    if (full && settings.has("learning-rate")) {
      throw new SettingException(
          "learning-rate", "has no effect with minibatch all (L-BFGS on the full batch)");
    }
    double natural =
        settings.has("natural-step") ? settings.number("natural-step") : d.naturalStep();
    if (!(natural >= 0 && natural <= 1)) {
      throw new SettingException(
          "natural-step",
          "must be in [0, 1] (0: Adam for q(u) too), got " + settings.word("natural-step"));
    }
    BoundMonitor.Rule stop = stopping(settings, d.stopping());
    if (full) {
      for (String s : List.of("natural-step", "stopping", "stop-window", "stop-tolerance")) {
        if (settings.has(s)) {
          throw new SettingException(
              s,
              "has no effect with minibatch all (L-BFGS on the full batch stops by its own tests)");
        }
      }
      stop = null;
    }
    return d.withMinibatch(b)
        .withLearningRate(rate)
        .withNaturalStep(full ? 0 : natural)
        .withIterations(integer(settings, "iterations", d.iterations(), 1))
        .withStopping(stop);
  }

  /**
   * The inference method called {@code name} on inducing points, with the same settings as {@link #inference}
   * except: {@code gradient} is exact|none for ep and power-ep alike (the sparse energy's gradient is analytic,
   * {@link org.approxgp.inference.SparseGradient}), and power-ep's {@code power-ep-variant} must be minka.
   *
   * @throws SettingException "inference" for a method without a sparse form (laplace, vb, rep) or an unknown name;
   *     "power-ep-variant" for appendix-c; otherwise naming the setting
   */
  public static SparseMethod sparseInference(String name, Settings settings) {
    Entry<InferenceMethod> e = INFERENCE.get(name);
    if (e == null || !sparseInferenceNames().contains(name)) {
      throw new SettingException(
          "inference",
          (e == null
                  ? "unknown '" + name + "'"
                  : name.equals("vb")
                      ? "vb on inducing points is SVGP, not a site loop (Registry.svgp)"
                      : name + " has no inducing-point form here")
              + " (with inducing points: " + String.join(", ", sparseInferenceNames())
              + "; vb as svgp)");
    }
    check(name, settings, e.settings(), settingsOf(INFERENCE));
    switch (name) {
      case "ep": {
        SiteLoopOptions base =
            Ep.Options.defaults().loop().withNegativeSites(negativeSites(settings, false));
        return new SparseMethod(
            "fitc-ep",
            Ep.Options.defaults().siteUpdate(),
            loop(settings, base, "exact"),
            1.0,
            true);
      }
      case "qp": {
        Ep.Options o =
            Qp.options().withLoop(l -> l.withNegativeSites(negativeSites(settings, false)));
        return new SparseMethod(
            "sparse-qp", Qp.siteUpdate(o), o.loop().withGradient(false), 1.0, false);
      }
      default: {
        if (powerEpVariant(settings.word("power-ep-variant")) != PowerEp.Variant.MINKA) {
          throw new SettingException(
              "power-ep-variant",
              "appendix-c has no inducing-point form (it removes the whole site; only minka's fractional"
                  + " cavity does)");
        }
        double u = power(settings);
        SiteLoopOptions base =
            SiteLoopOptions.defaults().withNegativeSites(negativeSites(settings, true));
        return new SparseMethod(
            "sparse-power-ep", PowerEp.of(u), loop(settings, base, "exact"), u, true);
      }
    }
  }

  private static InferenceMethod ep(Settings settings) {
    Ep.Options o =
        Ep.Options.defaults().withLoop(l -> l.withNegativeSites(negativeSites(settings, false)));
    return InferenceMethod.ep(o.withLoop(loop(settings, o.loop(), "exact")));
  }

  private static InferenceMethod qp(Settings settings) {
    return Methods.qp(
        Qp.options().withLoop(l -> l.withNegativeSites(negativeSites(settings, false))),
        Methods.QpGradientKind.IMPLICIT);
  }

  private static InferenceMethod powerEp(Settings settings) {
    return Methods.powerEp(
        power(settings),
        powerEpVariant(settings.word("power-ep-variant")),
        loop(
            settings,
            SiteLoopOptions.defaults().withNegativeSites(negativeSites(settings, true)),
            "numerical"),
        numericalGradient(settings));
  }

  private static InferenceMethod relaxedEp(Settings settings) {
    return Methods.relaxedEp(
        new Methods.RepReading(
                settings.word("site-reading"),
                settings.word("relaxation"),
                settings.word("penalty-form"),
                settings.word("relaxation-search"))
            .rule(penalty(settings), objective(settings.word("objective"))),
        loop(
            settings,
            SiteLoopOptions.defaults().withNegativeSites(negativeSites(settings, true)),
            "numerical"),
        numericalGradient(settings));
  }

  /** {@link #likelihood(String, Settings)} without settings (probit, poisson-square). */
  public static Likelihood likelihood(String name) {
    return likelihood(name, Settings.none());
  }

  /**
   * The likelihood called {@code name}: probit, poisson-square (counts, rate f²), noisy-step with its label-flip
   * probability {@code epsilon} ∈ (0, 0.5) (required), gaussian with its {@code noise-variance} σ² &gt; 0
   * (required).
   *
   * @throws SettingException naming the setting, for an unknown name, a setting it does not take, a missing
   *     required one or a value out of range
   */
  public static Likelihood likelihood(String name, Settings settings) {
    Entry<Likelihood> e = LIKELIHOOD.get(name);
    if (e == null) {
      throw new SettingException(
          "likelihood",
          "unknown '" + name + "' (known: " + String.join(", ", LIKELIHOOD.keySet()) + ")");
    }
    check(name, settings, e.settings(), settingsOf(LIKELIHOOD));
    return e.factory().apply(settings);
  }

  private static Likelihood noisyStep(Settings settings) {
    double e =
        required(settings, "epsilon", "noisy-step", "the label-flip probability, in (0, 0.5)");
    if (!(e > 0 && e < 0.5)) {
      throw new SettingException("epsilon", "must be in (0, 0.5), got " + e);
    }
    return NoisyStep.of(e);
  }

  private static Likelihood gaussian(Settings settings) {
    double s2 = required(settings, "noise-variance", "gaussian", "the noise variance, > 0");
    if (!(s2 > 0 && s2 < Double.POSITIVE_INFINITY)) {
      throw new SettingException("noise-variance", "must be positive and finite, got " + s2);
    }
    return Gaussian.of(s2);
  }

  /** Each entry's settings, by name. */
  private static Map<String, List<String>> settingsOf(Map<String, ? extends Entry<?>> entries) {
    Map<String, List<String>> m = new LinkedHashMap<>();
    entries.forEach((k, v) -> m.put(k, v.settings()));
    return m;
  }

  /** Refuses a setting {@code name} does not take, saying which entries take it. */
  private static void check(
      String name, Settings settings, List<String> takes, Map<String, List<String>> all) {
    for (String s : settings.names()) {
      if (takes.contains(s)) {
        continue;
      }
      List<String> owners = all.entrySet().stream()
          .filter(e -> e.getValue().contains(s))
          .map(Map.Entry::getKey)
          .toList();
      throw new SettingException(
          s,
          owners.isEmpty()
              ? "is not a setting of " + name
                  + (takes.isEmpty()
                      ? " (it takes none)"
                      : " (its settings: " + String.join(", ", takes) + ")")
              : "applies to " + String.join(", ", owners) + " only, not to " + name);
    }
  }

  private static double required(Settings s, String key, String name, String what) {
    Double v = s.number(key);
    if (v == null) {
      throw new SettingException(key, "is required by " + name + " (" + what + ")");
    }
    return v;
  }

  private static double power(Settings s) {
    Double u = s.number("power");
    if (u == null) {
      return Methods.DEFAULT_POWER;
    }
    if (!(u > 0 && u <= 1)) {
      throw new SettingException("power", "must be in (0, 1], got " + u);
    }
    return u;
  }

  private static double penalty(Settings s) {
    // checked once, where the rule is built (RepReading.rule, RelaxedEp.checkPenalty)
    Double c = s.number("penalty");
    return c == null ? Methods.DEFAULT_PENALTY : c;
  }

  /**
   * {@code loop} with the sweep cap {@code max-sweeps} (when set) and without the loop's own gradient when
   * {@code gradient} is "none".
   */
  private static SiteLoopOptions loop(Settings s, SiteLoopOptions loop, String ownGradient) {
    SiteLoopOptions o =
        s.has(MAX_SWEEPS) ? loop.withMaxSweeps(integer(s, MAX_SWEEPS, loop.maxSweeps(), 1)) : loop;
    boolean noGradient = gradientWord(s, ownGradient).equals("none");
    o = noGradient ? o.withGradient(false) : o;
    String e = s.word(EVIDENCE);
    if (e == null
        || choice(EVIDENCE, e, Registry.<Boolean>ordered("required", true, "optional", false))) {
      return o;
    }
    if (!noGradient) {
      throw new SettingException(
          EVIDENCE, "optional needs gradient none (a gradient needs the evidence)");
    }
    return o.withRequireEvidence(false);
  }

  /** Whether power-ep's or rep's evidence gradient is by central differences ("numerical") or not computed ("none"). */
  private static boolean numericalGradient(Settings s) {
    return gradientWord(s, "numerical").equals("numerical");
  }

  /** The {@code gradient} word: {@code own} (the method's kind, its default) or "none". */
  private static String gradientWord(Settings s, String own) {
    String w = s.word(GRADIENT);
    return w == null ? own : choice(GRADIENT, w, ordered(own, own, "none", "none"));
  }

  /** keep|clip; unset = keep for Power EP and Relaxed EP (Minka's EP, as their paper), clip for EP and QP. */
  private static SiteLoop.NegativeSitePrecision negativeSites(Settings s, boolean keepByDefault) {
    String w = s.word(NEGATIVE_SITES);
    if (w == null) {
      return keepByDefault
          ? SiteLoop.NegativeSitePrecision.KEEP
          : Ep.Options.defaults().loop().negativeSites();
    }
    return choice(
        NEGATIVE_SITES,
        w,
        ordered(
            "keep",
            SiteLoop.NegativeSitePrecision.KEEP,
            "clip",
            SiteLoop.NegativeSitePrecision.CLIP));
  }

  static SparseRegression.PredictiveNoise predictiveNoise(
      String w, SparseRegression.PredictiveNoise fallback) {
    return w == null
        ? fallback
        : choice(
            "predictive-noise",
            w,
            ordered(
                "local",
                SparseRegression.PredictiveNoise.LOCAL,
                "model",
                SparseRegression.PredictiveNoise.MODEL));
  }

  static SparseRegression.Frequencies frequencies(String w, SparseRegression.Frequencies fallback) {
    return w == null
        ? fallback
        : choice(
            "frequencies",
            w,
            ordered(
                "held-out",
                SparseRegression.Frequencies.HELD_OUT,
                "learned",
                SparseRegression.Frequencies.LEARNED));
  }

  static SparseRegression.Extrapolation extrapolation(
      String w, SparseRegression.Extrapolation fallback) {
    return w == null
        ? fallback
        : choice(
            "extrapolation",
            w,
            ordered(
                "revert",
                SparseRegression.Extrapolation.REVERT,
                "clamp",
                SparseRegression.Extrapolation.CLAMP,
                "free",
                SparseRegression.Extrapolation.FREE));
  }

  static Optional<SparseRegression.LengthscaleStart> lengthscaleStart(
      String w, Optional<SparseRegression.LengthscaleStart> fallback) {
    return w == null
        ? fallback
        : Optional.of(choice(
            "initial-lengthscales",
            w,
            ordered(
                "median",
                SparseRegression.LengthscaleStart.MEDIAN,
                "unit",
                SparseRegression.LengthscaleStart.UNIT)));
  }

  static PowerEp.Variant powerEpVariant(String w) {
    return w == null
        ? PowerEp.Variant.MINKA
        : choice(
            "power-ep-variant",
            w,
            ordered("minka", PowerEp.Variant.MINKA, "appendix-c", PowerEp.Variant.APPENDIX_C));
  }

  static RelaxedEp.SiteReading siteReading(String w) {
    return w == null
        ? RelaxedEp.SiteReading.B
        : choice(
            "site-reading",
            w,
            ordered(
                "a",
                RelaxedEp.SiteReading.A,
                "b",
                RelaxedEp.SiteReading.B,
                "c",
                RelaxedEp.SiteReading.C));
  }

  static RelaxedEp.Relaxation relaxation(String w) {
    return w == null
        ? RelaxedEp.DEFAULT_RELAXATION
        : choice(
            "relaxation",
            w,
            ordered(
                "nonnegative",
                RelaxedEp.Relaxation.NONNEGATIVE,
                "signed",
                RelaxedEp.Relaxation.SIGNED));
  }

  /** The line-search objective by name: clean (default), unnormalised or eq36 ({@link RelaxedEp.Objective}). */
  static RelaxedEp.Objective objective(String w) {
    return w == null
        ? RelaxedEp.Objective.CLEAN
        : choice(
            "objective",
            w,
            ordered(
                "clean",
                RelaxedEp.Objective.CLEAN,
                "unnormalised",
                RelaxedEp.Objective.CLEAN_UNNORMALISED,
                "eq36",
                RelaxedEp.Objective.EQ36));
  }

  static RelaxedEp.PenaltyForm penaltyForm(String w) {
    return w == null
        ? RelaxedEp.PenaltyForm.EQ35
        : choice(
            "penalty-form",
            w,
            ordered("eq35", RelaxedEp.PenaltyForm.EQ35, "eq4", RelaxedEp.PenaltyForm.EQ4));
  }

  static RelaxedEp.Search search(String w) {
    return w == null
        ? RelaxedEp.Search.LOCAL
        : choice(
            "relaxation-search",
            w,
            ordered("local", RelaxedEp.Search.LOCAL, "global", RelaxedEp.Search.GLOBAL));
  }

  private static <T> T choice(String setting, String word, Map<String, T> values) {
    T v = values.get(word.toLowerCase(Locale.ROOT));
    if (v == null) {
      throw new SettingException(
          setting,
          "must be "
              + values.keySet().stream()
                  .collect(Collectors.joining(", "))
                  .replaceFirst(", ([^,]*)$", " or $1")
              + ", got '" + word + "'");
    }
    return v;
  }

  @SuppressWarnings("unchecked")
  private static <T> Map<String, T> ordered(Object... kv) {
    Map<String, T> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], (T) kv[i + 1]);
    }
    return java.util.Collections.unmodifiableMap(m);
  }
}
