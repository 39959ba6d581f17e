package org.approxgp.likelihood;

import java.util.List;

/** {@link Gaussian} meets the {@link LikelihoodContract}. */
class GaussianContractTest extends LikelihoodContract {
  @Override
  protected List<Case> cases() {
    return List.of(new Case(Gaussian.of(0.3), new double[] {-1.2, 0.4, 2.5}, true));
  }
}
