package org.approxgp.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.approxgp.inference.Diagnostics;
import org.approxgp.inference.Ep;
import org.approxgp.inference.InferenceException;
import org.approxgp.inference.Problem;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.likelihood.Probit;
import org.junit.jupiter.api.Test;

/**
 * How {@link GpModel#fit} and {@link InferenceMethod#withNumericalGradient} treat failures: a numerical
 * failure ({@link InferenceException}) at a trial θ makes the line search back off; an
 * {@link IllegalArgumentException} (a programming error) propagates.
 */
class GpModelFailureTest {

  static Problem problem() {
    UniformRandomProvider rng = RandomSource.SPLIT_MIX_64.create(17);
    int n = 30;
    double[][] x = new double[n][2];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      x[i][0] = -2 + 4 * rng.nextDouble();
      x[i][1] = -2 + 4 * rng.nextDouble();
      y[i] = Math.sin(x[i][0] + x[i][1]) + 0.5 * (rng.nextDouble() - 0.5) >= 0 ? 1 : -1;
    }
    return Problem.of(SquaredExponential.iso(1.0, 1.0), x, y, Probit.get());
  }

  /** EP that throws {@code failure} on its {@code at}-th call. */
  static InferenceMethod failingOnCall(int at, RuntimeException failure, AtomicInteger calls) {
    InferenceMethod ep = InferenceMethod.ep(Ep.Options.defaults());
    return InferenceMethod.of("ep", (p, w) -> {
      if (calls.incrementAndGet() == at) {
        throw failure;
      }
      return ep.infer(p, w);
    });
  }

  static InferenceException numericalFailure() {
    return new InferenceException(
        "test failure", new Diagnostics("ep", 3, false, Double.NaN, 0, 0, 0, 0, ""), null);
  }

  /**
   * The failure is swallowed and the fit returns the best posterior it evaluated. (What the optimiser
   * does after the back-off is Lbfgs's business: its line search shrinks the step and goes on; this test
   * does not depend on that.)
   */
  @Test
  void inferenceExceptionAtATrialPointMakesTheLineSearchBackOff() {
    Problem p = problem();
    double start = Ep.infer(p).logEvidence();
    for (int at : new int[] {2, 4}) {
      AtomicInteger calls = new AtomicInteger();
      FittedGp fit = GpModel.fit(
          p, failingOnCall(at, numericalFailure(), calls), GpModel.FitOptions.optimize(p.kernel()));
      assertTrue(calls.get() > at, "the fit went on after the failure: " + calls.get() + " calls");
      assertTrue(Double.isFinite(fit.logEvidence()));
      assertTrue(fit.logEvidence() >= start, fit.logEvidence() + " < " + start);
      if (at == 4) {
        assertTrue(fit.logEvidence() > start + 1, "three good evaluations improve on the start");
      }
    }
  }

  @Test
  void illegalArgumentExceptionPropagates() {
    Problem p = problem();
    IllegalArgumentException bug = new IllegalArgumentException("a programming error");
    AtomicInteger calls = new AtomicInteger();
    IllegalArgumentException e = assertThrows(
        IllegalArgumentException.class,
        () ->
            GpModel.fit(p, failingOnCall(2, bug, calls), GpModel.FitOptions.optimize(p.kernel())));
    assertSame(bug, e);
    assertEquals(2, calls.get());
  }

  @Test
  void aMethodWithoutGradientCannotBeFitted() {
    Problem p = problem();
    InferenceMethod noGradient =
        InferenceMethod.ep(Ep.Options.defaults().withLoop(l -> l.withGradient(false)));
    assertThrows(
        IllegalArgumentException.class,
        () -> GpModel.fit(p, noGradient, GpModel.FitOptions.optimize(p.kernel())));
  }

  @Test
  void numericalGradientPropagatesASideFailureAsInferenceException() {
    Problem p = problem();
    // call 1 is the centre, calls 2 and 3 the two sides of θ0
    AtomicInteger calls = new AtomicInteger();
    InferenceMethod m =
        InferenceMethod.withNumericalGradient(failingOnCall(3, numericalFailure(), calls), 1e-4);
    InferenceException e = assertThrows(InferenceException.class, () -> m.infer(p, null));
    assertTrue(
        e.getMessage().contains("numerical gradient") && e.getMessage().contains("θ0 - h"),
        e.getMessage());
    assertEquals(3, e.diagnostics().iterations());
    IllegalArgumentException bug = new IllegalArgumentException("a programming error");
    AtomicInteger calls2 = new AtomicInteger();
    InferenceMethod m2 = InferenceMethod.withNumericalGradient(failingOnCall(2, bug, calls2), 1e-4);
    assertSame(bug, assertThrows(IllegalArgumentException.class, () -> m2.infer(p, null)));
  }
}
