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
import org.knowm.xchart.XYSeries;
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

  /** A fit at fixed hyperparameters (no optimisation): 8 points in {@code d} dimensions, probit. */
  private static org.approxgp.model.FittedGp fixedFit(org.approxgp.kernel.Kernel k, int d) {
    double[][] x = new double[8][d];
    double[] y = new double[8];
    for (int i = 0; i < 8; i++) {
      for (int j = 0; j < d; j++) {
        x[i][j] = Math.sin(1.7 * i + j);
      }
      y[i] = i % 3 == 0 ? -1 : 1;
    }
    var problem = org.approxgp.inference.Problem.of(k, x, y, org.approxgp.likelihood.Probit.get());
    return org.approxgp.model.GpModel.fit(problem, org.approxgp.model.Methods.byName("ep"),
        org.approxgp.model.GpModel.FitOptions.fixed());
  }

  /**
   * Displaying a fit under a locale with a decimal comma: {@link ModelViews} used to format with the
   * default locale and parse the text back, which threw under Locale.GERMANY.
   */
  @Test
  void displayWorksUnderAGermanLocale() {
    java.util.Locale saved = java.util.Locale.getDefault();
    java.util.Locale.setDefault(java.util.Locale.GERMANY);
    try {
      var iso = fixedFit(org.approxgp.kernel.SquaredExponential.iso(0.7654321, 1.2345678), 2);
      Table t = ModelViews.of(iso);
      assertEquals(1.235, t.doubleColumn("signal variance").get(0));
      assertEquals("[0.7654]", t.stringColumn("length-scale(s)").get(0));
      var ard = fixedFit(org.approxgp.kernel.SquaredExponential.ard(new double[] {0.5, 2.345678, 7, 1}, 2.5), 4);
      Table a = ModelViews.compare(new java.util.LinkedHashMap<>(Map.of("ard", ard)));
      double geo = Math.pow(0.5 * 2.345678 * 7, 0.25);
      assertEquals("4 values, geometric mean " + String.format(java.util.Locale.ROOT, "%.4g", geo),
          a.stringColumn("length-scale(s)").get(0));
      assertTrue(a.stringColumn("length-scale(s)").get(0).contains("."), "a decimal point, not a comma");
      assertTrue(Tables.toHtml(Tables.rounded(t, 3)).contains("1.24"), "rounded display uses a decimal point");
      assertTrue(MimeBundles.of(t).orElseThrow().get(MimeBundles.HTML).contains("<table"));
    } finally {
      java.util.Locale.setDefault(saved);
    }
  }
  @Test
  void scatterDrawsLineSeriesByPrefixAndBarsGroupByCategory() {
    Table t = Table.create("s", StringColumn.create("series", "pts", "pts", "boundary a", "boundary a"),
        DoubleColumn.create("x", 0, 1, -1, 1), DoubleColumn.create("y", 0, 1, -1, 1));
    XYChart c = Charts.scatter(t, "x", "y", "series", "title", "boundary");
    assertEquals(java.util.Optional.of(XYSeries.XYSeriesRenderStyle.Scatter), c.getSeries("pts").getXYSeriesRenderStyle());
    assertEquals(java.util.Optional.of(XYSeries.XYSeriesRenderStyle.Line),
        c.getSeries("boundary a").getXYSeriesRenderStyle());
    Table b = Table.create("b", StringColumn.create("data", "heart", "heart", "pima"),
        StringColumn.create("method", "ep", "rep", "ep"), DoubleColumn.create("err", 10, 8, 20),
        DoubleColumn.create("sd", 1, Double.NaN, 2));
    var bars = Charts.bars(b, "data", "err", "sd", "method", "title");
    assertEquals(2, bars.getSeriesCollection().size());
    // "rep" has no pima bar: drawn as 0, every series spans both categories
    assertEquals(2, bars.getSeries("rep").getYData().length);
    assertArrayEquals(PNG_MAGIC, Arrays.copyOf(Figures.png(bars), 8));
  }
}
