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
      assertEquals(Math.sqrt(w2.variance()), Math.sqrt(lp.variance()), 1e-8 * Math.sqrt(w2.variance()), "sd " + at);
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
      assertTrue(Math.abs(r.sd() - Math.sqrt(w2.variance())) > 1e-4, "p=" + p + " should differ from W2");
    }
    assertThrows(IllegalArgumentException.class, () -> LpProjection.of(0.5));
  }
}
