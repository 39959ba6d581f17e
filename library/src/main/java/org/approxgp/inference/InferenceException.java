package org.approxgp.inference;

/** An inference run failed (a non-finite value, a failed factorisation); carries its diagnostics. */
public final class InferenceException extends RuntimeException {
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
