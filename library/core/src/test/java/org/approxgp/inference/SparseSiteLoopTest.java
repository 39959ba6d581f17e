package org.approxgp.inference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.approxgp.kernel.Kernel;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.likelihood.Gaussian;
import org.approxgp.likelihood.NoisyStep;
import org.approxgp.likelihood.PoissonSquareLink;
import org.approxgp.likelihood.Probit;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.JitterPolicy;
import org.approxgp.linalg.Matrix;
import org.approxgp.projection.W2Projection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link SparseSiteLoop}: with the inducing inputs at the training inputs each sparse method is its exact method; with
 * a Gaussian likelihood its evidence is Bui et al.'s collapsed Power-EP bound for every α (FITC at α = 1).
 */
class SparseSiteLoopTest {

  private static final SiteLoopOptions OPT =
      SiteLoopOptions.defaults().withTolerance(1e-11).withGradient(false);

  /** The exact rule by name: "ep", "qp" (shipped W2 tables), "power-ep" (u = 0.5, Minka's cavity). */
  private static SiteUpdate<Void> rule(String name) {
    return switch (name) {
      case "ep" -> MomentMatching.ep();
      case "qp" -> MomentMatching.qp(W2Projection.shipped());
      case "power-ep" -> PowerEp.of(0.5);
      default -> throw new IllegalArgumentException(name);
    };
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"ep", "qp", "power-ep"})
  void inducingInputsAtTheTrainingInputsGiveTheExactMethod(String method) {
    double[][] x = SmallProblems.inputs(11, 40, 2);
    double[] y = SmallProblems.labels(12, x);
    Problem p = Problem.of(SmallProblems.ard(2), x, y, Probit.get());
    Posterior exact = SiteLoop.run(p, rule(method), OPT, null);
    SparsePosterior sparse = SparseSiteLoop.run(new SparseProblem(p, x), rule(method), OPT, null);
    assertTrue(exact.diagnostics().converged(), exact.diagnostics().toString());
    assertTrue(sparse.diagnostics().converged(), sparse.diagnostics().toString());
    double worstSite = 0;
    double worstMoment = 0;
    for (int i = 0; i < y.length; i++) {
      worstSite =
          Math.max(worstSite, Math.abs(exact.sites().tau()[i] - sparse.sites().tau()[i]));
      worstSite =
          Math.max(worstSite, Math.abs(exact.sites().nu()[i] - sparse.sites().nu()[i]));
      worstMoment = Math.max(worstMoment, Math.abs(exact.mean()[i] - sparse.mean()[i]));
      worstMoment = Math.max(worstMoment, Math.abs(exact.variance()[i] - sparse.variance()[i]));
    }
    double[][] xt = SmallProblems.inputs(13, 25, 2);
    Prediction pe = exact.predict(xt);
    Prediction ps = sparse.predict(xt);
    double worstPrediction = 0;
    for (int j = 0; j < xt.length; j++) {
      worstPrediction =
          Math.max(worstPrediction, Math.abs(pe.latentMean()[j] - ps.latentMean()[j]));
      worstPrediction =
          Math.max(worstPrediction, Math.abs(pe.latentVariance()[j] - ps.latentVariance()[j]));
    }
    double evidence = Math.abs(exact.logEvidence() - sparse.logEvidence());
    System.out.printf(
        "%s at Z = X: sites %.2e, moments %.2e, predictions %.2e, log evidence %.2e (%.10f); %s%n",
        method,
        worstSite,
        worstMoment,
        worstPrediction,
        evidence,
        exact.logEvidence(),
        sparse.diagnostics());
    assertTrue(worstSite < 1e-10, "site parameters differ by " + worstSite);
    assertTrue(worstMoment < 1e-10, "posterior means/variances differ by " + worstMoment);
    assertTrue(worstPrediction < 1e-10, "test predictions differ by " + worstPrediction);
    assertTrue(
        evidence < 1e-10 * Math.abs(exact.logEvidence()), "log evidence differs by " + evidence);
  }

  /**
   * Gaussian likelihood N(y | f, σ²), M &lt; n: Power EP on inducing points is exact given its structure, and its
   * energy is the collapsed bound of Bui, Yan &amp; Turner (2017, §3, regression):
   * log N(y | m₀, Q + αD + σ²I) − (1 − α)/(2α) Σₙ log(1 + α dₙ/σ²), D = diag(K − Q), Q = K_fu K_uu⁻¹ K_uf;
   * α = 1 is FITC's log marginal likelihood. The posterior mean is that of noise σ² + α dₙ.
   */
  @ParameterizedTest(name = "alpha={0}")
  @ValueSource(doubles = {1.0, 0.5, 0.1})
  void gaussianLikelihoodGivesTheCollapsedPowerEpBound(double alpha) {
    double[][] x = SmallProblems.inputs(21, 50, 2);
    double[] y = SmallProblems.targets(22, x);
    double[][] z = Arrays.copyOfRange(SmallProblems.inputs(23, 12, 2), 0, 12);
    double noise = 0.05;
    double m0 = 0.3;
    Kernel k = SmallProblems.ard(2);
    Problem p = new Problem(k, x, y, Gaussian.of(noise), m0);
    SiteUpdate<Void> rule = alpha == 1 ? MomentMatching.ep() : PowerEp.of(alpha);
    SparsePosterior post = SparseSiteLoop.run(new SparseProblem(p, z), rule, OPT, null);
    assertTrue(post.diagnostics().converged(), post.diagnostics().toString());
    // the oracle, directly in n × n
    int n = y.length;
    Cholesky kuu = Cholesky.factor(k.matrix(z), JitterPolicy.none());
    Matrix a = kuu.solveLower(k.cross(z, x)); // M × n
    Matrix q = a.multTransA(a); // n × n
    Matrix kff = k.matrix(x);
    Matrix c = q.copy();
    double[] dd = new double[n];
    double penalty = 0;
    for (int i = 0; i < n; i++) {
      dd[i] = kff.get(i, i) - q.get(i, i);
      c.set(i, i, q.get(i, i) + alpha * dd[i] + noise);
      penalty += Math.log1p(alpha * dd[i] / noise);
    }
    Cholesky cc = Cholesky.factor(c, JitterPolicy.none());
    double[] r = new double[n];
    for (int i = 0; i < n; i++) {
      r[i] = y[i] - m0;
    }
    double bound = -0.5 * cc.quadForm(r)
        - 0.5 * cc.logDet()
        - 0.5 * n * Math.log(2 * Math.PI)
        - (1 - alpha) / (2 * alpha) * penalty;
    // posterior mean at the training inputs: m₀ + Q (Q + αD + σ²I)⁻¹ (y − m₀)
    double[] w = cc.solve(r);
    double[] mean = q.mult(w);
    double worst = 0;
    for (int i = 0; i < n; i++) {
      worst = Math.max(worst, Math.abs(m0 + mean[i] - post.mean()[i]));
    }
    System.out.printf(
        "gaussian alpha=%s: bound %.10f, sparse PEP %.10f (diff %.2e), means %.2e; %s%n",
        alpha, bound, post.logEvidence(), bound - post.logEvidence(), worst, post.diagnostics());
    assertEquals(bound, post.logEvidence(), 1e-9 * Math.abs(bound), "log evidence");
    assertTrue(worst < 1e-8, "posterior means differ by " + worst);
  }

  /**
   * M &lt; n: the parallel schedule with damping reaches the sequential schedule's fixed point, and a warm start
   * from the converged sites stops after one sweep with the same evidence.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"ep", "qp", "power-ep"})
  void parallelAndWarmStartedRunsReachTheSameFixedPoint(String method) {
    double[][] x = SmallProblems.inputs(41, 60, 2);
    double[] y = SmallProblems.labels(42, x);
    double[][] z = Arrays.copyOf(SmallProblems.inputs(43, 15, 2), 15);
    SparseProblem sp = new SparseProblem(Problem.of(SmallProblems.ard(2), x, y, Probit.get()), z);
    SparsePosterior seq = SparseSiteLoop.run(sp, rule(method), OPT, null);
    SparsePosterior par = SparseSiteLoop.run(
        sp, rule(method), OPT.withSchedule(SiteLoop.Schedule.PARALLEL).withDamping(0.5), null);
    SparsePosterior warm = SparseSiteLoop.run(sp, rule(method), OPT, seq.sites());
    assertTrue(seq.diagnostics().converged(), seq.diagnostics().toString());
    assertTrue(par.diagnostics().converged(), par.diagnostics().toString());
    assertEquals(1, warm.diagnostics().iterations(), warm.diagnostics().toString());
    double worst = 0;
    for (int i = 0; i < y.length; i++) {
      worst = Math.max(worst, Math.abs(seq.mean()[i] - par.mean()[i]));
      worst = Math.max(worst, Math.abs(seq.variance()[i] - par.variance()[i]));
    }
    System.out.printf(
        "%s M=15: sequential %s; parallel %s; moments differ by %.2e, evidence by %.2e%n",
        method, seq.diagnostics(), par.diagnostics(), worst, seq.logEvidence() - par.logEvidence());
    assertTrue(worst < 1e-9, "moments differ by " + worst);
    assertEquals(
        seq.logEvidence(), par.logEvidence(), 1e-9 * Math.abs(seq.logEvidence()), "log evidence");
    assertEquals(
        seq.logEvidence(), warm.logEvidence(), 1e-12 * Math.abs(seq.logEvidence()), "warm start");
  }

  /**
   * Kept negative site precisions at Z = X: {@code PowerEpKeepTest}'s seeded Poisson-square case (bimodal
   * power-tilted distributions, shortened steps, EP cavities improper at the fixed point) gives the exact KEEP run's
   * sites, moments and evidence; the noisy step (not log-concave, some labels flipped) likewise under KEEP (negative
   * sites at the fixed point) and CLIP (clipped updates).
   */
  @Test
  void keptNegativeSitesAtTheTrainingInputsGiveTheExactMethod() {
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
    Problem poisson =
        new Problem(SquaredExponential.iso(sf, ell), x, y, PoissonSquareLink.get(), m0);
    SiteLoopOptions keep = OPT.withNegativeSites(SiteLoop.NegativeSitePrecision.KEEP);
    compareAtZEqualsX("poisson-square keep", poisson, PowerEp.of(u), keep, true);
    // the noisy step with every seventh label flipped: negative site precisions under KEEP, clips
    // under CLIP
    double[][] xs = new double[30][1];
    double[] ys = new double[30];
    for (int i = 0; i < 30; i++) {
      xs[i][0] = -3 + 6.0 * i / 29;
      ys[i] = (xs[i][0] > 0) == (i % 7 != 3) ? 1 : -1;
    }
    Problem step = Problem.of(SquaredExponential.iso(0.5, 4.0), xs, ys, NoisyStep.of(0.05));
    compareAtZEqualsX("noisy-step keep", step, MomentMatching.ep(), keep, false);
    compareAtZEqualsX("noisy-step keep", step, PowerEp.of(0.7), keep, false);
    compareAtZEqualsX("noisy-step clip", step, MomentMatching.ep(), OPT, false);
  }

  private static void compareAtZEqualsX(
      String label, Problem p, SiteUpdate<Void> rule, SiteLoopOptions options, boolean limited) {
    Posterior exact = SiteLoop.run(p, rule, options, null);
    SparsePosterior sparse = SparseSiteLoop.run(new SparseProblem(p, p.x()), rule, options, null);
    assertTrue(exact.diagnostics().converged(), exact.diagnostics().toString());
    assertTrue(sparse.diagnostics().converged(), sparse.diagnostics().toString());
    if (limited) {
      assertTrue(
          sparse.diagnostics().limitedSteps() > 0,
          "the case shortens steps: " + sparse.diagnostics());
    }
    boolean kept = options.negativeSites() == SiteLoop.NegativeSitePrecision.KEEP;
    long negative = Arrays.stream(sparse.sites().tau()).filter(t -> t < 0).count();
    assertTrue(
        kept ? negative > 0 : sparse.diagnostics().clippedSites() > 0,
        label + ": the case exercises the policy: " + negative + " negative sites, "
            + sparse.diagnostics());
    double worst = 0;
    for (int i = 0; i < p.size(); i++) {
      worst = Math.max(worst, Math.abs(exact.sites().tau()[i] - sparse.sites().tau()[i]));
      worst = Math.max(worst, Math.abs(exact.sites().nu()[i] - sparse.sites().nu()[i]));
      worst = Math.max(worst, Math.abs(exact.mean()[i] - sparse.mean()[i]));
      worst = Math.max(worst, Math.abs(exact.variance()[i] - sparse.variance()[i]));
    }
    double evidence = Math.abs(exact.logEvidence() - sparse.logEvidence());
    System.out.printf(
        "%s at Z = X: sites and moments %.2e, log evidence %.2e, %d negative sites; exact %s; sparse %s%n",
        label, worst, evidence, negative, exact.diagnostics(), sparse.diagnostics());
    assertTrue(worst < 1e-8, label + ": sites or moments differ by " + worst);
    assertTrue(
        evidence < 1e-8 * Math.abs(exact.logEvidence()),
        label + ": log evidence differs by " + evidence);
  }

  /**
   * q(u) ∝ p(u) Πₙ tₙ(u) over n = 4500 sites (three blocks of {@link SparseApproximation#BLOCK} rows): the posterior's
   * mean and covariance of u against a direct sum in u's own coordinates,
   * Σ_u⁻¹ = K_uu⁻¹ + Σₙ τ̃ₙ wₙwₙᵀ, Σ_u⁻¹ E[u] = K_uu⁻¹ m₀1 + Σₙ (ν̃ₙ − τ̃ₙ cₙ) wₙ, cₙ = m₀(1 − 1ᵀwₙ), wₙ = K_uu⁻¹kᵤₙ (so gₙ = cₙ + wₙᵀu).
   */
  @Test
  void posteriorOfTheInducingVariablesIsThePriorTimesTheSites() {
    double[][] x = SmallProblems.inputs(111, 4500, 2);
    double[] y = SmallProblems.labels(112, x);
    double[][] z = Arrays.copyOf(SmallProblems.inputs(113, 10, 2), 10);
    Kernel k = SmallProblems.ard(2);
    double m0 = 0.3;
    Problem p = new Problem(k, x, y, Probit.get(), m0);
    SparsePosterior s = SparseSiteLoop.run(new SparseProblem(p, z), PowerEp.of(0.5), OPT, null);
    assertTrue(s.diagnostics().converged(), s.diagnostics().toString());
    double[] tau = s.sites().tau();
    double[] nu = s.sites().nu();
    int m = z.length;
    Cholesky kuu = Cholesky.factor(k.matrix(z), JitterPolicy.none());
    Matrix w = kuu.solve(k.cross(z, x)); // M × n, columns wₙ
    // site n in u: exp(−½ τ̃ (gₙ)² + ν̃ gₙ) with gₙ = m₀ + wₙᵀ(u − m₀1)
    Matrix prec = kuu.inverse();
    double[] lin = kuu.solve(constant(m, m0));
    for (int i = 0; i < x.length; i++) {
      double[] wi = new double[m];
      double wsum = 0;
      for (int a = 0; a < m; a++) {
        wi[a] = w.get(a, i);
        wsum += wi[a];
      }
      prec.addRank1(tau[i], wi);
      // −½ τ̃ (c + wᵀu)² + ν̃ (c + wᵀu), c = m₀(1 − Σ w): linear coefficient (ν̃ − τ̃ c) w
      double c = m0 * (1 - wsum);
      for (int a = 0; a < m; a++) {
        lin[a] += (nu[i] - tau[i] * c) * wi[a];
      }
    }
    Cholesky pc = Cholesky.factor(prec, JitterPolicy.none());
    double[] mean = pc.solve(lin);
    Matrix cov = pc.inverse();
    double[] sm = s.inducingMean();
    Matrix sc = s.inducingCovariance();
    double worst = 0;
    for (int a = 0; a < m; a++) {
      worst = Math.max(worst, Math.abs(mean[a] - sm[a]));
      for (int b = 0; b < m; b++) {
        worst = Math.max(worst, Math.abs(cov.get(a, b) - sc.get(a, b)));
      }
    }
    System.out.printf(
        "q(u) over n = 4500 sites against a direct sum: %.2e; %s%n", worst, s.diagnostics());
    assertTrue(worst < 1e-9, "mean or covariance of u differs by " + worst);
  }

  private static double[] constant(int m, double v) {
    double[] c = new double[m];
    Arrays.fill(c, v);
    return c;
  }

  /** K_uu that no jitter can factor (a linear kernel with every inducing input at 0) is a typed failure, named. */
  @Test
  void anUnfactorableInducingCovarianceIsAnInferenceException() {
    double[][] x = SmallProblems.inputs(1, 8, 2);
    Problem p =
        Problem.of(org.approxgp.kernel.Linear.of(1.0), x, SmallProblems.labels(2, x), Probit.get());
    InferenceException e = org.junit.jupiter.api.Assertions.assertThrows(
        InferenceException.class,
        () -> SparseSiteLoop.run(
            new SparseProblem(p, new double[3][2]), MomentMatching.ep(), OPT, null));
    assertTrue(e.getMessage().contains("K_uu could not be factored"), e.getMessage());
  }

  @Test
  void aRuleWithoutASparseFormIsRefused() {
    double[][] x = SmallProblems.inputs(1, 5, 1);
    Problem p = Problem.of(SmallProblems.iso(), x, SmallProblems.labels(2, x), Probit.get());
    IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class,
        () -> SparseSiteLoop.run(
            new SparseProblem(p, x), PowerEp.of(0.5, PowerEp.Variant.APPENDIX_C), OPT, null));
    assertTrue(e.getMessage().contains("Minka"), e.getMessage());
  }
}
