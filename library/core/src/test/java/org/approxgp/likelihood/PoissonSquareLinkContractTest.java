package org.approxgp.likelihood;

import java.util.List;

/**
 * {@link PoissonSquareLink} meets the {@link LikelihoodContract}; its predictive is the QP paper's negative-binomial
 * approximation (appendix H), so only its tilted quantities are exact.
 */
class PoissonSquareLinkContractTest extends LikelihoodContract {
  @Override
  protected List<Case> cases() {
    return List.of(new Case(PoissonSquareLink.get(), new double[] {0, 1, 3, 7}, false));
  }
}
