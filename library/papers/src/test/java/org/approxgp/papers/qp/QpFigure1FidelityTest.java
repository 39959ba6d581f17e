package org.approxgp.papers.qp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/** {@link QpFigure1#fidelity}: a point above the diagonal breaks the claim, and the reason is counted. */
class QpFigure1FidelityTest {

  private static Table rows() {
    return Table.create(
        "rows",
        StringColumn.create("dataset"),
        StringColumn.create("var_ep"),
        StringColumn.create("var_qp"),
        StringColumn.create("var_qp_same"),
        DoubleColumn.create("signal_variance_ep"),
        DoubleColumn.create("signal_variance_qp"));
  }

  private static void fold(
      Table t, String d, String ep, String own, String same, double sEp, double sQp) {
    t.stringColumn("dataset").append(d);
    t.stringColumn("var_ep").append(ep);
    t.stringColumn("var_qp").append(own);
    t.stringColumn("var_qp_same").append(same);
    t.doubleColumn("signal_variance_ep").append(sEp);
    t.doubleColumn("signal_variance_qp").append(sQp);
  }

  @Test
  void aPointAboveTheDiagonalDisagreesAndRoundOffDoesNot() {
    Table t = rows();
    // crabs: QP at EP's θ below or equal up to round-off; at its own θ one point 20 % above, with a
    // larger signal variance on that fold
    fold(t, "crabs", "0.5 0.4", "0.6 0.3", "0.5000000000001 0.39", 2.0, 3.0);
    fold(t, "crabs", "0.2 0.1", "0.19 0.09", "0.19 0.09", 2.0, 2.0);
    // sonar: one point 0.5 % above even at EP's θ
    fold(t, "sonar", "1.0 2.0", "0.9 1.9", "1.005 1.9", 1.0, 1.0);
    Table f = QpFigure1.fidelity(t, null);
    assertEquals(3, f.rowCount());
    assertEquals("1a: crabs", f.stringColumn("data").get(0));
    assertEquals("yes", f.stringColumn("agrees: EP's θ").get(0));
    assertEquals("no", f.stringColumn("agrees: QP's own θ").get(0));
    String why = f.stringColumn("why not").get(0);
    assertTrue(why.startsWith("own θ: 1 points above, by up to 20.0 %"), why);
    assertTrue(why.contains("signal variance above EP's on 1 of 2 folds"), why);
    assertEquals("no", f.stringColumn("agrees: EP's θ").get(1));
    assertTrue(f.stringColumn("why not").get(1).contains("invisible on the paper's plot"));
    assertEquals("1a: all", f.stringColumn("data").get(2));
    assertEquals(
        "1 of 6 above; max σ²_QP/σ²_EP 1.200000",
        f.stringColumn("ours: QP's own θ").get(2));
  }

  @Test
  void theCoalRowFollowsItsOwnVariances() {
    Table t = rows();
    fold(t, "crabs", "0.5", "0.4", "0.4", 1.0, 1.0);
    var coal = new QpFigure1.CoalVariances(
        new double[] {1, 2, 3}, new double[] {1, 2.5, 3}, new double[] {0.9, 2, 3});
    Table f = QpFigure1.fidelity(t, coal);
    int last = f.rowCount() - 1;
    assertEquals("1b: coal", f.stringColumn("data").get(last));
    assertEquals("yes", f.stringColumn("agrees: EP's θ").get(last));
    assertEquals("no", f.stringColumn("agrees: QP's own θ").get(last));
  }
}
