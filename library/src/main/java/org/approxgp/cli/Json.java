package org.approxgp.cli;

import java.util.List;
import java.util.Map;

/** Minimal JSON writer for summaries (numbers in shortest round-trip form; non-finite → null). */
final class Json {
  private Json() {}

  static String write(Object v) {
    StringBuilder sb = new StringBuilder();
    write(sb, v, 0);
    return sb.append('\n').toString();
  }

  private static void write(StringBuilder sb, Object v, int indent) {
    if (v == null) {
      sb.append("null");
    } else if (v instanceof Double d) {
      sb.append(Double.isFinite(d) ? Double.toString(d) : "null");
    } else if (v instanceof Number || v instanceof Boolean) {
      sb.append(v);
    } else if (v instanceof double[] a) {
      sb.append('[');
      for (int i = 0; i < a.length; i++) {
        sb.append(i > 0 ? ", " : "");
        write(sb, a[i], indent);
      }
      sb.append(']');
    } else if (v instanceof List<?> l) {
      sb.append('[');
      for (int i = 0; i < l.size(); i++) {
        sb.append(i > 0 ? ", " : "");
        write(sb, l.get(i), indent);
      }
      sb.append(']');
    } else if (v instanceof Map<?, ?> m) {
      sb.append("{\n");
      int k = 0;
      for (Map.Entry<?, ?> e : m.entrySet()) {
        sb.append("  ".repeat(indent + 1));
        org.approxgp.experiment.JsonStrings.append(sb, e.getKey().toString());
        sb.append(": ");
        write(sb, e.getValue(), indent + 1);
        sb.append(++k < m.size() ? ",\n" : "\n");
      }
      sb.append("  ".repeat(indent)).append('}');
    } else {
      org.approxgp.experiment.JsonStrings.append(sb, v.toString());
    }
  }

}
