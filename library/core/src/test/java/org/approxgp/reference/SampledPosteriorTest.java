package org.approxgp.reference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.approxgp.inference.Problem;
import org.approxgp.inference.Sites;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.likelihood.Gaussian;
import org.approxgp.likelihood.Probit;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.JitterPolicy;
import org.approxgp.linalg.Matrix;
import org.approxgp.special.LogSpace;
import org.approxgp.special.Normal;
import org.junit.jupiter.api.Test;

/**
 * The sampler and AIS against exact answers: the Gaussian-likelihood posterior and marginal likelihood in closed
 * form (Rasmussen &amp; Williams 2006, eq. 2.23–2.24 and 2.30), and a two-latent probit posterior by a dense 2-D
 * quadrature. Tolerances are the sampler's own Monte-Carlo error: sd/√ESS for a mean, s²√(2/ESS) for a variance
 * (the sampling sd of a Gaussian's sample variance), at 5 standard errors per latent.
 */
class SampledPosteriorTest {
  private static final double Z = 5;

  private static Problem gaussianProblem(int n, double noise, long seed) {
    return gaussianProblem(n, noise, seed, 0.8);
  }

  private static Problem gaussianProblem(int n, double noise, long seed, double lengthscale) {
    UniformRandomProvider rng = Streams.of(seed, 99);
    double[][] x = new double[n][1];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      x[i][0] = 6 * rng.nextDouble() - 3;
      y[i] = Math.sin(2 * x[i][0]) + Math.sqrt(noise) * (rng.nextDouble() - 0.5) * 3;
    }
    return new Problem(SquaredExponential.iso(lengthscale, 1.5), x, y, Gaussian.of(noise), 0.2);
  }

  /** Exact posterior mean, marginal variances and log marginal likelihood of a Gaussian-likelihood problem. */
  private static double[][] exact(Problem p, double noise) {
    int n = p.size();
    Matrix k = p.kernel().matrix(p.x());
    Matrix ky = k.copy();
    for (int i = 0; i < n; i++) {
      ky.set(i, i, ky.get(i, i) + noise);
    }
    Cholesky l = Cholesky.factor(ky, JitterPolicy.none());
    double[] r = new double[n];
    for (int i = 0; i < n; i++) {
      r[i] = p.y()[i] - p.priorMean();
    }
    double[] alpha = l.solve(r);
    double[] mean = new double[n];
    double[] var = new double[n];
    Matrix v = l.solveLower(k); // L⁻¹ K
    for (int i = 0; i < n; i++) {
      double s = 0;
      double vv = 0;
      for (int j = 0; j < n; j++) {
        s += k.get(i, j) * alpha[j];
        vv += v.get(j, i) * v.get(j, i);
      }
      mean[i] = p.priorMean() + s; // R&W eq. 2.23
      var[i] = k.get(i, i) - vv; // eq. 2.24
    }
    double quad = 0;
    for (int i = 0; i < n; i++) {
      quad += r[i] * alpha[i];
    }
    double logZ = -0.5 * quad - 0.5 * l.logDet() - 0.5 * n * Math.log(2 * Math.PI); // eq. 2.30
    return new double[][] {mean, var, {logZ}};
  }

  private static void assertMatches(double[] mean, double[] var, SampledPosterior s, String what) {
    double[] m = s.mean();
    double[] v = s.variance();
    double[] se = s.meanStdError();
    double[] ess = s.ess();
    for (int i = 0; i < m.length; i++) {
      assertEquals(mean[i], m[i], Z * se[i], what + ": mean of latent " + i);
      assertEquals(
          var[i], v[i], Z * var[i] * Math.sqrt(2 / ess[i]), what + ": variance of latent " + i);
      assertEquals(
          var[i],
          v[i],
          Z * s.varianceStdError()[i],
          what + ": variance of latent " + i + " within its own Monte-Carlo standard error");
    }
  }

  private static SampledPosterior.Options options(long seed) {
    return SampledPosterior.Options.defaults().withSeed(seed).withThreads(2);
  }

  @Test
  void plainEllipticalSliceSamplingMatchesTheExactGaussianPosterior() {
    double noise = 0.3;
    Problem p = gaussianProblem(25, noise, 1);
    double[][] e = exact(p, noise);
    SampledPosterior s =
        SampledPosterior.sample(p, GaussianReference.prior(p), options(11), line -> {});
    assertFalse(s.capped(), s.toString());
    assertTrue(s.rhatMax() <= 1.01 && s.essMin() >= 1000, s.toString());
    assertMatches(e[0], e[1], s, "prior ellipses");
  }

  @Test
  void siteSweepsAloneMatchTheExactGaussianPosterior() {
    // a short length-scale: site updates alone mix slowly when the prior correlates the latents
    // strongly (that is what the ellipse step is for), and this test is about their target
    double noise = 0.3;
    Problem p = gaussianProblem(25, noise, 6, 0.2);
    double[][] e = exact(p, noise);
    SampledPosterior s = SampledPosterior.sample(
        p,
        GaussianReference.prior(p),
        options(31).withMoves(SampledPosterior.Moves.SITES),
        line -> {});
    assertFalse(s.capped(), s.toString());
    assertMatches(e[0], e[1], s, "site sweeps");
  }

  @Test
  void ellipseStepsAloneMatchTheExactGaussianPosterior() {
    double noise = 0.3;
    Problem p = gaussianProblem(25, noise, 7);
    double[][] e = exact(p, noise);
    SampledPosterior s = SampledPosterior.sample(
        p,
        GaussianReference.prior(p),
        options(32).withMoves(SampledPosterior.Moves.ELLIPSE),
        line -> {});
    assertFalse(s.capped(), s.toString());
    assertMatches(e[0], e[1], s, "ellipse steps alone");
  }

  @Test
  void samplingGoesOnUntilTheDecisionIsMade() {
    Problem p = gaussianProblem(12, 0.5, 8);
    SampledPosterior s = SampledPosterior.sample(
        p,
        GaussianReference.prior(p),
        options(33).withMaxTransitions(64_000),
        current -> current.transitionsPerChain() < 16_000 ? "too few transitions" : null,
        line -> {});
    assertFalse(s.capped(), s.toString());
    assertEquals(16_000, s.transitionsPerChain(), s.toString());
    SampledPosterior never = SampledPosterior.sample(
        p,
        GaussianReference.prior(p),
        options(33).withMaxTransitions(8_000),
        current -> "never precise enough",
        line -> {});
    assertTrue(never.capped(), never.toString());
    assertEquals("never precise enough", never.pending());
    assertTrue(never.toString().contains("never precise enough"), never.toString());
  }

  @Test
  void ellipsesFromAnotherGaussianSampleTheSamePosterior() {
    // q from sites at half the true precision and a shifted mean: A ≠ I, u_q ≠ 0, a residual that
    // is not flat
    double noise = 0.3;
    Problem p = gaussianProblem(25, noise, 2);
    double[][] e = exact(p, noise);
    int n = p.size();
    double[] tau = new double[n];
    double[] nu = new double[n];
    for (int i = 0; i < n; i++) {
      tau[i] = 0.5 / noise;
      nu[i] = (p.y()[i] + 0.5) * tau[i];
    }
    GaussianReference q = GaussianReference.fromSites(p, Sites.of(tau, nu), "half-precision sites");
    SampledPosterior s = SampledPosterior.sample(p, q, options(12), line -> {});
    assertFalse(s.capped(), s.toString());
    assertMatches(e[0], e[1], s, "half-precision ellipses");
    AnnealedImportanceSampling ais = AnnealedImportanceSampling.estimate(p, q, 16, 500, 13, 2);
    assertEquals(
        e[2][0],
        ais.logEvidence(),
        Z * ais.standardError() + 1e-9,
        "AIS log evidence from q vs exact log marginal likelihood " + ais);
  }

  @Test
  void annealingFromThePriorMatchesTheExactMarginalLikelihood() {
    double noise = 0.3;
    Problem p = gaussianProblem(25, noise, 3);
    double[][] e = exact(p, noise);
    AnnealedImportanceSampling ais =
        AnnealedImportanceSampling.estimate(p, GaussianReference.prior(p), 16, 2000, 14, 2);
    assertTrue(ais.standardError() < 0.2, "AIS standard error " + ais);
    assertEquals(
        e[2][0], ais.logEvidence(), Z * ais.standardError(), "AIS log evidence vs exact " + ais);
  }

  @Test
  void twoProbitLatentsMatchQuadrature() {
    // f ~ N(0, K) with K = [[4, 3], [3, 4]], y = (+1, −1): correlated latents pulled apart by the
    // labels
    double[][] x = {{0.0}, {0.76}};
    Problem p =
        new Problem(SquaredExponential.iso(1.0, 4.0), x, new double[] {1, -1}, Probit.get(), 0);
    Matrix k = p.kernel().matrix(x);
    Cholesky l = Cholesky.factor(k, JitterPolicy.none());
    // quadrature in the whitened u = L⁻¹ f on [−8, 8]², midpoint rule on 1601² points (the
    // integrand is smooth and
    // decays like N(u | 0, I): the error is far below the sampler's)
    int g = 1601;
    double h = 16.0 / g;
    double[] logw = new double[g * g];
    double[][] f = new double[g * g][];
    int idx = 0;
    for (int a = 0; a < g; a++) {
      double u0 = -8 + (a + 0.5) * h;
      for (int b = 0; b < g; b++) {
        double u1 = -8 + (b + 0.5) * h;
        double f0 = l.lowerAt(0, 0) * u0;
        double f1 = l.lowerAt(1, 0) * u0 + l.lowerAt(1, 1) * u1;
        logw[idx] = -0.5 * (u0 * u0 + u1 * u1) + Normal.logCdf(f0) + Normal.logCdf(-f1);
        f[idx++] = new double[] {f0, f1};
      }
    }
    double lse = LogSpace.logSumExp(logw);
    double logZ = lse + 2 * Math.log(h) - Math.log(2 * Math.PI);
    double[] mean = new double[2];
    double[] sq = new double[2];
    for (int i = 0; i < logw.length; i++) {
      double w = Math.exp(logw[i] - lse);
      for (int j = 0; j < 2; j++) {
        mean[j] += w * f[i][j];
        sq[j] += w * f[i][j] * f[i][j];
      }
    }
    double[] var = {sq[0] - mean[0] * mean[0], sq[1] - mean[1] * mean[1]};
    SampledPosterior s =
        SampledPosterior.sample(p, GaussianReference.prior(p), options(21), line -> {});
    assertFalse(s.capped(), s.toString());
    // the marginals are skewed, so the variance tolerance s²√(2/ESS) is only approximate; 5 of them
    // still hold
    assertMatches(mean, var, s, "two probit latents");
    AnnealedImportanceSampling ais =
        AnnealedImportanceSampling.estimate(p, GaussianReference.prior(p), 16, 500, 22, 2);
    assertEquals(
        logZ,
        ais.logEvidence(),
        Z * ais.standardError() + 1e-9,
        "probit AIS log Z vs quadrature " + ais);
  }

  @Test
  void theResultDoesNotDependOnTheThreadCount() {
    Problem p = gaussianProblem(12, 0.5, 4);
    SampledPosterior.Options o =
        SampledPosterior.Options.defaults().withSeed(5).withMaxTransitions(4000);
    SampledPosterior one =
        SampledPosterior.sample(p, GaussianReference.prior(p), o.withThreads(1), line -> {});
    SampledPosterior three =
        SampledPosterior.sample(p, GaussianReference.prior(p), o.withThreads(3), line -> {});
    assertArrayEquals(one.mean(), three.mean(), 0.0, "means with 1 and 3 threads");
    assertArrayEquals(one.variance(), three.variance(), 0.0, "variances with 1 and 3 threads");
    assertArrayEquals(one.rhat(), three.rhat(), 0.0, "R-hat with 1 and 3 threads");
    AnnealedImportanceSampling a1 =
        AnnealedImportanceSampling.estimate(p, GaussianReference.prior(p), 4, 50, 6, 1);
    AnnealedImportanceSampling a3 =
        AnnealedImportanceSampling.estimate(p, GaussianReference.prior(p), 4, 50, 6, 3);
    assertArrayEquals(
        a1.logWeights(), a3.logWeights(), 0.0, "AIS log weights with 1 and 3 threads");
  }

  @Test
  void theCapStopsTheRunAndSaysSo() {
    Problem p = gaussianProblem(12, 0.5, 5);
    SampledPosterior s = SampledPosterior.sample(
        p,
        GaussianReference.prior(p),
        SampledPosterior.Options.defaults().withMaxTransitions(2000).withTargets(1.0, 1e9),
        line -> {});
    assertTrue(s.capped(), "an unreachable ESS target must end at the cap: " + s);
    assertEquals(2000, s.transitionsPerChain());
    assertTrue(s.toString().contains("STOPPED BY THE CAP"), s.toString());
  }
}
