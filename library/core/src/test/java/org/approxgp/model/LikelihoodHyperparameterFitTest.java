package org.approxgp.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.approxgp.inference.ExactGpr;
import org.approxgp.inference.Problem;
import org.approxgp.kernel.Kernel;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.likelihood.Gaussian;
import org.approxgp.optimize.Lbfgs;
import org.junit.jupiter.api.Test;

/**
 * {@link GpModel#fit} learns likelihood hyperparameters: with a Gaussian likelihood EP is exact, so EP's
 * log evidence is the exact-GPR log marginal likelihood and the learned noise variance must be its
 * maximiser, computed here independently from {@link ExactGpr} (Cholesky of K + σ²I).
 *
 * <p>Tolerance: near the maximum L(τ) ≈ L* − ½ c (τ − τ*)² in τ = log σ². L-BFGS stops when the relative
 * decrease is below r = 1e-9 or the gradient norm below g = 1e-5 · max(1, ‖θ‖); either leaves
 * |τ − τ*| ≤ √(2 r max(1, |L*|)/c) + g max(1, ‖θ‖)/c. The test measures c by finite differences and allows
 * ten times that bound (the central-difference gradient adds O(h² L''') ≈ 1e-8, negligible).
 */
class LikelihoodHyperparameterFitTest {

  private static final int N = 40;
  private static final double TRUE_NOISE = 0.04;

  private static double[][] x;
  private static double[] y;

  static {
    Random rng = new Random(20261123L);
    x = new double[N][1];
    y = new double[N];
    for (int i = 0; i < N; i++) {
      x[i][0] = -3 + 6 * rng.nextDouble();
      y[i] = Math.sin(1.3 * x[i][0])
          + 0.5 * Math.cos(0.4 * x[i][0])
          + Math.sqrt(TRUE_NOISE) * rng.nextGaussian();
    }
  }

  private static double exactLogMl(Kernel k, double logNoise) {
    return ExactGpr.of(k, x, y, Math.exp(logNoise), 0).logEvidence();
  }

  /** Maximiser of the exact log ML in τ = log σ² by golden section on [−12, 4] (unimodal here). */
  private static double exactArgmaxLogNoise(Kernel k) {
    double a = -12;
    double b = 4;
    double g = (Math.sqrt(5) - 1) / 2;
    while (b - a > 1e-10) {
      double c = b - g * (b - a);
      double d = a + g * (b - a);
      if (exactLogMl(k, c) > exactLogMl(k, d)) {
        b = d;
      } else {
        a = c;
      }
    }
    return 0.5 * (a + b);
  }

  private static double curvature(Kernel k, double tau) {
    double h = 1e-3;
    return -(exactLogMl(k, tau + h) - 2 * exactLogMl(k, tau) + exactLogMl(k, tau - h)) / (h * h);
  }

  /** Kernel pinned by bounds lower = upper: only the noise is learned. */
  @Test
  void epLearnsTheExactMaximumLikelihoodNoiseWithTheKernelFixed() {
    Kernel k = SquaredExponential.iso(1.1, 0.8);
    Problem p = Problem.of(k, x, y, Gaussian.of(1.0));
    double[] kt = k.logHyperparameters();
    Bounds pinned = new Bounds(kt.clone(), kt.clone()).append(Bounds.defaults(Gaussian.of(1.0)));
    FittedGp fit = GpModel.fit(
        p, Registry.inference("ep"), new GpModel.FitOptions(true, Lbfgs.Settings.paper(), pinned));
    double tau = ((Gaussian) fit.likelihood()).logHyperparameters()[0];
    double tauStar = exactArgmaxLogNoise(k);
    double c = curvature(k, tauStar);
    double lStar = exactLogMl(k, tauStar);
    double tol = 10
        * (Math.sqrt(2e-9 * Math.max(1, Math.abs(lStar)) / c)
            + 1e-5 * Math.max(1, Math.abs(tau)) / c);
    System.out.printf(
        "fixed kernel: tau=%.8f tau*=%.8f diff=%.2e tol=%.2e c=%.3f noise=%.6f%n",
        tau, tauStar, tau - tauStar, tol, c, Math.exp(tau));
    assertTrue(fit.converged(), fit.optimizerStatus());
    assertEquals(tauStar, tau, tol, "log noise variance");
    // EP is exact for a Gaussian likelihood: its evidence is the exact log ML at the learned noise
    assertEquals(exactLogMl(k, tau), fit.logEvidence(), 1e-8 * Math.abs(lStar));
    assertArrayEquals(kt, fit.kernel().logHyperparameters());
  }

  /** Kernel and noise learned jointly; the noise is the exact ML noise at the learned kernel, and no worse. */
  @Test
  void epLearnsNoiseJointlyWithTheKernel() {
    Kernel k = SquaredExponential.iso(1.0, 1.0);
    Problem p = Problem.of(k, x, y, Gaussian.of(0.5));
    FittedGp fit = GpModel.fit(p, Registry.inference("ep"), GpModel.FitOptions.optimize(k));
    double tau = fit.likelihood().logHyperparameters()[0];
    Kernel kf = fit.kernel();
    double tauStar = exactArgmaxLogNoise(kf);
    double c = curvature(kf, tauStar);
    double lStar = exactLogMl(kf, tauStar);
    double tol = 10
        * (Math.sqrt(2e-9 * Math.max(1, Math.abs(lStar)) / c)
            + 1e-5 * Math.max(1, Math.abs(tau)) / c);
    System.out.printf(
        "joint: tau=%.8f tau*=%.8f diff=%.2e tol=%.2e noise=%.6f kernel=%s%n",
        tau, tauStar, tau - tauStar, tol, Math.exp(tau), kf);
    assertTrue(fit.converged(), fit.optimizerStatus());
    assertEquals(tauStar, tau, tol, "log noise variance");
    assertEquals(exactLogMl(kf, tau), fit.logEvidence(), 1e-8 * Math.abs(lStar));
    assertTrue(fit.activeBounds().isEmpty(), fit.activeBounds().toString());
    // and a stationary point of the exact log ML in the kernel directions too (central differences
    // of
    // ExactGpr), with the same stopping-rule bound on each gradient component: |g| ≤ √(2 r |L*| c)
    // + g_tol
    double[] kt = kf.logHyperparameters();
    double h = 1e-4;
    for (int j = 0; j < kt.length; j++) {
      double[] tp = kt.clone();
      double[] tm = kt.clone();
      tp[j] += h;
      tm[j] -= h;
      double lp = exactLogMl(kf.withLogHyperparameters(tp), tau);
      double lm = exactLogMl(kf.withLogHyperparameters(tm), tau);
      double grad = (lp - lm) / (2 * h);
      double cj = -(lp - 2 * exactLogMl(kf, tau) + lm) / (h * h);
      double gtol = 10
          * (Math.sqrt(2e-9 * Math.max(1, Math.abs(lStar)) * Math.abs(cj))
              + 1e-5 * Math.max(1, norm(kt)));
      System.out.printf("kernel direction %d: exact gradient %.2e (bound %.2e)%n", j, grad, gtol);
      assertEquals(0, grad, gtol, "exact log-ML gradient in kernel direction " + j);
    }
  }

  private static double norm(double[] v) {
    double s = 0;
    for (double a : v) {
      s += a * a;
    }
    return Math.sqrt(s);
  }

  private static void assertArrayEquals(double[] a, double[] b) {
    org.junit.jupiter.api.Assertions.assertArrayEquals(a, b, 1e-12);
  }
}
