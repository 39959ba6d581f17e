package org.approxgp.special;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.commons.numbers.gamma.Trigamma;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link LogConcaveQuadrature} against closed forms: a Gaussian (any centre and width, the mode found from far
 * away) and the log-gamma density ℓ(x) = a x − eˣ, ∫ e^ℓ = Γ(a), mean ψ(a), variance ψ'(a) — skewed, with one
 * side decaying only like e^{a x}, the other double-exponentially (for a = 0.05 its mass spreads over ~60
 * units on the left while its curvature at the mode is 1/a⁻¹ = a).
 */
class LogConcaveQuadratureTest {

  @ParameterizedTest(name = "mu={0} s={1} start={2}")
  @CsvSource({"0, 1, 0", "3.5, 1e-6, -40", "-1e6, 1e3, 7", "1e6, 1e-4, 1e6", "12, 2e4, -3e5"})
  void gaussian(double mu, double s, double start) {
    LogConcaveQuadrature.LogConcave f = new LogConcaveQuadrature.LogConcave() {
      @Override
      public double value(double x) {
        return -0.5 * (x - mu) * (x - mu) / (s * s);
      }

      @Override
      public double slope(double x) {
        return -(x - mu) / (s * s);
      }

      @Override
      public double curvature(double x) {
        return -1 / (s * s);
      }

      @Override
      public double increment(double x, double dx) {
        return -dx * ((x - mu) + 0.5 * dx) / (s * s);
      }
    };
    LogConcaveQuadrature.Result r = LogConcaveQuadrature.integrate(f, start, new double[0], 1e-13);
    assertEquals(
        0.5 * Math.log(2 * Math.PI) + Math.log(s),
        r.logIntegral(),
        1e-13 * (1 + Math.abs(Math.log(s))));
    assertEquals(mu, r.mean(), 1e-13 * s + 4 * Math.ulp(mu));
    assertEquals(s * s, r.variance(), 1e-12 * s * s);
  }

  @ParameterizedTest(name = "a={0}")
  @CsvSource({"0.05", "0.5", "1", "3", "50", "1e4"})
  void logGammaDensity(double a) {
    LogConcaveQuadrature.LogConcave f = new LogConcaveQuadrature.LogConcave() {
      @Override
      public double value(double x) {
        return a * x - Math.exp(x);
      }

      @Override
      public double slope(double x) {
        return a - Math.exp(x);
      }

      @Override
      public double curvature(double x) {
        return -Math.exp(x);
      }

      @Override
      public double increment(double x, double dx) {
        return a * dx - Math.exp(x) * Math.expm1(dx);
      }
    };
    LogConcaveQuadrature.Result r = LogConcaveQuadrature.integrate(f, 0, new double[0], 1e-13);
    assertEquals(Math.log(a), r.mode(), 1e-14 * (1 + Math.abs(Math.log(a))), "mode");
    assertEquals(
        Gammas.logGamma(a),
        r.logIntegral(),
        1e-12 * Math.max(1, Math.abs(Gammas.logGamma(a))),
        "log Γ");
    assertEquals(
        Gammas.digamma(a), r.mean(), 1e-12 * Math.max(1, Math.abs(Gammas.digamma(a))), "ψ");
    assertEquals(Trigamma.value(a), r.variance(), 1e-11 * Trigamma.value(a), "ψ'");
  }
}
