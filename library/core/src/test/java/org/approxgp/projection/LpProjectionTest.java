package org.approxgp.projection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.approxgp.likelihood.Gaussian;
import org.approxgp.likelihood.Probit;
import org.approxgp.likelihood.TiltedMoments;
import org.junit.jupiter.api.Test;

/** The Lp projection (appendix B) by gradient descent on eq. 24–25. */
class LpProjectionTest {
  private static final Probit P = Probit.get();

  /** p = 2 must reproduce the closed form (eq. 17, 23). */
  @Test
  void pTwoEqualsClosedForm() {
    double[][] cavities = {{1, 0, 1}, {1, 0, 25}, {-1, 1.3, 0.4}, {1, -4, 6}};
    for (double[] c : cavities) {
      TiltedMoments lp = LpProjection.of(2).project(P, c[0], c[1], c[2]);
      TiltedMoments w2 = W2Projection.exact(1e-13).project(P, c[0], c[1], c[2]);
      String at = "y=" + c[0] + " m=" + c[1] + " v=" + c[2];
      assertEquals(w2.mean(), lp.mean(), 1e-8 * Math.sqrt(w2.variance()), "mean " + at);
      assertEquals(
          Math.sqrt(w2.variance()),
          Math.sqrt(lp.variance()),
          1e-8 * Math.sqrt(w2.variance()),
          "sd " + at);
      assertEquals(w2.logZ(), lp.logZ(), 0);
    }
  }

  /** For a Gaussian tilted distribution every Lp projection is exact. */
  @Test
  void gaussianTiltedForAnyP() {
    Gaussian g = Gaussian.of(0.5);
    TiltedMoments kl = g.tilted(1, 0, 2);
    for (double p : new double[] {1, 1.5, 3, 4}) {
      TiltedMoments lp = LpProjection.of(p).project(g, 1, 0, 2);
      assertEquals(kl.mean(), lp.mean(), 1e-7, "p=" + p);
      assertEquals(Math.sqrt(kl.variance()), Math.sqrt(lp.variance()), 1e-7, "p=" + p);
    }
  }

  /** Other p converge, to an answer different from W2. */
  @Test
  void otherPConvergeToAMinimum() {
    for (double p : new double[] {1.5, 3}) {
      LpProjection proj = LpProjection.of(p);
      LpProjection.Result r = proj.minimise(P, 1, -2, 4);
      assertTrue(r.converged(), r.toString());
      TiltedMoments w2 = W2Projection.exact().project(P, 1, -2, 4);
      assertTrue(
          Math.abs(r.sd() - Math.sqrt(w2.variance())) > 1e-4, "p=" + p + " should differ from W2");
    }
    assertThrows(IllegalArgumentException.class, () -> LpProjection.of(0.5));
    assertThrows(IllegalArgumentException.class, () -> LpProjection.of(LpProjection.MAX_P + 1));
  }

  /**
   * Noisy step p(y | f) = ε + (1 − 2ε) H(y f), test-only: it depends on the sign of f alone, so the
   * projection is scale-equivariant — cavity N(c m, c² v) projects to (c μ*, c σ*). Closed forms: with
   * s = √v, z = y m/s, Z = ε + (1 − 2ε) Φ(z), α = (1 − 2ε) φ(z)/(s Z): mean m + y v α, variance
   * v (1 − s α (s α + z)); the CDF by splitting the cavity mass at f = 0.
   */
  record NoisyStep(double eps) implements org.approxgp.likelihood.Likelihood {
    @Override
    public String name() {
      return "noisy-step-test";
    }

    @Override
    public void validate(double y) {}

    @Override
    public org.approxgp.likelihood.LogDensity logDensity(double y, double f) {
      return new org.approxgp.likelihood.LogDensity(Math.log(y * f > 0 ? 1 - eps : eps), 0, 0, 0);
    }

    @Override
    public TiltedMoments tilted(double y, double m, double v) {
      double s = Math.sqrt(v);
      double z = y * m / s;
      double zn = eps + (1 - 2 * eps) * org.approxgp.special.Normal.cdf(z);
      double a = (1 - 2 * eps) * org.approxgp.special.Normal.pdf(z) / (s * zn);
      return new TiltedMoments(Math.log(zn), m + y * v * a, v * (1 - s * a * (s * a + z)));
    }

    @Override
    public double tiltedCdf(double y, double m, double v, double x) {
      double s = Math.sqrt(v);
      double zn = eps + (1 - 2 * eps) * org.approxgp.special.Normal.cdf(y * m / s);
      double t = (x - m) / s;
      double zero = -m / s;
      double step = y > 0
          ? Math.max(0, org.approxgp.special.Normal.cdf(t) - org.approxgp.special.Normal.cdf(zero))
          : org.approxgp.special.Normal.cdf(Math.min(t, zero));
      return Math.min(1, (eps * org.approxgp.special.Normal.cdf(t) + (1 - 2 * eps) * step) / zn);
    }

    @Override
    public org.approxgp.likelihood.VariationalExpectation variationalExpectation(
        double y, double m, double v) {
      throw new UnsupportedOperationException("not needed here");
    }
  }

  /**
   * A narrow and a wide cavity: |η|^p must neither underflow nor overflow. Before the projection
   * worked in units of the EP moments, a narrow cavity at p = 10 stopped at the EP moments after one
   * step (|η| ~ 1e-4, so every gradient was ~1e-36) and reported convergence. On the scale-free noisy
   * step the answer at cavity N(c m, c² v) must be c times the answer at N(m, v) for c from 1e-3 to 1e3.
   */
  @Test
  void narrowAndWideCavitiesGiveTheScaledAnswer() {
    NoisyStep lik = new NoisyStep(0.1);
    for (double p : new double[] {1.5, 3, 10}) {
      LpProjection.Result ref = LpProjection.of(p).minimise(lik, 1, -0.5, 1);
      assertTrue(ref.converged(), ref.toString());
      TiltedMoments ep = lik.tilted(1, -0.5, 1);
      assertTrue(Math.abs(ref.mean() - ep.mean()) > 1e-3, "p=" + p + " at EP's mean: " + ref);
      for (double c : new double[] {1e-3, 0.1, 10, 1e3}) {
        LpProjection.Result r = LpProjection.of(p).minimise(lik, 1, -0.5 * c, c * c);
        String at = "p=" + p + ", c=" + c + ": " + r + " vs " + ref;
        assertTrue(r.converged(), at);
        assertEquals(ref.mean(), r.mean() / c, 1e-7, at);
        assertEquals(ref.sd(), r.sd() / c, 1e-7, at);
      }
    }
  }
}
