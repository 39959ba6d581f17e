package org.approxgp.experiment;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Results as a list that is equal for two runs exactly when they agree to the last bit: each trial's
 * key, then every column as {@code name=value} with doubles replaced by their bits. Wall-clock values
 * are the only thing left out: the {@code seconds…} columns and the "0.123 s" inside diagnostic
 * status strings (they measure the machine, not the computation).
 */
public final class ComparableRows {
  private ComparableRows() {}

  public static List<Object> of(Results<?> r) {
    List<Object> out = new ArrayList<>();
    for (int i = 0; i < r.rows().size(); i++) {
      out.add(r.keys().get(i));
      for (Map.Entry<String, Object> e : r.rows().get(i).values().entrySet()) {
        if (e.getKey().startsWith("seconds")) {
          continue;
        }
        Object v = e.getValue() instanceof Double d
            ? "bits " + Double.doubleToLongBits(d)
            : e.getValue() instanceof double[] a
                ? "bits "
                    + java.util.Arrays.toString(java.util.Arrays.stream(a)
                        .mapToLong(Double::doubleToLongBits)
                        .toArray())
                : e.getValue() instanceof String str
                    ? VerifyRule.withoutWallClock(str)
                    : e.getValue();
        out.add(e.getKey() + "=" + v);
      }
    }
    return out;
  }
}
