package org.approxgp.experiment;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Minimal codec for the one-line flat JSON objects of results files: keys are strings, values are
 * strings, finite or non-finite doubles, longs or booleans. Non-finite doubles are written as the
 * strings "NaN", "Infinity", "-Infinity" tagged by a {@code "__d:"} prefix so they read back as
 * doubles. Not a general JSON parser.
 */
final class FlatJson {

  private static final String DOUBLE_TAG = "__d:";

  private FlatJson() {
  }

  static String write(Map<String, Object> values) {
    StringBuilder sb = new StringBuilder("{");
    boolean first = true;
    for (Map.Entry<String, Object> e : values.entrySet()) {
      if (!first) {
        sb.append(',');
      }
      first = false;
      JsonStrings.append(sb, e.getKey());
      sb.append(':');
      Object v = e.getValue();
      if (v instanceof Double d) {
        if (Double.isFinite(d)) {
          // always keep a '.' or exponent so it reads back as a double
          sb.append(Double.toString(d));
        } else {
          JsonStrings.append(sb, DOUBLE_TAG + d);
        }
      } else if (v instanceof Long || v instanceof Integer || v instanceof Boolean) {
        sb.append(v);
      } else if (v instanceof String s) {
        JsonStrings.append(sb, s);
      } else {
        throw new IllegalArgumentException("unsupported value " + v);
      }
    }
    return sb.append('}').toString();
  }

  /** Parses one line; throws {@link IllegalArgumentException} on anything malformed or truncated. */
  static Map<String, Object> read(String line) {
    Parser p = new Parser(line.strip());
    Map<String, Object> out = p.object();
    if (p.pos != p.s.length()) {
      throw new IllegalArgumentException("trailing characters at " + p.pos);
    }
    return out;
  }

  private static final class Parser {
    final String s;
    int pos;

    Parser(String s) {
      this.s = s;
    }

    Map<String, Object> object() {
      expect('{');
      LinkedHashMap<String, Object> out = new LinkedHashMap<>();
      if (peek() == '}') {
        pos++;
        return out;
      }
      while (true) {
        String key = string();
        expect(':');
        out.put(key, value());
        char c = next();
        if (c == '}') {
          return out;
        }
        if (c != ',') {
          throw new IllegalArgumentException("expected ',' or '}' at " + (pos - 1));
        }
      }
    }

    Object value() {
      char c = peek();
      if (c == '"') {
        String str = string();
        if (str.startsWith(DOUBLE_TAG)) {
          return Double.valueOf(str.substring(DOUBLE_TAG.length()));
        }
        return str;
      }
      if (s.startsWith("true", pos)) {
        pos += 4;
        return Boolean.TRUE;
      }
      if (s.startsWith("false", pos)) {
        pos += 5;
        return Boolean.FALSE;
      }
      int start = pos;
      while (pos < s.length() && "+-0123456789.eE".indexOf(s.charAt(pos)) >= 0) {
        pos++;
      }
      String num = s.substring(start, pos);
      if (num.isEmpty()) {
        throw new IllegalArgumentException("bad value at " + start);
      }
      boolean isDouble = num.indexOf('.') >= 0 || num.indexOf('e') >= 0 || num.indexOf('E') >= 0;
      return isDouble ? (Object) Double.valueOf(num) : (Object) Long.valueOf(num);
    }

    String string() {
      expect('"');
      StringBuilder sb = new StringBuilder();
      while (true) {
        char c = next();
        if (c == '"') {
          return sb.toString();
        }
        if (c == '\\') {
          char e = next();
          switch (e) {
            case 'n' -> sb.append('\n');
            case 'r' -> sb.append('\r');
            case 't' -> sb.append('\t');
            case 'u' -> {
              if (pos + 4 > s.length()) {
                throw new IllegalArgumentException("truncated escape");
              }
              sb.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
              pos += 4;
            }
            default -> sb.append(e);
          }
        } else {
          sb.append(c);
        }
      }
    }

    char peek() {
      if (pos >= s.length()) {
        throw new IllegalArgumentException("unexpected end");
      }
      return s.charAt(pos);
    }

    char next() {
      char c = peek();
      pos++;
      return c;
    }

    void expect(char c) {
      if (next() != c) {
        throw new IllegalArgumentException("expected '" + c + "' at " + (pos - 1));
      }
    }
  }
}
