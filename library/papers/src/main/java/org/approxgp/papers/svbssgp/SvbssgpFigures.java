package org.approxgp.papers.svbssgp;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.approxgp.data.RegressionDatasets;
import org.approxgp.data.RegressionSet;
import org.approxgp.data.RegressionSplits;
import org.approxgp.data.Split;
import org.approxgp.experiment.Experiment;
import org.approxgp.experiment.ProjectPaths;
import org.approxgp.experiment.ResultRow;
import org.approxgp.experiment.Results;
import org.approxgp.experiment.Summaries;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * The experiments behind §5 of the sVBSSGP paper (Hoang, Hoang &amp; Low 2017): Figures 1–5 and Table 1,
 * each trial one {@link SvbssgpDriver#run} on one 95/5 split ({@link RegressionSplits#paper}, seed 0) of a
 * role's data set, its row the per-iteration test RMSE, MNLP and training seconds.
 *
 * <ul>
 *   <li>{@link #gamma}: sVBSSGP for several γ on the AIMPEAK role — Fig. 1 (RMSE vs t), Fig. 2a (final RMSE
 *       vs γ), Fig. 4 (MNLP vs t).
 *   <li>{@link #methods}: all five models on the AIMPEAK and AIRLINE roles — Figs. 2b/2c (RMSE vs t), 2d and
 *       5a (training time vs t), 5b/5c (MNLP vs t), Table 1 (final RMSE).
 *   <li>{@link #samples}: sVBSSGP for several r on the AIMPEAK and BLOG roles — Fig. 3.
 *   <li>{@link #partitionings}: sVBSSGP and PIC++ with partitions from k-means on the training inputs
 *       against the authors' leaky k-means on inputs and outputs of all rows.
 * </ul>
 */
public final class SvbssgpFigures {

  /** Experiment names (results files). */
  public static final String GAMMA = "svbssgp-gamma";

  public static final String METHODS = "svbssgp-methods";
  public static final String SAMPLES = "svbssgp-samples";
  public static final String PARTITIONINGS = "svbssgp-partitions";

  /** Setting label of the runs at a role's own settings. */
  public static final String PAPER = "paper";
  /** Setting labels of {@link #partitionings}. */
  public static final String TRAIN_INPUTS = "train-inputs";

  public static final String LEAKY = "leaky";

  /**
   * k-means partitions (of the paper's p = 2,000) whose test rows the AIRLINE traces are on at full scale: about
   * 3,750 of the 150,000 test rows, and 50 local blocks per PIC++ trace point instead of 2,000. The final metrics
   * are on every test row.
   */
  public static final int AIRLINE_TRACE_BLOCKS = 50;

  private static final Map<String, RegressionSet> DATA = new ConcurrentHashMap<>();

  private SvbssgpFigures() {}

  /**
   * A data set's role and settings.
   *
   * @param role         aimpeak, airline or blog ({@link SvbssgpPaper#ROLES})
   * @param data         the data: {@code flights} (all 3·10⁶ rows), {@code flights-N} (N rows drawn with seed 0,
   *                     {@code flights-41800} is {@link RegressionDatasets#aimpeakRole}), {@code diamonds} (all
   *                     53,940 rows, log price) or {@code diamonds-N} (N of them, seed 0)
   * @param features     2m
   * @param partitions   p
   * @param inducing     M of DTC++/PIC++
   * @param iterations   t
   * @param samples      r at the role's own setting
   * @param kmeansSample rows k-means is fitted on (0: all)
   * @param traceBlocks  0: the traces on every test row; k &gt; 0: on the test rows of k seeded k-means partitions
   *                     ({@link SvbssgpDriver.Settings#traceBlocks}; AIRLINE at full scale, where a PIC++ trace
   *                     point on all 150,000 test rows would factor all 2,000 local blocks)
   */
  public record Role(
      String role,
      String data,
      int features,
      int partitions,
      int inducing,
      int iterations,
      int samples,
      int kmeansSample,
      int traceBlocks) {}

  /**
   * What to run.
   *
   * @param roles      the three roles, in {@link SvbssgpPaper#ROLES} order
   * @param splits     95/5 splits per setting (the paper: 5)
   * @param gammas     γ values of {@link #gamma} (Fig. 1 uses those of {@link SvbssgpPaper#FIGURE1_GAMMAS})
   * @param samples    r values of {@link #samples}
   * @param traceEvery test metrics every this many iterations
   * @param ssgpOnAirline whether SSGP runs on the AIRLINE role (the paper: n/a)
   */
  public record Config(
      List<Role> roles,
      int splits,
      List<Double> gammas,
      List<Integer> samples,
      int traceEvery,
      boolean ssgpOnAirline) {
    public Config {
      roles = List.copyOf(roles);
      gammas = List.copyOf(gammas);
      samples = List.copyOf(samples);
    }

    /** The role record named {@code role}. */
    public Role role(String role) {
      return roles.stream()
          .filter(r -> r.role().equals(role))
          .findFirst()
          .orElseThrow(() -> new IllegalArgumentException("no role '" + role + "'"));
    }

    /**
     * smoke: small slices of the committed diamonds data for every role, a few iterations, one split (CI,
     * seconds); quick: flights samples of 8,000 and 20,000 rows and 10,000 diamonds, the paper's iterations,
     * one split (minutes); full: the paper's data sizes and settings ({@link SvbssgpPaper#SETTINGS}), five
     * splits.
     */
    public static Config forMode(ProjectPaths.Mode mode) {
      List<Double> fig1 = SvbssgpPaper.FIGURE1_GAMMAS;
      List<Double> allGammas = List.of(0.0, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0);
      return switch (mode) {
        case SMOKE ->
          new Config(
              List.of(
                  new Role("aimpeak", "diamonds-1500", 20, 10, 20, 8, 5, 0, 0),
                  new Role("airline", "diamonds-3000", 20, 20, 30, 8, 5, 0, 5),
                  new Role("blog", "diamonds-1500", 10, 10, 20, 8, 5, 0, 0)),
              1,
              fig1,
              List.of(1, 5),
              2,
              true);
        case QUICK ->
          new Config(
              List.of(
                  new Role("aimpeak", "flights-8000", 40, 40, 100, 30, 20, 0, 0),
                  new Role("airline", "flights-20000", 40, 100, 128, 45, 5, 0, 0),
                  new Role("blog", "diamonds-10000", 10, 40, 100, 30, 5, 0, 0)),
              1,
              allGammas,
              SvbssgpPaper.FIGURE3_SAMPLES,
              5,
              true);
        case FULL ->
          new Config(
              List.of(
                  paperRole("aimpeak", "flights-" + RegressionDatasets.AIMPEAK_ROWS, 0, 0),
                  paperRole("airline", "flights", 100_000, AIRLINE_TRACE_BLOCKS),
                  paperRole("blog", "diamonds", 0, 0)),
              RegressionSplits.SPLITS,
              allGammas,
              SvbssgpPaper.FIGURE3_SAMPLES,
              1,
              false);
      };
    }

    private static Role paperRole(String role, String data, int kmeansSample, int traceBlocks) {
      SvbssgpPaper.Setting s = SvbssgpPaper.setting(role);
      return new Role(
          role,
          data,
          s.features(),
          s.partitions(),
          s.inducing(),
          s.iterations(),
          s.samples(),
          kmeansSample,
          traceBlocks);
    }
  }

  /**
   * One trial.
   *
   * @param role    aimpeak, airline or blog
   * @param method  svbssgp, dtc, pic, ssgp or vssgp
   * @param setting {@code paper} (the role's settings), {@code gamma=G}, {@code r=R}, {@code train-inputs} or
   *                {@code leaky}
   * @param split   split index, 0..splits−1
   */
  public record Key(String role, String method, String setting, int split) {}

  /** sVBSSGP for each γ of the config on the AIMPEAK role (r at the role's setting): Figs. 1, 2a, 4. */
  public static Experiment<Config, Key> gamma(Config c) {
    List<Key> keys = new ArrayList<>();
    for (double g : c.gammas()) {
      for (int s = 0; s < c.splits(); s++) {
        keys.add(new Key("aimpeak", "svbssgp", "gamma:" + g, s));
      }
    }
    return Experiment.of(GAMMA, c, Key.class, keys, SvbssgpFigures::trial);
  }

  /** The five models at the roles' settings on AIMPEAK and AIRLINE: Figs. 2b–d, 5 and Table 1. */
  public static Experiment<Config, Key> methods(Config c) {
    List<Key> keys = new ArrayList<>();
    for (String role : List.of("aimpeak", "airline")) {
      for (String m : SvbssgpPaper.METHODS) {
        if (m.equals("ssgp") && role.equals("airline") && !c.ssgpOnAirline()) {
          continue;
        }
        for (int s = 0; s < c.splits(); s++) {
          keys.add(new Key(role, m, PAPER, s));
        }
      }
    }
    return Experiment.of(METHODS, c, Key.class, keys, SvbssgpFigures::trial);
  }

  /** sVBSSGP for each r of the config on the AIMPEAK and BLOG roles (γ = 0): Fig. 3. */
  public static Experiment<Config, Key> samples(Config c) {
    List<Key> keys = new ArrayList<>();
    for (String role : List.of("aimpeak", "blog")) {
      for (int r : c.samples()) {
        for (int s = 0; s < c.splits(); s++) {
          keys.add(new Key(role, "svbssgp", "r:" + r, s));
        }
      }
    }
    return Experiment.of(SAMPLES, c, Key.class, keys, SvbssgpFigures::trial);
  }

  /** sVBSSGP and PIC++ on the AIMPEAK role, partitions by honest and by leaky k-means. */
  public static Experiment<Config, Key> partitionings(Config c) {
    List<Key> keys = new ArrayList<>();
    for (String m : List.of("svbssgp", "pic")) {
      for (String p : List.of(TRAIN_INPUTS, LEAKY)) {
        for (int s = 0; s < c.splits(); s++) {
          keys.add(new Key("aimpeak", m, p, s));
        }
      }
    }
    return Experiment.of(PARTITIONINGS, c, Key.class, keys, SvbssgpFigures::trial);
  }

  /** The driver settings of a trial: the role's, with γ, r or the partitioning of the key's setting. */
  public static SvbssgpDriver.Settings settings(Config c, Key key) {
    Role r = c.role(key.role());
    double gamma = 0;
    int samples = r.samples();
    boolean leaky = false;
    String s = key.setting();
    if (s.startsWith("gamma:")) {
      gamma = Double.parseDouble(s.substring(6));
    } else if (s.startsWith("r:")) {
      samples = Integer.parseInt(s.substring(2));
    } else if (s.equals(LEAKY)) {
      leaky = true;
    } else if (!s.equals(PAPER) && !s.equals(TRAIN_INPUTS)) {
      throw new IllegalArgumentException("unknown setting '" + s + "'");
    }
    return new SvbssgpDriver.Settings(
        key.method(),
        r.features(),
        r.partitions(),
        r.inducing(),
        r.iterations(),
        gamma,
        samples,
        c.traceEvery(),
        r.traceBlocks(),
        leaky,
        r.kmeansSample(),
        key.split());
  }

  static ResultRow trial(Config c, Key key) {
    Role r = c.role(key.role());
    RegressionSet data = data(r.data());
    Split split = RegressionSplits.paper(data.size(), 0).get(key.split());
    RegressionSplits.Standardized st = RegressionSplits.standardize(data.data(), split, true);
    SvbssgpDriver.Trace t = SvbssgpDriver.run(st, settings(c, key));
    double[] its = new double[t.iterations().length];
    for (int i = 0; i < its.length; i++) {
      its[i] = t.iterations()[i];
    }
    ResultRow.Builder row = ResultRow.builder();
    if (!Double.isNaN(t.setupSeconds())) {
      row.put("setup_seconds", t.setupSeconds());
    }
    return row.put("data", data.name())
        .put("n_train", (long) st.train().n())
        .put("n_test", (long) st.test().n())
        .put("trace_rows", (long) t.traceRows())
        .put("final_rmse", t.finalRmse())
        .put("final_mnlp", t.finalMnlp())
        .put("train_seconds", t.trainSeconds())
        .put("iteration", its)
        .put("rmse", t.rmse())
        .put("mnlp", t.mnlp())
        .put("seconds", t.seconds())
        .build();
  }

  /**
   * A role's data by its name (see {@link Role#data}); loaded once per JVM.
   */
  public static RegressionSet data(String name) {
    return DATA.computeIfAbsent(name, SvbssgpFigures::load);
  }

  private static RegressionSet load(String name) {
    if (name.equals("flights")) {
      return RegressionDatasets.flights();
    }
    if (name.equals("diamonds")) {
      return RegressionDatasets.diamonds(true);
    }
    int dash = name.lastIndexOf('-');
    if (dash > 0) {
      String base = name.substring(0, dash);
      int n = Integer.parseInt(name.substring(dash + 1));
      if (base.equals("flights")) {
        return RegressionDatasets.flightsSample(n, 0);
      }
      if (base.equals("diamonds")) {
        return RegressionDatasets.sample(RegressionDatasets.diamonds(true), n, 0, "diamonds-" + n);
      }
    }
    throw new IllegalArgumentException(
        "unknown data '" + name + "' (flights, flights-N, diamonds, diamonds-N)");
  }

  /**
   * The traces of every trial, one row per recorded iteration: role, data, method, setting, split, series
   * (a display label: "γ = 0.1", "r = 5", "sVBSSGP", "sVBSSGP (leaky)"), iteration, rmse, mnlp, seconds.
   */
  public static Table traces(Results<Key> results) {
    StringColumn role = StringColumn.create("role");
    StringColumn data = StringColumn.create("data");
    StringColumn method = StringColumn.create("method");
    StringColumn setting = StringColumn.create("setting");
    IntColumn split = IntColumn.create("split");
    StringColumn series = StringColumn.create("series");
    DoubleColumn it = DoubleColumn.create("iteration");
    DoubleColumn rmse = DoubleColumn.create("rmse");
    DoubleColumn mnlp = DoubleColumn.create("mnlp");
    DoubleColumn sec = DoubleColumn.create("seconds");
    for (int i = 0; i < results.keys().size(); i++) {
      Key k = results.keys().get(i);
      ResultRow row = results.rows().get(i);
      double[] its = row.getDoubles("iteration");
      double[] r = row.getDoubles("rmse");
      double[] m = row.getDoubles("mnlp");
      double[] s = row.getDoubles("seconds");
      for (int j = 0; j < its.length; j++) {
        role.append(k.role());
        data.append((String) row.get("data"));
        method.append(k.method());
        setting.append(k.setting());
        split.append(k.split());
        series.append(label(k));
        it.append(its[j]);
        rmse.append(r[j]);
        mnlp.append(m[j]);
        sec.append(s[j]);
      }
    }
    return Table.create(
        results.experiment() + " traces",
        role,
        data,
        method,
        setting,
        split,
        series,
        it,
        rmse,
        mnlp,
        sec);
  }

  /** A trial's display label. */
  static String label(Key k) {
    String s = k.setting();
    if (s.startsWith("gamma:")) {
      return "γ = " + s.substring(6);
    }
    if (s.startsWith("r:")) {
      return "r = " + s.substring(2);
    }
    String name = SvbssgpPaper.displayName(k.method());
    return s.equals(LEAKY)
        ? name + " (leaky k-means)"
        : s.equals(TRAIN_INPUTS) ? name + " (train inputs)" : name;
  }

  /**
   * Traces averaged over splits: per role, series and iteration, mean and sd of rmse, mnlp and seconds
   * (columns {@code rmse mean}, {@code rmse sd}, …; see {@link Summaries#meanSd}).
   */
  public static Table meanTraces(Table traces) {
    return Summaries.meanSd(
        traces, List.of("role", "series", "iteration"), List.of("rmse", "mnlp", "seconds"));
  }

  /** The rows of {@code t} whose role is {@code role}. */
  public static Table forRole(Table t, String role) {
    return t.where(t.stringColumn("role").isEqualTo(role));
  }

  /**
   * Final RMSE against γ (Fig. 2a): per γ, mean and sd over splits of the final test RMSE and MNLP (and a
   * constant {@code series} column for {@code report.Charts#lines}).
   */
  public static Table finalByGamma(Results<Key> gamma) {
    Table t = gamma.table();
    DoubleColumn g = DoubleColumn.create("gamma");
    for (int i = 0; i < t.rowCount(); i++) {
      g.append(Double.parseDouble(t.stringColumn("setting").get(i).substring(6)));
    }
    t.addColumns(g);
    Table s = Summaries.meanSd(t, List.of("gamma"), List.of("final_rmse", "final_mnlp"));
    StringColumn series = StringColumn.create("series");
    for (int i = 0; i < s.rowCount(); i++) {
      series.append("sVBSSGP");
    }
    return s.addColumns(series);
  }

  /**
   * Table 1 beside the paper's: per role and method, our final RMSE (mean ± sd over splits), MNLP, training
   * seconds per iteration (without the set-up: k-means and initialisation), and the paper's RMSE (NaN for
   * "n/a"). Our RMSEs are in the substitute data's units (minutes of arrival delay for the flights roles), not
   * comparable in level with AIMPEAK's km/h.
   */
  public static Table table1(Results<Key> methods) {
    Table t = methods.table();
    DoubleColumn perIt = DoubleColumn.create("seconds_per_iteration");
    // the marginal cost: training seconds less the set-up (k-means, initialisation) where a run
    // recorded it
    DoubleColumn setup =
        t.columnNames().contains("setup_seconds") ? t.doubleColumn("setup_seconds") : null;
    for (int i = 0; i < t.rowCount(); i++) {
      double[] its = methods.rows().get(i).getDoubles("iteration");
      double before = setup == null || setup.isMissing(i) ? 0 : setup.get(i);
      perIt.append((t.doubleColumn("train_seconds").get(i) - before) / its[its.length - 1]);
    }
    t.addColumns(perIt);
    Table s = Summaries.meanSd(
        t,
        List.of("role", "data", "method"),
        List.of("final_rmse", "final_mnlp", "seconds_per_iteration"));
    DoubleColumn paper = DoubleColumn.create("paper RMSE");
    StringColumn name = StringColumn.create("model");
    for (int i = 0; i < s.rowCount(); i++) {
      String role = s.stringColumn("role").get(i);
      String m = s.stringColumn("method").get(i);
      paper.append(SvbssgpPaper.table1(role, m).orElse(Double.NaN));
      name.append(SvbssgpPaper.displayName(m));
    }
    s.addColumns(name, paper);
    return s;
  }
}
