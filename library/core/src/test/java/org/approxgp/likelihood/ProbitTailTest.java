package org.approxgp.likelihood;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Probit tilted moments for |z| from 5.5 to 1e5 against 60-digit mpmath values
 * ({@code likelihood/probit-tails.txt}): where z and N/Φ nearly cancel in the variance, the
 * continued fraction keeps the digits.
 */
class ProbitTailTest {

  @Test
  void farTailsKeepTheirDigits() throws Exception {
    List<String> rows;
    try (BufferedReader r = new BufferedReader(new InputStreamReader(
        getClass().getResourceAsStream("/likelihood/probit-tails.txt"), StandardCharsets.UTF_8))) {
      rows = r.lines().filter(l -> !l.startsWith("#") && !l.isBlank()).toList();
    }
    assertTrue(rows.size() >= 60);
    double worstLogZ = 0;
    double worstMean = 0;
    double worstVar = 0;
    for (String row : rows) {
      double[] v = java.util.Arrays.stream(row.trim().split(" "))
          .mapToDouble(Double::parseDouble)
          .toArray();
      TiltedMoments t = Probit.get().tilted(v[0], v[1], v[2]);
      worstLogZ = Math.max(worstLogZ, Math.abs(t.logZ() - v[3]) / Math.max(1e-300, Math.abs(v[3])));
      worstMean = Math.max(
          worstMean, Math.abs(t.mean() - v[4]) / Math.max(Math.sqrt(v[2]), Math.abs(v[4])));
      worstVar = Math.max(worstVar, Math.abs(t.variance() - v[5]) / v[5]);
      assertTrue(t.variance() > 0, row);
    }
    assertTrue(worstLogZ < 1e-13, "log Z relative error " + worstLogZ);
    // mean relative to max(|mean|, cavity sd): |m| reaches 1e6 with O(1) corrections
    assertTrue(worstMean < 1e-12, "mean error " + worstMean);
    assertTrue(worstVar < 1e-9, "variance relative error " + worstVar);
    System.out.printf(
        "probit tails: log Z %.2e, mean %.2e, variance %.2e%n", worstLogZ, worstMean, worstVar);
  }

  /**
   * The continued fraction of z + N(z)/Φ(z) below z = −6 at its x-dependent depth ({@link Probit#cfDepth})
   * equals the full depth's value bit for bit: on a grid of 10⁶ points over [6, 100), 10⁵ over [100, 1e6) in
   * log x, and at each interval's ends. A depth cut one level too far fails this.
   */
  @Test
  void continuedFractionDepthLosesNoBit() {
    for (int i = 0; i < 1_000_000; i++) {
      double x = 6 + 94.0 * i / 1_000_000;
      assertEquals(
          Probit.continuedFraction(x, Probit.CF_FULL_DEPTH),
          Probit.continuedFraction(x, Probit.cfDepth(x)),
          0,
          "x=" + x);
    }
    for (int i = 0; i <= 100_000; i++) {
      double x = 100 * Math.pow(1e4, i / 100_000.0);
      assertEquals(
          Probit.continuedFraction(x, Probit.CF_FULL_DEPTH),
          Probit.continuedFraction(x, Probit.cfDepth(x)),
          0,
          "x=" + x);
    }
    for (double x : new double[] {8, 10, 14, 20, 30, 60, 100}) {
      for (double e : new double[] {Math.nextDown(x), x}) {
        assertEquals(
            Probit.continuedFraction(e, Probit.CF_FULL_DEPTH),
            Probit.continuedFraction(e, Probit.cfDepth(e)),
            0,
            "x=" + e);
      }
    }
  }
}
