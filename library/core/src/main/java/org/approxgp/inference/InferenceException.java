package org.approxgp.inference;

import org.approxgp.special.NumericalException;

/** An inference run failed (a non-finite value, a failed factorisation); carries its diagnostics. */
public final class InferenceException extends NumericalException {
  private static final long serialVersionUID = 1L;
  private final transient Diagnostics diagnostics;

  public InferenceException(String message, Diagnostics diagnostics, Throwable cause) {
    super(message + " [" + diagnostics + "]", cause);
    this.diagnostics = diagnostics;
  }

  public Diagnostics diagnostics() {
    return diagnostics;
  }
}
