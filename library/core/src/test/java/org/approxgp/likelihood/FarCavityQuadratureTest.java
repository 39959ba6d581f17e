package org.approxgp.likelihood;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The default (quadrature) tilted moments when the likelihood pulls the mass far outside the cavity's ±12 sd: the
 * Poisson square link p(y | f) ∝ f^{2y} e^{−f²} against a cavity N(164, 4.4) puts the tilted mode near f = 17,
 * 70 cavity standard deviations away. The mode search used to stay inside the cavity's window, and the
 * moments came back NaN (found by the reliability sweep: Power EP, u ≈ 0.145).
 */
class FarCavityQuadratureTest {

  private static final PoissonSquareLink LIK = PoissonSquareLink.get();

  @ParameterizedTest(name = "m={0}")
  @ValueSource(doubles = {20, 164.2752741785656, 500})
  void quadratureAtPowerOneEqualsTheClosedForm(double m) {
    double v = 4.415599304862782;
    TiltedMoments exact = LIK.tilted(1.0, m, v);
    TiltedMoments quad = LikelihoodQuadrature.powerTilted(LIK, 1.0, m, v, 1.0);
    assertEquals(exact.logZ(), quad.logZ(), 1e-10 * Math.abs(exact.logZ()), "log Z");
    assertEquals(exact.mean(), quad.mean(), 1e-10 * Math.abs(exact.mean()), "mean");
    assertEquals(exact.variance(), quad.variance(), 1e-9 * exact.variance(), "variance");
  }

  /** At the sweep's failing point, against a plain trapezoid rule on a fine grid around the mode. */
  @Test
  void powerTiltedAtTheSweepsPoint() {
    double y = 1;
    double m = 164.2752741785656;
    double v = 4.415599304862782;
    double u = 0.14529780517327118;
    TiltedMoments t = LIK.powerTilted(y, m, v, u);
    // log N(f | m, v) + u log p(y | f) on [0, 200] (the mass is near f = m/(1 + 2uv) ≈ 72; f < 0
    // carries less than e^{−5000} of it)
    int n = 2_000_001;
    double lo = 0;
    double hi = 200;
    double h = (hi - lo) / (n - 1);
    double max = Double.NEGATIVE_INFINITY;
    double[] l = new double[n];
    for (int k = 0; k < n; k++) {
      double f = lo + k * h;
      l[k] = -0.5 * Math.log(2 * Math.PI * v)
          - (f - m) * (f - m) / (2 * v)
          + u * LIK.logDensity(y, f).value();
      max = Math.max(max, l[k]);
    }
    double z = 0;
    double s1 = 0;
    double s2 = 0;
    for (int k = 0; k < n; k++) {
      double f = lo + k * h;
      double w = (k == 0 || k == n - 1 ? 0.5 : 1) * Math.exp(l[k] - max);
      z += w;
      s1 += w * f;
      s2 += w * f * f;
    }
    double mean = s1 / z;
    assertEquals(max + Math.log(z * h), t.logZ(), 1e-9 * Math.abs(t.logZ()), "log Z");
    assertEquals(mean, t.mean(), 1e-9 * Math.abs(mean), "mean");
    assertEquals(s2 / z - mean * mean, t.variance(), 1e-6 * t.variance(), "variance");
  }
}
