package org.approxgp.projection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.approxgp.anchors.GpmlIonosphere;
import org.approxgp.inference.Ep;
import org.approxgp.inference.ExactGpr;
import org.approxgp.inference.Posterior;
import org.approxgp.inference.Prediction;
import org.approxgp.inference.Problem;
import org.approxgp.inference.Qp;
import org.approxgp.kernel.Kernel;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.likelihood.Gaussian;
import org.approxgp.likelihood.Probit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** QP = EP's site loop with the W2 projection: consistency with exact GPR, Corollary 2.1–2.2, the table. */
class QpInferenceTest {
  private static Posterior ep;
  private static Posterior qpTable;
  private static Posterior qpExact;
  private static GpmlIonosphere.Split test;
  private static Problem problem;

  @BeforeAll
  static void ionosphere() {
    GpmlIonosphere.Split train = GpmlIonosphere.train();
    test = GpmlIonosphere.test();
    problem = Problem.of(SquaredExponential.iso(2.0, 2.25), train.x(), train.y(), Probit.get());
    Ep.Options tight = Ep.Options.defaults().withLoop(l -> l.withTolerance(1e-9));
    ep = Ep.infer(problem, tight, null);
    qpTable = Qp.infer(problem, tight.withProjection(W2Projection.shipped()), null);
    qpExact = Qp.infer(problem, tight.withProjection(W2Projection.exact()), null);
  }

  /** With a Gaussian likelihood the tilted distribution is Gaussian: QP = EP = exact GP regression. */
  @Test
  void gaussianLikelihoodGivesExactRegression() {
    double[][] x = {{-2.0}, {-1.1}, {-0.3}, {0.2}, {0.9}, {1.7}, {2.4}};
    double[] y = {0.3, -0.2, 0.8, 1.1, 0.4, -0.6, -1.0};
    double noise = 0.15;
    Kernel k = SquaredExponential.iso(0.8, 1.3);
    Problem problem = Problem.of(k, x, y, Gaussian.of(noise));
    Posterior qp = Qp.infer(problem, Qp.options().withLoop(l -> l.withTolerance(1e-12)), null);
    Posterior e =
        Ep.infer(problem, Ep.Options.defaults().withLoop(l -> l.withTolerance(1e-12)), null);
    assertTrue(qp.diagnostics().converged(), qp.diagnostics().toString());
    // exact GPR (the shared fixture)
    ExactGpr ex = ExactGpr.of(k, x, y, noise, 0.0);
    double[] mu = qp.mean();
    double[] var = qp.variance();
    for (int i = 0; i < y.length; i++) {
      assertEquals(ex.mean()[i], mu[i], 1e-9, "mean " + i);
      assertEquals(ex.variance()[i], var[i], 1e-9, "variance " + i);
      assertEquals(e.mean()[i], mu[i], 1e-10);
      assertEquals(e.variance()[i], var[i], 1e-10);
    }
    assertEquals(e.logEvidence(), qp.logEvidence(), 1e-9 * Math.abs(e.logEvidence()));
  }

  /**
   * QP's default projection reads the shipped tables for the probit, as the per-likelihood choice does, and KL
   * options (EP's) are refused rather than silently replaced.
   */
  @Test
  void defaultOptionsAreTheShippedW2AndKlIsRefused() {
    Posterior viaLikelihood = Qp.infer(
        problem,
        Ep.Options.defaults()
            .withLoop(l -> l.withTolerance(1e-9))
            .withProjection(W2Projection.forLikelihood(problem.likelihood())),
        null);
    assertEquals(0.0, viaLikelihood.logEvidence() - qpTable.logEvidence(), 0.0);
    IllegalArgumentException e = assertThrows(
        IllegalArgumentException.class, () -> Qp.infer(problem, Ep.Options.defaults(), null));
    assertTrue(e.getMessage().contains("KL projection, which is EP's"), e.getMessage());
  }

  @Test
  void ionosphereConverges() {
    assertTrue(ep.diagnostics().converged(), ep.diagnostics().toString());
    assertTrue(qpTable.diagnostics().converged(), qpTable.diagnostics().toString());
    assertTrue(qpExact.diagnostics().converged(), qpExact.diagnostics().toString());
    assertEquals(0, qpExact.diagnostics().clippedSites());
    assertTrue(Double.isFinite(qpTable.logEvidence()));
  }

  /**
   * Corollary 2.1–2.2 as a property of the fixed points (the paper's Figure 1a, not a theorem): every
   * test point's predictive latent variance under QP is ≤ EP's. (Per-site precisions are not ordered at
   * the two different fixed points — the corollary compares updates from the same cavity — and indeed
   * are not on this split.)
   */
  @Test
  void predictiveVariancesBelowEp() {
    Prediction pe = ep.predict(test.x());
    Prediction pq = qpExact.predict(test.x());
    int below = 0;
    for (int j = 0; j < test.y().length; j++) {
      assertTrue(
          pq.latentVariance()[j] <= pe.latentVariance()[j] * (1 + 1e-12),
          "test point " + j + ": QP " + pq.latentVariance()[j] + " > EP " + pe.latentVariance()[j]);
      if (pq.latentVariance()[j] < pe.latentVariance()[j]) {
        below++;
      }
    }
    assertTrue(below > 0, "QP should shrink some variance");
  }

  /** Table-backed QP reaches the same fixed point as exact QP to ~1e-8 in the site parameters. */
  @Test
  void tableMatchesExactQp() {
    double[] ta = qpTable.sites().tau();
    double[] tb = qpExact.sites().tau();
    double[] na = qpTable.sites().nu();
    double[] nb = qpExact.sites().nu();
    double max = 0;
    for (int i = 0; i < ta.length; i++) {
      max = Math.max(max, Math.abs(ta[i] - tb[i]) / Math.max(1, Math.abs(tb[i])));
      max = Math.max(max, Math.abs(na[i] - nb[i]) / Math.max(1, Math.abs(nb[i])));
    }
    System.out.printf("QP table vs exact: max site-parameter difference %.3e%n", max);
    assertTrue(max < 5e-8, "max site difference " + max);
  }
}
