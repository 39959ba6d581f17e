package org.approxgp.experiment;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * An ordered, immutable row of named results: numbers, strings or booleans. Names must not clash
 * with the experiment's key columns (the {@link Runner} reports a clash as a failed trial) nor be
 * the reserved {@code trial}.
 */
public final class ResultRow {

  private final Map<String, Object> values;

  private ResultRow(Map<String, Object> values) {
    this.values = Collections.unmodifiableMap(values);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Values in insertion order: {@link Double}, {@link Long}, {@link String} or {@link Boolean}. */
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
    return o instanceof ResultRow r && r.values.equals(values);
  }

  @Override
  public int hashCode() {
    return values.hashCode();
  }

  @Override
  public String toString() {
    return values.toString();
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
  }

  /** Package-internal: builds a row without the key-name check (used when reading files). */
  static ResultRow ofRaw(Map<String, Object> values) {
    return new ResultRow(new LinkedHashMap<>(values));
  }
}
