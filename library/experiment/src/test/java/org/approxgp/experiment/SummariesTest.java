package org.approxgp.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

class SummariesTest {

  @Test
  void meanAndSampleSdPerGroupInOrderOfFirstAppearance() {
    Table t = Table.create(
        "t",
        StringColumn.create("method", "qp", "ep", "qp", "ep", "qp"),
        DoubleColumn.create("err", 1.0, 10.0, 2.0, 14.0, 6.0));
    Table s = Summaries.meanSd(t, List.of("method"), List.of("err"));
    assertEquals(List.of("method", "count", "err mean", "err sd"), s.columnNames());
    assertEquals("qp", s.stringColumn("method").get(0));
    assertEquals(3, s.intColumn("count").get(0));
    assertEquals(3.0, s.doubleColumn("err mean").get(0), 1e-15);
    assertEquals(Math.sqrt(7.0), s.doubleColumn("err sd").get(0), 1e-15); // ((4+1+9)/2)
    assertEquals(12.0, s.doubleColumn("err mean").get(1), 1e-15);
    assertEquals(Math.sqrt(8.0), s.doubleColumn("err sd").get(1), 1e-15);
  }

  @Test
  void singleRowGroupHasUndefinedSd() {
    Table t = Table.create("t", StringColumn.create("m", "a"), DoubleColumn.create("x", 2.0));
    Table s = Summaries.meanSd(t, List.of("m"), List.of("x"));
    assertTrue(s.doubleColumn("x sd").isMissing(0), "NaN sd is a missing value in Tablesaw");
  }

  @Test
  void populationSdDividesByN() {
    assertEquals(Math.sqrt(1.25), Summaries.populationSd(new double[] {1, 2, 3, 4}), 1e-15);
    assertEquals(0.0, Summaries.populationSd(new double[] {7}));
    assertTrue(Double.isNaN(Summaries.populationSd(new double[0])));
  }
}
