package org.approxgp.likelihood;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract every {@link Likelihood} must meet (GPflow's pattern): every analytic override equals the
 * interface's quadrature default ({@link LikelihoodQuadrature}) — tilted moments, power-tilted moments for
 * several u (u = 1 against {@code tilted}), tilted CDF and upper tail, variational expectation and both its derivatives,
 * the predictive's log density, mean and variance — and log-density derivatives equal finite differences.
 *
 * <p>A reusable base: a likelihood's contract test extends it and names its cases, e.g.
 * <pre>{@code
 * class LogitContractTest extends LikelihoodContract {
 *   protected List<Case> cases() { return List.of(new Case(Logit.get(), new double[] {-1, 1}, true)); }
 * }
 * }</pre>
 * {@link LikelihoodCoverageTest} fails when a likelihood class of the package has no such test.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class LikelihoodContract {

  /**
   * A likelihood and observations to test. {@code exactPredictive}: whether its predictive log density is
   * exact (the Poisson square link's is the QP paper's negative-binomial approximation, appendix H).
   */
  public record Case(Likelihood lik, double[] ys, boolean exactPredictive) {
    @Override
    public String toString() {
      return lik.name();
    }
  }

  /** The likelihoods (with their parameters) and observations this contract test covers. */
  protected abstract List<Case> cases();

  static final double[] POWERS = {0.3, 0.5, 1.0, 1.7};

  Stream<Arguments> points() {
    List<Arguments> out = new ArrayList<>();
    double[] ms = {-4, -1.3, 0, 0.6, 2.2, 5};
    double[] vs = {0.05, 0.8, 3, 20};
    for (Case c : cases()) {
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

  static void assertMoments(TiltedMoments q, TiltedMoments a, double v, String what) {
    assertEquals(q.logZ(), a.logZ(), 1e-9 * Math.max(1, Math.abs(q.logZ())), what + " log Z");
    assertEquals(
        q.mean(), a.mean(), 1e-9 * Math.max(Math.sqrt(v), Math.abs(q.mean())), what + " mean");
    assertEquals(q.variance(), a.variance(), 1e-8 * q.variance(), what + " variance");
    assertTrue(a.variance() > 0, what + " variance > 0");
  }

  @ParameterizedTest(name = "{0} y={1} m={2} v={3}")
  @MethodSource("points")
  void tiltedMomentsEqualQuadrature(Case c, double y, double m, double v) {
    assertMoments(
        LikelihoodQuadrature.tilted(c.lik(), y, m, v), c.lik().tilted(y, m, v), v, "tilted");
  }

  @ParameterizedTest(name = "{0} y={1} m={2} v={3}")
  @MethodSource("points")
  void powerTiltedMomentsEqualQuadrature(Case c, double y, double m, double v)
      throws NoSuchMethodException {
    // u = 1 is the tilted distribution, whichever implementation answers each
    assertMoments(c.lik().tilted(y, m, v), c.lik().powerTilted(y, m, v, 1.0), v, "u=1 vs tilted");
    // other u: only an analytic override can be checked against the default (the default against
    // itself would be a test that cannot fail); the default itself is checked through Gaussian's
    Class<?> owner = c.lik()
        .getClass()
        .getMethod("powerTilted", double.class, double.class, double.class, double.class)
        .getDeclaringClass();
    Assumptions.assumeTrue(
        owner != Likelihood.class, c.lik().name() + " has no analytic power-tilted moments");
    for (double u : POWERS) {
      TiltedMoments a = c.lik().powerTilted(y, m, v, u);
      assertMoments(LikelihoodQuadrature.powerTilted(c.lik(), y, m, v, u), a, v, "u=" + u);
    }
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
      double upper = c.lik().tiltedSurvival(y, m, v, x);
      assertEquals(1 - q, upper, 1e-9, "1 - F(" + x + ")");
      assertEquals(1.0, a + upper, 1e-12, "F + (1 - F) at " + x);
    }
  }

  /**
   * The tilted expected log density E_p̂[log p] (Relaxed EP's E₁) against its quadrature default: an override (the
   * probit's, the noisy step's closed form) must agree; the default checked through the Gaussian's, against
   * {@code ∂/∂u log ∫ N p^u} at u = 1 by central differences of the power-tilted normaliser.
   */
  @ParameterizedTest(name = "{0} y={1} m={2} v={3}")
  @MethodSource("points")
  void tiltedExpectedLogDensityEqualsQuadrature(Case c, double y, double m, double v) {
    double a = c.lik().tiltedExpectedLogDensity(y, m, v);
    double q = LikelihoodQuadrature.tiltedExpectedLogDensity(c.lik(), y, m, v);
    assertEquals(q, a, 1e-9 * Math.max(1, Math.abs(q)), "E_tilted[log p]");
    double h = 1e-4;
    double fd = (LikelihoodQuadrature.powerTilted(c.lik(), y, m, v, 1 + h).logZ()
            - LikelihoodQuadrature.powerTilted(c.lik(), y, m, v, 1 - h).logZ())
        / (2 * h);
    assertEquals(fd, q, 1e-6 * Math.max(1, Math.abs(q)), "against d/du log Z_u");
  }

  /**
   * Value and ∂/∂m against the quadrature default (split at the likelihood's breakpoints, so the
   * Poisson square link's log-singularity at f = 0 is an endpoint), ∂/∂v against it and against
   * central differences of the analytic value (a check independent of the default's score-function
   * form).
   */
  @ParameterizedTest(name = "{0} y={1} m={2} v={3}")
  @MethodSource("points")
  void variationalExpectationEqualsQuadrature(Case c, double y, double m, double v) {
    VariationalExpectation a = c.lik().variationalExpectation(y, m, v);
    VariationalExpectation q = LikelihoodQuadrature.variationalExpectation(c.lik(), y, m, v);
    assertEquals(q.value(), a.value(), 1e-9 * Math.max(1, Math.abs(q.value())), "value");
    assertEquals(q.dMean(), a.dMean(), 1e-8 * Math.max(1, Math.abs(q.dMean())), "dMean");
    assertEquals(
        q.dVariance(), a.dVariance(), 1e-8 * Math.max(1, Math.abs(q.dVariance())), "dVariance");
    double h = 1e-4 * v;
    double fd = (c.lik().variationalExpectation(y, m, v + h).value()
            - c.lik().variationalExpectation(y, m, v - h).value())
        / (2 * h);
    assertEquals(
        fd, a.dVariance(), 1e-6 * Math.max(1, Math.abs(fd)), "dVariance vs finite differences");
  }

  /**
   * The predictive's mean and variance against quadrature of the conditional moments (law of total
   * variance), its log density against {@code logPredictive} (exact likelihoods) and exp(log density) against
   * {@code density}.
   */
  @ParameterizedTest(name = "{0} y={1} m={2} v={3}")
  @MethodSource("points")
  void predictiveEqualsQuadrature(Case c, double y, double m, double v) {
    Predictive a = c.lik().predictive(m, v);
    Predictive q = new QuadraturePredictive(c.lik(), m, v);
    assertEquals(q.mean(), a.mean(), 1e-9 * Math.max(1, Math.abs(q.mean())), "mean");
    assertEquals(
        q.variance(), a.variance(), 1e-9 * Math.max(1, Math.abs(q.variance())), "variance");
    assertEquals(
        Math.exp(a.logDensity(y)),
        a.density(y),
        1e-14 * Math.max(1e-300, a.density(y)) + 1e-300,
        "density");
    if (c.exactPredictive()) {
      assertEquals(
          q.logDensity(y),
          a.logDensity(y),
          1e-9 * Math.max(1, Math.abs(q.logDensity(y))),
          "log p(y*)");
      assertEquals(
          LikelihoodQuadrature.tilted(c.lik(), y, m, v).logZ(),
          a.logDensity(y),
          1e-9 * Math.max(1, Math.abs(a.logDensity(y))),
          "log p(y*) vs quadrature");
    } else {
      // an approximation: finite, and a probability mass over the counts (checked in
      // NegativeBinomialPredictiveTest)
      assertTrue(Double.isFinite(a.logDensity(y)) && a.logDensity(y) <= 0, "log p(y*)");
    }
  }

  @ParameterizedTest(name = "{0} y={1} f={2}")
  @MethodSource("points")
  void logDensityDerivativesEqualFiniteDifferences(Case c, double y, double f, double unused) {
    double h = 1e-5 * Math.max(1, Math.abs(f));
    for (double b : c.lik().breakpoints(y)) {
      Assumptions.assumeTrue(
          Math.abs(f - b) > 10 * h, "f is at a breakpoint of log p, where it is not smooth");
    }
    LogDensity d = c.lik().logDensity(y, f);
    LogDensity p = c.lik().logDensity(y, f + h);
    LogDensity mn = c.lik().logDensity(y, f - h);
    assertEquals(
        (p.value() - mn.value()) / (2 * h), d.d1(), 1e-6 * Math.max(1, Math.abs(d.d1())), "d1");
    assertEquals((p.d1() - mn.d1()) / (2 * h), d.d2(), 1e-6 * Math.max(1, Math.abs(d.d2())), "d2");
    assertEquals((p.d2() - mn.d2()) / (2 * h), d.d3(), 1e-5 * Math.max(1, Math.abs(d.d3())), "d3");
  }

  /** Likelihood hyperparameters: names, log values and the round trip through withLogHyperparameters. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("caseStream")
  void hyperparametersRoundTrip(Case c) {
    double[] t = c.lik().logHyperparameters();
    assertEquals(c.lik().hyperparameterNames().size(), t.length);
    Likelihood same = c.lik().withLogHyperparameters(t);
    assertArrayEquals(t, same.logHyperparameters(), 0.0);
    assertEquals(
        c.lik().logDensity(c.ys()[0], 0.3).value(),
        same.logDensity(c.ys()[0], 0.3).value(),
        1e-15);
    assertThrows(
        IllegalArgumentException.class,
        () -> c.lik().withLogHyperparameters(new double[t.length + 1]));
  }

  Stream<Case> caseStream() {
    return cases().stream();
  }
}
