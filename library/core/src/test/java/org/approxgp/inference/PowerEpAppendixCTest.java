package org.approxgp.inference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.approxgp.likelihood.Likelihood;
import org.approxgp.likelihood.NoisyStep;
import org.approxgp.likelihood.Probit;
import org.approxgp.special.Normal;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link PowerEp.Variant#APPENDIX_C} (Qi &amp; Guo appendix C, eq. 41–42, on Minka 2001's updates 5.64–5.74):
 * u = 1 is EP for both variants, the default is Minka's, and a 4-point noisy-step problem against a direct
 * implementation written here from the paper's formulas with plain dense loops (site means and variances in
 * Minka's notation, the posterior from scratch by Gauss–Jordan at every site, the evidence from a dense
 * determinant) to 1e-10.
 */
@Tag("rounding")
class PowerEpAppendixCTest {

  private static final SiteLoopOptions KEEP = SiteLoopOptions.defaults()
      .withTolerance(1e-13)
      .withMaxSweeps(500)
      .withNegativeSites(SiteLoop.NegativeSitePrecision.KEEP);

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"probit", "noisy-step"})
  void powerOneIsEpForBothVariants(String name) {
    Likelihood lik = name.equals("probit") ? Probit.get() : NoisyStep.of(0.1);
    double[][] x = SmallProblems.inputs(5, 25, 2);
    Problem p = Problem.of(SmallProblems.iso(), x, SmallProblems.labels(6, x), lik);
    Posterior ep = SiteLoop.run(p, MomentMatching.ep(), KEEP, null);
    for (PowerEp.Variant v : PowerEp.Variant.values()) {
      Posterior pep = SiteLoop.run(p, PowerEp.of(1, v), KEEP, null);
      assertEquals(ep.diagnostics().iterations(), pep.diagnostics().iterations(), v.name());
      for (int i = 0; i < p.size(); i++) {
        assertEquals(
            ep.sites().tau()[i],
            pep.sites().tau()[i],
            1e-12 * (1 + Math.abs(ep.sites().tau()[i])));
        assertEquals(
            ep.sites().nu()[i],
            pep.sites().nu()[i],
            1e-12 * (1 + Math.abs(ep.sites().nu()[i])));
      }
      assertEquals(
          ep.logEvidence(), pep.logEvidence(), 1e-12 * Math.abs(ep.logEvidence()), v.name());
    }
  }

  @Test
  void defaultIsMinkaAndTheVariantsDiffer() {
    assertEquals(PowerEp.Variant.MINKA, PowerEp.of(0.8).variant());
    assertEquals("power-ep(u=0.8)", PowerEp.of(0.8).name());
    assertEquals(
        "power-ep(u=0.8, appendix-c)",
        PowerEp.of(0.8, PowerEp.Variant.APPENDIX_C).name());
    double[][] x = SmallProblems.inputs(5, 12, 2);
    Problem p = Problem.of(SmallProblems.iso(), x, SmallProblems.labels(6, x), NoisyStep.of(0.1));
    Posterior a = SiteLoop.run(p, PowerEp.of(0.6), KEEP, null);
    Posterior b = SiteLoop.run(p, PowerEp.of(0.6, PowerEp.Variant.APPENDIX_C), KEEP, null);
    assertTrue(a.diagnostics().converged() && b.diagnostics().converged());
    assertNotEquals(a.sites().tau()[0], b.sites().tau()[0], 1e-6);
  }

  @ParameterizedTest(name = "u={0}")
  @ValueSource(doubles = {0.3, 0.8})
  void appendixCAgainstADirectDenseImplementation(double u) {
    double eps = 0.15;
    double[][] x = {{-1.1, 0.3}, {0.4, -0.9}, {1.3, 0.8}, {-0.2, 1.5}};
    double[] y = {1, -1, 1, 1};
    Problem p = Problem.of(SmallProblems.iso(), x, y, NoisyStep.of(eps));
    Posterior post = SiteLoop.run(p, PowerEp.of(u, PowerEp.Variant.APPENDIX_C), KEEP, null);
    assertTrue(post.diagnostics().converged(), post.diagnostics().toString());

    int n = y.length;
    double[][] k = p.kernel().matrix(x).toArray();
    double[] prec = new double[n]; // 1/v_i, 0 = the initial v_i = ∞
    double[] mi = new double[n]; // site means m_i
    double a = Math.pow(eps, u);
    double d = Math.pow(1 - eps, u) - a;
    for (int sweep = 0; sweep < 300; sweep++) {
      for (int i = 0; i < n; i++) {
        double[][] sigma = posterior(k, prec);
        double mu = 0;
        for (int j = 0; j < n; j++) {
          mu += sigma[i][j] * prec[j] * mi[j];
        }
        // (5.64): remove the whole site
        double lambda = 1 / (1 / sigma[i][i] - prec[i]);
        double h = lambda * (mu / sigma[i][i] - prec[i] * mi[i]);
        // eq. 41 (label y absorbed: z = y h/√λ), (5.68)–(5.70), then eq. 42
        double z = y[i] * h / Math.sqrt(lambda);
        double alpha = d * Normal.pdf(z) / (Math.sqrt(lambda) * (a + d * Normal.cdf(z)));
        double hNew = h + lambda * y[i] * alpha;
        double vi = lambda * (1 / (alpha * y[i] * hNew) - 1);
        mi[i] = hNew + y[i] * vi * alpha;
        prec[i] = 1 / (u * vi);
      }
    }
    for (int i = 0; i < n; i++) {
      assertEquals(
          prec[i], post.sites().tau()[i], 1e-10 * Math.abs(prec[i]), "site precision " + i);
      assertEquals(
          prec[i] * mi[i], post.sites().nu()[i], 1e-10 * Math.abs(prec[i] * mi[i]), "site nu " + i);
    }
    // evidence: log Z = log ∫ N(f | 0, K) Πᵢ t̃ᵢ(fᵢ) df + Σ log sᵢ, t̃ᵢ(f) = exp(−½ pᵢ f² + pᵢ mᵢ
    // f),
    // sᵢ^u = Ẑᵢ(u) / ∫ N(f | h, λ) t̃ᵢ(f)^u df at the final cavity (the class comment's scale
    // match)
    double[][] sigma = posterior(k, prec);
    double[] nu = new double[n];
    for (int i = 0; i < n; i++) {
      nu[i] = prec[i] * mi[i];
    }
    double quad = 0;
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        quad += nu[i] * sigma[i][j] * nu[j];
      }
    }
    double[][] b = new double[n][n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        b[i][j] = (i == j ? 1 : 0) + k[i][j] * prec[j];
      }
    }
    double logZ = -0.5 * Math.log(det(b)) + 0.5 * quad;
    for (int i = 0; i < n; i++) {
      double mu = 0;
      for (int j = 0; j < n; j++) {
        mu += sigma[i][j] * nu[j];
      }
      double lambda = 1 / (1 / sigma[i][i] - prec[i]);
      double h = lambda * (mu / sigma[i][i] - nu[i]);
      double zu = a + d * Normal.cdf(y[i] * h / Math.sqrt(lambda));
      // ∫ N(f | h, λ) exp(u(−½ p f² + ν f)) df in mean form
      double pu = u * prec[i];
      double logD = -0.5 * Math.log(1 + pu * lambda)
          + ((h / lambda + u * nu[i]) * (h / lambda + u * nu[i]) / (1 / lambda + pu)
                  - h * h / lambda)
              / 2;
      logZ += (Math.log(zu) - logD) / u;
    }
    assertEquals(logZ, post.logEvidence(), 1e-10 * Math.abs(logZ), "log evidence");
  }

  /** Σ = (I + K P)⁻¹ K by Gauss–Jordan with partial pivoting (P = diag(prec), which may be 0 or negative). */
  private static double[][] posterior(double[][] k, double[] prec) {
    int n = k.length;
    double[][] a = new double[n][2 * n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        a[i][j] = (i == j ? 1 : 0) + k[i][j] * prec[j];
        a[i][n + j] = k[i][j];
      }
    }
    for (int c = 0; c < n; c++) {
      int piv = c;
      for (int r = c + 1; r < n; r++) {
        if (Math.abs(a[r][c]) > Math.abs(a[piv][c])) {
          piv = r;
        }
      }
      double[] t = a[c];
      a[c] = a[piv];
      a[piv] = t;
      for (int r = 0; r < n; r++) {
        if (r != c) {
          double f = a[r][c] / a[c][c];
          for (int j = c; j < 2 * n; j++) {
            a[r][j] -= f * a[c][j];
          }
        }
      }
    }
    double[][] s = new double[n][n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        s[i][j] = a[i][n + j] / a[i][i];
      }
    }
    return s;
  }

  /** Determinant by Gaussian elimination with partial pivoting. */
  private static double det(double[][] m) {
    int n = m.length;
    double[][] a = new double[n][];
    for (int i = 0; i < n; i++) {
      a[i] = m[i].clone();
    }
    double det = 1;
    for (int c = 0; c < n; c++) {
      int piv = c;
      for (int r = c + 1; r < n; r++) {
        if (Math.abs(a[r][c]) > Math.abs(a[piv][c])) {
          piv = r;
        }
      }
      if (piv != c) {
        double[] t = a[c];
        a[c] = a[piv];
        a[piv] = t;
        det = -det;
      }
      det *= a[c][c];
      for (int r = c + 1; r < n; r++) {
        double f = a[r][c] / a[c][c];
        for (int j = c; j < n; j++) {
          a[r][j] -= f * a[c][j];
        }
      }
    }
    return det;
  }
}
