package org.approxgp.papers.rep;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.approxgp.data.Dataset;
import org.approxgp.data.Split;
import org.approxgp.data.Standardizer;
import org.approxgp.experiment.Experiment;
import org.approxgp.experiment.ProjectPaths;
import org.approxgp.experiment.ResultRow;
import org.approxgp.experiment.Selects;
import org.approxgp.inference.Posterior;
import org.approxgp.inference.RelaxedEp;
import org.approxgp.model.Methods;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * Which reading of Relaxed EP, if any, reproduces which claim of the REP paper (Figures 1–6, §3.2, §6.1): every
 * claim of {@link RepPaper#CLAIMS} and the paper's untested sentences, for each reading ({@link Methods.RepReading}:
 * site reading a, b or c — eq. 16 as printed, eq. 5/7, t̃_{i,b}/rᵢ — with the local or the global search for bᵢ,
 * nonnegative bᵢ, eq. 35's penalty; and the line search's objective: the clean KL derived from eq. 5, eq. 36 as printed
 * or eq. 4/5's unnormalised KL, {@link #objective}) and each penalty of a grid scaled to the kernel amplitude (c·σ_f²
 * from 0.01 to 100, plus the paper's c: 20 in Figure 1, 10 elsewhere), decided by {@link RepClaims}.
 *
 * <p><b>Fixed settings</b> (to isolate the reading and c): negative site precisions kept (Minka's EP); Power EP with
 * u = 0.8 (Figures 1a–6, the paper's) in Qi &amp; Guo's appendix C variant (eq. 41–42, the one the paper ran,
 * {@link RepMethods#POWER_EP_APPENDIX_C}) and, beside it and labelled, Minka's; both over a u grid for Figure 1b–c;
 * no cross-validation: one length-scale per data set shared by every method (ℓ = 1 on the synthetic data, √d on
 * standardised UCI features), signal variance σ_f² = 1 (the noisy step sees f only through its sign, so c on σ_f² K
 * is c/σ_f² on K: the grid is c·σ_f²). The synthetic data, splits and flips are those of {@link RepSynthetic} and
 * {@link RepUci}; Haberman is its rotterdam stand-in.
 */
public final class RepReadings {
  public static final String NAME = "rep-readings";
  /** Figure 1's penalty and the other figures' (§6.1, §6.2). */
  public static final double PAPER_C_FIGURE1 = RepPaper.FIGURE1_PENALTY;

  public static final double PAPER_C = RepPaper.FIGURE2_PENALTY;
  /** Power EP's power outside Figure 1b–c. */
  public static final double POWER = RepPaper.FIGURE2_POWER;

  /**
   * @param variants         readings by label: "a", "b", "c" (local search) or "a/global", …
   * @param scaledPenalties  the c·σ_f² grid (σ_f² = 1 here)
   * @param seeds            synthetic data sets per flip rate (Figures 2–4)
   * @param trainPerClass    synthetic training points per class (paper: 200)
   * @param testPerClass     synthetic test points per class
   * @param flipPercents     synthetic flip rates (paper: 10, 20)
   * @param uciSets          Figure 5's data sets
   * @param uciSplits        splits per data set (Figures 5 and 6)
   * @param spamFlipPercents Figure 6's extra flip rates (empty: no Spam)
   * @param powers           Figure 1b–c's u grid
   * @param maxSweeps        sweep cap (not converged by then: diverged)
   * @param objectiveReadings readings whose line search minimises another objective than the clean one, labelled
   *                         "b/eq36" (appendix B's eq. 36 as printed, the paper's own objective) or
   *                         "c/global/unnormalised" (eq. 4/5's KL of unnormalised densities); run over the same
   *                         penalties and units as {@code variants}. It only selects trials: the store is kept.
   * @param powerEpAppendixC whether Power EP also runs in Qi &amp; Guo's appendix C variant (eq. 41–42, the variant
   *                         the paper ran) beside Minka's; it only selects trials: the store is kept
   */
  public record Config(
      List<String> variants,
      List<Double> scaledPenalties,
      int seeds,
      int trainPerClass,
      int testPerClass,
      List<Integer> flipPercents,
      List<String> uciSets,
      int uciSplits,
      List<Integer> spamFlipPercents,
      List<Double> powers,
      int maxSweeps,
      @Selects List<String> objectiveReadings,
      @Selects boolean powerEpAppendixC) {
    public Config {
      variants = List.copyOf(variants);
      scaledPenalties = List.copyOf(scaledPenalties);
      flipPercents = List.copyOf(flipPercents);
      uciSets = List.copyOf(uciSets);
      spamFlipPercents = List.copyOf(spamFlipPercents);
      powers = List.copyOf(powers);
      objectiveReadings = List.copyOf(objectiveReadings);
      variants.forEach(RepReadings::reading);
      for (String v : variants) {
        if (objective(v) != null) {
          throw new IllegalArgumentException(
              "reading '" + v + "' names an objective: list it in objectiveReadings");
        }
      }
      for (String v : objectiveReadings) {
        reading(v);
        if (objective(v) == null) {
          throw new IllegalArgumentException(
              "objective reading '" + v + "' names no objective (eq36, unnormalised)");
        }
      }
    }

    /** Every reading run: {@code variants}, then {@code objectiveReadings}. */
    public List<String> allReadings() {
      List<String> all = new ArrayList<>(variants);
      all.addAll(objectiveReadings);
      return List.copyOf(all);
    }

    /**
     * smoke: readings a, b, c (local), c·σ_f² ∈ {0.01, 1, 100}, 2 seeds of 30 + 30 points at 20 %, Heart with 2
     * splits, no Spam, 40 sweeps; quick: a, b, c local and global, c·σ_f² ∈ {0.01, 0.1, 1, 10, 100}, 4 seeds of
     * 60 + 60 at 10 and 20 %, Heart and Haberman with 4 splits, Spam at 10 % with 4, 60 sweeps; full: as quick with
     * 6 seeds of 80 + 80, every Figure 5 data set with 4 splits, Spam at 0, 10, 20 % with 4, 100 sweeps (not the
     * paper's sizes). Every mode also runs Power EP's appendix C variant and readings under the paper's eq. 36 and
     * the unnormalised KL: smoke b/eq36 and b/unnormalised; quick a, b, c (local search) under each; full a, b, c
     * with the local and the global search under each. Measured: the full store's first 1,280 fits (clean readings)
     * 5.0 minutes on two quiet cores; its 1,240 local-objective and appendix C fits 5.3 minutes and its 1,200
     * global-objective fits 8.9 minutes on two shared cores (3,720 fits); quick 3 minutes and smoke 32 s before the
     * objective readings were added.
     */
    public static Config forMode(ProjectPaths.Mode mode) {
      List<String> local = List.of("a", "b", "c");
      List<String> both = List.of("a", "b", "c", "a/global", "b/global", "c/global");
      List<Double> grid = List.of(0.01, 0.1, 1.0, 10.0, 100.0);
      List<String> objectives = List.of(
          "a/eq36", "b/eq36", "c/eq36", "a/unnormalised", "b/unnormalised", "c/unnormalised");
      List<String> allObjectives = new ArrayList<>(objectives);
      for (String o : objectives) {
        allObjectives.add(o.replace("/", "/global/"));
      }
      return switch (mode) {
        case SMOKE ->
          new Config(
              local,
              List.of(0.01, 1.0, 100.0),
              2,
              30,
              300,
              List.of(20),
              List.of("heart"),
              2,
              List.of(),
              List.of(0.5, 0.8),
              40,
              List.of("b/eq36", "b/unnormalised"),
              true);
        case QUICK ->
          new Config(
              both,
              grid,
              4,
              60,
              1000,
              List.of(10, 20),
              List.of("heart", "haberman"),
              4,
              List.of(10),
              List.of(0.2, 0.4, 0.6, 0.8, 0.9),
              60,
              objectives,
              true);
        case FULL ->
          new Config(
              both,
              grid,
              6,
              80,
              5000,
              List.of(10, 20),
              List.of("heart", "pima", "diabetes", "haberman"),
              4,
              List.of(0, 10, 20),
              List.of(0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9),
              100,
              allObjectives,
              true);
      };
    }
  }

  /**
   * One fit.
   *
   * @param figure  "synthetic" (Figures 2–4), "uci" (Figure 5), "spam" (Figure 6)
   * @param dataset data set ("synthetic" for the synthetic data)
   * @param flip    flip rate in percent
   * @param unit    seed or split
   * @param method  "ep", "power-ep" (Minka), "power-ep-c" (appendix C) or "rep"
   * @param variant the reading's label ("-" for EP and Power EP)
   * @param c       the penalty as {@link Double#toString} writes it ("-" for EP and Power EP)
   */
  public record Key(
      String figure, String dataset, int flip, int unit, String method, String variant, String c) {}

  private RepReadings() {}

  /** The objectives a reading's label may end with ({@link RelaxedEp}'s objectives but the default, clean). */
  public static final List<String> OBJECTIVES = List.of("eq36", "unnormalised");

  /**
   * The reading behind a label: "b" = site reading b, local search; "b/global" = the global search; a last part
   * "eq36" or "unnormalised" names the line search's objective ({@link #objective}), which is not part of the
   * reading.
   */
  public static Methods.RepReading reading(String label) {
    String[] p = label.split("/");
    int n = p.length > 1 && OBJECTIVES.contains(p[p.length - 1]) ? p.length - 1 : p.length;
    if (n > 2 || !List.of("a", "b", "c").contains(p[0]) || (n == 2 && !p[1].equals("global"))) {
      throw new IllegalArgumentException("unknown reading label '" + label
          + "' (a, b, c, a/global, b/eq36, c/global/unnormalised, …)");
    }
    return new Methods.RepReading(p[0], "nonnegative", "eq35", n == 2 ? "global" : "local");
  }

  /** The objective a reading's label names ("eq36", "unnormalised"), or null for the clean one (the default). */
  public static String objective(String label) {
    String last = label.substring(label.lastIndexOf('/') + 1);
    return OBJECTIVES.contains(last) ? last : null;
  }

  /** The penalties run for a figure whose paper's c is {@code paperC}: the scaled grid (σ_f² = 1) and paperC. */
  public static List<Double> penalties(Config c, double paperC) {
    TreeSet<Double> s = new TreeSet<>(c.scaledPenalties());
    s.add(paperC);
    return List.copyOf(s);
  }

  /** Every fit of Figures 2–6 (Figure 1 is computed directly, {@link RepClaims#evaluate}). */
  public static Experiment<Config, Key> experiment(Config c) {
    List<Key> keys = new ArrayList<>();
    for (int f : c.flipPercents()) {
      for (int s = 0; s < c.seeds(); s++) {
        addUnit(keys, c, "synthetic", "synthetic", f, s);
      }
    }
    for (String d : c.uciSets()) {
      for (int s = 0; s < Math.min(c.uciSplits(), RepUci.PROTOCOLS.get(d).splits()); s++) {
        addUnit(keys, c, "uci", d, 0, s);
      }
    }
    for (int f : c.spamFlipPercents()) {
      for (int s = 0; s < c.uciSplits(); s++) {
        addUnit(keys, c, "spam", RepUci.SPAM, f, s);
      }
    }
    return Experiment.of(NAME, c, Key.class, keys, RepReadings::trial)
        .withVerifyRule(RepPaper.VERIFY)
        .withCost(k -> k.dataset().equals("synthetic")
            ? Math.pow(2.0 * c.trainPerClass(), 3)
            : Math.pow(RepUci.PROTOCOLS.get(k.dataset()).nTrain(), 3));
  }

  private static void addUnit(
      List<Key> keys, Config c, String figure, String dataset, int flip, int unit) {
    keys.add(new Key(figure, dataset, flip, unit, "ep", "-", "-"));
    keys.add(new Key(figure, dataset, flip, unit, "power-ep", "-", "-"));
    if (c.powerEpAppendixC()) {
      keys.add(new Key(figure, dataset, flip, unit, RepMethods.POWER_EP_APPENDIX_C, "-", "-"));
    }
    for (String v : c.allReadings()) {
      for (double pen : penalties(c, PAPER_C)) {
        keys.add(new Key(figure, dataset, flip, unit, "rep", v, Double.toString(pen)));
      }
    }
  }

  static ResultRow trial(Config c, Key k) {
    double[][] xTrain;
    double[] yTrain;
    double[][] xTest;
    double[] yTest;
    double eps;
    double lengthscale;
    if (k.dataset().equals("synthetic")) {
      eps = k.flip() / 100.0;
      RepSynthetic.Sample train = RepSynthetic.generate(c.trainPerClass(), eps, k.unit());
      RepSynthetic.Sample test = RepSynthetic.generate(c.testPerClass(), 0, 1_000_000L + k.unit());
      xTrain = train.x();
      yTrain = train.y();
      xTest = test.x();
      yTest = test.clean();
      lengthscale = 1;
    } else {
      Dataset data = RepUci.dataset(k.dataset());
      Split sp = RepUci.split(k.dataset(), data.size(), k.unit());
      Dataset train = data.rows(sp.train());
      Dataset test = data.rows(sp.test());
      Standardizer st = Standardizer.fit(train.features());
      xTrain = st.apply(train.features());
      xTest = st.apply(test.features());
      double rate = k.flip() / 100.0;
      yTrain = RepCv.flip(train.target(), rate, 2L * k.unit() + 1);
      yTest = RepCv.flip(test.target(), rate, 2L * k.unit() + 2);
      eps = Math.max(0.05, rate);
      lengthscale = Math.sqrt(data.dimension());
    }
    double par = k.method().equals("rep") ? Double.parseDouble(k.c()) : POWER;
    Methods.RepReading reading =
        k.method().equals("rep") ? reading(k.variant()) : Methods.RepReading.DEFAULT;
    long t0 = System.nanoTime();
    String objective = k.method().equals("rep") ? objective(k.variant()) : null;
    Posterior p = RepCv.fit(
        xTrain,
        yTrain,
        lengthscale,
        k.method(),
        par,
        eps,
        "keep",
        c.maxSweeps(),
        reading,
        objective);
    ResultRow.Builder b = ResultRow.builder().put("failed", p == null);
    if (p == null) {
      return b.put("diverged", true)
          .put("sweeps_to_R", (long) c.maxSweeps() + 1)
          .put("increases", Double.NaN)
          .put("test_error", Double.NaN)
          .put("relaxed", Double.NaN)
          .put("seconds", (System.nanoTime() - t0) * 1e-9)
          .build();
    }
    double[] trace = RepMethods.trace(p);
    int increases = 0;
    for (int i = 1; i < trace.length; i++) {
      increases += trace[i] > trace[i - 1] ? 1 : 0;
    }
    return b.put("diverged", RepMethods.diverged(p))
        .put("sweeps_to_R", (long) RepMethods.sweepsTo(trace, RepPaper.CONVERGENCE_THRESHOLD))
        .put("increases", (double) increases)
        .put("test_error", RepCv.testError(p, xTest, yTest))
        .put("relaxed", (double) p.diagnostics().relaxedSites())
        .put("seconds", (System.nanoTime() - t0) * 1e-9)
        .build();
  }

  /**
   * Figure 1 with the exact posterior: for EP, Power EP (u = 0.8, appendix C and Minka's) and each reading's REP at
   * the paper's c = 20, q(w)'s mean and covariance beside the exact ones, with their squared distances.
   */
  public static Table exactFigure1(Config c) {
    RepFigure1.Config f1 = RepFigure1.Config.forMode(ProjectPaths.Mode.SMOKE);
    RepFigure1.WeightPosterior ex = RepFigure1.exact(f1.epsilon());
    StringColumn method = StringColumn.create("method");
    DoubleColumn[] v = {
      DoubleColumn.create("mean w1"),
      DoubleColumn.create("mean w2"),
      DoubleColumn.create("cov11"),
      DoubleColumn.create("cov12"),
      DoubleColumn.create("cov22"),
      DoubleColumn.create("mean sq. dist"),
      DoubleColumn.create("cov sq. dist")
    };
    List<String> names = new ArrayList<>(List.of(
        "exact",
        "ep",
        "power-ep (appendix C, the paper's; u = 0.8)",
        "power-ep (Minka's, u = 0.8)"));
    List<RepFigure1.WeightPosterior> posts = new ArrayList<>(List.of(
        ex,
        orNull(RepFigure1.fit(f1, "ep", Double.NaN, "keep")),
        orNull(RepFigure1.fit(f1, RepMethods.POWER_EP_APPENDIX_C, POWER, "keep")),
        orNull(RepFigure1.fit(f1, "power-ep", POWER, "keep"))));
    for (String var : c.allReadings()) {
      names.add("rep " + var + " (c = 20)");
      posts.add(
          orNull(RepFigure1.fit(f1, "rep", PAPER_C_FIGURE1, "keep", reading(var), objective(var))));
    }
    for (int i = 0; i < names.size(); i++) {
      RepFigure1.WeightPosterior w = posts.get(i);
      method.append(names.get(i));
      double[] row = w == null
          ? new double[] {
            Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN
          }
          : new double[] {
            w.mean()[0],
            w.mean()[1],
            w.covariance()[0][0],
            w.covariance()[0][1],
            w.covariance()[1][1],
            w.meanDistance(ex),
            w.covarianceDistance(ex)
          };
      for (int j = 0; j < v.length; j++) {
        v[j].append(row[j]);
      }
    }
    Table t = Table.create(
        "Figure 1: exact posterior of w and each method's q(w) (paper's c = 20, u = 0.8)", method);
    return t.addColumns(v);
  }

  static RepFigure1.WeightPosterior orNull(RepFigure1.Fit f) {
    return f.posterior();
  }

  /**
   * Figure 1d–e per reading as plot data: columns "c·σ_f²", "mean sq. dist", "cov sq. dist", "series" ("rep a", …,
   * and "ep", flat): REP's squared distances to the exact posterior over the Figure 1 grid (a failed fit: NaN).
   */
  public static Table figure1Sweep(Config c) {
    RepFigure1.Config f1 = RepFigure1.Config.forMode(ProjectPaths.Mode.SMOKE);
    RepFigure1.WeightPosterior ex = RepFigure1.exact(f1.epsilon());
    RepFigure1.WeightPosterior ep = RepFigure1.fit(f1, "ep", Double.NaN, "keep").posterior();
    DoubleColumn pen = DoubleColumn.create("c·σ_f²");
    DoubleColumn dm = DoubleColumn.create("mean sq. dist");
    DoubleColumn dc = DoubleColumn.create("cov sq. dist");
    StringColumn series = StringColumn.create("series");
    for (String v : c.allReadings()) {
      for (double x : penalties(c, PAPER_C_FIGURE1)) {
        RepFigure1.WeightPosterior w =
            RepFigure1.fit(f1, "rep", x, "keep", reading(v), objective(v)).posterior();
        pen.append(x);
        dm.append(w == null ? Double.NaN : w.meanDistance(ex));
        dc.append(w == null ? Double.NaN : w.covarianceDistance(ex));
        series.append("rep " + v);
      }
    }
    for (double x : penalties(c, PAPER_C_FIGURE1)) {
      pen.append(x);
      dm.append(ep.meanDistance(ex));
      dc.append(ep.covarianceDistance(ex));
      series.append("ep");
    }
    return Table.create("Figure 1d–e by reading", pen, dm, dc, series);
  }

  /**
   * The fraction of runs that failed (the fit threw: no posterior, so no test error) and that diverged (R never below
   * 10⁻³) per figure and method (Power EP labelled by variant: appendix C, the paper's, and Minka's), REP per reading at the paper's c (c = 10) and over the whole c grid, from the trial
   * table. The fits run with the evidence optional ({@link RepMethods#method}), so a proper posterior whose EP-form
   * log evidence is undefined is a fit; a failed run is one whose posterior could not be formed (the site loop
   * threw, e.g. B = I + S^{1/2} K S^{1/2} not positive definite under kept negative sites).
   */
  public static Table failures(Table trials) {
    Table t = trials.copy();
    StringColumn who = StringColumn.create("method");
    StringColumn fig = StringColumn.create("figures");
    for (int i = 0; i < t.rowCount(); i++) {
      String m = t.stringColumn("method").get(i);
      String f = t.stringColumn("figure").get(i);
      fig.append(
          f.equals("synthetic") ? "2–4 (synthetic)" : f.equals("uci") ? "5 (UCI)" : "6 (Spam)");
      who.append(
          m.equals("rep")
              ? "rep " + t.stringColumn("variant").get(i)
                  + (Double.parseDouble(t.stringColumn("c").get(i)) == PAPER_C
                      ? " (c = 10)"
                      : " (other c)")
              : m.equals(RepMethods.POWER_EP_APPENDIX_C)
                  ? "power-ep (appendix C)"
                  : m.equals("power-ep") ? "power-ep (Minka's)" : m);
    }
    t.removeColumns("method");
    t.addColumns(who, fig);
    StringColumn figure = StringColumn.create("figures");
    StringColumn method = StringColumn.create("method");
    DoubleColumn runs = DoubleColumn.create("runs");
    DoubleColumn failed = DoubleColumn.create("fraction failed");
    DoubleColumn div = DoubleColumn.create("fraction diverged");
    for (RepGroups g :
        RepGroups.of(t, List.of("figures", "method"), List.of("failed", "diverged"))) {
      figure.append(g.key().get(0));
      method.append(g.key().get(1));
      runs.append(g.size());
      failed.append(g.mean(0, 1));
      div.append(g.mean(1, 1));
    }
    return Table.create("Failed and diverged runs per method", figure, method, runs, failed, div);
  }
}
