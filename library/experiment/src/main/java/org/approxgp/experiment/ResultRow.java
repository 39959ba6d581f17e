package org.approxgp.experiment;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * An ordered, immutable row of named results: numbers, strings, booleans or vectors
 * ({@code double[]}). Names must not clash with the experiment's key columns (the {@link Runner}
 * reports a clash as a failed trial) nor be the reserved {@code trial}; the runner adds the
 * {@value #BACKEND} and {@value #CODE_VERSION} columns unless the trial wrote them.
 */
public final class ResultRow {

  /**
   * The column the {@link Runner} adds to every stored row: the name of the dense linear-algebra
   * backend the trial ran on ({@code "ejml"} or {@code "native"}, see {@code org.approxgp.linalg.Linalg}).
   */
  public static final String BACKEND = "backend";

  /** The column the {@link Runner} adds to every stored row: the code that computed it ({@link CodeVersion}). */
  public static final String CODE_VERSION = "code_version";

  private final Map<String, Object> values;

  private ResultRow(Map<String, Object> values) {
    this.values = Collections.unmodifiableMap(values);
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Values in insertion order: {@link Double}, {@link Long}, {@link String}, {@link Boolean} or
   * {@code double[]} (do not modify an array; {@link #getDoubles} returns a copy).
   */
  public Map<String, Object> values() {
    return values;
  }

  public Object get(String name) {
    return values.get(name);
  }

  public double getDouble(String name) {
    Object v = values.get(name);
    if (!(v instanceof Number n)) {
      throw new IllegalArgumentException("no numeric value '" + name + "' in " + values);
    }
    return n.doubleValue();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ResultRow r && sameValues(values, r.values);
  }

  @Override
  public int hashCode() {
    return deepHash(values);
  }

  @Override
  public String toString() {
    return printable(values).toString();
  }

  /** Mutable builder; not thread-safe. */
  public static final class Builder {
    private final LinkedHashMap<String, Object> values = new LinkedHashMap<>();

    public Builder put(String name, double value) {
      return putChecked(name, value);
    }

    public Builder put(String name, long value) {
      return putChecked(name, value);
    }

    public Builder put(String name, String value) {
      return putChecked(name, Objects.requireNonNull(value, name));
    }

    public Builder put(String name, boolean value) {
      return putChecked(name, value);
    }

    private Builder putChecked(String name, Object value) {
      Objects.requireNonNull(name, "name");
      if (TrialKeys.TRIAL.equals(name)) {
        throw new IllegalArgumentException("'" + name + "' is reserved for the trial id");
      }
      if (values.put(name, value) != null) {
        throw new IllegalArgumentException("duplicate column '" + name + "'");
      }
      return this;
    }

    public ResultRow build() {
      return new ResultRow(new LinkedHashMap<>(values));
    }

    /** Adds a vector column, written to results files as a JSON array (the array is copied). */
    public Builder put(String name, double[] value) {
      return putChecked(name, Objects.requireNonNull(value, name).clone());
    }
  }

  /** Package-internal: builds a row without the key-name check (used when reading files). */
  static ResultRow ofRaw(Map<String, Object> values) {
    return new ResultRow(new LinkedHashMap<>(values));
  }

  // ---- vectors: double[] values, written as JSON arrays by JsonRows ----

  /**
   * The vector {@code name}: a copy of a {@code double[]} value, or, for a results file written before
   * vectors were JSON arrays, the parsed space-joined {@link Double#toString} values of a string (a
   * blank string is an empty vector).
   *
   * @throws IllegalArgumentException if there is no such value, or it is neither a vector nor such a
   *                                  string
   */
  public double[] getDoubles(String name) {
    Object v = values.get(name);
    if (v instanceof double[] a) {
      return a.clone();
    }
    if (v instanceof String s) {
      String t = s.strip();
      if (t.isEmpty()) {
        return new double[0];
      }
      try {
        return java.util.Arrays.stream(t.split(" +"))
            .mapToDouble(Double::parseDouble)
            .toArray();
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("value '" + name + "' is not a vector: '" + s + "'", e);
      }
    }
    throw new IllegalArgumentException("no vector value '" + name + "' in " + this);
  }

  private static boolean sameValues(Map<String, Object> a, Map<String, Object> b) {
    if (a.size() != b.size() || !a.keySet().equals(b.keySet())) {
      return false;
    }
    for (Map.Entry<String, Object> e : a.entrySet()) {
      Object x = e.getValue();
      Object y = b.get(e.getKey());
      boolean same = x instanceof double[] xa
          ? y instanceof double[] ya && java.util.Arrays.equals(xa, ya)
          : java.util.Objects.equals(x, y);
      if (!same) {
        return false;
      }
    }
    return true;
  }

  private static int deepHash(Map<String, Object> m) {
    int h = 0;
    for (Map.Entry<String, Object> e : m.entrySet()) {
      Object v = e.getValue();
      int vh =
          v instanceof double[] a ? java.util.Arrays.hashCode(a) : java.util.Objects.hashCode(v);
      h += e.getKey().hashCode() ^ vh;
    }
    return h;
  }

  private static Map<String, Object> printable(Map<String, Object> m) {
    LinkedHashMap<String, Object> out = new LinkedHashMap<>();
    m.forEach((k, v) -> out.put(k, v instanceof double[] a ? java.util.Arrays.toString(a) : v));
    return out;
  }
}
