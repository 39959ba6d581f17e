package org.approxgp.spark;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;
import org.approxgp.experiment.ResultRow;

/**
 * What one Spark task returns to the driver: the row's values (Double, Long, String, Boolean and
 * double[] are serialised bit for bit) or the failure of the trial, as text and stack trace (an
 * exception object itself may not serialise).
 *
 * @param index      position in the driver's pending list
 * @param trialId    the trial's id
 * @param values     the row's values in column order, or null on failure
 * @param error      {@code ExceptionClass: message} of the failure (and of its root cause), or null
 * @param errorTrace the failure's stack trace, or null
 */
record TrialOutcome(
    int index,
    String trialId,
    LinkedHashMap<String, Object> values,
    String error,
    StackTraceElement[] errorTrace)
    implements Serializable {

  static TrialOutcome ok(int index, String trialId, ResultRow row) {
    return new TrialOutcome(index, trialId, new LinkedHashMap<>(row.values()), null, null);
  }

  static TrialOutcome failed(int index, String trialId, Throwable t) {
    Throwable root = t;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String text = t.toString() + (root == t ? "" : " (root cause " + root + ")");
    return new TrialOutcome(index, trialId, null, text, t.getStackTrace());
  }

  boolean isFailure() {
    return values == null;
  }

  /** The row, rebuilt on the driver. */
  ResultRow row() {
    ResultRow.Builder b = ResultRow.builder();
    for (Map.Entry<String, Object> e : values.entrySet()) {
      Object v = e.getValue();
      if (v instanceof Double d) {
        b.put(e.getKey(), d.doubleValue());
      } else if (v instanceof Long l) {
        b.put(e.getKey(), l.longValue());
      } else if (v instanceof String s) {
        b.put(e.getKey(), s);
      } else if (v instanceof Boolean z) {
        b.put(e.getKey(), z.booleanValue());
      } else if (v instanceof double[] a) {
        b.put(e.getKey(), a);
      } else {
        throw new IllegalStateException("trial " + trialId + ": value '" + e.getKey()
            + "' has unsupported type " + (v == null ? "null" : v.getClass().getName()));
      }
    }
    return b.build();
  }

  /** The failure, rebuilt on the driver with the executor's stack trace. */
  RemoteTrialException failure() {
    RemoteTrialException ex =
        new RemoteTrialException("trial " + trialId + " failed in a Spark task: " + error);
    if (errorTrace != null) {
      ex.setStackTrace(errorTrace);
    }
    return ex;
  }
}
