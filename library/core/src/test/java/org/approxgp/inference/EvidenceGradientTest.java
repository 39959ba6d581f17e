package org.approxgp.inference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.approxgp.kernel.Kernel;
import org.approxgp.likelihood.Probit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Analytic ∂ log q(y)/∂θ against central finite differences of the converged log evidence, for
 * Laplace (explicit + implicit term, R&amp;W Alg. 5.1), VB (ELBO; envelope theorem) and EP (eq. 5.27),
 * on a small probit problem with iso and ARD kernels; plus VB's partial derivatives in α, λ and θ at a
 * point that is not the optimum (which checks the formulas themselves, not only the envelope theorem).
 */
@Tag("rounding")
class EvidenceGradientTest {
  static final double H = 1e-5;

  static Stream<Arguments> methods() {
    Function<Problem, Posterior> laplace =
        p -> Laplace.infer(p, LaplaceOptions.defaults().withTolerance(1e-12), null);
    Function<Problem, Posterior> vb =
        p -> Vb.infer(p, VbOptions.defaults().withTolerance(1e-11), null);
    Function<Problem, Posterior> ep =
        p -> Ep.infer(p, Ep.Options.defaults().withLoop(l -> l.withTolerance(1e-12)), null);
    return Stream.of(
        Arguments.of("laplace", laplace, 0.0), Arguments.of("laplace", laplace, 0.3),
        Arguments.of("vb", vb, 0.0), Arguments.of("vb", vb, 0.3),
        Arguments.of("ep", ep, 0.0), Arguments.of("ep", ep, 0.3));
  }

  static Problem probit(Kernel k, double m0) {
    double[][] x = SmallProblems.inputs(5, 24, 3);
    return new Problem(k, x, SmallProblems.labels(5, x), Probit.get(), m0);
  }

  @ParameterizedTest(name = "{0} m0={2}")
  @MethodSource("methods")
  void gradientMatchesFiniteDifferences(
      String name, Function<Problem, Posterior> method, double m0) {
    for (Kernel k : new Kernel[] {SmallProblems.iso(), SmallProblems.ard(3)}) {
      Problem p = probit(k, m0);
      Posterior post = method.apply(p);
      assertTrue(post.diagnostics().converged(), post.diagnostics().toString());
      double[] g = post.logEvidenceGradient();
      double[] theta = k.logHyperparameters();
      double maxErr = 0;
      for (int j = 0; j < theta.length; j++) {
        double[] tp = theta.clone();
        double[] tm = theta.clone();
        tp[j] += H;
        tm[j] -= H;
        double fp = method.apply(p.withKernel(k.withLogHyperparameters(tp))).logEvidence();
        double fm = method.apply(p.withKernel(k.withLogHyperparameters(tm))).logEvidence();
        double fd = (fp - fm) / (2 * H);
        maxErr = Math.max(maxErr, Math.abs(fd - g[j]) / (1 + Math.abs(fd)));
        assertEquals(fd, g[j], 1e-7 * (1 + Math.abs(fd)), name + " " + k.name() + " θ" + j);
      }
      System.out.printf(
          "%s %s m0=%.1f: max relative gradient error %.2e%n", name, k.name(), m0, maxErr);
    }
  }

  /** The VB formulas at an arbitrary (α, λ), where ∂ELBO/∂α, ∂ELBO/∂λ ≠ 0. */
  @Test
  void vbPartialDerivativesOffOptimum() {
    for (Kernel k : new Kernel[] {SmallProblems.iso(), SmallProblems.ard(3)}) {
      Problem p = probit(k, 0.2);
      int n = p.size();
      UniformRandomProvider rng = RandomSource.SPLIT_MIX_64.create(99);
      double[] alpha = new double[n];
      double[] lambda = new double[n];
      for (int i = 0; i < n; i++) {
        alpha[i] = rng.nextDouble() - 0.5;
        lambda[i] = 0.05 + rng.nextDouble();
      }
      VbElbo.Evaluation ev = VbElbo.of(p, alpha, lambda, true);
      for (int i = 0; i < n; i++) {
        double[] ap = alpha.clone();
        double[] am = alpha.clone();
        ap[i] += H;
        am[i] -= H;
        double fd =
            (VbElbo.of(p, ap, lambda, false).elbo - VbElbo.of(p, am, lambda, false).elbo) / (2 * H);
        assertEquals(fd, ev.gradAlpha[i], 1e-6 * (1 + Math.abs(fd)), "∂/∂α" + i);
        double[] lp = lambda.clone();
        double[] lm = lambda.clone();
        lp[i] += H;
        lm[i] -= H;
        fd = (VbElbo.of(p, alpha, lp, false).elbo - VbElbo.of(p, alpha, lm, false).elbo) / (2 * H);
        assertEquals(fd, ev.gradLambda[i], 1e-6 * (1 + Math.abs(fd)), "∂/∂λ" + i);
      }
      double[] theta = k.logHyperparameters();
      for (int j = 0; j < theta.length; j++) {
        double[] tp = theta.clone();
        double[] tm = theta.clone();
        tp[j] += H;
        tm[j] -= H;
        double fd = (VbElbo.of(p.withKernel(k.withLogHyperparameters(tp)), alpha, lambda, false)
                    .elbo
                - VbElbo.of(p.withKernel(k.withLogHyperparameters(tm)), alpha, lambda, false).elbo)
            / (2 * H);
        assertEquals(fd, ev.gradTheta[j], 1e-6 * (1 + Math.abs(fd)), "∂/∂θ" + j + " " + k.name());
      }
    }
  }

  /** At the VB optimum the (α, λ) gradient vanishes — the premise of the envelope theorem. */
  @Test
  void vbOptimumIsStationary() {
    Problem p = probit(SmallProblems.ard(3), 0.0);
    Posterior post = Vb.infer(p, VbOptions.defaults().withTolerance(1e-11), null);
    VbElbo.Evaluation ev = VbElbo.of(p, post.alpha(), post.sites().tau(), true);
    assertEquals(post.logEvidence(), ev.elbo, 1e-10 * Math.abs(ev.elbo));
    for (int i = 0; i < p.size(); i++) {
      assertEquals(0, ev.gradAlpha[i], 1e-8, "∂/∂α" + i);
      assertEquals(0, ev.gradLambda[i], 1e-8, "∂/∂λ" + i);
    }
  }
}
