package org.approxgp.sparse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.approxgp.data.RegressionData;
import org.junit.jupiter.api.Test;

/**
 * {@link Vssgp}'s bound against an independent numpy implementation written from Gal &amp; Turner (2015, §4):
 * {@code library/cli/src/test/python/vssgp_bound_check.py} (E[φφᵀ] pairwise from product-to-sum identities, KL by the
 * general multivariate-normal formula, and the collapsed bound max over q(a) in closed form), whose
 * {@code --table} output at seeded random data and parameters is committed as {@code vssgp-bound-table.txt}
 * (regenerate: {@code python3 library/cli/src/test/python/vssgp_bound_check.py --table > …/vssgp-bound-table.txt}).
 */
class VssgpBoundTableTest {

  private record Case(int m, RegressionData data, double[] p, double[] expected) {}

  private static List<Case> cases() throws IOException {
    InputStream in = VssgpBoundTableTest.class.getResourceAsStream("vssgp-bound-table.txt");
    assertNotNull(in, "vssgp-bound-table.txt is missing from the test resources");
    List<Case> out = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        String[] h = line.trim().split("\\s+");
        assertEquals("case", h[0]);
        int m = Integer.parseInt(h[1]);
        int d = Integer.parseInt(h[2]);
        int n = Integer.parseInt(h[3]);
        double[][] x = new double[n][d];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
          double[] v = numbers(r.readLine());
          System.arraycopy(v, 0, x[i], 0, d);
          y[i] = v[d];
        }
        out.add(new Case(m, RegressionData.of(x, y), numbers(r.readLine()), numbers(r.readLine())));
      }
    }
    return out;
  }

  private static double[] numbers(String line) {
    String[] t = line.trim().split("\\s+");
    double[] v = new double[t.length];
    for (int i = 0; i < t.length; i++) {
      v[i] = Double.parseDouble(t[i]);
    }
    return v;
  }

  private static void close(double expected, double actual, String what) {
    assertEquals(expected, actual, 1e-9 * Math.max(1, Math.abs(expected)), what);
  }

  /** The bound and its three parts at the table's parameters, to 1e-9 (relative for values above 1). */
  @Test
  void boundMatchesTheIndependentImplementation() throws IOException {
    List<Case> cases = cases();
    assertEquals(3, cases.size());
    for (Case c : cases) {
      Vssgp.Bound b = Vssgp.evaluate(c.data(), null, c.m(), c.p(), null);
      close(c.expected()[0], b.value(), "bound, m = " + c.m());
      close(c.expected()[1], b.expectedLogLikelihood(), "expected log-likelihood, m = " + c.m());
      close(c.expected()[2], b.klFrequencies(), "KL(q(ω) ‖ p(ω)), m = " + c.m());
      close(c.expected()[3], b.klWeights(), "KL(q(a) ‖ p(a)), m = " + c.m());
    }
  }

  /**
   * With q(a) set to {@link Vssgp#optimalWeights} the bound equals the independent collapsed bound (max over
   * q(a) in closed form), and is above the bound at the table's (non-optimal) q(a).
   */
  @Test
  void optimalWeightsReachTheCollapsedBound() throws IOException {
    for (Case c : cases()) {
      double[] q = c.p().clone();
      Vssgp.optimalWeights(c.data(), null, c.m(), q);
      double v = Vssgp.evaluate(c.data(), null, c.m(), q, null).value();
      close(c.expected()[4], v, "collapsed bound, m = " + c.m());
      assertTrue(v > c.expected()[0], "the optimal q(a) must improve on the table's q(a)");
    }
  }
}
