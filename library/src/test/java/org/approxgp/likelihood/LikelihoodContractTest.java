package org.approxgp.likelihood;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract every {@link Likelihood} must meet (GPflow's pattern): analytic tilted moments, tilted
 * CDF and variational expectations equal their quadrature versions, and log-density derivatives equal
 * finite differences. {@link #everyLikelihoodIsCovered()} fails when a likelihood class has no entry
 * in {@link #LIKELIHOODS}.
 */
class LikelihoodContractTest {

  /** A likelihood, observations to test, and whether its quadrature VE is valid everywhere. */
  record Case(Likelihood lik, double[] ys, boolean quadratureVe) {
    @Override
    public String toString() {
      return lik.name();
    }
  }

  static final List<Case> LIKELIHOODS = List.of(
      new Case(Probit.get(), new double[] {-1, 1}, true),
      new Case(Gaussian.of(0.3), new double[] {-1.2, 0.4, 2.5}, true),
      // log p has a 1/f² singularity at 0 in its second derivative, so Gauss–Hermite VE is not a
      // valid reference near m = 0; PoissonSquareLinkTest checks its closed-form VE against adaptive quadrature
      new Case(PoissonSquareLink.get(), new double[] {0, 1, 3, 7}, false));

  static Stream<Arguments> points() {
    List<Arguments> out = new ArrayList<>();
    double[] ms = {-4, -1.3, 0, 0.6, 2.2, 5};
    double[] vs = {0.05, 0.8, 3, 20};
    for (Case c : LIKELIHOODS) {
      for (double y : c.ys()) {
        for (double m : ms) {
          for (double v : vs) {
            out.add(Arguments.of(c, y, m, v));
          }
        }
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} y={1} m={2} v={3}")
  @MethodSource("points")
  void tiltedMomentsEqualQuadrature(Case c, double y, double m, double v) {
    TiltedMoments a = c.lik().tilted(y, m, v);
    TiltedMoments q = LikelihoodQuadrature.tilted(c.lik(), y, m, v);
    assertEquals(q.logZ(), a.logZ(), 1e-9 * Math.max(1, Math.abs(q.logZ())), "log Z");
    assertEquals(q.mean(), a.mean(), 1e-9 * Math.max(Math.sqrt(v), Math.abs(q.mean())), "mean");
    assertEquals(q.variance(), a.variance(), 1e-8 * q.variance(), "variance");
    assertTrue(a.variance() > 0);
  }

  @ParameterizedTest(name = "{0} y={1} m={2} v={3}")
  @MethodSource("points")
  void tiltedCdfEqualsQuadrature(Case c, double y, double m, double v) {
    TiltedMoments t = c.lik().tilted(y, m, v);
    double s = Math.sqrt(t.variance());
    for (double z : new double[] {-3, -0.5, 0, 1, 2.5}) {
      double x = t.mean() + z * s;
      double a = c.lik().tiltedCdf(y, m, v, x);
      double q = LikelihoodQuadrature.tiltedCdf(c.lik(), y, m, v, x);
      assertEquals(q, a, 1e-9, "F(" + x + ")");
      assertTrue(a >= 0 && a <= 1);
    }
  }

  @ParameterizedTest(name = "{0} y={1} m={2} v={3}")
  @MethodSource("points")
  void variationalExpectationEqualsQuadrature(Case c, double y, double m, double v) {
    if (!c.quadratureVe()) {
      return;
    }
    VariationalExpectation a = c.lik().variationalExpectation(y, m, v);
    VariationalExpectation q = QuadratureLikelihood.variationalExpectationByQuadrature(c.lik(), y, m, v);
    assertEquals(q.value(), a.value(), 1e-9 * Math.max(1, Math.abs(q.value())));
    assertEquals(q.dMean(), a.dMean(), 1e-9 * Math.max(1, Math.abs(q.dMean())));
    assertEquals(q.dVariance(), a.dVariance(), 1e-9 * Math.max(1, Math.abs(q.dVariance())));
  }

  @ParameterizedTest(name = "{0} y={1} f={2}")
  @MethodSource("points")
  void logDensityDerivativesEqualFiniteDifferences(Case c, double y, double f, double unused) {
    if (f == 0 && c.lik() instanceof PoissonSquareLink) {
      return; // log f² is singular at 0
    }
    double h = 1e-5 * Math.max(1, Math.abs(f));
    LogDensity d = c.lik().logDensity(y, f);
    LogDensity p = c.lik().logDensity(y, f + h);
    LogDensity mn = c.lik().logDensity(y, f - h);
    assertEquals((p.value() - mn.value()) / (2 * h), d.d1(), 1e-6 * Math.max(1, Math.abs(d.d1())), "d1");
    assertEquals((p.d1() - mn.d1()) / (2 * h), d.d2(), 1e-6 * Math.max(1, Math.abs(d.d2())), "d2");
    assertEquals((p.d2() - mn.d2()) / (2 * h), d.d3(), 1e-5 * Math.max(1, Math.abs(d.d3())), "d3");
  }

  /** Every concrete Likelihood in the package must be listed above (a guard, as in GPflow). */
  @Test
  void everyLikelihoodIsCovered() throws IOException, URISyntaxException, ClassNotFoundException {
    Path dir = Path.of(Likelihood.class.getProtectionDomain().getCodeSource().getLocation().toURI())
        .resolve("org/approxgp/likelihood");
    List<String> missing = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path p : files.filter(f -> f.toString().endsWith(".class") && !f.getFileName().toString().contains("$")).toList()) {
        String name = p.getFileName().toString().replace(".class", "");
        Class<?> k = Class.forName("org.approxgp.likelihood." + name);
        if (Likelihood.class.isAssignableFrom(k) && !k.isInterface() && !java.lang.reflect.Modifier.isAbstract(k.getModifiers())
            && LIKELIHOODS.stream().noneMatch(c -> c.lik().getClass() == k)) {
          missing.add(name);
        }
      }
    }
    assertTrue(missing.isEmpty(), "likelihoods without a contract test entry: " + missing);
  }
}
