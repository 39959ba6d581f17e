package org.approxgp.experiment;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * Stored rows held to today's code ({@link Runner#verify}): the trials recomputed, and for each that differs, how.
 *
 * <p>A recomputed row must equal its stored row in every column but the timings ({@link #isTiming}; in text
 * columns, the wall-clock "0.123 s" a diagnostic status carries: {@link #withoutWallClock}), the
 * {@value ResultRow#BACKEND} and the {@value ResultRow#CODE_VERSION}: to the bit when the stored row ran on the
 * same linear-algebra backend (every trial is deterministic given its config and key), else each number to
 * {@value #OTHER_BACKEND_RELATIVE} relative (EJML and OpenBLAS sum in different orders and agree to rounding).
 *
 * @param experiment the experiment's name
 * @param checked the trial ids recomputed
 * @param differences one line per trial that differs: its id, the code version that stored it and the first
 *     differing columns
 */
public record Verification(String experiment, List<String> checked, List<String> differences) {

  /** Tolerance, relative, for a row stored on the other linear-algebra backend. */
  public static final double OTHER_BACKEND_RELATIVE = 1e-8;

  public Verification {
    checked = List.copyOf(checked);
    differences = List.copyOf(differences);
  }

  /** Whether every recomputed trial equals its stored row. */
  public boolean passed() {
    return differences.isEmpty();
  }

  /** "verified 3/3", or "verified 2/3" followed by the differing trials, one per line. */
  public String report() {
    StringBuilder s = new StringBuilder(String.format(
        Locale.ROOT, "verified %d/%d", checked.size() - differences.size(), checked.size()));
    for (String d : differences) {
      s.append("\n  differs: ").append(d);
    }
    return s.toString();
  }

  /** Whether a column is a timing (wall or CPU seconds), which no rerun reproduces: "seconds", "*_seconds", "seconds_*". */
  public static boolean isTiming(String column) {
    return column.equals("seconds") || column.endsWith("_seconds") || column.startsWith("seconds_");
  }

  private static final java.util.regex.Pattern WALL_CLOCK =
      java.util.regex.Pattern.compile("[0-9.]+ s\\b");

  /**
   * {@code text} with each wall-clock reading ("0.123 s", as {@code Diagnostics} prints its time) replaced by
   * "# s": what a rerun must reproduce of a status string.
   */
  public static String withoutWallClock(String text) {
    return WALL_CLOCK.matcher(text).replaceAll("# s");
  }

  /**
   * The columns in which {@code now} (recomputed) differs from {@code stored}, at most three, each as
   * "name: stored X, now Y"; empty when they agree.
   */
  static List<String> compare(Map<String, Object> stored, Map<String, Object> now) {
    boolean sameBackend = Objects.equals(stored.get(ResultRow.BACKEND), now.get(ResultRow.BACKEND));
    TreeSet<String> columns = new TreeSet<>(stored.keySet());
    columns.addAll(now.keySet());
    List<String> out = new ArrayList<>();
    for (String c : columns) {
      if (isTiming(c) || c.equals(ResultRow.BACKEND) || c.equals(ResultRow.CODE_VERSION)) {
        continue;
      }
      Object a = stored.get(c);
      Object b = now.get(c);
      if (!same(a, b, sameBackend) && out.size() < 3) {
        out.add(c + ": stored " + show(a) + ", now " + show(b));
      }
    }
    return out;
  }

  private static boolean same(Object a, Object b, boolean exact) {
    if (a instanceof double[] x && b instanceof double[] y) {
      if (x.length != y.length) {
        return false;
      }
      for (int i = 0; i < x.length; i++) {
        if (!sameNumber(x[i], y[i], exact)) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof Double x && b instanceof Double y) {
      return sameNumber(x, y, exact);
    }
    if (a instanceof String x && b instanceof String y) {
      return withoutWallClock(x).equals(withoutWallClock(y));
    }
    return Objects.equals(a, b);
  }

  private static boolean sameNumber(double x, double y, boolean exact) {
    if (Double.doubleToLongBits(x) == Double.doubleToLongBits(y)) {
      return true;
    }
    return !exact
        && Double.isFinite(x)
        && Double.isFinite(y)
        && Math.abs(x - y) <= OTHER_BACKEND_RELATIVE * Math.max(Math.abs(x), Math.abs(y));
  }

  private static String show(Object v) {
    if (v instanceof double[] x) {
      return x.length <= 4 ? java.util.Arrays.toString(x) : "[" + x.length + " numbers]";
    }
    return String.valueOf(v);
  }
}
