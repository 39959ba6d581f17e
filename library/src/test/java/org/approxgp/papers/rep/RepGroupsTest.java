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
    return Table.create("rows",
        IntColumn.create("flipPercent", 10, 20, 10, 10, 20),
        StringColumn.create("method", "ep", "ep", "rep", "ep", "ep"),
        IntColumn.create("sweeps_to_R", 30, 80, 12, 50, 61),
        BooleanColumn.create("diverged", new boolean[] {false, true, false, true, true}),
        DoubleColumn.create("test_error", 0.1, 0.3, 0.2, 0.2, 0.5));
  }

  @Test
  void groupsInFirstSeenOrderWithBooleansAsOneOrZero() {
    List<RepGroups> g = RepGroups.of(rows(), List.of("flipPercent", "method"),
        List.of("sweeps_to_R", "diverged", "test_error"));
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

  @Test
  void figure4SummaryAveragesPerFlipRateAndMethod() {
    Table s = RepSynthetic.summary(rows());
    assertEquals(3, s.rowCount());
    assertEquals(20.0, s.doubleColumn("flip %").getDouble(1));
    assertEquals("ep", s.stringColumn("method").get(1));
    assertEquals(2, s.doubleColumn("runs").getDouble(1));
    assertEquals(70.5, s.doubleColumn("sweeps to R<1e-3").getDouble(1), 1e-12);
    assertEquals(1.0, s.doubleColumn("fraction diverged").getDouble(1));
    assertEquals(0.4, s.doubleColumn("test error").getDouble(1), 1e-12);
    assertEquals(0.5, s.doubleColumn("fraction diverged").getDouble(0));
  }
}
