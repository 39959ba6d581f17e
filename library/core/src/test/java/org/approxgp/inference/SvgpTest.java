package org.approxgp.inference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.approxgp.data.RegressionData;
import org.approxgp.kernel.Kernel;
import org.approxgp.likelihood.Gaussian;
import org.approxgp.likelihood.Likelihood;
import org.approxgp.likelihood.Probit;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.JitterPolicy;
import org.approxgp.linalg.Matrix;
import org.approxgp.model.SvgpModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SVGP ({@link Svgp}, {@link SvgpPosterior}, driven by {@code model.SvgpModel}) against closed forms and independent
 * oracles:
 * <ul>
 *   <li>Gaussian likelihood: the optimum over q(v) is Titsias' (2009): S = (I + AAᵀ/σ²)⁻¹, m = S A(y − m₀)/σ², bound
 *       log N(y | m₀, AᵀA + σ²I) − Σ dₙ/(2σ²), computed here with a dense n × n factor;</li>
 *   <li>probit: the bound at its optimum equals {@link SvgpProbitOracle}'s (the α → 0 limit of sparse Power EP, an
 *       independent L-BFGS on q(u)), and at Z = X the exact {@link Vb}'s ELBO and predictions;</li>
 *   <li>the gradient in (m, C, θ, Z) against central differences, full batch and minibatch.</li>
 * </ul>
 */
class SvgpTest {

  private static final SvgpModel.Options TIGHT = SvgpModel.Options.fullBatch(20000, 1e-9);

  /** Titsias' optimum and bound, densely. */
  private record Titsias(double[] mean, Matrix cov, double bound) {}

  private static Titsias titsias(
      Kernel k, double[][] x, double[] y, double[][] z, double s2, double m0) {
    int n = x.length;
    int m = z.length;
    Cholesky kuu = Cholesky.factor(k.matrix(z), JitterPolicy.none());
    Matrix a = kuu.solveLower(k.cross(z, x)); // M × n
    double[] kd = k.diagonal(x);
    double sumD = 0;
    for (int i = 0; i < n; i++) {
      double q = 0;
      for (int r = 0; r < m; r++) {
        q += a.get(r, i) * a.get(r, i);
      }
      sumD += kd[i] - q;
    }
    Matrix prec = a.multTransB(a);
    prec.scale(1 / s2);
    prec.addDiagonal(1);
    Cholesky pc = Cholesky.factor(prec, JitterPolicy.none());
    double[] r = new double[n];
    for (int i = 0; i < n; i++) {
      r[i] = (y[i] - m0) / s2;
    }
    double[] mean = pc.solve(a.mult(r));
    Matrix cov = pc.inverse();
    // log N(y | m₀, AᵀA + σ²I), dense
    Matrix c = a.multTransA(a);
    c.addDiagonal(s2);
    Cholesky cc = Cholesky.factor(c, JitterPolicy.none());
    double[] res = new double[n];
    for (int i = 0; i < n; i++) {
      res[i] = y[i] - m0;
    }
    double logN = -0.5 * cc.quadForm(res) - 0.5 * cc.logDet() - 0.5 * n * Math.log(2 * Math.PI);
    return new Titsias(mean, cov, logN - sumD / (2 * s2));
  }

  /**
   * Gaussian likelihood, n = 60, M = 8, m₀ = 0.3, θ and Z fixed: full-batch SVGP reaches Titsias' closed-form bound,
   * mean and covariance; the bound evaluated at the closed-form q equals Titsias' (the formula, without the
   * optimiser) and its gradient there vanishes.
   */
  @Test
  void gaussianOptimumIsTitsiasClosedForm() {
    double[][] x = SmallProblems.inputs(41, 60, 2);
    double[] y = SmallProblems.targets(42, x);
    double[][] z = SmallProblems.inputs(43, 8, 2);
    double s2 = 0.05;
    Kernel k = SmallProblems.ard(2);
    Problem p = new Problem(k, x, y, Gaussian.of(s2), 0.3);
    Titsias t = titsias(k, x, y, z, s2, 0.3);
    SparseProblem sp = new SparseProblem(p, z);
    // the bound at Titsias' q, directly
    Svgp bound = Svgp.of(sp, false, false);
    double[] xq = bound.start();
    System.arraycopy(t.mean(), 0, xq, 0, 8);
    bound.setFactor(xq, Cholesky.factor(t.cov(), JitterPolicy.none()).lower());
    double[] g = new double[bound.dimension()];
    double atOptimum = bound.elbo(xq, g);
    double gmax = Arrays.stream(g).map(Math::abs).max().orElseThrow();
    // by the optimiser
    SvgpModel.Fit fit = SvgpModel.fit(sp, TIGHT);
    SvgpPosterior post = fit.posterior();
    double dm = 0;
    for (int r = 0; r < 8; r++) {
      dm = Math.max(dm, Math.abs(post.whitenedMean()[r] - t.mean()[r]));
    }
    double ds = post.whitenedCovariance().maxAbsDiff(t.cov());
    System.out.printf(
        "Gaussian, M = 8: Titsias %.12f, bound at Titsias' q %.12f (%.1e, gradient %.1e); L-BFGS %.12f (%.1e),"
            + " mean %.1e, covariance %.1e, %d iterations, %s%n",
        t.bound(),
        atOptimum,
        atOptimum - t.bound(),
        gmax,
        post.elbo(),
        post.elbo() - t.bound(),
        dm,
        ds,
        fit.iterations(),
        fit.status());
    assertEquals(t.bound(), atOptimum, 1e-10, "the bound at Titsias' q");
    assertTrue(gmax < 1e-9, "gradient at Titsias' q: " + gmax);
    assertTrue(fit.converged(), fit.status());
    assertEquals(t.bound(), post.elbo(), 1e-9, "the maximised bound");
    assertTrue(post.elbo() <= t.bound() + 1e-10, "no q beats the optimum");
    assertTrue(dm < 1e-6, "mean differs by " + dm);
    assertTrue(ds < 1e-6, "covariance differs by " + ds);
  }

  /**
   * The natural-gradient step ({@link Svgp#naturalStep}) with γ = 1 on the full batch of a Gaussian likelihood lands
   * on Titsias' optimum from the prior in one step (the step is exact for a conjugate likelihood), returns the bound
   * at the point it started from, and writes the same gradient there as {@link Svgp#elbo}.
   */
  @Test
  void naturalStepOfOneIsTitsiasOnAGaussianLikelihood() {
    double[][] x = SmallProblems.inputs(41, 60, 2);
    double[] y = SmallProblems.targets(42, x);
    double[][] z = SmallProblems.inputs(43, 8, 2);
    double s2 = 0.05;
    Kernel k = SmallProblems.ard(2);
    Titsias t = titsias(k, x, y, z, s2, 0.3);
    Svgp bound =
        Svgp.of(new SparseProblem(new Problem(k, x, y, Gaussian.of(s2), 0.3), z), true, false);
    double[] x0 = bound.start();
    double[] g0 = new double[bound.dimension()];
    double atStart = bound.elbo(x0, g0);
    double[] xs = x0.clone();
    double[] g = new double[bound.dimension()];
    double value = bound.naturalStep(xs, null, 1.0, g);
    double dm = 0;
    for (int r = 0; r < 8; r++) {
      dm = Math.max(dm, Math.abs(xs[r] - t.mean()[r]));
    }
    Matrix c = bound.factor(xs);
    double ds = c.multTransB(c).maxAbsDiff(t.cov());
    System.out.printf(
        "natural step 1, Gaussian, M = 8: mean %.1e, covariance %.1e from Titsias'; bound after %.12f (Titsias %.12f)%n",
        dm, ds, bound.elbo(xs, null), t.bound());
    assertEquals(atStart, value, 0.0, "the step returns the bound where it started");
    assertArrayEquals(g0, g, 0.0, "and the gradient there");
    assertTrue(dm < 1e-10, "mean differs by " + dm);
    assertTrue(ds < 1e-10, "covariance differs by " + ds);
    assertEquals(t.bound(), bound.elbo(xs, null), 1e-9, "the bound after one step");
  }

  /**
   * Probit, n = 40, M = 10, θ and Z fixed: natural-gradient steps of γ = 0.5 on the full batch converge to the
   * maximised bound of L-BFGS (their fixed point is where ∂L/∂(m, S) = 0), and a step there changes nothing beyond
   * rounding; a step of γ outside (0, 1] is refused.
   */
  @Test
  void naturalStepsReachTheProbitOptimum() {
    double[][] x = SmallProblems.inputs(31, 40, 2);
    double[] y = SmallProblems.labels(32, x);
    Problem p = Problem.of(SmallProblems.ard(2), x, y, Probit.get());
    double[][] z = SmallProblems.inputs(33, 10, 2);
    SvgpPosterior best = SvgpModel.fit(new SparseProblem(p, z), TIGHT).posterior();
    Svgp bound = Svgp.of(new SparseProblem(p, z), false, false);
    double[] xs = bound.start();
    int steps = 0;
    double before = Double.NEGATIVE_INFINITY;
    double[] last = xs.clone();
    while (steps < 500) {
      last = xs.clone();
      before = bound.naturalStep(xs, null, 0.5, null);
      steps++;
      double change = 0;
      for (int j = 0; j < xs.length; j++) {
        change = Math.max(change, Math.abs(xs[j] - last[j]));
      }
      if (change < 1e-12) {
        break;
      }
    }
    double after = bound.elbo(xs, null);
    System.out.printf(
        "natural steps 0.5, probit, M = 10: %d steps, bound %.12f, L-BFGS %.12f (%.1e)%n",
        steps, after, best.elbo(), after - best.elbo());
    assertTrue(steps < 500, "the steps did not settle");
    assertEquals(best.elbo(), after, 1e-9, "natural steps against L-BFGS");
    assertTrue(after >= before - 1e-12, "the last step lowered the bound");
    assertThrows(IllegalArgumentException.class, () -> bound.naturalStep(xs, null, 0, null));
    assertThrows(IllegalArgumentException.class, () -> bound.naturalStep(xs, null, 1.5, null));
  }

  /**
   * Probit, n = 40: the maximised bound equals the independent SVGP oracle of {@link SparsePowerEpLimitTest} (the
   * α → 0 limit of sparse Power EP) at M = 10, and at Z = X the exact {@link Vb}'s ELBO, latent predictions and log
   * predictive densities.
   */
  @ParameterizedTest(name = "M={0}")
  @ValueSource(ints = {10, 40})
  void probitOptimumMatchesTheOracleAndExactVb(int m) {
    double[][] x = SmallProblems.inputs(31, 40, 2);
    double[] y = SmallProblems.labels(32, x);
    Problem p = Problem.of(SmallProblems.ard(2), x, y, Probit.get());
    double[][] z = m == x.length ? x : SmallProblems.inputs(33, m, 2);
    double oracle = SvgpProbitOracle.optimum(p.kernel(), x, y, z, 0.0);
    SvgpModel.Fit fit = SvgpModel.fit(new SparseProblem(p, z), TIGHT);
    SvgpPosterior post = fit.posterior();
    System.out.printf(
        "probit, M = %d: oracle %.12f, SVGP %.12f (%.1e), %d iterations, %.2f s, jitter %s%n",
        m,
        oracle,
        post.elbo(),
        post.elbo() - oracle,
        fit.iterations(),
        fit.seconds(),
        post.inducingJitter());
    assertTrue(fit.converged(), fit.status());
    assertEquals(oracle, post.elbo(), 1e-7, "SVGP against the α → 0 oracle");
    if (m < x.length) {
      // sparse Power EP itself at α = 1e-3 and 1e-4, Richardson-extrapolated to α → 0
      // (SparsePowerEpLimitTest):
      // its energy and its q(u) against SVGP's
      SiteLoopOptions opt = SiteLoopOptions.defaults().withTolerance(1e-11).withGradient(false);
      double a1 = 1e-3;
      double a2 = 1e-4;
      SparsePosterior q1 = SparseSiteLoop.run(new SparseProblem(p, z), PowerEp.of(a1), opt, null);
      SparsePosterior q2 = SparseSiteLoop.run(new SparseProblem(p, z), PowerEp.of(a2), opt, null);
      double limit = (a1 * q2.logEvidence() - a2 * q1.logEvidence()) / (a1 - a2);
      double[] u1 = q1.inducingMean();
      double[] u2 = q2.inducingMean();
      double[] us = post.inducingMean();
      Matrix c1 = q1.inducingCovariance();
      Matrix c2 = q2.inducingCovariance();
      Matrix cs = post.inducingCovariance();
      double du = 0;
      double dc = 0;
      for (int a = 0; a < m; a++) {
        du = Math.max(du, Math.abs((a1 * u2[a] - a2 * u1[a]) / (a1 - a2) - us[a]));
        for (int b = 0; b < m; b++) {
          double lim = (a1 * c2.get(a, b) - a2 * c1.get(a, b)) / (a1 - a2);
          dc = Math.max(dc, Math.abs(lim - cs.get(a, b)));
        }
      }
      System.out.printf(
          "sparse Power EP, alpha -> 0 (Richardson from 1e-3, 1e-4): energy %.12f (%.1e), E[u] %.1e, Cov[u] %.1e%n",
          limit, limit - post.elbo(), du, dc);
      assertEquals(limit, post.elbo(), 1e-6, "sparse Power EP's α → 0 limit");
      assertTrue(du < 1e-5, "E[u] differs from the α → 0 limit by " + du);
      assertTrue(dc < 1e-5, "Cov[u] differs from the α → 0 limit by " + dc);
    }
    if (m == x.length) {
      Posterior vb =
          Vb.infer(p, VbOptions.defaults().withTolerance(1e-11).withGradient(false), null);
      double[][] xs = SmallProblems.inputs(34, 25, 2);
      double[] ys = SmallProblems.labels(35, xs);
      Prediction a = vb.predict(xs);
      Prediction b = post.predict(xs);
      double worst = 0;
      for (int j = 0; j < xs.length; j++) {
        worst = Math.max(worst, Math.abs(a.latentMean()[j] - b.latentMean()[j]));
        worst = Math.max(worst, Math.abs(a.latentVariance()[j] - b.latentVariance()[j]));
      }
      RegressionData test = RegressionData.of(xs, ys);
      double nlpd = Math.abs(vb.nlpd(test) - post.nlpd(test));
      System.out.printf(
          "Z = X: exact VB ELBO %.12f (%.1e), predictions %.1e, NLPD %.1e%n",
          vb.logEvidence(), post.elbo() - vb.logEvidence(), worst, nlpd);
      assertEquals(vb.logEvidence(), post.elbo(), 1e-7, "SVGP at Z = X against exact VB");
      assertTrue(worst < 1e-4, "latent predictions differ by " + worst);
      assertTrue(nlpd < 1e-5, "NLPD differs by " + nlpd);
    }
  }

  /** A random point: m, a lower-triangular C with log-diagonal, θ and Z perturbed. */
  private static double[] randomPoint(Svgp s, long seed) {
    UniformRandomProvider rng = RandomSource.SPLIT_MIX_64.create(seed);
    double[] x = s.start();
    int o = s.thetaOffset();
    for (int j = 0; j < o; j++) {
      x[j] += 0.6 * (rng.nextDouble() - 0.5);
    }
    for (int j = o; j < x.length; j++) {
      x[j] += 0.2 * (rng.nextDouble() - 0.5);
    }
    return x;
  }

  /**
   * ∂L/∂x in (m, C's log-diagonal and lower entries, θ, Z) against central differences (h = 1e-5), SE-ARD, M = 6,
   * n = 30, for probit (m₀ = 0) and a Gaussian likelihood (m₀ = 0.4), on every row and on a minibatch with a repeated
   * row.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"probit", "gaussian", "probit-minibatch", "gaussian-minibatch"})
  void gradientMatchesCentralDifferences(String which) {
    double[][] x = SmallProblems.inputs(51, 30, 3);
    boolean gaussian = which.startsWith("gaussian");
    double[] y = gaussian ? SmallProblems.targets(52, x) : SmallProblems.labels(52, x);
    Likelihood lik = gaussian ? Gaussian.of(0.2) : Probit.get();
    Problem p = new Problem(SmallProblems.ard(3), x, y, lik, gaussian ? 0.4 : 0.0);
    Svgp s = Svgp.of(new SparseProblem(p, SmallProblems.inputs(53, 6, 3)), true, true);
    int[] rows = which.endsWith("minibatch") ? new int[] {3, 17, 17, 29, 0, 8, 22} : null;
    double[] at = randomPoint(s, 54);
    double[] g = new double[s.dimension()];
    s.elbo(at, rows, g);
    double h = 1e-5;
    double worst = 0;
    for (int j = 0; j < at.length; j++) {
      double[] xp = at.clone();
      double[] xm = at.clone();
      xp[j] += h;
      xm[j] -= h;
      double fd = (s.elbo(xp, rows, null) - s.elbo(xm, rows, null)) / (2 * h);
      double err = Math.abs(fd - g[j]) / Math.max(1, Math.abs(fd));
      worst = Math.max(worst, err);
      assertEquals(fd, g[j], 1e-6 * Math.max(1, Math.abs(fd)), which + ": coordinate " + j);
    }
    System.out.printf(
        "%s: %d coordinates (M = 6: 6 + 21 variational, 4 θ, 18 Z), worst relative error %.1e%n",
        which, at.length, worst);
  }

  /**
   * The rows are summed by blocks ({@link SparseApproximation#BLOCK} in use, so n ≤ 400 here is one block): with
   * blocks of 7 rows (five blocks, the last of 2) the bound and its gradient equal the one-block sums to rounding,
   * full batch and minibatch.
   */
  @Test
  void blocksOfRowsSumToTheSameBoundAndGradient() {
    double[][] x = SmallProblems.inputs(56, 30, 2);
    Problem p = Problem.of(SmallProblems.ard(2), x, SmallProblems.labels(57, x), Probit.get());
    SparseProblem sp = new SparseProblem(p, SmallProblems.inputs(58, 5, 2));
    Svgp one = Svgp.of(sp, true, true);
    Svgp blocks = Svgp.of(sp, true, true, 7);
    double[] at = randomPoint(one, 59);
    int[] batch = {4, 9, 9, 1, 28, 13, 0, 21, 17, 3};
    for (int[] rows : new int[][] {null, batch}) {
      double[] g1 = new double[one.dimension()];
      double[] g2 = new double[one.dimension()];
      double v1 = one.elbo(at, rows, g1);
      double v2 = blocks.elbo(at, rows, g2);
      assertEquals(v1, v2, 1e-12 * Math.abs(v1));
      for (int j = 0; j < g1.length; j++) {
        assertEquals(g1[j], g2[j], 1e-11 * Math.max(1, Math.abs(g1[j])), "coordinate " + j);
      }
    }
  }

  /** Bad arguments are refused with messages that say what is wrong. */
  @Test
  void badArgumentsAreRefused() {
    double[][] x = SmallProblems.inputs(61, 10, 2);
    Problem p = Problem.of(SmallProblems.iso(), x, SmallProblems.labels(62, x), Probit.get());
    SparseProblem sp = new SparseProblem(p, SmallProblems.inputs(63, 3, 2));
    Svgp s = Svgp.of(sp, false, false);
    String m1 = assertThrows(IllegalArgumentException.class, () -> Svgp.of(null, false, false))
        .getMessage();
    assertTrue(m1.contains("must not be null"), m1);
    String m2 = assertThrows(IllegalArgumentException.class, () -> s.elbo(new double[4], null))
        .getMessage();
    assertTrue(m2.contains("SVGP has 9 parameters, got 4"), m2);
    String m3 = assertThrows(
            IllegalArgumentException.class, () -> s.elbo(s.start(), new int[0], null))
        .getMessage();
    assertTrue(m3.contains("empty minibatch"), m3);
    String m4 = assertThrows(
            IllegalArgumentException.class, () -> s.elbo(s.start(), new int[] {2, 10}, null))
        .getMessage();
    assertTrue(m4.contains("row 10 is not one of the 10 rows"), m4);
    double[] bad = s.start();
    String m5 = assertThrows(
            IllegalArgumentException.class,
            () -> s.setFactor(bad, Matrix.diagonal(new double[] {1, 0, 1})))
        .getMessage();
    assertTrue(m5.contains("diagonal 1 of C is 0.0, not positive"), m5);
    SvgpModel.Options d = SvgpModel.Options.defaults();
    String m6 =
        assertThrows(IllegalArgumentException.class, () -> d.withMinibatch(0)).getMessage();
    assertTrue(m6.contains("minibatch must have at least 1 row"), m6);
    String m7 = assertThrows(IllegalArgumentException.class, () -> d.withLearningRate(-0.1))
        .getMessage();
    assertTrue(m7.contains("learning rate must be positive"), m7);
    String m8 =
        assertThrows(IllegalArgumentException.class, () -> d.withIterations(0)).getMessage();
    assertTrue(m8.contains("iteration cap must be >= 1"), m8);
    String m9 = assertThrows(IllegalArgumentException.class, () -> SvgpModel.fit(null, d))
        .getMessage();
    assertTrue(m9.contains("must not be null"), m9);
    // the inducing inputs must have the training inputs' columns
    String m10 = assertThrows(
            IllegalArgumentException.class, () -> new SparseProblem(p, new double[][] {{1, 2, 3}}))
        .getMessage();
    assertTrue(m10.contains("inducing input 0 has 3 columns, the training inputs 2"), m10);
  }
}
