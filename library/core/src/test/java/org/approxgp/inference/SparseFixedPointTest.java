package org.approxgp.inference;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.approxgp.likelihood.Probit;
import org.approxgp.special.GaussHermite;
import org.approxgp.special.Normal;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The fixed point of sparse EP and Power EP with M &lt; n, checked against Bui et al.'s definition directly and without
 * {@link SparseSiteUpdate}: at convergence every site's power-tilted distribution of u,
 * q^{\n}(u) ∫ p(fₙ | u) Φ(yₙ fₙ)^α dfₙ, has q's moments. The tilted distribution differs from the cavity only along
 * gₙ = E[fₙ | u], so this is the statement that the tilted marginal of gₙ,
 * p̃(g) ∝ N(g | cavity) ∫ N(f | g, dₙ) Φ(yₙ f)^α df, has q(gₙ)'s mean and variance; both integrals here by nested
 * 80-point Gauss–Hermite quadrature (the inner one in closed form for α = 1: Φ(y g/√(1 + dₙ))).
 */
class SparseFixedPointTest {

  private static final GaussHermite GH = GaussHermite.of(80);

  @ParameterizedTest(name = "alpha={0}")
  @ValueSource(doubles = {1.0, 0.5})
  void everyTiltedDistributionHasTheMomentsOfQ(double alpha) {
    double[][] x = SmallProblems.inputs(101, 60, 2);
    double[] y = SmallProblems.labels(102, x);
    double[][] z = Arrays.copyOf(SmallProblems.inputs(103, 10, 2), 10);
    Problem p = Problem.of(SmallProblems.ard(2), x, y, Probit.get());
    SiteUpdate<Void> rule = alpha == 1 ? MomentMatching.ep() : PowerEp.of(alpha);
    SparsePosterior s = SparseSiteLoop.run(
        new SparseProblem(p, z),
        rule,
        SiteLoopOptions.defaults().withTolerance(1e-12).withGradient(false),
        null);
    assertTrue(s.diagnostics().converged(), s.diagnostics().toString());
    double[] mean = s.mean();
    double[] var = s.variance();
    double[] d = s.conditionalVariance();
    double[] tau = s.sites().tau();
    double[] nu = s.sites().nu();
    double worst = 0;
    double dmin = Double.POSITIVE_INFINITY;
    double dmax = 0;
    for (int i = 0; i < y.length; i++) {
      double vg = var[i] - d[i];
      double tc = 1 / vg - alpha * tau[i];
      double nc = mean[i] / vg - alpha * nu[i];
      double cm = nc / tc;
      double cv = 1 / tc;
      double yi = y[i];
      double di = d[i];
      // log of the factor h(g) = ∫ N(f | g, d) Φ(y f)^α df
      java.util.function.DoubleUnaryOperator h = alpha == 1
          ? g -> Normal.cdf(yi * g / Math.sqrt(1 + di))
          : g -> GH.expectNormal(g, di, f -> Math.exp(alpha * Normal.logCdf(yi * f)));
      double z0 = GH.expectNormal(cm, cv, h);
      double z1 = GH.expectNormal(cm, cv, g -> g * h.applyAsDouble(g));
      double z2 = GH.expectNormal(cm, cv, g -> g * g * h.applyAsDouble(g));
      double tm = z1 / z0;
      double tv = z2 / z0 - tm * tm;
      worst = Math.max(worst, Math.abs(tm - mean[i]));
      worst = Math.max(worst, Math.abs(tv - vg) / vg);
      dmin = Math.min(dmin, di);
      dmax = Math.max(dmax, di);
    }
    System.out.printf(
        "alpha=%s, M=10, n=60: tilted moments of g vs q's, worst %.2e (d from %.3f to %.3f); %s%n",
        alpha, worst, dmin, dmax, s.diagnostics());
    assertTrue(dmin > 1e-3 && dmax > 0.1, "every site has a FITC variance (M < n is exercised)");
    assertTrue(worst < 1e-9, "tilted and posterior moments differ by " + worst);
  }
}
