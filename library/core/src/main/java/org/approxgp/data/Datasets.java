package org.approxgp.data;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoublePredicate;

/**
 * The registry of committed data sets and validated CSV loading.
 *
 * <p><b>What a valid CSV file is</b> (decided deliberately; every rule is tested in
 * {@code CsvValidationTest} and {@code reliability.BadInputTest}):
 * <ul>
 *   <li>UTF-8 text. A UTF-8 byte-order mark at the start of the file is accepted and stripped (it is
 *       an encoding marker, not data). Lines end with LF, CRLF or CR; blank lines at the end of the
 *       file are ignored, blank lines elsewhere are ragged rows.
 *   <li>A header row of non-empty, unique column names (after trimming and unquoting); a duplicate
 *       name is rejected.
 *   <li>Then at least one data row, each with exactly as many fields as the header (a ragged row is
 *       rejected naming the row and the first missing or first extra field).
 *   <li>Fields are separated by commas and trimmed. A field may be enclosed in double quotes as in
 *       RFC 4180: inside quotes a comma is part of the field and {@code ""} is one quote character.
 *       A quoted comma is therefore never split into extra columns; in a feature column
 *       {@code "1,5"} is simply not a number and is rejected naming row and column. An unterminated
 *       quote (quoted line breaks are not supported), text after a closing quote, or a quote inside
 *       an unquoted field is rejected naming row and column.
 *   <li>Every feature is a finite decimal number: optional sign, digits with an optional point,
 *       optional exponent ({@code 1}, {@code -0.5}, {@code .5}, {@code 4e-1}). Empty cells,
 *       {@code NaN}, {@code Infinity}, hex floats and Java suffixes such as {@code 1d} are rejected
 *       naming row and column: a GP cannot use them, and imputing would be a silent guess.
 *   <li>A constant feature column is accepted: it adds nothing to any kernel distance, and
 *       {@link Standardizer} maps it to 0 with scale 1 (no division by a zero sd, no NaN).
 *   <li>Targets: {@link TargetKind#REAL} as features; {@link TargetKind#COUNT} non-negative integers
 *       ({@code 3.0} is 3; {@code -1} and {@code 2.5} are rejected naming row and column);
 *       {@link TargetKind#BINARY} exactly two distinct labels, numbers or text, mapped to ±1 as
 *       described at {@link #loadBinary} (text labels {@code no}/{@code yes}: {@code yes} → +1, the
 *       lexicographically larger). One class is rejected naming the column; a third class is
 *       rejected naming the row where it first appears.
 *   <li>One data row is a valid file; whether it suffices is the caller's business (a binary target
 *       with one row has one class and is rejected for that reason).
 * </ul>
 *
 * <p>Errors are reported as {@link DataException}s whose one-line message names the file, the row
 * (1-based line number, the header being row 1) and the column.
 */
public final class Datasets {
  /** Classpath folder of the committed data sets (copied from {@code datasets/} by the build). */
  public static final String RESOURCE_DIR = "org/approxgp/datasets/";

  /** The committed data sets, by name; see {@code datasets/README.md}. */
  private static final List<String> NAMES = List.of(
      "breast-cancer",
      "coal",
      "coal-authors",
      "crabs",
      "diamonds",
      "glass",
      "heart-scale",
      "ionosphere",
      "pima-indians-diabetes",
      "pima-mass",
      "pima-tr2",
      "rotterdam",
      "sonar",
      "spam",
      "wine");

  private Datasets() {}

  /** Names of the committed data sets, sorted; each loads with {@link #load}. */
  public static List<String> names() {
    return NAMES;
  }

  /**
   * Loads a CSV file: {@code nameOrPath} is first looked up as the classpath resource
   * {@code org/approxgp/datasets/<name>.csv} (the committed data sets), otherwise read as a file
   * path. With {@link TargetKind#BINARY} the labels are mapped to ±1 as by
   * {@code loadBinary(nameOrPath, targetColumn, null)}.
   *
   * @throws DataException on a missing file, an empty file, duplicate column names, an unknown
   *     target column, ragged rows, non-numeric or NaN/infinite values, a binary target without
   *     exactly two classes, or negative / non-integer counts
   */
  public static Dataset load(String nameOrPath, String targetColumn, TargetKind kind) {
    if (kind == TargetKind.BINARY) {
      return loadBinary(nameOrPath, targetColumn, null);
    }
    CsvText.Raw raw = CsvText.read(nameOrPath, targetColumn);
    double[] y = new double[raw.n()];
    for (int i = 0; i < raw.n(); i++) {
      y[i] = raw.number(i, raw.targetIndex);
      if (kind == TargetKind.COUNT && (y[i] < 0 || y[i] != Math.rint(y[i]))) {
        throw new DataException(
            raw.file,
            raw.lines[i],
            targetColumn,
            "count must be a non-negative integer, found "
                + DataException.quote(raw.cell(i, raw.targetIndex)));
      }
    }
    return raw.dataset(y, kind.name().toLowerCase() + " target '" + targetColumn + "'");
  }

  /**
   * Loads a binary classification data set with labels mapped to ±1: {@code positiveValue} → +1,
   * the other value → −1. Labels are compared as numbers when both parse as numbers (so "1", "+1"
   * and "1.0" are one class), otherwise as trimmed strings. With {@code positiveValue == null} the
   * positive class is 1 if present, otherwise the larger value (numerically, or lexicographically
   * for text labels).
   *
   * @throws DataException as {@link #load}, and if the target has one class, more than two classes,
   *     or lacks {@code positiveValue}
   */
  public static Dataset loadBinary(String nameOrPath, String targetColumn, String positiveValue) {
    CsvText.Raw raw = CsvText.read(nameOrPath, targetColumn);
    Map<Object, Integer> firstRow = new LinkedHashMap<>();
    Object[] keys = new Object[raw.n()];
    for (int i = 0; i < raw.n(); i++) {
      keys[i] = labelKey(raw.cell(i, raw.targetIndex));
      if (keys[i].equals("")) {
        throw new DataException(raw.file, raw.lines[i], targetColumn, "empty label");
      }
      firstRow.putIfAbsent(keys[i], i);
    }
    if (firstRow.size() > 2) {
      Integer[] first = firstRow.values().toArray(Integer[]::new);
      int i = first[2];
      throw new DataException(
          raw.file,
          raw.lines[i],
          targetColumn,
          "binary labels need exactly 2 classes,"
              + " found a third class " + DataException.quote(raw.cell(i, raw.targetIndex))
              + " after "
              + DataException.quote(raw.cell(first[0], raw.targetIndex)) + " and "
              + DataException.quote(raw.cell(first[1], raw.targetIndex)) + " (" + firstRow.size()
              + " classes in all)");
    }
    if (firstRow.size() != 2) {
      List<String> seen = new ArrayList<>();
      for (Integer i : firstRow.values()) {
        seen.add(raw.cell(i, raw.targetIndex));
        if (seen.size() == 10) {
          seen.add("...");
          break;
        }
      }
      throw new DataException(
          raw.file,
          0,
          targetColumn,
          "binary labels need exactly 2 classes, found " + firstRow.size() + " " + seen);
    }
    Object[] classes = firstRow.keySet().toArray();
    Object positive;
    if (positiveValue != null) {
      positive = labelKey(positiveValue);
      if (!firstRow.containsKey(positive)) {
        throw new DataException(
            raw.file,
            0,
            targetColumn,
            "positive label '" + positiveValue + "' is not one of the classes "
                + labelsOf(raw, firstRow));
      }
    } else if (firstRow.containsKey(1.0)) {
      positive = 1.0;
    } else {
      positive = compare(classes[0], classes[1]) > 0 ? classes[0] : classes[1];
    }
    double[] y = new double[raw.n()];
    for (int i = 0; i < raw.n(); i++) {
      y[i] = keys[i].equals(positive) ? 1.0 : -1.0;
    }
    Object negative = classes[0].equals(positive) ? classes[1] : classes[0];
    return raw.dataset(
        y,
        "binary target '" + targetColumn + "': "
            + raw.cell(firstRow.get(positive), raw.targetIndex) + " -> +1, "
            + raw.cell(firstRow.get(negative), raw.targetIndex) + " -> -1");
  }

  /**
   * The coal-mining disasters (committed {@code coal.csv}, 191 dates) as yearly counts: 112 rows
   * for 1851..1962, feature {@code year}, target {@code count}.
   */
  public static Dataset coalYearlyCounts() {
    Dataset dates = load("coal", "date", TargetKind.REAL);
    int first = 1851;
    int last = 1962;
    int[] counts = Coal.yearlyCounts(dates.target(), first, last);
    double[][] x = new double[counts.length][];
    double[] y = new double[counts.length];
    for (int i = 0; i < counts.length; i++) {
      x[i] = new double[] {first + i};
      y[i] = counts[i];
    }
    return Dataset.of(
        "coal-yearly",
        List.of("year"),
        "count",
        x,
        y,
        dates.provenance().derived("events counted per calendar year " + first + ".." + last));
  }

  /**
   * The QP authors' own yearly counts (112 rows, {@code year} 1851…1962 → {@code count}, total 191), as
   * hard-coded in their {@code experiments/regression.py} (committed as {@code coal-authors.csv}; see
   * datasets/README.md). They equal {@link #coalYearlyCounts()} except 1941 (4 vs 3) and 1942 (2 vs 3): the
   * event dated 1942.0007 is counted in 1941.
   */
  public static Dataset coalYearlyCountsAuthors() {
    return load("coal-authors", "count", TargetKind.COUNT);
  }

  /**
   * Maps a class-valued target to ±1: rows whose target satisfies {@code isPositive} get +1, all
   * others −1 (one-vs-rest, e.g. the QP authors' Glass: {@code t -> t > 4}).
   */
  public static Dataset binarize(Dataset data, DoublePredicate isPositive) {
    double[] t = data.target();
    for (int i = 0; i < t.length; i++) {
      t[i] = isPositive.test(t[i]) ? 1.0 : -1.0;
    }
    return data.withTarget(t);
  }

  /**
   * Keeps only the rows of two classes and maps {@code negativeClass} → −1, {@code positiveClass}
   * → +1 (the QP paper's Wine1 = classes 1 vs 2, Wine2 = 1 vs 3, Wine3 = 2 vs 3, with the first
   * class of each pair → −1 as in the authors' code). Row order is kept.
   *
   * @throws IllegalArgumentException if either class has no rows
   */
  public static Dataset classPair(Dataset data, double negativeClass, double positiveClass) {
    double[] t = data.target();
    int[] keep = new int[t.length];
    int m = 0;
    int pos = 0;
    for (int i = 0; i < t.length; i++) {
      if (t[i] == negativeClass || t[i] == positiveClass) {
        keep[m++] = i;
        pos += t[i] == positiveClass ? 1 : 0;
      }
    }
    if (pos == 0 || pos == m) {
      throw new IllegalArgumentException(
          data.name() + ": class " + (pos == 0 ? positiveClass : negativeClass) + " has no rows");
    }
    Dataset sub = data.rows(Arrays.copyOf(keep, m));
    double[] s = sub.target();
    for (int i = 0; i < m; i++) {
      s[i] = s[i] == positiveClass ? 1.0 : -1.0;
    }
    return sub.withTarget(s)
        .withName(data.name() + "-" + fmt(negativeClass) + "v" + fmt(positiveClass));
  }

  /**
   * The QP paper's "Pima 732 × 7": MASS {@code Pima.tr} + the 200 complete rows of {@code Pima.tr2}
   * + {@code Pima.te}, in that order, labels Yes → +1, No → −1. The 200 {@code Pima.tr2} rows are
   * exact duplicates of {@code Pima.tr}; with {@code deduplicated} they are left out, giving the
   * 532 rows of {@code pima-mass.csv}.
   */
  public static Dataset pimaQp(boolean deduplicated) {
    Dataset trte = loadBinary("pima-mass", "type", "1");
    if (deduplicated) {
      return trte.withName("pima-532");
    }
    Dataset tr2 = loadBinary("pima-tr2", "type", "1");
    int nTr = 200;
    double[][] a = trte.features();
    double[][] b = tr2.features();
    double[] ya = trte.target();
    double[] yb = tr2.target();
    int n = a.length + b.length;
    double[][] x = new double[n][];
    double[] y = new double[n];
    int k = 0;
    for (int i = 0; i < nTr; i++, k++) {
      x[k] = a[i];
      y[k] = ya[i];
    }
    for (int i = 0; i < b.length; i++, k++) {
      x[k] = b[i];
      y[k] = yb[i];
    }
    for (int i = nTr; i < a.length; i++, k++) {
      x[k] = a[i];
      y[k] = ya[i];
    }
    return Dataset.of(
        "pima-732",
        trte.featureNames(),
        trte.targetName(),
        x,
        y,
        new Provenance(
            trte.provenance().source() + " + " + tr2.provenance().source(),
            "Pima.tr + Pima.tr2 (200 complete rows, duplicates of Pima.tr) + Pima.te, as the QP"
                + " authors built it; labels Yes -> +1, No -> -1"));
  }

  private static String fmt(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }

  /**
   * A training file and a test file read together, as the command line needs them: the test
   * file's columns are matched to the training features by name, its target column may be absent,
   * and binary test labels are mapped with the training file's two classes (a test file may hold
   * only one of them).
   *
   * @param train the training set (binary targets as ±1)
   * @param test the test set, features in the training order; target all 0 when absent
   * @param testHasTarget whether the test file had the target column
   * @param positiveLabel the training label mapped to +1 (binary only, else null)
   */
  public record TrainTest(
      Dataset train, Dataset test, boolean testHasTarget, String positiveLabel) {}

  /**
   * Reads TRAIN and TEST for a fit. See {@link TrainTest}.
   *
   * @throws DataException for everything {@link #load} rejects, a test file lacking (or adding) a
   *     training feature column, or a test label that is not one of the training classes
   */
  public static TrainTest loadTrainTest(
      String trainPath,
      String testPath,
      String targetColumn,
      TargetKind kind,
      String positiveValue) {
    Dataset train = kind == TargetKind.BINARY
        ? loadBinary(trainPath, targetColumn, positiveValue)
        : load(trainPath, targetColumn, kind);
    String positiveLabel = null;
    Object positiveKey = null;
    CsvText.Raw trainRaw = null;
    if (kind == TargetKind.BINARY) {
      trainRaw = CsvText.read(trainPath, targetColumn);
      double[] y = train.target();
      for (int i = 0; i < y.length; i++) {
        if (y[i] > 0) {
          positiveLabel = trainRaw.cell(i, trainRaw.targetIndex);
          positiveKey = labelKey(positiveLabel);
          break;
        }
      }
    }
    CsvText.Raw raw = CsvText.read(testPath, targetColumn, true);
    boolean hasTarget = raw.targetIndex >= 0;
    Map<String, Integer> byName = new HashMap<>();
    for (int j = 0; j < raw.header.length; j++) {
      byName.put(raw.header[j], j);
    }
    List<String> features = train.featureNames();
    int[] col = new int[features.size()];
    for (int k = 0; k < col.length; k++) {
      Integer j = byName.get(features.get(k));
      if (j == null) {
        throw new DataException(
            raw.file, 1, features.get(k), "training feature column missing from the test file");
      }
      col[k] = j;
    }
    int expected = features.size() + (hasTarget ? 1 : 0);
    if (raw.header.length != expected) {
      for (int j = 0; j < raw.header.length; j++) {
        if (j != raw.targetIndex && !features.contains(raw.header[j])) {
          throw new DataException(raw.file, 1, raw.header[j], "column is not a training feature");
        }
      }
    }
    double[][] x = new double[raw.n()][col.length];
    double[] y = new double[raw.n()];
    for (int i = 0; i < raw.n(); i++) {
      for (int k = 0; k < col.length; k++) {
        x[i][k] = raw.number(i, col[k]);
      }
      if (!hasTarget) {
        continue;
      }
      if (kind == TargetKind.BINARY) {
        String cell = raw.cell(i, raw.targetIndex);
        Object key = labelKey(cell);
        if (key.equals(positiveKey)) {
          y[i] = 1.0;
        } else if (isOtherTrainingClass(trainRaw, key, positiveKey)) {
          y[i] = -1.0;
        } else {
          throw new DataException(
              raw.file,
              raw.lines[i],
              targetColumn,
              "label " + DataException.quote(cell) + " is not one of the training classes");
        }
      } else {
        y[i] = raw.number(i, raw.targetIndex);
        if (kind == TargetKind.COUNT && (y[i] < 0 || y[i] != Math.rint(y[i]))) {
          throw new DataException(
              raw.file,
              raw.lines[i],
              targetColumn,
              "count must be a non-negative integer, found "
                  + DataException.quote(raw.cell(i, raw.targetIndex)));
        }
      }
    }
    Dataset test = Dataset.of(
        raw.name,
        features,
        hasTarget ? targetColumn : "(none)",
        x,
        y,
        new Provenance(
            raw.source,
            "sha256 " + raw.sha256 + ", " + raw.n() + " rows"
                + (hasTarget ? "" : ", no target column")));
    return new TrainTest(train, test, hasTarget, positiveLabel);
  }

  private static boolean isOtherTrainingClass(
      CsvText.Raw trainRaw, Object key, Object positiveKey) {
    for (int i = 0; i < trainRaw.n(); i++) {
      Object k = labelKey(trainRaw.cell(i, trainRaw.targetIndex));
      if (!k.equals(positiveKey) && k.equals(key)) {
        return true;
      }
    }
    return false;
  }

  private static Object labelKey(String s) {
    String t = s.trim();
    double v = CsvText.decimal(t);
    if (!Double.isNaN(v)) {
      return v == 0 ? 0.0 : v; // -0 and 0 are one class
    }
    return t;
  }

  private static int compare(Object a, Object b) {
    if (a instanceof Double x && b instanceof Double y) {
      return Double.compare(x, y);
    }
    return a.toString().compareTo(b.toString());
  }

  private static String labelsOf(CsvText.Raw raw, Map<Object, Integer> firstRow) {
    List<String> s = new ArrayList<>();
    for (Integer i : firstRow.values()) {
      s.add(raw.cell(i, raw.targetIndex));
    }
    return s.toString();
  }
}
