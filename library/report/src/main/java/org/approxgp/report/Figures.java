package org.approxgp.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.regex.Pattern;
import org.approxgp.experiment.ProjectPaths;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * XChart charts as PNG: bytes, a {@code data:} URI, an {@code <img>} tag, a file under
 * {@code reports/figures/}. PNG rather than SVG because nbconvert drops or chokes on some SVG.
 */
public final class Figures {

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

  private Figures() {}

  public static byte[] png(Chart<?, ?> chart) {
    try {
      return BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot encode chart as PNG", e);
    }
  }

  public static String pngBase64(Chart<?, ?> chart) {
    return Base64.getEncoder().encodeToString(png(chart));
  }

  public static String dataUri(Chart<?, ?> chart) {
    return "data:image/png;base64," + pngBase64(chart);
  }

  /** {@code <img src="data:image/png;base64,..." alt="title">}. */
  public static String imgTag(Chart<?, ?> chart) {
    String alt = chart.getTitle() == null ? "figure" : chart.getTitle();
    return "<img src=\"" + dataUri(chart) + "\" alt=\"" + escape(alt) + "\">";
  }

  /** Saves the chart to {@code <reports>/figures/<name>.png} and returns the path. */
  public static Path save(Chart<?, ?> chart, String name) {
    return save(chart, ProjectPaths.reportsRoot().resolve("figures"), name);
  }

  /**
   * Saves the chart as {@link #save(Chart, String)} does and says where, as a report shows it:
   * {@code saved reports/figures/<name>.png} (a path relative to the project, never the machine's).
   */
  public static String saved(Chart<?, ?> chart, String name) {
    return "saved " + ProjectPaths.shown(save(chart, name));
  }

  /** Saves the chart to {@code <dir>/<name>.png} and returns the path. */
  public static Path save(Chart<?, ?> chart, Path dir, String name) {
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("figure name must match " + NAME + ": '" + name + "'");
    }
    try {
      Files.createDirectories(dir);
      Path file = dir.resolve(name.endsWith(".png") ? name : name + ".png");
      Files.write(file, png(chart));
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot save figure " + name + " in " + dir, e);
    }
  }

  static String escape(String s) {
    return s.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
