package org.approxgp.likelihood;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link NoisyStep#powerTilted} at the extreme cavities of the reliability review (ε from 1e-6 to 0.49, cavity
 * means ±1e4, variances 1e-8 … 1e6, u ∈ (0, 1]) against {@code noisy-step/extreme.csv} (60-digit mpmath
 * quadrature of the defining integrals, {@code generate_extreme.py}), with {@link NoisyStepTest}'s budgets
 * (the rounding analysis of the closed form holds at any z; measured maxima printed), and finite moments with
 * a positive variance on a grid over the whole range.
 */
class NoisyStepExtremeTest {

  @Test
  void extremeTable() throws IOException {
    List<String[]> strings = NoisyStepTest.raw("extreme.csv");
    assertEquals(240, strings.size());
    NoisyStepTest.MaxError lz = new NoisyStepTest.MaxError();
    NoisyStepTest.MaxError mu = new NoisyStepTest.MaxError();
    NoisyStepTest.MaxError var = new NoisyStepTest.MaxError();
    for (String[] s : strings) {
      double[] r = Arrays.stream(s).mapToDouble(Double::parseDouble).toArray();
      double m = r[2];
      TiltedMoments t = NoisyStep.of(r[0]).powerTilted(r[1], m, r[3], r[4]);
      String row = Arrays.toString(Arrays.copyOf(r, 5));
      lz.add(r[5], t.logZ(), Math.max(1, Math.abs(r[5])), row);
      mu.add(r[6], t.mean(), Math.abs(m) + Math.abs(r[6] - m), row);
      var.add(r[7], t.variance(), r[7], row);
    }
    System.out.printf(
        "noisy-step extreme table (%d rows): max |dlogZ|/max(1,|logZ|) %.2e, max |dmean|/scale %.2e,"
            + " max |dvar|/var %.2e%n",
        strings.size(), lz.max, mu.max, var.max);
    assertTrue(lz.max <= 1e-14, "log Z: " + lz.max + " at " + lz.where);
    assertTrue(mu.max <= 1e-13, "mean: " + mu.max + " at " + mu.where);
    assertTrue(var.max <= 1e-12, "variance: " + var.max + " at " + var.where);
  }

  @Test
  void finiteEverywhere() {
    double[] eps = {1e-6, 1e-3, 0.1, 0.3, 0.49};
    double[] ms = {-1e4, -250, -7, -1e-3, 0, 1e-9, 0.5, 40, 1e4};
    double[] vs = {1e-8, 1e-4, 1, 1e3, 1e6};
    double[] us = {1e-4, 0.3, 0.8, 1};
    for (double e : eps) {
      NoisyStep lik = NoisyStep.of(e);
      for (double y : new double[] {1, -1}) {
        for (double m : ms) {
          for (double v : vs) {
            for (double u : us) {
              TiltedMoments t = lik.powerTilted(y, m, v, u);
              String at = "eps=" + e + " y=" + y + " m=" + m + " v=" + v + " u=" + u + ": " + t;
              assertTrue(Double.isFinite(t.logZ()) && t.logZ() <= 0, at);
              assertTrue(Double.isFinite(t.mean()), at);
              assertTrue(t.variance() > 0 && Double.isFinite(t.variance()), at);
            }
          }
        }
      }
    }
  }
}
