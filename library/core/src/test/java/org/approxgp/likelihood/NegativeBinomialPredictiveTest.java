package org.approxgp.likelihood;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.approxgp.special.Gammas;
import org.approxgp.special.Quadrature;
import org.junit.jupiter.api.Test;

class NegativeBinomialPredictiveTest {
  private static final double[][] CASES = {
    {1, 0.26}, {0.3, 0.05}, {-2, 0.5}, {0, 1}, {1.5, 1e-8}, {4, 3}, {0.1, 2}
  };

  @Test
  void pmfSumsToOneAndHasTheMatchedMean() {
    for (double[] c : CASES) {
      NegativeBinomialPredictive nb = NegativeBinomialPredictive.of(c[0], c[1]);
      double s = 0;
      double mean = 0;
      double second = 0;
      for (int y = 0; y < 20000; y++) {
        double p = Math.exp(nb.logPmf(y));
        s += p;
        mean += y * p;
        second += (double) y * y * p;
      }
      assertEquals(1.0, s, 1e-12, nb.toString());
      // eq. 119: E[y*] = E[g*] = μ² + σ²; Var[y*] = E[g*] + Var[g*] = μ²+σ² + 2σ²(σ² + 2μ²)
      double eg = c[0] * c[0] + c[1];
      assertEquals(eg, mean, 1e-10 * (1 + eg), nb.toString());
      assertEquals(eg, nb.mean(), 1e-12 * (1 + eg));
      double vg = 2 * c[1] * (c[1] + 2 * c[0] * c[0]);
      assertEquals(eg + vg, second - mean * mean, 1e-8 * (1 + eg + vg), nb.toString());
      assertEquals(eg + vg, nb.variance(), 1e-12 * (1 + eg + vg));
    }
  }

  @Test
  void pmfEqualsGammaPoissonMixtureByQuadrature() {
    for (double[] c : CASES) {
      NegativeBinomialPredictive nb = NegativeBinomialPredictive.of(c[0], c[1]);
      double k = nb.shape();
      double sc = nb.scale();
      for (int y : new int[] {0, 1, 3, 7}) {
        // eq. 120-121: ∫ Gamma(g | k, c) Poisson(y | g) dg
        java.util.function.DoubleUnaryOperator f = g -> Math.exp((k - 1) * Math.log(g)
            - g / sc
            - Gammas.logGamma(k)
            - k * Math.log(sc)
            + y * Math.log(g)
            - g
            - Gammas.logGamma(y + 1.0));
        double mode = Math.max(1e-300, (k - 1 + y) / (1 / sc + 1));
        double q = Quadrature.integrate(f, 0, mode, 0, 1e-13).value()
            + Quadrature.integrate(f, mode, Double.POSITIVE_INFINITY, 0, 1e-13).value();
        // the reference itself loses digits (k log c ~ 1e9) for huge shapes; those are covered by
        // the Poisson limit test
        if (q > 1e-250 && k < 1e6) {
          assertEquals(Math.log(q), nb.logPmf(y), 1e-8, nb + " y=" + y);
        }
      }
    }
  }

  @Test
  void modeIsTheArgmaxOfThePmf() {
    for (double[] c : CASES) {
      NegativeBinomialPredictive nb = NegativeBinomialPredictive.of(c[0], c[1]);
      int best = 0;
      for (int y = 1; y < 1000; y++) {
        if (nb.logPmf(y) > nb.logPmf(best) + 1e-12) {
          best = y;
        }
      }
      // ⌊c(k − 1)⌋ is a mode; with c(k−1) an integer, y−1 ties with it
      int mode = (int) nb.mode();
      assertTrue(
          Math.abs(nb.logPmf(mode) - nb.logPmf(best)) < 1e-12,
          nb + ": mode " + mode + " vs argmax " + best);
      assertTrue(mode <= nb.mean() + 1, "mode ≤ mean + 1");
    }
    assertEquals(0, NegativeBinomialPredictive.of(0.1, 2).mode()); // k < 1
  }

  @Test
  void poissonLimitAndLargeShape() {
    NegativeBinomialPredictive p = NegativeBinomialPredictive.of(2, 0);
    assertEquals(3 * Math.log(4) - 4 - Math.log(6), p.logPmf(3), 1e-14);
    assertEquals(4, p.mode());
    // k huge (σ tiny): converges to Poisson(μ²) without cancellation
    NegativeBinomialPredictive nb = NegativeBinomialPredictive.of(2, 1e-12);
    assertEquals(p.logPmf(3), nb.logPmf(3), 1e-9);
    assertThrows(IllegalArgumentException.class, () -> NegativeBinomialPredictive.of(0, 0));
    assertThrows(IllegalArgumentException.class, () -> NegativeBinomialPredictive.of(1, -1));
    assertThrows(IllegalArgumentException.class, () -> nb.logPmf(1.5));
  }
}
