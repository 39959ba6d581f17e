package org.approxgp.experiment;

import java.util.Objects;

/**
 * A ready-made trial key for experiments whose trials are exactly (method, seed, fold); experiments
 * with other coordinates declare their own key record (see {@link TrialKeys}).
 *
 * @param method name of the method (non-blank, one line, no {@code ;} or {@code =})
 * @param seed   seed from which the trial derives all its randomness
 * @param fold   cross-validation fold or split index
 */
public record TrialKey(String method, long seed, int fold) {

  public TrialKey {
    Objects.requireNonNull(method, "method");
    if (method.isBlank()
        || method.contains("\n")
        || method.contains("\r")
        || method.contains(";")
        || method.contains("=")) {
      throw new IllegalArgumentException(
          "method must be a non-blank single line without ';' or '=': '" + method + "'");
    }
  }

  public static TrialKey of(String method, long seed, int fold) {
    return new TrialKey(method, seed, fold);
  }

  /** Stable identifier used in the results file, e.g. {@code method=ep;seed=3;fold=0}. */
  public String id() {
    return TrialKeys.id(this);
  }

  @Override
  public String toString() {
    return id();
  }
}
