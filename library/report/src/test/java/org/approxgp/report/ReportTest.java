package org.approxgp.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
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
    return Table.create(
        "t",
        StringColumn.create("method", "ep", "<qp>"),
        DoubleColumn.create("err", 0.123456789, 1234.5));
  }

  private static XYChart chart() {
    Table t = Table.create(
        "s",
        StringColumn.create("m", "a", "a", "b", "b"),
        DoubleColumn.create("n", 10, 100, 10, 100),
        DoubleColumn.create("e", 1, 0.3, 0.8, 0.2));
    return Charts.lines(
        t,
        "n",
        "e",
        "m",
        Charts.Labels.of("title", "sample size n", "mean |error|"),
        Charts.Scale.LOG_LOG);
  }

  @Test
  void tableHtmlHasHeaderCellsAndEscapesText() {
    String html = Tables.toHtml(table());
    assertTrue(html.contains("<table"), html);
    assertTrue(html.contains("<td style=\"" + Tables.TEXT_STYLE + "\"><b>method</b></td>"), html);
    assertTrue(html.contains("<td style=\"" + Tables.NUMBER_STYLE + "\"><b>err</b></td>"), html);
    assertTrue(html.contains("&lt;qp&gt;"), html);
    assertTrue(html.contains("<td style=\"" + Tables.SHORT_TEXT_STYLE + "\">ep</td>"), html);
  }

  /** Only tags nbconvert's sanitiser keeps (Tables.TAGS), so a sanitised export shows the table, not its tags. */
  @Test
  void tableHtmlUsesOnlyTagsTheSanitiserKeeps() {
    java.util.Set<String> nbconvertKeeps = java.util.Set.of(
        "a",
        "abbr",
        "acronym",
        "b",
        "blockquote",
        "code",
        "em",
        "i",
        "li",
        "ol",
        "strong",
        "ul",
        "div",
        "pre",
        "span",
        "table",
        "tr",
        "td"); // nbconvert 7.17.1 clean_html
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("</?([a-zA-Z0-9]+)").matcher(Tables.toHtml(table()));
    java.util.Set<String> used = new java.util.TreeSet<>();
    while (m.find()) {
      used.add(m.group(1).toLowerCase(java.util.Locale.ROOT));
    }
    assertEquals(Tables.TAGS, used);
    assertTrue(nbconvertKeeps.containsAll(used), used.toString());
  }

  /** Decimal points line up: padding after each number up to the column's longest tail after the point. */
  @Test
  void numberCellsArePaddedSoDecimalPointsAlign() {
    String fs = "\u2007";
    String ps = "\u2008";
    String[] a = Tables.alignDecimals(new String[] {"7.143", "14", "1.5", "", "424.07"});
    assertArrayEquals(
        new String[] {"7.143", "14" + ps + fs.repeat(3), "1.5" + fs.repeat(2), "", "424.07" + fs},
        a);
    assertArrayEquals(new String[] {"1", "20"}, Tables.alignDecimals(new String[] {"1", "20"}));
    Table t = Table.create("t", DoubleColumn.create("x", 7.9, 14, 0.123456));
    String html = Tables.toHtml(Tables.rounded(t, 3));
    assertTrue(html.contains(">7.9" + fs + fs + "</td>"), html);
    assertTrue(html.contains(">14" + ps + fs + fs + fs + "</td>"), html);
    assertTrue(html.contains(">0.123</td>"), html);
  }

  @Test
  void roundedPrintsSignificantDigitsWithoutChangingValues() {
    Table r = Tables.rounded(table(), 3);
    assertEquals("0.123", r.column("err").getString(0));
    assertEquals("1230", r.column("err").getString(1));
    assertEquals(0.123456789, r.doubleColumn("err").get(0));
    // trailing zeros after the point are dropped: a paper's 7.9 does not print as 7.900
    Table p =
        Tables.rounded(Table.create("p", DoubleColumn.create("v", 7.9, 14, 0.5, 2.5e-7, 100)), 4);
    assertEquals(
        List.of("7.9", "14", "0.5", "2.5e-07", "100"),
        List.of(
            p.column(0).getString(0),
            p.column(0).getString(1),
            p.column(0).getString(2),
            p.column(0).getString(3),
            p.column(0).getString(4)));
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
    return org.approxgp.model.GpModel.fit(
        problem,
        org.approxgp.model.Registry.inference("ep"),
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
      assertEquals(
          "1.235", t.doubleColumn("signal variance").getString(0), "shown by the rounding rule");
      assertEquals(
          1.2345678, t.doubleColumn("signal variance").get(0), 1e-12, "the value itself kept");
      assertEquals("[0.7654]", t.stringColumn("length-scale(s)").get(0));
      var ard = fixedFit(
          org.approxgp.kernel.SquaredExponential.ard(new double[] {0.5, 2.345678, 7, 1}, 2.5), 4);
      Table a = ModelViews.compare(new java.util.LinkedHashMap<>(Map.of("ard", ard)));
      double geo = Math.pow(0.5 * 2.345678 * 7, 0.25);
      assertEquals(
          "4 values, geometric mean " + ValueViews.number(geo),
          a.stringColumn("length-scale(s)").get(0));
      assertTrue(
          a.stringColumn("length-scale(s)").get(0).contains("."), "a decimal point, not a comma");
      assertTrue(
          Tables.toHtml(Tables.rounded(t, 3)).contains("1.23"),
          "rounded display uses a decimal point");
      assertTrue(MimeBundles.of(t).orElseThrow().get(MimeBundles.HTML).contains("<table"));
    } finally {
      java.util.Locale.setDefault(saved);
    }
  }

  @Test
  void scatterDrawsLineSeriesByPrefixAndBarsGroupByCategory() {
    Table t = Table.create(
        "s",
        StringColumn.create("series", "pts", "pts", "boundary a", "boundary a"),
        DoubleColumn.create("x", 0, 1, -1, 1),
        DoubleColumn.create("y", 0, 1, -1, 1));
    XYChart c =
        Charts.scatter(t, "x", "y", "series", Charts.Labels.of("title", "x1", "x2"), "boundary");
    assertEquals(
        java.util.Optional.of(XYSeries.XYSeriesRenderStyle.Scatter),
        c.getSeries("pts").getXYSeriesRenderStyle());
    assertEquals(
        java.util.Optional.of(XYSeries.XYSeriesRenderStyle.Line),
        c.getSeries("boundary a").getXYSeriesRenderStyle());
    Table b = Table.create(
        "b",
        StringColumn.create("data", "heart", "heart", "pima"),
        StringColumn.create("method", "ep", "rep", "ep"),
        DoubleColumn.create("err", 10, 8, 20),
        DoubleColumn.create("sd", 1, Double.NaN, 2));
    var bars = Charts.bars(
        b,
        "data",
        "err",
        "sd",
        "method",
        Charts.Labels.of("title", "data set", "test error (%)"),
        "no value");
    // "rep" has no pima bar: no bar (null, not 0), and a legend entry says what "×" means
    assertEquals(3, bars.getSeriesCollection().size());
    assertEquals(2, bars.getSeries("rep").getYData().length);
    assertEquals(8.0, bars.getSeries("rep").getYData()[0]);
    assertTrue(Double.isNaN(bars.getSeries("rep").getYData()[1]), "no bar, not a zero bar");
    assertTrue(bars.getSeries("× no value") != null);
    assertArrayEquals(PNG_MAGIC, Arrays.copyOf(Figures.png(bars), 8));
    var full = Charts.bars(
        b.where(b.stringColumn("method").isEqualTo("ep")),
        "data",
        "err",
        "sd",
        "method",
        Charts.Labels.of("title", "data set", "test error (%)"),
        "no value");
    assertEquals(1, full.getSeriesCollection().size(), "no legend entry when nothing is missing");
    // orders of magnitude apart (an error of 3 on one data set, 1,000 on another): a log axis shows
    // both
    Table wide = Table.create(
        "w",
        StringColumn.create("data", "crabs", "crabs", "sonar", "sonar"),
        StringColumn.create("method", "ep", "vb", "ep", "vb"),
        DoubleColumn.create("rmse", 3.2, 5.8, 46, 1040),
        DoubleColumn.create("sd", 0.4, 1.0, 6, Double.NaN));
    var log = Charts.bars(
        wide,
        "data",
        "rmse",
        "sd",
        "method",
        Charts.Labels.of("t", "data set", "RMSE"),
        "no value",
        Charts.Scale.LOG_Y);
    assertTrue(log.getStyler().isYAxisLogarithmic());
    assertEquals(
        Math.pow(10, 0.5), log.getStyler().getYAxisMin(), 1e-12, "up to half a decade below 3.2");
    assertArrayEquals(PNG_MAGIC, Arrays.copyOf(Figures.png(log), 8));
    // a value <= 0 has no bar on a log axis; an error bar reaching 0 is refused
    Table zero = wide.copy();
    zero.doubleColumn("rmse").set(0, 0.0);
    var withZero = Charts.bars(
        zero,
        "data",
        "rmse",
        "sd",
        "method",
        Charts.Labels.of("t", "data set", "RMSE"),
        "no value (or <= 0)",
        Charts.Scale.LOG_Y);
    assertTrue(withZero.getSeries("× no value (or <= 0)") != null);
    assertArrayEquals(PNG_MAGIC, Arrays.copyOf(Figures.png(withZero), 8));
    assertTrue(
        log.getStyler().isYAxisLogarithmicDecadeOnly(), "10, 100, 1000 labelled: decades suffice");
    var narrow = Charts.bars(
        wide.where(wide.stringColumn("data").isEqualTo("crabs")),
        "data",
        "rmse",
        "sd",
        "method",
        Charts.Labels.of("t", "data set", "RMSE"),
        "no value",
        Charts.Scale.LOG_Y);
    assertFalse(
        narrow.getStyler().isYAxisLogarithmicDecadeOnly(),
        "within a decade every tick is labelled");
    // XChart misplaces error bars on a log axis: none are drawn there
    assertEquals(null, log.getSeries("ep").getExtraValues());
  }

  @Test
  void chartsRequireATitleAndBothAxisTitles() {
    assertThrows(IllegalArgumentException.class, () -> Charts.Labels.of("t", "x", " "));
    assertThrows(IllegalArgumentException.class, () -> Charts.Labels.of(null, "x", "y"));
    XYChart c = chart();
    assertEquals("sample size n", c.getXAxisTitle());
    assertEquals("mean |error|", c.getYAxisTitle());
  }

  /** Curves equal at every point are measured as such and named in the legend; others are not. */
  @Test
  void coincidingCurvesAreNamedInTheLegend() {
    Table t = Table.create(
        "s",
        StringColumn.create("m", "ep", "ep", "rep", "rep", "pep", "pep"),
        DoubleColumn.create("i", 1, 2, 1, 2, 1, 2),
        DoubleColumn.create("r", 3, 0.5, 3, 0.5 * (1 + 1e-12), 2, 0.4));
    XYChart c =
        Charts.lines(t, "i", "r", "m", Charts.Labels.of("t", "iteration", "R"), Charts.Scale.LOG_Y);
    assertTrue(c.getSeries("ep") != null);
    assertTrue(c.getSeries("rep (= ep at all 2 points)") != null, names(c));
    assertTrue(c.getSeries("pep") != null);
    assertEquals(
        List.of("rep coincides with ep at all 2 points"), Charts.coincidences(t, "i", "r", "m"));
    assertEquals(
        List.of(),
        Charts.coincidences(t.where(t.stringColumn("m").isNotEqualTo("rep")), "i", "r", "m"));
    // partly: REP equals EP for large c only
    Table p = Table.create(
        "p",
        StringColumn.create("m", "rep", "rep", "rep", "rep", "ep", "ep", "ep", "ep"),
        DoubleColumn.create("c", 0.1, 1, 10, 100, 0.1, 1, 10, 100),
        DoubleColumn.create("d", 1, 2, 4, 4, 3, 2, 4, 4));
    assertEquals(
        List.of("ep coincides with rep at 3 of 4 shared x (x from 1 to 100)"),
        Charts.coincidences(p, "c", "d", "m"));
    // one shared point: PEP at u = 1 is EP
    Table u = Table.create(
        "u",
        StringColumn.create("m", "pep", "pep", "ep", "ep"),
        DoubleColumn.create("u", 0.5, 1, 0.5, 1),
        DoubleColumn.create("d", 1, 2, 2, 2));
    assertEquals(
        List.of("ep coincides with pep at 1 of 2 shared x (x = 1)"),
        Charts.coincidences(u, "u", "d", "m"));
  }

  private static String names(XYChart c) {
    return c.getSeriesCollection().stream().map(XYSeries::getName).toList().toString();
  }

  @Test
  void referenceLinesSpanTheData() {
    XYChart c = Charts.markX(Charts.markY(chart(), 0.5, "paper: 0.5"), 20, "paper: n = 20");
    assertArrayEquals(new double[] {10, 100}, c.getSeries("paper: 0.5").getXData());
    assertArrayEquals(new double[] {0.5, 0.5}, c.getSeries("paper: 0.5").getYData());
    assertArrayEquals(new double[] {20, 20}, c.getSeries("paper: n = 20").getXData());
    assertArrayEquals(new double[] {0.2, 1}, c.getSeries("paper: n = 20").getYData());
    assertArrayEquals(PNG_MAGIC, Arrays.copyOf(Figures.png(c), 8));
  }
}
