package org.approxgp.papers.rep;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.approxgp.experiment.ProjectPaths;
import org.approxgp.experiment.Summaries;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * The verdicts of {@link RepReadings}: for each claim of Figures 1–6, reading and penalty, whether our numbers
 * <b>reproduce</b> the claim, <b>contradict</b> it, or leave it <b>undecided</b>.
 *
 * <p><b>The rule for "REP is lower than X"</b> (sweeps, R-curve increases, test error): over the units (seeds,
 * splits) where both have a value, d = REP − X, its mean d̄ and standard error s = sd/√n. Against every comparator
 * d̄ + 2s &lt; 0: reproduces; against some comparator d̄ − 2s ≥ 0 (REP not lower, including REP identical to X):
 * contradicts; otherwise undecided. With one unit (Figure 1, Figure 2) s = 0 and the rule is the sign of d.
 * Claims about divergence count runs (see {@link #verdicts}).
 *
 * <p><b>What a verdict depends on besides its own column.</b> A reading's verdict on a test-error claim (4c, 5, 6)
 * is computed from its own fits <i>and</i> from EP's and Power EP's on the same units, over the units where both
 * produced a fit. So it moves when a comparator's fits change, when the set of units changes with the mode, or when
 * a fit starts or stops failing — without any change to the reading's own code. Two cases met in practice: (1) at
 * c = 10 the global search of reading c relaxes no site on most units, so REP equals EP bit for bit there, and
 * on Heart and the Haberman stand-in (quick mode) every unit where both fitted is such a unit: REP − EP = 0 ± 0,
 * "contradicts"; with Pima and Diabetes (full mode) some common units differ and the same column is "undecided";
 * (2) Power EP's evidence once needed EP's full cavity and failed on improper ones, which removed units from the
 * REP − Power EP pairing; since it uses its own u-cavity those fits count. A result store is also reused across
 * code changes (the config hash does not include the code), so a table can mix rows of two code versions; check
 * with {@code approxgp run EXP --verify K}. Most "failed" runs here have a posterior: what fails is the EP-form log
 * evidence at the final posterior (an improper EP cavity with kept negative sites), which these experiments do not
 * use; see {@link RepReadings#failures}.
 */
public final class RepVerdicts {
  public static final String REPRODUCES = "reproduces";
  public static final String CONTRADICTS = "contradicts";
  public static final String UNDECIDED = "undecided";

  private RepVerdicts() {}

  /** One comparison: mean difference, its standard error, the number of units. */
  record Diff(double mean, double se, int n) {
    String text(String against, double scale) {
      return String.format(
          Locale.ROOT, "%+.3g ± %.2g vs %s (n = %d)", mean * scale, 2 * se * scale, against, n);
    }
  }

  static Diff diff(double[] rep, double[] other) {
    List<Double> d = new ArrayList<>();
    for (int i = 0; i < rep.length; i++) {
      if (Double.isFinite(rep[i]) && Double.isFinite(other[i])) {
        d.add(rep[i] - other[i]);
      }
    }
    double[] v = d.stream().mapToDouble(Double::doubleValue).toArray();
    if (v.length == 0) {
      return new Diff(Double.NaN, Double.NaN, 0);
    }
    double se = v.length < 2 ? 0 : Summaries.sd(v) / Math.sqrt(v.length);
    return new Diff(Summaries.mean(v), se, v.length);
  }

  /** The class comment's rule over the comparators' differences. */
  static String lower(List<Diff> diffs) {
    boolean all = true;
    for (Diff d : diffs) {
      if (d.n() == 0) {
        return UNDECIDED;
      }
      if (d.mean() - 2 * d.se() >= 0) {
        return CONTRADICTS;
      }
      all &= d.mean() + 2 * d.se() < 0;
    }
    return all ? REPRODUCES : UNDECIDED;
  }

  private static Table empty() {
    return Table.create(
        "verdicts",
        StringColumn.create("figure"),
        StringColumn.create("claim"),
        StringColumn.create("reading"),
        DoubleColumn.create("c·σ_f²"),
        StringColumn.create("verdict"),
        StringColumn.create("ours"));
  }

  private static void add(
      Table t, String figure, String reading, double c, String verdict, String ours) {
    t.stringColumn("figure").append(figure);
    t.stringColumn("claim").append(claim(figure));
    t.stringColumn("reading").append(reading);
    t.doubleColumn("c·σ_f²").append(c);
    t.stringColumn("verdict").append(verdict);
    t.stringColumn("ours").append(ours);
  }

  /** The paper's words for a figure's claim ({@link RepPaper#CLAIMS}). */
  static String claim(String figure) {
    return RepPaper.CLAIMS.stream()
        .filter(cl -> cl.figure().equals(figure))
        .findFirst()
        .orElseThrow()
        .claim();
  }

  /**
   * Figure 1's verdicts (five points, exact posterior; deterministic, one unit): 1a at every c — REP's mean closer
   * to the exact mean than EP's and Power EP's (u = 0.8); 1b–c per Power EP variant (same for every reading) — Power
   * EP further from the exact mean and covariance than EP for every u of the grid (reproduces), closer in both for
   * some u (contradicts); 1d–e at every c — REP closer than EP in both mean and covariance (reproduces), not closer
   * in either (contradicts).
   */
  public static Table figure1(RepReadings.Config c) {
    RepFigure1.Config f1 = RepFigure1.Config.forMode(ProjectPaths.Mode.SMOKE);
    RepFigure1.WeightPosterior ex = RepFigure1.exact(f1.epsilon());
    RepFigure1.WeightPosterior ep = RepFigure1.fit(f1, "ep", Double.NaN, "keep").posterior();
    RepFigure1.WeightPosterior pep =
        RepFigure1.fit(f1, "power-ep", RepReadings.POWER, "keep").posterior();
    Table t = empty();
    for (String variant : List.of("minka", "appendix C")) {
      int further = 0;
      int closer = 0;
      StringBuilder s = new StringBuilder();
      for (double u : c.powers()) {
        RepFigure1.WeightPosterior w = RepFigure1.fit(
                f1,
                variant.equals("minka") ? "power-ep" : RepMethods.POWER_EP_APPENDIX_C,
                u,
                "keep")
            .posterior();
        double dm = w == null ? Double.NaN : w.meanDistance(ex) - ep.meanDistance(ex);
        double dc = w == null ? Double.NaN : w.covarianceDistance(ex) - ep.covarianceDistance(ex);
        further += dm > 0 && dc > 0 ? 1 : 0;
        closer += dm < 0 && dc < 0 ? 1 : 0;
        s.append(String.format(Locale.ROOT, "u=%.2g: Δmean %+.3g, Δcov %+.3g; ", u, dm, dc));
      }
      String v = further == c.powers().size() ? REPRODUCES : closer > 0 ? CONTRADICTS : UNDECIDED;
      for (String r : c.variants()) {
        add(
            t,
            "1b–c",
            r,
            Double.NaN,
            v,
            "power-ep " + variant + " − EP: " + s.toString().trim());
      }
    }
    for (String r : c.variants()) {
      for (double pen : RepReadings.penalties(c, RepReadings.PAPER_C_FIGURE1)) {
        RepFigure1.WeightPosterior w =
            RepFigure1.fit(f1, "rep", pen, "keep", RepReadings.reading(r)).posterior();
        double m = w == null ? Double.NaN : w.meanDistance(ex);
        double cv = w == null ? Double.NaN : w.covarianceDistance(ex);
        List<Diff> d = List.of(
            new Diff(m - ep.meanDistance(ex), 0, w == null ? 0 : 1),
            new Diff(
                m - (pep == null ? Double.NaN : pep.meanDistance(ex)),
                0,
                w == null || pep == null ? 0 : 1));
        add(
            t,
            "1a",
            r,
            pen,
            lower(d),
            String.format(
                Locale.ROOT,
                "‖μ−μ*‖²: REP %.4g, EP %.4g, PEP %.4g",
                m,
                ep.meanDistance(ex),
                pep == null ? Double.NaN : pep.meanDistance(ex)));
        double dm = m - ep.meanDistance(ex);
        double dc = cv - ep.covarianceDistance(ex);
        String v = !(w != null)
            ? CONTRADICTS
            : dm < 0 && dc < 0 ? REPRODUCES : dm >= 0 && dc >= 0 ? CONTRADICTS : UNDECIDED;
        add(
            t,
            "1d–e",
            r,
            pen,
            v,
            String.format(
                Locale.ROOT,
                "REP − EP: Δmean %+.3g, Δcov %+.3g%s",
                dm,
                dc,
                dm == 0 && dc == 0 ? " (REP = EP)" : ""));
      }
    }
    return t;
  }

  /**
   * Figures 2–6's verdicts from {@link RepReadings#experiment}'s trial table: 2 (the highest flip rate, seed 0): EP
   * diverges, REP converges in fewer sweeps than Power EP — reproduces when all hold, contradicts when REP diverges
   * or is not faster; 3: fewer increases of R(iter) than EP (rule of the class comment); 4a: fewer sweeps to
   * R &lt; 10⁻³ than EP and PEP; 4b: REP never diverges while EP or PEP does (contradicts: REP diverged in some run;
   * undecided: nobody diverged); 4c, 5, 6: lower test error than EP and PEP (synthetic, Figure 5's data sets pooled,
   * Spam).
   */
  public static Table verdicts(RepReadings.Config c, Table trials) {
    Map<String, Map<String, double[]>> byRun = index(trials);
    Table t = empty();
    int worst =
        c.flipPercents().isEmpty() ? 0 : c.flipPercents().get(c.flipPercents().size() - 1);
    for (String r : c.variants()) {
      for (double pen : RepReadings.penalties(c, RepReadings.PAPER_C)) {
        String rep = "rep|" + r + "|" + pen;
        // Figure 2: one data set
        String u0 = "synthetic|synthetic|" + worst + "|0";
        double[] e = byRun.getOrDefault(u0, Map.of()).get("ep|");
        double[] p = byRun.getOrDefault(u0, Map.of()).get("power-ep|");
        double[] q = byRun.getOrDefault(u0, Map.of()).get(rep);
        if (e != null && p != null && q != null) {
          boolean repDiv = q[1] > 0;
          String v = repDiv || q[2] >= p[2] ? CONTRADICTS : e[1] > 0 ? REPRODUCES : UNDECIDED;
          add(
              t,
              "2",
              r,
              pen,
              v,
              String.format(
                  Locale.ROOT,
                  "sweeps to R<1e-3 (diverged): EP %.0f (%s), PEP %.0f " + "(%s), REP %.0f (%s)",
                  e[2],
                  e[1] > 0 ? "yes" : "no",
                  p[2],
                  p[1] > 0 ? "yes" : "no",
                  q[2],
                  repDiv ? "yes" : "no"));
        }
        add(t, "3", r, pen, compare(byRun, "synthetic", rep, List.of("ep|"), 3, 1));
        add(t, "4a", r, pen, compare(byRun, "synthetic", rep, List.of("ep|", "power-ep|"), 2, 1));
        double[] div = divergence(byRun, "synthetic", rep);
        add(
            t,
            "4b",
            r,
            pen,
            div[2] > 0 ? CONTRADICTS : div[0] + div[1] > 0 ? REPRODUCES : UNDECIDED,
            String.format(
                Locale.ROOT,
                "runs diverged: EP %.0f, PEP %.0f, REP %.0f of %.0f",
                div[0],
                div[1],
                div[2],
                div[3]));
        add(t, "4c", r, pen, compare(byRun, "synthetic", rep, List.of("ep|", "power-ep|"), 4, 100));
        if (!c.uciSets().isEmpty()) {
          add(t, "5", r, pen, compare(byRun, "uci", rep, List.of("ep|", "power-ep|"), 4, 100));
        }
        if (!c.spamFlipPercents().isEmpty()) {
          add(t, "6", r, pen, compare(byRun, "spam", rep, List.of("ep|", "power-ep|"), 4, 100));
        }
      }
    }
    return t;
  }

  private static void add(
      Table t, String figure, String reading, double c, String[] verdictAndText) {
    add(t, figure, reading, c, verdictAndText[0], verdictAndText[1]);
  }

  /** Index: unit "figure|dataset|flip|unit" → run "method|variant|c" → {failed, diverged, sweeps, increases, err}. */
  private static Map<String, Map<String, double[]>> index(Table trials) {
    Map<String, Map<String, double[]>> out = new LinkedHashMap<>();
    for (int i = 0; i < trials.rowCount(); i++) {
      String unit =
          trials.column("figure").getString(i) + "|" + trials.column("dataset").getString(i) + "|"
              + (int) num(trials, "flip", i) + "|" + (int) num(trials, "unit", i);
      String m = trials.column("method").getString(i);
      String run = m.equals("rep")
          ? "rep|" + trials.column("variant").getString(i) + "|"
              + trials.column("c").getString(i)
          : m + "|";
      out.computeIfAbsent(unit, k -> new LinkedHashMap<>()).put(run, new double[] {
        flag(trials, "failed", i),
        flag(trials, "diverged", i),
        num(trials, "sweeps_to_R", i),
        num(trials, "increases", i),
        num(trials, "test_error", i)
      });
    }
    return out;
  }

  private static double num(Table t, String col, int i) {
    return ((tech.tablesaw.api.NumericColumn<?>) t.column(col)).getDouble(i);
  }

  private static double flag(Table t, String col, int i) {
    return t.column(col) instanceof tech.tablesaw.api.BooleanColumn b
        ? (b.get(i) ? 1 : 0)
        : num(t, col, i);
  }

  private static String[] compare(
      Map<String, Map<String, double[]>> byRun,
      String figure,
      String rep,
      List<String> others,
      int column,
      double scale) {
    List<Diff> diffs = new ArrayList<>();
    StringBuilder s = new StringBuilder();
    for (String o : others) {
      List<double[]> pairs = new ArrayList<>();
      byRun.forEach((unit, runs) -> {
        if (unit.startsWith(figure + "|") && runs.containsKey(rep) && runs.containsKey(o)) {
          pairs.add(new double[] {runs.get(rep)[column], runs.get(o)[column]});
        }
      });
      Diff d = diff(
          pairs.stream().mapToDouble(x -> x[0]).toArray(),
          pairs.stream().mapToDouble(x -> x[1]).toArray());
      diffs.add(d);
      s.append(s.length() == 0 ? "REP − X: " : "; ").append(d.text(o.replace("|", ""), scale));
    }
    return new String[] {lower(diffs), s.toString()};
  }

  private static double[] divergence(
      Map<String, Map<String, double[]>> byRun, String figure, String rep) {
    double[] n = new double[4];
    byRun.forEach((unit, runs) -> {
      if (unit.startsWith(figure + "|") && runs.containsKey(rep)) {
        n[0] += runs.containsKey("ep|") ? runs.get("ep|")[1] : 0;
        n[1] += runs.containsKey("power-ep|") ? runs.get("power-ep|")[1] : 0;
        n[2] += runs.get(rep)[1];
        n[3]++;
      }
    });
    return n;
  }

  /** The figures of the claims, in the paper's order. */
  static final List<String> FIGURES =
      List.of("1a", "1b–c", "1d–e", "2", "3", "4a", "4b", "4c", "5", "6");

  /**
   * Claim × reading: for 1b–c the verdict (it does not depend on c); for 1d–e the verdict over the grid (reproduces
   * when REP equals EP at the largest c and is closer in both distances at two or more c, contradicts when at no c
   * it is closer in either distance, undecided otherwise); otherwise the verdict at the paper's c (20 in Figure 1, 10 elsewhere). Each cell also lists the
   * c·σ_f² where the claim reproduces.
   */
  public static Table matrix(Table verdicts, RepReadings.Config c) {
    StringColumn fig = StringColumn.create("figure");
    StringColumn claim = StringColumn.create("paper's claim");
    List<StringColumn> cells = new ArrayList<>();
    for (String r : c.variants()) {
      cells.add(StringColumn.create("reading " + r));
    }
    for (String f : FIGURES) {
      Table rows = verdicts.where(verdicts.stringColumn("figure").isEqualTo(f));
      if (rows.rowCount() == 0) {
        continue;
      }
      fig.append(f);
      claim.append(claim(f));
      for (int k = 0; k < c.variants().size(); k++) {
        cells
            .get(k)
            .append(cell(
                rows.where(rows.stringColumn("reading").isEqualTo(c.variants().get(k))), f));
      }
    }
    Table t =
        Table.create("Verdict per claim and reading (at the paper's c unless stated)", fig, claim);
    cells.forEach(t::addColumns);
    return t;
  }

  /** The cell's verdict word (first word of {@link #cell}). */
  public static String verdictOf(String cell) {
    return cell.split(" ")[0];
  }

  private static String cell(Table rows, String figure) {
    List<String> at = new ArrayList<>();
    for (int i = 0; i < rows.rowCount(); i++) {
      if (rows.stringColumn("verdict").get(i).equals(REPRODUCES)
          && !Double.isNaN(rows.doubleColumn("c·σ_f²").getDouble(i))) {
        at.add(String.format(Locale.ROOT, "%.3g", rows.doubleColumn("c·σ_f²").getDouble(i)));
      }
    }
    String where = at.isEmpty() ? "" : " (reproduces at c·σ_f² = " + String.join(", ", at) + ")";
    if (figure.equals("1b–c")) {
      List<String> v = rows.stringColumn("verdict").asList();
      return v.contains(CONTRADICTS)
          ? CONTRADICTS
          : v.stream().allMatch(REPRODUCES::equals) ? REPRODUCES : UNDECIDED;
    }
    if (figure.equals("1d–e")) {
      int last = rows.rowCount() - 1;
      boolean equalAtLargest = rows.stringColumn("ours").get(last).contains("(REP = EP)");
      boolean closerSomewhere =
          rows.stringColumn("verdict").asList().stream().anyMatch(x -> !x.equals(CONTRADICTS));
      String v =
          at.size() >= 2 && equalAtLargest ? REPRODUCES : closerSomewhere ? UNDECIDED : CONTRADICTS;
      return v + (equalAtLargest ? "" : " (REP ≠ EP at the largest c)") + where;
    }
    double paper = figure.equals("1a") ? RepReadings.PAPER_C_FIGURE1 : RepReadings.PAPER_C;
    Table p = rows.where(rows.doubleColumn("c·σ_f²").isEqualTo(paper));
    return (p.rowCount() == 0 ? UNDECIDED : p.stringColumn("verdict").get(0)) + where;
  }

  /**
   * The conclusion in plain words, computed from {@link #matrix}: per reading, the claims it reproduces at the
   * paper's c and those it reproduces only at another c; the claims no reading reproduces at any c; the claims
   * some reading contradicts at the paper's c.
   */
  public static String conclusion(Table matrix) {
    StringBuilder s = new StringBuilder();
    List<String> none = new ArrayList<>();
    List<String> anyAtPaper = new ArrayList<>();
    for (int i = 0; i < matrix.rowCount(); i++) {
      boolean any = false;
      for (int k = 2; k < matrix.columnCount(); k++) {
        String cell = matrix.stringColumn(k).get(i);
        any |= verdictOf(cell).equals(REPRODUCES) || cell.contains("(reproduces at");
      }
      if (!any) {
        none.add(matrix.stringColumn("figure").get(i));
      }
    }
    for (int k = 2; k < matrix.columnCount(); k++) {
      List<String> atPaper = new ArrayList<>();
      List<String> elsewhere = new ArrayList<>();
      List<String> contradicted = new ArrayList<>();
      for (int i = 0; i < matrix.rowCount(); i++) {
        String cell = matrix.stringColumn(k).get(i);
        String f = matrix.stringColumn("figure").get(i);
        if (verdictOf(cell).equals(REPRODUCES)) {
          atPaper.add(f);
          if (!anyAtPaper.contains(f)) {
            anyAtPaper.add(f);
          }
        } else if (cell.contains("(reproduces at")) {
          elsewhere.add(f);
        }
        if (verdictOf(cell).equals(CONTRADICTS)) {
          contradicted.add(f);
        }
      }
      s.append(String.format(
          Locale.ROOT,
          "- %s: reproduces at the paper's c %s; reproduces only at another c %s;"
              + " contradicted at the paper's c: %s.%n",
          matrix.column(k).name(),
          words(atPaper),
          words(elsewhere),
          words(contradicted)));
    }
    s.append("- No reading reproduces, at any c of the grid: ")
        .append(words(none))
        .append('.');
    String head = anyAtPaper.isEmpty()
        ? "At the paper's penalties no reading of Relaxed EP reproduces any claim."
        : "At the paper's penalties some reading reproduces " + words(anyAtPaper) + ".";
    return head + System.lineSeparator() + s;
  }

  private static String words(List<String> figures) {
    return figures.isEmpty() ? "none" : "Fig. " + String.join(", ", figures);
  }
}
