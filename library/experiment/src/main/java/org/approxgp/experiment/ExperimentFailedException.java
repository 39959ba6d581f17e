package org.approxgp.experiment;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Thrown by {@link Runner#run} when trials failed. The message names every failed trial; the
 * successful rows are already in the results file and are available from {@link #partial()}.
 */
public final class ExperimentFailedException extends RuntimeException {

  private final transient List<TrialFailure> failures;
  private final transient Results<?> partial;

  ExperimentFailedException(String experiment, List<TrialFailure> failures, Results<?> partial) {
    super(
        failures.size() + " trial(s) of " + experiment + " failed:\n  "
            + failures.stream().map(TrialFailure::toString).collect(Collectors.joining("\n  ")),
        failures.get(0).cause());
    failures.stream().skip(1).forEach(f -> addSuppressed(f.cause()));
    this.failures = List.copyOf(failures);
    this.partial = partial;
  }

  public List<TrialFailure> failures() {
    return failures;
  }

  /** The rows that did finish (stored, and reused by the next run). */
  public Results<?> partial() {
    return partial;
  }
}
