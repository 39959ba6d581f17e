package org.approxgp.papers.rep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/** {@link RepFidelity}: the direction of each claim judged against our paired spread, and the reasons it gives. */
class RepFidelityTest {

  private static Table uciRows() {
    return Table.create(
        "uci",
        StringColumn.create("dataset"),
        IntColumn.create("flipPercent"),
        IntColumn.create("split"),
        StringColumn.create("method"),
        DoubleColumn.create("test_error"),
        DoubleColumn.create("test_error_shared"),
        BooleanColumn.create("failed"));
  }

  private static void uci(Table t, String d, int split, String m, double err, double shared) {
    t.stringColumn("dataset").append(d);
    t.intColumn("flipPercent").append(0);
    t.intColumn("split").append(split);
    t.stringColumn("method").append(m);
    t.doubleColumn("test_error").append(err);
    t.doubleColumn("test_error_shared").append(shared);
    t.booleanColumn("failed").append(Double.isNaN(err));
  }

  @Test
  void repLowerBeyondOurSpreadAgreesAndEqualToEpDoesNot() {
    Table t = uciRows();
    double[] base = {0.20, 0.25, 0.22};
    for (int s = 0; s < 3; s++) {
      // heart: REP 5 points lower than both on every split, with a little noise
      uci(t, "heart", s, "ep", base[s], base[s]);
      uci(t, "heart", s, "power-ep-c", base[s] + 0.01, base[s]);
      uci(t, "heart", s, "rep", base[s] - 0.05 + 0.001 * s, base[s]);
      // the Haberman stand-in: REP identical to EP everywhere
      uci(t, "haberman", s, "ep", base[s], base[s]);
      uci(t, "haberman", s, "power-ep-c", base[s] + 0.02, base[s]);
      uci(t, "haberman", s, "rep", base[s], base[s]);
    }
    Table f = RepFidelity.uci(t);
    assertEquals(2, f.rowCount());
    assertEquals(RepFidelity.YES, f.stringColumn("agrees: own CV").get(0));
    assertEquals("", f.stringColumn("why not").get(0));
    // at the shared ℓ all three are equal: REP not lower
    assertEquals(RepFidelity.NO, f.stringColumn("agrees: shared ℓ").get(0));
    assertEquals(RepFidelity.NO, f.stringColumn("agrees: own CV").get(1));
    String why = f.stringColumn("why not").get(1);
    assertTrue(why.contains("REP not lower than EP: +0.00 ± 0.0 pp over 3 splits"), why);
    assertTrue(why.contains("equals EP's on 3 of 3 splits"), why);
    assertTrue(why.contains("rotterdam stands in for Haberman"), why);
    assertTrue(
        f.stringColumn("ours: own CV (paper's protocol)")
            .get(0)
            .startsWith(
                "test error %: EP 22.3, PEP (App. C) 23.3, REP 17.4 (3 splits all fitted); REP − EP -4.90 ± 0.12 pp"),
        f.stringColumn("ours: own CV (paper's protocol)").get(0));
  }

  @Test
  void aNoisyDifferenceIsWithinOurSpreadAndFailedFitsAreNamed() {
    Table t = uciRows();
    double[] rep = {0.10, 0.40, 0.10, Double.NaN};
    for (int s = 0; s < 4; s++) {
      uci(t, "spam", s, "ep", 0.30, 0.3);
      uci(t, "spam", s, "power-ep-c", 0.30, 0.3);
      uci(t, "spam", s, "rep", rep[s], 0.3);
    }
    Table f = RepFidelity.uci(t);
    assertEquals("6", f.stringColumn("figure").get(0));
    assertEquals(RepFidelity.WITHIN, f.stringColumn("agrees: own CV").get(0));
    String why = f.stringColumn("why not").get(0);
    assertTrue(why.contains("over 3 splits: within our ±"), why);
    assertTrue(why.contains("1 failed fits"), why);
  }

  private static Table synthRows(String name) {
    return Table.create(
        name,
        IntColumn.create("flipPercent"),
        IntColumn.create("repetition"),
        StringColumn.create("method"),
        DoubleColumn.create("test_error"),
        DoubleColumn.create("sweeps_to_R"),
        BooleanColumn.create("diverged"));
  }

  private static void synth(Table t, int rep, String m, double err, double sweeps, boolean div) {
    t.intColumn("flipPercent").append(20);
    t.intColumn("repetition").append(rep);
    t.stringColumn("method").append(m);
    t.doubleColumn("test_error").append(err);
    t.doubleColumn("sweeps_to_R").append(sweeps);
    t.booleanColumn("diverged").append(div);
  }

  @Test
  void figureTwoNeedsEpToDivergeAndRepFasterThanPep() {
    Table fig = synthRows("fig");
    synth(fig, 0, "ep", 0.1, 201, true);
    synth(fig, 0, "power-ep-c", 0.1, 20, false);
    synth(fig, 0, "rep", 0.1, 12, false);
    Table runs = synthRows("runs");
    for (int r = 0; r < 3; r++) {
      synth(runs, r, "ep", 0.10 + 0.01 * r, 201, r == 0);
      synth(runs, r, "power-ep-c", 0.10 + 0.01 * r, 40 + r, false);
      synth(runs, r, "rep", 0.08 + 0.01 * r, 30 + r, r == 2);
    }
    Table f = RepFidelity.synthetic(runs, fig);
    assertEquals("2", f.stringColumn("figure").get(0));
    assertEquals(RepFidelity.YES, f.stringColumn("agrees: own CV").get(0));
    assertEquals("4a", f.stringColumn("figure").get(1));
    assertEquals(RepFidelity.YES, f.stringColumn("agrees: own CV").get(1));
    assertEquals("4b", f.stringColumn("figure").get(2));
    assertEquals(RepFidelity.NO, f.stringColumn("agrees: own CV").get(2));
    assertEquals("REP diverged in 1 runs", f.stringColumn("why not").get(2));
    assertEquals(RepFidelity.YES, f.stringColumn("agrees: own CV").get(3));
    // a table without the shared-ℓ column has no shared verdict to give
    assertEquals(RepFidelity.WITHIN, f.stringColumn("agrees: shared ℓ").get(3));

    // EP converging in Figure 2's run breaks the pattern
    Table fig2 = synthRows("fig");
    synth(fig2, 0, "ep", 0.1, 50, false);
    synth(fig2, 0, "power-ep-c", 0.1, 20, false);
    synth(fig2, 0, "rep", 0.1, 25, false);
    Table g = RepFidelity.synthetic(runs, fig2);
    assertEquals(RepFidelity.NO, g.stringColumn("agrees: own CV").get(0));
    String why = g.stringColumn("why not").get(0);
    assertTrue(
        why.contains("EP converged here") && why.contains("no fewer sweeps than PEP (App. C)"),
        why);
  }

  /**
   * The paper's PEP is the appendix C variant: its rows decide the claim ("counted": yes); Minka's, beside it, gives
   * its own rows, labelled and not counted, even where it would decide otherwise.
   */
  @Test
  void theAppendixCVariantDecidesAndMinkasIsBesideNotCounted() {
    Table t = uciRows();
    double[] base = {0.20, 0.25, 0.22, 0.21};
    for (int s = 0; s < 4; s++) {
      uci(t, "pima", s, "ep", base[s] + 0.03, base[s]);
      // appendix C: well above REP on every split; Minka's: below REP on every split
      uci(t, "pima", s, "power-ep-c", base[s] + 0.04, base[s]);
      uci(t, "pima", s, "power-ep", base[s] - 0.02, base[s]);
      uci(t, "pima", s, "rep", base[s] + 0.001 * s, base[s]);
    }
    Table f = RepFidelity.uci(t);
    assertEquals(2, f.rowCount());
    assertEquals("PEP (App. C)", f.stringColumn("PEP").get(0));
    assertEquals(RepMethods.COUNTED, f.stringColumn("counted").get(0));
    assertEquals(RepFidelity.YES, f.stringColumn("agrees: own CV").get(0));
    assertEquals("PEP (Minka)", f.stringColumn("PEP").get(1));
    assertEquals("no (PEP (Minka), beside)", f.stringColumn("counted").get(1));
    assertEquals(RepFidelity.NO, f.stringColumn("agrees: own CV").get(1));
    String why = f.stringColumn("why not").get(1);
    assertTrue(why.contains("REP not lower than PEP (Minka)"), why);
  }
}
