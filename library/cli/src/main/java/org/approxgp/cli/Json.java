package org.approxgp.cli;

import java.util.List;
import java.util.Map;
import org.approxgp.experiment.JsonRows;

/**
 * JSON of the command's outputs: {@link JsonRows#writePretty}, the project's one dialect (numbers in shortest
 * round-trip form). A command's output never carries a NaN or an infinity: {@link #write} refuses one, naming
 * its key (one line, exit 2, nothing written).
 */
final class Json {
  private Json() {}

  static String write(Object v) {
    requireFinite("", v);
    return JsonRows.writePretty(v);
  }

  private static void requireFinite(String path, Object v) {
    if (v instanceof Double d) {
      Finite.require(path, d, "the computation overflowed or failed for these inputs");
    } else if (v instanceof Float f) {
      Finite.require(path, f, "the computation overflowed or failed for these inputs");
    } else if (v instanceof double[] a) {
      for (int i = 0; i < a.length; i++) {
        requireFinite(path + "[" + i + "]", a[i]);
      }
    } else if (v instanceof Map<?, ?> m) {
      for (var e : m.entrySet()) {
        requireFinite(
            path.isEmpty() ? String.valueOf(e.getKey()) : path + "." + e.getKey(), e.getValue());
      }
    } else if (v instanceof List<?> l) {
      for (int i = 0; i < l.size(); i++) {
        requireFinite(path + "[" + i + "]", l.get(i));
      }
    }
  }
}
