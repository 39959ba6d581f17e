package org.approxgp.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;
import tech.tablesaw.api.NumericColumn;
import tech.tablesaw.api.Table;

/** XChart figures from result tables. */
public final class Charts {

  public static final int WIDTH = 640;
  public static final int HEIGHT = 420;

  private Charts() {
  }

  /**
   * One line per distinct value of {@code series}: y against x, rows in table order.
   *
   * @param logLog log scale on both axes
   */
  public static XYChart lines(Table t, String x, String y, String series, String title, boolean logLog) {
    XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(x).yAxisTitle(y).build();
    chart.getStyler().setXAxisLogarithmic(logLog).setYAxisLogarithmic(logLog);
    chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
    NumericColumn<?> xs = (NumericColumn<?>) t.column(x);
    NumericColumn<?> ys = (NumericColumn<?>) t.column(y);
    Map<String, List<double[]>> groups = new LinkedHashMap<>();
    for (int r = 0; r < t.rowCount(); r++) {
      groups.computeIfAbsent(t.column(series).getString(r), k -> new ArrayList<>())
          .add(new double[] {xs.getDouble(r), ys.getDouble(r)});
    }
    groups.forEach((name, pts) -> {
      XYSeries s = chart.addSeries(name, pts.stream().mapToDouble(p -> p[0]).toArray(),
          pts.stream().mapToDouble(p -> p[1]).toArray());
      s.setMarker(SeriesMarkers.CIRCLE);
    });
    return chart;
  }

  /**
   * Scatter of y against x with the diagonal y = x drawn in, for comparing two methods point by
   * point (e.g. QP against EP predictive variances).
   */
  public static XYChart scatterWithDiagonal(double[] x, double[] y, String seriesName, String title, String xTitle,
      String yTitle) {
    XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(xTitle)
        .yAxisTitle(yTitle).build();
    chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
    chart.getStyler().setDefaultSeriesRenderStyle(org.knowm.xchart.XYSeries.XYSeriesRenderStyle.Scatter);
    double lo = Double.POSITIVE_INFINITY;
    double hi = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < x.length; i++) {
      lo = Math.min(lo, Math.min(x[i], y[i]));
      hi = Math.max(hi, Math.max(x[i], y[i]));
    }
    XYSeries s = chart.addSeries(seriesName, x, y);
    s.setMarker(SeriesMarkers.CIRCLE);
    XYSeries d = chart.addSeries("y = x", new double[] {lo, hi}, new double[] {lo, hi});
    d.setXYSeriesRenderStyle(org.knowm.xchart.XYSeries.XYSeriesRenderStyle.Line);
    d.setMarker(SeriesMarkers.NONE);
    d.setLineColor(java.awt.Color.GRAY);
    return chart;
  }
  /**
   * One scatter series per distinct value of {@code series}: y against x; a series whose name starts with
   * {@code linePrefix} (if not null) is drawn as a line without markers instead (e.g. a decision boundary).
   */
  public static XYChart scatter(Table t, String x, String y, String series, String title, String linePrefix) {
    XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(x).yAxisTitle(y).build();
    chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
    chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
    chart.getStyler().setMarkerSize(5);
    NumericColumn<?> xs = (NumericColumn<?>) t.column(x);
    NumericColumn<?> ys = (NumericColumn<?>) t.column(y);
    Map<String, List<double[]>> groups = new LinkedHashMap<>();
    for (int r = 0; r < t.rowCount(); r++) {
      groups.computeIfAbsent(t.column(series).getString(r), k -> new ArrayList<>())
          .add(new double[] {xs.getDouble(r), ys.getDouble(r)});
    }
    groups.forEach((name, pts) -> {
      XYSeries s = chart.addSeries(name, pts.stream().mapToDouble(p -> p[0]).toArray(),
          pts.stream().mapToDouble(p -> p[1]).toArray());
      if (linePrefix != null && name.startsWith(linePrefix)) {
        s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        s.setMarker(SeriesMarkers.NONE);
      }
    });
    return chart;
  }
  /**
   * Grouped bars: one bar group per distinct value of {@code category} (in first-seen order), one bar colour per
   * value of {@code series}, height {@code value}; with {@code error} (may be null) as error bars.
   */
  public static org.knowm.xchart.CategoryChart bars(Table t, String category, String value, String error,
      String series, String title) {
    org.knowm.xchart.CategoryChart chart = new org.knowm.xchart.CategoryChartBuilder().width(WIDTH).height(HEIGHT)
        .title(title).xAxisTitle(category).yAxisTitle(value).build();
    chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
    List<String> cats = new ArrayList<>();
    Map<String, Map<String, double[]>> bySeries = new LinkedHashMap<>();
    NumericColumn<?> vs = (NumericColumn<?>) t.column(value);
    for (int r = 0; r < t.rowCount(); r++) {
      String c = t.column(category).getString(r);
      if (!cats.contains(c)) {
        cats.add(c);
      }
      double e = error == null ? 0 : ((NumericColumn<?>) t.column(error)).getDouble(r);
      bySeries.computeIfAbsent(t.column(series).getString(r), k -> new LinkedHashMap<>())
          .put(c, new double[] {vs.getDouble(r), Double.isNaN(e) ? 0 : e});
    }
    bySeries.forEach((name, m) -> {
      List<Double> ys = new ArrayList<>();
      List<Double> es = new ArrayList<>();
      for (String c : cats) {
        double[] v = m.getOrDefault(c, new double[] {0, 0});
        ys.add(Double.isNaN(v[0]) ? 0 : v[0]);
        es.add(v[1]);
      }
      if (error == null) {
        chart.addSeries(name, cats, ys);
      } else {
        chart.addSeries(name, cats, ys, es);
      }
    });
    return chart;
  }
}
