package org.approxgp.experiment;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a recomputed trial is held to its stored row ({@link Runner#verify}), column by column, so that verification
 * tells rounding from change.
 *
 * <p><b>Why a tolerance.</b> A trial is a deterministic sequence of floating-point operations, but the BLAS kernel
 * OpenBLAS picks at run time (from the CPU, or from {@code OPENBLAS_CORETYPE}) and the backend (EJML or OpenBLAS)
 * decide the order of every long sum. Each reordered sum moves its result by a few units in the last place
 * (u = 1.1e-16 relative); a solve with a kernel matrix of condition number κ amplifies that by κ, and an iterative
 * fit (EP sweeps, L-BFGS) carries it to its end point. With the jitter policy holding κ below about 1e6 and sums
 * over at most a few thousand terms, n·κ·u stays below 1e-7 for every experiment here; a recomputed number within
 * {@value #ROUNDING} relative of the stored one ({@link #ROUNDING}, the default) therefore agrees within rounding
 * (the 14th-digit differences seen across kernels are 1e-14). Each column may declare its own tolerance
 * ({@link #within}, {@link #absolute}) with its reason in the experiment's code.
 *
 * <p><b>What is compared how.</b> Numbers ({@link Double}, and vectors) within the column's relative tolerance, or
 * its absolute one when declared (needed where a value is rounding noise around zero); whole numbers
 * ({@link Long}: counts, sweeps) exactly unless a tolerance is declared for the column; booleans exactly; text exactly
 * except that every number inside it (a status "final change 2.88e-07", or a vector stored as space-separated
 * numbers) is compared as a number and wall-clock readings ("0.013 s") are ignored. Timings ({@link #isTiming}) and
 * the environment columns ({@link RunEnvironment#COLUMNS}) are never compared.
 *
 * <p><b>Sensitive trials.</b> Some trials are chaotic: a Relaxed EP run that oscillates until its sweep cap ends
 * wherever the last sweep left it, so a change in the last bit of one sum changes its test error. An experiment
 * names them by a rule over the stored row ({@link #sensitiveWhen}, e.g. "the run did not converge"), and such a
 * trial is verified only on its {@link #stable} columns (e.g. whether it failed). A trial that the rule does not
 * name but that disagrees beyond the tolerance is recomputed under perturbations of rounding size (one ulp on every
 * Cholesky input, {@code Linalg.withUlpPerturbation}, and the other linear-algebra backend): when a rerun moves any
 * of its columns beyond the tolerance, the trial's result is not reproducible to rounding and it is sensitive
 * (reported as "found by rerun"). When the reruns stay within the tolerance, the largest move they show is the
 * trial's measured rounding spread: an iterative fit carries rounding to its end point with a gain no a-priori bound
 * gives (an L-BFGS end point is fixed only to its stopping rule; EP's Glass hyperparameters move by up to 1e-8 under
 * a one-ulp perturbation), so a row within {@code Runner.MEASURED_ROUNDING_FACTOR} (10) times that spread agrees
 * within rounding (its detail names the spread), and only a row beyond it differs: a change of code or data, not
 * of rounding.
 */
public final class VerifyRule {

  /** The default relative tolerance of a continuous column; see the class comment for the bound. */
  public static final double ROUNDING = 1e-8;

  /** Every continuous column to {@link #ROUNDING}, whole numbers and text exactly, no trial named sensitive. */
  public static final VerifyRule DEFAULT =
      new VerifyRule(ROUNDING, Map.of(), Map.of(), null, null, "");

  private final double relative;
  private final Map<String, Double> relativeByColumn;
  private final Map<String, Double> absoluteByColumn;
  private final Set<String> stable; // null: every boolean and non-numeric text column
  private final Predicate<Map<String, Object>> sensitive; // null: none
  private final String sensitiveText;

  private VerifyRule(
      double relative,
      Map<String, Double> relativeByColumn,
      Map<String, Double> absoluteByColumn,
      Set<String> stable,
      Predicate<Map<String, Object>> sensitive,
      String sensitiveText) {
    this.relative = relative;
    this.relativeByColumn = Map.copyOf(relativeByColumn);
    this.absoluteByColumn = Map.copyOf(absoluteByColumn);
    this.stable = stable == null ? null : Set.copyOf(stable);
    this.sensitive = sensitive;
    this.sensitiveText = sensitiveText;
  }

  /** This rule with {@code columns} compared within {@code relative} instead of the default. */
  public VerifyRule within(double relative, String... columns) {
    checkTolerance(relative);
    Map<String, Double> m = new LinkedHashMap<>(relativeByColumn);
    for (String c : columns) {
      m.put(c, relative);
    }
    return new VerifyRule(this.relative, m, absoluteByColumn, stable, sensitive, sensitiveText);
  }

  /**
   * This rule with {@code columns} also agreeing when they differ by at most {@code absolute} (whole numbers such
   * as a sweep count that a convergence test on a rounding-size change can end one sweep earlier, or values that
   * are rounding noise around zero).
   */
  public VerifyRule absolute(double absolute, String... columns) {
    checkTolerance(absolute);
    Map<String, Double> m = new LinkedHashMap<>(absoluteByColumn);
    for (String c : columns) {
      m.put(c, absolute);
    }
    return new VerifyRule(relative, relativeByColumn, m, stable, sensitive, sensitiveText);
  }

  /**
   * This rule naming the trials whose stored row satisfies {@code rule} sensitive ({@code description} says which,
   * e.g. "did not converge"): they are verified on their {@link #stable} columns only.
   */
  public VerifyRule sensitiveWhen(String description, Predicate<Map<String, Object>> rule) {
    return new VerifyRule(
        relative,
        relativeByColumn,
        absoluteByColumn,
        stable,
        Objects.requireNonNull(rule, "rule"),
        Objects.requireNonNull(description, "description"));
  }

  /**
   * The columns a sensitive trial must reproduce (by default every boolean and every text column whose words are
   * not numbers: the statuses); none ({@code stable()}) holds a sensitive trial only to running to its end.
   */
  public VerifyRule stable(String... columns) {
    return new VerifyRule(
        relative,
        relativeByColumn,
        absoluteByColumn,
        new LinkedHashSet<>(List.of(columns)),
        sensitive,
        sensitiveText);
  }

  /** Whether the experiment names this stored row's trial sensitive. */
  public boolean isSensitive(Map<String, Object> row) {
    return sensitive != null && sensitive.test(row);
  }

  /** What makes a trial sensitive, e.g. "did not converge"; empty when the experiment names none. */
  public String sensitiveDescription() {
    return sensitiveText;
  }

  /** The relative tolerance of {@code column}. */
  public double relativeTolerance(String column) {
    return relativeByColumn.getOrDefault(column, relative);
  }

  /** The absolute tolerance of {@code column} (0 unless declared). */
  public double absoluteTolerance(String column) {
    return absoluteByColumn.getOrDefault(column, 0.0);
  }

  private static void checkTolerance(double t) {
    if (!(t >= 0) || Double.isInfinite(t)) {
      throw new IllegalArgumentException("a tolerance must be finite and >= 0, got " + t);
    }
  }

  /** Whether a column is a timing (wall or CPU seconds), which no rerun reproduces: "seconds", "*_seconds", "seconds_*". */
  public static boolean isTiming(String column) {
    return column.equals("seconds") || column.endsWith("_seconds") || column.startsWith("seconds_");
  }

  /** Whether {@code column} is compared at all: not a timing, not an environment column. */
  public static boolean isCompared(String column) {
    return !isTiming(column) && !RunEnvironment.COLUMNS.contains(column);
  }

  /** How one column of a recomputed row stands to its stored value. */
  public enum Agreement {
    /** Equal to the bit (numbers) or equal (the rest). */
    IDENTICAL,
    /** Within the column's tolerance. */
    WITHIN,
    /** Beyond it. */
    BEYOND
  }

  /**
   * One compared column.
   *
   * @param column the column
   * @param agreement how it agrees
   * @param gap the largest relative difference among its numbers (0 when identical; infinite for a mismatch of
   *     type, text, length or finiteness)
   * @param stored the stored value, as printed
   * @param now the recomputed value, as printed
   */
  public record ColumnCheck(
      String column, Agreement agreement, double gap, String stored, String now) {}

  /** Every compared column of {@code stored} and {@code now}, in name order. */
  public List<ColumnCheck> compare(Map<String, Object> stored, Map<String, Object> now) {
    TreeSet<String> columns = new TreeSet<>(stored.keySet());
    columns.addAll(now.keySet());
    List<ColumnCheck> out = new ArrayList<>();
    for (String c : columns) {
      if (isCompared(c)) {
        out.add(check(c, stored.get(c), now.get(c)));
      }
    }
    return out;
  }

  /**
   * Whether {@code column} of a sensitive trial must reproduce: a declared {@link #stable} column, or by default a
   * boolean or a text without numbers.
   */
  public boolean isStable(String column, Object stored) {
    if (stable != null) {
      return stable.contains(column);
    }
    return stored instanceof Boolean
        || (stored instanceof String s && !NUMBER.matcher(s).find());
  }

  private ColumnCheck check(String column, Object a, Object b) {
    String sa = show(a);
    String sb = show(b);
    if (identical(a, b)) {
      return new ColumnCheck(column, Agreement.IDENTICAL, 0, sa, sb);
    }
    double gap = relativeGap(a, b);
    boolean within = withinTolerance(column, a, b);
    return new ColumnCheck(column, within ? Agreement.WITHIN : Agreement.BEYOND, gap, sa, sb);
  }

  private boolean withinTolerance(String column, Object a, Object b) {
    double[] x = numbers(a);
    double[] y = numbers(b);
    if (x == null || y == null || x.length != y.length || !sameSkeleton(a, b)) {
      return false;
    }
    boolean whole = a instanceof Long && b instanceof Long;
    double rel = whole ? relativeByColumn.getOrDefault(column, 0.0) : relativeTolerance(column);
    double abs = absoluteTolerance(column);
    for (int i = 0; i < x.length; i++) {
      if (!close(x[i], y[i], rel, abs)) {
        return false;
      }
    }
    return true;
  }

  private static boolean close(double x, double y, double rel, double abs) {
    if (Double.doubleToLongBits(x) == Double.doubleToLongBits(y)) {
      return true;
    }
    if (!Double.isFinite(x) || !Double.isFinite(y)) {
      return false;
    }
    double d = Math.abs(x - y);
    return d <= abs || d <= rel * Math.max(Math.abs(x), Math.abs(y));
  }

  /** The largest relative difference of the numbers of two values; infinite when they are not comparable. */
  static double relativeGap(Object a, Object b) {
    double[] x = numbers(a);
    double[] y = numbers(b);
    if (x == null || y == null || x.length != y.length || !sameSkeleton(a, b)) {
      return Double.POSITIVE_INFINITY;
    }
    double gap = 0;
    for (int i = 0; i < x.length; i++) {
      if (Double.doubleToLongBits(x[i]) == Double.doubleToLongBits(y[i])) {
        continue;
      }
      if (!Double.isFinite(x[i]) || !Double.isFinite(y[i])) {
        return Double.POSITIVE_INFINITY;
      }
      gap = Math.max(gap, Math.abs(x[i] - y[i]) / Math.max(Math.abs(x[i]), Math.abs(y[i])));
    }
    return gap;
  }

  private static final Pattern NUMBER = Pattern.compile(
      "(?<![A-Za-z0-9_.])[-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?(?![A-Za-z0-9_])|\\bNaN\\b|[-+]?\\bInfinity\\b");
  private static final Pattern WALL_CLOCK = Pattern.compile("[0-9.]+ s\\b");

  /**
   * {@code text} with each wall-clock reading ("0.123 s", as {@code Diagnostics} prints its time) replaced by
   * "# s": what a rerun must reproduce of a status string.
   */
  public static String withoutWallClock(String text) {
    return WALL_CLOCK.matcher(text).replaceAll("# s");
  }

  /** Whether two values are the same to the bit (numbers) or equal (text without wall-clock readings, the rest). */
  static boolean identical(Object a, Object b) {
    if (a instanceof double[] x && b instanceof double[] y) {
      if (x.length != y.length) {
        return false;
      }
      for (int i = 0; i < x.length; i++) {
        if (Double.doubleToLongBits(x[i]) != Double.doubleToLongBits(y[i])) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof Double x && b instanceof Double y) {
      return Double.doubleToLongBits(x) == Double.doubleToLongBits(y);
    }
    if (a instanceof String x && b instanceof String y) {
      return withoutWallClock(x).equals(withoutWallClock(y));
    }
    return Objects.equals(a, b);
  }

  /** The numbers of a value: a number, a vector, or the numbers inside a text; null for anything else. */
  private static double[] numbers(Object v) {
    if (v instanceof Double d) {
      return new double[] {d};
    }
    if (v instanceof Long l) {
      return new double[] {l};
    }
    if (v instanceof double[] a) {
      return a;
    }
    if (v instanceof String s) {
      List<Double> out = new ArrayList<>();
      Matcher m = NUMBER.matcher(withoutWallClock(s));
      while (m.find()) {
        out.add(Double.parseDouble(m.group()));
      }
      double[] a = new double[out.size()];
      for (int i = 0; i < a.length; i++) {
        a[i] = out.get(i);
      }
      return a;
    }
    return null;
  }

  /** Whether two values have the same kind and, for text, the same words between their numbers. */
  private static boolean sameSkeleton(Object a, Object b) {
    if (a instanceof String x && b instanceof String y) {
      return skeleton(x).equals(skeleton(y));
    }
    boolean na = a instanceof Double || a instanceof Long;
    boolean nb = b instanceof Double || b instanceof Long;
    return (na && nb) || (a instanceof double[] && b instanceof double[]);
  }

  private static String skeleton(String s) {
    return NUMBER.matcher(withoutWallClock(s)).replaceAll("#");
  }

  static String show(Object v) {
    if (v instanceof double[] x) {
      return x.length <= 4 ? java.util.Arrays.toString(x) : "[" + x.length + " numbers]";
    }
    if (v instanceof String s && s.length() > 80) {
      return s.substring(0, 77) + "...";
    }
    return String.valueOf(v);
  }

  /** The columns of {@code checks} that do not agree. */
  static List<ColumnCheck> beyond(Collection<ColumnCheck> checks) {
    return checks.stream().filter(c -> c.agreement() == Agreement.BEYOND).toList();
  }
}
