package org.approxgp.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.approxgp.papers.PaperCsv;
import org.approxgp.papers.qp.QpPaper;
import org.approxgp.papers.qp.QpTable1Tables;
import org.approxgp.papers.svbssgp.SvbssgpPaper;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

class PaperTablesTest {

  /** Stored trial rows as QP Table 1 writes them: per (data set, method, seed) one fold with the given te, ntll. */
  private static Table rows(Object[][] trials) {
    StringColumn d = StringColumn.create("dataset");
    StringColumn m = StringColumn.create("method");
    LongColumn s = LongColumn.create("seed");
    IntColumn f = IntColumn.create("fold");
    DoubleColumn te = DoubleColumn.create("te");
    DoubleColumn nt = DoubleColumn.create("ntll");
    for (Object[] t : trials) {
      d.append((String) t[0]);
      m.append((String) t[1]);
      s.append((Long) t[2]);
      f.append(0);
      te.append((Double) t[3]);
      nt.append((Double) t[4]);
    }
    return Table.create("rows", d, m, s, f, te, nt);
  }

  private static Table twoDataSets() {
    return rows(new Object[][] {
      {"wine2", "ep", 0L, 0.0, 0.0181}, {"wine2", "ep", 1L, 0.0, 0.0179},
      {"crabs", "ep", 0L, 0.05, 0.071}, {"crabs", "ep", 1L, 0.0928571, 0.0623},
      {"crabs", "qp", 0L, 0.05, 0.0705}, {"crabs", "qp", 1L, 0.0928571, 0.0620},
      {"crabs", "vb", 0L, 0.05, 0.165}, {"crabs", "vb", 1L, 0.1, 0.1644}
    });
  }

  @Test
  void paperNumbersAreReadFromTheCommittedTranscriptionWithItsProvenance() throws Exception {
    for (String resource : List.of(QpPaper.TABLE1_RESOURCE, SvbssgpPaper.TABLE1_RESOURCE)) {
      try (var in = PaperTables.class.getResourceAsStream(resource)) {
        String first =
            new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).readLine();
        assertTrue(
            first.startsWith("# Table 1 of "), resource + " opens with its provenance: " + first);
      }
    }
    assertEquals(30, QpPaper.TABLE1.size());
    assertEquals(
        QpPaper.TABLE1_DATASETS,
        QpPaper.TABLE1_ROWS.stream().map(QpPaper.Table1Row::dataset).toList());
    for (String d : QpPaper.TABLE1_DATASETS) {
      for (String m : QpPaper.METHODS) {
        assertTrue(QpPaper.table1(d, m).isPresent(), "paper entry " + d + "/" + m);
      }
    }
    var iono = QpPaper.table1("ionosphere", "ep").orElseThrow();
    assertEquals(new QpPaper.Stat(7.9, 0.5), iono.te());
    assertEquals(new QpPaper.Stat(215.9, 8.4), iono.ntll());
    assertEquals(
        new QpPaper.Stat(2007.3, 119.8),
        QpPaper.table1("mining", "vb").orElseThrow().ntll());
    assertEquals(
        new QpPaper.Table1Row("pima", "Pima", 732, 7), QpPaper.table1Row("pima").orElseThrow());
    assertEquals(10, SvbssgpPaper.TABLE1.size());
    assertEquals(4.73, SvbssgpPaper.table1("aimpeak", "svbssgp").orElseThrow());
    assertTrue(
        Double.isNaN(SvbssgpPaper.table1("airline", "ssgp").orElseThrow()),
        "SSGP on AIRLINE is n/a");
  }

  @Test
  void aTranscriptionOfAnotherShapeIsRefused() {
    var e = assertThrows(
        IllegalStateException.class,
        () -> PaperCsv.read(QpPaper.class, QpPaper.TABLE1_RESOURCE, "data,method,te"));
    assertTrue(e.getMessage().contains("header"), e.getMessage());
    assertThrows(
        IllegalStateException.class, () -> PaperCsv.read(QpPaper.class, "/no/such.csv", "a"));
  }

  @Test
  void qpTable1HasDataSetRowsAndMethodGroupsWithThePapersNumbersBesideOurs() {
    Table t = PaperTables.qpTable1(QpTable1Tables.summary(twoDataSets()));
    assertEquals(
        List.of(
            "data",
            "EP · TE paper",
            "EP · TE ours",
            "EP · NTLL paper",
            "EP · NTLL ours",
            "QP · TE paper",
            "QP · TE ours",
            "QP · NTLL paper",
            "QP · NTLL ours",
            "VB · TE paper",
            "VB · TE ours",
            "VB · NTLL paper",
            "VB · NTLL ours"),
        t.columnNames());
    // rows in the paper's order (Crabs before Wine2) under the paper's labels
    assertEquals(List.of("Crabs", "Wine2"), t.stringColumn("data").asList());
    assertEquals("2.7 ± 0.5", t.stringColumn("EP · TE paper").get(0));
    assertEquals("64.4 ± 8.2", t.stringColumn("EP · NTLL paper").get(0));
    assertEquals("18.0 ± 1.2", t.stringColumn("EP · NTLL paper").get(1));
    // ours: per-seed fold average ×100, mean ± sample sd over the two seeds, by the rounding rule
    double m = 100 * (0.05 + 0.0928571) / 2;
    double sd = 100 * Math.abs(0.0928571 - 0.05) / Math.sqrt(2);
    assertEquals(
        ValueViews.number(m) + " ± " + ValueViews.number(sd),
        t.stringColumn("EP · TE ours").get(0));
    assertEquals("7.143 ± 3.03", t.stringColumn("EP · TE ours").get(0));
    assertEquals("18 ± 0.1414", t.stringColumn("EP · NTLL ours").get(1));
    // a method not run on a data set: the paper's number, our cell empty
    assertEquals("0.0 ± 0.0", t.stringColumn("QP · TE paper").get(1), "as printed");
    assertEquals("", t.stringColumn("QP · TE ours").get(1));
  }

  @Test
  void oneSeedShowsTheMeanAloneAndTheMiningSummaryIsTheMiningRow() {
    Table one = QpTable1Tables.summary(rows(new Object[][] {{"crabs", "ep", 0L, 0.05, 0.071}}));
    Table mining = Table.create(
        "mining",
        StringColumn.create("method", "ep"),
        DoubleColumn.create("TE ×1e-2", 120.1234),
        DoubleColumn.create("TE sd", 26.5),
        DoubleColumn.create("NTLL ×1e-3", 1606.81),
        DoubleColumn.create("NTLL sd", 116.04));
    Table t = PaperTables.qpTable1(one, mining);
    assertEquals(List.of("Crabs", "Mining"), t.stringColumn("data").asList());
    assertEquals("5", t.stringColumn("EP · TE ours").get(0));
    assertEquals("120.1 ± 26.5", t.stringColumn("EP · TE ours").get(1));
    assertEquals("1607 ± 116", t.stringColumn("EP · NTLL ours").get(1));
    assertEquals(
        "1606.8 ± 116.3",
        t.stringColumn("EP · NTLL paper").get(1),
        "the paper's numbers as printed");
    // rows of data sets the paper does not have come after the one they derive from, without paper
    // numbers
    Table dedup = QpTable1Tables.summary(rows(new Object[][] {
      {"pima-dedup", "ep", 0L, 0.2, 0.45},
      {"wine1", "ep", 0L, 0.01, 0.05},
      {"pima", "ep", 0L, 0.2, 0.42}
    }));
    Table d = PaperTables.qpTable1(dedup);
    assertEquals(List.of("Pima", "pima-dedup", "Wine1"), d.stringColumn("data").asList());
    assertEquals("", d.stringColumn("EP · TE paper").get(1));
  }

  @Test
  void severalSourcesSitBesideThePapersInEachGroup() {
    Table s = QpTable1Tables.summary(twoDataSets());
    Table t =
        PaperTables.qpTable1(PaperTables.source("authors'", s), PaperTables.source("clean", s));
    assertEquals(
        List.of(
            "data",
            "EP · TE paper",
            "EP · TE authors'",
            "EP · TE clean",
            "EP · NTLL paper",
            "EP · NTLL authors'",
            "EP · NTLL clean"),
        t.columnNames().subList(0, 7));
    assertEquals(19, t.columnCount());
    assertThrows(IllegalArgumentException.class, () -> PaperTables.source("paper", s));
  }

  @Test
  void miningTablesOfBothProtocolsTakeThePapersShape() {
    Table authors = Table.create(
        "a",
        StringColumn.create("method", "ep", "qp", "vb"),
        DoubleColumn.create("TE ×1e-2", 118, 118, 171),
        DoubleColumn.create("TE sd", 27, 27, 16),
        DoubleColumn.create("NTLL ×1e-3", 1607, 1606, 2007),
        DoubleColumn.create("NTLL sd", 116, 116, 120));
    Table t = PaperTables.qpTable1(PaperTables.source("authors'", authors));
    assertEquals(1, t.rowCount());
    assertEquals("Mining", t.stringColumn("data").get(0));
    assertEquals("170.3 ± 15.9", t.stringColumn("VB · TE paper").get(0));
    assertEquals("171 ± 16", t.stringColumn("VB · TE authors'").get(0));
  }

  @Test
  void svbssgpTable1HasRoleRowsAndModelGroups() {
    Table t1 = Table.create(
        "t1",
        StringColumn.create("role", "airline", "aimpeak", "aimpeak"),
        StringColumn.create("data", "flights", "traffic", "traffic"),
        StringColumn.create("method", "svbssgp", "svbssgp", "ssgp"),
        DoubleColumn.create("final_rmse mean", 30.123456, 5.5, 12.25),
        DoubleColumn.create("final_rmse sd", 1.5, Double.NaN, 0.25));
    Table t = PaperTables.svbssgpTable1(t1);
    assertEquals(
        List.of(
            "data set (role)",
            "ours ran on",
            "sVBSSGP · RMSE paper",
            "sVBSSGP · RMSE ours",
            "SSGP · RMSE paper",
            "SSGP · RMSE ours"),
        t.columnNames());
    assertEquals(List.of("AIMPEAK", "AIRLINE"), t.stringColumn(0).asList());
    assertEquals("4.73", t.stringColumn("sVBSSGP · RMSE paper").get(0));
    assertEquals("5.5", t.stringColumn("sVBSSGP · RMSE ours").get(0));
    assertEquals("30.12 ± 1.5", t.stringColumn("sVBSSGP · RMSE ours").get(1));
    assertEquals("11.30", t.stringColumn("SSGP · RMSE paper").get(0), "as printed");
    assertEquals("n/a", t.stringColumn("SSGP · RMSE paper").get(1));
    assertEquals("", t.stringColumn("SSGP · RMSE ours").get(1));
  }

  @Test
  void groupedColumnsRenderAsTwoHeaderRowsWithOnlySanitiserSafeTags() {
    String html = Tables.toHtml(PaperTables.qpTable1(QpTable1Tables.summary(twoDataSets())));
    String[] lines = html.split("\n");
    assertTrue(
        lines[1].contains("<b>EP</b>")
            && lines[1].contains("<b>QP</b>")
            && lines[1].contains("<b>VB</b>"),
        lines[1]);
    assertEquals(1, lines[1].split("<b>EP</b>", -1).length - 1, "a group's name once: " + lines[1]);
    assertTrue(
        lines[2].contains("<b>TE paper</b>") && lines[2].contains("<b>NTLL ours</b>"), lines[2]);
    assertFalse(lines[2].contains("·"), lines[2]);
    assertTrue(html.contains("<td style=\"" + Tables.NUMBER_STYLE + "\">7.143 ± 3.03</td>"), html);
    Matcher tag = Pattern.compile("</?([a-z]+)").matcher(html);
    while (tag.find()) {
      assertTrue(Tables.TAGS.contains(tag.group(1)), "tag " + tag.group(1));
    }
    // an ungrouped table keeps its one header row
    String plain = Tables.toHtml(Table.create("p", DoubleColumn.create("x", 1.0)));
    assertEquals(1, plain.split("approxgp-header", -1).length - 1);
  }

  @Test
  void oneRoundingRuleForEveryNumberShown() {
    // the mixed column: one rule (4 significant digits, no trailing zeros) for every scale
    Table t = Table.create(
        "t", DoubleColumn.create("v", 7.142857, 23.9666, 14.0, 1.0, 0.0, 1606.849, 2.5e-7));
    Table r = Tables.rounded(t);
    List<String> shown = List.of(
        r.column(0).getString(0),
        r.column(0).getString(1),
        r.column(0).getString(2),
        r.column(0).getString(3),
        r.column(0).getString(4),
        r.column(0).getString(5),
        r.column(0).getString(6));
    assertEquals(List.of("7.143", "23.97", "14", "1", "0", "1607", "2.5e-07"), shown);
    for (int i = 0; i < t.rowCount(); i++) {
      assertEquals(ValueViews.number(t.doubleColumn(0).get(i)), r.column(0).getString(i));
    }
    assertEquals(7.142857, r.doubleColumn(0).get(0), "display only");
    assertEquals("7.143 ± 0.5", PaperTables.meanSd(7.142857, 0.5));
    assertEquals("", PaperTables.meanSd(Double.NaN, 0.5));
  }
}
