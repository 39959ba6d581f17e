package org.approxgp.experiment;

import java.nio.file.Path;

/**
 * A stored-only run ({@link Runner#withStoredOnly}) found trials its store does not hold: the results it was to read
 * are incomplete, and it computed nothing.
 */
public final class MissingTrialsException extends IllegalStateException {

  private static final long serialVersionUID = 1L;

  private final int missing;

  public MissingTrialsException(String experiment, Path store, int missing, int total) {
    super(experiment + ": " + missing + " of " + total + " trials are not in "
        + ProjectPaths.shown(store) + " (a stored-only run computes nothing; run it without"
        + " --stored-only or APPROXGP_STORED_ONLY to compute them)");
    this.missing = missing;
  }

  /** How many trials the store lacks. */
  public int missing() {
    return missing;
  }
}
