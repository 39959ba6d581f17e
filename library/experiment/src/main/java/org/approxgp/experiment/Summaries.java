package org.approxgp.experiment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.NumericColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

/** Summary tables of result tables. */
public final class Summaries {

  private Summaries() {}

  /**
   * Groups {@code table} by the {@code groupBy} columns (groups in order of first appearance) and,
   * for each numeric column {@code v} in {@code values}, gives {@code v mean} and {@code v sd}
   * (sample standard deviation, n − 1 denominator; NaN — missing in Tablesaw — for a single row), plus the group size
   * {@code count}. Missing values are skipped.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public static Table meanSd(Table table, List<String> groupBy, List<String> values) {
    Map<List<String>, List<Integer>> groups = new LinkedHashMap<>();
    for (int r = 0; r < table.rowCount(); r++) {
      List<String> key = new ArrayList<>();
      for (String g : groupBy) {
        key.add(table.column(g).getString(r));
      }
      groups.computeIfAbsent(key, k -> new ArrayList<>()).add(r);
    }
    Table out = Table.create(table.name() + " summary");
    List<Column> groupCols = new ArrayList<>();
    for (String g : groupBy) {
      Column c = table.column(g).emptyCopy();
      groupCols.add(c);
      out.addColumns(c);
    }
    IntColumn n = IntColumn.create("count");
    out.addColumns(n);
    List<DoubleColumn[]> stats = new ArrayList<>();
    for (String v : values) {
      if (!(table.column(v) instanceof NumericColumn<?>)) {
        throw new IllegalArgumentException("column '" + v + "' is not numeric");
      }
      DoubleColumn[] pair = {DoubleColumn.create(v + " mean"), DoubleColumn.create(v + " sd")};
      stats.add(pair);
      out.addColumns(pair);
    }
    for (List<Integer> rows : groups.values()) {
      for (int i = 0; i < groupBy.size(); i++) {
        groupCols.get(i).append(table.column(groupBy.get(i)), rows.get(0));
      }
      n.append(rows.size());
      for (int j = 0; j < values.size(); j++) {
        NumericColumn<?> col = (NumericColumn<?>) table.column(values.get(j));
        double[] xs = rows.stream()
            .filter(r -> !col.isMissing(r))
            .mapToDouble(col::getDouble)
            .toArray();
        stats.get(j)[0].append(mean(xs));
        stats.get(j)[1].append(sd(xs));
      }
    }
    return out;
  }

  /** Arithmetic mean; NaN for no values. */
  public static double mean(double[] xs) {
    if (xs.length == 0) {
      return Double.NaN;
    }
    double s = 0;
    for (double x : xs) {
      s += x;
    }
    return s / xs.length;
  }

  /** Two-pass sample standard deviation. */
  public static double sd(double[] xs) {
    if (xs.length < 2) {
      return Double.NaN;
    }
    double m = mean(xs);
    double ss = 0;
    for (double x : xs) {
      ss += (x - m) * (x - m);
    }
    return Math.sqrt(ss / (xs.length - 1));
  }

  /**
   * Two-pass population standard deviation (divisor n, as NumPy's default {@code std}; 0 for one value, NaN for
   * none).
   */
  public static double populationSd(double[] xs) {
    if (xs.length == 0) {
      return Double.NaN;
    }
    double m = mean(xs);
    double ss = 0;
    for (double x : xs) {
      ss += (x - m) * (x - m);
    }
    return Math.sqrt(ss / xs.length);
  }
}
