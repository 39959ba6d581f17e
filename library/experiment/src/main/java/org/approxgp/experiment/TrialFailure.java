package org.approxgp.experiment;

/**
 * A trial that threw: its key (the experiment's key record) and the exception. Failed trials are not
 * stored, so a rerun retries them.
 */
public record TrialFailure(Record key, Throwable cause) {
  @Override
  public String toString() {
    return TrialKeys.id(key) + ": " + cause;
  }
}
