package org.approxgp.likelihood;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link Probit#powerTilted} (u ≠ 1: {@link ProbitTilt}'s log-concave quadrature) and
 * {@link Probit#tiltedExpectedLogCdf} against the 40-digit mpmath tables in
 * {@code src/test/resources/likelihood/probit-power/} (made by {@code generate.py} there, by plain mpmath
 * quadrature of the defining integrals at 60 digits; header of each CSV). The tables reach cavity means ±1e6 and
 * variances 1e-8 … 1e6 (the reliability review's log Z = NaN at |m| ≳ 100 on the wrong side came from the
 * generic quadrature, which looked for the mode within m ± 12√v).
 *
 * <p>Budgets (measured maxima printed by each test):
 * <ul>
 *   <li>log Z: |Δ| ≤ 1e-13 |log Z| + 1e-15. log Z = ℓ(δ*) + log σ + log ∫g − ½ log 2πv is a sum of terms each
 *       accurate to a few ulps of itself; when Φ(y f) ≈ 1 over the cavity the true log Z is below 1e-300 and
 *       the sum's rounding (an absolute ~1e-16) is all that is left.</li>
 *   <li>mean: |Δ| ≤ 1e-13 (|m| + |mean − m|) + 1e-10 sd, sd the tilted standard deviation: the quadrature's
 *       1e-13 tolerance on E t in units of σ, and the rounding of m + δ*.</li>
 *   <li>variance: |Δ| ≤ 1e-10 variance (the goal; the tolerance asked of ∫t²g is 1e-13, and
 *       Var t loses at most a factor 4 to the subtraction of (E t)²).</li>
 *   <li>E₁ = E_p̂[log Φ]: |Δ| ≤ 1e-10 |E₁| (the goal) at every cavity variance in the table.</li>
 * </ul>
 */
class ProbitPowerTiltedTest {

  static List<double[]> table(String name) throws IOException {
    return ReferenceTable.numbers("/likelihood/probit-power/" + name);
  }

  @Test
  void powerTiltedTable() throws IOException {
    List<double[]> rows = table("power-tilted.csv");
    assertTrue(rows.size() >= 120, "rows: " + rows.size());
    NoisyStepTest.MaxError lz = new NoisyStepTest.MaxError();
    NoisyStepTest.MaxError mu = new NoisyStepTest.MaxError();
    NoisyStepTest.MaxError var = new NoisyStepTest.MaxError();
    for (double[] r : rows) {
      double y = r[0];
      double m = r[1];
      double v = r[2];
      double u = r[3];
      TiltedMoments t = Probit.get().powerTilted(y, m, v, u);
      String row = Arrays.toString(Arrays.copyOf(r, 4));
      lz.add(r[4], t.logZ(), 1e-13 * Math.abs(r[4]) + 1e-15, row);
      mu.add(
          r[5],
          t.mean(),
          1e-13 * (Math.abs(m) + Math.abs(r[5] - m)) + 1e-10 * Math.sqrt(r[6]),
          row);
      var.add(r[6], t.variance(), 1e-10 * r[6], row);
    }
    System.out.printf(
        "probit power-tilted table (%d rows): max error / budget: log Z %.2e, mean %.2e,"
            + " variance %.2e%n",
        rows.size(), lz.max, mu.max, var.max);
    assertTrue(lz.max <= 1, "log Z: " + lz.max + " at " + lz.where);
    assertTrue(mu.max <= 1, "mean: " + mu.max + " at " + mu.where);
    assertTrue(var.max <= 1, "variance: " + var.max + " at " + var.where);
  }

  /** The reliability review's case, `approxgp tilted --likelihood probit --y 1 --cavity-mean 250 ... --power 0.5`. */
  @Test
  void wrongSideAt250() {
    for (double y : new double[] {1, -1}) {
      TiltedMoments t = Probit.get().powerTilted(y, -y * 250, 1, 0.5);
      // mpmath, 40 digits (power-tilted.csv's first rows)
      assertEquals(-10419.88687539187614569255713395404244253, t.logZ(), 1e-13 * 10419.9);
      assertEquals(-y * 166.6646667386614831331751656168158075045, t.mean(), 1e-13 * 250);
      assertEquals(0.6666746658027703336048406470774660474107, t.variance(), 1e-10 * 0.67);
    }
  }

  /** Finite moments, variance in (0, v], on a grid over the whole range the issue asks for. */
  @Test
  void finiteEverywhere() {
    double[] ms = {-1e6, -1e4, -300, -37, -5, -0.1, 0, 1e-3, 2, 40, 250, 1e5, 1e6};
    double[] vs = {1e-8, 1e-5, 1e-2, 1, 30, 1e3, 1e6};
    double[] us = {1e-4, 0.1, 0.5, 0.8, 0.999};
    for (double y : new double[] {1, -1}) {
      for (double m : ms) {
        for (double v : vs) {
          for (double u : us) {
            TiltedMoments t = Probit.get().powerTilted(y, m, v, u);
            String at = "y=" + y + " m=" + m + " v=" + v + " u=" + u + ": " + t;
            assertTrue(Double.isFinite(t.logZ()) && t.logZ() <= 0, at);
            assertTrue(Double.isFinite(t.mean()), at);
            // log-concave tilt of a Gaussian: 0 < variance ≤ v (up to rounding)
            assertTrue(t.variance() > 0 && t.variance() <= v * (1 + 1e-12), at);
          }
        }
      }
    }
  }

  @Test
  void tiltedExpectedLogTable() throws IOException {
    List<double[]> rows = table("tilted-expected-log.csv");
    assertTrue(rows.size() >= 50, "rows: " + rows.size());
    NoisyStepTest.MaxError e1 = new NoisyStepTest.MaxError();
    NoisyStepTest.MaxError e0 = new NoisyStepTest.MaxError();
    for (double[] r : rows) {
      String row = Arrays.toString(Arrays.copyOf(r, 3));
      double got = Probit.get().tiltedExpectedLogCdf(r[0], r[1], r[2]);
      e1.add(r[4], got, 1e-10 * Math.abs(r[4]), row);
      // the variational expectation E_N[log Φ] (VB's path, unchanged) at the same wide cavities
      e0.add(
          r[3],
          Probit.get().variationalExpectation(r[0], r[1], r[2]).value(),
          1e-10 * Math.abs(r[3]),
          row);
    }
    System.out.printf(
        "probit E_p^[log Phi] and E_N[log Phi] table (%d rows): max error / budget %.2e, %.2e%n",
        rows.size(), e1.max, e0.max);
    assertTrue(e1.max <= 1, "E1: " + e1.max + " at " + e1.where);
    assertTrue(e0.max <= 1, "E0: " + e0.max + " at " + e0.where);
  }
}
