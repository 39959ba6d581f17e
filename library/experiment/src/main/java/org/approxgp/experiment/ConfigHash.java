package org.approxgp.experiment;

import java.lang.reflect.Array;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Canonical string and short hash of a config record. The canonical string lists the record's
 * simple class name and every component in declaration order, recursively; doubles are written
 * with {@link Double#toString} (exact round trip), maps with sorted keys. Two configs with the same
 * canonical string are the same experiment. The results file is named by {@link #storeHash}, which leaves out
 * the components marked {@link Selects} (they only choose trials); any other changed value gives a different
 * hash and so a different results file, as does a raised {@link AlgorithmVersion} of the config's class.
 */
public final class ConfigHash {

  private static final int HASH_HEX_CHARS = 16;

  private ConfigHash() {}

  /** The canonical one-line string of {@code config}. */
  public static String canonical(Record config) {
    StringBuilder sb = new StringBuilder();
    append(sb, config);
    return sb.toString();
  }

  /**
   * The canonical string of {@code config} without its {@link Selects} components (top level): what decides the
   * results store, so that configs differing only in which trials they select share one store.
   */
  public static String storeCanonical(Record config) {
    StringBuilder sb = new StringBuilder();
    appendRecord(sb, config, true);
    int version = algorithmVersion(config);
    if (version > 1) {
      sb.append(" algorithm=").append(version);
    }
    return sb.toString();
  }

  /**
   * The {@link AlgorithmVersion} of {@code config}'s record class, 1 when it has none.
   *
   * @throws IllegalArgumentException if the annotation holds a version below 1
   */
  public static int algorithmVersion(Record config) {
    AlgorithmVersion v = config.getClass().getAnnotation(AlgorithmVersion.class);
    if (v == null) {
      return 1;
    }
    if (v.value() < 1) {
      throw new IllegalArgumentException(
          config.getClass().getName() + ": @AlgorithmVersion must be >= 1, got " + v.value());
    }
    return v.value();
  }

  /** First 16 hex digits of the SHA-256 of {@link #storeCanonical}: the results file's name. */
  public static String storeHash(Record config) {
    return hex(storeCanonical(config));
  }

  /** First 16 hex digits of the SHA-256 of the canonical string. */
  public static String hash(Record config) {
    return hex(canonical(config));
  }

  private static String hex(String canonical) {
    try {
      byte[] d =
          MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8));
      StringBuilder hex = new StringBuilder();
      for (int i = 0; i < HASH_HEX_CHARS / 2; i++) {
        hex.append(String.format(Locale.ROOT, "%02x", d[i]));
      }
      return hex.toString();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 unavailable", e);
    }
  }

  private static void appendRecord(StringBuilder sb, Record r, boolean withoutSelections) {
    sb.append(r.getClass().getSimpleName()).append('{');
    boolean first = true;
    for (RecordComponent c : r.getClass().getRecordComponents()) {
      if (withoutSelections && c.isAnnotationPresent(Selects.class)) {
        continue;
      }
      if (!first) {
        sb.append(", ");
      }
      first = false;
      sb.append(c.getName()).append('=');
      try {
        c.getAccessor().setAccessible(true);
        append(sb, c.getAccessor().invoke(r));
      } catch (ReflectiveOperationException e) {
        throw new IllegalArgumentException("cannot read component " + c.getName(), e);
      }
    }
    sb.append('}');
  }

  private static void append(StringBuilder sb, Object v) {
    if (v == null) {
      sb.append("null");
    } else if (v instanceof Record r) {
      appendRecord(sb, r, false);
    } else if (v instanceof String s) {
      sb.append('"').append(s.replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
    } else if (v instanceof Double || v instanceof Float) {
      sb.append(Double.toString(((Number) v).doubleValue()));
    } else if (v instanceof Number || v instanceof Boolean || v instanceof Character) {
      sb.append(v);
    } else if (v instanceof Enum<?> e) {
      sb.append(e.name());
    } else if (v instanceof Map<?, ?> m) {
      TreeMap<String, Object> sorted = new TreeMap<>();
      m.forEach((k, val) -> sorted.put(String.valueOf(k), val));
      sb.append('{');
      boolean first = true;
      for (Map.Entry<String, Object> e : sorted.entrySet()) {
        if (!first) {
          sb.append(", ");
        }
        first = false;
        sb.append(e.getKey()).append('=');
        append(sb, e.getValue());
      }
      sb.append('}');
    } else if (v instanceof Collection<?> c) {
      sb.append('[');
      boolean first = true;
      for (Object o : c) {
        if (!first) {
          sb.append(", ");
        }
        first = false;
        append(sb, o);
      }
      sb.append(']');
    } else if (v.getClass().isArray()) {
      sb.append('[');
      for (int i = 0; i < Array.getLength(v); i++) {
        if (i > 0) {
          sb.append(", ");
        }
        append(sb, Array.get(v, i));
      }
      sb.append(']');
    } else {
      throw new IllegalArgumentException(
          "config values must be records, strings, numbers, booleans,"
              + " enums, collections, maps or arrays; got " + v.getClass().getName());
    }
  }
}
