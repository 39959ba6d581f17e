package org.approxgp.likelihood;

import java.util.List;

/** {@link NoisyStep} meets the {@link LikelihoodContract}, at a moderate and a tiny flip probability. */
class NoisyStepContractTest extends LikelihoodContract {
  @Override
  protected List<Case> cases() {
    return List.of(
        new Case(NoisyStep.of(0.1), new double[] {-1, 1}, true),
        new Case(NoisyStep.of(1e-4), new double[] {-1, 1}, true));
  }
}
