package org.approxgp.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.approxgp.anchors.GpmlIonosphere;
import org.approxgp.inference.Ep;
import org.approxgp.inference.Posterior;
import org.approxgp.inference.Problem;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.likelihood.Probit;
import org.junit.jupiter.api.Test;

class NumericalGradientTest {

  /** EP's analytic gradient is exact at its fixed point, so the central differences must reproduce it. */
  @Test
  void centralDifferencesReproduceEpsAnalyticGradient() {
    GpmlIonosphere.Split tr = GpmlIonosphere.train();
    Problem p = Problem.of(ard(), tr.x(), tr.y(), Probit.get());
    InferenceMethod ep =
        InferenceMethod.ep(Ep.Options.defaults().withLoop(l -> l.withTolerance(1e-10)));
    Posterior analytic = ep.infer(p, null);
    Posterior numeric = InferenceMethod.withNumericalGradient(ep, 1e-4).infer(p, null);
    double[] a = analytic.logEvidenceGradient();
    double[] n = numeric.logEvidenceGradient();
    for (int j = 0; j < a.length; j++) {
      assertEquals(a[j], n[j], 1e-5 * Math.max(1, Math.abs(a[j])), "component " + j);
    }
    assertEquals(analytic.logEvidence(), numeric.logEvidence(), 0);
  }

  /** Fitting QP from EP's optimum converges (with the analytic EP-form gradient it stalled at step 0). */
  @Test
  void qpFitFromEpOptimumConverges() {
    GpmlIonosphere.Split tr = GpmlIonosphere.train();
    Problem p = Problem.of(SquaredExponential.iso(1, 1), tr.x(), tr.y(), Probit.get());
    FittedGp ep = GpModel.fit(p, Registry.inference("ep"), GpModel.FitOptions.optimize(p.kernel()));
    FittedGp qp = GpModel.fit(
        p.withKernel(ep.kernel()),
        Registry.inference("qp"),
        GpModel.FitOptions.optimize(p.kernel()));
    assertTrue(qp.converged(), qp.optimizerStatus() + " " + qp.posterior().diagnostics());
    assertTrue(qp.iterations() >= 1);
    Posterior atEp = Registry.inference("qp").infer(p.withKernel(ep.kernel()), null);
    assertTrue(
        qp.logEvidence() >= atEp.logEvidence() - 1e-7,
        qp.logEvidence() + " vs " + atEp.logEvidence());
  }

  private static SquaredExponential ard() {
    double[] ls = new double[33];
    for (int k = 0; k < 33; k++) {
      ls[k] = 4 + 0.1 * k;
    }
    return SquaredExponential.ard(ls, 3);
  }
}
