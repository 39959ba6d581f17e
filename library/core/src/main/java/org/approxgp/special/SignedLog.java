package org.approxgp.special;

/**
 * A real number stored as {@code sign * exp(logAbs)}, so that magnitudes far outside the double
 * range (e.g. {@code 1F1(-200; 0.5; 5000)} ~ 10^740) can be carried and combined.
 *
 * <p>Invariant (enforced by the compact constructor): {@code sign} is one of {-1, 0, +1};
 * {@code sign == 0} if and only if {@code logAbs == -Infinity}. A NaN {@code logAbs} is rejected.
 *
 * @param logAbs natural logarithm of the absolute value
 * @param sign   sign of the value
 */
public record SignedLog(double logAbs, int sign) {

  /** The value zero. */
  public static final SignedLog ZERO = new SignedLog(Double.NEGATIVE_INFINITY, 0);
  /** The value one. */
  public static final SignedLog ONE = new SignedLog(0.0, 1);

  /** Validates and normalises: a zero sign forces {@code logAbs = -Inf} and vice versa. */
  public SignedLog {
    if (sign < -1 || sign > 1) {
      throw new IllegalArgumentException("sign must be -1, 0 or +1: " + sign);
    }
    if (Double.isNaN(logAbs)) {
      throw new IllegalArgumentException("logAbs is NaN");
    }
    if (sign == 0 || logAbs == Double.NEGATIVE_INFINITY) {
      sign = 0;
      logAbs = Double.NEGATIVE_INFINITY;
    }
  }

  /**
   * Represents an ordinary double.
   *
   * @param v the value (not NaN)
   * @return {@code (log|v|, signum v)}
   */
  public static SignedLog of(double v) {
    if (Double.isNaN(v)) {
      throw new IllegalArgumentException("value is NaN");
    }
    return new SignedLog(Math.log(Math.abs(v)), (int) Math.signum(v));
  }

  /**
   * The value as a double; overflows to ±Infinity and underflows to ±0 outside the double range.
   *
   * @return {@code sign * exp(logAbs)}
   */
  public double value() {
    return sign == 0 ? 0.0 : sign * Math.exp(logAbs);
  }

  /**
   * Product of two signed logs (exact apart from one rounding of the log sum).
   *
   * @param other the other factor
   * @return {@code this * other}
   */
  public SignedLog multiply(SignedLog other) {
    if (sign == 0 || other.sign == 0) {
      return ZERO;
    }
    return new SignedLog(logAbs + other.logAbs, sign * other.sign);
  }

  /**
   * Sum of two signed logs, see {@link LogSpace#signedSum(SignedLog...)}.
   *
   * @param other the other term
   * @return {@code this + other}
   */
  public SignedLog add(SignedLog other) {
    return LogSpace.signedSum(this, other);
  }

  /**
   * Negation.
   *
   * @return {@code -this}
   */
  public SignedLog negate() {
    return new SignedLog(logAbs, -sign);
  }
}
