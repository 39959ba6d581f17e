package org.approxgp.papers.qp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/** {@link QpTable1Tables#fidelity}: the paper's ± decides each verdict, and a miss says how far and whether noise. */
class QpTable1FidelityTest {
  private static Table summary(
      String data, String method, double te, double teSd, double nt, double ntSd) {
    return Table.create(
        "s",
        StringColumn.create("data", data),
        StringColumn.create("method", method),
        DoubleColumn.create("TE ×1e-2", te),
        DoubleColumn.create("TE sd", teSd),
        DoubleColumn.create("NTLL ×1e-3", nt),
        DoubleColumn.create("NTLL sd", ntSd));
  }

  @Test
  void verdictsFollowThePapersSpread() {
    QpPaper.Stat te = QpPaper.table1("ionosphere", "ep").orElseThrow().te();
    QpPaper.Stat nt = QpPaper.table1("ionosphere", "ep").orElseThrow().ntll();
    // authors' inside the paper's ± on TE (just), outside on NTLL by 3 paper sd with a small sd of
    // our own
    Table authors = summary(
        "ionosphere",
        "ep",
        te.mean() + 0.99 * te.sd(),
        0.1,
        nt.mean() + 3 * nt.sd(),
        0.01 * nt.sd());
    // clean outside on TE, inside on NTLL
    Table clean = summary("ionosphere", "ep", te.mean() - 1.5 * te.sd(), 0.1, nt.mean(), 0.1);
    Table f = QpTable1Tables.fidelity(authors, clean);
    assertEquals(1, f.rowCount());
    assertEquals("authors' only", f.stringColumn("TE within paper's ±").get(0));
    assertEquals("clean only", f.stringColumn("NTLL within paper's ±").get(0));
    String why = f.stringColumn("why not").get(0);
    assertTrue(why.startsWith("NTLL +3.0 paper sd"), why);
    assertTrue(why.contains("beyond both spreads"), why);
  }

  @Test
  void aMissWithinOurOwnSpreadIsCalledNoise() {
    QpPaper.Stat te = QpPaper.table1("sonar", "qp").orElseThrow().te();
    QpPaper.Stat nt = QpPaper.table1("sonar", "qp").orElseThrow().ntll();
    Table authors = summary("sonar", "qp", te.mean() - 2 * te.sd(), 1.5 * te.sd(), nt.mean(), 0.1);
    Table f = QpTable1Tables.fidelity(authors, summary("sonar", "ep", 0, 0, 0, 0));
    assertEquals("neither", f.stringColumn("TE within paper's ±").get(0));
    assertTrue(Double.isNaN(f.doubleColumn("TE clean").getDouble(0)));
    String why = f.stringColumn("why not").get(0);
    assertTrue(why.startsWith("TE -2.0 paper sd") && why.contains("seed-to-seed noise"), why);
  }

  @Test
  void oneSeedCannotTellNoiseFromDifference() {
    QpPaper.Stat te = QpPaper.table1("crabs", "vb").orElseThrow().te();
    QpPaper.Stat nt = QpPaper.table1("crabs", "vb").orElseThrow().ntll();
    Table authors =
        summary("crabs", "vb", te.mean() + 5 * te.sd(), Double.NaN, nt.mean(), Double.NaN);
    String why =
        QpTable1Tables.fidelity(authors, authors).stringColumn("why not").get(0);
    assertTrue(why.startsWith("TE +5.0 paper sd") && why.contains("cannot be told apart"), why);
  }
}
