package org.approxgp.special;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/**
 * {@link Hypergeometric1F1} against {@code hyp1f1_negint.csv} (mpmath with adaptive precision).
 *
 * <p>Error measures (M = 1F1(−n; b; x), κ = |x M'(x)|/|M(x)|, the relative condition number of M with
 * respect to x, computed by mpmath):
 * <ul>
 *   <li>relative error |ΔM|/|M| on points with κ ≤ 10 ("not near a root"); budget 1e-12;</li>
 *   <li>on all points, the error scaled by the local sensitivity, |ΔM|/(|M| + |x M'(x)|): the error is
 *       no larger than that caused by perturbing x by the same relative amount. Near a root |M| → 0
 *       and a relative error is meaningless; there this is the absolute error in units of |x M'|;
 *       budget 1e-12. (We do not use Σ|terms| as the scale: it is what naive summation achieves, up
 *       to 1e7·|M| at (−30; ½; 10), and would hide exactly the failure the recurrence fixes.)</li>
 * </ul>
 * The log form is checked the same way on all points, via |expm1(Δ log|M|)| and the sign.
 */
class Hypergeometric1F1Test {

  @Test
  void table() {
    final ErrorStats relFar = new ErrorStats("hyp1f1_negint.csv rel, kappa<=10", 1e-12, 2e-16);
    final ErrorStats scaled = new ErrorStats("hyp1f1_negint.csv |d|/(|M|+|xM'|)", 1e-12, 1e-16);
    final ErrorStats logRelFar =
        new ErrorStats("hyp1f1_negint.csv log form rel, kappa<=10", 1e-12, 6e-16);
    final ErrorStats logScaled = new ErrorStats("hyp1f1_negint.csv log form scaled", 1e-12, 3e-16);
    final ErrorStats relAll = new ErrorStats(
        "hyp1f1_negint.csv rel, all points incl. near roots",
        1e-15,
        2.5e-16); // measured max 1.1e-16, RMS 4.7e-17
    int signErrors = 0;
    for (ReferenceTable.Row r : ReferenceTable.load("hyp1f1_negint.csv")) {
      final int n = r.i("n");
      final double b = r.d("b");
      final double x = r.d("x");
      final double logAbs = r.d("logabs");
      final int sign = r.i("sign");
      final BigDecimal m = r.big("value");
      final BigDecimal xdm = r.big("xdM");
      // κ = |xM'|/|M| from the decimal strings (values can exceed the double range)
      final double kappa = xdm.signum() == 0 ? 0.0 : Math.exp(logOf(xdm) - logAbs);
      if (Math.abs(logAbs) < 700) {
        final double got = Hypergeometric1F1.negativeInteger(n, b, x);
        final double diff = ReferenceTable.absDiff(got, m);
        if (kappa <= 10) {
          relFar.add(diff / m.abs().doubleValue(), r);
        }
        scaled.add(diff / (m.abs().doubleValue() + xdm.doubleValue()), r);
        relAll.add(diff / m.abs().doubleValue(), r);
      }
      final SignedLog g = Hypergeometric1F1.logNegativeInteger(n, b, x);
      if (g.sign() != sign) {
        signErrors++;
      }
      final double rel = Math.abs(Math.expm1(g.logAbs() - logAbs));
      if (kappa <= 10) {
        logRelFar.add(g.sign() == sign ? rel : Double.POSITIVE_INFINITY, r);
      }
      // sign may legitimately differ only where the error budget covers a sign change (|M| < 1e-12
      // |xM'|)
      logScaled.add(
          g.sign() == sign ? rel / (1 + kappa) : (1 + Math.exp(g.logAbs() - logAbs)) / (1 + kappa),
          r);
    }
    relFar.check();
    scaled.check();
    logRelFar.check();
    logScaled.check();
    relAll.check();
    assertEquals(0, signErrors, "sign errors");
  }

  private static double logOf(BigDecimal v) {
    // log of a positive decimal of any exponent: log(unscaled) − scale·log 10, via its leading
    // digits
    final BigDecimal a = v.abs();
    final int exp10 = a.precision() - a.scale() - 1;
    final double mant = a.movePointLeft(exp10).doubleValue();
    return Math.log(mant) + exp10 * Math.log(10.0);
  }

  @Test
  void naiveSumLosesDigitsRecurrenceDoesNot() {
    // 1F1(−30; ½; 10) = −146.6652092433409050873884988876...; the power sum cancels terms summing
    // to 6.8e12 in magnitude
    final double exact = -146.6652092433409050873884988876;
    double term = 1;
    double naive = 1;
    for (int k = 0; k < 30; k++) {
      term *= (-30.0 + k) / (0.5 + k) * 10.0 / (k + 1);
      naive += term;
    }
    assertTrue(
        Math.abs(naive - exact) / Math.abs(exact) > 1e-12, "naive sum unexpectedly accurate");
    assertEquals(exact, Hypergeometric1F1.negativeInteger(30, 0.5, 10.0), 1e-14 * 146.67);
  }

  @Test
  void smallCasesAndValidation() {
    assertEquals(1.0, Hypergeometric1F1.negativeInteger(0, 2.5, 7.0), 0.0);
    assertEquals(1 - 7.0 / 2.5, Hypergeometric1F1.negativeInteger(1, 2.5, 7.0), 1e-15);
    // 1F1(−2; b; x) = 1 − 2x/b + x²/(b(b+1))
    assertEquals(
        1 - 2 * 3.0 / 1.5 + 9.0 / (1.5 * 2.5),
        Hypergeometric1F1.negativeInteger(2, 1.5, 3.0),
        1e-15);
    // no overflow: n = 200, x = −5000
    final SignedLog big = Hypergeometric1F1.logNegativeInteger(200, 0.5, -5000);
    assertTrue(big.logAbs() > 710 && big.sign() == 1);
    assertEquals(Double.POSITIVE_INFINITY, Hypergeometric1F1.negativeInteger(200, 0.5, -5000));
    assertThrows(IllegalArgumentException.class, () -> Hypergeometric1F1.negativeInteger(-1, 1, 1));
    assertThrows(IllegalArgumentException.class, () -> Hypergeometric1F1.negativeInteger(3, 0, 1));
    assertThrows(
        IllegalArgumentException.class, () -> Hypergeometric1F1.negativeInteger(3, 1, Double.NaN));
  }
}
