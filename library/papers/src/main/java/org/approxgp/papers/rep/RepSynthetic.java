package org.approxgp.papers.rep;

import java.util.ArrayList;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.approxgp.experiment.Experiment;
import org.approxgp.experiment.ProjectPaths;
import org.approxgp.experiment.ResultRow;
import org.approxgp.experiment.Results;
import org.approxgp.inference.Posterior;
import org.approxgp.model.Methods;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * REP paper Figures 2–4 (§6.2): a synthetic 2-D classification problem with flipped training labels, GP
 * classification with the noisy-step likelihood (ε = the flip rate) and the isotropic SE kernel, EP against
 * Power EP and Relaxed EP. Power EP is the paper's appendix C variant ("PEP (App. C)"), which decides the claims, with
 * Minka's ("PEP (Minka)") beside it ({@link RepMethods#METHODS}, {@link #agreement}).
 *
 * <p><b>The generator</b> ({@link #generate}; the paper gives no means or covariances, these are ours): class +1
 * ("class 1", one Gaussian) ~ N((0, 0), [[1, 0.5], [0.5, 1]]); class −1 ("class 2", a mixture) ~
 * ½ N((−1.8, 1.8), 0.6 I) + ½ N((1.8, −1.8), 0.6 I) — class 1 lies along the diagonal between the two components,
 * so the Bayes boundary is two curves. {@code perClass} points of each class; then exactly round(rate·n) labels,
 * chosen uniformly, are flipped. Test sets are drawn the same way and never flipped (paper: "we did not randomly
 * flip the labels ... in the test data").
 *
 * <p><b>Protocol.</b> Figure 4 ({@link #experiment}): for each flip rate and repetition r, training set
 * {@code generate(trainPerClass, rate, seed r)}, test set {@code generate(testPerClass, 0, seed 10⁶ + r)}; for
 * each method, (ℓ, u) or (ℓ, c) by k-fold CV of the held-out error on the (noisy) training labels over the
 * config's grids; the fit at the chosen values; recorded: sweeps until R(iter) &lt; 10⁻³, whether it diverged,
 * test error, and the fit at the one length-scale per repetition shared by all methods ({@link
 * RepCv#sharedLengthscale}, chosen from the grids of {@link RepMethods#SHARED_LENGTHSCALE}); {@link #summary} gives failed and diverged fractions and averages over the common
 * repetitions. Figures 2–3 ({@link #figureExperiment}): repetition 0 of each flip rate, u = 0.8 and c = 10 as
 * the paper, ℓ by CV; recorded: R(iter) per sweep and the latent mean on a grid (for the decision boundary).
 * {@link RepSizes#synthetic} sets a config's sizes beside the paper's; {@link Config#paper} is the paper's protocol:
 * {@code Runner.defaults().run(RepSynthetic.experiment(RepSynthetic.Config.paper("keep")))}.
 */
public final class RepSynthetic {
  public static final String NAME = "rep-synthetic";
  public static final String FIGURES_NAME = "rep-synthetic-figures";

  /** Class +1's mean and covariance. */
  public static final double[] CLASS1_MEAN = {0, 0};

  public static final double[][] CLASS1_COV = {{1.0, 0.5}, {0.5, 1.0}};
  /** Class −1's two equally weighted components (means; covariance {@link #CLASS2_VARIANCE}·I). */
  public static final double[][] CLASS2_MEANS = {{-1.8, 1.8}, {1.8, -1.8}};

  public static final double CLASS2_VARIANCE = 0.6;
  /** The plotting window of Figure 2. */
  public static final double[] WINDOW = {-4.5, 4.5};

  /**
   * @param x inputs (class +1 first, then class −1)
   * @param y labels after flipping
   * @param clean labels before flipping
   */
  public record Sample(double[][] x, double[] y, double[] clean) {}

  /**
   * @param flipPercents  label-flip rates in percent (ε = rate)
   * @param repetitions   data sets per rate (paper: 10)
   * @param trainPerClass training points per class (paper: 200)
   * @param testPerClass  test points per class (paper: 19,800)
   * @param lengthscales  SE length-scale grid for CV
   * @param powers        Power EP's u grid for CV
   * @param penalties     Relaxed EP's c grid for CV
   * @param cvFolds       CV folds
   * @param maxSweeps     sweep cap (a run that has not converged by then has diverged)
   * @param negativeSites "keep" or "clip"
   * @param figureGrid    points per axis of Figure 2's grid
   * @param reading       Relaxed EP's reading (null: the defaults)
   *
   * <p>Algorithm version 2: cross-validation errors within {@link RepCv#TIE} are tied and a tie keeps the earlier
   * grid point (version 1 compared the sums to the last bit, so two equal error counts summed in different orders
   * could pick the later point).
   */
  @org.approxgp.experiment.AlgorithmVersion(2)
  public record Config(
      List<Integer> flipPercents,
      int repetitions,
      int trainPerClass,
      int testPerClass,
      List<Double> lengthscales,
      List<Double> powers,
      List<Double> penalties,
      int cvFolds,
      int maxSweeps,
      String negativeSites,
      int figureGrid,
      Methods.RepReading reading) {
    public Config {
      reading = reading == null ? Methods.RepReading.DEFAULT : reading;
      flipPercents = List.copyOf(flipPercents);
      lengthscales = List.copyOf(lengthscales);
      powers = List.copyOf(powers);
      penalties = List.copyOf(penalties);
      if (repetitions < 1
          || trainPerClass < 2
          || testPerClass < 1
          || cvFolds < 2
          || maxSweeps < 1) {
        throw new IllegalArgumentException("bad config " + flipPercents + ", " + repetitions);
      }
      if (!RepMethods.POLICIES.contains(negativeSites)) {
        throw new IllegalArgumentException("negativeSites must be one of " + RepMethods.POLICIES);
      }
    }

    /**
     * smoke: 20 %, one repetition, 40 + 40 training points, 500 + 500 test, ℓ = 1, u = 0.8, c = 10 (no CV), 30
     * sweeps; quick: 10 % and 20 %, 2 repetitions, 100 + 100 training points, 2,000 + 2,000 test, ℓ ∈ {0.5, 1, 2}
     * by 3-fold CV, u = 0.8, c = 10, 60 sweeps; full: the paper's data (§6.2: 10 repetitions, 200 + 200 training,
     * 19,800 + 19,800 test points) but a 3 × 3 grid, every other point of {@link #paper}'s, by 3-fold CV (ℓ ∈ {0.25,
     * 1, 4}, u ∈ {0.5, 0.7, 0.9}, c ∈ {1, 10, 100}), 200 sweeps, for minutes on two cores. "keep": Minka's EP.
     */
    public static Config forMode(ProjectPaths.Mode mode, String negativeSites) {
      return switch (mode) {
        case SMOKE ->
          new Config(
              List.of(20),
              1,
              40,
              500,
              List.of(1.0),
              List.of(0.8),
              List.of(10.0),
              2,
              30,
              negativeSites,
              25,
              null);
        case QUICK ->
          new Config(
              List.of(10, 20),
              2,
              100,
              2000,
              List.of(0.5, 1.0, 2.0),
              List.of(0.8),
              List.of(10.0),
              3,
              60,
              negativeSites,
              50,
              null);
        case FULL ->
          new Config(
              List.of(10, 20),
              10,
              200,
              19_800,
              List.of(0.25, 1.0, 4.0),
              List.of(0.5, 0.7, 0.9),
              List.of(1.0, 10.0, 100.0),
              3,
              200,
              negativeSites,
              100,
              null);
      };
    }

    /** The paper's sizes (§6.2), our 5 × 5 grid by 5-fold CV (it names none), 200 sweeps: ~10 core-minutes a policy. */
    public static Config paper(String negativeSites) {
      return new Config(
          List.of(10, 20),
          10,
          200,
          19_800,
          List.of(0.25, 0.5, 1.0, 2.0, 4.0),
          List.of(0.5, 0.6, 0.7, 0.8, 0.9),
          List.of(1.0, 3.0, 10.0, 30.0, 100.0),
          5,
          200,
          negativeSites,
          100,
          null);
    }

    /** This config with Relaxed EP in {@code r} (e.g. {@code new Methods.RepReading("c", null, null, "global")}). */
    public Config withReading(Methods.RepReading r) {
      return new Config(
          flipPercents,
          repetitions,
          trainPerClass,
          testPerClass,
          lengthscales,
          powers,
          penalties,
          cvFolds,
          maxSweeps,
          negativeSites,
          figureGrid,
          r);
    }
  }

  /** Figure 4's trial: one method on repetition {@code repetition} at {@code flipPercent} % label noise. */
  public record Key(int flipPercent, int repetition, String method) {}

  /** Figures 2–3's trial: one method on repetition 0 at {@code flipPercent} %. */
  public record FigureKey(int flipPercent, String method) {}

  private RepSynthetic() {}

  /**
   * {@code perClass} points of each class (class +1 first), then exactly round(rate·2·perClass) labels flipped,
   * all from one seeded generator (see the class comment for the distributions).
   */
  public static Sample generate(int perClass, double flipRate, long seed) {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(rng);
    int n = 2 * perClass;
    double[][] x = new double[n][];
    double[] y = new double[n];
    // Cholesky factor of CLASS1_COV: [[a, 0], [b, c]]
    double a = Math.sqrt(CLASS1_COV[0][0]);
    double b = CLASS1_COV[1][0] / a;
    double c = Math.sqrt(CLASS1_COV[1][1] - b * b);
    double sd2 = Math.sqrt(CLASS2_VARIANCE);
    for (int i = 0; i < perClass; i++) {
      double z0 = g.sample();
      double z1 = g.sample();
      x[i] = new double[] {CLASS1_MEAN[0] + a * z0, CLASS1_MEAN[1] + b * z0 + c * z1};
      y[i] = 1;
    }
    for (int i = perClass; i < n; i++) {
      double[] m = CLASS2_MEANS[rng.nextInt(2)];
      x[i] = new double[] {m[0] + sd2 * g.sample(), m[1] + sd2 * g.sample()};
      y[i] = -1;
    }
    return new Sample(x, RepCv.flip(y, flipRate, rng.nextLong()), y);
  }

  /** Figure 4's trials: every flip rate × repetition × method. */
  public static Experiment<Config, Key> experiment(Config c) {
    List<Key> keys = new ArrayList<>();
    for (int f : c.flipPercents()) {
      for (int r = 0; r < c.repetitions(); r++) {
        for (String m : RepMethods.METHODS) {
          keys.add(new Key(f, r, m));
        }
      }
    }
    return Experiment.of(NAME + "-" + c.negativeSites(), c, Key.class, keys, RepSynthetic::trial)
        .withVerifyRule(RepPaper.VERIFY);
  }

  /** Figures 2–3's trials: every flip rate × method, repetition 0. */
  public static Experiment<Config, FigureKey> figureExperiment(Config c) {
    List<FigureKey> keys = new ArrayList<>();
    for (int f : c.flipPercents()) {
      for (String m : RepMethods.METHODS) {
        keys.add(new FigureKey(f, m));
      }
    }
    return Experiment.of(
            FIGURES_NAME + "-" + c.negativeSites(),
            c,
            FigureKey.class,
            keys,
            RepSynthetic::figureTrial)
        .withVerifyRule(RepPaper.VERIFY);
  }

  static ResultRow trial(Config c, Key key) {
    double eps = key.flipPercent() / 100.0;
    Sample train = generate(c.trainPerClass(), eps, key.repetition());
    Sample test = generate(c.testPerClass(), 0, 1_000_000L + key.repetition());
    List<Object> keys = new ArrayList<>();
    List<java.util.function.Supplier<RepCv.Grid>> computes = new ArrayList<>();
    List<String> gridMethods = RepCv.gridMethods(key.method());
    for (String m : gridMethods) {
      List<Double> pars = RepMethods.isPowerEp(m) ? c.powers() : c.penalties();
      keys.add(List.of(c, key.flipPercent(), key.repetition(), m));
      computes.add(() -> RepCv.grid(
          train.x(),
          train.y(),
          c.lengthscales(),
          pars,
          m,
          eps,
          c.negativeSites(),
          c.cvFolds(),
          7L * key.repetition() + 1,
          c.maxSweeps(),
          c.reading()));
    }
    // each method's trial starts at its own grid, so a unit's trials on two threads compute its
    // grids side by side
    int mine = gridMethods.indexOf(key.method());
    List<RepCv.Grid> grids = RepCv.memoAll(keys, computes, mine);
    RepCv.Grid own = grids.get(mine);
    RepCv.Choice ch = own.best();
    RepCv.Choice shared = own.bestAt(RepCv.sharedLengthscale(RepCv.sharedGrids(grids)));
    return fitRow(c, train, test, key.method(), ch, eps, false, shared);
  }

  static ResultRow figureTrial(Config c, FigureKey key) {
    double eps = key.flipPercent() / 100.0;
    Sample train = generate(c.trainPerClass(), eps, 0);
    Sample test = generate(c.testPerClass(), 0, 1_000_000L);
    double par =
        RepMethods.isPowerEp(key.method()) ? RepPaper.FIGURE2_POWER : RepPaper.FIGURE2_PENALTY;
    RepCv.Choice ch = RepCv.grid(
            train.x(),
            train.y(),
            c.lengthscales(),
            List.of(par),
            key.method(),
            eps,
            c.negativeSites(),
            c.cvFolds(),
            1,
            c.maxSweeps(),
            c.reading())
        .best();
    return fitRow(c, train, test, key.method(), ch, eps, true, null);
  }

  /** One fit's row; with {@code shared} non-null also the fit at the shared length-scale's choice. */
  private static ResultRow fitRow(
      Config c,
      Sample train,
      Sample test,
      String method,
      RepCv.Choice ch,
      double eps,
      boolean figure,
      RepCv.Choice shared) {
    long t0 = System.nanoTime();
    Posterior p = RepCv.fit(
        train.x(),
        train.y(),
        ch.lengthscale(),
        method,
        ch.parameter(),
        eps,
        c.negativeSites(),
        c.maxSweeps(),
        c.reading());
    ResultRow.Builder b = ResultRow.builder();
    if (shared != null) {
      Posterior ps = shared.equals(ch)
          ? p
          : RepCv.fit(
              train.x(),
              train.y(),
              shared.lengthscale(),
              method,
              shared.parameter(),
              eps,
              c.negativeSites(),
              c.maxSweeps(),
              c.reading());
      b.put("shared_lengthscale", shared.lengthscale())
          .put("shared_parameter", shared.parameter())
          .put("failed_shared", ps == null)
          .put(
              "test_error_shared",
              ps == null ? Double.NaN : RepCv.testError(ps, test.x(), test.clean()));
    }
    b.put("lengthscale", ch.lengthscale())
        .put("parameter", ch.parameter())
        .put("cv_error", ch.cvError())
        .put("failed", p == null);
    if (p == null) {
      return b.put("test_error", Double.NaN)
          .put("sweeps", (long) c.maxSweeps())
          .put("sweeps_to_R", (long) -1)
          .put("converged", false)
          .put("diverged", true)
          .put("seconds", (System.nanoTime() - t0) * 1e-9)
          .build();
    }
    double[] trace = RepMethods.trace(p);
    b.put("test_error", RepCv.testError(p, test.x(), test.clean()))
        .put("sweeps", (long) p.diagnostics().iterations())
        .put("sweeps_to_R", (long) RepMethods.sweepsTo(trace, RepPaper.CONVERGENCE_THRESHOLD))
        .put("converged", p.diagnostics().converged())
        .put("diverged", RepMethods.diverged(p))
        .put("seconds", (System.nanoTime() - t0) * 1e-9);
    if (figure) {
      b.put("trace", trace).put("grid_mean", p.predict(grid(c.figureGrid())).latentMean());
    }
    return b.build();
  }

  /** Figure 2's grid: {@code m} × {@code m} points over {@link #WINDOW}², row-major (x1 outer). */
  public static double[][] grid(int m) {
    double[][] out = new double[m * m][];
    double lo = WINDOW[0];
    double h = (WINDOW[1] - WINDOW[0]) / (m - 1);
    for (int i = 0; i < m; i++) {
      for (int j = 0; j < m; j++) {
        out[i * m + j] = new double[] {lo + i * h, lo + j * h};
      }
    }
    return out;
  }

  /**
   * Figure 2 as plot data (columns x1, x2, series): the training points of repetition 0 at {@code flipPercent} %
   * by (noisy) label, and for each method the midpoints of grid edges across which the latent mean changes sign
   * (its decision boundary, drawn as dots).
   */
  public static Table boundaries(Config c, Results<FigureKey> figures, int flipPercent) {
    DoubleColumn x1 = DoubleColumn.create("x1");
    DoubleColumn x2 = DoubleColumn.create("x2");
    StringColumn series = StringColumn.create("series");
    Sample train = generate(c.trainPerClass(), flipPercent / 100.0, 0);
    for (int i = 0; i < train.x().length; i++) {
      x1.append(train.x()[i][0]);
      x2.append(train.x()[i][1]);
      series.append(train.y()[i] > 0 ? "y = +1" : "y = -1");
    }
    int m = c.figureGrid();
    double[][] g = grid(m);
    for (int k = 0; k < figures.keys().size(); k++) {
      FigureKey key = figures.keys().get(k);
      ResultRow row = figures.rows().get(k);
      if (key.flipPercent() != flipPercent || row.get("grid_mean") == null) {
        continue;
      }
      double[] mu = row.getDoubles("grid_mean");
      for (int i = 0; i < m; i++) {
        for (int j = 0; j < m; j++) {
          int here = i * m + j;
          for (int nb : new int[] {i + 1 < m ? here + m : -1, j + 1 < m ? here + 1 : -1}) {
            if (nb >= 0 && (mu[here] >= 0) != (mu[nb] >= 0)) {
              x1.append(0.5 * (g[here][0] + g[nb][0]));
              x2.append(0.5 * (g[here][1] + g[nb][1]));
              series.append("boundary " + RepMethods.label(key.method()));
            }
          }
        }
      }
    }
    return Table.create(
        "Figure 2: decision boundaries, " + flipPercent + " % flipped", x1, x2, series);
  }

  /** Figure 3 as plot data: columns iteration, R, series (method) for {@code flipPercent} %. */
  public static Table traces(Results<FigureKey> figures, int flipPercent) {
    DoubleColumn it = DoubleColumn.create("iteration");
    DoubleColumn r = DoubleColumn.create("R");
    StringColumn series = StringColumn.create("method");
    for (int k = 0; k < figures.keys().size(); k++) {
      FigureKey key = figures.keys().get(k);
      if (key.flipPercent() != flipPercent || figures.rows().get(k).get("trace") == null) {
        continue;
      }
      double[] t = figures.rows().get(k).getDoubles("trace");
      for (int i = 0; i < t.length; i++) {
        it.append(i + 1);
        r.append(t[i]);
        series.append(RepMethods.label(key.method()));
      }
    }
    return Table.create("Figure 3: R(iter), " + flipPercent + " % flipped", it, r, series);
  }

  /**
   * Figure 2–3's per-method numbers: ℓ, sweeps, sweeps to R &lt; 10⁻³, diverged, test error; methods by their
   * {@link RepMethods#label}.
   */
  public static Table figureSummary(Results<FigureKey> figures) {
    Table t = figures.table();
    Table out = t.selectColumns(
            "flipPercent",
            "method",
            "lengthscale",
            "parameter",
            "sweeps",
            "sweeps_to_R",
            "diverged",
            "test_error")
        .copy();
    StringColumn labels = StringColumn.create("method");
    out.stringColumn("method").forEach(m -> labels.append(RepMethods.label(m)));
    return out.replaceColumn("method", labels);
  }

  /**
   * Figure 2's iteration counts at flip rate {@code flipPercent}: per method (by label) our sweeps and whether the run
   * diverged, beside the paper's iterations and divergence from its text (§6.2: EP 80 and diverged, PEP 20, REP 10),
   * which are the appendix C Power EP's; Minka's Power EP, which the paper did not run, has none (NaN, "—").
   */
  public static Table figure2Iterations(Results<FigureKey> figures, int flipPercent) {
    StringColumn method = StringColumn.create("method");
    DoubleColumn sweeps = DoubleColumn.create("ours: sweeps (" + flipPercent + " %)");
    StringColumn diverged = StringColumn.create("ours: diverged");
    DoubleColumn paper = DoubleColumn.create("paper: iterations (§6.2, 20 %)");
    StringColumn paperDiverged = StringColumn.create("paper: diverged");
    for (int k = 0; k < figures.keys().size(); k++) {
      FigureKey key = figures.keys().get(k);
      if (key.flipPercent() != flipPercent) {
        continue;
      }
      ResultRow row = figures.rows().get(k);
      String m = key.method();
      method.append(RepMethods.label(m));
      sweeps.append(row.getDouble("sweeps"));
      diverged.append(Boolean.TRUE.equals(row.get("diverged")) ? "yes" : "no");
      paper.append(
          m.equals("ep")
              ? RepPaper.FIGURE2_EP_ITERATIONS
              : m.equals(RepMethods.POWER_EP_APPENDIX_C)
                  ? RepPaper.FIGURE2_PEP_ITERATIONS
                  : m.equals("rep") ? RepPaper.FIGURE2_REP_ITERATIONS : Double.NaN);
      paperDiverged.append(
          m.equals("ep") ? "yes" : RepMethods.PAPER.contains(m) ? "no" : "— (not run)");
    }
    return Table.create("Figure 2 iterations", method, sweeps, diverged, paper, paperDiverged);
  }

  /**
   * Figure 4: per flip rate and method, over repetitions: mean sweeps to R &lt; 10⁻³ (a run that never got there
   * counts as the cap + 1), fraction of runs failed (no fit) and diverged, test error mean ± sd over the common
   * repetitions (every method produced a fit) and their number, the same counting a failed fit as error 1, and the
   * common-repetition mean at the one length-scale per repetition shared by all methods.
   */
  public static Table summary(Table rows) {
    List<String> unit = List.of("flipPercent", "repetition");
    Table t = RepGroups.withProtocolColumns(rows, unit, RepGroups.methodsIn(rows), "test_error");
    boolean shared = t.columnNames().contains("test_error_shared");
    if (shared) {
      t = RepGroups.withProtocolColumns(t, unit, RepGroups.methodsIn(rows), "test_error_shared");
    }
    DoubleColumn flip = DoubleColumn.create("flip %");
    StringColumn method = StringColumn.create("method");
    DoubleColumn runs = DoubleColumn.create("runs");
    DoubleColumn sweeps = DoubleColumn.create("sweeps to R<1e-3");
    DoubleColumn failed = DoubleColumn.create("fraction failed");
    DoubleColumn div = DoubleColumn.create("fraction diverged");
    DoubleColumn common = DoubleColumn.create("common runs");
    DoubleColumn te = DoubleColumn.create("test error");
    DoubleColumn teSd = DoubleColumn.create("test error sd");
    DoubleColumn teFail = DoubleColumn.create("failure = error: test error");
    DoubleColumn teShared = DoubleColumn.create("shared ℓ: test error");
    DoubleColumn sdShared = DoubleColumn.create("shared ℓ: sd");
    List<String> cols = new ArrayList<>(List.of(
        "sweeps_to_R", "failed", "diverged", "test_error_common", "test_error_failure_as_error"));
    if (shared) {
      cols.add("test_error_shared_common");
    }
    for (RepGroups g : RepGroups.of(t, List.of("flipPercent", "method"), cols)) {
      flip.append(Double.parseDouble(g.key().get(0)));
      method.append(RepMethods.label(g.key().get(1)));
      runs.append(g.size());
      sweeps.append(g.mean(0, 1));
      failed.append(g.mean(1, 1));
      div.append(g.mean(2, 1));
      common.append(g.countFinite(3));
      te.append(g.meanFinite(3, 1));
      teSd.append(g.sdFinite(3, 1));
      teFail.append(g.mean(4, 1));
      teShared.append(shared ? g.meanFinite(5, 1) : Double.NaN);
      sdShared.append(shared ? g.sdFinite(5, 1) : Double.NaN);
    }
    return Table.create(
        "Figure 4 (10 repetitions in the paper)",
        flip,
        method,
        runs,
        sweeps,
        failed,
        div,
        common,
        te,
        teSd,
        teFail,
        teShared,
        sdShared);
  }

  /**
   * Figure 4's claims ({@link RepPaper#CLAIMS} 4a–4c) against a {@link #summary} table, per flip rate: REP needs
   * the fewest sweeps, never diverges (and EP diverges at least as often as PEP), and has the lowest mean test
   * error; "significantly" is not tested (the paper gives no test): a lower mean is reported as lower, and the
   * difference beside the standard deviations lets the reader judge. Each claim is checked with the paper's Power EP
   * (appendix C; column "counted" = {@link RepMethods#COUNTED}) and again with Minka's in its place, beside and not
   * counted ({@link RepMethods#counted}).
   */
  public static Table agreement(Table summary) {
    StringColumn flip = StringColumn.create("flip %");
    StringColumn fig = StringColumn.create("figure");
    StringColumn claim = StringColumn.create("paper's claim");
    StringColumn pepColumn = StringColumn.create("PEP");
    StringColumn ours = StringColumn.create("ours (EP / PEP / REP)");
    StringColumn verdict = StringColumn.create("reproduces");
    StringColumn counted = StringColumn.create("counted");
    List<Double> flips = summary.doubleColumn("flip %").unique().asList();
    for (String pep : RepMethods.POWER_EPS) {
      List<String> three = List.of("ep", pep, "rep");
      for (double f : flips) {
        double[][] v = new double[3][];
        for (int r = 0; r < summary.rowCount(); r++) {
          int k = three.indexOf(RepMethods.name(summary.stringColumn("method").get(r)));
          if (k >= 0 && summary.doubleColumn("flip %").getDouble(r) == f) {
            v[k] = new double[] {
              summary.doubleColumn("sweeps to R<1e-3").getDouble(r),
              summary.doubleColumn("fraction diverged").getDouble(r),
              summary.doubleColumn("test error").getDouble(r),
              summary.doubleColumn("test error sd").getDouble(r)
            };
          }
        }
        if (v[0] == null || v[1] == null || v[2] == null) {
          continue;
        }
        String pct = String.format(java.util.Locale.ROOT, "%.0f", f);
        for (int n = 0; n < 3; n++) {
          flip.append(pct);
          pepColumn.append(RepMethods.label(pep));
          counted.append(RepMethods.counted(pep));
        }
        fig.append("4a");
        claim.append("REP converges in the fewest sweeps");
        ours.append(fmt("%.1f / %.1f / %.1f", v[0][0], v[1][0], v[2][0]));
        verdict.append(fewest(v[0][0], v[1][0], v[2][0]));
        fig.append("4b");
        claim.append("REP never diverges; PEP diverges less often than EP");
        ours.append(fmt("%.2f / %.2f / %.2f", v[0][1], v[1][1], v[2][1]));
        verdict.append(neverDiverges(v[0][1], v[1][1], v[2][1]));
        fig.append("4c");
        claim.append("REP has the lowest test error");
        ours.append(fmt(
            "%.4f / %.4f / %.4f (sd %.4f / %.4f / %.4f)",
            v[0][2], v[1][2], v[2][2], v[0][3], v[1][3], v[2][3]));
        verdict.append(fewest(v[0][2], v[1][2], v[2][2]));
      }
    }
    return Table.create(
        "Figure 4: the paper's claims against ours",
        flip,
        fig,
        claim,
        pepColumn,
        ours,
        verdict,
        counted);
  }

  /** 4a and 4c's rule: REP's value below EP's and PEP's: "yes"; no higher than both: "tie"; else "no". */
  static String fewest(double ep, double pep, double rep) {
    return rep < ep && rep < pep ? "yes" : rep <= Math.min(ep, pep) ? "tie" : "no";
  }

  /**
   * 4b's rule on the fractions of runs diverged: REP never and PEP no more often than EP: "yes"; REP never but PEP
   * more often than EP: "partly (REP never diverges)"; REP diverged: "no".
   */
  static String neverDiverges(double ep, double pep, double rep) {
    return rep == 0 ? (pep <= ep ? "yes" : "partly (REP never diverges)") : "no";
  }

  private static String fmt(String f, double... v) {
    Object[] o = new Object[v.length];
    for (int i = 0; i < v.length; i++) {
      o[i] = v[i];
    }
    // a spread of one run is undefined: "n/a", as the tables print a missing value, never "NaN"
    return String.format(java.util.Locale.ROOT, f, o).replace("NaN", "n/a");
  }
}
