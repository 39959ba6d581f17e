package org.approxgp.data;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON a column file's header needs (RFC 8259), read into plain Java values and written back compactly: an
 * object is a {@link LinkedHashMap} (members in file order), an array a {@link List}, a string a {@link String},
 * a number a {@link Long} when written without fraction or exponent and in range, else a {@link Double}, and
 * {@code true}/{@code false}/{@code null} are {@link Boolean}s and {@code null}. The core module carries no JSON
 * library (it depends only on the linear algebra and Commons), and {@link ColumnFile} needs no more than this.
 */
final class Json {
  private final String s;
  private int i;

  private Json(String s) {
    this.s = s;
  }

  /**
   * The value of a JSON text (surrounding white space allowed).
   *
   * @throws IllegalArgumentException naming the character offset of the first error
   */
  static Object parse(String text) {
    Json p = new Json(text);
    p.space();
    Object v = p.value();
    p.space();
    if (p.i != text.length()) {
      throw p.error("text after the value");
    }
    return v;
  }

  /** Compact JSON of a value built from the types {@link #parse} returns (any {@link Number}, any {@link Map}). */
  static String write(Object value) {
    StringBuilder b = new StringBuilder();
    write(value, b);
    return b.toString();
  }

  private static void write(Object v, StringBuilder b) {
    if (v == null) {
      b.append("null");
    } else if (v instanceof String str) {
      quote(str, b);
    } else if (v instanceof Double || v instanceof Float) {
      double d = ((Number) v).doubleValue();
      if (!Double.isFinite(d)) {
        throw new IllegalArgumentException("JSON has no " + d);
      }
      b.append(d);
    } else if (v instanceof Number || v instanceof Boolean) {
      b.append(v);
    } else if (v instanceof Map<?, ?> m) {
      b.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : m.entrySet()) {
        if (!first) {
          b.append(',');
        }
        first = false;
        quote(String.valueOf(e.getKey()), b);
        b.append(':');
        write(e.getValue(), b);
      }
      b.append('}');
    } else if (v instanceof List<?> l) {
      b.append('[');
      for (int k = 0; k < l.size(); k++) {
        if (k > 0) {
          b.append(',');
        }
        write(l.get(k), b);
      }
      b.append(']');
    } else {
      throw new IllegalArgumentException("no JSON form for " + v.getClass().getName());
    }
  }

  private static void quote(String str, StringBuilder b) {
    b.append('"');
    for (int k = 0; k < str.length(); k++) {
      char c = str.charAt(k);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        case '\b' -> b.append("\\b");
        case '\f' -> b.append("\\f");
        default -> {
          if (c < 0x20) {
            b.append(String.format("\\u%04X", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    b.append('"');
  }

  private Object value() {
    if (i >= s.length()) {
      throw error("a value");
    }
    char c = s.charAt(i);
    switch (c) {
      case '{':
        return object();
      case '[':
        return array();
      case '"':
        return string();
      case 't':
        return literal("true", Boolean.TRUE);
      case 'f':
        return literal("false", Boolean.FALSE);
      case 'n':
        return literal("null", null);
      default:
        if (c == '-' || (c >= '0' && c <= '9')) {
          return number();
        }
        throw error("a value");
    }
  }

  private Map<String, Object> object() {
    Map<String, Object> m = new LinkedHashMap<>();
    i++;
    space();
    if (peek() == '}') {
      i++;
      return m;
    }
    while (true) {
      space();
      if (peek() != '"') {
        throw error("a member name in quotes");
      }
      String k = string();
      space();
      expect(':');
      space();
      m.put(k, value());
      space();
      if (peek() == ',') {
        i++;
      } else {
        expect('}');
        return m;
      }
    }
  }

  private List<Object> array() {
    List<Object> l = new ArrayList<>();
    i++;
    space();
    if (peek() == ']') {
      i++;
      return l;
    }
    while (true) {
      space();
      l.add(value());
      space();
      if (peek() == ',') {
        i++;
      } else {
        expect(']');
        return l;
      }
    }
  }

  private String string() {
    StringBuilder b = new StringBuilder();
    i++;
    while (true) {
      if (i >= s.length()) {
        throw error("the closing quote of a string");
      }
      char c = s.charAt(i++);
      if (c == '"') {
        return b.toString();
      } else if (c < 0x20) {
        throw error("no raw control character in a string");
      } else if (c != '\\') {
        b.append(c);
        continue;
      }
      if (i >= s.length()) {
        throw error("an escape");
      }
      char e = s.charAt(i++);
      switch (e) {
        case '"', '\\', '/' -> b.append(e);
        case 'b' -> b.append('\b');
        case 'f' -> b.append('\f');
        case 'n' -> b.append('\n');
        case 'r' -> b.append('\r');
        case 't' -> b.append('\t');
        case 'u' -> {
          if (i + 4 > s.length()) {
            throw error("four hex digits after \\u");
          }
          try {
            b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
          } catch (NumberFormatException x) {
            throw error("four hex digits after \\u");
          }
          i += 4;
        }
        default -> {
          i--;
          throw error("a valid escape");
        }
      }
    }
  }

  private Object number() {
    int start = i;
    boolean integral = true;
    if (peek() == '-') {
      i++;
    }
    if (peek() == '0') {
      i++;
    } else if (digits() == 0) {
      throw error("a digit");
    }
    if (peek() == '.') {
      integral = false;
      i++;
      if (digits() == 0) {
        throw error("a digit after the decimal point");
      }
    }
    if (peek() == 'e' || peek() == 'E') {
      integral = false;
      i++;
      if (peek() == '+' || peek() == '-') {
        i++;
      }
      if (digits() == 0) {
        throw error("a digit in the exponent");
      }
    }
    String t = s.substring(start, i);
    if (integral) {
      try {
        return Long.parseLong(t);
      } catch (NumberFormatException outOfRange) {
        // falls through to a double
      }
    }
    return Double.parseDouble(t);
  }

  private int digits() {
    int n = 0;
    while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
      i++;
      n++;
    }
    return n;
  }

  private Object literal(String word, Object v) {
    if (!s.startsWith(word, i)) {
      throw error("a value");
    }
    i += word.length();
    return v;
  }

  private char peek() {
    return i < s.length() ? s.charAt(i) : '\0';
  }

  private void expect(char c) {
    if (peek() != c) {
      throw error("'" + c + "'");
    }
    i++;
  }

  private void space() {
    while (i < s.length()) {
      char c = s.charAt(i);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      i++;
    }
  }

  private IllegalArgumentException error(String expected) {
    String at = i < s.length() ? "'" + s.charAt(i) + "'" : "the end";
    return new IllegalArgumentException(
        "at character " + i + ": expected " + expected + ", found " + at);
  }
}
