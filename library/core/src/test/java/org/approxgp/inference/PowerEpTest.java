package org.approxgp.inference;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.approxgp.kernel.Kernel;
import org.approxgp.kernel.Linear;
import org.approxgp.likelihood.Gaussian;
import org.approxgp.likelihood.Probit;
import org.approxgp.special.Normal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link PowerEp}: u = 1 is EP; exact for a Gaussian likelihood; its evidence against quadrature at n = 1. */
class PowerEpTest {

  private static final SiteLoopOptions OPT = SiteLoopOptions.defaults().withTolerance(1e-10);

  @Test
  void powerOneIsEp() {
    double[][] x = SmallProblems.inputs(5, 30, 3);
    Problem p = Problem.of(SmallProblems.iso(), x, SmallProblems.labels(6, x), Probit.get());
    Posterior ep = SiteLoop.run(p, MomentMatching.ep(), OPT, null);
    Posterior pep = SiteLoop.run(p, PowerEp.of(1), OPT, null);
    assertEquals(ep.diagnostics().iterations(), pep.diagnostics().iterations());
    for (int i = 0; i < p.size(); i++) {
      assertEquals(
          ep.sites().tau()[i], pep.sites().tau()[i], 1e-12 * (1 + ep.sites().tau()[i]), "tau " + i);
      assertEquals(
          ep.sites().nu()[i],
          pep.sites().nu()[i],
          1e-12 * (1 + Math.abs(ep.sites().nu()[i])),
          "nu " + i);
      assertEquals(ep.mean()[i], pep.mean()[i], 1e-12, "mean " + i);
      assertEquals(ep.variance()[i], pep.variance()[i], 1e-12, "variance " + i);
    }
    assertEquals(ep.logEvidence(), pep.logEvidence(), 1e-12 * Math.abs(ep.logEvidence()));
  }

  @ParameterizedTest(name = "u={0}")
  @ValueSource(doubles = {0.3, 0.5, 0.8})
  void exactForAGaussianLikelihood(double u) {
    double[][] x = SmallProblems.inputs(3, 15, 2);
    double[] y = SmallProblems.targets(4, x);
    Kernel k = SmallProblems.ard(2);
    Posterior post =
        SiteLoop.run(new Problem(k, x, y, Gaussian.of(0.2), 0.3), PowerEp.of(u), OPT, null);
    ExactGpr ex = ExactGpr.of(k, x, y, 0.2, 0.3);
    for (int i = 0; i < y.length; i++) {
      assertEquals(ex.mean()[i], post.mean()[i], 1e-8, "mean " + i);
      assertEquals(ex.variance()[i], post.variance()[i], 1e-8, "variance " + i);
    }
    assertEquals(
        ex.logEvidence(), post.logEvidence(), 1e-8 * Math.abs(ex.logEvidence()), "log evidence");
  }

  /**
   * n = 1, probit, prior N(0, k): at Power EP's fixed point the site t̃ satisfies
   * proj(p t̃^{1−u} Φ^u) = p t̃ and log Z_PEP = (1/u) log ∫ p t̃^{1−u} Φ^u + (1 − 1/u) log ∫ p t̃ (the class
   * comment's sᵢ^u = Cᵢ Ẑᵢ with q = p t̃ / ∫ p t̃), all by direct quadrature on f.
   */
  @ParameterizedTest(name = "u={0}")
  @ValueSource(doubles = {0.25, 0.6, 0.9})
  void evidenceAgainstQuadratureForOneSite(double u) {
    double[][] x = {{1.3}};
    double[] y = {-1};
    Kernel kern = Linear.of(1.0); // k = x² = 1.69
    double kv = 1.69;
    Problem p = new Problem(kern, x, y, Probit.get(), 0.8);
    Posterior post = SiteLoop.run(p, PowerEp.of(u), OPT, null);
    double tau = post.sites().tau()[0];
    double nu = post.sites().nu()[0];
    double m0 = 0.8;
    // ∫ N(f | m0, k) exp(w(−½ τ f² + ν f)) Φ(y f)^a df on a fine grid (trapezoid, spectrally
    // accurate)
    double[] tilt = moments(m0, kv, 1 - u, tau, nu, u, y[0]);
    double[] q = moments(m0, kv, 1, tau, nu, 0, y[0]);
    assertEquals(q[1], tilt[1], 1e-8, "fixed point: means");
    assertEquals(q[2], tilt[2], 1e-8, "fixed point: variances");
    assertEquals(q[1], post.mean()[0], 1e-8);
    assertEquals(q[2], post.variance()[0], 1e-8);
    double logZ = Math.log(tilt[0]) / u + (1 - 1 / u) * Math.log(q[0]);
    assertEquals(logZ, post.logEvidence(), 1e-8, "log Z_PEP");
  }

  /** {∫ g, mean, variance} of g(f) = N(f | m0, k) exp(w(−½ τ f² + ν f)) Φ(y f)^a. */
  private static double[] moments(
      double m0, double k, double w, double tau, double nu, double a, double y) {
    double s = Math.sqrt(k);
    int n = 40001;
    double lo = m0 - 14 * s;
    double h = 28 * s / (n - 1);
    double z = 0;
    double m1 = 0;
    double m2 = 0;
    for (int j = 0; j < n; j++) {
      double f = lo + j * h;
      double g = Normal.pdf((f - m0) / s)
          / s
          * Math.exp(w * (-0.5 * tau * f * f + nu * f))
          * Math.pow(Normal.cdf(y * f), a);
      double wt = j == 0 || j == n - 1 ? 0.5 * h : h;
      z += wt * g;
      m1 += wt * g * f;
      m2 += wt * g * f * f;
    }
    double mean = m1 / z;
    return new double[] {z, mean, m2 / z - mean * mean};
  }
}
