package org.approxgp.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;
import tech.tablesaw.api.NumericColumn;
import tech.tablesaw.api.Table;

/**
 * XChart figures from result tables, in one house style: every chart has a title and a human axis title (with its
 * unit) on both axes ({@link Labels}, required), an opaque colour-blind-safe palette, and series that stay visible
 * when they coincide (each series its own marker shape and dash pattern, later series drawn thinner on top).
 * Curves that coincide at every point are measured and say so in the legend ({@link #coincidences}); a missing
 * bar is drawn as no bar and named in the legend ({@link #bars}); a value printed in a paper is marked with
 * {@link #markX} / {@link #markY}.
 */
public final class Charts {

  /** Wide enough that a legend of long, self-explaining names leaves the plot most of the width. */
  public static final int WIDTH = 800;

  public static final int HEIGHT = 440;

  /** Relative tolerance under which two curves count as coinciding: round-off, not a modelling tolerance. */
  public static final double COINCIDE_RELATIVE = 1e-9;

  /**
   * Okabe–Ito colours (colour-blind safe; its yellow, unreadable on white, replaced by wine), opaque so overlapping
   * lines do not blend into a third colour.
   */
  private static final Color[] PALETTE = {
    new Color(0x0072B2),
    new Color(0xE69F00),
    new Color(0x009E73),
    new Color(0xD55E00),
    new Color(0xCC79A7),
    new Color(0x56B4E9),
    new Color(0x000000),
    new Color(0x882255)
  };

  private static final Marker[] MARKERS = {
    SeriesMarkers.CIRCLE, SeriesMarkers.SQUARE, SeriesMarkers.DIAMOND, SeriesMarkers.TRIANGLE_UP,
    SeriesMarkers.TRIANGLE_DOWN, SeriesMarkers.CROSS, SeriesMarkers.PLUS, SeriesMarkers.OVAL
  };
  private static final float[][] DASHES = {null, {8f, 4f}, {2f, 3f}, {10f, 3f, 2f, 3f}, {4f, 4f}};
  private static final Color REFERENCE = new Color(0x555555);

  private Charts() {}

  /**
   * What a reader needs to read a chart: its title and both axis titles, each a human label with its unit
   * (e.g. {@code "test RMSE (minutes of delay)"}, {@code "training time (s)"}, {@code "penalty c"}). All required.
   */
  public record Labels(String title, String x, String y) {
    public Labels {
      for (String s : new String[] {title, x, y}) {
        if (s == null || s.isBlank()) {
          throw new IllegalArgumentException(
              "a chart needs a title and both axis titles: " + title + " / " + x + " / " + y);
        }
      }
    }

    public static Labels of(String title, String x, String y) {
      return new Labels(title, x, y);
    }
  }

  /** Which axes are logarithmic. */
  public enum Scale {
    LINEAR(false, false),
    LOG_X(true, false),
    LOG_Y(false, true),
    LOG_LOG(true, true);

    final boolean logX;
    final boolean logY;

    Scale(boolean logX, boolean logY) {
      this.logX = logX;
      this.logY = logY;
    }
  }

  /**
   * One line per distinct value of {@code series}: y against x, rows in table order. A series equal to an earlier
   * one at every point (within {@link #COINCIDE_RELATIVE}) is named so in the legend, e.g. {@code "rep (= ep at all
   * 47 points)"}; it is drawn dashed and thinner on top of the earlier one, so both stay visible.
   */
  public static XYChart lines(
      Table t, String x, String y, String series, Labels labels, Scale scale) {
    XYChart chart = xyChart(labels, scale);
    Map<String, double[][]> groups = groups(t, x, y, series);
    Map<String, String> notes = coincidenceNotes(groups);
    int most = groups.values().stream().mapToInt(g -> g[0].length).max().orElse(0);
    chart
        .getStyler()
        .setMarkerSize(most > 25 ? 5 : 8); // dense traces: small markers, so lines stay visible
    int k = 0;
    for (Map.Entry<String, double[][]> g : groups.entrySet()) {
      String name = notes.containsKey(g.getKey())
          ? g.getKey() + " (" + notes.get(g.getKey()) + ")"
          : g.getKey();
      XYSeries s = chart.addSeries(name, g.getValue()[0], g.getValue()[1]);
      style(s, k++, groups.size());
    }
    if (!groups.isEmpty()) {
      // a log axis holding fewer than two powers of ten would show one labelled tick or none: label
      // every tick
      chart
          .getStyler()
          .setXAxisLogarithmicDecadeOnly(!scale.logX || decades(range(chart, true)) >= 2);
      chart
          .getStyler()
          .setYAxisLogarithmicDecadeOnly(!scale.logY || decades(range(chart, false)) >= 2);
    }
    return chart;
  }

  /** How many powers of ten lie in [lo, hi]. */
  private static int decades(double[] range) {
    return (int)
            (Math.floor(Math.log10(range[1]) + 1e-12) - Math.ceil(Math.log10(range[0]) - 1e-12))
        + 1;
  }

  /**
   * The coinciding curves of a {@link #lines} chart, measured: for each series, the earlier series it equals
   * (|Δy| ≤ {@link #COINCIDE_RELATIVE}·max|y| at the same x) at every point, e.g. {@code "rep coincides with ep at
   * all 47 points"}, or at some of their shared x values, e.g. {@code "rep coincides with ep at 9 of 11
   * shared x (x from 1 to 1e4)"}. Empty when no two curves meet like that. For a caption line under the figure.
   */
  public static List<String> coincidences(Table t, String x, String y, String series) {
    Map<String, double[][]> groups = groups(t, x, y, series);
    List<String> names = new ArrayList<>(groups.keySet());
    List<String> out = new ArrayList<>();
    for (int b = 1; b < names.size(); b++) {
      for (int a = 0; a < b; a++) {
        double[][] p = groups.get(names.get(a));
        double[][] q = groups.get(names.get(b));
        if (coincide(p, q)) {
          out.add(names.get(b) + " coincides with " + names.get(a) + " at all " + p[0].length
              + " points");
          break;
        }
        double scale = Math.max(maxAbs(p[1]), maxAbs(q[1]));
        int shared = 0;
        int equal = 0;
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < q[0].length; i++) {
          for (int j = 0; j < p[0].length; j++) {
            if (Double.compare(p[0][j], q[0][i]) == 0) {
              shared++;
              if (same(p[1][j], q[1][i], scale)) {
                equal++;
                lo = Math.min(lo, q[0][i]);
                hi = Math.max(hi, q[0][i]);
              }
              break;
            }
          }
        }
        if (equal >= 1) {
          out.add(
              names.get(b) + " coincides with " + names.get(a) + " at " + equal + " of " + shared
                  + " shared x ("
                  + (lo == hi
                      ? "x = " + TICK.apply(lo)
                      : "x from " + TICK.apply(lo) + " to " + TICK.apply(hi))
                  + ")");
        }
      }
    }
    return out;
  }

  /**
   * Scatter of y against x with the diagonal y = x drawn in, for comparing two methods point by point (e.g. QP
   * against EP predictive variances); {@code diagonalName} names the diagonal in the legend (e.g. with the paper's
   * claim about it).
   */
  public static XYChart scatterWithDiagonal(
      double[] x, double[] y, String seriesName, Labels labels, String diagonalName) {
    XYChart chart = xyChart(labels, Scale.LINEAR);
    chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
    double lo = Double.POSITIVE_INFINITY;
    double hi = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < x.length; i++) {
      lo = Math.min(lo, Math.min(x[i], y[i]));
      hi = Math.max(hi, Math.max(x[i], y[i]));
    }
    XYSeries s = chart.addSeries(seriesName, x, y);
    s.setMarker(SeriesMarkers.CIRCLE);
    XYSeries d = chart.addSeries(diagonalName, new double[] {lo, hi}, new double[] {lo, hi});
    d.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
    d.setMarker(SeriesMarkers.NONE);
    d.setLineColor(REFERENCE);
    d.setLineStyle(new BasicStroke(
        1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
    return chart;
  }

  /** {@link #scatterWithDiagonal(double[], double[], String, Labels, String)} with the diagonal named "y = x". */
  public static XYChart scatterWithDiagonal(
      double[] x, double[] y, String seriesName, Labels labels) {
    return scatterWithDiagonal(x, y, seriesName, labels, "y = x");
  }

  /**
   * One scatter series per distinct value of {@code series}: y against x; a series whose name starts with
   * {@code linePrefix} (if not null) is drawn as a line without markers instead (e.g. a decision boundary), each
   * line its own dash pattern and the later ones thinner, so lines that overlap stay visible. A series equal to an
   * earlier one at every point is named so in the legend, as in {@link #lines}.
   */
  public static XYChart scatter(
      Table t, String x, String y, String series, Labels labels, String linePrefix) {
    XYChart chart = xyChart(labels, Scale.LINEAR);
    chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
    chart.getStyler().setMarkerSize(7);
    Map<String, double[][]> groups = groups(t, x, y, series);
    Map<String, String> notes = coincidenceNotes(groups);
    int lineCount = (int) groups.keySet().stream()
        .filter(n -> linePrefix != null && n.startsWith(linePrefix))
        .count();
    int points = 0;
    int lines = 0;
    int k = 0;
    for (Map.Entry<String, double[][]> g : groups.entrySet()) {
      String name = notes.containsKey(g.getKey())
          ? g.getKey() + " (" + notes.get(g.getKey()) + ")"
          : g.getKey();
      XYSeries s = chart.addSeries(name, g.getValue()[0], g.getValue()[1]);
      s.setLineColor(PALETTE[k % PALETTE.length]);
      s.setMarkerColor(PALETTE[k % PALETTE.length]);
      k++;
      if (linePrefix != null && g.getKey().startsWith(linePrefix)) {
        s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        s.setMarker(SeriesMarkers.NONE);
        s.setLineStyle(stroke(lines, lineCount));
        lines++;
      } else {
        s.setMarker(MARKERS[points++ % MARKERS.length]);
      }
    }
    return chart;
  }

  /**
   * Grouped bars: one bar group per distinct value of {@code category} (in first-seen order), one bar colour per
   * value of {@code series}, height {@code value}; with {@code error} (may be null) as error bars. A missing value
   * (NaN, or no row for that category and series) gets no bar, a "×" on the axis where its bar would stand, and a
   * legend entry {@code "× " + missingNote} (e.g. {@code "× no mean: a run diverged"}) — never a zero-height bar.
   */
  public static CategoryChart bars(
      Table t,
      String category,
      String value,
      String error,
      String series,
      Labels labels,
      String missingNote) {
    return bars(t, category, value, error, series, labels, missingNote, Scale.LINEAR);
  }

  /**
   * As {@link #bars(Table, String, String, String, String, Labels, String)}, on a linear or a logarithmic y axis
   * ({@link Scale#LOG_Y}: values spanning orders of magnitude across categories, e.g. an error of 3 on one data
   * set beside 1,000 on another, all visible). On a log axis a value &le; 0 has no bar (shown as missing), and
   * {@code error} draws no error bars: XChart 4.0.3 places them wrongly on a log axis (2.6 ± 0.4 drawn from 1 to
   * 6.5), so the spread belongs in a table beside the chart.
   *
   * @throws IllegalArgumentException for a log x scale (categories have none)
   */
  public static CategoryChart bars(
      Table t,
      String category,
      String value,
      String error,
      String series,
      Labels labels,
      String missingNote,
      Scale scale) {
    Objects.requireNonNull(missingNote, "missingNote: say what a missing bar means");
    if (scale.logX) {
      throw new IllegalArgumentException("a bar chart's categories have no log scale");
    }
    CategoryChart chart = new CategoryChartBuilder()
        .width(WIDTH)
        .height(HEIGHT)
        .title(labels.title())
        .xAxisTitle(labels.x())
        .yAxisTitle(labels.y())
        .build();
    houseStyle(chart.getStyler());
    chart.getStyler().setYAxisTickLabelsFormattingFunction(TICK);
    List<String> cats = new ArrayList<>();
    Map<String, Map<String, double[]>> bySeries = new LinkedHashMap<>();
    NumericColumn<?> vs = (NumericColumn<?>) t.column(value);
    for (int r = 0; r < t.rowCount(); r++) {
      String c = t.column(category).getString(r);
      if (!cats.contains(c)) {
        cats.add(c);
      }
      double e = error == null ? 0 : ((NumericColumn<?>) t.column(error)).getDouble(r);
      bySeries
          .computeIfAbsent(t.column(series).getString(r), k -> new LinkedHashMap<>())
          .put(c, new double[] {vs.getDouble(r), Double.isNaN(e) ? 0 : e});
    }
    int m = bySeries.size();
    double fill = chart.getStyler().getAvailableSpaceFill();
    double bottom = Double.POSITIVE_INFINITY; // log axis: the lowest bar
    double top = 0; // and the highest
    List<double[]> missing = new ArrayList<>();
    int j = 0;
    for (Map.Entry<String, Map<String, double[]>> e : bySeries.entrySet()) {
      List<Double> ys = new ArrayList<>();
      List<Double> es = new ArrayList<>();
      for (int i = 0; i < cats.size(); i++) {
        double[] v = e.getValue().get(cats.get(i));
        boolean absent = v == null || Double.isNaN(v[0]) || (scale.logY && !(v[0] > 0));
        if (!absent && scale.logY) {
          bottom = Math.min(bottom, v[0]);
          top = Math.max(top, v[0]);
        }
        ys.add(absent ? null : v[0]);
        es.add(absent ? null : v[1]);
        if (absent) {
          // XChart's category axis: category i spans [i, i + 1]; a group's m bars share the
          // fraction `fill` of it
          missing.add(new double[] {i + 0.5 + (j - (m - 1) / 2.0) * fill / m});
        }
      }
      if (error == null || scale.logY) {
        chart.addSeries(e.getKey(), cats, ys);
      } else {
        chart.addSeries(e.getKey(), cats, ys, es);
      }
      j++;
    }
    // a log axis starts at or up to half a decade below the lowest bar; a missing bar's "×" sits on
    // it
    double base = 0;
    if (scale.logY) {
      base = Double.isInfinite(bottom) ? 1 : Math.pow(10, Math.floor(Math.log10(bottom) * 2) / 2);
      chart.getStyler().setYAxisLogarithmic(true);
      chart.getStyler().setYAxisMin(base);
      // fewer than two powers of ten on the axis would leave one labelled tick or none: label every
      // tick
      chart
          .getStyler()
          .setYAxisLogarithmicDecadeOnly(top == 0 || decades(new double[] {base, top}) >= 2);
    }
    if (!missing.isEmpty()) {
      var note = chart.addSeries(
          "× " + missingNote,
          cats,
          new ArrayList<Double>(java.util.Collections.nCopies(cats.size(), (Double) null)));
      note.setFillColor(Color.WHITE);
      note.setLineColor(Color.WHITE);
      for (double[] p : missing) {
        chart.addAnnotation(new org.knowm.xchart.AnnotationText("×", p[0], base, false));
      }
      chart
          .getStyler()
          .setAnnotationTextFont(
              new java.awt.Font(java.awt.Font.SANS_SERIF, java.awt.Font.BOLD, 16));
      chart.getStyler().setAnnotationTextFontColor(Color.BLACK);
    }
    return chart;
  }

  /**
   * Marks a value printed in a paper (or a threshold) as a horizontal reference line at {@code y} across the data's
   * x range, named {@code label} in the legend (e.g. {@code "paper Table 1: 4.73"}). Returns the chart.
   */
  public static XYChart markY(XYChart chart, double y, String label) {
    double[] xr = range(chart, true);
    return reference(chart, label, xr, new double[] {y, y});
  }

  /** As {@link #markY}, a vertical reference line at {@code x} across the data's y range. */
  public static XYChart markX(XYChart chart, double x, String label) {
    double[] yr = range(chart, false);
    return reference(chart, label, new double[] {x, x}, yr);
  }

  private static XYChart reference(XYChart chart, String label, double[] xs, double[] ys) {
    XYSeries s = chart.addSeries(label, xs, ys);
    s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
    s.setMarker(SeriesMarkers.NONE);
    int k = (int) chart.getSeriesCollection().stream()
        .filter(v -> v.getMarker() == SeriesMarkers.NONE && REFERENCE.equals(v.getLineColor()))
        .count();
    s.setLineColor(REFERENCE);
    s.setLineStyle(new BasicStroke(
        1.5f,
        BasicStroke.CAP_BUTT,
        BasicStroke.JOIN_MITER,
        10f,
        DASHES[1 + k % (DASHES.length - 1)],
        0f));
    return chart;
  }

  /** The finite (and, on a log axis, positive) data range of the chart's series along x or y. */
  private static double[] range(XYChart chart, boolean alongX) {
    boolean log =
        alongX ? chart.getStyler().isXAxisLogarithmic() : chart.getStyler().isYAxisLogarithmic();
    double lo = Double.POSITIVE_INFINITY;
    double hi = Double.NEGATIVE_INFINITY;
    for (XYSeries s : chart.getSeriesCollection()) {
      for (double v : alongX ? s.getXData() : s.getYData()) {
        if (Double.isFinite(v) && (!log || v > 0)) {
          lo = Math.min(lo, v);
          hi = Math.max(hi, v);
        }
      }
    }
    if (lo > hi) {
      throw new IllegalStateException("mark a reference value on a chart that has data");
    }
    return new double[] {lo, hi};
  }

  private static XYChart xyChart(Labels labels, Scale scale) {
    XYChart chart = new XYChartBuilder()
        .width(WIDTH)
        .height(HEIGHT)
        .title(labels.title())
        .xAxisTitle(labels.x())
        .yAxisTitle(labels.y())
        .build();
    houseStyle(chart.getStyler());
    chart.getStyler().setXAxisLogarithmic(scale.logX).setYAxisLogarithmic(scale.logY);
    chart.getStyler().setXAxisTickLabelsFormattingFunction(TICK);
    chart.getStyler().setYAxisTickLabelsFormattingFunction(TICK);
    return chart;
  }

  private static void houseStyle(AxesChartStyler styler) {
    styler.setChartBackgroundColor(Color.WHITE);
    styler.setSeriesColors(PALETTE);
    styler.setLegendBorderColor(Color.LIGHT_GRAY);
  }

  /** Line series k of n: its colour, marker shape and dash pattern; width falls with k, so later curves lie inside. */
  private static void style(XYSeries s, int k, int n) {
    s.setLineColor(PALETTE[k % PALETTE.length]);
    s.setMarkerColor(PALETTE[k % PALETTE.length]);
    s.setMarker(MARKERS[k % MARKERS.length]);
    s.setLineStyle(stroke(k, n));
  }

  private static BasicStroke stroke(int k, int n) {
    float width = n <= 1 ? 2f : Math.max(1f, 3.5f - 2f * k / (n - 1));
    float[] dash = DASHES[k % DASHES.length];
    return dash == null
        ? new BasicStroke(width)
        : new BasicStroke(width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, dash, 0f);
  }

  /** Tick labels: 6 significant digits, trailing zeros dropped ("0.007", not ".007"). */
  private static final Function<Double, String> TICK = v -> {
    if (v == null || !Double.isFinite(v)) {
      return String.valueOf(v);
    }
    double a = Math.abs(v);
    if (a == 0) {
      return "0";
    }
    if (a < 1e-4 || a >= 1e7) {
      return String.format(Locale.ROOT, "%.3g", v).replaceAll("\\.?0+e", "e");
    }
    String s = new BigDecimal(v).round(new MathContext(6)).stripTrailingZeros().toPlainString();
    return s.equals("-0") ? "0" : s;
  };

  private static Map<String, double[][]> groups(Table t, String x, String y, String series) {
    NumericColumn<?> xs = (NumericColumn<?>) t.column(x);
    NumericColumn<?> ys = (NumericColumn<?>) t.column(y);
    Map<String, List<double[]>> pts = new LinkedHashMap<>();
    for (int r = 0; r < t.rowCount(); r++) {
      pts.computeIfAbsent(t.column(series).getString(r), k -> new ArrayList<>())
          .add(new double[] {xs.getDouble(r), ys.getDouble(r)});
    }
    Map<String, double[][]> out = new LinkedHashMap<>();
    pts.forEach((name, p) -> out.put(name, new double[][] {
      p.stream().mapToDouble(v -> v[0]).toArray(),
      p.stream().mapToDouble(v -> v[1]).toArray()
    }));
    return out;
  }

  /** For each series equal at every point to an earlier one: "= earlier at all n points". */
  private static Map<String, String> coincidenceNotes(Map<String, double[][]> groups) {
    Map<String, String> notes = new LinkedHashMap<>();
    List<String> names = new ArrayList<>(groups.keySet());
    for (int b = 1; b < names.size(); b++) {
      for (int a = 0; a < b; a++) {
        double[][] p = groups.get(names.get(a));
        double[][] q = groups.get(names.get(b));
        if (coincide(p, q)) {
          notes.put(names.get(b), "= " + names.get(a) + " at all " + p[0].length + " points");
          break;
        }
      }
    }
    return notes;
  }

  private static boolean coincide(double[][] p, double[][] q) {
    if (p[0].length != q[0].length || p[0].length == 0) {
      return false;
    }
    double scale = Math.max(maxAbs(p[1]), maxAbs(q[1]));
    for (int i = 0; i < p[0].length; i++) {
      if (Double.compare(p[0][i], q[0][i]) != 0 || !same(p[1][i], q[1][i], scale)) {
        return false;
      }
    }
    return true;
  }

  private static boolean same(double a, double b, double scale) {
    return Double.compare(a, b) == 0 || Math.abs(a - b) <= COINCIDE_RELATIVE * scale;
  }

  private static double maxAbs(double[] v) {
    double m = 0;
    for (double x : v) {
      m = Math.max(m, Double.isFinite(x) ? Math.abs(x) : 0);
    }
    return m;
  }
}
