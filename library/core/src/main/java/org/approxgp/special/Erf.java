package org.approxgp.special;

/**
 * Error function family: {@code erf}, {@code erfc}, the scaled complement {@code erfcx(x) =
 * exp(x²) erfc(x)}, and the inverses {@code erfinv}, {@code erfcinv}.
 *
 * <p>A thin facade over Apache Commons Numbers 1.3 ({@code org.apache.commons.numbers.gamma.Erf},
 * {@code Erfc}, {@code Erfcx}, {@code InverseErf}, {@code InverseErfc}), which implement the
 * rational minimax approximations of the Boost C++ Math library (J. Maddock et al., "Boost.Math:
 * Error Functions" and "Error Function Inverses"), themselves in the line of W. J. Cody (1969),
 * "Rational Chebyshev approximations for the error function", Math. Comp. 23, 631–637. The accuracy
 * claimed here is what this package's tests measure against mpmath (see {@code ErfTest}).
 *
 * <p>Definitions (Abramowitz &amp; Stegun 7.1.1, 7.1.2): {@code erf(x) = 2/√π ∫_0^x e^{−t²} dt},
 * {@code erfc(x) = 1 − erf(x)}.
 */
public final class Erf {

  private Erf() {}

  /**
   * The error function.
   *
   * @param x argument
   * @return {@code erf(x)}
   */
  public static double erf(double x) {
    return org.apache.commons.numbers.gamma.Erf.value(x);
  }

  /**
   * The complementary error function, with full relative accuracy for large positive x
   * (until underflow near x = 26.5).
   *
   * @param x argument
   * @return {@code erfc(x)}
   */
  public static double erfc(double x) {
    return org.apache.commons.numbers.gamma.Erfc.value(x);
  }

  /**
   * The scaled complementary error function {@code erfcx(x) = exp(x²) erfc(x)}; for large x it
   * behaves as {@code 1/(x√π)}, so it never underflows for positive x. Overflows for
   * x below about −26.6.
   *
   * @param x argument
   * @return {@code exp(x²) erfc(x)}
   */
  public static double erfcx(double x) {
    return org.apache.commons.numbers.gamma.Erfcx.value(x);
  }

  /**
   * The inverse error function on (−1, 1); ±Infinity at ±1, NaN outside [−1, 1]. Arguments near
   * ±1 are accurate because {@code 1 − |x|} is exact there (Sterbenz).
   *
   * @param x argument in [−1, 1]
   * @return y with {@code erf(y) = x}
   */
  public static double erfinv(double x) {
    return org.apache.commons.numbers.gamma.InverseErf.value(x);
  }

  /**
   * The inverse complementary error function on (0, 2), accurate down to the smallest subnormal.
   *
   * @param x argument in [0, 2]
   * @return y with {@code erfc(y) = x}
   */
  public static double erfcinv(double x) {
    return org.apache.commons.numbers.gamma.InverseErfc.value(x);
  }
}
