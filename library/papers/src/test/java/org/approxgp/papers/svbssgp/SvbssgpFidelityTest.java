package org.approxgp.papers.svbssgp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/** {@link SvbssgpFidelity#table1}: the ranking decided by paired splits, stand-ins and missing runs named. */
class SvbssgpFidelityTest {

  private static Table trials() {
    return Table.create(
        "trials",
        StringColumn.create("role"),
        StringColumn.create("method"),
        StringColumn.create("setting"),
        IntColumn.create("split"),
        StringColumn.create("data"),
        DoubleColumn.create("final_rmse"),
        DoubleColumn.create("final_mnlp"));
  }

  private static void trial(Table t, String role, String m, String setting, int s, double rmse) {
    t.stringColumn("role").append(role);
    t.stringColumn("method").append(m);
    t.stringColumn("setting").append(setting);
    t.intColumn("split").append(s);
    t.stringColumn("data").append(role.equals("aimpeak") ? "flights-41800" : "flights");
    t.doubleColumn("final_rmse").append(rmse);
    t.doubleColumn("final_mnlp").append(rmse / 10);
  }

  private static Table row(Table f, String role, String model) {
    return f.where(f.stringColumn("data set (ours)")
        .startsWith(role)
        .and(f.stringColumn("model").isEqualTo(model)));
  }

  @Test
  void rankingIsJudgedOnPairedSplits() {
    Table t = trials();
    double[] level = {28, 30, 34};
    for (int s = 0; s < 3; s++) {
      trial(t, "aimpeak", "svbssgp", "paper", s, level[s]);
      // DTC++ 1 higher on every split: beyond the ± though the split levels vary by 6
      trial(t, "aimpeak", "dtc", "paper", s, level[s] + 1 + 0.01 * s);
      // PIC++ lower by 0.5 on every split: contradicts the paper
      trial(t, "aimpeak", "pic", "paper", s, level[s] - 0.5);
      // VSSGP above on two splits, below on one: within our ±
      trial(t, "aimpeak", "vssgp", "paper", s, level[s] + (s == 1 ? -1 : 0.5));
    }
    Table sum = Table.create(
        "t1",
        StringColumn.create("role", "airline", "airline", "airline"),
        StringColumn.create("method", "svbssgp", "dtc", "pic"),
        DoubleColumn.create("seconds_per_iteration mean", 2.0, 0.5, 3.0));
    Table parts = trials();
    trial(parts, "aimpeak", "svbssgp", SvbssgpFigures.LEAKY, 0, 20);
    trial(parts, "aimpeak", "svbssgp", SvbssgpFigures.TRAIN_INPUTS, 0, 28);
    trial(t, "airline", "svbssgp", "paper", 0, 30);
    Table f = SvbssgpFidelity.table1(t, sum, parts);
    assertEquals(SvbssgpPaper.TABLE1.size(), f.rowCount());
    assertEquals(
        SvbssgpFidelity.YES,
        row(f, "AIMPEAK", "DTC++").stringColumn("agrees: ranking").get(0));
    assertEquals(
        SvbssgpFidelity.NO,
        row(f, "AIMPEAK", "PIC++").stringColumn("agrees: ranking").get(0));
    assertEquals(
        SvbssgpFidelity.WITHIN,
        row(f, "AIMPEAK", "VSSGP").stringColumn("agrees: ranking").get(0));
    Table s = row(f, "AIMPEAK", "sVBSSGP");
    assertEquals(SvbssgpFidelity.NO, s.stringColumn("agrees: ranking").get(0));
    assertEquals(2.0, s.doubleColumn("our rank").get(0));
    assertEquals(1.0, s.doubleColumn("paper rank").get(0));
    assertEquals(20.0, s.doubleColumn("ours RMSE: authors' k-means").get(0));
    assertEquals((28 + 30 + 34) / 3.0, s.doubleColumn("ours RMSE: clean").get(0), 1e-12);
    assertTrue(s.stringColumn("why not").get(0).contains("stands in for AIMPEAK's traffic speeds"));
    // SSGP has a paper value but no trial; AIRLINE's models other than sVBSSGP were not run
    assertEquals(
        "not run", row(f, "AIMPEAK", "SSGP").stringColumn("agrees: ranking").get(0));
    assertEquals(
        "not run", row(f, "AIRLINE", "DTC++").stringColumn("agrees: ranking").get(0));
    // the time claim: sVBSSGP 2 s/iteration, PIC++ 3: not longer than both
    Table a = row(f, "AIRLINE", "sVBSSGP");
    assertEquals(
        SvbssgpFidelity.NO,
        a.stringColumn("agrees: time (longer than DTC++, PIC++)").get(0));
    assertEquals(SvbssgpFidelity.NOT_RUN, a.stringColumn("agrees: ranking").get(0));
    assertEquals(43.0, a.doubleColumn("paper s/iteration").get(0));
    assertTrue(a.stringColumn("why not").get(0).contains("US flights of 2001"));
  }
}
