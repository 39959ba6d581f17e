package org.approxgp.experiment;

import java.util.Objects;

/**
 * Identifies one independent trial of an experiment: which method, which seed, which fold.
 * Use {@code fold = 0} and/or {@code method = "-"} when an experiment has no folds or methods.
 *
 * @param method name of the method (never blank, no line breaks)
 * @param seed   seed from which the trial derives all its randomness
 * @param fold   cross-validation fold or split index
 */
public record TrialKey(String method, long seed, int fold) {

  public TrialKey {
    Objects.requireNonNull(method, "method");
    if (method.isBlank() || method.contains("\n") || method.contains("\r")) {
      throw new IllegalArgumentException("method must be a non-blank single line: '" + method + "'");
    }
  }

  public static TrialKey of(String method, long seed, int fold) {
    return new TrialKey(method, seed, fold);
  }

  /** Stable identifier used in the results file, e.g. {@code method=ep;seed=3;fold=0}. */
  public String id() {
    return "method=" + method + ";seed=" + seed + ";fold=" + fold;
  }

  @Override
  public String toString() {
    return id();
  }
}
