package org.approxgp.likelihood;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import org.approxgp.projection.W2Projection;
import org.approxgp.special.Normal;
import org.junit.jupiter.api.Test;

/**
 * {@link NoisyStep} against the 60-digit mpmath tables in {@code src/test/resources/likelihood/noisy-step/}
 * (README there: made by direct quadrature of the tilted density, not by the closed forms; 30 significant
 * digits written, so the references are exact to double precision). Inputs are parsed to the nearest double,
 * a relative perturbation of ≤ 1.1e-16 in m and v.
 *
 * <p>Error budgets (each the rounding analysis of the closed form in {@link NoisyStep}'s class comment, with a
 * safety factor of about 10 over the measured maximum, printed by each test):
 * <ul>
 *   <li>log Z = max + log1p(e^{min − max}) of two logarithms, each within a few ulp of its own size (log Φ has
 *       relative accuracy ~1e-15 down to z = −1e5): |Δ| ≤ 1e-14 · max(1, |log Z|);</li>
 *   <li>mean = m + y s·sα, sα = λ w₁ with λ and w₁ each within ~1e-15 relative (w₁ = exp(log B − log Z), whose
 *       exponent carries an absolute error ~u·|log B|): |Δ| ≤ 1e-13 · (|m| + |mean − m|), the size of the two
 *       summands (the mean itself may cancel to nearly 0);</li>
 *   <li>variance = v · (non-negative terms), the truncated-normal term 1 − λδ losing at most ~1.5 digits just
 *       above the continued-fraction switch z = −6: |Δ| ≤ 1e-12 · variance;</li>
 *   <li>CDF F = lower/(lower + upper) from sums of non-negative normal masses, the smaller tail computed directly:
 *       |Δ| ≤ 1e-12 · min(F, 1 − F) except where a mass P(t₀ &lt; T ≤ t) is a difference of two tails (x just past
 *       the jump), where the budget is 1e-12 · (the tail mass subtracted), see {@link #cdfTable()}.</li>
 * </ul>
 */
public class NoisyStepTest {

  /** The data rows of a table as decimal strings (header and # lines dropped). */
  public static List<String[]> raw(String name) throws IOException {
    return ReferenceTable.raw("/likelihood/noisy-step/" + name);
  }

  static List<double[]> table(String name) throws IOException {
    return ReferenceTable.numbers("/likelihood/noisy-step/" + name);
  }

  /** Max of |Δ|/scale over a table, with the row where it occurs. */
  static final class MaxError {
    double max;
    String where = "";

    void add(double expected, double actual, double scale, String row) {
      double e = Math.abs(expected - actual) / scale;
      if (!(e <= max)) {
        max = Double.isNaN(e) ? Double.POSITIVE_INFINITY : e;
        where = row + " expected " + expected + " got " + actual;
      }
    }
  }

  static void checkMoments(List<double[]> rows, boolean power) {
    MaxError lz = new MaxError();
    MaxError mu = new MaxError();
    MaxError var = new MaxError();
    int c = power ? 5 : 4;
    for (double[] r : rows) {
      NoisyStep lik = NoisyStep.of(r[0]);
      double y = r[1];
      double m = r[2];
      double v = r[3];
      TiltedMoments t = power ? lik.powerTilted(y, m, v, r[4]) : lik.tilted(y, m, v);
      String row = java.util.Arrays.toString(java.util.Arrays.copyOf(r, c));
      lz.add(r[c], t.logZ(), Math.max(1, Math.abs(r[c])), row);
      mu.add(r[c + 1], t.mean(), Math.abs(m) + Math.abs(r[c + 1] - m), row);
      var.add(r[c + 2], t.variance(), r[c + 2], row);
      if (!power) {
        assertEquals(
            r[c],
            lik.logPredictive(y, m, v),
            1e-14 * Math.max(1, Math.abs(r[c])),
            "log predictive " + row);
        assertEquals(
            r[c],
            lik.predictive(m, v).logDensity(y),
            1e-14 * Math.max(1, Math.abs(r[c])),
            "predictive log density " + row);
      }
    }
    System.out.printf(
        "noisy-step %s table (%d rows): max |dlogZ|/max(1,|logZ|) %.2e, max |dmean|/scale %.2e,"
            + " max |dvar|/var %.2e%n",
        power ? "power-tilted" : "tilted", rows.size(), lz.max, mu.max, var.max);
    assertTrue(lz.max <= 1e-14, "log Z: " + lz.max + " at " + lz.where);
    assertTrue(mu.max <= 1e-13, "mean: " + mu.max + " at " + mu.where);
    assertTrue(var.max <= 1e-12, "variance: " + var.max + " at " + var.where);
  }

  @Test
  void tiltedTable() throws IOException {
    List<double[]> rows = table("tilted.csv");
    assertEquals(336, rows.size());
    checkMoments(rows, false);
  }

  @Test
  void powerTiltedTable() throws IOException {
    List<double[]> rows = table("power-tilted.csv");
    assertEquals(392, rows.size());
    checkMoments(rows, true);
  }

  @Test
  void cdfTable() throws IOException {
    List<String[]> strings = raw("cdf.csv");
    assertEquals(490, strings.size());
    MaxError e = new MaxError();
    for (String[] str : strings) {
      double[] r = java.util.Arrays.stream(str).mapToDouble(Double::parseDouble).toArray();
      NoisyStep lik = NoisyStep.of(r[0]);
      double f = lik.tiltedCdf(r[1], r[2], r[3], r[4]);
      assertTrue(f >= 0 && f <= 1);
      // the smaller tail in relative terms: 1 − F_y(x; m) = F_{−y}(−x; −m) (f → −f), computed as a
      // lower tail
      boolean lower = r[5] <= 0.5;
      double tail = lower ? f : lik.tiltedCdf(-r[1], -r[2], r[3], -r[4]);
      // 1 − F from the 30-digit decimal, not from F rounded to double
      double expected = lower
          ? r[5]
          : java.math.BigDecimal.ONE.subtract(new java.math.BigDecimal(str[5])).doubleValue();
      // the table's 30 significant digits of F near 1 leave 1 − F an absolute resolution of 1e-30
      assertEquals(
          expected, tail, 1e-12 * expected + 1e-30, "tail " + java.util.Arrays.toString(r));
      if (expected > 1e-17) {
        e.add(expected, tail, expected, java.util.Arrays.toString(r));
      }
    }
    System.out.printf(
        "noisy-step cdf table (%d rows): max |dtail|/tail (tails > 1e-17) %.2e%n",
        strings.size(), e.max);
  }

  /**
   * σ* of the W2 (QP) projection through the library's {@link W2Projection} (eq. 23 by sinh-mapped trapezoid of
   * the closed-form CDF) against w2.csv; budget: the projection's own relative tolerance 1e-11 times 10.
   */
  @Test
  void w2Table() throws IOException {
    List<double[]> rows = table("w2.csv");
    assertEquals(224, rows.size());
    MaxError e = new MaxError();
    for (double[] r : rows) {
      NoisyStep lik = NoisyStep.of(r[0]);
      W2Projection.Sigma s =
          W2Projection.sigma(lik, r[1], r[2], r[3], W2Projection.DEFAULT_REL_TOL);
      e.add(r[4], s.value(), r[4], java.util.Arrays.toString(r));
    }
    System.out.printf(
        "noisy-step w2 table (%d rows): max |dsigma*|/sigma* %.2e%n", rows.size(), e.max);
    assertTrue(e.max <= 1e-10, "sigma*: " + e.max + " at " + e.where);
  }

  @Test
  void rejectsBadEpsilonAndLabels() {
    for (double eps : new double[] {0, -0.1, 0.5, 0.7, Double.NaN, Double.POSITIVE_INFINITY}) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> new NoisyStep(eps));
      assertTrue(e.getMessage().contains("epsilon"), e.getMessage());
    }
    NoisyStep lik = NoisyStep.of(0.1);
    for (double y : new double[] {0, 2, -0.5, Double.NaN}) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> lik.validate(y));
      assertTrue(e.getMessage().contains("-1 or +1"), e.getMessage());
    }
    assertThrows(IllegalArgumentException.class, () -> lik.powerTilted(1, 0, 1, 0));
    assertThrows(IllegalArgumentException.class, () -> lik.tilted(1, 0, 0));
    assertTrue(lik.hyperparameterNames().isEmpty(), "epsilon is fixed, not learned");
  }

  /** The predictive p(+1) = ε + (1 − 2ε)Φ(m/√v), p(+1) + p(−1) = 1, and the v = 0 limit is the step itself. */
  @Test
  void predictive() {
    NoisyStep lik = NoisyStep.of(0.2);
    assertEquals(0.2 + 0.6 * Normal.cdf(0.5 / Math.sqrt(2)), lik.predictivePositive(0.5, 2), 1e-16);
    Predictive p = lik.predictive(-0.3, 0.7);
    assertEquals(1, p.density(1) + p.density(-1), 1e-15);
    assertEquals(0.8, lik.predictive(1, 0).density(1), 1e-16);
    assertEquals(0.2, lik.predictive(-1, 0).density(1), 1e-16);
    assertEquals(0.5, lik.predictive(0, 0).density(1), 1e-16);
    assertEquals(Math.log(0.2), lik.logPredictive(1, -3, 0), 1e-16);
    assertEquals(-1, lik.predictive(-1, 3).mode());
  }

  /**
   * ε → 0 approaches the noiseless step: Z → Φ(z) and the moments of the truncated normal, here far in the
   * tail (z = −30, Φ(z) ≈ 5e-198 ≫ ε = 1e-300) where the variance ≈ v/z² comes from the continued-fraction
   * branch. References (mpmath, mp.dps = 50: λ = npdf(z)/ncdf(z), mean = m + λ, var = 1 − λ(λ + z),
   * log ncdf(z)); budgets as for the tables.
   */
  @Test
  void tinyEpsilonFarTailIsTruncatedNormal() {
    NoisyStep lik = NoisyStep.of(1e-300);
    TiltedMoments t = lik.tilted(1, -30, 1);
    assertEquals(-454.321243956343197107355771337, t.logZ(), 1e-14 * 454.3);
    assertEquals(0.0332596674336770370711241000123, t.mean(), 1e-13 * 30.07);
    assertEquals(0.00110377151189009100113674138550, t.variance(), 1e-12 * 0.0011);
  }
}
