package org.approxgp.likelihood;

import java.util.List;

/** {@link Probit} meets the {@link LikelihoodContract}. */
class ProbitContractTest extends LikelihoodContract {
  @Override
  protected List<Case> cases() {
    return List.of(new Case(Probit.get(), new double[] {-1, 1}, true));
  }
}
