package org.approxgp.likelihood;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.function.DoubleUnaryOperator;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.approxgp.special.Normal;
import org.approxgp.special.Quadrature;
import org.junit.jupiter.api.Test;

/**
 * Probit's variational expectation (Gauss–Hermite tiers for √v ≤ 2, else one adaptive partition shared by
 * E[log Φ(yf)], ∂/∂m and ∂/∂v) against
 * three independent adaptive quadratures at a tighter tolerance — the method it replaced: each integral
 * ∫ φ(t) h(m + √v t) dt by {@link Quadrature} over (−∞, a], [a, b], [b, ∞), a, b = min, max(−m/√v, 0), with
 * relative tolerance 1e-14 and [a, b] further split at ±1, ±2, ..., ±32 so that the peak of φ is sampled when
 * −m/√v is far away. Agreement to 2e-12 relative on a seeded sample of (y, m, v) over v ∈ [1e-6, 1e5], and the
 * exact limits at v = 0 and v → 0.
 */
class ProbitVariationalExpectationTest {
  private static final Probit P = Probit.get();

  private static double reference(double y, double m, double v, DoubleUnaryOperator h) {
    double s = Math.sqrt(v);
    DoubleUnaryOperator g = t -> Normal.pdf(t) * h.applyAsDouble(y * (m + s * t));
    double t0 = -m / s;
    double a = Math.min(t0, 0);
    double b = Math.max(t0, 0);
    double sum = Quadrature.integrate(g, Double.NEGATIVE_INFINITY, a, 0, 1e-14).value()
        + Quadrature.integrate(g, b, Double.POSITIVE_INFINITY, 0, 1e-14).value();
    double[] pts = {-32, -16, -8, -4, -2, -1, 1, 2, 4, 8, 16, 32};
    if (b > a) {
      sum += Quadrature.integrate(g, a, b, 0, 1e-14, pts).value();
    }
    return sum;
  }

  @Test
  void equalsSeparateQuadraturesOfEachIntegral() {
    UniformRandomProvider rng = RandomSource.SPLIT_MIX_64.create(2024);
    for (int i = 0; i < 100; i++) {
      double y = rng.nextBoolean() ? 1 : -1;
      double m = 12 * (rng.nextDouble() - 0.5);
      double v = Math.pow(10, -6 + 11 * rng.nextDouble());
      VariationalExpectation e = P.variationalExpectation(y, m, v);
      double value = reference(y, m, v, Normal::logCdf);
      double dm = y * reference(y, m, v, Normal::ratio);
      double dv = -0.5 * reference(y, m, v, z -> Normal.ratio(z) * Probit.zPlusRatio(z));
      String at = "y=" + y + " m=" + m + " v=" + v;
      assertEquals(value, e.value(), 2e-12 * Math.abs(value), "value " + at);
      assertEquals(dm, e.dMean(), 2e-12 * Math.abs(dm), "dMean " + at);
      assertEquals(dv, e.dVariance(), 2e-12 * Math.abs(dv), "dVariance " + at);
    }
  }

  /**
   * The Gauss–Hermite tiers (√v ≤ 2, y m √v/(1 + v) ≤ 4; 64, 128 or 200 points) against the same reference, on
   * a seeded sample that covers them, their boundaries and m up to ±30 (E[log Φ] down to 1e-200 and below).
   */
  @Test
  void gaussHermiteTiersEqualSeparateQuadratures() {
    UniformRandomProvider rng = RandomSource.SPLIT_MIX_64.create(77);
    for (int i = 0; i < 80; i++) {
      double y = rng.nextBoolean() ? 1 : -1;
      double s = i < 6
          ? new double[] {1.0, 1.0000001, 1.5, 1.5000001, 2.0, 2.0000001}[i]
          : 2.1 * rng.nextDouble();
      double m = 60 * (rng.nextDouble() - 0.5);
      double v = s * s;
      VariationalExpectation e = P.variationalExpectation(y, m, v);
      double[] got = {e.value(), e.dMean(), e.dVariance()};
      double[] ref = {
        reference(y, m, v, Normal::logCdf),
        y * reference(y, m, v, Normal::ratio),
        -0.5 * reference(y, m, v, z -> Normal.ratio(z) * Probit.zPlusRatio(z))
      };
      for (int c = 0; c < 3; c++) {
        assertEquals(
            ref[c],
            got[c],
            2e-12 * Math.max(Math.abs(ref[c]), 1e-280),
            "quantity " + c + " at y=" + y + " m=" + m + " √v=" + s);
      }
    }
  }

  /**
   * v = 0: log Φ(ym), y r(ym), −½ r(ym) d(ym) exactly. Tiny v far from the kink (|m|/√v ≥ 7e4, where a single
   * coarse piece between the kink and 0 would miss the peak of φ and return half the integral): the
   * second-order expansion E ≈ log Φ(z) − ½ v r(z) d(z), z = ym, to 1e-12 (its next term is O(v² z³ φ(z))).
   */
  @Test
  void limitsAtZeroAndTinyVariance() {
    for (double y : new double[] {-1, 1}) {
      for (double m : new double[] {-30, -3, -0.7, 0.7, 3, 12}) {
        double z = y * m;
        double r = Normal.ratio(z);
        double d = Probit.zPlusRatio(z);
        VariationalExpectation e0 = P.variationalExpectation(y, m, 0);
        assertEquals(Normal.logCdf(z), e0.value(), 0);
        assertEquals(y * r, e0.dMean(), 0);
        assertEquals(-0.5 * r * d, e0.dVariance(), 0);
        double v = 1e-10;
        VariationalExpectation e = P.variationalExpectation(y, m, v);
        double expected = Normal.logCdf(z) - 0.5 * v * r * d;
        assertEquals(expected, e.value(), 1e-12 * Math.abs(expected), "y=" + y + " m=" + m);
      }
    }
  }
}
