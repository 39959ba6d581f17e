package org.approxgp.likelihood;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.approxgp.special.GaussHermite;
import org.approxgp.special.Quadrature;
import org.junit.jupiter.api.Test;

/**
 * Every closed form of {@link PoissonSquareLink} against quadrature of the tilted density on a grid
 * including y up to 100 and |μ| up to 50, and against the committed anchor row.
 */
class PoissonSquareLinkTest {
  private static final PoissonSquareLink LIK = PoissonSquareLink.get();
  static final int[] YS = {0, 1, 2, 3, 5, 10, 30, 100};
  static final double[] MUS = {-50, -10, -3, -1, -0.2, 0, 0.5, 1, 3, 10, 50};
  static final double[] VS = {0.01, 0.1, 1, 10, 100};

  private static double rel(double a, double b) {
    return Math.abs(a - b) / Math.max(Math.abs(b), 1e-300);
  }

  @Test
  void tiltedMomentsMatchQuadratureOnTheGrid() {
    double maxZ = 0;
    double maxMean = 0;
    double maxVar = 0;
    String worst = "";
    for (int y : YS) {
      for (double mu : MUS) {
        for (double v : VS) {
          TiltedMoments a = LIK.tilted(y, mu, v);
          TiltedMoments q = LikelihoodQuadrature.tilted(LIK, y, mu, v);
          String at = "y=" + y + " mu=" + mu + " v=" + v + " closed=" + a + " quad=" + q;
          double ez = Math.abs(a.logZ() - q.logZ()) / Math.max(1, Math.abs(q.logZ()));
          // mean relative to the tilted scale: |Δμ| / max(|μ̃|, σ̃)
          double em =
              Math.abs(a.mean() - q.mean()) / Math.max(Math.abs(q.mean()), Math.sqrt(q.variance()));
          double ev = rel(a.variance(), q.variance());
          if (ev > maxVar) {
            worst = at;
          }
          maxZ = Math.max(maxZ, ez);
          maxMean = Math.max(maxMean, em);
          maxVar = Math.max(maxVar, ev);
          assertTrue(ez < 1e-11, "log Z " + at);
          assertTrue(em < 1e-9, "mean " + at);
          assertTrue(ev < 1e-8, "variance " + at);
          assertTrue(
              a.variance() > 0 && a.variance() <= v * (1 + 1e-12) || y > 0, "variance " + at);
        }
      }
    }
    System.out.printf(
        "poisson-square tilted vs quadrature: max err logZ %.2e, mean %.2e, variance %.2e (worst %s)%n",
        maxZ, maxMean, maxVar, worst);
  }

  @Test
  void tiltedCdfMatchesQuadrature() {
    double maxErr = 0;
    for (int y : new int[] {0, 1, 2, 5, 10, 30, 100}) {
      for (double mu : new double[] {-50, -3, -0.2, 0, 1, 3, 10, 50}) {
        for (double v : new double[] {0.01, 1, 100}) {
          TiltedMoments t = LIK.tilted(y, mu, v);
          double sd = Math.sqrt(t.variance());
          double[] xs = {
            t.mean() - 4 * sd,
            t.mean() - sd,
            t.mean(),
            t.mean() + 0.5 * sd,
            t.mean() + 3 * sd,
            -t.mean(),
            0.0,
            -t.mean() + sd
          };
          for (double x : xs) {
            double a = LIK.tiltedCdf(y, mu, v, x);
            double q = LikelihoodQuadrature.tiltedCdf(LIK, y, mu, v, x);
            double err = Math.abs(a - q);
            maxErr = Math.max(maxErr, err);
            assertTrue(
                err < 1e-10,
                "cdf y=" + y + " mu=" + mu + " v=" + v + " x=" + x + ": " + a + " vs " + q);
            assertTrue(a >= 0 && a <= 1);
          }
        }
      }
    }
    System.out.printf("poisson-square tilted CDF vs quadrature: max abs err %.2e%n", maxErr);
  }

  @Test
  void cdfLimitsAndMonotone() {
    assertEquals(0.0, LIK.tiltedCdf(3, 1, 1, Double.NEGATIVE_INFINITY));
    assertEquals(1.0, LIK.tiltedCdf(3, 1, 1, Double.POSITIVE_INFINITY));
    assertEquals(1.0, LIK.tiltedCdf(3, 1, 1, 1e3), 1e-15);
    assertEquals(0.0, LIK.tiltedCdf(3, 1, 1, -1e3), 1e-15);
    // μ = 0: symmetric, F(0) = ½
    assertEquals(0.5, LIK.tiltedCdf(4, 0, 2, 0), 1e-15);
    double prev = 0;
    for (double x = -6; x <= 6; x += 0.05) {
      double f = LIK.tiltedCdf(5, 0.7, 2, x);
      assertTrue(f >= prev - 1e-15, "monotone at " + x);
      prev = f;
    }
  }

  @Test
  void anchorRow() throws Exception {
    try (BufferedReader r = new BufferedReader(new InputStreamReader(
        Objects.requireNonNull(getClass().getResourceAsStream("/anchors/tilted-moments.txt")),
        StandardCharsets.UTF_8))) {
      int rows = 0;
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        if (line.startsWith("#") || !line.startsWith("poisson-square")) {
          continue;
        }
        String[] p = line.trim().split("\\s+");
        double y = Double.parseDouble(p[1]);
        double m = Double.parseDouble(p[2]);
        double v = Double.parseDouble(p[3]);
        TiltedMoments t = LIK.tilted(y, m, v);
        assertEquals(
            Double.parseDouble(p[4]), t.logZ(), 1e-9 * Math.abs(Double.parseDouble(p[4])), "log Z");
        assertEquals(
            Double.parseDouble(p[5]), t.mean(), 1e-9 * Math.abs(Double.parseDouble(p[5])), "mean");
        assertEquals(
            Double.parseDouble(p[6]),
            t.variance(),
            1e-9 * Math.abs(Double.parseDouble(p[6])),
            "variance");
        // variance_qp: the W2 projection (eq. 23) driven by this class's closed-form tilted CDF
        double qp =
            org.approxgp.projection.W2Projection.exact().project(LIK, y, m, v).variance();
        assertEquals(
            Double.parseDouble(p[7]), qp, 1e-9 * Math.abs(Double.parseDouble(p[7])), "variance_qp");
        rows++;
      }
      assertTrue(rows >= 1);
    }
  }

  @Test
  void logDensityDerivativesByFiniteDifferences() {
    for (int y : new int[] {0, 1, 4, 30}) {
      for (double f : new double[] {-3, -0.4, 0.3, 1.7, 6}) {
        LogDensity d = LIK.logDensity(y, f);
        double h = 1e-5 * Math.max(1, Math.abs(f));
        LogDensity p = LIK.logDensity(y, f + h);
        LogDensity mi = LIK.logDensity(y, f - h);
        assertEquals((p.value() - mi.value()) / (2 * h), d.d1(), 1e-6 * (1 + Math.abs(d.d1())));
        assertEquals((p.d1() - mi.d1()) / (2 * h), d.d2(), 1e-6 * (1 + Math.abs(d.d2())));
        assertEquals((p.d2() - mi.d2()) / (2 * h), d.d3(), 1e-5 * (1 + Math.abs(d.d3())));
        // the value itself: Poisson log pmf at rate f²
        assertEquals(
            y * Math.log(f * f) - f * f - org.approxgp.special.Gammas.logGamma(y + 1),
            d.value(),
            1e-12 * (1 + Math.abs(d.value())));
        // not log-concave: d2 = −2y/f² − 2
        assertEquals(-2.0 * y / (f * f) - 2, d.d2(), 1e-12 * (1 + Math.abs(d.d2())));
      }
    }
  }

  @Test
  void validate() {
    LIK.validate(0);
    LIK.validate(7);
    assertThrows(IllegalArgumentException.class, () -> LIK.validate(-1));
    assertThrows(IllegalArgumentException.class, () -> LIK.validate(1.5));
    assertThrows(IllegalArgumentException.class, () -> LIK.validate(Double.NaN));
    assertThrows(IllegalArgumentException.class, () -> LIK.validate(Double.POSITIVE_INFINITY));
    assertThrows(IllegalArgumentException.class, () -> LIK.tilted(1, 0, 0));
  }

  /** E[log f²] for f ~ N(m, v) by adaptive quadrature split at 0 (log singularity) and at m. */
  private static double logSquareByQuadrature(double m, double v) {
    double s = Math.sqrt(v);
    java.util.function.DoubleUnaryOperator g =
        f -> Math.log(f * f) * Math.exp(-(f - m) * (f - m) / (2 * v)) / Math.sqrt(2 * Math.PI * v);
    double lo = Math.min(0, m);
    double hi = Math.max(0, m);
    double r = Quadrature.integrate(g, Double.NEGATIVE_INFINITY, lo, 0, 1e-14).value()
        + (hi > lo ? Quadrature.integrate(g, lo, hi, 0, 1e-14).value() : 0)
        + Quadrature.integrate(g, hi, Double.POSITIVE_INFINITY, 0, 1e-14).value();
    return r;
  }

  @Test
  void logSquareMomentsMatchQuadratureAndFiniteDifferences() {
    double maxE = 0;
    double maxD = 0;
    for (double m : new double[] {0, 0.05, -0.3, 1, 2.5, -7, 20, 140}) {
      for (double v : new double[] {0.01, 0.3, 1, 4, 50}) {
        double[] l = PoissonSquareLink.logSquareMoments(m, v);
        double q = logSquareByQuadrature(m, v);
        double e = Math.abs(l[0] - q) / Math.max(1, Math.abs(q));
        maxE = Math.max(maxE, e);
        assertTrue(e < 1e-9, "E[log f²] m=" + m + " v=" + v + ": " + l[0] + " vs " + q);
        double hm = 1e-5 * Math.max(1, Math.abs(m));
        double hv = 1e-5 * v;
        double dm = (PoissonSquareLink.logSquareMoments(m + hm, v)[0]
                - PoissonSquareLink.logSquareMoments(m - hm, v)[0])
            / (2 * hm);
        double dv = (PoissonSquareLink.logSquareMoments(m, v + hv)[0]
                - PoissonSquareLink.logSquareMoments(m, v - hv)[0])
            / (2 * hv);
        // central differences: truncation O(h²) plus roundoff ≈ ε |E| / h
        double round = 1e-15 * Math.max(1, Math.abs(l[0]));
        double e1 = Math.abs(dm - l[1]) / (1e-6 * Math.abs(l[1]) + round / hm);
        double e2 = Math.abs(dv - l[2]) / (1e-6 * Math.abs(l[2]) + round / hv);
        maxD = Math.max(maxD, Math.max(e1, e2));
        assertTrue(e1 < 1, "d/dm m=" + m + " v=" + v + ": " + l[1] + " vs " + dm);
        assertTrue(e2 < 1, "d/dv m=" + m + " v=" + v + ": " + l[2] + " vs " + dv);
      }
    }
    // branch continuity at a = 100 (Poisson-mixture sum vs asymptotic series)
    double m = Math.sqrt(2 * 100.0);
    double[] below = PoissonSquareLink.logSquareMoments(m * (1 - 1e-12), 1);
    double[] above = PoissonSquareLink.logSquareMoments(m, 1);
    for (int j = 0; j < 3; j++) {
      assertEquals(above[j], below[j], 1e-12 * Math.abs(above[j]) + 1e-14, "continuity " + j);
    }
    System.out.printf(
        "E[log f²] vs quadrature: max rel err %.2e; derivatives vs finite differences %.2e of the allowed (1e-6 rel + roundoff)%n",
        maxE, maxD);
  }

  @Test
  void variationalExpectationMatchesGaussHermiteAndPriceBonnet() {
    // smooth integrand where N(m, v) keeps ≥ 12 sd away from the log singularity at f = 0:
    // Gauss–Hermite of log p, d1 and ½ d2
    GaussHermite gh = GaussHermite.of(80);
    for (int y : new int[] {0, 1, 3, 12}) {
      for (double[] mv : new double[][] {{6, 0.2}, {-5, 0.15}, {3, 0.05}}) {
        VariationalExpectation e = LIK.variationalExpectation(y, mv[0], mv[1]);
        double q = gh.expectNormal(mv[0], mv[1], f -> LIK.logDensity(y, f).value());
        double qm = gh.expectNormal(mv[0], mv[1], f -> LIK.logDensity(y, f).d1());
        double qv =
            0.5 * gh.expectNormal(mv[0], mv[1], f -> LIK.logDensity(y, f).d2());
        assertEquals(q, e.value(), 1e-10 * (1 + Math.abs(q)));
        assertEquals(qm, e.dMean(), 1e-9 * (1 + Math.abs(qm)));
        assertEquals(qv, e.dVariance(), 1e-9 * (1 + Math.abs(qv)));
      }
    }
    // zero variance: E equals the log density (GPflow's consistency check)
    assertEquals(
        LIK.logDensity(4, 1.3).value(), LIK.variationalExpectation(4, 1.3, 0).value(), 1e-13);
    // with y ≥ 1 and small m, ∂E/∂v > 0: the non-concavity VB has to live with
    assertTrue(LIK.variationalExpectation(3, 0.1, 0.5).dVariance() > 0);
  }

  @Test
  void w2VarianceNeverExceedsKlVariance() {
    // Theorem 2 (σ_QP ≤ σ_EP), with the W2 projection driven by this class's closed-form CDF
    org.approxgp.projection.W2Projection w2 = org.approxgp.projection.W2Projection.exact();
    for (int y : new int[] {0, 1, 3, 10}) {
      for (double mu : new double[] {-2, 0, 0.5, 1, 4}) {
        for (double v : new double[] {0.05, 1, 10}) {
          double ep = LIK.tilted(y, mu, v).variance();
          double qp = w2.project(LIK, y, mu, v).variance();
          // 1e-9: the W2 quadrature is not exact (measured 1.6e-10 relative excess on a Gaussian
          // tilted, y = 0)
          assertTrue(
              qp <= ep * (1 + 1e-9), "y=" + y + " mu=" + mu + " v=" + v + ": " + qp + " > " + ep);
          if (y == 0) {
            assertEquals(ep, qp, 1e-8 * ep, "y = 0: the tilted is Gaussian");
          }
        }
      }
    }
  }

  /**
   * The power-tilted moments (Power EP; {@link Likelihood#powerTilted}, this class's quadrature default) against
   * the Kummer closed form of {@code likelihood/poisson-power-tilted.py} (mpmath, 60 digits; header of the table)
   * on y ∈ {1, 4, 17, 60}, μ ∈ [−3, 8], v ∈ [1e-3, 100], u ∈ [1e-3, 1.5]: log Z to 1e-10 (absolute for |log Z| &lt;
   * 1), the mean to 1e-9 of max(|mean|, sd), the variance to 1e-9 relative. (Power EP's typed
   * failures on this likelihood are not an error in these moments; see the next test.)
   */
  @Test
  void powerTiltedMatchesTheKummerClosedForm() throws Exception {
    try (BufferedReader r = new BufferedReader(new InputStreamReader(
        Objects.requireNonNull(
            getClass().getResourceAsStream("/likelihood/poisson-power-tilted.txt")),
        StandardCharsets.UTF_8))) {
      int rows = 0;
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        if (line.startsWith("#") || line.isBlank()) {
          continue;
        }
        String[] p = line.trim().split("\\s+");
        double y = Double.parseDouble(p[0]);
        double m = Double.parseDouble(p[1]);
        double v = Double.parseDouble(p[2]);
        double u = Double.parseDouble(p[3]);
        double logZ = Double.parseDouble(p[4]);
        double mean = Double.parseDouble(p[5]);
        double var = Double.parseDouble(p[6]);
        TiltedMoments t = LIK.powerTilted(y, m, v, u);
        String at = "y=" + y + " m=" + m + " v=" + v + " u=" + u;
        assertEquals(logZ, t.logZ(), 1e-10 * Math.max(1, Math.abs(logZ)), "log Z at " + at);
        assertEquals(
            mean, t.mean(), 1e-9 * Math.max(Math.abs(mean), Math.sqrt(var)), "mean at " + at);
        assertEquals(var, t.variance(), 1e-9 * var, "variance at " + at);
        rows++;
      }
      assertEquals(400, rows);
    }
  }

  /**
   * The diagnosis of Power EP's typed failures on this likelihood, at the cavity where
   * {@code ReliabilitySweep}'s poisson-square fit 0 (u = 0.8) fails (site 11, y = 4, sweep 1, old site 0 so the
   * u-cavity is the marginal N(0.0222323, 0.221796)): the power-tilted distribution ∝ |f|^{2uy} e^{−uf²} N(f | μ, v)
   * is bimodal about f ≈ 0 and its variance (1.1987, the reference table's row) exceeds Σᵢᵢ/(1 − u) = 1.109, so the
   * undamped Power EP update's new marginal precision (1/σ̂² − (1 − u)/Σᵢᵢ)/u is negative: the update has no proper
   * posterior, whatever the arithmetic (EP's, u = 1, is 1/σ̂² &gt; 0: EP cannot fail this way).
   */
  @Test
  void undampedPowerEpUpdateHasNoProperMarginalAtTheFailingCavity() {
    double sii = 0.221796;
    double u = 0.8;
    TiltedMoments t = LIK.powerTilted(4, 0.0222323, sii, u);
    assertEquals(1.19874, t.variance(), 1e-5);
    assertTrue((1 / t.variance() - (1 - u) / sii) / u < 0, "Power EP marginal precision");
  }
}
