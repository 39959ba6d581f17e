package org.approxgp.inference;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.approxgp.kernel.Kernel;
import org.approxgp.kernel.Linear;
import org.approxgp.likelihood.Probit;
import org.approxgp.projection.W2Projection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link SparseGradient}: the analytic gradient of the sparse Power-EP energy in log θ against central differences of
 * the converged energy (each side a fresh run of the loop, so the sites move with θ: agreement also checks that the
 * energy is stationary in the sites at a fixed point), and at Z = X against exact EP's R&amp;W eq. 5.27 gradient.
 */
class SparseGradientTest {

  private static final SiteLoopOptions OPT = SiteLoopOptions.defaults().withTolerance(1e-12);
  private static final double H = 1e-5;

  private static SiteUpdate<Void> rule(double alpha) {
    return alpha == 1 ? MomentMatching.ep() : PowerEp.of(alpha);
  }

  private static double energy(Problem p, double[][] z, double alpha, double[] theta) {
    Problem q = p.withKernel(p.kernel().withLogHyperparameters(theta));
    SparsePosterior s =
        SparseSiteLoop.run(new SparseProblem(q, z), rule(alpha), OPT.withGradient(false), null);
    assertTrue(s.diagnostics().converged(), s.diagnostics().toString());
    return s.logEvidence();
  }

  /** n = 4500 spans three blocks of {@link SparseApproximation#BLOCK} rows (EP there: power-tilted moments are quadratures). */
  @ParameterizedTest(name = "kernel={0}, alpha={1}, m0={2}, n={3}")
  @CsvSource({
    "se-ard, 1.0, 0.0, 50",
    "se-ard, 0.5, 0.0, 50",
    "se-ard, 0.2, 0.4, 50",
    "se-iso, 1.0, -0.3, 50",
    "linear, 0.5, 0.0, 50",
    "se-ard, 1.0, 0.3, 4500"
  })
  void analyticGradientMatchesCentralDifferences(String kernel, double alpha, double m0, int n) {
    double[][] x = SmallProblems.inputs(51, n, 2);
    double[] y = SmallProblems.labels(52, x);
    double[][] z = Arrays.copyOf(SmallProblems.inputs(53, 12, 2), 12);
    Kernel k = switch (kernel) {
      case "se-ard" -> SmallProblems.ard(2);
      case "se-iso" -> SmallProblems.iso();
      default -> Linear.of(0.8);
    };
    Problem p = new Problem(k, x, y, Probit.get(), m0);
    SparsePosterior s = SparseSiteLoop.run(new SparseProblem(p, z), rule(alpha), OPT, null);
    assertTrue(s.diagnostics().converged(), s.diagnostics().toString());
    double[] g = s.logEvidenceGradient();
    double[] theta = k.logHyperparameters();
    double worst = 0;
    double[] fd = new double[theta.length];
    for (int j = 0; j < theta.length; j++) {
      double[] tp = theta.clone();
      double[] tm = theta.clone();
      tp[j] += H;
      tm[j] -= H;
      fd[j] = (energy(p, z, alpha, tp) - energy(p, z, alpha, tm)) / (2 * H);
      worst = Math.max(worst, Math.abs(fd[j] - g[j]) / Math.max(1, Math.abs(fd[j])));
    }
    System.out.printf(
        "%s alpha=%s m0=%s n=%d: analytic %s, central differences %s, worst relative %.2e%n",
        kernel, alpha, m0, n, Arrays.toString(g), Arrays.toString(fd), worst);
    assertTrue(worst < 1e-6, "gradient differs from central differences by " + worst);
  }

  @ParameterizedTest(name = "kernel={0}, alpha={1}, n={2}")
  @CsvSource({"se-ard, 1.0, 50", "se-ard, 0.5, 50", "se-iso, 0.2, 50", "se-ard, 1.0, 4500"})
  void inducingInputGradientMatchesCentralDifferences(String kernel, double alpha, int n) {
    double[][] x = SmallProblems.inputs(71, n, 2);
    double[] y = SmallProblems.labels(72, x);
    double[][] z = Arrays.copyOf(SmallProblems.inputs(73, 8, 2), 8);
    // (not the linear kernel: its rank is d = 2, so the energy does not depend on Z once Z spans
    // the plane)
    Kernel k = kernel.equals("se-ard") ? SmallProblems.ard(2) : SmallProblems.iso();
    Problem p = new Problem(k, x, y, Probit.get(), 0.2);
    SparsePosterior s = SparseSiteLoop.run(new SparseProblem(p, z), rule(alpha), OPT, null);
    double[][] g = s.inducingGradient();
    double[] theta = k.logHyperparameters();
    double worst = 0;
    double largest = 0;
    // at n = 4500 (every run a few hundred ms) two of the eight inducing inputs suffice to cross
    // the blocks
    for (int a = 0; a < (n > 1000 ? 2 : z.length); a++) {
      for (int c = 0; c < 2; c++) {
        double[][] zp = copy(z);
        double[][] zm = copy(z);
        zp[a][c] += H;
        zm[a][c] -= H;
        double fd = (energy(p, zp, alpha, theta) - energy(p, zm, alpha, theta)) / (2 * H);
        worst = Math.max(worst, Math.abs(fd - g[a][c]) / Math.max(1, Math.abs(fd)));
        largest = Math.max(largest, Math.abs(fd));
      }
    }
    System.out.printf(
        "%s alpha=%s n=%d: dF/dZ against central differences, worst relative %.2e (largest |dF/dz| %.3f)%n",
        kernel, alpha, n, worst, largest);
    assertTrue(largest > 1e-2, "a test with a vanishing gradient cannot fail");
    assertTrue(
        worst < 1e-6, "inducing-input gradient differs from central differences by " + worst);
  }

  /**
   * Rows about 16 length-scales from every inducing input, whose kernel values are about 1e-100, so that the variance
   * V of q(gₙ) is about 1e-200 and V² underflows: the gradient is finite and still matches central differences, for
   * EP and Power EP (each row's terms in a form that stays finite as V goes to 0; 57 standardised spam inputs at
   * length-scale 1 had such rows, and fit --inducing failed with "non-finite log-evidence gradient"). Rows further
   * out, whose kernel values underflow to 0 (V = 0), are still refused by the loop: their cavity is a point mass.
   */
  @ParameterizedTest(name = "alpha={0}")
  @CsvSource({"1.0", "0.5"})
  void rowsBeyondTheKernelsReachKeepTheGradientFinite(double alpha) {
    double[][] x = SmallProblems.inputs(81, 50, 2);
    for (int i = 0; i < 5; i++) {
      x[i] = new double[] {18.0 + 0.1 * i, 0.0};
    }
    double[] y = SmallProblems.labels(82, x);
    double[][] z = Arrays.copyOf(SmallProblems.inputs(83, 10, 2), 10);
    Kernel k = SmallProblems.ard(2);
    Problem p = new Problem(k, x, y, Probit.get(), 0.1);
    SparsePosterior s = SparseSiteLoop.run(new SparseProblem(p, z), rule(alpha), OPT, null);
    assertTrue(s.diagnostics().converged(), s.diagnostics().toString());
    double[] g = s.logEvidenceGradient();
    double[] theta = k.logHyperparameters();
    double worst = 0;
    for (int j = 0; j < theta.length; j++) {
      double[] tp = theta.clone();
      double[] tm = theta.clone();
      tp[j] += H;
      tm[j] -= H;
      double fd = (energy(p, z, alpha, tp) - energy(p, z, alpha, tm)) / (2 * H);
      assertTrue(Double.isFinite(g[j]), "gradient " + j + " is " + g[j]);
      worst = Math.max(worst, Math.abs(fd - g[j]) / Math.max(1, Math.abs(fd)));
    }
    System.out.printf(
        "alpha=%s, 5 of 50 rows beyond the kernel's reach: analytic %s, worst relative %.2e%n",
        alpha, Arrays.toString(g), worst);
    assertTrue(worst < 1e-6, "gradient differs from central differences by " + worst);
  }

  private static double[][] copy(double[][] z) {
    double[][] c = new double[z.length][];
    for (int a = 0; a < z.length; a++) {
      c[a] = z[a].clone();
    }
    return c;
  }

  @Test
  void atTheTrainingInputsTheGradientIsExactEps() {
    double[][] x = SmallProblems.inputs(61, 40, 2);
    double[] y = SmallProblems.labels(62, x);
    Problem p = Problem.of(SmallProblems.ard(2), x, y, Probit.get());
    Posterior ep = SiteLoop.run(p, MomentMatching.ep(), OPT, null);
    SparsePosterior s = SparseSiteLoop.run(new SparseProblem(p, x), MomentMatching.ep(), OPT, null);
    double[] ge = ep.logEvidenceGradient();
    double[] gs = s.logEvidenceGradient();
    double worst = 0;
    for (int j = 0; j < ge.length; j++) {
      worst = Math.max(worst, Math.abs(ge[j] - gs[j]) / Math.max(1, Math.abs(ge[j])));
    }
    System.out.printf(
        "Z = X: exact EP %s, sparse %s, worst relative %.2e%n",
        Arrays.toString(ge), Arrays.toString(gs), worst);
    assertTrue(worst < 1e-8, "gradients differ by " + worst);
  }

  @Test
  void qpsGradientIsRefused() {
    double[][] x = SmallProblems.inputs(1, 5, 1);
    Problem p = Problem.of(SmallProblems.iso(), x, SmallProblems.labels(2, x), Probit.get());
    IllegalArgumentException e = assertThrows(
        IllegalArgumentException.class,
        () -> SparseSiteLoop.run(
            new SparseProblem(p, x), MomentMatching.qp(W2Projection.shipped()), OPT, null));
    assertTrue(e.getMessage().contains("stationary"), e.getMessage());
  }
}
