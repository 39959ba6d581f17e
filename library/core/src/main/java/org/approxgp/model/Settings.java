package org.approxgp.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Named settings of one {@link Registry} entry, e.g. {@code Settings.of("power", 0.5)} for "power-ep". A value is a
 * number or a word; {@link Registry} validates each one, once, when it builds the entry. Settings are immutable;
 * {@link #with} returns a copy, and a null value leaves the setting unset (so a caller can pass optional values
 * straight through).
 */
public final class Settings {
  private static final Settings NONE = new Settings(Map.of());

  private final Map<String, Object> values;

  private Settings(Map<String, Object> values) {
    this.values = values;
  }

  /** No settings: every value at the entry's default. */
  public static Settings none() {
    return NONE;
  }

  /**
   * Settings from alternating names and values, {@code of("penalty", 10, "site-reading", "c")}; null values are
   * left unset.
   *
   * @throws IllegalArgumentException for an odd count, a name that is not a string or a name given twice
   */
  public static Settings of(Object... namesAndValues) {
    if (namesAndValues.length % 2 != 0) {
      throw new IllegalArgumentException(
          "settings come in name, value pairs; got " + namesAndValues.length + " arguments");
    }
    Settings s = NONE;
    for (int i = 0; i < namesAndValues.length; i += 2) {
      if (!(namesAndValues[i] instanceof String name)) {
        throw new IllegalArgumentException(
            "setting name " + (i / 2 + 1) + " is not a string: " + namesAndValues[i]);
      }
      if (s.has(name)) {
        throw new IllegalArgumentException("setting '" + name + "' given twice");
      }
      s = s.with(name, namesAndValues[i + 1]);
    }
    return s;
  }

  /**
   * These settings with {@code name} set to {@code value} (a {@link Number} or a {@link String}); a null value
   * removes it.
   */
  public Settings with(String name, Object value) {
    if (value != null && !(value instanceof Number) && !(value instanceof String)) {
      throw new IllegalArgumentException("setting '" + name + "' must be a number or a word, got "
          + value.getClass().getSimpleName());
    }
    Map<String, Object> m = new LinkedHashMap<>(values);
    if (value == null) {
      m.remove(name);
    } else {
      m.put(name, value);
    }
    return new Settings(Collections.unmodifiableMap(m));
  }

  /** The names set, in the order they were given. */
  public Set<String> names() {
    return values.keySet();
  }

  /** These settings without any whose name is not in {@code names}. */
  public Settings restrictedTo(java.util.Collection<String> names) {
    Map<String, Object> m = new LinkedHashMap<>(values);
    m.keySet().retainAll(names);
    return new Settings(Collections.unmodifiableMap(m));
  }

  /** Whether {@code name} is set. */
  public boolean has(String name) {
    return values.containsKey(name);
  }

  /** Whether nothing is set. */
  public boolean isEmpty() {
    return values.isEmpty();
  }

  /**
   * The number set for {@code name}, or null.
   *
   * @throws SettingException if it is a word that does not parse as a number
   */
  Double number(String name) {
    Object v = values.get(name);
    if (v == null || v instanceof Number) {
      return v == null ? null : ((Number) v).doubleValue();
    }
    try {
      return Double.valueOf(((String) v).strip());
    } catch (NumberFormatException e) {
      throw new SettingException(name, "must be a number, got '" + v + "'");
    }
  }

  /**
   * The whole number set for {@code name} (a long exactly, beyond 2^53 too), or null.
   *
   * @throws SettingException if it is not a whole number
   */
  Long whole(String name) {
    Object v = values.get(name);
    if (v == null) {
      return null;
    }
    if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
      return ((Number) v).longValue();
    }
    try {
      if (v instanceof String w) {
        return Long.valueOf(w.strip());
      }
      double d = ((Number) v).doubleValue();
      if (d == Math.rint(d) && Math.abs(d) < 9.2e18) {
        return (long) d;
      }
    } catch (NumberFormatException e) {
      // refused below
    }
    throw new SettingException(name, "must be a whole number, got '" + v + "'");
  }

  /** The word set for {@code name} (a number as written), or null. */
  String word(String name) {
    Object v = values.get(name);
    return v == null ? null : v.toString().strip();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Settings s && s.values.equals(values);
  }

  @Override
  public int hashCode() {
    return values.hashCode();
  }

  /** "power=0.5, negative-sites=keep", or "defaults". */
  @Override
  public String toString() {
    return values.isEmpty()
        ? "defaults"
        : values.entrySet().stream()
            .map(e -> e.getKey() + "=" + e.getValue())
            .collect(Collectors.joining(", "));
  }
}
