package org.approxgp.experiment;

import java.lang.reflect.RecordComponent;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

/**
 * The rows of a run, in the order of the experiment's trial list (never completion order), with
 * how many were reused from the results file and how many computed now.
 *
 * @param <K> the experiment's trial-key record type
 */
public final class Results<K extends Record> {

  private final String experiment;
  private final Path file;
  private final Class<K> keyType;
  private final List<K> keys;
  private final List<ResultRow> rows;
  private final int reused;
  private final int computed;

  Results(
      String experiment,
      Path file,
      Class<K> keyType,
      List<K> keys,
      List<ResultRow> rows,
      int reused,
      int computed) {
    this.experiment = experiment;
    this.file = file;
    this.keyType = keyType;
    this.keys = List.copyOf(keys);
    this.rows = List.copyOf(rows);
    this.reused = reused;
    this.computed = computed;
  }

  public String experiment() {
    return experiment;
  }

  /** The results file ({@code <results>/<experiment>/<config-hash>.jsonl}). */
  public Path file() {
    return file;
  }

  /** The trial keys of {@link #rows()}, position by position. */
  public List<K> keys() {
    return keys;
  }

  public List<ResultRow> rows() {
    return rows;
  }

  /** Trials found finished in the results file. */
  public int reused() {
    return reused;
  }

  /** Trials computed by this run. */
  public int computed() {
    return computed;
  }

  /**
   * One row per trial: the key record's components (a string column for strings and enums, int,
   * long or boolean column as declared), then every result column in first-seen order. A result
   * column is a double column when all its values are numbers and one is a double, a long column
   * when all are integers, boolean when all are booleans, otherwise strings (a vector as
   * {@code [1.0, 2.0]}; {@link ResultRow#getDoubles} gives the numbers).
   */
  public Table table() {
    Table t = Table.create(experiment);
    for (RecordComponent rc : keyType.getRecordComponents()) {
      t.addColumns(keyColumn(rc));
    }
    Map<String, List<Object>> cols = new LinkedHashMap<>();
    for (int i = 0; i < rows.size(); i++) {
      for (Map.Entry<String, Object> e : rows.get(i).values().entrySet()) {
        int row = i;
        List<Object> col = cols.computeIfAbsent(e.getKey(), n -> new ArrayList<>());
        while (col.size() < row) {
          col.add(null);
        }
        col.add(e.getValue());
      }
    }
    cols.forEach((name, values) -> {
      while (values.size() < rows.size()) {
        values.add(null);
      }
      t.addColumns(column(name, values));
    });
    return t;
  }

  private Column<?> keyColumn(RecordComponent rc) {
    String name = rc.getName();
    Class<?> type = rc.getType();
    Column<?> c = type == int.class
        ? IntColumn.create(name)
        : type == long.class
            ? LongColumn.create(name)
            : type == boolean.class ? BooleanColumn.create(name) : StringColumn.create(name);
    for (K k : keys) {
      Object v = TrialKeys.values(k).get(name);
      if (c instanceof IntColumn ic) {
        ic.append(((Long) v).intValue());
      } else if (c instanceof LongColumn lc) {
        lc.append((Long) v);
      } else if (c instanceof BooleanColumn bc) {
        bc.append((Boolean) v);
      } else {
        ((StringColumn) c).append((String) v);
      }
    }
    return c;
  }

  private static Column<?> column(String name, List<Object> values) {
    boolean allNumbers = values.stream().allMatch(v -> v == null || v instanceof Number);
    boolean anyDouble = values.stream().anyMatch(v -> v instanceof Double);
    boolean allBooleans = values.stream().allMatch(v -> v == null || v instanceof Boolean);
    if (allNumbers && anyDouble) {
      DoubleColumn c = DoubleColumn.create(name);
      values.forEach(v -> {
        if (v == null) {
          c.appendMissing();
        } else {
          c.append(((Number) v).doubleValue());
        }
      });
      return c;
    }
    if (allNumbers && values.stream().anyMatch(v -> v != null)) {
      LongColumn c = LongColumn.create(name);
      values.forEach(v -> {
        if (v == null) {
          c.appendMissing();
        } else {
          c.append(((Number) v).longValue());
        }
      });
      return c;
    }
    if (allBooleans && values.stream().anyMatch(v -> v != null)) {
      BooleanColumn c = BooleanColumn.create(name);
      values.forEach(v -> {
        if (v == null) {
          c.appendMissing();
        } else {
          c.append((Boolean) v);
        }
      });
      return c;
    }
    StringColumn c = StringColumn.create(name);
    values.forEach(v -> {
      if (v == null) {
        c.appendMissing();
      } else {
        c.append(
            v instanceof double[] a
                ? java.util.Arrays.toString(a)
                : String.valueOf(v)); // vector: "[1.0, 2.0]"
      }
    });
    return c;
  }

  /** Mean ± sd of {@code values} over the rows of each group of {@code groupBy}; see {@link Summaries}. */
  public Table summary(List<String> groupBy, List<String> values) {
    return Summaries.meanSd(table(), groupBy, values);
  }

  @Override
  public String toString() {
    return experiment + ": " + rows.size() + " rows (" + reused + " reused, " + computed
        + " computed) in " + ProjectPaths.shown(file);
  }
}
