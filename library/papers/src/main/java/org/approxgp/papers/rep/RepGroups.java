package org.approxgp.papers.rep;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.approxgp.experiment.Summaries;
import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.NumericColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

/**
 * The group-by step both REP summaries share ({@link RepSynthetic#summary}, Figure 4; {@link RepUci#summary},
 * Figures 5–6): the rows of a result table grouped by the values of some key columns, in first-seen order, with
 * each group's values of some numeric or boolean (1/0) columns, and their mean and sample sd.
 *
 * @param key the group's key-column values, as text, in the order of the key columns
 * @param values values[c][r]: value column c of the group's r-th row
 */
record RepGroups(List<String> key, double[][] values) {

  /** The groups of {@code rows} by {@code keys}, each with the values of {@code columns}. */
  static List<RepGroups> of(Table rows, List<String> keys, List<String> columns) {
    Map<List<String>, List<double[]>> acc = new LinkedHashMap<>();
    for (int i = 0; i < rows.rowCount(); i++) {
      List<String> k = new ArrayList<>(keys.size());
      for (String c : keys) {
        k.add(rows.column(c).getString(i));
      }
      double[] v = new double[columns.size()];
      for (int c = 0; c < v.length; c++) {
        Column<?> col = rows.column(columns.get(c));
        v[c] = col instanceof BooleanColumn b
            ? (b.get(i) ? 1 : 0)
            : ((NumericColumn<?>) col).getDouble(i);
      }
      acc.computeIfAbsent(List.copyOf(k), x -> new ArrayList<>()).add(v);
    }
    List<RepGroups> out = new ArrayList<>(acc.size());
    acc.forEach((k, rs) -> {
      double[][] v = new double[columns.size()][rs.size()];
      for (int r = 0; r < rs.size(); r++) {
        for (int c = 0; c < v.length; c++) {
          v[c][r] = rs.get(r)[c];
        }
      }
      out.add(new RepGroups(k, v));
    });
    return out;
  }

  /** The number of rows in the group. */
  int size() {
    return values.length == 0 ? 0 : values[0].length;
  }

  /** The mean of value column c, each value multiplied by {@code scale}. */
  double mean(int c, double scale) {
    return Summaries.mean(scaled(c, scale));
  }

  /** The sample sd of value column c, each value multiplied by {@code scale}. */
  double sd(int c, double scale) {
    return Summaries.sd(scaled(c, scale));
  }

  /** The mean of the finite values of column c (NaN when none), each multiplied by {@code scale}. */
  double meanFinite(int c, double scale) {
    double[] v = finite(c, scale);
    return v.length == 0 ? Double.NaN : Summaries.mean(v);
  }

  /** The sample sd of the finite values of column c, each multiplied by {@code scale}. */
  double sdFinite(int c, double scale) {
    double[] v = finite(c, scale);
    return v.length == 0 ? Double.NaN : Summaries.sd(v);
  }

  /** How many values of column c are finite. */
  int countFinite(int c) {
    return finite(c, 1).length;
  }

  private double[] finite(int c, double scale) {
    return java.util.Arrays.stream(scaled(c, scale)).filter(Double::isFinite).toArray();
  }

  /**
   * The methods of {@link RepMethods#METHODS} that have a row in {@code rows}, in that order: the methods whose fits
   * make a unit "common" ({@link #withProtocolColumns}), so a table of the three methods stored before the appendix C
   * variant joined is summarised as it was, and a table with all four asks a fit of each.
   */
  static List<String> methodsIn(Table rows) {
    java.util.Set<String> seen = new java.util.HashSet<>(
        rows.column("method").asList().stream().map(Object::toString).toList());
    return RepMethods.METHODS.stream().filter(seen::contains).toList();
  }

  /**
   * The honest-protocol columns of a trial table (one row per unit × method, a unit being e.g. a data set, flip
   * rate and split): adds {@code <value>_common} (the value where every method of the row's unit has a finite
   * value, else NaN: averages over the common set of units) and {@code <value>_failure_as_error} (a missing value,
   * i.e. a failed fit, counted as 1: every test point wrong). Returns a copy.
   *
   * @param unitKeys the columns naming a unit (not the method)
   * @param methods  the methods every unit should have
   */
  static Table withProtocolColumns(
      Table rows, List<String> unitKeys, List<String> methods, String value) {
    Table t = rows.copy();
    NumericColumn<?> v = (NumericColumn<?>) t.column(value);
    Map<List<String>, Integer> finiteMethods = new LinkedHashMap<>();
    List<List<String>> units = new ArrayList<>(t.rowCount());
    for (int i = 0; i < t.rowCount(); i++) {
      List<String> u = new ArrayList<>(unitKeys.size());
      for (String c : unitKeys) {
        u.add(t.column(c).getString(i));
      }
      units.add(u);
      if (Double.isFinite(v.getDouble(i)) && methods.contains(t.column("method").getString(i))) {
        finiteMethods.merge(u, 1, Integer::sum);
      }
    }
    tech.tablesaw.api.DoubleColumn common =
        tech.tablesaw.api.DoubleColumn.create(value + "_common");
    tech.tablesaw.api.DoubleColumn failure =
        tech.tablesaw.api.DoubleColumn.create(value + "_failure_as_error");
    for (int i = 0; i < t.rowCount(); i++) {
      double x = v.getDouble(i);
      common.append(finiteMethods.getOrDefault(units.get(i), 0) == methods.size() ? x : Double.NaN);
      failure.append(Double.isFinite(x) ? x : 1.0);
    }
    return t.addColumns(common, failure);
  }

  private double[] scaled(int c, double scale) {
    double[] v = values[c].clone();
    for (int r = 0; r < v.length; r++) {
      v[r] *= scale;
    }
    return v;
  }
}
