package org.approxgp.inference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.approxgp.kernel.Kernel;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.likelihood.PoissonSquareLink;
import org.approxgp.likelihood.Probit;
import org.approxgp.projection.W2Projection;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link QpGradient} (implicit differentiation of QP's fixed point) against finite differences of QP's
 * converged log evidence (the EP energy at QP's sites), on small seeded problems: probit with SE-iso and
 * SE-ARD (exact and table-backed W2 projections) and the Poisson square link with prior mean 1 (the coal
 * runs). The finite difference is the fourth-order central one, [8(L(h) − L(−h)) − (L(2h) − L(−2h))]/(12h),
 * h = {@value #H} in log θ, each side a QP run to tolerance 1e-11 warm-started from the centre's sites:
 * its truncation error is ~h⁴ L⁽⁵⁾/30 ≈ 1e-13 and its round-off ~1e-13/h ≈ 1e-10. The test also checks that
 * both the partial derivative at fixed sites (the implicit term dropped) and R&amp;W eq. 5.27 miss by far
 * more than the tolerance, so it would fail without the implicit term.
 */
@Tag("rounding")
class QpGradientTest {
  static final double H = 1e-3;
  /**
   * Relative agreement required (of max(1, |fd|) per component); observed 5.6e-11–2.6e-10 (the projection's
   * own finite difference and the quadrature tolerance dominate).
   */
  static final double TOL = 1e-8;

  static Ep.Options options(W2Projection projection) {
    return Ep.Options.defaults().withProjection(projection).withLoop(l -> l.withTolerance(1e-11));
  }

  static Problem probit(Kernel k, int n, int d, long seed) {
    double[][] x = SmallProblems.inputs(seed, n, d);
    return Problem.of(k, x, SmallProblems.labels(seed, x), Probit.get());
  }

  /** Counts y ~ Poisson(f²) with f = 1 + 0.8 sin(1.3 x), x on [−2, 2] (prior mean 1, as the coal runs). */
  static Problem poisson(int n) {
    double[][] x = SmallProblems.inputs(11, n, 1);
    UniformRandomProvider rng = RandomSource.SPLIT_MIX_64.create(12);
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      double f = 1 + 0.8 * Math.sin(1.3 * x[i][0]);
      double lam = f * f;
      // Poisson by inversion
      double u = rng.nextDouble();
      double p = Math.exp(-lam);
      double c = p;
      int k = 0;
      while (u > c && k < 100) {
        k++;
        p *= lam / k;
        c += p;
      }
      y[i] = k;
    }
    return new Problem(SquaredExponential.iso(1.2, 0.5), x, y, PoissonSquareLink.get(), 1.0);
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of(
            "probit se-iso n=30 exact",
            probit(SmallProblems.iso(), 30, 2, 3),
            W2Projection.exact()),
        Arguments.of(
            "probit se-ard n=40 exact",
            probit(SmallProblems.ard(3), 40, 3, 5),
            W2Projection.exact()),
        Arguments.of(
            "probit se-ard n=40 table",
            probit(SmallProblems.ard(3), 40, 3, 5),
            W2Projection.probitTabulated()),
        Arguments.of(
            "probit se-iso n=60 strong",
            probit(SquaredExponential.iso(1.5, 9.0), 60, 2, 7),
            W2Projection.exact()),
        Arguments.of("poisson se-iso n=25 m0=1", poisson(25), W2Projection.exact()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void matchesFiniteDifferencesOfTheEvidence(String name, Problem p, W2Projection projection) {
    Ep.Options o = options(projection);
    Posterior centre = Qp.inferWithImplicitGradient(p, o, null);
    assertTrue(centre.diagnostics().converged(), centre.diagnostics().toString());
    Posterior plain = Qp.infer(p, o, null);
    // the posterior and evidence are Qp.infer's, bit for bit
    assertEquals(plain.logEvidence(), centre.logEvidence(), 0.0);
    double[] g = centre.logEvidenceGradient();
    double[] partial = QpGradient.gradient(
        p, centre.approx(), projection, o.loop().negativeSites(), false, centre.diagnostics());
    double[] ep527 = plain.logEvidenceGradient();
    Kernel k = p.kernel();
    double[] theta = k.logHyperparameters();
    double maxErr = 0;
    double partialErr = 0;
    double epErr = 0;
    for (int j = 0; j < theta.length; j++) {
      double fd = (8 * (side(p, o, centre, theta, j, H) - side(p, o, centre, theta, j, -H))
              - (side(p, o, centre, theta, j, 2 * H) - side(p, o, centre, theta, j, -2 * H)))
          / (12 * H);
      double scale = Math.max(1, Math.abs(fd));
      maxErr = Math.max(maxErr, Math.abs(g[j] - fd) / scale);
      partialErr = Math.max(partialErr, Math.abs(partial[j] - fd) / scale);
      epErr = Math.max(epErr, Math.abs(ep527[j] - fd) / scale);
      assertEquals(fd, g[j], TOL * scale, name + " θ" + j);
    }
    System.out.printf(
        "%s: implicit %.2e, fixed sites %.2e, eq. 5.27 %.2e (relative to max(1,|fd|))%n",
        name, maxErr, partialErr, epErr);
    // dropping the implicit term (or using EP's gradient) must fail this test: observed ≥ 7e-5
    assertTrue(partialErr > 100 * TOL, name + ": the fixed-site gradient is within " + partialErr);
    assertTrue(epErr > 100 * TOL, name + ": eq. 5.27 is within " + epErr);
  }

  private static double side(
      Problem p, Ep.Options o, Posterior centre, double[] theta, int j, double h) {
    double[] t = theta.clone();
    t[j] += h;
    Posterior q = Qp.infer(p.withKernel(p.kernel().withLogHyperparameters(t)), o, centre.sites());
    assertTrue(q.diagnostics().converged(), q.diagnostics().toString());
    return q.logEvidence();
  }
}
