package org.approxgp.likelihood;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.approxgp.special.Normal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The interface's quadrature defaults on a likelihood whose log density jumps: the noisy step
 * p(y | f) = ε + (1 − 2ε) H(y f), y ∈ {−1, +1}, which declares {@code breakpoints(y) = {0}} and nothing
 * but its log density (test-only; a production class comes later). Its tilted moments have a closed form
 * (a two-component mixture of the cavity and the cavity truncated to y f &gt; 0):
 * <pre>
 *   Z = ε + (1 − 2ε) Φ(z),   z = y m/√v,   λ = N(z)/Φ(z),
 *   truncated part: mean μ₁ = m + y √v λ, variance σ₁² = v (1 − λ (λ + z))   (Johnson &amp; Kotz)
 *   w₀ = ε/Z, w₁ = (1 − 2ε)Φ(z)/Z:  mean = w₀ m + w₁ μ₁,  variance = w₀ v + w₁ σ₁² + w₀ w₁ (μ₁ − m)²
 * </pre>
 * and p^u = ε^u + ((1 − ε)^u − ε^u) H(y f) is again a noisy step, so the power-tilted moments follow.
 */
class StepLikelihoodQuadratureTest {

  /** The noisy step with ε = exp(θ), one log-hyperparameter. */
  record NoisyStep(double eps) implements Likelihood {
    @Override
    public String name() {
      return "noisy-step";
    }

    @Override
    public void validate(double y) {
      if (y != 1 && y != -1) {
        throw new IllegalArgumentException("labels are ±1, got " + y);
      }
    }

    @Override
    public LogDensity logDensity(double y, double f) {
      return new LogDensity(Math.log(y * f > 0 ? 1 - eps : eps), 0, 0, 0);
    }

    @Override
    public double[] breakpoints(double y) {
      return new double[] {0};
    }

    @Override
    public List<String> hyperparameterNames() {
      return List.of("epsilon");
    }

    @Override
    public double[] logHyperparameters() {
      return new double[] {Math.log(eps)};
    }

    @Override
    public Likelihood withLogHyperparameters(double[] t) {
      return new NoisyStep(Math.exp(t[0]));
    }
  }

  /** Closed-form moments of N(f | m, v)(a + (b − a) H(y f)), a = low level, b = high level. */
  static TiltedMoments closedForm(double low, double high, double y, double m, double v) {
    double s = Math.sqrt(v);
    double z = y * m / s;
    double phi = Normal.cdf(z);
    double lam = Normal.ratio(z);
    double z0 = low;
    double z1 = (high - low) * phi;
    double zz = z0 + z1;
    double mu1 = m + y * s * lam;
    double var1 = v * (1 - lam * (lam + z));
    double w0 = z0 / zz;
    double w1 = z1 / zz;
    return new TiltedMoments(
        Math.log(zz), w0 * m + w1 * mu1, w0 * v + w1 * var1 + w0 * w1 * (mu1 - m) * (mu1 - m));
  }

  static Stream<Arguments> points() {
    List<Arguments> out = new ArrayList<>();
    for (double eps : new double[] {0.01, 0.2}) {
      for (double y : new double[] {-1, 1}) {
        for (double m : new double[] {-3, -0.4, 0, 0.7, 2.5}) {
          for (double v : new double[] {0.1, 1, 6}) {
            out.add(Arguments.of(eps, y, m, v));
          }
        }
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "eps={0} y={1} m={2} v={3}")
  @MethodSource("points")
  void defaultTiltedMomentsEqualClosedForm(double eps, double y, double m, double v) {
    TiltedMoments q = new NoisyStep(eps).tilted(y, m, v);
    TiltedMoments c = closedForm(eps, 1 - eps, y, m, v);
    assertEquals(c.logZ(), q.logZ(), 1e-10, "log Z");
    assertEquals(c.mean(), q.mean(), 1e-10, "mean");
    assertEquals(c.variance(), q.variance(), 1e-10, "variance");
  }

  @ParameterizedTest(name = "eps={0} y={1} m={2} v={3}")
  @MethodSource("points")
  void defaultPowerTiltedMomentsEqualClosedForm(double eps, double y, double m, double v) {
    for (double u : new double[] {0.5, 1, 2}) {
      TiltedMoments q = new NoisyStep(eps).powerTilted(y, m, v, u);
      TiltedMoments c = closedForm(Math.pow(eps, u), Math.pow(1 - eps, u), y, m, v);
      assertEquals(c.logZ(), q.logZ(), 1e-10, "log Z, u=" + u);
      assertEquals(c.mean(), q.mean(), 1e-10, "mean, u=" + u);
      assertEquals(c.variance(), q.variance(), 1e-10, "variance, u=" + u);
    }
  }

  /** F(x) of the mixture: w₀ Φ(a) + (1 − 2ε)/Z · P(f ≤ x, y f &gt; 0) under the cavity. */
  @ParameterizedTest(name = "eps={0} y={1} m={2} v={3}")
  @MethodSource("points")
  void defaultTiltedCdfEqualsClosedForm(double eps, double y, double m, double v) {
    double s = Math.sqrt(v);
    double zz = eps + (1 - 2 * eps) * Normal.cdf(y * m / s);
    for (double x : new double[] {-2, -0.3, 0, 0.5, 3}) {
      double below = Normal.cdf((x - m) / s);
      double trunc =
          y > 0 ? Math.max(0, below - Normal.cdf(-m / s)) : Math.min(below, Normal.cdf(-m / s));
      double expected = (eps * below + (1 - 2 * eps) * trunc) / zz;
      assertEquals(expected, new NoisyStep(eps).tiltedCdf(y, m, v, x), 1e-10, "F(" + x + ")");
    }
  }

  /** E[log p] = log ε + (log(1 − ε) − log ε) Φ(z), z = y m/√v; ∂/∂m and ∂/∂v by the chain rule. */
  @ParameterizedTest(name = "eps={0} y={1} m={2} v={3}")
  @MethodSource("points")
  void defaultVariationalExpectationEqualsClosedForm(double eps, double y, double m, double v) {
    double s = Math.sqrt(v);
    double z = y * m / s;
    double d = Math.log(1 - eps) - Math.log(eps);
    VariationalExpectation q = new NoisyStep(eps).variationalExpectation(y, m, v);
    assertEquals(Math.log(eps) + d * Normal.cdf(z), q.value(), 1e-10, "value");
    assertEquals(d * Normal.pdf(z) * y / s, q.dMean(), 1e-9, "dMean");
    assertEquals(d * Normal.pdf(z) * (-0.5 * z / v), q.dVariance(), 1e-9, "dVariance");
  }

  /** The default predictive: log density = log Z; moments need E[y | f], which the step does not define. */
  @Test
  void defaultPredictiveUsesLogPredictiveAndRefusesUndefinedMoments() {
    Predictive p = new NoisyStep(0.1).predictive(0.4, 1.5);
    assertEquals(closedForm(0.1, 0.9, -1, 0.4, 1.5).logZ(), p.logDensity(-1), 1e-10);
    assertTrue(Double.isNaN(p.mode()));
    assertThrows(UnsupportedOperationException.class, p::mean);
  }

  @Test
  void hyperparametersRoundTrip() {
    Likelihood l = new NoisyStep(0.1).withLogHyperparameters(new double[] {Math.log(0.05)});
    assertArrayEquals(new double[] {Math.log(0.05)}, l.logHyperparameters(), 1e-15);
    assertTrue(l.logDensity(1, -1).value() < Math.log(0.051));
  }
}
