package org.approxgp.experiment;

/** A trial that threw: its key and the exception. Failed trials are not stored, so a rerun retries them. */
public record TrialFailure(TrialKey key, Throwable cause) {
  @Override
  public String toString() {
    return key.id() + ": " + cause;
  }
}
