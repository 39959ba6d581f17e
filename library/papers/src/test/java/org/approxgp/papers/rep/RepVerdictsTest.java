package org.approxgp.papers.rep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.approxgp.experiment.ConfigHash;
import org.approxgp.experiment.ProjectPaths;
import org.approxgp.model.Methods;
import org.junit.jupiter.api.Test;

/** {@link RepVerdicts}' rule on hand-made numbers; {@link RepReadings}' labels, grid and store. */
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

  /**
   * The objective readings and Power EP's appendix C variant only add trials: the store of the config without them
   * is the store of the config with them (the full store shipped before they existed is read, not replaced).
   */
  @Test
  void addedReadingsAndPowerEpVariantKeepTheStore() {
    RepReadings.Config full = RepReadings.Config.forMode(ProjectPaths.Mode.FULL);
    RepReadings.Config before = new RepReadings.Config(
        full.variants(),
        full.scaledPenalties(),
        full.seeds(),
        full.trainPerClass(),
        full.testPerClass(),
        full.flipPercents(),
        full.uciSets(),
        full.uciSplits(),
        full.spamFlipPercents(),
        full.powers(),
        full.maxSweeps(),
        List.of(),
        false);
    assertEquals(ConfigHash.storeHash(before), ConfigHash.storeHash(full));
    int units = 2 * 6 + 4 * 4 + 3 * 4;
    assertEquals(units * 32, RepReadings.experiment(before).trials().size());
    // + appendix C Power EP on every unit, + 12 objective readings × 5 penalties on every unit
    assertEquals(units * (32 + 1 + 60), RepReadings.experiment(full).trials().size());
    assertTrue(RepReadings.experiment(full)
        .trials()
        .contains(
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
    assertThrows(
        IllegalArgumentException.class,
        () -> new RepReadings.Config(
            List.of("b/eq36"),
            c.scaledPenalties(),
            1,
            10,
            10,
            List.of(10),
            List.of(),
            1,
            List.of(),
            List.of(0.5),
            10,
            List.of(),
            false));
    assertThrows(
        IllegalArgumentException.class,
        () -> new RepReadings.Config(
            List.of("b"),
            c.scaledPenalties(),
            1,
            10,
            10,
            List.of(10),
            List.of(),
            1,
            List.of(),
            List.of(0.5),
            10,
            List.of("b"),
            false));
    assertEquals(
        List.of(0.01, 0.1, 1.0, 10.0, 20.0, 100.0),
        RepReadings.penalties(c, RepReadings.PAPER_C_FIGURE1));
    assertEquals(
        List.of(0.01, 0.1, 1.0, 10.0, 100.0), RepReadings.penalties(c, RepReadings.PAPER_C));
  }
}
