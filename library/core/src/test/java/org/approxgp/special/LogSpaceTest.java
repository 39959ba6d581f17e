package org.approxgp.special;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link LogSpace} and {@link SignedLog}: closed-form cases, extremes, and the documented edge cases. */
class LogSpaceTest {

  @Test
  void logSumExp() {
    assertEquals(
        Math.log(6.0), LogSpace.logSumExp(new double[] {0.0, Math.log(2), Math.log(3)}), 1e-15);
    // no overflow: log(e^1000 + e^1000) = 1000 + log 2
    assertEquals(1000 + Math.log(2), LogSpace.logSumExp(new double[] {1000, 1000}), 1e-12);
    // no underflow: log(e^−1000 · 3)
    assertEquals(
        -1000 + Math.log(3), LogSpace.logSumExp(new double[] {-1000, -1000, -1000}), 1e-12);
    // tiny addend kept: log(1 + e^−40) = e^−40 (log1p variant)
    assertEquals(Math.exp(-40), LogSpace.logSumExp(new double[] {0.0, -40.0}), 1e-30);
    assertEquals(Double.NEGATIVE_INFINITY, LogSpace.logSumExp(new double[0]));
    assertEquals(
        Double.NEGATIVE_INFINITY,
        LogSpace.logSumExp(new double[] {Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY}));
    assertEquals(
        Double.POSITIVE_INFINITY, LogSpace.logSumExp(new double[] {1, Double.POSITIVE_INFINITY}));
    assertTrue(Double.isNaN(LogSpace.logSumExp(new double[] {1, Double.NaN})));
    assertTrue(Double.isNaN(LogSpace.logSumExp(new double[] {Double.NaN, 1})));
  }

  @Test
  void logAddExp() {
    assertEquals(Math.log(5.0), LogSpace.logAddExp(Math.log(2), Math.log(3)), 1e-15);
    assertEquals(800 + Math.log1p(Math.exp(-1)), LogSpace.logAddExp(799, 800), 1e-12);
    assertEquals(3.0, LogSpace.logAddExp(3.0, Double.NEGATIVE_INFINITY));
    assertEquals(
        Double.NEGATIVE_INFINITY,
        LogSpace.logAddExp(Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY));
  }

  @Test
  void log1mExp() {
    // x → 0⁻: log(1 − e^x) ≈ log(−x); at x = −1e−20 exactly log(1e−20) to rounding
    assertEquals(Math.log(1e-20), LogSpace.log1mExp(-1e-20), 1e-14 * 46.05);
    // x → −∞: log(1 − e^x) ≈ −e^x
    assertEquals(-Math.exp(-50), LogSpace.log1mExp(-50), 1e-15 * Math.exp(-50));
    // branch point −log 2: log(1 − ½) = −log 2
    assertEquals(-Math.log(2), LogSpace.log1mExp(-Math.log(2)), 1e-16);
    assertEquals(Double.NEGATIVE_INFINITY, LogSpace.log1mExp(0.0));
    assertEquals(0.0, LogSpace.log1mExp(Double.NEGATIVE_INFINITY), 0.0);
    assertTrue(Double.isNaN(LogSpace.log1mExp(0.1)));
    // log1pExp
    assertEquals(Math.log(2), LogSpace.log1pExp(0), 1e-16);
    assertEquals(800.0, LogSpace.log1pExp(800));
    assertEquals(Math.exp(-800), LogSpace.log1pExp(-800), 0.0);
  }

  @Test
  void signedSum() {
    // 5 − 3 = 2
    SignedLog s = LogSpace.signedSum(new double[] {Math.log(5), Math.log(3)}, new int[] {1, -1});
    assertEquals(1, s.sign());
    assertEquals(Math.log(2), s.logAbs(), 1e-15);
    // 3 − 5 = −2
    s = LogSpace.signedSum(SignedLog.of(3), SignedLog.of(-5));
    assertEquals(-1, s.sign());
    assertEquals(-2.0, s.value(), 1e-15);
    // exact cancellation gives zero
    assertEquals(SignedLog.ZERO, LogSpace.signedSum(SignedLog.of(7), SignedLog.of(-7)));
    // huge magnitudes: e^2000 − e^1999 = e^1999 (e − 1)
    s = LogSpace.signedSum(new double[] {2000, 1999}, new int[] {1, -1});
    assertEquals(1999 + Math.log(Math.E - 1), s.logAbs(), 1e-12);
    assertEquals(SignedLog.ZERO, LogSpace.signedSum());
    // products
    assertEquals(-6.0, SignedLog.of(2).multiply(SignedLog.of(-3)).value(), 1e-15);
    assertEquals(0.0, SignedLog.of(0).multiply(SignedLog.of(-3)).value());
    assertEquals(-2.5, SignedLog.of(2.5).negate().value(), 1e-15);
    assertEquals(5.0, SignedLog.of(2).add(SignedLog.of(3)).value(), 1e-15);
  }

  @Test
  void signedLogInvariants() {
    assertEquals(0, new SignedLog(Double.NEGATIVE_INFINITY, 1).sign());
    assertEquals(Double.NEGATIVE_INFINITY, new SignedLog(3.0, 0).logAbs());
    assertThrows(IllegalArgumentException.class, () -> new SignedLog(0.0, 2));
    assertThrows(IllegalArgumentException.class, () -> new SignedLog(Double.NaN, 1));
    assertThrows(IllegalArgumentException.class, () -> SignedLog.of(Double.NaN));
  }
}
