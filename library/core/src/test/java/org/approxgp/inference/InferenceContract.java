package org.approxgp.inference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.approxgp.kernel.Kernel;
import org.approxgp.likelihood.Gaussian;
import org.approxgp.likelihood.Probit;
import org.approxgp.model.InferenceMethod;
import org.approxgp.model.Registry;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract every inference method meets: with a Gaussian likelihood it is exact GP regression (posterior,
 * log evidence, against the one {@link ExactGpr} oracle); with a probit likelihood it converges, returns finite
 * values and a gradient, and warm-starting from its own sites changes nothing.
 *
 * <p>A reusable base: a method's contract test extends it and names the methods, e.g. a damped EP
 * <pre>{@code
 * class DampedEpContractTest extends InferenceContract {
 *   protected List<InferenceMethod> methods() {
 *     return List.of(InferenceMethod.ep(Ep.Options.defaults().withLoop(l -> l.withDamping(0.5))));
 *   }
 * }
 * }</pre>
 * {@link RegisteredMethodsContractTest} covers every name in {@link Registry}, so a registered method is covered
 * without a test of its own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class InferenceContract {

  /** The methods this contract test covers. */
  protected abstract List<InferenceMethod> methods();

  @ParameterizedTest(name = "{0}")
  @MethodSource("methods")
  void gaussianLikelihoodGivesExactRegression(InferenceMethod method) {
    double[][] x = SmallProblems.inputs(3, 15, 2);
    double[] y = SmallProblems.targets(4, x);
    Kernel k = SmallProblems.ard(2);
    double noise = 0.2;
    double m0 = 0.3;
    Posterior post = method.infer(new Problem(k, x, y, Gaussian.of(noise), m0), null);
    ExactGpr ex = ExactGpr.of(k, x, y, noise, m0);
    for (int i = 0; i < y.length; i++) {
      assertEquals(ex.mean()[i], post.mean()[i], 1e-8, "mean " + i);
      assertEquals(ex.variance()[i], post.variance()[i], 1e-8, "variance " + i);
    }
    double logEv = ex.logEvidence();
    assertEquals(logEv, post.logEvidence(), 1e-8 * Math.abs(logEv), "log evidence");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("methods")
  void probitRunConvergesWithFiniteResultsAndIsAFixedPoint(InferenceMethod method) {
    double[][] x = SmallProblems.inputs(5, 30, 3);
    double[] y = SmallProblems.labels(6, x);
    Problem p = Problem.of(SmallProblems.iso(), x, y, Probit.get());
    Posterior post = method.infer(p, null);
    assertTrue(post.diagnostics().converged(), post.diagnostics().toString());
    assertTrue(Double.isFinite(post.logEvidence()));
    assertNotNull(post.logEvidenceGradient());
    for (double g : post.logEvidenceGradient()) {
      assertTrue(Double.isFinite(g));
    }
    for (double v : post.variance()) {
      assertTrue(v > 0 && Double.isFinite(v));
    }
    Posterior again = method.infer(p, post.sites());
    assertEquals(post.logEvidence(), again.logEvidence(), 1e-6 * Math.abs(post.logEvidence()));
    assertTrue(
        again.diagnostics().iterations() <= 2,
        "warm start from the fixed point: " + again.diagnostics());
  }
}
