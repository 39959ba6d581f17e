package org.approxgp.projection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.approxgp.likelihood.Gaussian;
import org.approxgp.likelihood.Probit;
import org.approxgp.likelihood.TiltedMoments;
import org.approxgp.special.Erf;
import org.approxgp.special.Quadrature;
import org.junit.jupiter.api.Test;

/** The exact W2 projection (eq. 17, 23): anchors, consistency, Theorem 2. */
class W2ProjectionTest {
  private static final Probit P = Probit.get();

  /** Probit rows of anchors/tilted-moments.txt: {y, m, v, logZ, mean, varEp, varQp}. */
  static List<double[]> probitAnchors() throws IOException {
    List<double[]> rows = new ArrayList<>();
    try (InputStream in =
        W2ProjectionTest.class.getResourceAsStream("/anchors/tilted-moments.txt")) {
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      for (String line; (line = r.readLine()) != null; ) {
        String[] f = line.trim().split("\\s+");
        if (line.startsWith("#") || f.length < 8 || !f[0].equals("probit")) {
          continue;
        }
        double[] row = new double[7];
        for (int k = 0; k < 7; k++) {
          row[k] = Double.parseDouble(f[k + 1]);
        }
        rows.add(row);
      }
    }
    return rows;
  }

  @Test
  void probitAnchorsWithin1e9Relative() throws IOException {
    List<double[]> rows = probitAnchors();
    assertTrue(rows.size() >= 2, "anchor rows missing");
    for (double[] a : rows) {
      TiltedMoments w2 = W2Projection.exact().project(P, a[0], a[1], a[2]);
      TiltedMoments kl = KlProjection.get().project(P, a[0], a[1], a[2]);
      String at = "y=" + a[0] + " m=" + a[1] + " v=" + a[2];
      assertEquals(a[3], w2.logZ(), 1e-9 * Math.abs(a[3]), "log_z " + at);
      assertEquals(a[4], w2.mean(), 1e-9 * Math.abs(a[4]), "mean " + at);
      assertEquals(a[5], kl.variance(), 1e-9 * a[5], "variance_ep " + at);
      assertEquals(a[6], w2.variance(), 1e-9 * a[6], "variance_qp " + at);
    }
  }

  /** eq. 23 literally, (2π)^(−½) ∫ exp(−[erf⁻¹(2F − 1)]²) df, by generic adaptive quadrature. */
  @Test
  void sameAsEquation23WithErfinv() {
    double y = 1;
    double m = -0.7;
    double v = 2.5;
    double lit = Quadrature.integrate(
            f -> {
              double e = Erf.erfinv(2 * P.tiltedCdf(y, m, v, f) - 1);
              return Math.exp(-e * e) / Math.sqrt(2 * Math.PI);
            },
            -30,
            30,
            0,
            1e-12)
        .value();
    W2Projection.Sigma s = W2Projection.sigma(P, y, m, v, 1e-13);
    assertEquals(lit, s.value(), 1e-10 * lit);
    assertTrue(s.converged());
    assertTrue(s.errorEstimate() < 1e-12 * s.value(), "error estimate " + s.errorEstimate());
  }

  /** A Gaussian tilted distribution is its own W2 projection: σ* = σ_EP. */
  @Test
  void gaussianTiltedIsItsOwnProjection() {
    Gaussian g = Gaussian.of(0.3);
    for (double v : new double[] {0.01, 1, 50}) {
      TiltedMoments kl = g.tilted(0.4, -1, v);
      TiltedMoments w2 = W2Projection.exact().project(g, 0.4, -1, v);
      assertEquals(kl.mean(), w2.mean(), 0);
      assertEquals(kl.variance(), w2.variance(), 1e-12 * kl.variance());
    }
  }

  /**
   * Theorem 2 on a random grid (seeded), including cavities far outside the table's range:
   * σ_QP ≤ σ_EP, and the ratio is positive.
   */
  @Test
  void theorem2OnRandomCavities() {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(20201L);
    double maxRatio = 0;
    for (int k = 0; k < 300; k++) {
      double y = rng.nextBoolean() ? 1 : -1;
      double m = -30 + 60 * rng.nextDouble();
      double v = Math.exp(Math.log(1e-4) + Math.log(1e8) * rng.nextDouble());
      double sq = W2Projection.sigma(P, y, m, v, 1e-12).value();
      double se = Math.sqrt(P.tilted(y, m, v).variance());
      String at = "y=" + y + " m=" + m + " v=" + v;
      assertTrue(sq > 0, at);
      assertTrue(sq <= se * (1 + 1e-11), "Theorem 2 violated at " + at + ": " + sq / se);
      maxRatio = Math.max(maxRatio, sq / se);
    }
    assertTrue(maxRatio > 0.999, "grid should reach cavities where QP ~ EP, max ratio " + maxRatio);
  }

  /**
   * Wide cavities (σ ≥ 100, as QP Table 1's large signal variances give): the sinh trapezoid with the closed-form
   * tilted CDF stops short of 1e-13 there (the probit's unit-width step at f = 0 against the EP scale σ); the
   * cumulative rule {@link W2Projection#sigma} uses for the probit at σ &gt; 10 converges, agrees with the split
   * Gauss–Kronrod fallback to 1e-12, and obeys Theorem 2.
   */
  @Test
  void wideCavitiesAgreeWithSplitGaussKronrod() {
    int trapezoidShort = 0;
    for (double[] c : new double[][] {
      {271.88104159953855, 150},
      {150.0018749882814, 200},
      {-93.75, 300},
      {0, 100},
      {350, 120},
      {-2000, 180}
    }) {
      for (double y : new double[] {1, -1}) {
        double m = y * c[0];
        double v = c[1] * c[1];
        TiltedMoments kl = P.tilted(y, m, v);
        double sEp = Math.sqrt(kl.variance());
        java.util.function.DoubleUnaryOperator g =
            f -> W2Quadrature.tailDensity(P.tiltedCdf(y, m, v, f));
        W2Projection.Sigma trap = W2Quadrature.sinhTrapezoid(g, kl.mean(), sEp, 1e-13);
        W2Projection.Sigma gk =
            W2Quadrature.splitAtKinks(g, kl.mean(), sEp, W2Quadrature.unitScalePoints(P, y), 1e-13);
        W2Projection.Sigma s = W2Projection.sigma(P, y, m, v, 1e-13);
        String at = "y=" + y + " m=" + m + " sigma=" + c[1];
        assertTrue(s.converged() && gk.converged(), at);
        assertEquals(gk.value(), s.value(), 1e-12 * gk.value(), at);
        assertTrue(s.value() <= sEp * (1 + 1e-13), at);
        trapezoidShort += trap.converged() ? 0 : 1;
      }
    }
    assertTrue(
        trapezoidShort >= 6,
        "the cases should be ones the trapezoid alone misses, got " + trapezoidShort);
  }

  /**
   * The cumulative rule against the closed-form-CDF trapezoid where the latter is accurate (σ ∈ (10, 40], seeded
   * random z ∈ [−10, 9], both labels): 1e-12 relative.
   */
  @Test
  void cumulativeRuleMatchesTrapezoidAtModerateWidth() {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(31L);
    for (int k = 0; k < 40; k++) {
      double y = rng.nextBoolean() ? 1 : -1;
      double sigma = 10.01 * Math.exp(Math.log(4) * rng.nextDouble());
      double m = y * (-10 + 19 * rng.nextDouble()) * Math.sqrt(1 + sigma * sigma);
      double v = sigma * sigma;
      TiltedMoments kl = P.tilted(y, m, v);
      double sEp = Math.sqrt(kl.variance());
      W2Projection.Sigma trap = W2Quadrature.sinhTrapezoid(
          f -> W2Quadrature.tailDensity(P.tiltedCdf(y, m, v, f)), kl.mean(), sEp, 1e-13);
      W2Projection.Sigma cum =
          W2Quadrature.cumulative(Probit.get(), y, m, v, kl.mean(), sEp, kl.logZ(), 1e-13);
      String at = "y=" + y + " m=" + m + " sigma=" + sigma;
      assertTrue(trap.converged() && cum.converged(), at);
      assertEquals(trap.value(), cum.value(), 1e-12 * trap.value(), at);
    }
  }

  /**
   * Where QP = EP to 1e-13 (z = μ/√(1 + σ²) = 7) at wide cavities, the ratio of σ* to σ_EP is ≤ 1 + 1e-13
   * (Theorem 2); the closed-form CDF trapezoid gave 1 + 2.9e-13 at σ = 100 and 1 + 3.4e-13 at σ = 124.
   */
  @Test
  void theorem2AtWideCavitiesWhereQpEqualsEp() {
    for (double sigma : new double[] {100, 124, 180}) {
      double m = 7 * Math.sqrt(1 + sigma * sigma);
      double v = sigma * sigma;
      double r = W2Projection.sigma(P, 1, m, v, 1e-13).value()
          / Math.sqrt(P.tilted(1, m, v).variance());
      assertTrue(r <= 1 + 1e-13 && r > 1 - 1e-12, "sigma " + sigma + ": ratio " + r);
    }
  }

  /** Label symmetry: y = −1 at m equals y = +1 at −m (mirror image), for σ and the mean. */
  @Test
  void labelSymmetry() {
    for (double m : new double[] {-3, 0.4, 2}) {
      TiltedMoments a = W2Projection.exact().project(P, -1, m, 1.7);
      TiltedMoments b = W2Projection.exact().project(P, 1, -m, 1.7);
      assertEquals(a.variance(), b.variance(), 1e-13 * a.variance());
      assertEquals(a.mean(), -b.mean(), 1e-13);
    }
  }
}
