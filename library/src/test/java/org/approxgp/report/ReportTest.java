package org.approxgp.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.approxgp.report.display.MimeBundles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.XYChart;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

class ReportTest {

  private static final byte[] PNG_MAGIC = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

  private static Table table() {
    return Table.create("t", StringColumn.create("method", "ep", "<qp>"),
        DoubleColumn.create("err", 0.123456789, 1234.5));
  }

  private static XYChart chart() {
    Table t = Table.create("s", StringColumn.create("m", "a", "a", "b", "b"),
        DoubleColumn.create("n", 10, 100, 10, 100), DoubleColumn.create("e", 1, 0.3, 0.8, 0.2));
    return Charts.lines(t, "n", "e", "m", "title", true);
  }

  @Test
  void tableHtmlHasHeaderCellsAndEscapesText() {
    String html = Tables.toHtml(table());
    assertTrue(html.contains("<table"), html);
    assertTrue(html.contains("<th>method</th>"), html);
    assertTrue(html.contains("&lt;qp&gt;"), html);
  }

  @Test
  void roundedPrintsSignificantDigitsWithoutChangingValues() {
    Table r = Tables.rounded(table(), 3);
    assertEquals("0.123", r.column("err").getString(0));
    assertEquals("1230", r.column("err").getString(1));
    assertEquals(0.123456789, r.doubleColumn("err").get(0));
  }

  @Test
  void chartsBecomePngBytesDataUrisAndFiles(@TempDir Path dir) throws Exception {
    XYChart c = chart();
    assertEquals(2, c.getSeriesCollection().size());
    byte[] png = Figures.png(c);
    assertArrayEquals(PNG_MAGIC, Arrays.copyOf(png, 8));
    assertTrue(Figures.imgTag(c).startsWith("<img src=\"data:image/png;base64,iVBORw0KGgo"));
    Path f = Figures.save(c, dir.resolve("figures"), "fig-1");
    assertEquals("fig-1.png", f.getFileName().toString());
    assertArrayEquals(PNG_MAGIC, Arrays.copyOf(Files.readAllBytes(f), 8));
  }

  @Test
  void mimeBundlesForTablesChartsAndNothingElse() {
    Map<String, String> t = MimeBundles.of(table()).orElseThrow();
    assertTrue(t.get(MimeBundles.HTML).contains("<table"));
    assertTrue(t.containsKey(MimeBundles.TEXT));
    Map<String, String> c = MimeBundles.of(chart()).orElseThrow();
    assertTrue(c.get(MimeBundles.PNG).startsWith("iVBORw0KGgo"));
    assertTrue(MimeBundles.of("a string").isEmpty());
    assertTrue(MimeBundles.supports(XYChart.class));
  }
}
