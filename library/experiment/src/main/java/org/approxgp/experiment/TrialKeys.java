package org.approxgp.experiment;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The columns of a trial-key record. Each experiment declares its own key record (e.g. Table 1's
 * {@code record Key(String dataset, String method, long seed, int fold)}); its components, in
 * declaration order, are the key columns of the result table and make up the trial id stored in the
 * results file, e.g. {@code dataset=ionosphere;method=ep;seed=0;fold=3}.
 *
 * <p>Allowed component types: {@link String} (non-blank, one line, without {@code ;} or {@code =}),
 * {@code int}, {@code long}, {@code boolean} and enums (stored by name).
 */
public final class TrialKeys {

  /** Reserved: the stored trial id column. */
  public static final String TRIAL = "trial";

  private TrialKeys() {}

  /** The key column names of a key record class, in declaration order. */
  public static List<String> columns(Class<? extends Record> keyClass) {
    List<String> names = new ArrayList<>();
    for (RecordComponent c : keyClass.getRecordComponents()) {
      checkType(keyClass, c);
      names.add(c.getName());
    }
    if (names.isEmpty()) {
      throw new IllegalArgumentException("key record " + keyClass.getName() + " has no components");
    }
    return Collections.unmodifiableList(names);
  }

  /**
   * The key's components by name, in declaration order: strings, {@link Long} (for int and long),
   * {@link Boolean}, enum names as strings.
   */
  public static Map<String, Object> values(Record key) {
    Objects.requireNonNull(key, "key");
    LinkedHashMap<String, Object> out = new LinkedHashMap<>();
    for (RecordComponent c : key.getClass().getRecordComponents()) {
      checkType(key.getClass(), c);
      Object v;
      try {
        c.getAccessor().setAccessible(true);
        v = c.getAccessor().invoke(key);
      } catch (ReflectiveOperationException e) {
        throw new IllegalArgumentException("cannot read key component " + c.getName(), e);
      }
      if (v instanceof Integer i) {
        v = i.longValue();
      } else if (v instanceof Enum<?> e) {
        v = e.name();
      }
      if (v instanceof String s
          && (s.isBlank()
              || s.contains(";")
              || s.contains("=")
              || s.contains("\n")
              || s.contains("\r"))) {
        throw new IllegalArgumentException("key component " + c.getName()
            + " must be a non-blank single line without ';' or '=': '" + s + "'");
      }
      out.put(c.getName(), Objects.requireNonNull(v, c.getName()));
    }
    return out;
  }

  /** The stable trial id stored in the results file: {@code name=value;…} in declaration order. */
  public static String id(Record key) {
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, Object> e : values(key).entrySet()) {
      if (sb.length() > 0) {
        sb.append(';');
      }
      sb.append(e.getKey()).append('=').append(e.getValue());
    }
    return sb.toString();
  }

  private static void checkType(Class<?> keyClass, RecordComponent c) {
    Class<?> t = c.getType();
    boolean ok =
        t == String.class || t == int.class || t == long.class || t == boolean.class || t.isEnum();
    if (!ok) {
      throw new IllegalArgumentException(
          "key record " + keyClass.getSimpleName() + ": component " + c.getName() + " has type "
              + t.getSimpleName() + "; allowed: String, int, long, boolean, enum");
    }
    if (TRIAL.equals(c.getName())) {
      throw new IllegalArgumentException(
          "'" + TRIAL + "' is reserved and cannot be a key component");
    }
  }
}
