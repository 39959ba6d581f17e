package org.approxgp.likelihood;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * A posterior clamps a round-off-negative predictive variance at 0 ({@code Posterior.predict}); the log
 * predictive density must then be the v → 0 limit log p(y | m), not an exception (the Poisson square
 * link threw IllegalArgumentException at v = 0), and continuous with small v.
 */
class ZeroPredictiveVarianceTest {

  private static void limit(Likelihood lik, double y, double m) {
    double at0 = lik.logPredictive(y, m, 0);
    assertEquals(lik.logDensity(y, m).value(), at0, 1e-12, lik.name());
    assertEquals(
        at0,
        lik.logPredictive(y, m, 1e-10),
        1e-6 * (1 + Math.abs(at0)),
        lik.name() + " continuity");
  }

  @Test
  void logPredictiveAtZeroVarianceIsTheLikelihood() {
    limit(PoissonSquareLink.get(), 3, 1.7);
    limit(PoissonSquareLink.get(), 0, -0.4);
    limit(Probit.get(), 1, 0.3);
    limit(Probit.get(), -1, 2.0);
    limit(Gaussian.of(0.25), 0.4, -0.1);
  }
}
