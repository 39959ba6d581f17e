package org.approxgp.linalg;

import org.approxgp.special.NumericalException;

/** An LU factorisation met an exactly zero pivot: the matrix is singular ({@link Matrix#luSolve}). */
public final class SingularMatrixException extends NumericalException {
  private static final long serialVersionUID = 1L;

  public SingularMatrixException(String message) {
    super(message);
  }
}
