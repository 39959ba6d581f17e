package org.approxgp.papers.rep;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.approxgp.experiment.ProjectPaths;
import org.approxgp.papers.Verdict;
import org.approxgp.papers.Verdicts;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * The REP paper's claims as declared tests on {@link RepReadings}' stored rows and on Figure 1's exact posterior,
 * each a {@link Verdict}: what is compared, over the unit the paper states (per flip rate, per data set, per u, per
 * ε), the statistic and its noise, and the rule that maps it to reproduces / contradicts / undecided. Power EP is the
 * paper's own, Qi &amp; Guo's appendix C variant (eq. 41–42, {@link RepMethods#POWER_EP_APPENDIX_C}, u = 0.8 as
 * §6.1–6.2); the same tests against Minka's variant are computed beside ({@link Result#besideMinka}) and not counted.
 *
 * <p><b>The rules</b> (one per table, {@link #table}):
 * <ul>
 * <li>{@link Verdicts#PAIRED_POSITIVE_RULE}, over units (seeds, splits): d = X − REP per unit (positive where REP is
 *     lower, as claimed) — Figures 3, 4a, 4c, 5 (per data set), 6 (per flip rate);</li>
 * <li>{@link #DETERMINISTIC_RULE}: one deterministic number (Figure 1: five points, exact posterior) against the fit
 *     tolerance — Figure 1a, 1b–c (per u, mean and covariance apart), 1d–e at the paper's c, §6.1's ε = 0.1 and 0.25;</li>
 * <li>{@link #EQUAL_RULE}: REP equal to EP at the largest c of the grid (Figure 1d–e, "REP equals EP for large c");</li>
 * <li>{@link #WIDE_RANGE_RULE}: Figure 1d–e's "a wide range of smaller c";</li>
 * <li>{@link #ONE_RUN_RULE}: Figure 2's one data set;</li>
 * <li>{@link #NEVER_RULE}: "REP always converges" (Figure 4b; §3.3 and appendix A for every experiment: UCI, Spam),
 *     a count of diverged runs;</li>
 * <li>{@link #LESS_OFTEN_RULE}: "PEP diverges less frequently than EP" (Figure 4b);</li>
 * <li>{@link #OVERHEAD_RULE}: "the computational overhead of REP over EP is negligible" (§3.2).</li>
 * </ul>
 *
 * <p><b>Runs sensitive to rounding.</b> A run that never reached R &lt; 10⁻³ ends wherever its last sweep left it
 * ({@link RepPaper#VERIFY}). A claim about convergence (2, 3, 4a, 4b, §3.3) counts such runs: they are what it is
 * about. A claim not about convergence — test error (4c, 5, 6), run time (§3.2) — is decided on every unit (a
 * diverged run's predictions and time are the method's, as the paper ran it) and is also computed on the units where
 * neither run is sensitive ({@link Result#paired}): {@link #sensitivity} prints both verdicts and whether leaving the
 * sensitive runs out changes it.
 */
public final class RepClaims {

  private RepClaims() {}

  /** The rule of {@link #deterministic}, as printed beside each verdict. */
  public static final String DETERMINISTIC_RULE =
      "one exact number d, positive as claimed: d > tol reproduces; d < −tol contradicts; |d| ≤ tol undecided"
          + " (tol = 1e-6 × the compared distances' mean: the fits stop at an RMS site change of 1e-6)";
  /** The rule of Figure 1d–e's large c. */
  public static final String EQUAL_RULE =
      "REP − EP in both squared distances within tol (1e-6 × their mean) at the largest c: reproduces; else"
          + " contradicts";
  /** The rule of Figure 1d–e's smaller c. */
  public static final String WIDE_RANGE_RULE =
      "count of grid c below the largest where REP is closer than EP in mean and covariance beyond tol: ≥ 2"
          + " reproduces; 0 contradicts; 1 undecided";
  /** The rule of Figure 2. */
  public static final String ONE_RUN_RULE =
      "one data set: REP diverged, or PEP converged no later than REP: contradicts; else EP diverged: reproduces;"
          + " else undecided";
  /** The rule of "REP always converges". */
  public static final String NEVER_RULE =
      "REP diverged in 0 runs while EP or PEP diverged in some: reproduces; in ≥ 1: contradicts; nobody diverged:"
          + " undecided";
  /** The rule of "PEP diverges less often than EP". */
  public static final String LESS_OFTEN_RULE =
      "runs diverged, EP − PEP: > 0 reproduces; < 0 contradicts; 0 undecided";

  /**
   * The ratio of run times read as "negligible": REP taking at most a quarter more time than EP. The paper gives
   * no number; the ratio is the reading, declared here.
   */
  public static final double NEGLIGIBLE_RATIO = 1.25;
  /** The rule of the overhead claim. */
  public static final String OVERHEAD_RULE = String.format(
      Locale.ROOT,
      "mean log(REP seconds / EP seconds) over units m, se = sd/√n: exp(m + 2 se) ≤ %.2f reproduces;"
          + " exp(m − 2 se) > %.2f contradicts; else undecided (wall times on a shared machine, not verified)",
      NEGLIGIBLE_RATIO,
      NEGLIGIBLE_RATIO);

  /** The labelling-error rates of §6.1's "with various values of ε (e.g., 0.1 and 0.25)". */
  public static final List<Double> SECTION61_EPSILONS = List.of(0.1, 0.25);

  /**
   * A verdict not about convergence (test error, run time) over every unit and over the units where neither run is
   * sensitive to rounding.
   *
   * @param all the verdict over every unit with both runs
   * @param n its number of units
   * @param stable the verdict without the sensitive runs' units
   * @param nStable its number of units
   */
  public record Paired(Verdict all, int n, Verdict stable, int nStable) {
    /** Whether leaving the sensitive runs out changes the outcome. */
    public boolean changes() {
      return all.outcome() != stable.outcome();
    }
  }

  /**
   * Every verdict.
   *
   * @param verdicts the counted verdicts (Power EP in the paper's appendix C variant)
   * @param besideMinka the same tests against Minka's Power EP, printed and not counted
   * @param paired the verdicts not about convergence (test error, overhead) with and without sensitive runs (counted
   *     ones and Minka's)
   */
  public record Result(List<Verdict> verdicts, List<Verdict> besideMinka, List<Paired> paired) {
    /** The headline of the report index, from {@link #verdicts}. */
    public String headline() {
      return Verdicts.headline(verdicts);
    }
  }

  /** One stored run's columns. */
  record Run(boolean diverged, double sweeps, double increases, double error, double seconds) {}

  /** Stored runs by unit ("figure|dataset|flip|unit") and run ("ep", "power-ep-c", "rep|b/global|10.0"). */
  static Map<String, Map<String, Run>> index(Table trials, int maxSweeps) {
    Map<String, Map<String, Run>> out = new LinkedHashMap<>();
    for (int i = 0; i < trials.rowCount(); i++) {
      String unit =
          trials.column("figure").getString(i) + "|" + trials.column("dataset").getString(i) + "|"
              + (int) num(trials, "flip", i) + "|" + (int) num(trials, "unit", i);
      String m = trials.column("method").getString(i);
      String run = m.equals("rep")
          ? "rep|" + trials.column("variant").getString(i) + "|"
              + trials.column("c").getString(i)
          : m;
      boolean diverged = flag(trials, "diverged", i);
      out.computeIfAbsent(unit, k -> new LinkedHashMap<>())
          .put(
              run,
              new Run(
                  diverged,
                  // a run that never reached R < 1e-3 counts as the cap + 1, wherever the loop
                  // stopped it
                  diverged ? maxSweeps + 1 : num(trials, "sweeps_to_R", i),
                  num(trials, "increases", i),
                  num(trials, "test_error", i),
                  num(trials, "seconds", i)));
    }
    return out;
  }

  private static double num(Table t, String col, int i) {
    return ((tech.tablesaw.api.NumericColumn<?>) t.column(col)).getDouble(i);
  }

  private static boolean flag(Table t, String col, int i) {
    return t.column(col) instanceof tech.tablesaw.api.BooleanColumn b
        ? b.get(i)
        : num(t, col, i) != 0;
  }

  /** The run key of a reading at penalty c. */
  static String rep(String reading, double c) {
    return "rep|" + reading + "|" + c;
  }

  /**
   * The paired verdict "REP lower than X" on the units of {@code unitPrefix}: d = X − REP of {@code value} per unit
   * where both are finite ({@link Verdicts#pairedPositive}); and the same on the units where neither run diverged.
   */
  static Paired lower(
      Map<String, Map<String, Run>> runs,
      String unitPrefix,
      String claim,
      String unit,
      String statistic,
      String rep,
      String other,
      ToDoubleFunction<Run> value) {
    List<Double> all = new ArrayList<>();
    List<Double> stable = new ArrayList<>();
    runs.forEach((u, r) -> {
      if (u.startsWith(unitPrefix) && r.containsKey(rep) && r.containsKey(other)) {
        double d = value.applyAsDouble(r.get(other)) - value.applyAsDouble(r.get(rep));
        if (Double.isFinite(d)) {
          all.add(d);
          if (!r.get(other).diverged() && !r.get(rep).diverged()) {
            stable.add(d);
          }
        }
      }
    });
    Verdict a = Verdicts.pairedPositive(
        claim, unit, statistic, all.stream().mapToDouble(x -> x).toArray());
    Verdict s = Verdicts.pairedPositive(
        claim,
        unit + ", sensitive runs left out",
        statistic,
        stable.stream().mapToDouble(x -> x).toArray());
    return new Paired(a, all.size(), s, stable.size());
  }

  /** {@link #DETERMINISTIC_RULE} on d (positive as claimed) with tolerance {@code tol}. */
  public static Verdict deterministic(
      String claim, String unit, String statistic, double d, double tol) {
    Verdict.Outcome o = !Double.isFinite(d)
        ? Verdict.Outcome.UNDECIDED
        : d > tol
            ? Verdict.Outcome.REPRODUCES
            : d < -tol ? Verdict.Outcome.CONTRADICTS : Verdict.Outcome.UNDECIDED;
    return new Verdict(claim, unit, statistic, d, tol, DETERMINISTIC_RULE, o);
  }

  /** The tolerance of two compared squared distances: 1e-6 of their mean (class comment). */
  static double tol(double a, double b) {
    return 1e-6 * (Math.abs(a) + Math.abs(b)) / 2;
  }

  /** {@link #NEVER_RULE}: runs diverged of REP, of EP and of PEP. */
  public static Verdict never(String claim, String unit, int rep, int ep, int pep, int n) {
    Verdict.Outcome o = n == 0
        ? Verdict.Outcome.UNDECIDED
        : rep > 0
            ? Verdict.Outcome.CONTRADICTS
            : ep + pep > 0 ? Verdict.Outcome.REPRODUCES : Verdict.Outcome.UNDECIDED;
    return new Verdict(
        claim,
        unit,
        String.format(Locale.ROOT, "REP runs diverged of %d (EP %d, PEP %d)", n, ep, pep),
        rep,
        Double.NaN,
        NEVER_RULE,
        o);
  }

  /** {@link #LESS_OFTEN_RULE}: runs diverged of EP and of PEP. */
  public static Verdict lessOften(String claim, String unit, int ep, int pep, int n) {
    int d = ep - pep;
    Verdict.Outcome o = n == 0 || d == 0
        ? Verdict.Outcome.UNDECIDED
        : d > 0 ? Verdict.Outcome.REPRODUCES : Verdict.Outcome.CONTRADICTS;
    return new Verdict(
        claim,
        unit,
        String.format(Locale.ROOT, "EP − PEP runs diverged (EP %d, PEP %d of %d)", ep, pep, n),
        d,
        Double.NaN,
        LESS_OFTEN_RULE,
        o);
  }

  /** {@link #OVERHEAD_RULE} on per-unit log ratios log(REP seconds / EP seconds). */
  public static Verdict overhead(String claim, String unit, double[] logRatios) {
    double[] ms = Verdicts.meanAndSe(logRatios);
    double m = ms[0];
    double se = ms[1];
    Verdict.Outcome o = Verdict.Outcome.UNDECIDED;
    if (Double.isFinite(m) && Double.isFinite(se)) {
      if (Math.exp(m + 2 * se) <= NEGLIGIBLE_RATIO) {
        o = Verdict.Outcome.REPRODUCES;
      } else if (Math.exp(m - 2 * se) > NEGLIGIBLE_RATIO) {
        o = Verdict.Outcome.CONTRADICTS;
      }
    }
    return new Verdict(
        claim,
        unit,
        "REP / EP seconds (geometric mean over units)",
        Math.exp(m),
        se,
        OVERHEAD_RULE,
        o);
  }

  /** {@link #ONE_RUN_RULE}. */
  static Verdict oneRun(String claim, Run ep, Run pep, Run rep) {
    double d = pep.sweeps() - rep.sweeps();
    Verdict.Outcome o = rep.diverged() || d <= 0
        ? Verdict.Outcome.CONTRADICTS
        : ep.diverged() ? Verdict.Outcome.REPRODUCES : Verdict.Outcome.UNDECIDED;
    return new Verdict(
        claim,
        "the one data set (20 % flips, seed 0)",
        String.format(
            Locale.ROOT,
            "PEP − REP sweeps to R < 1e-3 (EP %.0f%s, PEP %.0f%s, REP %.0f%s; not converged = cap + 1)",
            ep.sweeps(),
            ep.diverged() ? " diverged" : "",
            pep.sweeps(),
            pep.diverged() ? " diverged" : "",
            rep.sweeps(),
            rep.diverged() ? " diverged" : ""),
        d,
        Double.NaN,
        ONE_RUN_RULE,
        o);
  }

  /**
   * Every claim's verdict for every reading of {@code c} ({@link RepReadings.Config#allReadings}) at the paper's
   * penalty (20 in Figure 1, 10 elsewhere), from the trial table of {@link RepReadings#experiment} and Figure 1's
   * exact posterior. Claims that do not involve REP (1b–c, PEP in 3 and 4b) are counted once.
   */
  public static Result evaluate(RepReadings.Config c, Table trials) {
    List<Verdict> counted = new ArrayList<>();
    List<Verdict> minka = new ArrayList<>();
    List<Paired> paired = new ArrayList<>();
    figure1(c, counted, minka);
    Map<String, Map<String, Run>> runs = index(trials, c.maxSweeps());
    Map<String, String> peps = new LinkedHashMap<>();
    peps.put(RepMethods.POWER_EP_APPENDIX_C, "PEP");
    peps.put("power-ep", "Minka's PEP");
    // reading-independent: 1b–c is in figure1; 3 and 4b for PEP
    for (int f : c.flipPercents()) {
      String pre = "synthetic|synthetic|" + f + "|";
      peps.forEach((pep, label) -> {
        Paired p = lower(
            runs,
            pre,
            String.format(Locale.ROOT, "Fig. 3, %d %% flips: %s stabler than EP", f, label),
            "seed",
            "R(iter) increases, EP − " + label,
            pep,
            "ep",
            Run::increases);
        (pep.equals("power-ep") ? minka : counted).add(p.all());
      });
    }
    peps.forEach((pep, label) -> {
      int[] n = divergedCounts(runs, "synthetic|", pep, "ep");
      (pep.equals("power-ep") ? minka : counted)
          .add(lessOften(
              "Fig. 4b: " + label + " diverges less often than EP",
              "run (synthetic, all flip rates)",
              n[1],
              n[0],
              n[2]));
    });
    for (String r : c.allReadings()) {
      String rep = rep(r, RepReadings.PAPER_C);
      String who = "REP " + r;
      peps.forEach((pep, label) -> {
        List<Verdict> into = pep.equals("power-ep") ? minka : counted;
        int worst = c.flipPercents().isEmpty()
            ? 0
            : c.flipPercents().get(c.flipPercents().size() - 1);
        Map<String, Run> u0 = runs.getOrDefault("synthetic|synthetic|" + worst + "|0", Map.of());
        if (u0.containsKey("ep") && u0.containsKey(pep) && u0.containsKey(rep)) {
          into.add(oneRun(
              "Fig. 2: EP diverges, " + who + " converges before " + label,
              u0.get("ep"),
              u0.get(pep),
              u0.get(rep)));
        }
        for (int f : c.flipPercents()) {
          String pre = "synthetic|synthetic|" + f + "|";
          List<String> others = pep.equals("power-ep") ? List.of(pep) : List.of("ep", pep);
          for (String o : others) {
            String ol = o.equals("ep") ? "EP" : label;
            if (o.equals("ep")) {
              into.add(lower(
                      runs,
                      pre,
                      String.format(Locale.ROOT, "Fig. 3, %d %% flips: %s stabler than EP", f, who),
                      "seed",
                      "R(iter) increases, EP − REP",
                      rep,
                      "ep",
                      Run::increases)
                  .all());
            }
            into.add(lower(
                    runs,
                    pre,
                    String.format(
                        Locale.ROOT, "Fig. 4a, %d %% flips: %s fewer sweeps than %s", f, who, ol),
                    "seed",
                    "sweeps to R < 1e-3, " + ol + " − REP (not converged: cap + 1)",
                    rep,
                    o,
                    Run::sweeps)
                .all());
            Paired p = lower(
                runs,
                pre,
                String.format(
                    Locale.ROOT,
                    "Fig. 4c, %d %% flips: %s lower test error than" + " %s",
                    f,
                    who,
                    ol),
                "seed",
                "test error, " + ol + " − REP",
                rep,
                o,
                Run::error);
            into.add(p.all());
            paired.add(p);
          }
        }
        if (pep.equals(RepMethods.POWER_EP_APPENDIX_C)) {
          int[] n = divergedCounts(runs, "synthetic|", pep, "ep", rep);
          into.add(never(
              "Fig. 4b: " + who + " always converges",
              "run (synthetic, all flip rates)",
              n[2],
              n[1],
              n[0],
              n[3]));
          for (String fig : List.of("uci", "spam")) {
            int[] m = divergedCounts(runs, fig + "|", pep, "ep", rep);
            into.add(never(
                "§3.3/App. A: " + who + " never diverges ("
                    + (fig.equals("uci") ? "Fig. 5, UCI" : "Fig. 6, Spam") + ")",
                "run",
                m[2],
                m[1],
                m[0],
                m[3]));
          }
        }
        List<String> others = pep.equals("power-ep") ? List.of(pep) : List.of("ep", pep);
        for (String d : c.uciSets()) {
          for (String o : others) {
            String ol = o.equals("ep") ? "EP" : label;
            Paired p = lower(
                runs,
                "uci|" + d + "|",
                "Fig. 5, " + d + ": " + who + " lower test error than " + ol,
                "split",
                "test error, " + ol + " − REP",
                rep,
                o,
                Run::error);
            into.add(p.all());
            paired.add(p);
          }
        }
        for (int f : c.spamFlipPercents()) {
          for (String o : others) {
            String ol = o.equals("ep") ? "EP" : label;
            Paired p = lower(
                runs,
                "spam|" + RepUci.SPAM + "|" + f + "|",
                String.format(
                    Locale.ROOT,
                    "Fig. 6, Spam %d %% flips: %s lower test error than %s",
                    f,
                    who,
                    ol),
                "split",
                "test error, " + ol + " − REP",
                rep,
                o,
                Run::error);
            into.add(p.all());
            paired.add(p);
          }
        }
      });
      for (String fig : List.of("synthetic", "uci", "spam")) {
        List<Double> logs = new ArrayList<>();
        List<Double> stable = new ArrayList<>();
        runs.forEach((u, m) -> {
          if (u.startsWith(fig + "|") && m.containsKey(rep) && m.containsKey("ep")) {
            double x = Math.log(m.get(rep).seconds() / m.get("ep").seconds());
            if (Double.isFinite(x)) {
              logs.add(x);
              if (!m.get(rep).diverged() && !m.get("ep").diverged()) {
                stable.add(x);
              }
            }
          }
        });
        if (!logs.isEmpty()) {
          String claim = "§3.2: " + who + "'s overhead over EP negligible (" + fig + ")";
          Verdict all = overhead(
              claim, "unit (seed or split)", logs.stream().mapToDouble(x -> x).toArray());
          counted.add(all);
          paired.add(new Paired(
              all,
              logs.size(),
              overhead(
                  claim,
                  "unit (seed or split), sensitive runs left out",
                  stable.stream().mapToDouble(x -> x).toArray()),
              stable.size()));
        }
      }
    }
    return new Result(List.copyOf(counted), List.copyOf(minka), List.copyOf(paired));
  }

  /**
   * Runs diverged on the units of {@code prefix} where every run named is stored: n[i] for names[i], and the number
   * of such units last.
   */
  static int[] divergedCounts(Map<String, Map<String, Run>> runs, String prefix, String... names) {
    int[] n = new int[names.length + 1];
    runs.forEach((u, m) -> {
      if (!u.startsWith(prefix) || !java.util.Arrays.stream(names).allMatch(m::containsKey)) {
        return;
      }
      for (int i = 0; i < names.length; i++) {
        n[i] += m.get(names[i]).diverged() ? 1 : 0;
      }
      n[names.length]++;
    });
    return n;
  }

  /** Figure 1's and §6.1's claims (deterministic, exact posterior of the five points). */
  private static void figure1(RepReadings.Config c, List<Verdict> counted, List<Verdict> minka) {
    RepFigure1.Config f1 = RepFigure1.Config.forMode(ProjectPaths.Mode.SMOKE);
    RepFigure1.WeightPosterior ex = RepFigure1.exact(f1.epsilon());
    RepFigure1.WeightPosterior ep = RepFigure1.fit(f1, "ep", Double.NaN, "keep").posterior();
    for (String variant : List.of(RepMethods.POWER_EP_APPENDIX_C, "power-ep")) {
      List<Verdict> into = variant.equals("power-ep") ? minka : counted;
      String label = variant.equals("power-ep") ? "Minka's PEP" : "PEP";
      for (double u : c.powers()) {
        RepFigure1.WeightPosterior w = RepFigure1.fit(f1, variant, u, "keep").posterior();
        double wm = w == null ? Double.NaN : w.meanDistance(ex);
        double wc = w == null ? Double.NaN : w.covarianceDistance(ex);
        String unit = String.format(Locale.ROOT, "u = %.2g", u);
        into.add(deterministic(
            "Fig. 1b: " + label + "'s mean further from the exact one than EP's",
            unit,
            "‖μ−μ*‖², " + label + " − EP",
            wm - ep.meanDistance(ex),
            tol(wm, ep.meanDistance(ex))));
        into.add(deterministic(
            "Fig. 1c: " + label + "'s covariance further from the exact one than EP's",
            unit,
            "‖Σ−Σ*‖²_F, " + label + " − EP",
            wc - ep.covarianceDistance(ex),
            tol(wc, ep.covarianceDistance(ex))));
      }
    }
    for (String variant : List.of(RepMethods.POWER_EP_APPENDIX_C, "power-ep")) {
      RepFigure1.WeightPosterior pep =
          RepFigure1.fit(f1, variant, RepReadings.POWER, "keep").posterior();
      String label = variant.equals("power-ep") ? "Minka's PEP" : "PEP";
      (variant.equals("power-ep") ? minka : counted)
          .add(closer(
              "Fig. 1a: " + label + "'s mean closer to the exact" + " one than EP's (u = 0.8)",
              "the five points",
              "‖μ−μ*‖², EP − " + label,
              ep.meanDistance(ex),
              dist(pep, ex, true)));
    }
    List<Double> grid = RepReadings.penalties(c, RepReadings.PAPER_C_FIGURE1);
    for (String r : c.allReadings()) {
      String who = "REP " + r;
      String objective = RepReadings.objective(r);
      RepFigure1.WeightPosterior w = RepFigure1.fit(
              f1, "rep", RepReadings.PAPER_C_FIGURE1, "keep", RepReadings.reading(r), objective)
          .posterior();
      for (String variant : List.of(RepMethods.POWER_EP_APPENDIX_C, "power-ep")) {
        RepFigure1.WeightPosterior pep =
            RepFigure1.fit(f1, variant, RepReadings.POWER, "keep").posterior();
        String label = variant.equals("power-ep") ? "Minka's PEP" : "PEP";
        List<Verdict> into = variant.equals("power-ep") ? minka : counted;
        if (variant.equals(RepMethods.POWER_EP_APPENDIX_C)) {
          into.add(closer(
              "Fig. 1a: " + who + "'s mean closer to the exact one than EP's (c = 20)",
              "the five points",
              "‖μ−μ*‖², EP − REP",
              ep == null ? Double.NaN : ep.meanDistance(ex),
              dist(w, ex, true)));
        }
        into.add(closer(
            "Fig. 1a: " + who + "'s mean closer to the exact one than " + label
                + "'s (c = 20, u = 0.8)",
            "the five points",
            "‖μ−μ*‖², " + label + " − REP",
            dist(pep, ex, true),
            dist(w, ex, true)));
      }
      // 1d–e: equal to EP at the largest c; closer at a wide range of smaller c
      double largest = grid.get(grid.size() - 1);
      RepFigure1.WeightPosterior big = RepFigure1.fit(
              f1, "rep", largest, "keep", RepReadings.reading(r), objective)
          .posterior();
      double dm = dist(big, ex, true) - ep.meanDistance(ex);
      double dc = dist(big, ex, false) - ep.covarianceDistance(ex);
      double t = Math.max(
          tol(dist(big, ex, true), ep.meanDistance(ex)),
          tol(dist(big, ex, false), ep.covarianceDistance(ex)));
      boolean equal = Math.abs(dm) <= tol(dist(big, ex, true), ep.meanDistance(ex))
          && Math.abs(dc) <= tol(dist(big, ex, false), ep.covarianceDistance(ex));
      counted.add(new Verdict(
          "Fig. 1d–e: " + who + " equals EP for large c",
          String.format(Locale.ROOT, "c·σ_f² = %.3g (largest of the grid)", largest),
          String.format(
              Locale.ROOT,
              "max |REP − EP| of the squared distances (mean %+.3g, cov %+.3g)",
              dm,
              dc),
          Math.max(Math.abs(dm), Math.abs(dc)),
          t,
          EQUAL_RULE,
          equal ? Verdict.Outcome.REPRODUCES : Verdict.Outcome.CONTRADICTS));
      int closerBoth = 0;
      StringBuilder at = new StringBuilder();
      for (double pen : grid.subList(0, grid.size() - 1)) {
        RepFigure1.WeightPosterior x = RepFigure1.fit(
                f1, "rep", pen, "keep", RepReadings.reading(r), objective)
            .posterior();
        double m = dist(x, ex, true);
        double cv = dist(x, ex, false);
        if (ep.meanDistance(ex) - m > tol(m, ep.meanDistance(ex))
            && ep.covarianceDistance(ex) - cv > tol(cv, ep.covarianceDistance(ex))) {
          closerBoth++;
          at.append(at.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.3g", pen));
        }
      }
      int k = grid.size() - 1;
      counted.add(new Verdict(
          "Fig. 1d–e: " + who + " closer than EP in mean and covariance for a wide range of"
              + " smaller c",
          "c·σ_f² of the grid below the largest (" + k + ")",
          "count of c closer in both" + (at.length() == 0 ? "" : " (at " + at + ")"),
          closerBoth,
          Double.NaN,
          WIDE_RANGE_RULE,
          closerBoth >= 2
              ? Verdict.Outcome.REPRODUCES
              : closerBoth == 0 ? Verdict.Outcome.CONTRADICTS : Verdict.Outcome.UNDECIDED));
      // §6.1: other ε, REP (c = 20) more accurate than EP and PEP (u = 0.8), mean and covariance
      for (double eps : SECTION61_EPSILONS) {
        RepFigure1.Config fe = new RepFigure1.Config(
            eps,
            f1.power(),
            f1.penalty(),
            f1.powers(),
            f1.penalties(),
            f1.importanceSamples(),
            f1.maxSweeps());
        RepFigure1.WeightPosterior exE = RepFigure1.exact(eps);
        RepFigure1.WeightPosterior repE = RepFigure1.fit(
                fe, "rep", RepReadings.PAPER_C_FIGURE1, "keep", RepReadings.reading(r), objective)
            .posterior();
        String unit = String.format(Locale.ROOT, "ε = %.2g (the five points)", eps);
        for (String o : List.of("ep", RepMethods.POWER_EP_APPENDIX_C, "power-ep")) {
          RepFigure1.WeightPosterior x =
              RepFigure1.fit(fe, o, RepReadings.POWER, "keep").posterior();
          String ol = o.equals("ep") ? "EP" : o.equals("power-ep") ? "Minka's PEP" : "PEP";
          List<Verdict> into = o.equals("power-ep") ? minka : counted;
          into.add(closer(
              "§6.1: " + who + "'s mean more accurate than " + ol + "'s",
              unit,
              "‖μ−μ*‖², " + ol + " − REP",
              dist(x, exE, true),
              dist(repE, exE, true)));
          into.add(closer(
              "§6.1: " + who + "'s covariance more accurate than " + ol + "'s",
              unit,
              "‖Σ−Σ*‖²_F, " + ol + " − REP",
              dist(x, exE, false),
              dist(repE, exE, false)));
        }
      }
    }
  }

  private static Verdict closer(
      String claim, String unit, String statistic, double other, double rep) {
    return deterministic(claim, unit, statistic, other - rep, tol(other, rep));
  }

  private static double dist(
      RepFigure1.WeightPosterior w, RepFigure1.WeightPosterior ex, boolean mean) {
    return w == null ? Double.NaN : mean ? w.meanDistance(ex) : w.covarianceDistance(ex);
  }

  /**
   * The verdicts of one rule as a table ({@link Verdicts#table}), the counted ones first, then those against Minka's
   * Power EP, with a column "counted" saying which are in the headline. One table per rule: the rule is its title.
   */
  public static Table table(Result r, String rule) {
    List<Verdict> counted =
        r.verdicts().stream().filter(v -> v.rule().equals(rule)).toList();
    List<Verdict> minka =
        r.besideMinka().stream().filter(v -> v.rule().equals(rule)).toList();
    List<Verdict> all = new ArrayList<>(counted);
    all.addAll(minka);
    Table t = Verdicts.table("Rule: " + rule, all);
    StringColumn in = StringColumn.create("counted");
    counted.forEach(v -> in.append("yes"));
    minka.forEach(v -> in.append("no (Minka's PEP)"));
    return t.addColumns(in);
  }

  /** The rules in the order of the class comment. */
  public static final List<String> RULES = List.of(
      DETERMINISTIC_RULE,
      EQUAL_RULE,
      WIDE_RANGE_RULE,
      ONE_RUN_RULE,
      Verdicts.PAIRED_POSITIVE_RULE,
      NEVER_RULE,
      LESS_OFTEN_RULE,
      OVERHEAD_RULE);

  /**
   * The verdicts not about convergence (test error, overhead), with and without the runs sensitive to rounding: claim, n, verdict, n and verdict
   * without sensitive runs, whether it changes.
   */
  public static Table sensitivity(List<Paired> paired) {
    StringColumn claim = StringColumn.create("claim");
    IntColumn n = IntColumn.create("units");
    DoubleColumn est = DoubleColumn.create("estimate");
    StringColumn v = StringColumn.create("verdict");
    IntColumn ns = IntColumn.create("units, sensitive out");
    DoubleColumn ests = DoubleColumn.create("estimate, sensitive out");
    StringColumn vs = StringColumn.create("verdict, sensitive out");
    StringColumn ch = StringColumn.create("changes");
    for (Paired p : paired) {
      claim.append(p.all().claim());
      n.append(p.n());
      est.append(p.all().estimate());
      v.append(p.all().outcome().label());
      ns.append(p.nStable());
      ests.append(p.stable().estimate());
      vs.append(p.stable().outcome().label());
      ch.append(p.changes() ? "yes" : "no");
    }
    return Table.create(
        "Verdicts not about convergence, with and without the runs sensitive to rounding",
        claim,
        n,
        est,
        v,
        ns,
        ests,
        vs,
        ch);
  }

  /**
   * The counted verdicts claim by claim over the readings: the claim with its reading replaced by "*" (claims that
   * involve no REP as they are), its unit, and how many readings' verdicts reproduce, contradict or are undecided.
   * Computed from {@link Result#verdicts}, in their order.
   */
  public static Table byClaim(RepReadings.Config c, List<Verdict> verdicts) {
    Map<String, int[]> counts = new LinkedHashMap<>();
    for (Verdict v : verdicts) {
      String claim = v.claim();
      for (String r : c.allReadings()) {
        claim = claim.replace("REP " + r + " ", "REP * ").replace("REP " + r + "'", "REP *'");
      }
      int[] n = counts.computeIfAbsent(claim + "\u0000" + v.unit(), k -> new int[3]);
      n[v.outcome().ordinal()]++;
    }
    StringColumn claim = StringColumn.create("claim (REP * = every reading)");
    StringColumn unit = StringColumn.create("unit");
    IntColumn yes = IntColumn.create("reproduces");
    IntColumn no = IntColumn.create("contradicts");
    IntColumn open = IntColumn.create("undecided");
    counts.forEach((k, n) -> {
      String[] p = k.split("\u0000");
      claim.append(p[0]);
      unit.append(p[1]);
      yes.append(n[Verdict.Outcome.REPRODUCES.ordinal()]);
      no.append(n[Verdict.Outcome.CONTRADICTS.ordinal()]);
      open.append(n[Verdict.Outcome.UNDECIDED.ordinal()]);
    });
    return Table.create(
        "Counted verdicts per claim and unit, over the readings", claim, unit, yes, no, open);
  }

  /**
   * Per reading: "reading r: R of N claims reproduce, …" from the counted verdicts whose claim names "REP r"
   * (reading-independent claims are not in any reading's line).
   */
  public static List<String> perReading(RepReadings.Config c, List<Verdict> verdicts) {
    List<String> out = new ArrayList<>();
    for (String r : c.allReadings()) {
      List<Verdict> mine = verdicts.stream()
          .filter(v -> v.claim().contains("REP " + r + " ") || v.claim().contains("REP " + r + "'"))
          .toList();
      out.add("reading " + r + ": " + Verdicts.counts(mine).replaceFirst(" \\(rule: .*\\)$", ""));
    }
    return out;
  }
}
