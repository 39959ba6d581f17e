package org.approxgp.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.approxgp.inference.Ep;
import org.approxgp.inference.Posterior;
import org.approxgp.inference.Problem;
import org.approxgp.inference.Qp;
import org.approxgp.projection.W2Projection;
import org.junit.jupiter.api.Test;

/**
 * {@link GpModel.FitOptions#withWarmStart}: the first inference of a fit starts from the given sites. QP
 * started from EP's converged sites at the same θ reaches QP's own fixed point in fewer sweeps than from the
 * prior, and an optimised fit from given sites ends where the cold fit
 * ends.
 */
class FitWarmStartTest {

  @Test
  void qpFromEpSitesReachesTheSameFixedPointInFewerSweeps() {
    Problem p = QpMethodGradientTest.problem();
    Posterior ep = Ep.infer(p);
    assertNull(GpModel.FitOptions.fixed().warmStart());
    Ep.Options tight = Ep.Options.defaults().withLoop(l -> l.withTolerance(1e-10));
    InferenceMethod qp = InferenceMethod.of(
        "qp", (q, warm) -> Qp.infer(q, tight.withProjection(W2Projection.shipped()), warm));
    FittedGp cold = GpModel.fit(p, qp, GpModel.FitOptions.fixed());
    FittedGp warm = GpModel.fit(p, qp, GpModel.FitOptions.fixed().withWarmStart(ep.sites()));
    assertTrue(
        warm.posterior().diagnostics().iterations()
            < cold.posterior().diagnostics().iterations(),
        "sweeps from EP's sites " + warm.posterior().diagnostics().iterations() + " vs cold "
            + cold.posterior().diagnostics().iterations());
    assertEquals(cold.logEvidence(), warm.logEvidence(), 1e-9);
    double[] tc = cold.posterior().sites().tau();
    double[] tw = warm.posterior().sites().tau();
    for (int i = 0; i < tc.length; i++) {
      assertEquals(tc[i], tw[i], 1e-8 * (1 + Math.abs(tc[i])), "site " + i);
    }
    // optimised (EP: the implicit QP gradient's exact projections are slow here): the optimiser's
    // first
    // inference starts from the given sites and the fit ends at the cold fit's optimum
    Posterior epTight = Ep.infer(p, tight, null);
    FittedGp oc = GpModel.fit(p, Registry.inference("ep"), GpModel.FitOptions.optimize(p.kernel()));
    FittedGp ow = GpModel.fit(
        p,
        Registry.inference("ep"),
        GpModel.FitOptions.optimize(p.kernel()).withWarmStart(epTight.sites()));
    assertEquals(oc.logEvidence(), ow.logEvidence(), 1e-6);
  }
}
