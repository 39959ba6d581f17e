package org.approxgp.papers.qp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.approxgp.papers.Verdict;
import org.approxgp.papers.Verdicts;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/** {@link QpTable1Tables#verdicts}: one rule, a difference of means against its standard error, for every entry. */
class QpTable1VerdictsTest {
  private static Table summary(
      String data, String method, double seeds, double te, double teSd, double nt, double ntSd) {
    return Table.create(
        "s",
        StringColumn.create("data", data),
        StringColumn.create("method", method),
        DoubleColumn.create("seeds", seeds),
        DoubleColumn.create("TE ×1e-2", te),
        DoubleColumn.create("TE sd", teSd),
        DoubleColumn.create("NTLL ×1e-3", nt),
        DoubleColumn.create("NTLL sd", ntSd));
  }

  @Test
  void aDifferenceWithinTwoStandardErrorsReproducesBeyondContradicts() {
    QpPaper.Stat te = QpPaper.table1("ionosphere", "ep").orElseThrow().te();
    QpPaper.Stat nt = QpPaper.table1("ionosphere", "ep").orElseThrow().ntll();
    // 100 seeds each side with the paper's sd: se = sd·√(2/100)
    double seTe = te.sd() * Math.sqrt(0.02);
    double seNt = nt.sd() * Math.sqrt(0.02);
    List<Verdict> v = QpTable1Tables.verdicts(
        summary(
            "ionosphere",
            "ep",
            100,
            te.mean() + 1.9 * seTe,
            te.sd(),
            nt.mean() - 2.1 * seNt,
            nt.sd()),
        "authors'",
        0);
    assertEquals(2, v.size());
    assertEquals(Verdict.Outcome.REPRODUCES, v.get(0).outcome(), v.get(0).toString());
    assertEquals(Verdict.Outcome.CONTRADICTS, v.get(1).outcome(), v.get(1).toString());
    assertEquals(seTe, v.get(0).noise(), 1e-12 * seTe);
    assertTrue(v.get(0).claim().startsWith("ionosphere, ep, TE"), v.get(0).claim());
    // the same difference within the paper's ± (one sd) still contradicts when the means are this
    // well known: the
    // rule compares means, not single runs
    List<Verdict> w = QpTable1Tables.verdicts(
        summary("ionosphere", "ep", 100, te.mean() + 0.9 * te.sd(), te.sd(), nt.mean(), nt.sd()),
        "clean",
        0);
    assertEquals(Verdict.Outcome.CONTRADICTS, w.get(0).outcome());
    assertEquals(Verdict.Outcome.REPRODUCES, w.get(1).outcome());
  }

  @Test
  void oneSeedLeavesTheClaimUndecided() {
    QpPaper.Stat te = QpPaper.table1("crabs", "vb").orElseThrow().te();
    List<Verdict> v = QpTable1Tables.verdicts(
        summary("crabs", "vb", 1, te.mean() + 100, Double.NaN, 1, Double.NaN), "clean", 0);
    assertEquals(Verdict.Outcome.UNDECIDED, v.get(0).outcome());
    assertEquals(Verdict.Outcome.UNDECIDED, v.get(1).outcome());
  }

  @Test
  void theHeadlineCountsTheSameVerdictsAndMissesSayTheirSide() {
    QpPaper.Stat te = QpPaper.table1("sonar", "vb").orElseThrow().te();
    QpPaper.Stat nt = QpPaper.table1("sonar", "vb").orElseThrow().ntll();
    List<Verdict> v = QpTable1Tables.verdicts(
        summary("sonar", "vb", 100, te.mean() - 10, 1.0, nt.mean() + 10, 1.0), "clean", 0);
    assertEquals(
        "Agreement: 0 of 2 claims reproduce, 2 contradict, 0 undecided (rule: "
            + Verdicts.SAME_MEAN_RULE + ")",
        Verdicts.headline(v));
    assertEquals(
        "VB: 1 of 2 contradicted entries are below the paper's mean (lower TE or NTLL: better than"
            + " printed), 1 above",
        QpTable1Tables.missesBySide(v, "vb"));
  }

  @Test
  void miningUsesItsSeedCountsOnBothSides() {
    Table mining = Table.create(
        "m",
        StringColumn.create("method", "ep"),
        DoubleColumn.create("TE ×1e-2", 1.0),
        DoubleColumn.create("TE sd", 2.0),
        DoubleColumn.create("NTLL ×1e-3", 1.0),
        DoubleColumn.create("NTLL sd", 2.0));
    QpPaper.Stat te = QpPaper.table1("mining", "ep").orElseThrow().te();
    List<Verdict> v = QpTable1Tables.verdicts(mining, "clean", 50);
    assertEquals(
        Math.sqrt(4.0 / 50 + te.sd() * te.sd() / QpPaper.MINING_SEEDS), v.get(0).noise(), 1e-12);
  }

  @Test
  void theDuplicateEffectIsTheDifferenceOfPimaAndItsDistinctRowsPerKernel() {
    Table iso = summary("pima", "ep", 100, 21.8, 4.0, 460, 20)
        .append(summary("pima-dedup", "ep", 100, 22.6, 5.0, 470, 25));
    Table ard = summary("pima", "ep", 100, 12.7, 3.0, 330, 30)
        .append(summary("pima-dedup", "ep", 4, 23.0, 6.0, 480, 40));
    Table onlyOne = summary("pima", "qp", 100, 1, 1, 1, 1);
    Table e = QpTable1Tables.duplicateEffect(new java.util.LinkedHashMap<>(
        java.util.Map.of("se-iso", iso, "se-ard", ard, "none", onlyOne)));
    assertEquals(2, e.rowCount(), "a kernel without both Pima rows is left out");
    int a = e.stringColumn("kernel").indexOf("se-ard");
    assertEquals(12.7 - 23.0, e.doubleColumn("TE difference").getDouble(a), 1e-12);
    assertEquals(Math.sqrt(9.0 / 100 + 36.0 / 4), e.doubleColumn("TE se").getDouble(a), 1e-12);
    int i = e.stringColumn("kernel").indexOf("se-iso");
    assertEquals(460 - 470, e.doubleColumn("NTLL difference").getDouble(i), 1e-12);
  }
}
