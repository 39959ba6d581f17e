package org.approxgp.linalg;

import org.approxgp.special.NumericalException;

/** A Cholesky factorisation failed even after the jitter its {@link JitterPolicy} allowed. */
public final class NotPositiveDefiniteException extends NumericalException {
  private static final long serialVersionUID = 1L;
  private final double lastJitter;

  public NotPositiveDefiniteException(String message, double lastJitter) {
    super(message);
    this.lastJitter = lastJitter;
  }

  /** The largest jitter tried (0 if none was allowed). */
  public double lastJitter() {
    return lastJitter;
  }
}
