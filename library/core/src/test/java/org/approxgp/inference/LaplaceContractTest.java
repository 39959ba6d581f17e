package org.approxgp.inference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.approxgp.likelihood.Likelihood;
import org.approxgp.likelihood.LogDensity;
import org.approxgp.likelihood.Probit;
import org.junit.jupiter.api.Test;

/** Laplace's failure modes and warm starts. */
class LaplaceContractTest {

  /** Student-t (ν = 3, scale 0.1): W = −∂² log p/∂f² is negative for |y − f| &gt; scale·√ν. */
  static final class StudentT implements Likelihood {
    @Override
    public String name() {
      return "student-t";
    }

    @Override
    public void validate(double y) {}

    @Override
    public LogDensity logDensity(double y, double f) {
      double nu = 3;
      double s2 = 0.01;
      double r = y - f;
      double q = nu * s2 + r * r;
      // log p = −(ν+1)/2 log(1 + r²/(ν s²)) + const;  d1 = (ν+1) r/q;  d2 = (ν+1)(r² − ν s²)/q²
      return new LogDensity(
          -(nu + 1) / 2 * Math.log(q / (nu * s2)),
          (nu + 1) * r / q,
          (nu + 1) * (r * r - nu * s2) / (q * q),
          0);
    }
  }

  @Test
  void negativeWThrowsInsteadOfClipping() {
    double[][] x = SmallProblems.inputs(3, 10, 1);
    double[] y = SmallProblems.targets(3, x);
    y[4] += 5; // an outlier: W < 0 at f = m₀
    Problem p = Problem.of(SmallProblems.iso(), x, y, new StudentT());
    InferenceException ex = assertThrows(InferenceException.class, () -> Laplace.infer(p));
    assertTrue(ex.getMessage().contains("not log-concave"), ex.getMessage());
    assertTrue(!ex.diagnostics().converged());
  }

  @Test
  void warmStartFromOwnSitesOrAlphaConvergesAtOnce() {
    double[][] x = SmallProblems.inputs(8, 30, 2);
    Problem p = Problem.of(SmallProblems.ard(2), x, SmallProblems.labels(8, x), Probit.get());
    Posterior cold = Laplace.infer(p);
    assertTrue(cold.diagnostics().iterations() > 2, cold.diagnostics().toString());
    Posterior fromSites = Laplace.infer(p, LaplaceOptions.defaults(), cold.sites());
    Posterior fromAlpha = Laplace.inferFrom(p, LaplaceOptions.defaults(), cold.alpha());
    for (Posterior w : new Posterior[] {fromSites, fromAlpha}) {
      assertTrue(w.diagnostics().converged());
      assertEquals(1, w.diagnostics().iterations(), w.diagnostics().toString());
      assertEquals(cold.logEvidence(), w.logEvidence(), 1e-12 * Math.abs(cold.logEvidence()));
      assertArrayEquals(cold.mean(), w.mean(), 1e-9);
    }
  }

  /** A bad warm start (Ψ below Ψ(0)) is discarded, as in GPML. */
  @Test
  void badWarmStartIsDiscarded() {
    double[][] x = SmallProblems.inputs(8, 30, 2);
    Problem p = Problem.of(SmallProblems.ard(2), x, SmallProblems.labels(8, x), Probit.get());
    double[] bad = new double[p.size()];
    for (int i = 0; i < bad.length; i++) {
      bad[i] = -50 * p.y()[i];
    }
    Posterior cold = Laplace.infer(p);
    Posterior w = Laplace.inferFrom(p, LaplaceOptions.defaults(), bad);
    assertEquals(cold.diagnostics().iterations(), w.diagnostics().iterations());
    assertEquals(cold.logEvidence(), w.logEvidence(), 1e-12 * Math.abs(cold.logEvidence()));
  }
}
