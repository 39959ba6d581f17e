package org.approxgp.reliability;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.approxgp.data.Dataset;
import org.approxgp.data.Datasets;
import org.approxgp.data.RegressionData;
import org.approxgp.data.Standardizer;
import org.approxgp.data.TargetKind;
import org.approxgp.inference.InferenceException;
import org.approxgp.inference.Posterior;
import org.approxgp.inference.Prediction;
import org.approxgp.inference.PredictiveMoments;
import org.approxgp.inference.Problem;
import org.approxgp.inference.RelaxedEp;
import org.approxgp.inference.Sites;
import org.approxgp.kernel.Kernel;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.likelihood.Gaussian;
import org.approxgp.likelihood.Likelihood;
import org.approxgp.likelihood.NoisyStep;
import org.approxgp.likelihood.PoissonSquareLink;
import org.approxgp.likelihood.Probit;
import org.approxgp.model.InferenceMethod;
import org.approxgp.model.Methods;
import org.approxgp.model.Registry;
import org.approxgp.sparse.Dtc;
import org.approxgp.sparse.InducingOptions;
import org.approxgp.sparse.KMeans;
import org.approxgp.sparse.Pic;
import org.approxgp.sparse.Ssgp;
import org.approxgp.sparse.StepSchedule;
import org.approxgp.sparse.StochasticSchedule;
import org.approxgp.sparse.Svbssgp;
import org.approxgp.sparse.SvbssgpOptions;
import org.approxgp.sparse.SvbssgpTraining;
import org.approxgp.sparse.Vssgp;
import org.approxgp.special.NumericalException;

/**
 * Randomized fixed-θ fits: every method of {@link Methods#names()} on every likelihood,
 * on small seeded subsamples of real data sets plus duplicated rows and near-separable data, at
 * kernel hyperparameters drawn uniformly in log space. Each fit must end in one of three ways:
 * <ol>
 *   <li>a {@link Posterior} whose diagnostics say converged,
 *   <li>a {@link Posterior} whose diagnostics say <em>not</em> converged (reported non-convergence),
 *   <li>an {@link InferenceException} with diagnostics (a typed, reported failure);
 * </ol>
 * and for (1) and (2) every output must be finite (log evidence, its gradient, posterior mean,
 * variance, α, site parameters, latent predictions at test points, predictive log densities of the
 * test targets) with variances ≥ 0. A non-finite output and any other exception are counted as
 * failures of the library.
 *
 * <p><b>Fit k of a likelihood</b> is fully determined by (likelihood, k): the data variant is
 * {@code k mod 5}, and a commons-rng generator seeded from (likelihood, k) draws the subsample, the
 * kernel and θ. Every method sees the same problems, and results do not depend on thread count or
 * scheduling. The draws:
 * <ul>
 *   <li>training rows: n uniform in [40, 64] distinct rows of the variant (for the duplicated variant
 *       ⌈n/2⌉ distinct rows, each twice); 10 other rows are the test points;
 *   <li>kernel: SE-iso on all features or SE-ARD on min(d, 8) randomly chosen features (with equal
 *       probability; ARD is restricted so that QP's numerical gradient, 2·dim θ extra inferences per
 *       fit, stays cheap);
 *   <li>θ: every log length-scale and the log signal variance uniform in [−5, 8];
 *   <li>Gaussian: log noise variance uniform in [−5, 2] (a likelihood parameter, not in θ);
 *       Poisson: prior mean √(mean training count), as a user would choose; probit: prior mean 0;
 *       noisy step (the probit's data): ε log-uniform in [1e-6, 0.49], prior mean 0.
 * </ul>
 *
 * <p><b>The full sweep</b> ({@link #allCells()}, {@code bin/bench reliability}) adds the method settings and the
 * sparse models: Power EP's u and Relaxed EP's c, objective and site reading are drawn per (method, likelihood, k)
 * ({@link #swept}); the five sparse regressors run a few iterations from extreme starting hyperparameters on the
 * Gaussian likelihood's data ({@link #sparseSpec}, {@link #runSparse}); every fit runs on a thread of its own
 * with a wall-clock cap (default 60 s, outcome {@link Outcome#OVER_CAP}), and the report adds a summary per
 * (method, likelihood) with the kinds of typed failure and their explanations, and counts per setting.
 */
public final class ReliabilitySweep {

  /** How one fit ended. */
  public enum Outcome {
    CONVERGED,
    NOT_CONVERGED,
    TYPED_FAILURE,
    NON_FINITE,
    UNCAUGHT,
    OVER_CAP
  }

  /** The likelihoods of the randomized sweep ({@code RandomizedFitsTest}), by name. */
  public static final List<String> LIKELIHOODS = List.of("probit", "poisson-square", "gaussian");

  /**
   * Every likelihood of the full sweep: {@link #LIKELIHOODS} and the noisy step, on the probit's data
   * (±1 labels) with ε log-uniform in [{@value #EPS_MIN}, {@value #EPS_MAX}].
   */
  public static final List<String> ALL_LIKELIHOODS =
      List.of("probit", "poisson-square", "gaussian", "noisy-step");

  /** The sparse regressors, swept on the Gaussian likelihood's data from extreme starting hyperparameters. */
  public static final List<String> SPARSE_MODELS =
      List.of("ssgp", "vssgp", "svbssgp", "dtc", "pic");

  static final double EPS_MIN = 1e-6;
  static final double EPS_MAX = 0.49;
  /** Power EP's power u is log-uniform in [{@value}, 1]. */
  static final double POWER_MIN = 1e-3;
  /** Relaxed EP's penalty c is log-uniform in [{@value #PENALTY_MIN}, {@value #PENALTY_MAX}]. */
  static final double PENALTY_MIN = 1e-3;

  static final double PENALTY_MAX = 1e3;
  /** Sparse models' starting length-scales are log-uniform in [1e-3, 1e3], σ² and σₙ² in [1e-4, 1e4]. */
  static final double SPARSE_LOG10_ELL = 3;

  static final double SPARSE_LOG10_VAR = 4;
  /** Iterations of every sparse fit ("few"). */
  static final int SPARSE_ITERATIONS = 15;

  /** One (method, likelihood) cell of the sweep. */
  public record CellId(String method, String likelihood) {}

  /**
   * Every cell of {@code bin/bench reliability}: each method of {@link Methods#names()} on each of
   * {@link #ALL_LIKELIHOODS}, then each of {@link #SPARSE_MODELS} on "gaussian".
   */
  public static List<CellId> allCells() {
    List<CellId> c = new ArrayList<>();
    for (String m : Registry.inferenceNames()) {
      for (String l : ALL_LIKELIHOODS) {
        c.add(new CellId(m, l));
      }
    }
    for (String m : SPARSE_MODELS) {
      c.add(new CellId(m, "gaussian"));
    }
    return List.copyOf(c);
  }

  /** Data variants per likelihood; fit k uses variant k mod {@value}. */
  public static final int VARIANTS = 5;

  static final double LOG_THETA_MIN = -5;
  static final double LOG_THETA_MAX = 8;
  static final int N_MIN = 40;
  static final int N_MAX = 64;
  static final int N_TEST = 10;
  static final int ARD_MAX_FEATURES = 8;

  /**
   * A data variant: standardised features and a target valid for the likelihood.
   *
   * @param name table label
   * @param x standardised features (all rows)
   * @param y targets
   * @param duplicated whether training rows are each used twice
   * @param features feature names
   */
  public record Variant(
      String name, double[][] x, double[] y, boolean duplicated, List<String> features) {}

  /**
   * One fixed-θ fit's inputs.
   *
   * @param likelihood likelihood name
   * @param index fit index k within the likelihood
   * @param variant the data variant's name
   * @param problem training problem at θ
   * @param xTest test inputs
   * @param yTest test targets
   */
  public record FitSpec(
      String likelihood,
      long index,
      String variant,
      Problem problem,
      double[][] xTest,
      double[] yTest) {

    /** One line describing the fit (for reproductions). */
    public String describe() {
      return likelihood + " fit " + index + " on " + variant + ": n=" + problem.size() + ", "
          + problem.kernel().name() + " log θ="
          + Arrays.toString(problem.kernel().logHyperparameters())
          + ", " + problem.likelihood().name()
          + (problem.likelihood() instanceof Gaussian g ? " noise=" + g.noiseVariance() : "")
          + (problem.likelihood() instanceof NoisyStep ns ? " eps=" + ns.epsilon() : "")
          + ", prior mean " + problem.priorMean();
    }
  }

  /**
   * The result of one fit: outcome and, for anything but a clean convergence, what happened; {@code bin} is the
   * row of the by-setting table the fit counts in.
   */
  public record FitResult(
      String method, FitSpec spec, Outcome outcome, String detail, String bin) {}

  private ReliabilitySweep() {}

  // ----------------------------------------------------------------------------------------- data

  private static final class Holder {
    static final Map<String, List<Variant>> VARIANTS_BY_LIKELIHOOD = build();
  }

  /** The five data variants of a likelihood (three real data sets, duplicated rows, near-separable). */
  public static List<Variant> variants(String likelihood) {
    List<Variant> v = Holder.VARIANTS_BY_LIKELIHOOD.get(likelihood);
    if (v == null) {
      throw new IllegalArgumentException(
          "unknown likelihood " + likelihood + "; known " + LIKELIHOODS);
    }
    return v;
  }

  private static Map<String, List<Variant>> build() {
    Map<String, List<Variant>> m = new LinkedHashMap<>();
    // probit: three real classification data sets (QP paper's IonoS, Sonar, Crabs)
    Variant iono = real("ionosphere", Datasets.loadBinary("ionosphere", "Class", null), false);
    Variant sonar = real("sonar", Datasets.loadBinary("sonar", "Class", null), false);
    Variant crabs = real("crabs", Datasets.loadBinary("crabs", "sex", null), false);
    m.put(
        "probit", List.of(iono, sonar, crabs, duplicated(iono), nearSeparable(crabs, "FL", -1, 1)));
    m.put("noisy-step", m.get("probit"));
    // Poisson: real counts. Coal disasters per year (QP paper's Mining, 0..6); number of
    // pregnancies (Pima,
    // UCI, 0..17), from the other columns; the mitoses grade of a breast-cancer biopsy (UCI,
    // integer 1..10
    // derived from the count of mitoses), from the other columns. Counts stay small: the W2
    // projection's
    // Poisson tilted CDF costs O(y) incomplete-gamma evaluations, so Spambase's capital-run counts
    // (to 10^4)
    // took a minute per QP fit
    Variant coal = real("coal-yearly", Datasets.coalYearlyCounts(), false);
    Variant preg = real(
        "pima:pregnant",
        Datasets.load("pima-indians-diabetes", "pregnant", TargetKind.COUNT),
        false);
    Variant mit = real(
        "breast-cancer:Mitoses",
        Datasets.load("breast-cancer", "Mitoses", TargetKind.COUNT),
        false);
    m.put(
        "poisson-square",
        List.of(coal, preg, mit, duplicated(coal), nearSeparable(preg, "glucose", 0, 9)));
    // Gaussian: a real continuous column as the target, standardised
    Variant cw = real("crabs:CW", Datasets.load("crabs", "CW", TargetKind.REAL), true);
    Variant alc = real("wine:alcohol", Datasets.load("wine", "alcohol", TargetKind.REAL), true);
    Variant ri = real("glass:RI", Datasets.load("glass", "RI", TargetKind.REAL), true);
    m.put("gaussian", List.of(cw, alc, ri, duplicated(cw), nearSeparable(cw, "FL", -1, 1)));
    return m;
  }

  private static Variant real(String name, Dataset d, boolean standardiseTarget) {
    double[][] x = Standardizer.fit(d.features()).apply(d.features());
    double[] y = d.target();
    if (standardiseTarget) {
      double mean = Arrays.stream(y).average().orElseThrow();
      double ss = 0;
      for (double t : y) {
        ss += (t - mean) * (t - mean);
      }
      double sd = Math.sqrt(ss / y.length);
      for (int i = 0; i < y.length; i++) {
        y[i] = (y[i] - mean) / sd;
      }
    }
    return new Variant(name, x, y, false, d.featureNames());
  }

  private static Variant duplicated(Variant v) {
    return new Variant(v.name() + "+duplicated", v.x(), v.y(), true, v.features());
  }

  /**
   * Near-separable data from a real feature: targets {@code low} where the feature is below the
   * midpoint of its two middle distinct values, {@code high} above it; the classes are separated
   * by one feature with the smallest margin that feature's values allow. For probit (±1) these are
   * separable labels; for Poisson and Gaussian the analogous step target.
   */
  private static Variant nearSeparable(Variant base, String feature, double low, double high) {
    int j = featureIndex(base, feature);
    double[] col = new double[base.x().length];
    for (int i = 0; i < col.length; i++) {
      col[i] = base.x()[i][j];
    }
    double[] sorted = Arrays.stream(col).distinct().sorted().toArray();
    int mid = sorted.length / 2;
    double t = 0.5 * (sorted[mid - 1] + sorted[mid]);
    double[] y = new double[col.length];
    for (int i = 0; i < col.length; i++) {
      y[i] = col[i] > t ? high : low;
    }
    return new Variant(
        base.name().split(":")[0] + ":sign(" + feature + "-t)",
        base.x(),
        y,
        false,
        base.features());
  }

  private static int featureIndex(Variant v, String feature) {
    int j = v.features().indexOf(feature);
    if (j < 0) {
      throw new IllegalStateException(
          "feature " + feature + " not found in " + v.name() + ": " + v.features());
    }
    return j;
  }

  // ----------------------------------------------------------------------------------------- specs

  /** A seed for fit {@code k} of {@code likelihood}: SplitMix64 finaliser of the pair. */
  static long seed(String likelihood, long k) {
    long z =
        likelihood.hashCode() * 0x9E3779B97F4A7C15L + k * 0xBF58476D1CE4E5B9L + 0x94D049BB133111EBL;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** Fit {@code k} of {@code likelihood} (see the class comment for the draws). */
  public static FitSpec spec(String likelihood, long k) {
    Variant v = variants(likelihood).get((int) (k % VARIANTS));
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed(likelihood, k));
    int rows = v.x().length;
    int n = N_MIN + rng.nextInt(N_MAX - N_MIN + 1);
    int distinct = v.duplicated() ? (n + 1) / 2 : n;
    int[] perm = permutation(rows, rng);
    boolean ard = rng.nextBoolean();
    int d = v.x()[0].length;
    int[] cols;
    if (ard && d > ARD_MAX_FEATURES) {
      cols = Arrays.copyOf(permutation(d, rng), ARD_MAX_FEATURES);
      Arrays.sort(cols);
    } else {
      cols = new int[d];
      Arrays.setAll(cols, i -> i);
    }
    double[][] x = new double[v.duplicated() ? 2 * distinct : distinct][];
    double[] y = new double[x.length];
    for (int i = 0; i < distinct; i++) {
      double[] row = select(v.x()[perm[i]], cols);
      x[i] = row;
      y[i] = v.y()[perm[i]];
      if (v.duplicated()) {
        x[distinct + i] = row.clone();
        y[distinct + i] = y[i];
      }
    }
    double[][] xTest = new double[N_TEST][];
    double[] yTest = new double[N_TEST];
    for (int j = 0; j < N_TEST; j++) {
      xTest[j] = select(v.x()[perm[distinct + j]], cols);
      yTest[j] = v.y()[perm[distinct + j]];
    }
    int dims = ard ? cols.length : 1;
    double[] logTheta = new double[dims + 1];
    for (int j = 0; j < logTheta.length; j++) {
      logTheta[j] = uniform(rng, LOG_THETA_MIN, LOG_THETA_MAX);
    }
    Kernel k0 = ard ? SquaredExponential.ard(ones(dims), 1.0) : SquaredExponential.iso(1.0, 1.0);
    Kernel kernel = k0.withLogHyperparameters(logTheta);
    Likelihood lik;
    double priorMean = 0;
    switch (likelihood) {
      case "probit" -> lik = Probit.get();
      case "poisson-square" -> {
        lik = PoissonSquareLink.get();
        priorMean = Math.sqrt(Arrays.stream(y).average().orElseThrow());
      }
      case "gaussian" -> lik = Gaussian.of(Math.exp(uniform(rng, -5, 2)));
      case "noisy-step" ->
        lik = NoisyStep.of(Math.exp(uniform(rng, Math.log(EPS_MIN), Math.log(EPS_MAX))));
      default -> throw new IllegalArgumentException(likelihood);
    }
    return new FitSpec(
        likelihood, k, v.name(), new Problem(kernel, x, y, lik, priorMean), xTest, yTest);
  }

  private static double uniform(UniformRandomProvider rng, double a, double b) {
    return a + (b - a) * rng.nextDouble();
  }

  private static int[] permutation(int n, UniformRandomProvider rng) {
    int[] p = new int[n];
    Arrays.setAll(p, i -> i);
    for (int i = n - 1; i > 0; i--) {
      int j = rng.nextInt(i + 1);
      int t = p[i];
      p[i] = p[j];
      p[j] = t;
    }
    return p;
  }

  private static double[] select(double[] row, int[] cols) {
    double[] r = new double[cols.length];
    for (int j = 0; j < cols.length; j++) {
      r[j] = row[cols[j]];
    }
    return r;
  }

  private static double[] ones(int d) {
    double[] a = new double[d];
    Arrays.fill(a, 1.0);
    return a;
  }

  // -----------------------------------------------------------------------------------------
  // methods

  /**
   * A method as swept on fit k of a likelihood: the inference method, its settings for the report and the
   * setting's bin (a row of the by-setting table).
   */
  record Swept(InferenceMethod method, String settings, String bin) {}

  /**
   * The method {@code name} as fit {@code k} of {@code likelihood} runs it: Power EP with u log-uniform in
   * [{@value #POWER_MIN}, 1], Relaxed EP with c log-uniform in [{@value #PENALTY_MIN}, {@value #PENALTY_MAX}] and
   * one of the 3 × 2 (objective, site reading) pairs, each uniformly; both keep negative site precisions (their
   * defaults, {@link Methods#keepOptions()}). Every other method with its defaults. The draws are seeded from
   * (method, likelihood, k) alone.
   */
  static Swept swept(String name, String likelihood, long k) {
    UniformRandomProvider rng =
        RandomSource.XO_RO_SHI_RO_128_PP.create(seed(name + "/" + likelihood, k));
    return switch (name) {
      case "power-ep" -> {
        double u = Math.min(1, Math.exp(uniform(rng, Math.log(POWER_MIN), 0)));
        yield new Swept(
            Methods.powerEp(u),
            "u=" + u,
            u < 1e-2
                ? "u in [1e-3, 1e-2)"
                : u < 1e-1 ? "u in [1e-2, 0.1)" : u < 0.5 ? "u in [0.1, 0.5)" : "u in [0.5, 1]");
      }
      case "rep" -> {
        double c = Math.exp(uniform(rng, Math.log(PENALTY_MIN), Math.log(PENALTY_MAX)));
        RelaxedEp.Objective o =
            RelaxedEp.Objective.values()[rng.nextInt(RelaxedEp.Objective.values().length)];
        RelaxedEp.SiteReading r =
            RelaxedEp.SiteReading.values()[rng.nextInt(RelaxedEp.SiteReading.values().length)];
        RelaxedEp rule = RelaxedEp.of(c, o, r);
        String band = c < 1 ? "c < 1" : c < 30 ? "c in [1, 30)" : "c >= 30";
        yield new Swept(
            Methods.relaxedEp(rule, Methods.keepOptions()),
            rule.name(),
            o.name().toLowerCase(java.util.Locale.ROOT) + ", reading " + r + ", " + band);
      }
      default -> new Swept(Registry.inference(name), "", "default");
    };
  }

  /** The by-setting bin of the likelihood's own parameter (noisy step: ε by decade), or "" for none. */
  static String likelihoodBin(FitSpec spec) {
    if (spec.problem().likelihood() instanceof NoisyStep ns) {
      double e = ns.epsilon();
      return e < 1e-4
          ? "eps < 1e-4"
          : e < 1e-2
              ? "eps in [1e-4, 1e-2)"
              : e < 0.1 ? "eps in [1e-2, 0.1)" : "eps in [0.1, 0.49]";
    }
    return "";
  }

  // ----------------------------------------------------------------------------------------- runs

  /** Runs one EP-family/VB/Laplace method on one fit (settings drawn by {@link #swept}); never throws. */
  public static FitResult run(String methodName, FitSpec spec) {
    Swept sw = swept(methodName, spec.likelihood(), spec.index());
    FitResult r = run(sw.method(), methodName, spec);
    return new FitResult(
        r.method(),
        spec,
        r.outcome(),
        sw.settings().isEmpty() ? r.detail() : "[" + sw.settings() + "] " + r.detail(),
        bin(sw, spec));
  }

  private static String bin(Swept sw, FitSpec spec) {
    String lb = likelihoodBin(spec);
    return lb.isEmpty() ? sw.bin() : sw.bin().equals("default") ? lb : sw.bin() + "; " + lb;
  }

  private static FitResult run(InferenceMethod method, String methodName, FitSpec spec) {
    Posterior p;
    try {
      p = method.infer(spec.problem(), null);
    } catch (InferenceException e) {
      if (e.diagnostics() == null) {
        return new FitResult(
            methodName, spec, Outcome.UNCAUGHT, "InferenceException without diagnostics: " + e, "");
      }
      return new FitResult(methodName, spec, Outcome.TYPED_FAILURE, e.getMessage(), "");
    } catch (RuntimeException | StackOverflowError e) {
      return new FitResult(methodName, spec, Outcome.UNCAUGHT, describe(e), "");
    }
    try {
      String bad = nonFinite(p, spec);
      if (bad != null) {
        return new FitResult(
            methodName, spec, Outcome.NON_FINITE, bad + " [" + p.diagnostics() + "]", "");
      }
    } catch (RuntimeException e) {
      return new FitResult(
          methodName, spec, Outcome.UNCAUGHT, "while reading the posterior: " + describe(e), "");
    }
    if (p.diagnostics() == null) {
      return new FitResult(methodName, spec, Outcome.NON_FINITE, "no diagnostics", "");
    }
    return p.diagnostics().converged()
        ? new FitResult(methodName, spec, Outcome.CONVERGED, "", "")
        : new FitResult(methodName, spec, Outcome.NOT_CONVERGED, p.diagnostics().toString(), "");
  }

  private static String describe(Throwable e) {
    StackTraceElement[] st = e.getStackTrace();
    return e.getClass().getName() + ": " + e.getMessage() + (st.length > 0 ? " at " + st[0] : "");
  }

  /** The first non-finite (or negative-variance) output of a posterior, or null if all are fine. */
  static String nonFinite(Posterior p, FitSpec spec) {
    String s;
    if (!Double.isFinite(p.logEvidence())) {
      return "log evidence " + p.logEvidence();
    }
    double[] g = p.logEvidenceGradient();
    if (g != null && (s = firstBad("log-evidence gradient", g, false)) != null) {
      return s;
    }
    if ((s = firstBad("posterior mean", p.mean(), false)) != null
        || (s = firstBad("posterior variance", p.variance(), true)) != null
        || (s = firstBad("alpha", p.alpha(), false)) != null) {
      return s;
    }
    Sites sites = p.sites();
    if ((s = firstBad("site tau", sites.tau(), false)) != null
        || (s = firstBad("site nu", sites.nu(), false)) != null) {
      return s;
    }
    Prediction pred = p.predict(spec.xTest());
    if ((s = firstBad("predictive mean", pred.latentMean(), false)) != null
        || (s = firstBad("predictive variance", pred.latentVariance(), true)) != null) {
      return s;
    }
    return firstBad("predictive log density", p.logPredictive(spec.xTest(), spec.yTest()), false);
  }

  private static String firstBad(String what, double[] a, boolean variance) {
    for (int i = 0; i < a.length; i++) {
      if (!Double.isFinite(a[i]) || (variance && a[i] < 0)) {
        return what + "[" + i + "] = " + a[i];
      }
    }
    return null;
  }

  // -----------------------------------------------------------------------------------------
  // sparse

  /**
   * One sparse fit's inputs: the data of {@link #spec}("gaussian", k) (standardised real targets, n in [40, 64],
   * 10 test rows, the same columns) and starting hyperparameters drawn from a generator seeded from k alone
   * (shared by the five models): every length-scale log-uniform in [1e-3, 1e3] (one per input), the signal
   * and the noise variance each log-uniform in [1e-4, 1e4].
   */
  public record SparseSpec(
      FitSpec base,
      RegressionData train,
      RegressionData test,
      double[] lengthscales,
      double signalVariance,
      double noiseVariance) {

    public String describe() {
      return "sparse fit " + base.index() + " on " + base.variant() + ": n=" + train.n() + ", d="
          + train.d() + ", start ell=" + Arrays.toString(lengthscales) + ", sf2=" + signalVariance
          + ", sn2=" + noiseVariance;
    }
  }

  /** Sparse fit {@code k} (see {@link SparseSpec}). */
  public static SparseSpec sparseSpec(long k) {
    FitSpec base = spec("gaussian", k);
    double[][] x = base.problem().x();
    RegressionData train = RegressionData.of(x, base.problem().y());
    RegressionData test = RegressionData.of(base.xTest(), base.yTest());
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed("sparse", k));
    double[] ell = new double[train.d()];
    double l10 = Math.log(10);
    for (int j = 0; j < ell.length; j++) {
      ell[j] = Math.exp(l10 * uniform(rng, -SPARSE_LOG10_ELL, SPARSE_LOG10_ELL));
    }
    double sf = Math.exp(l10 * uniform(rng, -SPARSE_LOG10_VAR, SPARSE_LOG10_VAR));
    double sn = Math.exp(l10 * uniform(rng, -SPARSE_LOG10_VAR, SPARSE_LOG10_VAR));
    return new SparseSpec(base, train, test, ell, sf, sn);
  }

  /**
   * Runs sparse model {@code model} on {@code s} for {@value #SPARSE_ITERATIONS} iterations and predicts the test
   * rows; never throws. SSGP: m = 8 frequencies, L-BFGS (its convergence verdict decides converged / not
   * converged). VSSGP: m = 8, full batch (L-BFGS) for even k, minibatches of 16 (Adam) for odd k. sVBSSGP: m = 8,
   * 4 partitions (row index mod 4), 2 per iteration. DTC++: 8 k-means inducing inputs, minibatch 16, learned θ.
   * PIC++: 8 inducing inputs, 4 k-means blocks, 2 per iteration, θ learned for odd k. A model without a
   * convergence verdict (all but SSGP) counts as converged when it completes its iterations. Typed failures:
   * {@link NumericalException} (e.g. a Cholesky that fails) and sVBSSGP's documented divergence
   * ({@link IllegalStateException} "diverged"); non-finite: a prediction mean or variance NaN/Inf or a variance
   * &lt; 0.
   */
  public static FitResult runSparse(String model, SparseSpec s) {
    FitSpec spec = s.base();
    long k = spec.index();
    PredictiveMoments pred;
    boolean converged = true;
    String detail = "";
    try {
      switch (model) {
        case "ssgp" -> {
          Ssgp fit = Ssgp.fit(
              s.train(),
              Ssgp.Options.of(8, SPARSE_ITERATIONS, k)
                  .withInitial(new Ssgp.Hyperparameters(
                      s.lengthscales(), s.signalVariance(), s.noiseVariance())),
              null);
          converged = fit.converged();
          detail = "SSGP not converged in " + SPARSE_ITERATIONS + " L-BFGS iterations";
          pred = fit.predict(s.test());
        }
        case "vssgp" -> {
          Vssgp fit = Vssgp.fit(
              s.train(),
              new Vssgp.Options(
                  8,
                  k % 2 == 0
                      ? StochasticSchedule.fullBatch(
                          SPARSE_ITERATIONS, StepSchedule.constant(0.01), k)
                      : StochasticSchedule.of(
                          16, SPARSE_ITERATIONS, StepSchedule.constant(0.01), k),
                  Optional.of(new Ssgp.Hyperparameters(
                      s.lengthscales(), s.signalVariance(), s.noiseVariance())),
                  0.01),
              null);
          pred = fit.predict(s.test());
        }
        case "svbssgp" -> {
          int[] labels = new int[s.train().n()];
          Arrays.setAll(labels, i -> i % 4);
          SvbssgpOptions o = SvbssgpOptions.defaults()
              .withM(8)
              .withPartitionsPerIteration(2)
              .withIterations(SPARSE_ITERATIONS)
              .withSeed(k)
              .withNoiseVariance(s.noiseVariance())
              .withSignalVariance(s.signalVariance())
              .withLengthscales(s.lengthscales());
          SvbssgpTraining t = Svbssgp.start(s.train(), labels, o);
          for (int it = 0; it < SPARSE_ITERATIONS; it++) {
            t.step();
          }
          int[] testLabels = new int[s.test().n()];
          Arrays.setAll(testLabels, i -> i % 4);
          pred = t.current().predict(s.test(), testLabels);
        }
        case "dtc" -> {
          RegressionData z = KMeans.fit(s.train(), 8, k, 20).centroidInputs();
          Dtc.Trainer t = new Dtc.Trainer(
              s.train(),
              z,
              SquaredExponential.ard(s.lengthscales(), s.signalVariance()),
              s.noiseVariance(),
              InducingOptions.defaults(16, SPARSE_ITERATIONS, k));
          for (int it = 0; it < SPARSE_ITERATIONS; it++) {
            t.step();
          }
          pred = t.snapshot().predict(s.test());
        }
        case "pic" -> {
          RegressionData z = KMeans.fit(s.train(), 8, k, 20).centroidInputs();
          KMeans blocks = KMeans.fit(s.train(), 4, k + 1, 20);
          InducingOptions o = new InducingOptions(
              StochasticSchedule.of(2, SPARSE_ITERATIONS, new StepSchedule(0.5, 0.05, 0.6), k),
              StepSchedule.constant(0.01),
              k % 2 == 1);
          Pic.Trainer t = new Pic.Trainer(
              s.train(),
              blocks.assign(s.train()),
              z,
              SquaredExponential.ard(s.lengthscales(), s.signalVariance()),
              s.noiseVariance(),
              o);
          for (int it = 0; it < SPARSE_ITERATIONS; it++) {
            t.step();
          }
          pred = t.snapshot().predict(s.test(), blocks.assign(s.test()));
        }
        default ->
          throw new IllegalArgumentException(
              "unknown sparse model " + model + "; known " + SPARSE_MODELS);
      }
    } catch (NumericalException e) {
      return new FitResult(model, spec, Outcome.TYPED_FAILURE, describe(e), "");
    } catch (IllegalStateException e) {
      if (model.equals("svbssgp") && String.valueOf(e.getMessage()).contains("diverged")) {
        return new FitResult(model, spec, Outcome.TYPED_FAILURE, e.getMessage(), "");
      }
      return new FitResult(model, spec, Outcome.UNCAUGHT, describe(e), "");
    } catch (RuntimeException | StackOverflowError e) {
      return new FitResult(model, spec, Outcome.UNCAUGHT, describe(e), "");
    }
    String bad = firstBad("prediction mean", pred.mean(), false);
    if (bad == null) {
      bad = firstBad("prediction variance", pred.variance(), true);
    }
    if (bad != null) {
      return new FitResult(model, spec, Outcome.NON_FINITE, bad, "");
    }
    return converged
        ? new FitResult(model, spec, Outcome.CONVERGED, "", "")
        : new FitResult(model, spec, Outcome.NOT_CONVERGED, detail, "");
  }

  /** Runs cell {@code c}'s fit k (an inference method on {@link #spec}, or a sparse model on {@link #sparseSpec}). */
  public static FitResult run(CellId c, long k) {
    if (SPARSE_MODELS.contains(c.method())) {
      SparseSpec s = sparseSpec(k);
      FitResult r = runSparse(c.method(), s);
      return new FitResult(
          r.method(),
          r.spec(),
          r.outcome(),
          r.outcome() == Outcome.CONVERGED ? "" : "(" + s.describe() + ") " + r.detail(),
          "extreme start");
    }
    return run(c.method(), spec(c.likelihood(), k));
  }

  // ----------------------------------------------------------------------------------------- sweep

  /** Counts of one (method, likelihood, data variant) cell. */
  public static final class Cell {
    long fits;
    long converged;
    long notConverged;
    long typed;
    long nonFinite;
    long uncaught;
    long overCap;

    void add(Outcome o) {
      fits++;
      switch (o) {
        case CONVERGED -> converged++;
        case NOT_CONVERGED -> notConverged++;
        case TYPED_FAILURE -> typed++;
        case NON_FINITE -> nonFinite++;
        case UNCAUGHT -> uncaught++;
        case OVER_CAP -> overCap++;
        default -> throw new IllegalStateException();
      }
    }

    void add(Cell c) {
      fits += c.fits;
      converged += c.converged;
      notConverged += c.notConverged;
      typed += c.typed;
      nonFinite += c.nonFinite;
      uncaught += c.uncaught;
      overCap += c.overCap;
    }

    long get(Outcome o) {
      return switch (o) {
        case CONVERGED -> converged;
        case NOT_CONVERGED -> notConverged;
        case TYPED_FAILURE -> typed;
        case NON_FINITE -> nonFinite;
        case UNCAUGHT -> uncaught;
        case OVER_CAP -> overCap;
      };
    }
  }

  /**
   * The kind of a typed failure: its message with numbers replaced by # and the location suffix dropped, so that
   * equal causes count together.
   */
  static String kind(String message) {
    String m = message == null ? "" : message;
    if (m.startsWith("[")) {
      int e = m.indexOf("] ");
      m = e > 0 ? m.substring(e + 2) : m;
    }
    int cut = m.indexOf(" [");
    m = cut > 0 ? m.substring(0, cut) : m;
    m = m.replaceAll(" \\((at site|after sweep|in the log evidence)[^)]*\\)", "");
    m = m.replaceAll("-?\\d+(\\.\\d+)?([eE]-?\\d+)?", "#").replaceAll("f#", "f_i");
    return m.length() > 140 ? m.substring(0, 140) + "…" : m;
  }

  /**
   * What each known kind of typed failure means, by method (a key is "method" + tab + a prefix of {@link #kind});
   * the summary table prints it beside the count. The diagnoses were made on the failing fits of the sweep (the
   * reliability review) with the power-tilted moments checked against a closed form
   * ({@code PoissonSquareLinkTest.powerTiltedMatchesTheKummerClosedForm}).
   */
  static final Map<String, String> EXPLANATIONS = new LinkedHashMap<>();

  private static final String IMPROPER =
      "cavity (τ₋, ν₋) = (#, #) at the final posterior is improper: the log "
          + "evidence is undefined";
  private static final String PEP_IMPROPER =
      "Power EP evidence: cavity (τ₋, ν₋) = (#, #) at the final posterior is " + "improper";
  private static final String FROZEN =
      "kept negative site precisions elsewhere made this site's cavity improper, so "
          + "the site loop could not update it: the run stopped with it frozen (SiteLoop: not converged, not a fixed "
          + "point), and the site's evidence term needs that cavity as a Gaussian (the likelihood API takes its mean and "
          + "variance; for the Poisson square link the integral ∫ N(f | μᵢ, Σᵢᵢ) (p(yᵢ | f)/t̃ᵢ(f))^u df itself is finite "
          + "while τ₋ + 2u > 0, which that API cannot express). Maths of the KEEP policy with a non-log-concave "
          + "likelihood (bimodal tilted distributions); CLIP cannot reach it";

  static {
    EXPLANATIONS.put(
        "power-ep\t" + PEP_IMPROPER,
        FROZEN + " (Power EP's evidence needs only the u-cavity "
            + "1/Σᵢᵢ − u τ̃ᵢ, which is what failed here)");
    EXPLANATIONS.put(
        "rep\t" + IMPROPER,
        FROZEN + " (Relaxed EP's evidence is EP's at its sites: u = 1, EP's "
            + "cavity 1/Σᵢᵢ − τ̃ᵢ)");
  }

  static String explain(String method, String kind) {
    String inner = kind;
    String prefix = "";
    java.util.regex.Matcher m = java.util.regex.Pattern.compile(
            "^numerical gradient: inference at θ# [-+±] h failed: ")
        .matcher(kind);
    if (m.find()) {
      inner = kind.substring(m.end());
      prefix =
          "the central-difference gradient's inference at θ ± h (one log θⱼ moved by 1e-4) failed: ";
    }
    for (Map.Entry<String, String> e : EXPLANATIONS.entrySet()) {
      String[] k = e.getKey().split("\t", 2);
      if (k[0].equals(method) && inner.startsWith(k[1])) {
        return prefix + e.getValue();
      }
    }
    return prefix + "unexplained";
  }

  /**
   * A finished sweep: counts per (method, likelihood, variant), in order, per (method, likelihood, setting bin),
   * the typed-failure kinds per (method, likelihood), and the results that were not clean convergences
   * (non-finite and uncaught ones in full, up to 200 of the others).
   */
  public record Report(
      Map<String, Cell> cells,
      Map<String, Cell> settings,
      Map<String, Map<String, Long>> kinds,
      List<FitResult> failures,
      List<FitResult> reported,
      double seconds) {

    public long total(Outcome o) {
      Cell t = new Cell();
      cells.values().forEach(t::add);
      return t.get(o);
    }

    public long fits() {
      return cells.values().stream().mapToLong(c -> c.fits).sum();
    }

    /** The counts as a Markdown table, with per (method, likelihood) subtotals and a grand total. */
    public String markdown() {
      StringBuilder sb = new StringBuilder();
      header(sb, "data set");
      Map<String, Cell> sub = new LinkedHashMap<>();
      Cell all = new Cell();
      for (Map.Entry<String, Cell> e : cells.entrySet()) {
        String[] k = e.getKey().split("\t");
        row(sb, k[0], k[1], k[2], e.getValue());
        sub.computeIfAbsent(k[0] + "\t" + k[1], z -> new Cell()).add(e.getValue());
        all.add(e.getValue());
      }
      for (Map.Entry<String, Cell> e : sub.entrySet()) {
        String[] k = e.getKey().split("\t");
        row(sb, "**" + k[0] + "**", "**" + k[1] + "**", "all", e.getValue());
      }
      row(sb, "**all**", "**all**", "all", all);
      return sb.toString();
    }

    /**
     * One row per (method, likelihood): the counts, the typed-failure rate and every kind of typed failure with
     * its count and explanation ("unexplained" when no entry of {@link #EXPLANATIONS} covers it).
     */
    public String summary() {
      StringBuilder sb = new StringBuilder();
      sb.append(
          "| method | likelihood | fits | converged | not converged (reported) | typed failures | typed % "
              + "| NaN/Inf outputs | uncaught exceptions | over cap | typed-failure kinds (count: explanation) |\n");
      sb.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
      Map<String, Cell> sub = new LinkedHashMap<>();
      for (Map.Entry<String, Cell> e : cells.entrySet()) {
        String[] k = e.getKey().split("\t");
        sub.computeIfAbsent(k[0] + "\t" + k[1], z -> new Cell()).add(e.getValue());
      }
      for (Map.Entry<String, Cell> e : sub.entrySet()) {
        String[] k = e.getKey().split("\t");
        Cell c = e.getValue();
        StringBuilder ks = new StringBuilder();
        for (Map.Entry<String, Long> kc :
            kinds.getOrDefault(e.getKey(), Map.of()).entrySet()) {
          ks.append(ks.length() == 0 ? "" : "<br>")
              .append(kc.getValue())
              .append(" × `")
              .append(kc.getKey())
              .append("`: ")
              .append(explain(k[0], kc.getKey()));
        }
        sb.append("| ")
            .append(k[0])
            .append(" | ")
            .append(k[1])
            .append(" | ")
            .append(c.fits)
            .append(" | ")
            .append(c.converged)
            .append(" | ")
            .append(c.notConverged)
            .append(" | ")
            .append(c.typed)
            .append(" | ")
            .append(String.format(
                java.util.Locale.ROOT, "%.2f", c.fits == 0 ? 0.0 : 100.0 * c.typed / c.fits))
            .append(" | ")
            .append(c.nonFinite)
            .append(" | ")
            .append(c.uncaught)
            .append(" | ")
            .append(c.overCap)
            .append(" | ")
            .append(ks)
            .append(" |\n");
      }
      return sb.toString();
    }

    /** The counts per (method, likelihood, setting bin): Power EP's u, REP's objective/reading/c, the noisy step's ε. */
    public String bySetting() {
      StringBuilder sb = new StringBuilder();
      header(sb, "setting");
      for (Map.Entry<String, Cell> e : settings.entrySet()) {
        String[] k = e.getKey().split("\t");
        if (!k[2].equals("default")) {
          row(sb, k[0], k[1], k[2], e.getValue());
        }
      }
      return sb.toString();
    }

    private static void header(StringBuilder sb, String third) {
      sb.append("| method | likelihood | ")
          .append(third)
          .append(" | fits | converged | not converged (reported) "
              + "| typed failures | NaN/Inf outputs | uncaught exceptions | over cap |\n");
      sb.append("|---|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
    }

    private static void row(StringBuilder sb, String m, String l, String d, Cell c) {
      sb.append("| ")
          .append(m)
          .append(" | ")
          .append(l)
          .append(" | ")
          .append(d)
          .append(" | ")
          .append(c.fits)
          .append(" | ")
          .append(c.converged)
          .append(" | ")
          .append(c.notConverged)
          .append(" | ")
          .append(c.typed)
          .append(" | ")
          .append(c.nonFinite)
          .append(" | ")
          .append(c.uncaught)
          .append(" | ")
          .append(c.overCap)
          .append(" |\n");
    }
  }

  /** The per-fit wall-clock cap of {@link #sweep}, in seconds ("over 60 s"). */
  public static final double DEFAULT_CAP_SECONDS = 60;

  /**
   * The cross-product sweep: {@code perCell} fits of every (method, likelihood) of the cross product, on
   * {@code threads} threads, with the default per-fit cap.
   */
  public static Report sweep(
      List<String> methods,
      List<String> likelihoods,
      int perCell,
      int threads,
      long progressEvery,
      Consumer<String> progress) {
    List<CellId> cells = new ArrayList<>();
    for (String m : methods) {
      for (String l : likelihoods) {
        cells.add(new CellId(m, l));
      }
    }
    return sweep(
        cells,
        (long) perCell * cells.size(),
        threads,
        DEFAULT_CAP_SECONDS,
        progressEvery,
        progress);
  }

  /**
   * Runs {@code total} fits spread over {@code cells} on {@code threads} threads: fit number g = k·C + j
   * (C cells) is fit k of cell j, for g &lt; total, so cell j runs k = 0 … ⌈(total − j)/C⌉ − 1 and every cell's
   * fit k is {@link #run(CellId, long)}, a function of (cell, k) alone (the counts do not depend on the thread
   * count; only fits near the cap can, through the machine's load). Fits of one likelihood and k share their
   * problem; k runs in increasing order, so a run cut short is an even slice of every cell. Each fit runs on a
   * worker of its own and is abandoned (counted {@link Outcome#OVER_CAP}) when it takes longer than
   * {@code capSeconds}; the abandoned worker is interrupted and, on a JDK that still supports it, stopped
   * ({@code Thread.stop}) so that it frees its core. {@code progress} receives a line, and {@code partial} (may be
   * null) the report so far, every {@code progressEvery} fits.
   */
  public static Report sweep(
      List<CellId> cellList,
      long total,
      int threads,
      double capSeconds,
      long progressEvery,
      Consumer<String> progress) {
    return sweep(cellList, total, threads, capSeconds, progressEvery, progress, null);
  }

  /** As {@link #sweep(List, long, int, double, long, Consumer)}, also handing {@code partial} the report so far. */
  public static Report sweep(
      List<CellId> cellList,
      long total,
      int threads,
      double capSeconds,
      long progressEvery,
      Consumer<String> progress,
      Consumer<Report> partial) {
    long t0 = System.nanoTime();
    int nc = cellList.size();
    Accumulator acc = new Accumulator(cellList, t0);
    long[] perCell = new long[nc];
    long maxK = 0;
    for (int j = 0; j < nc; j++) {
      perCell[j] = total > j ? (total - j + nc - 1) / nc : 0;
      maxK = Math.max(maxK, perCell[j]);
    }
    AtomicLong done = new AtomicLong();
    ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "reliability");
      t.setDaemon(true);
      return t;
    });
    long capNanos = (long) (capSeconds * 1e9);
    // the likelihoods in order of first appearance; one task per (likelihood, k) runs its cells'
    // fits
    List<String> liks = cellList.stream().map(CellId::likelihood).distinct().toList();
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (long k = 0; k < maxK; k++) {
        for (String l : liks) {
          long kk = k;
          List<CellId> here = new ArrayList<>();
          for (int j = 0; j < nc; j++) {
            if (cellList.get(j).likelihood().equals(l) && kk < perCell[j]) {
              here.add(cellList.get(j));
            }
          }
          if (here.isEmpty()) {
            continue;
          }
          futures.add(pool.submit(() -> {
            for (CellId c : here) {
              acc.add(capped(c, kk, capNanos, capSeconds));
              long n = done.incrementAndGet();
              if (progressEvery > 0 && n % progressEvery == 0) {
                if (progress != null) {
                  progress.accept(String.format(
                      java.util.Locale.ROOT,
                      "reliability: %d / %d fits (%.0f s)",
                      n,
                      total,
                      (System.nanoTime() - t0) * 1e-9));
                }
                if (partial != null) {
                  partial.accept(acc.report());
                }
              }
            }
            return null;
          }));
        }
      }
      for (Future<?> f : futures) {
        f.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    } finally {
      pool.shutdownNow();
    }
    return acc.report();
  }

  /** The counts so far of a running sweep (thread-safe). */
  private static final class Accumulator {
    private final Map<String, Cell> cells = new LinkedHashMap<>();
    private final Map<String, Cell> settings = new java.util.TreeMap<>();
    private final Map<String, Map<String, Long>> kinds = new LinkedHashMap<>();
    private final List<FitResult> failures = new ArrayList<>();
    private final List<FitResult> reported = new ArrayList<>();
    private final long t0;

    Accumulator(List<CellId> cellList, long t0) {
      this.t0 = t0;
      for (CellId c : cellList) {
        for (Variant v : variants(c.likelihood())) {
          cells.put(c.method() + "\t" + c.likelihood() + "\t" + v.name(), new Cell());
        }
        kinds.put(c.method() + "\t" + c.likelihood(), new java.util.TreeMap<>());
      }
    }

    synchronized void add(FitResult r) {
      String ml = r.method() + "\t" + r.spec().likelihood();
      cells.get(ml + "\t" + r.spec().variant()).add(r.outcome());
      settings.computeIfAbsent(ml + "\t" + r.bin(), z -> new Cell()).add(r.outcome());
      if (r.outcome() == Outcome.TYPED_FAILURE) {
        kinds.get(ml).merge(kind(r.detail()), 1L, Long::sum);
      }
      if (r.outcome() == Outcome.NON_FINITE || r.outcome() == Outcome.UNCAUGHT) {
        failures.add(r);
      } else if (r.outcome() != Outcome.CONVERGED && reported.size() < 200) {
        reported.add(r);
      }
    }

    /** A deep copy of the counts so far. */
    synchronized Report report() {
      Map<String, Cell> c = new LinkedHashMap<>();
      cells.forEach((k, v) -> {
        Cell x = new Cell();
        x.add(v);
        c.put(k, x);
      });
      Map<String, Cell> s = new LinkedHashMap<>();
      settings.forEach((k, v) -> {
        Cell x = new Cell();
        x.add(v);
        s.put(k, x);
      });
      Map<String, Map<String, Long>> kk = new LinkedHashMap<>();
      kinds.forEach((k, v) -> kk.put(k, new java.util.TreeMap<>(v)));
      return new Report(
          c, s, kk, List.copyOf(failures), List.copyOf(reported), (System.nanoTime() - t0) * 1e-9);
    }
  }

  /**
   * Fit k of cell c on a thread of its own (never reused, so stopping it can touch no other fit), abandoned (and
   * stopped where the JDK allows) after the cap.
   */
  private static FitResult capped(CellId c, long k, long capNanos, double capSeconds)
      throws InterruptedException {
    java.util.concurrent.FutureTask<FitResult> f =
        new java.util.concurrent.FutureTask<>(() -> run(c, k));
    Thread runner = new Thread(f, "reliability-fit");
    runner.setDaemon(true);
    runner.start();
    try {
      return f.get(capNanos, TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      f.cancel(true);
      stop(runner);
      if (SPARSE_MODELS.contains(c.method())) {
        return new FitResult(
            c.method(),
            spec("gaussian", k),
            Outcome.OVER_CAP,
            "over the " + capSeconds + " s cap (" + sparseSpec(k).describe() + ")",
            "extreme start");
      }
      FitSpec spec = spec(c.likelihood(), k);
      Swept sw = swept(c.method(), c.likelihood(), k);
      return new FitResult(
          c.method(),
          spec,
          Outcome.OVER_CAP,
          "[" + sw.settings() + "] over the " + capSeconds + " s cap",
          bin(sw, spec));
    } catch (ExecutionException e) {
      FitSpec spec =
          SPARSE_MODELS.contains(c.method()) ? spec("gaussian", k) : spec(c.likelihood(), k);
      return new FitResult(c.method(), spec, Outcome.UNCAUGHT, describe(e.getCause()), "");
    }
  }

  /**
   * Stops an abandoned fit's thread so that it does not keep a core busy: {@code Thread.stop()} (by reflection;
   * JDK 17–19; from JDK 20 it throws and the thread is left to finish on its own). A fit shares only immutable
   * inputs with the rest of the sweep, so stopping it loses nothing but that fit.
   */
  private static void stop(Thread t) {
    if (t == null || !t.isAlive()) {
      return;
    }
    try {
      Thread.class.getMethod("stop").invoke(t);
    } catch (ReflectiveOperationException | RuntimeException e) {
      // unsupported: the interrupted thread runs to its end
    }
  }
}
