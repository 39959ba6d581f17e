package org.approxgp.papers.qp;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.approxgp.data.Coal;
import org.approxgp.data.Datasets;
import org.approxgp.data.NumpyLegacyRandom;
import org.approxgp.data.Split;
import org.approxgp.data.Splits;
import org.approxgp.data.TargetKind;
import org.approxgp.experiment.Experiment;
import org.approxgp.experiment.ProjectPaths;
import org.approxgp.experiment.ResultRow;
import org.approxgp.experiment.Results;
import org.approxgp.experiment.Selects;
import org.approxgp.experiment.Summaries;
import org.approxgp.experiment.VerifyRule;
import org.approxgp.inference.Ep;
import org.approxgp.inference.Posterior;
import org.approxgp.inference.Prediction;
import org.approxgp.inference.Problem;
import org.approxgp.inference.Sites;
import org.approxgp.inference.VbOptions;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.likelihood.NegativeBinomialPredictive;
import org.approxgp.likelihood.PoissonSquareLink;
import org.approxgp.model.FittedGp;
import org.approxgp.model.GpModel;
import org.approxgp.model.InferenceMethod;
import org.approxgp.projection.W2Projection;

/**
 * QP paper (Zhang et al. 2020) §6.2 and Table 1, "Mining" row: Poisson regression with the square
 * link on the coal-mining disasters, on the resumable {@link org.approxgp.experiment.Runner}. One trial
 * per seed fits EP, QP (from EP's optimum) and VB and stores each method's TE, NTLL and
 * hyperparameters, plus the σ²_QP ≤ σ²_EP check over sites and test years. This is the only coal
 * code path: the notebook and {@code approxgp coal} both run it.
 *
 * <p>Protocol. For seed s each of the 191 event dates goes to the test sequence with probability ½
 * ({@link Splits#bernoulli}, commons-rng seeded by s — not the authors' NumPy stream), and both
 * sequences are binned into yearly counts over the same 112 years 1851–1962. Input: year − 1851 (a
 * shift only, so length-scales are in years; the SE kernel is shift-invariant, so this changes nothing
 * but the printout). Model: f ~ GP(1, k_SE-iso) — the constant prior mean 1 of the authors' code —
 * and y | f ~ Poisson(f²). Hyperparameters (length-scale, signal variance) are learnt per method by
 * L-BFGS on that method's log evidence (ELBO for VB) from ℓ₀ = {@value #INITIAL_LENGTHSCALE} years,
 * σ_f² = {@value #INITIAL_SIGNAL_VARIANCE}, the same start for every method. Prediction at the 112
 * years: f* ~ N(μ*, σ*²) → NB(k*, c*÷(1+c*)) (appendix H); TE = mean |y* − mode|, NTLL = −mean log NB
 * pmf (the paper's metrics); we also report the NTLL under the exact predictive ∫ N(f*) p(y* | f*) df*.
 *
 * <p>That is the {@linkplain Protocol#clean() clean} protocol (the paper's text). The {@linkplain
 * Protocol#authors() authors'} protocol is what their code does ({@code experiments/regression.py},
 * branch {@code no-lookup-table}): whole years, not events, go to training or test, drawn by NumPy's
 * legacy generator; their own 112 yearly counts; GPy's initial hyperparameters; VB without the mean
 * function; NTLL from GPy's {@code log_predictive_density}; ± as {@code np.std}. Each difference is a
 * separate switch of {@link Protocol}, so its effect can be measured alone.
 */
public final class QpMining {
  public static final String NAME = "qp-mining";

  /**
   * How a recomputed trial is held to its row: every result to rounding ({@link VerifyRule#ROUNDING}); the counts
   * of clipped site updates and of site updates within 25 % relative; the numbers inside the status strings within
   * 50 % (their words exactly). The two counts count events over the whole fit, line-search evaluations included,
   * and a site whose update lands within rounding of τ̃ = 0 is clipped or not by the last bit of a sum (a stored 18
   * became 20 under another BLAS kernel while every result agreed to 2e-12). A status's numbers are the final EP/QP
   * sweep's RMS change, about 1e-8, a difference of consecutive site parameters that the path of warm starts moves
   * by tens of per cent (1.87e-8 stored, 2.50e-8 recomputed, every result within 1e-12), and the optimiser's
   * iteration count. All of these are diagnostics of the path; a change of the code that moves them moves the
   * results, which are held to rounding.
   */
  static final VerifyRule VERIFY = VerifyRule.DEFAULT
      .within(
          0.25,
          "clipped_ep",
          "clipped_qp",
          "clipped_vb",
          "site_updates_ep",
          "site_updates_qp",
          "site_updates_vb")
      .within(0.5, "status_ep", "status_qp", "status_vb");

  public static final double INITIAL_LENGTHSCALE = 10.0;
  public static final double INITIAL_SIGNAL_VARIANCE = 0.1;
  public static final double PRIOR_MEAN = 1.0;
  static final int FIRST_YEAR = 1851;
  static final int LAST_YEAR = 1962;
  /** The methods of Table 1: "ep", "qp", "vb". */
  public static final List<String> METHODS = QpPaper.METHODS;

  /**
   * How the Mining experiment is run: the leak-free protocol of the paper's text ({@link #clean()}) or what
   * the authors' code does ({@link #authors()}, {@code experiments/regression.py}, functions
   * {@code coal_mining_poisson_ep} and {@code poisson_pred_error}). Each difference is one switch, so its
   * effect can be measured by flipping it alone ({@code with…} methods; the name becomes "custom").
   *
   * @param name           "clean", "authors", or "custom" once a switch was flipped
   * @param yearSplit      true (authors): {@code np.random.seed(seed)}, then one {@code np.random.rand() > 0.5}
   *                       per year 1851…1962 ({@link NumpyLegacyRandom}); True = the year with its whole count
   *                       is training, False = test; the model is fitted on the training years and scored
   *                       on the test years only. false (clean, the paper's text): each of the 191 events
   *                       goes to test with probability ½ ({@link Splits#bernoulli}, commons-rng), both
   *                       sequences binned over all 112 years; scored on all 112 years
   * @param authorsCounts  true: the authors' hard-coded yearly counts ({@code coal-authors.csv}); false:
   *                       boot's 191 dates binned per year. They differ in 1941 (4 vs 3) and 1942 (2 vs 3)
   *                       only. With the event split the counts are expanded into events in year order
   *                       (which reproduces boot's event order, so the clean split is unchanged)
   * @param gpyStart       true: the hyperparameter search starts from GPy's {@code RBF(1)} defaults ℓ = 1,
   *                       σ_f² = 1; false: from ℓ₀ = {@value #INITIAL_LENGTHSCALE}, σ_f² =
   *                       {@value #INITIAL_SIGNAL_VARIANCE}
   * @param vbMeanFunction true: VB has the constant prior mean 1 like EP/QP; false (authors): GPy's
   *                       {@code GPVariationalGaussianApproximation} as they ran it — no mean function
   *                       (prior mean 0) and GPy's start α = 0, λ = β² = 1, i.e. q(f) = N(Kα, (K⁻¹ + Λ)⁻¹)
   *                       with mean 0. With the square link p(y | f) = p(y | −f), so ∂E_q/∂m = 0 at m = 0
   *                       and the mean never leaves 0: VB fits a zero-mean posterior, predicts f*² with
   *                       mean σ*², and its NB mode is 0 in every year (k = ½ &lt; 1). Site precisions that
   *                       would go negative stay at 0 (GPy's λ = β² ≥ 0), a KKT point reported as "clipped"
   * @param exactNtll      true (authors): the NTLL is −mean log ∫ N(f* | μ*, σ*²) Poisson(y* | f*²) df*, GPy's
   *                       {@code log_predictive_density} that their {@code poisson_pred_error} averages;
   *                       false: −mean log NB(y*) of the paper's appendix H
   * @param populationSd   true (authors): ± is {@code np.std} over seeds (divisor n); false: the sample sd
   *                       (divisor n − 1)
   */
  public record Protocol(
      String name,
      boolean yearSplit,
      boolean authorsCounts,
      boolean gpyStart,
      boolean vbMeanFunction,
      boolean exactNtll,
      boolean populationSd) {
    public Protocol {
      if (name == null || name.isBlank()) {
        throw new IllegalArgumentException("protocol name must not be blank");
      }
    }

    /** The paper's text: event split, boot's data, ℓ₀ = 10, VB with the prior mean 1, NB NTLL, sample sd. */
    public static Protocol clean() {
      return new Protocol("clean", false, false, false, true, false, false);
    }

    /** The authors' code: every switch the other way. */
    public static Protocol authors() {
      return new Protocol("authors", true, true, true, false, true, true);
    }

    /** "clean" or "authors". */
    public static Protocol of(String name) {
      return switch (name) {
        case "clean" -> clean();
        case "authors" -> authors();
        default ->
          throw new IllegalArgumentException(
              "unknown protocol '" + name + "' (known: authors, clean)");
      };
    }

    private Protocol named() {
      return equals(clean().renamed(name))
          ? clean()
          : equals(authors().renamed(name)) ? authors() : renamed("custom");
    }

    private Protocol renamed(String n) {
      return new Protocol(
          n, yearSplit, authorsCounts, gpyStart, vbMeanFunction, exactNtll, populationSd);
    }

    public Protocol withYearSplit(boolean v) {
      return new Protocol(name, v, authorsCounts, gpyStart, vbMeanFunction, exactNtll, populationSd)
          .named();
    }

    public Protocol withAuthorsCounts(boolean v) {
      return new Protocol(name, yearSplit, v, gpyStart, vbMeanFunction, exactNtll, populationSd)
          .named();
    }

    public Protocol withGpyStart(boolean v) {
      return new Protocol(
              name, yearSplit, authorsCounts, v, vbMeanFunction, exactNtll, populationSd)
          .named();
    }

    public Protocol withVbMeanFunction(boolean v) {
      return new Protocol(name, yearSplit, authorsCounts, gpyStart, v, exactNtll, populationSd)
          .named();
    }

    public Protocol withExactNtll(boolean v) {
      return new Protocol(name, yearSplit, authorsCounts, gpyStart, vbMeanFunction, v, populationSd)
          .named();
    }

    public Protocol withPopulationSd(boolean v) {
      return new Protocol(name, yearSplit, authorsCounts, gpyStart, vbMeanFunction, exactNtll, v)
          .named();
    }

    /** The reported NTLL of a method result under this protocol. */
    public double ntll(MethodResult r) {
      return exactNtll ? r.ntllExact() : r.ntll();
    }

    /** ± over seeds under this protocol. */
    public double sd(double[] xs) {
      return populationSd ? Summaries.populationSd(xs) : Summaries.sd(xs);
    }
  }

  /**
   * @param seeds    seeds 0..seeds−1 (the paper: 200)
   * @param methods  a subset of {@link #METHODS} ("qp" implies an EP fit, its starting point)
   * @param protocol how the experiment is run ({@link Protocol#clean()} unless said otherwise)
   */
  public record Config(@Selects int seeds, List<String> methods, Protocol protocol) {
    /** The clean protocol. */
    public Config(int seeds, List<String> methods) {
      this(seeds, methods, Protocol.clean());
    }

    public Config {
      methods = List.copyOf(methods);
      if (protocol == null) {
        throw new IllegalArgumentException("protocol must not be null");
      }
      if (seeds < 1) {
        throw new IllegalArgumentException("seeds must be >= 1, got " + seeds);
      }
      for (String m : methods) {
        if (!METHODS.contains(m)) {
          throw new IllegalArgumentException("unknown method '" + m + "' (known: " + METHODS + ")");
        }
      }
    }

    /** smoke: 2 seeds; quick: 10; full: the paper's 200. */
    public static Config forMode(ProjectPaths.Mode mode) {
      return new Config(mode.pick(2, 10, 200), METHODS);
    }
  }

  /** One trial: the event split of {@code seed}. */
  public record Key(long seed) {}

  /**
   * The train/test yearly counts of one seed: inputs are year − 1851. Clean protocol: both over all 112
   * years; authors' protocol: the training years and the test years.
   */
  public record CoalSplit(
      double[][] xTrain,
      double[] trainCounts,
      double[][] xTest,
      double[] testCounts,
      int trainEvents,
      int testEvents) {}

  /**
   * One method's fit on one seed.
   *
   * @param method         "ep", "qp", "vb"
   * @param te             mean |y* − mode of NB| over the test years
   * @param ntll           −mean log NB(y*) over the test years (paper's NTLL)
   * @param ntllExact      −mean log ∫ N(f* | μ*, σ*²) p(y* | f*) df*
   * @param lengthscale    learnt length-scale (years)
   * @param signalVariance learnt signal variance
   * @param negLogEvidence −log Z (EP/QP) or −ELBO (VB) at the learnt hyperparameters
   * @param converged      optimiser and final inference converged
   * @param clipped        EP/QP site updates clipped to τ̃ = 0 over the whole fit (all evaluations)
   * @param siteUpdates    EP/QP site updates over the whole fit
   * @param seconds        wall time of the fit
   * @param status         the optimiser's stop reason and the final inference's diagnostics
   */
  public record MethodResult(
      String method,
      double te,
      double ntll,
      double ntllExact,
      double lengthscale,
      double signalVariance,
      double negLogEvidence,
      boolean converged,
      long clipped,
      long siteUpdates,
      double seconds,
      String status) {}

  /**
   * Everything one seed produces (one trial's row).
   *
   * @param seed                 split seed
   * @param trainEvents          events in the training sequence
   * @param testEvents           events in the test sequence
   * @param methods              one result per requested method, in the order ep, qp, vb
   * @param qpVarianceViolations training sites and test years where σ²_QP &gt; σ²_EP (relative 1e-9)
   * @param varianceComparisons  how many were compared (0 unless both EP and QP ran)
   */
  public record SeedResult(
      long seed,
      int trainEvents,
      int testEvents,
      List<MethodResult> methods,
      int qpVarianceViolations,
      int varianceComparisons) {
    public SeedResult {
      methods = List.copyOf(methods);
    }

    /** The stored row: per method m the columns {@code te_m, ntll_m, …}, then the counts. */
    public ResultRow toRow() {
      ResultRow.Builder b = ResultRow.builder();
      for (MethodResult r : methods) {
        String m = r.method();
        b.put("te_" + m, r.te())
            .put("ntll_" + m, r.ntll())
            .put("lengthscale_" + m, r.lengthscale())
            .put("signal_variance_" + m, r.signalVariance())
            .put("neg_log_evidence_" + m, r.negLogEvidence())
            .put("converged_" + m, r.converged())
            .put("ntll_exact_" + m, r.ntllExact())
            .put("clipped_" + m, r.clipped())
            .put("site_updates_" + m, r.siteUpdates())
            .put("seconds_" + m, r.seconds())
            .put("status_" + m, r.status());
      }
      return b.put("qp_variance_violations", (long) qpVarianceViolations)
          .put("variance_comparisons", (long) varianceComparisons)
          .put("train_events", (long) trainEvents)
          .put("test_events", (long) testEvents)
          .build();
    }

    /** Reads a stored row back ({@link #toRow()}'s inverse). */
    public static SeedResult fromRow(long seed, ResultRow row, List<String> methods) {
      List<MethodResult> rs = new ArrayList<>();
      for (String m : methods) {
        rs.add(new MethodResult(
            m,
            row.getDouble("te_" + m),
            row.getDouble("ntll_" + m),
            row.getDouble("ntll_exact_" + m),
            row.getDouble("lengthscale_" + m),
            row.getDouble("signal_variance_" + m),
            row.getDouble("neg_log_evidence_" + m),
            (Boolean) row.get("converged_" + m),
            (long) row.getDouble("clipped_" + m),
            (long) row.getDouble("site_updates_" + m),
            row.getDouble("seconds_" + m),
            (String) row.get("status_" + m)));
      }
      return new SeedResult(
          seed,
          (int) row.getDouble("train_events"),
          (int) row.getDouble("test_events"),
          rs,
          (int) row.getDouble("qp_variance_violations"),
          (int) row.getDouble("variance_comparisons"));
    }
  }

  private QpMining() {}

  /** One trial per seed. */
  public static Experiment<Config, Key> experiment(Config c) {
    List<Key> keys = new ArrayList<>();
    for (int s = 0; s < c.seeds(); s++) {
      keys.add(new Key(s));
    }
    return Experiment.of(NAME, c, Key.class, keys, QpMining::trial).withVerifyRule(VERIFY);
  }

  static ResultRow trial(Config c, Key key) {
    return fit(key.seed(), c.methods(), c.protocol()).toRow();
  }

  /** The clean protocol's split: {@code split(seed, Protocol.clean())}. */
  public static CoalSplit split(long seed) {
    return split(seed, Protocol.clean());
  }

  /** The split of {@code seed} under {@code protocol} (see {@link Protocol#yearSplit()}). */
  public static CoalSplit split(long seed, Protocol protocol) {
    if (!protocol.authorsCounts() && !protocol.yearSplit()) {
      return eventSplit(seed, Datasets.load("coal", "date", TargetKind.REAL).target());
    }
    double[] counts = (protocol.authorsCounts()
            ? Datasets.coalYearlyCountsAuthors()
            : Datasets.coalYearlyCounts())
        .target();
    if (!protocol.yearSplit()) {
      // each counted event at mid-year, in year order: binning gives back the counts
      List<Double> events = new ArrayList<>();
      for (int i = 0; i < counts.length; i++) {
        for (int c = 0; c < counts[i]; c++) {
          events.add(FIRST_YEAR + i + 0.5);
        }
      }
      return eventSplit(seed, events.stream().mapToDouble(Double::doubleValue).toArray());
    }
    NumpyLegacyRandom rng = NumpyLegacyRandom.seed(seed);
    List<double[]> xtr = new ArrayList<>();
    List<double[]> xte = new ArrayList<>();
    List<Double> ytr = new ArrayList<>();
    List<Double> yte = new ArrayList<>();
    int trainEvents = 0;
    int testEvents = 0;
    for (int i = 0; i < counts.length; i++) {
      boolean train = rng.rand() > 0.5;
      (train ? xtr : xte).add(new double[] {i}); // year − 1851
      (train ? ytr : yte).add(counts[i]);
      if (train) {
        trainEvents += (int) counts[i];
      } else {
        testEvents += (int) counts[i];
      }
    }
    return new CoalSplit(
        xtr.toArray(double[][]::new),
        ytr.stream().mapToDouble(Double::doubleValue).toArray(),
        xte.toArray(double[][]::new),
        yte.stream().mapToDouble(Double::doubleValue).toArray(),
        trainEvents,
        testEvents);
  }

  /** Splits the events (decimal dates, in date order) for a seed and bins both sequences per year. */
  private static CoalSplit eventSplit(long seed, double[] dates) {
    Split s = Splits.bernoulli(dates.length, 0.5, seed);
    double[] tr = new double[s.train().length];
    double[] te = new double[s.test().length];
    for (int i = 0; i < tr.length; i++) {
      tr[i] = dates[s.train()[i]];
    }
    for (int i = 0; i < te.length; i++) {
      te[i] = dates[s.test()[i]];
    }
    int[] ctr = Coal.yearlyCounts(tr, FIRST_YEAR, LAST_YEAR);
    int[] cte = Coal.yearlyCounts(te, FIRST_YEAR, LAST_YEAR);
    int n = ctr.length;
    double[][] x = new double[n][];
    double[] ytr = new double[n];
    double[] yte = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = new double[] {i}; // year − 1851
      ytr[i] = ctr[i];
      yte[i] = cte[i];
    }
    return new CoalSplit(x, ytr, x, yte, tr.length, te.length);
  }

  /** A method's scored fit and the fit itself. */
  private record Scored(MethodResult result, FittedGp fit) {}

  /**
   * Fits the requested methods on one seed (the Mining trial). EP and VB start from (ℓ₀, σ_f²₀); QP,
   * as in the authors' code, starts from EP's learnt hyperparameters and EP's sites (so "qp" implies
   * an EP fit).
   *
   * @throws IllegalStateException if a method's fit fails (the trial fails and a rerun retries it)
   */
  public static SeedResult fit(long seed, List<String> methods) {
    return fit(seed, methods, Protocol.clean());
  }

  /**
   * Fits the requested methods on one seed under {@code protocol} (see {@link #fit(long, List)}).
   *
   * @throws IllegalStateException if a method's fit fails (the trial fails and a rerun retries it)
   */
  public static SeedResult fit(long seed, List<String> methods, Protocol protocol) {
    CoalSplit d = split(seed, protocol);
    SquaredExponential k0 = protocol.gpyStart()
        ? SquaredExponential.iso(1.0, 1.0)
        : SquaredExponential.iso(INITIAL_LENGTHSCALE, INITIAL_SIGNAL_VARIANCE);
    Problem problem =
        new Problem(k0, d.xTrain(), d.trainCounts(), PoissonSquareLink.get(), PRIOR_MEAN);
    List<MethodResult> rows = new ArrayList<>();
    Scored ep = null;
    Scored qp = null;
    if (methods.contains("ep") || methods.contains("qp")) {
      ep = fitAndScore(seed, "ep", InferenceMethod.ep(Ep.Options.defaults()), problem, d);
      if (methods.contains("ep")) {
        rows.add(ep.result());
      }
    }
    if (methods.contains("qp")) {
      Sites epSites = ep.fit().posterior().sites();
      // QP's objective (eq. 2 at QP's sites) by central differences: the EP-form gradient is not
      // its gradient
      InferenceMethod qpMethod = InferenceMethod.withNumericalGradient(
          InferenceMethod.ep(Ep.Options.defaults().withProjection(W2Projection.exact())), 1e-4);
      InferenceMethod fromEp = new InferenceMethod() {
        @Override
        public String name() {
          return "qp";
        }

        @Override
        public Posterior infer(Problem p, Sites warm) {
          return qpMethod.infer(p, warm == null ? epSites : warm);
        }
      };
      qp = fitAndScore(seed, "qp", fromEp, problem.withKernel(ep.fit().kernel()), d);
      rows.add(qp.result());
    }
    if (methods.contains("vb")) {
      InferenceMethod vb = InferenceMethod.vb(VbOptions.defaults());
      rows.add(
          protocol.vbMeanFunction()
              ? fitAndScore(seed, "vb", CoalStarts.likelihoodModeStart(vb), problem, d)
                  .result()
              : CoalStarts.fitGpyVb(seed, k0, d));
    }
    int violations = 0;
    int comparisons = 0;
    if (qp != null) {
      Prediction epPred = ep.fit().predict(d.xTest());
      Prediction qpPred = qp.fit().predict(d.xTest());
      double[] epSiteVar = ep.fit().posterior().variance();
      double[] qpSiteVar = qp.fit().posterior().variance();
      for (int j = 0; j < epPred.size(); j++) {
        comparisons++;
        if (qpPred.latentVariance()[j] > epPred.latentVariance()[j] * (1 + 1e-9)) {
          violations++;
        }
      }
      for (int i = 0; i < epSiteVar.length; i++) {
        comparisons++;
        if (qpSiteVar[i] > epSiteVar[i] * (1 + 1e-9)) {
          violations++;
        }
      }
    }
    return new SeedResult(seed, d.trainEvents(), d.testEvents(), rows, violations, comparisons);
  }

  /** Fits one method by L-BFGS from the problem's kernel and scores it on the test years. */
  private static Scored fitAndScore(
      long seed, String methodName, InferenceMethod method, Problem problem, CoalSplit d) {
    long t0 = System.nanoTime();
    CoalStarts.Counting counting = new CoalStarts.Counting(method);
    FittedGp fit;
    try {
      fit = GpModel.fit(problem, counting, GpModel.FitOptions.optimize(problem.kernel()));
    } catch (RuntimeException e) {
      throw new IllegalStateException(methodName + " failed on seed " + seed + ": " + e, e);
    }
    Prediction p = fit.predict(d.xTest());
    int m = d.testCounts().length;
    double te = 0;
    double ntll = 0;
    double ntllExact = 0;
    for (int j = 0; j < m; j++) {
      NegativeBinomialPredictive nb =
          NegativeBinomialPredictive.of(p.latentMean()[j], p.latentVariance()[j]);
      double y = d.testCounts()[j];
      te += Math.abs(y - nb.mode());
      ntll -= nb.logPmf(y);
      ntllExact -= PoissonSquareLink.get()
          .logPredictive(y, p.latentMean()[j], Math.max(p.latentVariance()[j], 1e-300));
    }
    SquaredExponential k = (SquaredExponential) fit.kernel();
    MethodResult r = new MethodResult(
        methodName,
        te / m,
        ntll / m,
        ntllExact / m,
        k.lengthscales()[0],
        k.signalVariance(),
        -fit.logEvidence(),
        fit.converged(),
        counting.clipped,
        counting.updates,
        (System.nanoTime() - t0) * 1e-9,
        fit.optimizerStatus() + "; " + fit.posterior().diagnostics());
    return new Scored(r, fit);
  }

  /** The stored rows of a run as records, in trial order. */
  public static List<SeedResult> seedResults(Results<Key> results, List<String> methods) {
    List<SeedResult> out = new ArrayList<>();
    for (int i = 0; i < results.rows().size(); i++) {
      out.add(SeedResult.fromRow(results.keys().get(i).seed(), results.rows().get(i), methods));
    }
    return out;
  }

  /** {@code base} with each switch flipped alone, by switch name (for an explanation table). */
  public static Map<String, Protocol> singleSwitches(Protocol base) {
    Map<String, Protocol> out = new java.util.LinkedHashMap<>();
    out.put("yearSplit", base.withYearSplit(!base.yearSplit()));
    out.put("authorsCounts", base.withAuthorsCounts(!base.authorsCounts()));
    out.put("gpyStart", base.withGpyStart(!base.gpyStart()));
    out.put("vbMeanFunction", base.withVbMeanFunction(!base.vbMeanFunction()));
    out.put("exactNtll", base.withExactNtll(!base.exactNtll()));
    out.put("populationSd", base.withPopulationSd(!base.populationSd()));
    return out;
  }
}
