package org.approxgp.papers.rep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.approxgp.experiment.ProjectPaths;
import org.approxgp.papers.Verdict;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/** {@link RepClaims}' rules on constructed rows. */
class RepClaimsTest {

  private static final Verdict.Outcome YES = Verdict.Outcome.REPRODUCES;
  private static final Verdict.Outcome NO = Verdict.Outcome.CONTRADICTS;
  private static final Verdict.Outcome OPEN = Verdict.Outcome.UNDECIDED;

  /** Rows with the trial table's columns. */
  private static Table rows() {
    return Table.create(
        "t",
        StringColumn.create("figure"),
        StringColumn.create("dataset"),
        IntColumn.create("flip"),
        IntColumn.create("unit"),
        StringColumn.create("method"),
        StringColumn.create("variant"),
        StringColumn.create("c"),
        BooleanColumn.create("diverged"),
        DoubleColumn.create("sweeps_to_R"),
        DoubleColumn.create("increases"),
        DoubleColumn.create("test_error"),
        DoubleColumn.create("seconds"));
  }

  private static void add(
      Table t,
      String figure,
      String dataset,
      int flip,
      int unit,
      String method,
      String variant,
      String c,
      boolean diverged,
      double sweeps,
      double increases,
      double error,
      double seconds) {
    t.stringColumn("figure").append(figure);
    t.stringColumn("dataset").append(dataset);
    t.intColumn("flip").append(flip);
    t.intColumn("unit").append(unit);
    t.stringColumn("method").append(method);
    t.stringColumn("variant").append(variant);
    t.stringColumn("c").append(c);
    t.booleanColumn("diverged").append(diverged);
    t.doubleColumn("sweeps_to_R").append(sweeps);
    t.doubleColumn("increases").append(increases);
    t.doubleColumn("test_error").append(error);
    t.doubleColumn("seconds").append(seconds);
  }

  @Test
  void pairedTestErrorPerDataSetWithAndWithoutSensitiveRuns() {
    Table t = rows();
    // heart: REP lower than EP by 0.05 ± a little on every split; EP diverged on split 0 and 1
    double[] jitter = {0.001, -0.002, 0.0015, -0.001};
    for (int s = 0; s < 4; s++) {
      add(t, "uci", "heart", 0, s, "ep", "-", "-", s < 2, 101, 9, 0.30 + jitter[s], 1.0);
      add(t, "uci", "heart", 0, s, "rep", "b", "10.0", false, 12, 1, 0.25, 1.1);
      // pima: REP equal to EP: undecided, not "reproduces"
      add(t, "uci", "pima", 0, s, "ep", "-", "-", false, 20, 1, 0.2 + jitter[s], 1.0);
      add(t, "uci", "pima", 0, s, "rep", "b", "10.0", false, 20, 1, 0.2 + jitter[s], 4.0);
    }
    Map<String, Map<String, RepClaims.Run>> runs = RepClaims.index(t, 100);
    // a diverged run counts as the cap + 1 sweeps, whatever sweeps_to_R says
    assertEquals(101, runs.get("uci|heart|0|0").get("ep").sweeps());
    RepClaims.Paired heart = RepClaims.lower(
        runs,
        "uci|heart|",
        "h",
        "split",
        "EP − REP",
        RepClaims.rep("b", 10),
        "ep",
        RepClaims.Run::error);
    assertEquals(YES, heart.all().outcome());
    assertEquals(4, heart.n());
    assertEquals(0.05 - 0.0005 / 4, heart.all().estimate(), 1e-12);
    // without the two sensitive units two remain: still positive beyond 2 se
    assertEquals(2, heart.nStable());
    assertEquals(YES, heart.stable().outcome());
    assertFalse(heart.changes());
    RepClaims.Paired pima = RepClaims.lower(
        runs,
        "uci|pima|",
        "p",
        "split",
        "EP − REP",
        RepClaims.rep("b", 10),
        "ep",
        RepClaims.Run::error);
    assertEquals(OPEN, pima.all().outcome());
    // the other sign: EP lower than REP is a contradiction
    RepClaims.Paired reverse = RepClaims.lower(
        runs,
        "uci|heart|",
        "r",
        "split",
        "REP − EP",
        "ep",
        RepClaims.rep("b", 10),
        RepClaims.Run::error);
    assertEquals(NO, reverse.all().outcome());
    // one stable unit left: undecided, and the table says it changed
    add(t, "spam", "spam", 10, 0, "ep", "-", "-", true, 101, 9, 0.4, 1);
    add(t, "spam", "spam", 10, 0, "rep", "b", "10.0", false, 10, 0, 0.1, 1);
    add(t, "spam", "spam", 10, 1, "ep", "-", "-", true, 101, 9, 0.41, 1);
    add(t, "spam", "spam", 10, 1, "rep", "b", "10.0", false, 10, 0, 0.1, 1);
    add(t, "spam", "spam", 10, 2, "ep", "-", "-", false, 10, 0, 0.3, 1);
    add(t, "spam", "spam", 10, 2, "rep", "b", "10.0", false, 10, 0, 0.1, 1);
    RepClaims.Paired spam = RepClaims.lower(
        RepClaims.index(t, 100),
        "spam|spam|10|",
        "s",
        "split",
        "EP − REP",
        RepClaims.rep("b", 10),
        "ep",
        RepClaims.Run::error);
    assertEquals(YES, spam.all().outcome());
    assertEquals(OPEN, spam.stable().outcome());
    assertTrue(spam.changes());
    assertEquals(
        "yes", RepClaims.sensitivity(List.of(spam)).stringColumn("changes").get(0));
  }

  @Test
  void countsOverheadOneRunAndDeterministicRules() {
    assertEquals(YES, RepClaims.never("n", "run", 0, 3, 1, 12).outcome());
    assertEquals(NO, RepClaims.never("n", "run", 1, 3, 1, 12).outcome());
    assertEquals(OPEN, RepClaims.never("n", "run", 0, 0, 0, 12).outcome());
    assertEquals(YES, RepClaims.lessOften("l", "run", 5, 2, 12).outcome());
    assertEquals(NO, RepClaims.lessOften("l", "run", 2, 5, 12).outcome());
    assertEquals(OPEN, RepClaims.lessOften("l", "run", 3, 3, 12).outcome());
    // REP 1.1× EP on every unit: negligible; 3× EP: not; 1.1× or 3× by turns: undecided
    double a = Math.log(1.1);
    double b = Math.log(3);
    assertEquals(
        YES, RepClaims.overhead("o", "u", new double[] {a, a * 1.01, a * 0.99}).outcome());
    assertEquals(1.1, RepClaims.overhead("o", "u", new double[] {a, a}).estimate(), 1e-12);
    assertEquals(
        NO, RepClaims.overhead("o", "u", new double[] {b, b * 1.01, b * 0.99}).outcome());
    assertEquals(OPEN, RepClaims.overhead("o", "u", new double[] {a, b, a, b}).outcome());
    assertEquals(OPEN, RepClaims.overhead("o", "u", new double[] {a}).outcome());
    // one exact number against the tolerance
    assertEquals(YES, RepClaims.deterministic("d", "u", "s", 1e-3, 1e-6).outcome());
    assertEquals(NO, RepClaims.deterministic("d", "u", "s", -1e-3, 1e-6).outcome());
    assertEquals(OPEN, RepClaims.deterministic("d", "u", "s", 5e-7, 1e-6).outcome());
    assertEquals(OPEN, RepClaims.deterministic("d", "u", "s", Double.NaN, 1e-6).outcome());
    // Figure 2: EP diverged, PEP converged later than REP: reproduces; REP not faster: contradicts
    RepClaims.Run ep = new RepClaims.Run(true, 101, 30, 0.3, 1);
    RepClaims.Run pep = new RepClaims.Run(false, 20, 3, 0.2, 1);
    assertEquals(
        YES,
        RepClaims.oneRun("2", ep, pep, new RepClaims.Run(false, 10, 1, 0.1, 1)).outcome());
    assertEquals(
        NO,
        RepClaims.oneRun("2", ep, pep, new RepClaims.Run(false, 20, 1, 0.1, 1)).outcome());
    assertEquals(
        NO,
        RepClaims.oneRun("2", ep, pep, new RepClaims.Run(true, 101, 1, 0.1, 1)).outcome());
    assertEquals(
        OPEN,
        RepClaims.oneRun(
                "2",
                new RepClaims.Run(false, 30, 0, 0.1, 1),
                pep,
                new RepClaims.Run(false, 10, 1, 0.1, 1))
            .outcome());
  }

  @Test
  void divergedCountsOnlyUnitsWithEveryRun() {
    Table t = rows();
    add(t, "synthetic", "synthetic", 10, 0, "ep", "-", "-", true, 1, 1, 0.1, 1);
    add(t, "synthetic", "synthetic", 10, 0, "power-ep-c", "-", "-", false, 1, 1, 0.1, 1);
    add(t, "synthetic", "synthetic", 10, 1, "ep", "-", "-", true, 1, 1, 0.1, 1);
    int[] n = RepClaims.divergedCounts(RepClaims.index(t, 100), "synthetic|", "power-ep-c", "ep");
    assertEquals(List.of(0, 1, 1), List.of(n[0], n[1], n[2]));
  }

  /**
   * The whole evaluation on constructed rows of the smoke config: the headline counts the counted verdicts, Minka's
   * Power EP is beside and never counted, and a reading that beats EP and PEP on every Spam/UCI split reproduces.
   */
  @Test
  void evaluateCountsThePapersPowerEpOnly() {
    RepReadings.Config c = RepReadings.Config.forMode(ProjectPaths.Mode.SMOKE);
    Table t = rows();
    for (int s = 0; s < 3; s++) {
      double e = 0.01 * s;
      add(t, "uci", "heart", 0, s, "ep", "-", "-", false, 30, 2, 0.30 + e, 1.0);
      add(t, "uci", "heart", 0, s, "power-ep", "-", "-", false, 30, 2, 0.30 + e, 1.0);
      add(
          t,
          "uci",
          "heart",
          0,
          s,
          RepMethods.POWER_EP_APPENDIX_C,
          "-",
          "-",
          false,
          30,
          2,
          0.29 + e,
          1.0);
      for (String r : c.allReadings()) {
        add(
            t,
            "uci",
            "heart",
            0,
            s,
            "rep",
            r,
            "10.0",
            false,
            10,
            1,
            0.2 + e,
            r.equals("b") ? 1.05 : 5.0);
      }
    }
    RepClaims.Result res = RepClaims.evaluate(c, t);
    assertTrue(res.headline().startsWith("Agreement: "), res.headline());
    long r = res.verdicts().stream().filter(v -> v.outcome() == YES).count();
    assertTrue(
        res.headline().contains(r + " of " + res.verdicts().size() + " claims reproduce"),
        res.headline());
    assertTrue(res.verdicts().stream().noneMatch(v -> v.claim().contains("Minka")));
    assertTrue(res.besideMinka().stream().allMatch(v -> v.claim().contains("Minka")));
    for (String who : List.of("EP", "PEP")) {
      Verdict v = res.verdicts().stream()
          .filter(x -> x.claim().equals("Fig. 5, heart: REP b/eq36 lower test error than " + who))
          .findFirst()
          .orElseThrow();
      assertEquals(YES, v.outcome(), v.toString());
    }
    Verdict fast = res.verdicts().stream()
        .filter(x -> x.claim().equals("§3.2: REP b's overhead over EP negligible (uci)"))
        .findFirst()
        .orElseThrow();
    assertEquals(YES, fast.outcome(), fast.toString());
    // every other reading is 5× slower than EP
    Verdict slow = res.verdicts().stream()
        .filter(x -> x.claim().equals("§3.2: REP a's overhead over EP negligible (uci)"))
        .findFirst()
        .orElseThrow();
    assertEquals(NO, slow.outcome(), slow.toString());
    // the overhead verdicts are also in the with/without-sensitive-runs table, with the same
    // counted verdict
    assertTrue(res.paired().stream().anyMatch(p -> p.all().equals(slow)));
    // every counted verdict is in its rule's table once; Minka's rows are marked not counted
    int rows = 0;
    for (String rule : RepClaims.RULES) {
      Table tab = RepClaims.table(res, rule);
      rows += (int)
          tab.stringColumn("counted").asList().stream().filter("yes"::equals).count();
    }
    assertEquals(res.verdicts().size(), rows);
    // per claim over the readings: the counts add up to the counted verdicts, and Figure 5 on Heart
    // against EP
    // reproduces for every reading
    Table by = RepClaims.byClaim(c, res.verdicts());
    assertEquals(res.verdicts().size(), (int) (by.intColumn("reproduces").sum()
        + by.intColumn("contradicts").sum()
        + by.intColumn("undecided").sum()));
    Table heart =
        by.where(by.stringColumn(0).isEqualTo("Fig. 5, heart: REP * lower test error than EP"));
    assertEquals(1, heart.rowCount());
    assertEquals(c.allReadings().size(), heart.intColumn("reproduces").get(0));
    List<String> lines = RepClaims.perReading(c, res.verdicts());
    assertEquals(c.allReadings().size(), lines.size());
  }
}
