package org.approxgp.inference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Function;
import java.util.stream.Stream;
import org.approxgp.kernel.Kernel;
import org.approxgp.likelihood.Gaussian;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * GPflow-style consistency: with a Gaussian likelihood, Laplace, VB and EP are all exact, so each must
 * equal exact GP regression (R&amp;W Alg. 2.1, here with a constant prior mean m₀ ≠ 0), computed
 * independently by the shared fixture {@link ExactGpr}.
 */
@Tag("rounding")
class GaussianConsistencyTest {
  static final double NOISE = 0.09;
  static final double M0 = 0.4;
  static final double TOL = 1e-8;

  static ExactGpr exact(Kernel kern, double[][] x, double[] y, double[][] xs) {
    return ExactGpr.of(kern, x, y, NOISE, M0, xs);
  }

  static Stream<Arguments> cases() {
    Function<Problem, Posterior> laplace = Laplace::infer;
    Function<Problem, Posterior> vb = Vb::infer;
    Function<Problem, Posterior> ep =
        p -> Ep.infer(p, Ep.Options.defaults().withLoop(l -> l.withTolerance(1e-12)), null);
    Function<Problem, Posterior> epPar = p -> Ep.infer(
        p,
        Ep.Options.defaults()
            .withLoop(l -> l.withSchedule(SiteLoop.Schedule.PARALLEL).withTolerance(1e-12)),
        null);
    return Stream.of(
        Arguments.of("laplace", laplace),
        Arguments.of("vb", vb),
        Arguments.of("ep", ep),
        Arguments.of("ep-parallel", epPar));
  }

  static Problem problem(Kernel kern) {
    double[][] x = SmallProblems.inputs(11, 25, 2);
    return new Problem(kern, x, SmallProblems.targets(11, x), Gaussian.of(NOISE), M0);
  }

  static void assertClose(double[] expected, double[] actual, String what) {
    for (int i = 0; i < expected.length; i++) {
      assertEquals(expected[i], actual[i], TOL, what + " " + i);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void equalsExactGpRegression(String name, Function<Problem, Posterior> method) {
    for (Kernel kern : new Kernel[] {SmallProblems.iso(), SmallProblems.ard(2)}) {
      Problem p = problem(kern);
      double[][] xs = SmallProblems.inputs(12, 9, 2);
      ExactGpr ex = exact(kern, p.x(), p.y(), xs);
      Posterior post = method.apply(p);
      assertTrue(post.diagnostics().converged(), post.diagnostics().toString());
      assertClose(ex.mean(), post.mean(), name + " mean");
      assertClose(ex.variance(), post.variance(), name + " variance");
      Prediction pr = post.predict(xs);
      assertClose(ex.predMean(), pr.latentMean(), name + " predictive mean");
      assertClose(ex.predVar(), pr.latentVariance(), name + " predictive variance");
      assertEquals(
          ex.logEvidence(),
          post.logEvidence(),
          TOL * Math.abs(ex.logEvidence()),
          name + " log evidence");
    }
  }

  /** ELBO(α, λ) ≤ log p(y) for any q, with equality only at the exact posterior. */
  @Test
  void elboBelowEvidenceOffOptimum() {
    Problem p = problem(SmallProblems.iso());
    double lz = exact(p.kernel(), p.x(), p.y(), p.x()).logEvidence();
    Posterior post = Vb.infer(p);
    double[] alpha = post.alpha();
    double[] lambda = post.sites().tau();
    assertEquals(lz, VbElbo.of(p, alpha, lambda, false).elbo, TOL * Math.abs(lz));
    for (int t = 0; t < 5; t++) {
      double[] a = alpha.clone();
      double[] l = lambda.clone();
      for (int i = 0; i < a.length; i++) {
        double[] u = SmallProblems.inputs(200 + 31L * t + i, 1, 2)[0];
        a[i] += 0.3 * u[0];
        l[i] *= Math.exp(0.5 * u[1]);
      }
      double e = VbElbo.of(p, a, l, false).elbo;
      assertTrue(e < lz - 1e-6, "ELBO " + e + " vs log evidence " + lz);
    }
  }
}
