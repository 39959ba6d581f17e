package org.approxgp.papers.qp;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.approxgp.experiment.ProjectPaths;
import org.junit.jupiter.api.Test;

/**
 * compare's rows are held to their problem (EP's deterministic fit) and not to what the Markov-chain truth decides
 * within its noise: a decision that flips with the chain's path must not read as a change of code.
 */
class QpTruthVerifyTest {

  @Test
  void theProblemMustReproduceTheChainsDecisionsNeedNot() {
    assertTrue(QpTruth.VERIFY.isStable("log_lengthscale", 2.38));
    assertTrue(QpTruth.VERIFY.isStable("active_bounds", "log_signal_variance"));
    assertTrue(QpTruth.VERIFY.isStable("n", 180));
    // by the default rule these would be stable (a text without numbers, a boolean)
    assertFalse(QpTruth.VERIFY.isStable("closest mean", "vb"));
    assertFalse(QpTruth.VERIFY.isStable("capped", Boolean.FALSE));
    assertTrue(
        org.approxgp.experiment.VerifyRule.DEFAULT.isStable("closest mean", "vb"),
        "the default would hold the decision to the row");
  }

  @Test
  void theExperimentCarriesTheRule() {
    assertSame(
        QpTruth.VERIFY,
        QpTruth.experiment(QpTruth.config(ProjectPaths.Mode.SMOKE)).verifyRule());
  }
}
