package org.approxgp.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.approxgp.likelihood.Gaussian;
import org.approxgp.likelihood.Likelihood;
import org.approxgp.likelihood.NoisyStep;
import org.approxgp.likelihood.PoissonSquareLink;
import org.approxgp.likelihood.Probit;
import org.junit.jupiter.api.Test;

/** The samplers' derivative-free log density equals the value part of the full one, for every likelihood. */
class LogDensityValueTest {
  @Test
  void logDensityValueEqualsLogDensity() {
    record Case(Likelihood lik, double[] ys) {}
    List<Case> cases = List.of(
        new Case(Probit.get(), new double[] {-1, 1}),
        new Case(NoisyStep.of(0.1), new double[] {-1, 1}),
        new Case(PoissonSquareLink.get(), new double[] {0, 3}),
        new Case(Gaussian.of(0.3), new double[] {-0.7, 2.5}));
    for (Case c : cases) {
      for (double y : c.ys()) {
        for (double f = -40; f <= 40; f += 0.37) {
          double full = c.lik().logDensity(y, f).value();
          assertEquals(
              full,
              c.lik().logDensityValue(y, f),
              1e-14 * Math.max(1, Math.abs(full)),
              c.lik().name() + " at y = " + y + ", f = " + f);
        }
      }
    }
  }
}
