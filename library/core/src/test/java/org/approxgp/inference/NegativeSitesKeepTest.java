package org.approxgp.inference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.approxgp.kernel.Kernel;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.likelihood.NoisyStep;
import org.approxgp.likelihood.Probit;
import org.approxgp.likelihood.TiltedMoments;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.Matrix;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The KEEP negative-site policy (Minka's EP; {@link SiteLoop.NegativeSitePrecision#KEEP}): its
 * parameterisation B = I + Lᵀ S̃ L agrees with the √τ̃ form where both apply (probit, no negative
 * sites), keeps negative site precisions where CLIP clips them (noisy step), and its posterior and
 * fixed point check against a direct computation.
 */
@Tag("rounding")
class NegativeSitesKeepTest {

  private static final SiteLoopOptions CLIP = SiteLoopOptions.defaults();
  private static final SiteLoopOptions KEEP =
      CLIP.withNegativeSites(SiteLoop.NegativeSitePrecision.KEEP);

  @Test
  void keepEqualsClipOnProbit() {
    double[][] x = SmallProblems.inputs(5, 30, 3);
    double[] y = SmallProblems.labels(6, x);
    Problem p = Problem.of(SmallProblems.iso(), x, y, Probit.get());
    Posterior c = SiteLoop.run(p, MomentMatching.ep(), CLIP, null);
    Posterior k = SiteLoop.run(p, MomentMatching.ep(), KEEP, null);
    assertEquals(0, c.diagnostics().clippedSites());
    assertEquals(0.0, k.diagnostics().jitter(), "K factored without jitter");
    assertEquals(c.diagnostics().iterations(), k.diagnostics().iterations());
    assertClose(c.sites().tau(), k.sites().tau(), 1e-12, "tau");
    assertClose(c.sites().nu(), k.sites().nu(), 1e-12, "nu");
    assertClose(c.mean(), k.mean(), 1e-12, "mean");
    assertClose(c.variance(), k.variance(), 1e-12, "variance");
    assertClose(c.alpha(), k.alpha(), 1e-12, "alpha");
    assertEquals(c.logEvidence(), k.logEvidence(), 1e-12 * Math.abs(c.logEvidence()), "log Z");
    assertClose(c.logEvidenceGradient(), k.logEvidenceGradient(), 1e-10, "gradient");
    double[][] xs = SmallProblems.inputs(7, 9, 3);
    assertClose(c.predict(xs).latentMean(), k.predict(xs).latentMean(), 1e-12, "predictive mean");
    assertClose(
        c.predict(xs).latentVariance(),
        k.predict(xs).latentVariance(),
        1e-12,
        "predictive variance");
  }

  @Test
  void keepKeepsNegativeSitesWhereClipClips() {
    NoisyData d = NoisyData.of(1, 20, 0.2);
    Kernel kern = SquaredExponential.iso(1.0, 2.0);
    Problem p = Problem.of(kern, d.x, d.y, NoisyStep.of(0.2));
    Posterior c = SiteLoop.run(p, MomentMatching.ep(), CLIP, null);
    Posterior k = SiteLoop.run(p, MomentMatching.ep(), KEEP, null);
    assertTrue(
        c.diagnostics().converged() && k.diagnostics().converged(),
        k.diagnostics().toString());
    assertTrue(c.diagnostics().clippedSites() > 0, c.diagnostics().toString());
    assertEquals(0, k.diagnostics().clippedSites());
    int negative = 0;
    for (double t : k.sites().tau()) {
      negative += t < 0 ? 1 : 0;
    }
    assertTrue(negative > 0, "KEEP's fixed point has negative site precisions");
    for (double t : c.sites().tau()) {
      assertTrue(t >= 0);
    }
    // the posterior against a direct computation: Σ = (K⁻¹ + S̃)⁻¹, μ = Σ ν̃
    int n = d.y.length;
    Matrix km = kern.matrix(d.x);
    Matrix prec = Cholesky.factor(km).inverse();
    double[] tau = k.sites().tau();
    double[] nu = k.sites().nu();
    for (int i = 0; i < n; i++) {
      prec.set(i, i, prec.get(i, i) + tau[i]);
    }
    Matrix sigma = Cholesky.factor(prec).inverse();
    double[] mu = sigma.mult(nu);
    for (int i = 0; i < n; i++) {
      assertEquals(sigma.get(i, i), k.variance()[i], 1e-9 * sigma.get(i, i), "variance " + i);
      assertEquals(mu[i], k.mean()[i], 1e-9 * (1 + Math.abs(mu[i])), "mean " + i);
    }
    // a fixed point of EP with the sites kept: each site = projection / cavity at the final
    // marginals
    double change = 0;
    for (int i = 0; i < n; i++) {
      double tc = 1 / k.variance()[i] - tau[i];
      double nc = k.mean()[i] / k.variance()[i] - nu[i];
      TiltedMoments t = p.likelihood().tilted(d.y[i], nc / tc, 1 / tc);
      change = Math.max(change, Math.abs(1 / t.variance() - tc - tau[i]));
      change = Math.max(change, Math.abs(t.mean() / t.variance() - nc - nu[i]));
    }
    assertTrue(change < 1e-4, "KEEP is at an EP fixed point: largest site residual " + change);
    assertTrue(Double.isFinite(k.logEvidence()));
    // the fixed points differ: clipping changes the answer
    double diff = 0;
    for (int i = 0; i < n; i++) {
      diff = Math.max(diff, Math.abs(c.mean()[i] - k.mean()[i]));
    }
    assertTrue(diff > 1e-3, "KEEP and CLIP differ on the noisy step: " + diff);
  }

  @Test
  void posteriorThatIsNotPositiveDefiniteIsAnInferenceException() {
    NoisyData d = NoisyData.of(1, 20, 0.2);
    Problem p = Problem.of(SquaredExponential.iso(1.0, 2.0), d.x, d.y, NoisyStep.of(0.2));
    double[] tau = new double[20];
    double[] nu = new double[20];
    tau[3] = -50; // a site precision far more negative than any prior precision can absorb
    InferenceException e = assertThrows(
        InferenceException.class,
        () -> SiteLoop.run(p, MomentMatching.ep(), KEEP, Sites.of(tau, nu)));
    assertTrue(e.getMessage().contains("not positive definite"), e.getMessage());
    assertTrue(e.diagnostics() != null);
  }

  private static void assertClose(double[] a, double[] b, double tol, String what) {
    assertEquals(a.length, b.length);
    for (int i = 0; i < a.length; i++) {
      assertEquals(a[i], b[i], tol * (1 + Math.abs(a[i])), what + " " + i);
    }
  }
}
