package org.approxgp.inference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Function;
import java.util.stream.Stream;
import org.approxgp.kernel.Kernel;
import org.approxgp.likelihood.Gaussian;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.Matrix;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * GPflow-style consistency: with a Gaussian likelihood, Laplace, VB and EP are all exact, so each must
 * equal exact GP regression (R&amp;W Alg. 2.1, here with a constant prior mean m₀ ≠ 0), computed
 * independently below from one Cholesky of K + σ²I.
 */
class GaussianConsistencyTest {
  static final double NOISE = 0.09;
  static final double M0 = 0.4;
  static final double TOL = 1e-8;

  /** Exact GPR quantities. */
  record Exact(double[] mean, double[] variance, double[] predMean, double[] predVar, double logEvidence) {}

  static Exact exact(Kernel kern, double[][] x, double[] y, double[][] xs) {
    int n = y.length;
    Matrix k = kern.matrix(x);
    Matrix ky = k.copy();
    ky.addDiagonal(NOISE);
    Cholesky l = Cholesky.factor(ky);
    double[] r = new double[n];
    for (int i = 0; i < n; i++) {
      r[i] = y[i] - M0;
    }
    double[] a = l.solve(r);
    double[] mean = k.mult(a);
    for (int i = 0; i < n; i++) {
      mean[i] += M0;
    }
    // Σ = K − K Ky⁻¹ K
    Matrix v = l.solveLower(k);
    double[] var = new double[n];
    for (int i = 0; i < n; i++) {
      double s = k.get(i, i);
      for (int q = 0; q < n; q++) {
        s -= v.get(q, i) * v.get(q, i);
      }
      var[i] = s;
    }
    Matrix ks = kern.cross(x, xs);
    double[] pm = ks.multTransA(a);
    double[] kss = kern.diagonal(xs);
    Matrix vs = l.solveLower(ks);
    double[] pv = new double[xs.length];
    for (int j = 0; j < xs.length; j++) {
      pm[j] += M0;
      double s = kss[j];
      for (int q = 0; q < n; q++) {
        s -= vs.get(q, j) * vs.get(q, j);
      }
      pv[j] = s;
    }
    // log N(y | m₀, K + σ²I) = −½ rᵀ Ky⁻¹ r − ½ log|Ky| − n/2 log 2π
    double quad = 0;
    for (int i = 0; i < n; i++) {
      quad += r[i] * a[i];
    }
    double lz = -0.5 * quad - 0.5 * l.logDet() - 0.5 * n * Math.log(2 * Math.PI);
    return new Exact(mean, var, pm, pv, lz);
  }

  static Stream<Arguments> cases() {
    Function<Problem, Posterior> laplace = Laplace::infer;
    Function<Problem, Posterior> vb = Vb::infer;
    Function<Problem, Posterior> ep = p -> Ep.infer(p, Ep.Options.defaults().withTolerance(1e-12), null);
    Function<Problem, Posterior> epPar = p -> Ep.infer(p,
        Ep.Options.defaults().withSchedule(Ep.Schedule.PARALLEL).withTolerance(1e-12), null);
    return Stream.of(Arguments.of("laplace", laplace), Arguments.of("vb", vb), Arguments.of("ep", ep),
        Arguments.of("ep-parallel", epPar));
  }

  static Problem problem(Kernel kern) {
    double[][] x = SmallProblems.inputs(11, 25, 2);
    return new Problem(kern, x, SmallProblems.targets(11, x), Gaussian.of(NOISE), M0);
  }

  static void assertClose(double[] expected, double[] actual, String what) {
    for (int i = 0; i < expected.length; i++) {
      assertEquals(expected[i], actual[i], TOL, what + " " + i);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void equalsExactGpRegression(String name, Function<Problem, Posterior> method) {
    for (Kernel kern : new Kernel[] {SmallProblems.iso(), SmallProblems.ard(2)}) {
      Problem p = problem(kern);
      double[][] xs = SmallProblems.inputs(12, 9, 2);
      Exact ex = exact(kern, p.x(), p.y(), xs);
      Posterior post = method.apply(p);
      assertTrue(post.diagnostics().converged(), post.diagnostics().toString());
      assertClose(ex.mean(), post.mean(), name + " mean");
      assertClose(ex.variance(), post.variance(), name + " variance");
      Prediction pr = post.predict(xs);
      assertClose(ex.predMean(), pr.latentMean(), name + " predictive mean");
      assertClose(ex.predVar(), pr.latentVariance(), name + " predictive variance");
      assertEquals(ex.logEvidence(), post.logEvidence(), TOL * Math.abs(ex.logEvidence()), name + " log evidence");
    }
  }

  /** ELBO(α, λ) ≤ log p(y) for any q, with equality only at the exact posterior. */
  @Test
  void elboBelowEvidenceOffOptimum() {
    Problem p = problem(SmallProblems.iso());
    double lz = exact(p.kernel(), p.x(), p.y(), p.x()).logEvidence();
    Posterior post = Vb.infer(p);
    double[] alpha = post.alpha();
    double[] lambda = post.sites().tau();
    assertEquals(lz, Vb.elbo(p, alpha, lambda, false).elbo, TOL * Math.abs(lz));
    for (int t = 0; t < 5; t++) {
      double[] a = alpha.clone();
      double[] l = lambda.clone();
      for (int i = 0; i < a.length; i++) {
        double[] u = SmallProblems.inputs(200 + 31L * t + i, 1, 2)[0];
        a[i] += 0.3 * u[0];
        l[i] *= Math.exp(0.5 * u[1]);
      }
      double e = Vb.elbo(p, a, l, false).elbo;
      assertTrue(e < lz - 1e-6, "ELBO " + e + " vs log evidence " + lz);
    }
  }
}
