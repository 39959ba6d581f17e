package org.approxgp.special;

/**
 * A numerical computation could not produce a usable value: an integral that did not converge, a
 * factorisation of a matrix that is not positive definite, a non-finite intermediate. The one base
 * type for numerical failure in every layer; {@code org.approxgp.inference.InferenceException}
 * extends it with the run's diagnostics. Programming errors (bad arguments) are
 * {@link IllegalArgumentException}s and are never caught as numerical failures.
 */
public class NumericalException extends ArithmeticException {
  private static final long serialVersionUID = 1L;

  public NumericalException(String message) {
    super(message);
  }

  public NumericalException(String message, Throwable cause) {
    super(message);
    initCause(cause);
  }
}
