package org.approxgp.papers.rep;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/** {@link RepGroups} and the Figure 4 summary built on it, on a hand-made result table. */
class RepGroupsTest {

  private static Table rows() {
    return Table.create(
        "rows",
        IntColumn.create("flipPercent", 10, 20, 10, 10, 20),
        StringColumn.create("method", "ep", "ep", "rep", "ep", "ep"),
        IntColumn.create("sweeps_to_R", 30, 80, 12, 50, 61),
        BooleanColumn.create("diverged", new boolean[] {false, true, false, true, true}),
        DoubleColumn.create("test_error", 0.1, 0.3, 0.2, 0.2, 0.5));
  }

  @Test
  void groupsInFirstSeenOrderWithBooleansAsOneOrZero() {
    List<RepGroups> g = RepGroups.of(
        rows(), List.of("flipPercent", "method"), List.of("sweeps_to_R", "diverged", "test_error"));
    assertEquals(3, g.size());
    assertEquals(List.of("10", "ep"), g.get(0).key());
    assertEquals(List.of("20", "ep"), g.get(1).key());
    assertEquals(List.of("10", "rep"), g.get(2).key());
    assertArrayEquals(new double[] {30, 50}, g.get(0).values()[0]);
    assertArrayEquals(new double[] {0, 1}, g.get(0).values()[1]);
    assertEquals(2, g.get(0).size());
    assertEquals(0.15, g.get(0).mean(2, 1), 1e-15);
    assertEquals(15, g.get(0).mean(2, 100), 1e-12);
    // sample sd of {0.1, 0.2}: 0.05·√2
    assertEquals(0.05 * Math.sqrt(2), g.get(0).sd(2, 1), 1e-15);
  }

  /** Two repetitions at 10 %, three methods; PEP's second fit failed (no test error). */
  private static Table threeMethods() {
    return Table.create(
        "rows",
        IntColumn.create("flipPercent", 10, 10, 10, 10, 10, 10),
        IntColumn.create("repetition", 0, 0, 0, 1, 1, 1),
        StringColumn.create("method", "ep", "power-ep", "rep", "ep", "power-ep", "rep"),
        IntColumn.create("sweeps_to_R", 30, 20, 12, 50, 61, 9),
        BooleanColumn.create("failed", new boolean[] {false, false, false, false, true, false}),
        BooleanColumn.create("diverged", new boolean[] {false, false, false, true, true, false}),
        DoubleColumn.create("test_error", 0.1, 0.2, 0.15, 0.3, Double.NaN, 0.25),
        DoubleColumn.create("test_error_shared", 0.12, 0.2, 0.1, 0.3, 0.4, 0.2));
  }

  @Test
  void figure4SummaryAveragesOverTheCommonRepetitionsBesideFailureAsError() {
    Table s = RepSynthetic.summary(threeMethods());
    assertEquals(3, s.rowCount());
    // methods by label: the table's Power EP is Minka's
    assertEquals(List.of("EP", "PEP (Minka)", "REP"), s.stringColumn("method").asList());
    assertArrayEquals(new double[] {2, 2, 2}, s.doubleColumn("runs").asDoubleArray());
    assertEquals(40, s.doubleColumn("sweeps to R<1e-3").getDouble(0), 1e-12);
    assertArrayEquals(
        new double[] {0, 0.5, 0}, s.doubleColumn("fraction failed").asDoubleArray());
    assertArrayEquals(
        new double[] {0.5, 0.5, 0}, s.doubleColumn("fraction diverged").asDoubleArray());
    // only repetition 0 has a fit from every method
    assertArrayEquals(new double[] {1, 1, 1}, s.doubleColumn("common runs").asDoubleArray());
    assertArrayEquals(
        new double[] {0.1, 0.2, 0.15}, s.doubleColumn("test error").asDoubleArray(), 1e-15);
    // a failed fit counted as error 1
    assertArrayEquals(
        new double[] {0.2, 0.6, 0.2},
        s.doubleColumn("failure = error: test error").asDoubleArray(),
        1e-15);
    // at the shared length-scale every method produced both fits
    assertArrayEquals(
        new double[] {0.21, 0.3, 0.15},
        s.doubleColumn("shared ℓ: test error").asDoubleArray(),
        1e-15);
  }
}
