package org.approxgp.inference;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.approxgp.likelihood.Likelihood;
import org.approxgp.likelihood.NoisyStep;
import org.approxgp.likelihood.Probit;
import org.junit.jupiter.api.Test;

/**
 * Why Relaxed EP refuses c = 0. Without the penalty the update minimises Q(b) alone (eq. 5): the KL between the
 * relaxed tilted distribution and its Gaussian projection. As b grows the relaxed cavity (precision τ₋ + b)
 * narrows, the likelihood is nearly constant across it, the tilted distribution tends to a Gaussian and Q(b) → 0:
 * the infimum is not attained at any finite b, so "the minimiser" is wherever a search's bracket ends (here
 * b = 100/λ or −0.9/λ), an artefact; a run at c = 0 then takes its sweep cap. This test shows Q falling towards 0 along b
 * for ordinary cavities of both likelihoods, the search ending at its bracket's edge, and c = 0 rejected.
 */
class RelaxedEpZeroPenaltyTest {

  @Test
  void withoutPenaltyTheObjectiveFallsTowardsZeroAsTheRelaxationGrows() {
    RelaxedEp rep = RelaxedEp.unpenalised(RelaxedEp.Objective.CLEAN);
    for (Likelihood lik : List.of(Probit.get(), NoisyStep.of(0.1))) {
      for (double[] cav : new double[][] {{0.5, 1.0}, {-1.0, 2.0}, {2.0, 0.5}}) {
        double lambda = cav[1];
        SiteUpdate.Cavity c = new SiteUpdate.Cavity(1 / lambda, cav[0] / lambda);
        double siteMean = 0.3;
        double first = Double.NaN;
        double previous = Double.POSITIVE_INFINITY;
        for (double k : new double[] {10, 100, 1e3, 1e4}) {
          double b = k / lambda;
          double q = rep.objective(lik, 1, c, siteMean, b);
          assertTrue(
              q <= previous && q >= 0,
              lik + " cavity " + cav[0] + "," + lambda + ": Q(" + k + "/λ) = " + q + " after "
                  + previous);
          first = Double.isNaN(first) ? q : first;
          previous = q;
        }
        assertTrue(first > 0 && previous < 1e-6 * first, "Q → 0: " + first + " → " + previous);
        // so the search ends at an edge of its bracket (the upper, or the lower where widening the
        // cavity helps
        // first): the "minimiser" is the bracket's, not the problem's
        double b = rep.lineSearch(lik, 1, c, siteMean);
        assertTrue(
            Math.abs(b * lambda - RelaxedEp.MAX_RELATIVE_B) < 1e-3
                || Math.abs(b * lambda - RelaxedEp.MIN_RELATIVE_B) < 1e-3,
            lik + ": b λ = " + b * lambda);
      }
    }
  }

  @Test
  void zeroPenaltyIsRejected() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> RelaxedEp.of(0));
    assertTrue(e.getMessage().contains("c > 0"), e.getMessage());
  }
}
