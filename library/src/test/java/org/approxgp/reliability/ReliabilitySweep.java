package org.approxgp.reliability;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.approxgp.data.Dataset;
import org.approxgp.data.Datasets;
import org.approxgp.data.Standardizer;
import org.approxgp.data.TargetKind;
import org.approxgp.inference.InferenceException;
import org.approxgp.inference.Posterior;
import org.approxgp.inference.Prediction;
import org.approxgp.inference.Problem;
import org.approxgp.inference.Sites;
import org.approxgp.kernel.Kernel;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.likelihood.Gaussian;
import org.approxgp.likelihood.Likelihood;
import org.approxgp.likelihood.PoissonSquareLink;
import org.approxgp.likelihood.Probit;
import org.approxgp.model.InferenceMethod;
import org.approxgp.model.Methods;

/**
 * Randomized fixed-θ fits (issue 15): every method of {@link Methods#names()} on every likelihood,
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
 *       Poisson: prior mean √(mean training count), as a user would choose; probit: prior mean 0.
 * </ul>
 */
public final class ReliabilitySweep {

  /** How one fit ended. */
  public enum Outcome { CONVERGED, NOT_CONVERGED, TYPED_FAILURE, NON_FINITE, UNCAUGHT }

  /** The likelihoods swept, by name. */
  public static final List<String> LIKELIHOODS = List.of("probit", "poisson-square", "gaussian");

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
  public record Variant(String name, double[][] x, double[] y, boolean duplicated, List<String> features) {}

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
  public record FitSpec(String likelihood, long index, String variant, Problem problem, double[][] xTest,
      double[] yTest) {

    /** One line describing the fit (for reproductions). */
    public String describe() {
      return likelihood + " fit " + index + " on " + variant + ": n=" + problem.size() + ", "
          + problem.kernel().name() + " log θ=" + Arrays.toString(problem.kernel().logHyperparameters())
          + ", " + problem.likelihood().name()
          + (problem.likelihood() instanceof Gaussian g ? " noise=" + g.noiseVariance() : "")
          + ", prior mean " + problem.priorMean();
    }
  }

  /** The result of one fit: outcome and, for anything but a clean convergence, what happened. */
  public record FitResult(String method, FitSpec spec, Outcome outcome, String detail) {}

  private ReliabilitySweep() {}

  // ----------------------------------------------------------------------------------------- data

  private static final class Holder {
    static final Map<String, List<Variant>> VARIANTS_BY_LIKELIHOOD = build();
  }

  /** The five data variants of a likelihood (three real data sets, duplicated rows, near-separable). */
  public static List<Variant> variants(String likelihood) {
    List<Variant> v = Holder.VARIANTS_BY_LIKELIHOOD.get(likelihood);
    if (v == null) {
      throw new IllegalArgumentException("unknown likelihood " + likelihood + "; known " + LIKELIHOODS);
    }
    return v;
  }

  private static Map<String, List<Variant>> build() {
    Map<String, List<Variant>> m = new LinkedHashMap<>();
    // probit: three real classification data sets (QP paper's IonoS, Sonar, Crabs)
    Variant iono = real("ionosphere", Datasets.loadBinary("ionosphere", "Class", null), false);
    Variant sonar = real("sonar", Datasets.loadBinary("sonar", "Class", null), false);
    Variant crabs = real("crabs", Datasets.loadBinary("crabs", "sex", null), false);
    m.put("probit", List.of(iono, sonar, crabs, duplicated(iono), nearSeparable(crabs, "FL", -1, 1)));
    // Poisson: real counts. Coal disasters per year (QP paper's Mining, 0..6); number of pregnancies (Pima,
    // UCI, 0..17), from the other columns; the mitoses grade of a breast-cancer biopsy (UCI, integer 1..10
    // derived from the count of mitoses), from the other columns. Counts stay small: the W2 projection's
    // Poisson tilted CDF costs O(y) incomplete-gamma evaluations, so Spambase's capital-run counts (to 10^4)
    // took a minute per QP fit
    Variant coal = real("coal-yearly", Datasets.coalYearlyCounts(), false);
    Variant preg = real("pima:pregnant", Datasets.load("pima-indians-diabetes", "pregnant", TargetKind.COUNT), false);
    Variant mit = real("breast-cancer:Mitoses", Datasets.load("breast-cancer", "Mitoses", TargetKind.COUNT), false);
    m.put("poisson-square", List.of(coal, preg, mit, duplicated(coal), nearSeparable(preg, "glucose", 0, 9)));
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
    return new Variant(base.name().split(":")[0] + ":sign(" + feature + "-t)", base.x(), y, false, base.features());
  }

  private static int featureIndex(Variant v, String feature) {
    int j = v.features().indexOf(feature);
    if (j < 0) {
      throw new IllegalStateException("feature " + feature + " not found in " + v.name() + ": " + v.features());
    }
    return j;
  }

  // ----------------------------------------------------------------------------------------- specs

  /** A seed for fit {@code k} of {@code likelihood}: SplitMix64 finaliser of the pair. */
  static long seed(String likelihood, long k) {
    long z = likelihood.hashCode() * 0x9E3779B97F4A7C15L + k * 0xBF58476D1CE4E5B9L + 0x94D049BB133111EBL;
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
      default -> throw new IllegalArgumentException(likelihood);
    }
    return new FitSpec(likelihood, k, v.name(), new Problem(kernel, x, y, lik, priorMean), xTest, yTest);
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

  // ----------------------------------------------------------------------------------------- runs

  /** Runs one method on one fit and classifies the outcome. Never throws. */
  public static FitResult run(String methodName, FitSpec spec) {
    InferenceMethod method = Methods.byName(methodName);
    Posterior p;
    try {
      p = method.infer(spec.problem(), null);
    } catch (InferenceException e) {
      if (e.diagnostics() == null) {
        return new FitResult(methodName, spec, Outcome.UNCAUGHT, "InferenceException without diagnostics: " + e);
      }
      return new FitResult(methodName, spec, Outcome.TYPED_FAILURE, e.getMessage());
    } catch (RuntimeException | StackOverflowError e) {
      return new FitResult(methodName, spec, Outcome.UNCAUGHT, describe(e));
    }
    try {
      String bad = nonFinite(p, spec);
      if (bad != null) {
        return new FitResult(methodName, spec, Outcome.NON_FINITE, bad + " [" + p.diagnostics() + "]");
      }
    } catch (RuntimeException e) {
      return new FitResult(methodName, spec, Outcome.UNCAUGHT, "while reading the posterior: " + describe(e));
    }
    if (p.diagnostics() == null) {
      return new FitResult(methodName, spec, Outcome.NON_FINITE, "no diagnostics");
    }
    return p.diagnostics().converged() ? new FitResult(methodName, spec, Outcome.CONVERGED, "")
        : new FitResult(methodName, spec, Outcome.NOT_CONVERGED, p.diagnostics().toString());
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
    if ((s = firstBad("site tau", sites.tau(), false)) != null || (s = firstBad("site nu", sites.nu(), false)) != null) {
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

  // ----------------------------------------------------------------------------------------- sweep

  /** Counts of one (method, likelihood, data variant) cell. */
  public static final class Cell {
    long fits;
    long converged;
    long notConverged;
    long typed;
    long nonFinite;
    long uncaught;

    void add(Outcome o) {
      fits++;
      switch (o) {
        case CONVERGED -> converged++;
        case NOT_CONVERGED -> notConverged++;
        case TYPED_FAILURE -> typed++;
        case NON_FINITE -> nonFinite++;
        case UNCAUGHT -> uncaught++;
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
    }
  }

  /**
   * A finished sweep: counts per (method, likelihood, variant), in order, and the results that
   * were not clean convergences (non-finite and uncaught ones in full, up to {@code keep} of the
   * others).
   */
  public record Report(Map<String, Cell> cells, List<FitResult> failures, List<FitResult> reported,
      double seconds) {

    public long total(Outcome o) {
      Cell t = new Cell();
      cells.values().forEach(t::add);
      return switch (o) {
        case CONVERGED -> t.converged;
        case NOT_CONVERGED -> t.notConverged;
        case TYPED_FAILURE -> t.typed;
        case NON_FINITE -> t.nonFinite;
        case UNCAUGHT -> t.uncaught;
      };
    }

    public long fits() {
      return cells.values().stream().mapToLong(c -> c.fits).sum();
    }

    /** The counts as a Markdown table, with per (method, likelihood) subtotals and a grand total. */
    public String markdown() {
      StringBuilder sb = new StringBuilder();
      sb.append("| method | likelihood | data set | fits | converged | not converged (reported) "
          + "| typed failures | NaN/Inf outputs | uncaught exceptions |\n");
      sb.append("|---|---|---|---:|---:|---:|---:|---:|---:|\n");
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

    private static void row(StringBuilder sb, String m, String l, String d, Cell c) {
      sb.append("| ").append(m).append(" | ").append(l).append(" | ").append(d).append(" | ").append(c.fits)
          .append(" | ").append(c.converged).append(" | ").append(c.notConverged).append(" | ").append(c.typed)
          .append(" | ").append(c.nonFinite).append(" | ").append(c.uncaught).append(" |\n");
    }
  }

  /**
   * Runs {@code perCell} fits for every (method, likelihood) on {@code threads} threads: fit k of a
   * likelihood is {@link #spec}(likelihood, k), k = 0 … perCell − 1, the same problems for every
   * method. {@code progress} receives a line every {@code progressEvery} fits (may be null).
   */
  public static Report sweep(List<String> methods, List<String> likelihoods, int perCell, int threads,
      long progressEvery, Consumer<String> progress) {
    long t0 = System.nanoTime();
    Map<String, Cell> cells = new LinkedHashMap<>();
    for (String m : methods) {
      for (String l : likelihoods) {
        for (Variant v : variants(l)) {
          cells.put(m + "\t" + l + "\t" + v.name(), new Cell());
        }
      }
    }
    long total = (long) methods.size() * likelihoods.size() * perCell;
    AtomicLong done = new AtomicLong();
    ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "reliability");
      t.setDaemon(true);
      return t;
    });
    List<FitResult> failures = new ArrayList<>();
    List<FitResult> reported = new ArrayList<>();
    try {
      // one task per (likelihood, k): builds the problem once and runs every method on it
      List<Future<List<FitResult>>> futures = new ArrayList<>();
      for (String l : likelihoods) {
        for (long k = 0; k < perCell; k++) {
          long kk = k;
          futures.add(pool.submit(() -> {
            FitSpec spec = spec(l, kk);
            List<FitResult> rs = new ArrayList<>();
            for (String m : methods) {
              rs.add(run(m, spec));
              long c = done.incrementAndGet();
              if (progress != null && progressEvery > 0 && c % progressEvery == 0) {
                progress.accept(String.format("reliability: %d / %d fits (%.0f s)", c, total,
                    (System.nanoTime() - t0) * 1e-9));
              }
            }
            return rs;
          }));
        }
      }
      for (Future<List<FitResult>> f : futures) {
        for (FitResult r : f.get()) {
          cells.get(r.method() + "\t" + r.spec().likelihood() + "\t" + r.spec().variant()).add(r.outcome());
          if (r.outcome() == Outcome.NON_FINITE || r.outcome() == Outcome.UNCAUGHT) {
            failures.add(r);
          } else if (r.outcome() != Outcome.CONVERGED && reported.size() < 200) {
            reported.add(r);
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    } finally {
      pool.shutdownNow();
    }
    return new Report(cells, failures, reported, (System.nanoTime() - t0) * 1e-9);
  }
}
