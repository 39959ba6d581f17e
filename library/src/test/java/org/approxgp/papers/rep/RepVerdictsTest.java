package org.approxgp.papers.rep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.approxgp.experiment.ConfigHash;
import org.approxgp.experiment.ProjectPaths;
import org.approxgp.model.Methods;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/** {@link RepVerdicts}' rule, matrix and conclusion on hand-made numbers; {@link RepReadings}' labels and grid. */
class RepVerdictsTest {

  @Test
  void theRuleNeedsTwoStandardErrorsAgainstEveryComparator() {
    // REP lower than both by far more than 2 s.e.
    RepVerdicts.Diff a =
        RepVerdicts.diff(new double[] {0.1, 0.2, 0.15}, new double[] {0.3, 0.4, 0.36});
    RepVerdicts.Diff b =
        RepVerdicts.diff(new double[] {0.1, 0.2, 0.15}, new double[] {0.2, 0.3, 0.26});
    assertEquals(RepVerdicts.REPRODUCES, RepVerdicts.lower(List.of(a, b)));
    // identical to EP: not lower, decisively
    RepVerdicts.Diff same = RepVerdicts.diff(new double[] {0.1, 0.2}, new double[] {0.1, 0.2});
    assertEquals(0, same.mean());
    assertEquals(0, same.se());
    assertEquals(RepVerdicts.CONTRADICTS, RepVerdicts.lower(List.of(a, same)));
    // lower on average but within noise
    RepVerdicts.Diff noisy =
        RepVerdicts.diff(new double[] {0.1, 0.5, 0.1}, new double[] {0.3, 0.2, 0.3});
    assertEquals(RepVerdicts.UNDECIDED, RepVerdicts.lower(List.of(a, noisy)));
    // pairs with a missing value are left out; none left: undecided
    RepVerdicts.Diff none = RepVerdicts.diff(new double[] {Double.NaN}, new double[] {0.2});
    assertEquals(0, none.n());
    assertEquals(RepVerdicts.UNDECIDED, RepVerdicts.lower(List.of(none)));
  }

  @Test
  void matrixTakesThePapersPenaltyAndTheConclusionFollowsIt() {
    RepReadings.Config c = RepReadings.Config.forMode(ProjectPaths.Mode.SMOKE);
    Table v = Table.create(
        "v",
        StringColumn.create("figure"),
        StringColumn.create("claim"),
        StringColumn.create("reading"),
        DoubleColumn.create("c·σ_f²"),
        StringColumn.create("verdict"),
        StringColumn.create("ours"));
    for (String r : c.variants()) {
      for (double pen : RepReadings.penalties(c, RepReadings.PAPER_C)) {
        v.stringColumn("figure").append("4c");
        v.stringColumn("claim").append(RepVerdicts.claim("4c"));
        v.stringColumn("reading").append(r);
        v.doubleColumn("c·σ_f²").append(pen);
        // reading b reproduces at c = 10 only, reading a at c = 0.01 only, c nowhere
        boolean yes = (r.equals("b") && pen == 10) || (r.equals("a") && pen == 0.01);
        v.stringColumn("verdict").append(yes ? RepVerdicts.REPRODUCES : RepVerdicts.CONTRADICTS);
        v.stringColumn("ours").append("");
      }
    }
    Table m = RepVerdicts.matrix(v, c);
    assertEquals(1, m.rowCount());
    assertEquals(
        "contradicts (reproduces at c·σ_f² = 0.0100)",
        m.stringColumn("reading a").get(0));
    assertEquals(
        "reproduces (reproduces at c·σ_f² = 10.0)", m.stringColumn("reading b").get(0));
    assertEquals("contradicts", m.stringColumn("reading c").get(0));
    String text = RepVerdicts.conclusion(m);
    assertTrue(text.startsWith("At the paper's penalties some reading reproduces Fig. 4c."), text);
    assertTrue(
        text.contains(
            "reading a: reproduces at the paper's c none; reproduces only at another c Fig. 4c;"
                + " contradicted at the paper's c: Fig. 4c."),
        text);
    assertTrue(
        text.contains(
            "reading b: reproduces at the paper's c Fig. 4c; reproduces only at another c none;"
                + " contradicted at the paper's c: none."),
        text);
    assertTrue(text.contains("No reading reproduces, at any c of the grid: none."), text);
  }

  /**
   * The objective readings and Power EP's appendix C variant only add trials: the store of the config without them
   * is the store of the config with them (the full store shipped before they existed is read, not replaced).
   */
  @Test
  void addedReadingsAndPowerEpVariantKeepTheStore() {
    RepReadings.Config full = RepReadings.Config.forMode(ProjectPaths.Mode.FULL);
    RepReadings.Config before = new RepReadings.Config(full.variants(), full.scaledPenalties(), full.seeds(),
        full.trainPerClass(), full.testPerClass(), full.flipPercents(), full.uciSets(), full.uciSplits(),
        full.spamFlipPercents(), full.powers(), full.maxSweeps(), List.of(), false);
    assertEquals(ConfigHash.storeHash(before), ConfigHash.storeHash(full));
    int units = 2 * 6 + 4 * 4 + 3 * 4;
    assertEquals(units * 32, RepReadings.experiment(before).trials().size());
    // + appendix C Power EP on every unit, + 6 objective readings × 5 penalties on every unit
    assertEquals(units * (32 + 1 + 30), RepReadings.experiment(full).trials().size());
    assertTrue(RepReadings.experiment(full).trials().contains(
        new RepReadings.Key("spam", "spam", 20, 3, RepMethods.POWER_EP_APPENDIX_C, "-", "-")));
  }

  @Test
  void labelsAndGrid() {
    assertEquals(
        new Methods.RepReading("c", "nonnegative", "eq35", "global"),
        RepReadings.reading("c/global"));
    assertEquals(
        new Methods.RepReading("a", "nonnegative", "eq35", "local"), RepReadings.reading("a"));
    assertThrows(IllegalArgumentException.class, () -> RepReadings.reading("d"));
    assertThrows(IllegalArgumentException.class, () -> RepReadings.reading("b/local/x"));
    assertEquals(
        new Methods.RepReading("c", "nonnegative", "eq35", "global"),
        RepReadings.reading("c/global/unnormalised"));
    assertEquals("unnormalised", RepReadings.objective("c/global/unnormalised"));
    assertEquals("eq36", RepReadings.objective("b/eq36"));
    assertEquals(null, RepReadings.objective("b/global"));
    assertThrows(IllegalArgumentException.class, () -> RepReadings.reading("b/eq36/global"));
    RepReadings.Config c = RepReadings.Config.forMode(ProjectPaths.Mode.QUICK);
    // an objective belongs in objectiveReadings, and a reading there must name one
    assertThrows(IllegalArgumentException.class, () -> new RepReadings.Config(List.of("b/eq36"),
        c.scaledPenalties(), 1, 10, 10, List.of(10), List.of(), 1, List.of(), List.of(0.5), 10, List.of(), false));
    assertThrows(IllegalArgumentException.class, () -> new RepReadings.Config(List.of("b"),
        c.scaledPenalties(), 1, 10, 10, List.of(10), List.of(), 1, List.of(), List.of(0.5), 10, List.of("b"), false));
    assertEquals(
        List.of(0.01, 0.1, 1.0, 10.0, 20.0, 100.0),
        RepReadings.penalties(c, RepReadings.PAPER_C_FIGURE1));
    assertEquals(
        List.of(0.01, 0.1, 1.0, 10.0, 100.0), RepReadings.penalties(c, RepReadings.PAPER_C));
  }
}
