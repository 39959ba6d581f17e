package org.approxgp.papers.qp;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.PermutationSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.approxgp.baseline.LogisticRegression;
import org.approxgp.data.Dataset;
import org.approxgp.data.Datasets;
import org.approxgp.data.Flights;
import org.approxgp.data.RegressionData;
import org.approxgp.data.Standardizer;
import org.approxgp.experiment.Experiment;
import org.approxgp.experiment.ProjectPaths;
import org.approxgp.experiment.ResultRow;
import org.approxgp.experiment.Selects;
import org.approxgp.inference.Ep;
import org.approxgp.inference.InferenceException;
import org.approxgp.inference.Posterior;
import org.approxgp.inference.Prediction;
import org.approxgp.inference.Problem;
import org.approxgp.inference.Qp;
import org.approxgp.inference.Sites;
import org.approxgp.inference.SparsePosterior;
import org.approxgp.inference.SparseProblem;
import org.approxgp.inference.SparseSiteLoop;
import org.approxgp.kernel.Kernel;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.likelihood.Probit;
import org.approxgp.metrics.Metrics;
import org.approxgp.model.FittedGp;
import org.approxgp.model.GpModel;
import org.approxgp.model.Registry;
import org.approxgp.model.Settings;
import org.approxgp.model.SparseGpModel;
import org.approxgp.model.SvgpModel;
import org.approxgp.papers.Verdict;
import org.approxgp.papers.Verdicts;
import org.approxgp.sparse.KMeans;
import tech.tablesaw.api.Table;

/**
 * The QP paper's question where data are plentiful (issue 47): does the W2 projection (QP) beat KL (EP) in test error
 * and test log likelihood once a GP classifier is fitted to 10³ … 10⁶ points? Exact EP and QP cost O(n³), so past a
 * few thousand rows the comparison runs on M inducing inputs: sparse EP (FITC-EP) and sparse QP, the same framework
 * with the two projections (Bui, Yan &amp; Turner, JMLR 18(104), 2017, §3; {@link SparseSiteLoop}), and exact EP/QP
 * beside them where they still run.
 *
 * <p><b>Protocol.</b> Per data set and seed: a seeded held-out test set of fixed size, and training sets nested in a
 * seeded permutation of the remaining pool (the first n rows); inputs standardised on the training rows; SE-ARD,
 * probit likelihood, prior mean 0. Hyperparameters: the QP paper relies on "optimization of EP's marginal
 * likelihood" for QP (§6, "Limitations"), so both projections run at EP's θ: for the sparse pair, θ maximises the
 * sparse EP energy ({@link SparseGpModel#fit}, analytic gradient; Z fixed at the k-means centroids) on the first
 * min(n, hyperRows) training rows, then sparse EP and sparse QP each run once on all n rows at that θ and Z; for the
 * exact pair the same protocol with exact EP's evidence: θ maximises it on the first min(n, hyperRows) rows, and EP and
 * QP each run on all n rows at that θ from EP's sites there (QP as {@link QpFigure1}'s "same hyperparameters"
 * variant). Both pairs learn θ on the same rows, so the sparse-against-exact comparison isolates the inducing-point
 * approximation; and the exact pair stays affordable at n = 3,000 (learning θ there took over 25 minutes per seed on
 * this machine's two shared cores, against one EP run at the learned θ). Beside them the variational baseline users know from GPflow
 * and GPyTorch: SVGP (Hensman, Matthews &amp; Ghahramani 2015; {@link SvgpModel} at its defaults — Adam on seeded
 * minibatches of 256 rows, the slope stopping rule), θ learned by its own bound on all n rows from the same initial
 * kernel, Z at the same k-means centroids.
 */
public final class QpAtScale {
  public static final String NAME = "sparse-classification";

  /** The methods a trial can run. */
  public static final List<String> METHODS =
      List.of("sparse-ep", "sparse-qp", "svgp", "exact-ep", "exact-qp", "logistic");

  /**
   * The floor: L2-penalised logistic regression ({@link LogisticRegression}) with λ = 1, scikit-learn's default
   * (C = 1/λ = 1), on the same standardised rows.
   */
  public static final double LOGISTIC_PENALTY = 1.0;

  /** The data sets: spam (kernlab's, 4,601 rows, 57 inputs) and flights that arrive late. */
  public static final List<String> DATASETS = List.of("spam", "flights-late");

  /**
   * A flight is labelled late (+1) when it arrives after its schedule at all (arrival delay &gt; 0 minutes,
   * {@link Flights#TARGET}), as {@code bin/bench sparse classification} labels it. The Bureau of Transportation
   * Statistics' own definition (15 minutes or more) leaves a fifth of the rows positive, and there every classifier
   * tried (sparse EP and logistic regression at 2·10⁴ rows) predicted "on time" for every test row, so the test
   * error compared nothing.
   */
  public static final double LATE_MINUTES = 0;

  /**
   * @param datasets data sets ({@link #DATASETS})
   * @param methods methods ({@link #METHODS})
   * @param sizes training-set sizes n (a size larger than a data set's pool is skipped for it)
   * @param seeds seeds 0..seeds−1 (test set, permutation, k-means)
   * @param exactSeeds seeds 0..exactSeeds−1 at the sizes the exact pair runs (n ≤ exactMaxRows), at least {@code
   *     seeds}: at small n the spread over seeds is widest, and those cells are the cheap ones
   * @param inducing M, the inducing inputs of the sparse methods
   * @param hyperRows training rows on which the sparse and the exact θ are learned (the first min(n, hyperRows), in
   *     the standardisation of all n)
   * @param exactMaxRows largest n the exact methods run at
   */
  public record Config(
      @Selects List<String> datasets,
      @Selects List<String> methods,
      @Selects List<Integer> sizes,
      @Selects int seeds,
      @Selects int exactSeeds,
      int inducing,
      int hyperRows,
      @Selects int exactMaxRows) {
    public Config {
      datasets = List.copyOf(datasets);
      methods = List.copyOf(methods);
      sizes = List.copyOf(sizes);
      for (String d : datasets) {
        if (!DATASETS.contains(d)) {
          throw new IllegalArgumentException(
              "unknown data set '" + d + "' (known: " + DATASETS + ")");
        }
      }
      for (String m : methods) {
        if (!METHODS.contains(m)) {
          throw new IllegalArgumentException("unknown method '" + m + "' (known: " + METHODS + ")");
        }
      }
      if (inducing < 1 || hyperRows < inducing || seeds < 1 || exactSeeds < seeds) {
        throw new IllegalArgumentException(
            "need inducing >= 1, hyperRows >= inducing, seeds >= 1 and exactSeeds >= seeds, got "
                + inducing + ", " + hyperRows + ", " + seeds + ", " + exactSeeds);
      }
    }

    /** The same seeds at every size (exactSeeds = seeds). */
    public Config(
        List<String> datasets,
        List<String> methods,
        List<Integer> sizes,
        int seeds,
        int inducing,
        int hyperRows,
        int exactMaxRows) {
      this(datasets, methods, sizes, seeds, seeds, inducing, hyperRows, exactMaxRows);
    }

    /** The seeds of the cells at size n: exactSeeds where the exact pair runs, else seeds. */
    public int seedsAt(int n) {
      return n <= exactMaxRows ? exactSeeds : seeds;
    }

    /**
     * smoke: spam at n = 300, M = 20 (seconds); quick: spam at 1,000 and 3,000, M = 100, two seeds; full: spam as
     * quick and flights at 10³ … 10⁶, three seeds, twenty where the exact pair runs (n ≤ 3,000).
     */
    public static Config forMode(ProjectPaths.Mode mode) {
      return switch (mode) {
        case SMOKE -> new Config(List.of("spam"), METHODS, List.of(300), 1, 20, 300, 300);
        case QUICK -> new Config(List.of("spam"), METHODS, List.of(1000, 3000), 2, 100, 2000, 1000);
        case FULL ->
          new Config(
              DATASETS,
              METHODS,
              List.of(1000, 3000, 10_000, 100_000, 1_000_000),
              3,
              20,
              100,
              2000,
              3000);
      };
    }
  }

  /** One trial: {@code method} on the first {@code n} training rows of seed {@code seed}'s split of a data set. */
  public record Key(String dataset, String method, int n, long seed) {}

  private QpAtScale() {}

  /** Trials: data set × size × seed × method, sizes within the data set's pool, exact methods up to exactMaxRows. */
  public static Experiment<Config, Key> experiment(Config c) {
    List<Key> keys = new ArrayList<>();
    for (String d : c.datasets()) {
      for (int n : c.sizes()) {
        if (n > pool(d)) {
          continue;
        }
        for (int s = 0; s < c.seedsAt(n); s++) {
          for (String m : c.methods()) {
            if (m.startsWith("exact-") && n > c.exactMaxRows()) {
              continue;
            }
            keys.add(new Key(d, m, n, s));
          }
        }
      }
    }
    return Experiment.of(NAME, c, Key.class, keys, QpAtScale::trial)
        .withCost(k -> k.method().startsWith("exact-")
            ? Math.pow(k.n(), 3) / 1e6
            : k.n() * (double) c.inducing());
  }

  /** Rows held out for testing (the same for every n of a seed). */
  static int testRows(String dataset) {
    return dataset.equals("spam") ? 1000 : 10_000;
  }

  /** Rows the training sets are drawn from. */
  static int pool(String dataset) {
    return (dataset.equals("spam") ? 4601 : Flights.ROWS) - testRows(dataset);
  }

  /** Standardised training and test inputs and ±1 labels of one trial. */
  record Task(double[][] xTrain, double[] yTrain, double[][] xTest, double[] yTest) {}

  private static final Map<String, RegressionData> DATA = new ConcurrentHashMap<>();

  /** A data set's inputs and ±1 labels (loaded once per process). */
  private static RegressionData data(String dataset) {
    return DATA.computeIfAbsent(dataset, d -> {
      if (d.equals("spam")) {
        Dataset spam = Datasets.loadBinary("spam", "type", null);
        return RegressionData.of(spam.features(), spam.target());
      }
      RegressionData r = Flights.load().data();
      double[] y = new double[r.n()];
      for (int i = 0; i < y.length; i++) {
        y[i] = r.y()[i] > LATE_MINUTES ? 1 : -1;
      }
      return new RegressionData(r.x(), r.n(), r.d(), y);
    });
  }

  /** Seed {@code seed}'s test rows and first n pool rows of a data set, standardised on those training rows. */
  static Task task(String dataset, long seed, int n) {
    RegressionData d = data(dataset);
    int total = d.n();
    int[] perm = PermutationSampler.natural(total);
    UniformRandomProvider rng = RandomSource.SPLIT_MIX_64.create(seed);
    PermutationSampler.shuffle(rng, perm);
    int nt = testRows(dataset);
    if (n > total - nt) {
      throw new IllegalArgumentException(dataset + " has " + (total - nt)
          + " training rows besides its " + nt + " test rows, not " + n);
    }
    double[] y = d.y();
    double[][] xTrain = new double[n][];
    double[] yTrain = new double[n];
    for (int i = 0; i < n; i++) {
      xTrain[i] = d.row(perm[nt + i]);
      yTrain[i] = y[perm[nt + i]];
    }
    double[][] xTest = new double[nt][];
    double[] yTest = new double[nt];
    for (int i = 0; i < nt; i++) {
      xTest[i] = d.row(perm[i]);
      yTest[i] = y[perm[i]];
    }
    Standardizer s = Standardizer.fit(xTrain);
    return new Task(s.apply(xTrain), yTrain, s.apply(xTest), yTest);
  }

  /**
   * The first h training rows of {@code t} (in its standardisation: the one the trial's n rows are fitted and tested
   * in), with its test rows.
   */
  static Task head(Task t, int h) {
    return h >= t.yTrain().length
        ? t
        : new Task(
            Arrays.copyOf(t.xTrain(), h), Arrays.copyOf(t.yTrain(), h), t.xTest(), t.yTest());
  }

  /** The initial kernel: SE-ARD, every length-scale √d (standardised inputs), signal variance 1. */
  static Kernel initialKernel(int d) {
    double[] l = new double[d];
    Arrays.fill(l, Math.sqrt(d));
    return SquaredExponential.ard(l, 1.0);
  }

  /**
   * Z: the k-means centroids of the training rows of {@code t} (callers pass the first min(n, hyperRows), {@link
   * #head}; k-means++ seeded by the
   * trial's seed, at most 100 Lloyd iterations), for every sparse method of a cell.
   */
  static double[][] inducingInputs(Task t, int m, long seed) {
    return KMeans.centroidRows(t.xTrain(), m, seed, 100);
  }

  /** The sparse pair's θ and Z for one data set, seed and hyperparameter subsample. */
  record Sparse(Kernel kernel, double[][] z, int iterations, boolean converged, double seconds) {}

  private static final Map<String, Sparse> SPARSE = new ConcurrentHashMap<>();

  /**
   * θ maximising the sparse EP energy on the first min(n, hyperRows) training rows, Z at their k-means centroids
   * (k-means++ seeded by the trial's seed, at most 100 Lloyd iterations). Deterministic; memoised per process so the
   * sparse EP and QP trials of a cell share the one fit (a cache, not a result: a rerun computes the same).
   */
  static Sparse sparseHyperparameters(Config c, String dataset, long seed, int n) {
    int h = Math.min(n, c.hyperRows());
    String key = dataset + "/" + seed + "/" + n + "/" + h + "/" + c.inducing();
    return SPARSE.computeIfAbsent(key, k -> {
      long t0 = System.nanoTime();
      Task t = head(task(dataset, seed, n), h);
      double[][] z = inducingInputs(t, c.inducing(), seed);
      Kernel k0 = initialKernel(t.xTrain()[0].length);
      Problem p = new Problem(k0, t.xTrain(), t.yTrain(), Probit.get(), 0.0);
      Registry.SparseMethod ep = Registry.sparseInference("ep", Settings.none());
      SparseGpModel.Fit f = SparseGpModel.fit(
          new SparseProblem(p, z),
          ep.rule(),
          ep.loop(),
          SparseGpModel.FitOptions.hyperparameters());
      return new Sparse(
          f.posterior().problem().problem().kernel(),
          z,
          f.iterations(),
          f.converged(),
          (System.nanoTime() - t0) / 1e9);
    });
  }

  /** The exact pair's θ (exact EP's evidence maximised on the n rows) and EP's sites there. */
  record Exact(Kernel kernel, Sites sites, int iterations, boolean converged, double seconds) {}

  private static final Map<String, Exact> EXACT = new ConcurrentHashMap<>();

  /**
   * θ maximising exact EP's evidence on the first min(n, hyperRows) training rows from {@link #initialKernel}
   * (L-BFGS, the QP paper's settings), and EP's sites on all n rows at it. Both exact trials run their method at that
   * θ from those sites (EP converges in one sweep there, QP moves to its own fixed point), so a trial's row is the
   * same whether the fit was memoised (per process, O(n) numbers kept) or computed for it.
   */
  static Exact exactHyperparameters(Config c, String dataset, long seed, int n) {
    return EXACT.computeIfAbsent(dataset + "/" + seed + "/" + n + "/" + c.hyperRows(), k -> {
      long t0 = System.nanoTime();
      Task t = task(dataset, seed, n);
      Task sub = head(t, c.hyperRows());
      Problem p = new Problem(
          initialKernel(sub.xTrain()[0].length), sub.xTrain(), sub.yTrain(), Probit.get(), 0.0);
      FittedGp ep =
          GpModel.fit(p, Registry.inference("ep"), GpModel.FitOptions.optimize(p.kernel()));
      Sites sites = ep.posterior().sites();
      if (n > sub.yTrain().length) {
        sites = Ep.infer(
                new Problem(ep.kernel(), t.xTrain(), t.yTrain(), Probit.get(), 0.0),
                Ep.Options.defaults(),
                null)
            .sites();
      }
      return new Exact(
          ep.kernel(), sites, ep.iterations(), ep.converged(), (System.nanoTime() - t0) / 1e9);
    });
  }

  /** Forgets the memoised fits (tests: a row must not depend on whether a fit was memoised). */
  static void forgetFits() {
    SPARSE.clear();
    EXACT.clear();
  }

  static ResultRow trial(Config c, Key key) {
    Task t = task(key.dataset(), key.seed(), key.n());
    ResultRow.Builder b = ResultRow.builder();
    long t0 = System.nanoTime();
    Prediction pred = null;
    double[] pPositive = new double[t.yTest().length];
    double[] logLik = new double[t.yTest().length];
    boolean converged;
    String status;
    int sweeps;
    try {
      if (key.method().equals("logistic")) {
        LogisticRegression lr = LogisticRegression.fit(t.xTrain(), t.yTrain(), LOGISTIC_PENALTY);
        for (int j = 0; j < pPositive.length; j++) {
          pPositive[j] = lr.probability(t.xTest()[j]);
          logLik[j] = lr.logProbability(t.xTest()[j], t.yTest()[j]);
        }
        converged = lr.converged();
        status = "";
        sweeps = lr.iterations();
      } else if (key.method().startsWith("sparse-")) {
        Sparse h = sparseHyperparameters(c, key.dataset(), key.seed(), key.n());
        t0 = System.nanoTime();
        Registry.SparseMethod m = Registry.sparseInference(
            key.method().equals("sparse-ep") ? "ep" : "qp", Settings.none());
        Problem p = new Problem(h.kernel(), t.xTrain(), t.yTrain(), Probit.get(), 0.0);
        SparsePosterior post = SparseSiteLoop.run(
            new SparseProblem(p, h.z()), m.rule(), m.loop().withGradient(false), null);
        pred = post.predict(t.xTest());
        converged = post.diagnostics().converged();
        status = post.diagnostics().message();
        sweeps = post.diagnostics().iterations();
        b.put("hyper_rows", Math.min(key.n(), c.hyperRows()))
            .put("hyper_iterations", h.iterations())
            .put("hyper_converged", h.converged())
            .put("hyper_seconds", h.seconds())
            .put("log_evidence_per_row", post.logEvidence() / key.n());
      } else if (key.method().equals("svgp")) {
        double[][] z = inducingInputs(head(t, c.hyperRows()), c.inducing(), key.seed());
        Problem p = new Problem(
            initialKernel(t.xTrain()[0].length), t.xTrain(), t.yTrain(), Probit.get(), 0.0);
        SvgpModel.Fit f = SvgpModel.fit(
            new SparseProblem(p, z), SvgpModel.Options.defaults().withSeed(key.seed()));
        pred = f.posterior().predict(t.xTest());
        converged = f.converged();
        status = f.stopReason();
        sweeps = f.iterations();
        b.put("hyper_rows", key.n())
            .put("hyper_iterations", f.iterations())
            .put("hyper_converged", f.converged())
            .put("hyper_seconds", f.seconds())
            .put("log_evidence_per_row", f.posterior().elbo() / key.n());
      } else {
        Exact h = exactHyperparameters(c, key.dataset(), key.seed(), key.n());
        Problem p = new Problem(h.kernel(), t.xTrain(), t.yTrain(), Probit.get(), 0.0);
        Posterior post = key.method().equals("exact-ep")
            ? Ep.infer(p, Ep.Options.defaults(), h.sites())
            : Qp.infer(p, Qp.options(), h.sites());
        pred = post.predict(t.xTest());
        converged = h.converged() && post.diagnostics().converged();
        status = post.diagnostics().message();
        sweeps = post.diagnostics().iterations();
        b.put("hyper_rows", key.n())
            .put("hyper_iterations", h.iterations())
            .put("hyper_converged", h.converged())
            .put("hyper_seconds", h.seconds())
            .put("log_evidence_per_row", post.logEvidence() / key.n());
      }
    } catch (InferenceException e) {
      return b.put("failed", true).put("status", e.getMessage()).build();
    }
    if (pred != null) {
      for (int j = 0; j < pPositive.length; j++) {
        pPositive[j] =
            Probit.get().predictivePositive(pred.latentMean()[j], pred.latentVariance()[j]);
      }
      logLik = pred.logPredictive(Probit.get(), t.yTest());
    }
    return b.put("failed", false)
        .put("status", status)
        .put("converged", converged)
        .put("sweeps", sweeps)
        .put("te", Metrics.testError(pPositive, t.yTest()))
        .put("nll", Metrics.negativeLogLikelihood(logLik))
        .put("fit_seconds", (System.nanoTime() - t0) / 1e9)
        .build();
  }

  /**
   * Mean test error and NLL per data set, n and method, with the number of trials and how many of them converged
   * (failed trials left out).
   */
  public static Table summary(Table rows) {
    Table ok = rows.where(rows.booleanColumn("failed").isFalse());
    Table means = ok.summarize(
            "te",
            "nll",
            tech.tablesaw.aggregate.AggregateFunctions.mean,
            tech.tablesaw.aggregate.AggregateFunctions.count)
        .by("dataset", "n", "method");
    // how many of those fits converged (SVGP: its stopping rule ended it, not the step cap)
    Table converged = ok.summarize(
            "converged", tech.tablesaw.aggregate.AggregateFunctions.countTrue)
        .by("dataset", "n", "method");
    return means.joinOn("dataset", "n", "method").inner(converged);
  }

  /**
   * The curves of the notebook's figures: per data set, method and n (ascending), the mean test error and NLL over
   * seeds, with a series column "data set: method".
   */
  public static Table curves(Table rows) {
    Table ok = rows.where(rows.booleanColumn("failed").isFalse());
    tech.tablesaw.api.StringColumn series = tech.tablesaw.api.StringColumn.create("series");
    tech.tablesaw.api.DoubleColumn n = tech.tablesaw.api.DoubleColumn.create("n");
    tech.tablesaw.api.DoubleColumn te = tech.tablesaw.api.DoubleColumn.create("te");
    tech.tablesaw.api.DoubleColumn nll = tech.tablesaw.api.DoubleColumn.create("nll");
    Map<String, double[]> sums = new java.util.TreeMap<>();
    for (int i = 0; i < ok.rowCount(); i++) {
      String k =
          ok.stringColumn("dataset").get(i) + ": " + ok.stringColumn("method").get(i) + "\t"
              + String.format(java.util.Locale.ROOT, "%012d", ok.intColumn("n").get(i));
      double[] a = sums.computeIfAbsent(k, x -> new double[3]);
      a[0] += ok.doubleColumn("te").get(i);
      a[1] += ok.doubleColumn("nll").get(i);
      a[2]++;
    }
    for (Map.Entry<String, double[]> e : sums.entrySet()) {
      String[] parts = e.getKey().split("\t");
      double[] a = e.getValue();
      series.append(parts[0]);
      n.append(Long.parseLong(parts[1]));
      te.append(a[0] / a[2]);
      nll.append(a[1] / a[2]);
    }
    return Table.create("mean test error and NLL against n", series, n, te, nll);
  }

  /**
   * The claims tested on the rows, per data set and n with both methods of a pair at every seed: sparse QP's test
   * NLL below sparse EP's (the QP paper's Table 1 claim, at scale), sparse EP's below SVGP's (its finding that VB
   * does worst, with the variational method at scale), sparse EP's and QP's test error and NLL below logistic
   * regression's (issue 47's floor), likewise exact QP's below exact EP's, exact EP's test error and NLL below
   * logistic regression's (whether the exact GP itself clears the floor at that n: the reference for the sparse
   * pair's claims), and sparse EP's test error at most 1 point above exact EP's (issue 47's done criterion); each by
   * {@link Verdicts#pairedPositive} over seeds.
   */
  public static List<Verdict> verdicts(Table rows) {
    List<Verdict> out = new ArrayList<>();
    Table ok = rows.where(rows.booleanColumn("failed").isFalse());
    for (String d : ok.stringColumn("dataset").unique().asList()) {
      Table td = ok.where(ok.stringColumn("dataset").isEqualTo(d));
      List<Integer> ns = new ArrayList<>(td.intColumn("n").unique().asList());
      ns.sort(null);
      for (int n : ns) {
        Table cell = td.where(td.intColumn("n").isEqualTo(n));
        paired(
            out,
            cell,
            d + ", n = " + n + ": sparse QP's test NLL below sparse EP's",
            "sparse-ep",
            "sparse-qp",
            "nll",
            0.0);
        for (String sparse : List.of("sparse-ep", "sparse-qp")) {
          String name = sparse.equals("sparse-ep") ? "sparse EP" : "sparse QP";
          paired(
              out,
              cell,
              d + ", n = " + n + ": " + name + "'s test error below logistic regression's",
              "logistic",
              sparse,
              "te",
              0.0);
          paired(
              out,
              cell,
              d + ", n = " + n + ": " + name + "'s test NLL below logistic regression's",
              "logistic",
              sparse,
              "nll",
              0.0);
        }
        paired(
            out,
            cell,
            d + ", n = " + n + ": sparse EP's test NLL below SVGP's",
            "svgp",
            "sparse-ep",
            "nll",
            0.0);
        paired(
            out,
            cell,
            d + ", n = " + n + ": exact QP's test NLL below exact EP's",
            "exact-ep",
            "exact-qp",
            "nll",
            0.0);
        for (String column : List.of("te", "nll")) {
          paired(
              out,
              cell,
              d + ", n = " + n + ": exact EP's test " + (column.equals("te") ? "error" : "NLL")
                  + " below logistic regression's",
              "logistic",
              "exact-ep",
              column,
              0.0);
        }
        paired(
            out,
            cell,
            d + ", n = " + n + ": sparse EP's test error at most 1 point above exact EP's",
            "exact-ep",
            "sparse-ep",
            "te",
            0.01);
      }
    }
    return out;
  }

  /**
   * Differences per seed, (worse − better) + margin, when both methods ran at every seed of the cell: "better" is
   * claimed to score lower than "worse" (by at least −margin).
   */
  private static void paired(
      List<Verdict> out,
      Table cell,
      String claim,
      String worse,
      String better,
      String column,
      double margin) {
    Map<Long, Double> w = perSeed(cell, worse, column);
    Map<Long, Double> bt = perSeed(cell, better, column);
    if (w.isEmpty() || !w.keySet().equals(bt.keySet())) {
      return;
    }
    double[] diff = w.keySet().stream()
        .sorted()
        .mapToDouble(s -> w.get(s) - bt.get(s) + margin)
        .toArray();
    String stat = column + "(" + worse + ") − " + column + "(" + better + ")"
        + (margin != 0 ? " + " + margin : "");
    out.add(Verdicts.pairedPositive(claim, "seed (one split)", stat, diff));
  }

  private static Map<Long, Double> perSeed(Table cell, String method, String column) {
    Map<Long, Double> m = new java.util.TreeMap<>();
    for (int i = 0; i < cell.rowCount(); i++) {
      if (cell.stringColumn("method").get(i).equals(method)) {
        m.put(cell.longColumn("seed").get(i), cell.doubleColumn(column).get(i));
      }
    }
    return m;
  }
}
