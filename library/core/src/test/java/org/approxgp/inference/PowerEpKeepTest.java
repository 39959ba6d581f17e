package org.approxgp.inference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.approxgp.kernel.Kernel;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.likelihood.Likelihood;
import org.approxgp.likelihood.PoissonSquareLink;
import org.approxgp.likelihood.TiltedMoments;
import org.approxgp.linalg.Matrix;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Power EP with kept negative site precisions on the Poisson square link, where the power-tilted distribution
 * can be bimodal: the site loop's step limit and the evidence through the u-cavity ({@link SiteUpdate#logScale}),
 * both checked at the fixed point against a direct computation that shares nothing with the loop (a dense
 * Gaussian integral by elimination and one 1-D quadrature per site).
 */
@Tag("rounding")
class PowerEpKeepTest {

  private static final SiteLoopOptions KEEP = SiteLoopOptions.defaults()
      .withNegativeSites(SiteLoop.NegativeSitePrecision.KEEP)
      .withTolerance(1e-10);

  /**
   * A seeded small count problem (n = 9, u ≈ 0.49) found by a search over seeds: its run shortens a step, and at
   * its fixed point EP's full cavity 1/Σᵢᵢ − τ̃ᵢ of some site is improper while every u-cavity is proper.
   */
  private record Case(Problem problem, double u) {}

  private static Case seeded() {
    UniformRandomProvider r = RandomSource.SPLIT_MIX_64.create(47L);
    int n = 6 + r.nextInt(10);
    double[][] x = new double[n][1];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      x[i][0] = 4 * r.nextDouble();
      y[i] = r.nextInt(4);
    }
    double sf = Math.exp(2 * r.nextDouble() - 1);
    double ell = Math.exp(2 * r.nextDouble() - 1);
    double m0 = 1.5 * r.nextDouble();
    double u = 0.1 + 0.8 * r.nextDouble();
    return new Case(
        new Problem(SquaredExponential.iso(sf, ell), x, y, PoissonSquareLink.get(), m0), u);
  }

  @Test
  void shortenedStepsReachAFixedPointAndTheEvidenceNeedsOnlyTheUCavity() {
    Case c = seeded();
    Problem p = c.problem();
    double u = c.u();
    Posterior post = SiteLoop.run(p, PowerEp.of(u), KEEP, null);
    Diagnostics d = post.diagnostics();
    assertTrue(d.converged(), d.toString());
    assertTrue(d.limitedSteps() > 0, "the case exercises the step limit: " + d);
    int n = p.size();
    double[] tau = post.sites().tau();
    double[] nu = post.sites().nu();
    double[] mu = post.mean();
    double[] var = post.variance();
    int improper = 0;
    for (int i = 0; i < n; i++) {
      if (!(1 / var[i] - tau[i] > 0)) {
        improper++;
      }
      assertTrue(1 / var[i] - u * tau[i] > 0, "u-cavity " + i);
    }
    assertTrue(improper > 0, "some site's EP cavity is improper at this fixed point");

    // the fixed point: every site equals its own update (paper eq. 42 from the u-cavity), without
    // the loop
    for (int i = 0; i < n; i++) {
      double tc = 1 / var[i] - u * tau[i];
      double nc = mu[i] / var[i] - u * nu[i];
      TiltedMoments t = p.likelihood().powerTilted(p.y()[i], nc / tc, 1 / tc, u);
      assertEquals(
          tau[i],
          (1 / t.variance() - tc) / u,
          1e-7 * (1 + Math.abs(tau[i])),
          "site precision " + i);
      assertEquals(
          nu[i],
          (t.mean() / t.variance() - nc) / u,
          1e-7 * (1 + Math.abs(nu[i])),
          "site mean " + i);
    }

    // log Z_PEP = log ∫ N(f | m₀, K) Πᵢ t̃ᵢ(fᵢ) df + Σᵢ log sᵢ, sᵢ^u = ∫ N(f | μᵢ, Σᵢᵢ) (p(yᵢ |
    // f)/t̃ᵢ(f))^u df
    double want = gaussianPart(p.kernel(), p.x(), p.priorMean(), tau, nu);
    for (int i = 0; i < n; i++) {
      want += logScaleByQuadrature(p.likelihood(), p.y()[i], mu[i], var[i], tau[i], nu[i], u);
    }
    assertEquals(want, post.logEvidence(), 1e-8 * Math.abs(want), "log evidence");
  }

  /**
   * log ∫ N(f | m₀1, K) exp(Σ −½ τᵢ fᵢ² + νᵢ fᵢ) df = −½ log|I + K S| + ½ bᵀ (I + K S)⁻¹ K b − ½ m₀² Σ τᵢ + m₀ Σ νᵢ with
   * b = ν − m₀ τ (g = f − m₀), by Gaussian elimination with partial pivoting.
   */
  private static double gaussianPart(
      Kernel kern, double[][] x, double m0, double[] tau, double[] nu) {
    int n = tau.length;
    Matrix k = kern.matrix(x);
    double[][] a = new double[n][n + 1];
    double[] b = new double[n];
    double c = 0;
    for (int i = 0; i < n; i++) {
      b[i] = nu[i] - m0 * tau[i];
      c += -0.5 * m0 * m0 * tau[i] + m0 * nu[i];
    }
    for (int i = 0; i < n; i++) {
      double kb = 0;
      for (int j = 0; j < n; j++) {
        a[i][j] = (i == j ? 1 : 0) + k.get(i, j) * tau[j];
        kb += k.get(i, j) * b[j];
      }
      a[i][n] = kb;
    }
    double logDet = 0;
    for (int col = 0; col < n; col++) {
      int piv = col;
      for (int r = col + 1; r < n; r++) {
        if (Math.abs(a[r][col]) > Math.abs(a[piv][col])) {
          piv = r;
        }
      }
      double[] t = a[piv];
      a[piv] = a[col];
      a[col] = t;
      assertTrue(a[col][col] != 0);
      logDet += Math.log(Math.abs(a[col][col]));
      for (int r = col + 1; r < n; r++) {
        double f = a[r][col] / a[col][col];
        for (int j = col; j <= n; j++) {
          a[r][j] -= f * a[col][j];
        }
      }
    }
    double[] z = new double[n];
    for (int i = n - 1; i >= 0; i--) {
      double s = a[i][n];
      for (int j = i + 1; j < n; j++) {
        s -= a[i][j] * z[j];
      }
      z[i] = s / a[i][i];
    }
    double quad = 0;
    for (int i = 0; i < n; i++) {
      quad += b[i] * z[i];
    }
    return -0.5 * logDet + 0.5 * quad + c;
  }

  /** (1/u) log ∫ N(f | μ, v) exp(u (log p(y | f) + ½ τ f² − ν f)) df, trapezoid on ±40 sd (log-sum-exp). */
  private static double logScaleByQuadrature(
      Likelihood lik, double y, double mu, double v, double tau, double nu, double u) {
    double sd = Math.sqrt(v);
    int m = 400_001;
    double lo = mu - 40 * sd;
    double h = 80 * sd / (m - 1);
    double[] g = new double[m];
    double max = Double.NEGATIVE_INFINITY;
    for (int j = 0; j < m; j++) {
      double f = lo + j * h;
      double z = (f - mu) / sd;
      double lp = lik.logDensity(y, f).value();
      g[j] = -0.5 * z * z - 0.5 * Math.log(2 * Math.PI * v) + u * (lp + 0.5 * tau * f * f - nu * f);
      max = Math.max(max, g[j]);
    }
    double s = 0;
    for (int j = 0; j < m; j++) {
      s += (j == 0 || j == m - 1 ? 0.5 : 1) * Math.exp(g[j] - max);
    }
    return (max + Math.log(s * h)) / u;
  }
}
