package org.approxgp.likelihood;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link Probit#tiltedCdf} (closed form via Owen's T, appendix C.1) against adaptive quadrature of the
 * tilted density ({@link LikelihoodQuadrature#tiltedCdf}), its special cases (eq. 47–49) and
 * its symmetries.
 */
class ProbitTiltedCdfTest {
  private static final Probit P = Probit.get();

  static List<Arguments> grid() {
    List<Arguments> out = new ArrayList<>();
    double[] means = {-12, -6, -2.5, -0.3, 0, 0.8, 3, 9};
    double[] variances = {0.01, 0.3, 1, 4, 100};
    for (double y : new double[] {1, -1}) {
      for (double m : means) {
        for (double v : variances) {
          out.add(Arguments.of(y, m, v));
        }
      }
    }
    return out;
  }

  /**
   * On a grid of cavities and x from the far left to the far right tail (in units of the tilted sd):
   * the smaller tail min(F, 1 − F) to 1e-9 relative (where the reference tail is above 1e-280, i.e.
   * where quadrature of the density still resolves it) and F itself to 2e-13 absolute (both methods
   * reach ~1e-13 when Φ(b) is tiny: the reference by adaptive quadrature at 1e-13, the closed form by
   * its Gauss–Laguerre fallback).
   */
  @ParameterizedTest(name = "y={0} m={1} v={2}")
  @MethodSource("grid")
  void matchesQuadratureIncludingFarTails(double y, double m, double v) {
    TiltedMoments t = P.tilted(y, m, v);
    double sd = Math.sqrt(t.variance());
    double[] offsets = {-40, -20, -9, -4, -1.5, -0.2, 0, 0.2, 1.5, 4, 9, 20, 40};
    for (double d : offsets) {
      double x = t.mean() + d * sd;
      double f = P.tiltedCdf(y, m, v, x);
      double q = LikelihoodQuadrature.tiltedCdf(P, y, m, v, x);
      String at = "y=" + y + " m=" + m + " v=" + v + " x=" + x;
      assertTrue(f >= 0 && f <= 1, "F outside [0,1] at " + at + ": " + f);
      assertEquals(q, f, 2e-13, "absolute, " + at);
      double tailQ = Math.min(q, 1 - q);
      if (tailQ > 1e-280 && q < 0.5) {
        assertEquals(q, f, 1e-9 * q, "relative lower tail, " + at);
      }
    }
  }

  /** Upper tails keep relative accuracy through the symmetry F₋(x; m) = 1 − F₊(−x; −m). */
  @ParameterizedTest(name = "y={0} m={1} v={2}")
  @MethodSource("grid")
  void upperTailsByReflection(double y, double m, double v) {
    TiltedMoments t = P.tilted(y, m, v);
    double sd = Math.sqrt(t.variance());
    for (double d : new double[] {2, 6, 15, 35}) {
      double x = t.mean() + d * sd;
      // 1 − F_y(x; m) = F_{−y}(−x; −m), the latter computed as a lower tail
      double upper = P.tiltedCdf(-y, -m, v, -x);
      double ref = LikelihoodQuadrature.tiltedCdf(P, -y, -m, v, -x);
      if (ref > 1e-280) {
        assertEquals(
            ref, upper, 1e-9 * ref, "upper tail at y=" + y + " m=" + m + " v=" + v + " x=" + x);
      }
      assertEquals(1 - upper, P.tiltedCdf(y, m, v, x), 1e-15);
    }
  }

  /** eq. 49: x = μ = 0 gives F = ½ − (y/π) atan σ. */
  @Test
  void specialCaseBothZero() {
    for (double v : new double[] {1e-4, 0.5, 1, 7, 400}) {
      for (double y : new double[] {1, -1}) {
        assertEquals(0.5 - y / Math.PI * Math.atan(Math.sqrt(v)), P.tiltedCdf(y, 0, v, 0), 1e-15);
      }
    }
  }

  /** eq. 47 (x = μ ≠ 0) and eq. 48 (μ = 0, x ≠ μ) are limits of the general formula: no jump there. */
  @Test
  void specialCasesAreContinuous() {
    for (double y : new double[] {1, -1}) {
      for (double v : new double[] {0.2, 3}) {
        for (double m : new double[] {-2, 0.7}) {
          double at = P.tiltedCdf(y, m, v, m);
          assertEquals(LikelihoodQuadrature.tiltedCdf(P, y, m, v, m), at, 1e-13);
          assertEquals(at, P.tiltedCdf(y, m, v, m + 1e-9), 1e-8);
          assertEquals(at, P.tiltedCdf(y, m, v, m - 1e-9), 1e-8);
        }
        for (double x : new double[] {-1.3, 0.4}) {
          double at = P.tiltedCdf(y, 0, v, x);
          assertEquals(LikelihoodQuadrature.tiltedCdf(P, y, 0, v, x), at, 1e-13);
          assertEquals(at, P.tiltedCdf(y, 1e-12, v, x), 1e-10);
          assertEquals(at, P.tiltedCdf(y, -1e-12, v, x), 1e-10);
        }
      }
    }
  }

  /** Monotone in x, 0 and 1 at ±∞, and the median of a symmetric case. */
  @Test
  void monotoneAndLimits() {
    assertEquals(0, P.tiltedCdf(1, 0.3, 2, Double.NEGATIVE_INFINITY));
    assertEquals(1, P.tiltedCdf(1, 0.3, 2, Double.POSITIVE_INFINITY));
    for (double y : new double[] {1, -1}) {
      double prev = 0;
      for (double x = -60; x <= 60; x += 0.05) {
        double f = P.tiltedCdf(y, -4, 9, x);
        assertTrue(f >= prev - 1e-16, "not monotone at x=" + x);
        prev = f;
      }
      assertEquals(1, prev, 1e-15);
    }
  }

  /** The bivariate-normal cross-check: F = Φ₂(a, b; ρ)/Φ(b) with the special branch's BivariateNormal. */
  @Test
  void agreesWithBivariateNormalInTheBody() {
    for (double y : new double[] {1, -1}) {
      for (double m : new double[] {-1.5, 0.2, 2}) {
        for (double v : new double[] {0.5, 4}) {
          for (double x : new double[] {-2, -0.5, 0.3, 1.7}) {
            double a = (x - m) / Math.sqrt(v);
            double b = y * m / Math.sqrt(1 + v);
            double rho = -y * Math.sqrt(v / (1 + v));
            double ref = org.approxgp.special.BivariateNormal.cdf(a, b, rho)
                / org.approxgp.special.Normal.cdf(b);
            assertEquals(
                ref, P.tiltedCdf(y, m, v, x), 1e-13, "y=" + y + " m=" + m + " v=" + v + " x=" + x);
          }
        }
      }
    }
  }
}
