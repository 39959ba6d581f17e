package org.approxgp.likelihood;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.approxgp.special.BivariateNormal;
import org.approxgp.special.Normal;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The quadrature default of {@link Likelihood#powerTilted} (used by probit and the Poisson square link, which
 * have no closed form for u ≠ 1) against a closed form at u = 2 that is independent of it: for the probit,
 * with f = m + √v U and W₁, W₂ independent standard normals,
 * <pre>
 *   Z₂ = ∫ N(f | m, v) Φ(y f)² df = P(W₁ − y√v U ≤ y m, W₂ − y√v U ≤ y m) = Φ₂(a, a; ρ),
 *   a = y m/√(1 + v),  ρ = v/(1 + v),
 *   ∂Z₂/∂a = 2 φ(a) Φ(a √((1 − ρ)/(1 + ρ))),   mean = m + v ∂ log Z₂/∂m = m + y v (∂Z₂/∂a)/(Z₂ √(1 + v)),
 * </pre>
 * and the variance v ∂mean/∂m (= v + v² ∂² log Z/∂m²) by central differences of that closed-form mean
 * (step 1e-4 √v: truncation ~1e-8 relative, hence the 1e-6 budget). The u = 1 case (default vs analytic
 * tilted) and analytic-vs-default for NoisyStep at several u are in {@link LikelihoodContract}. Budgets:
 * the quadrature's 1e-13 relative tolerance and the bivariate normal's ~1e-15, with the contract test's 1e-9.
 */
class PowerTiltedDefaultTest {

  static double closedMean(double y, double m, double v) {
    double s1 = Math.sqrt(1 + v);
    double a = y * m / s1;
    double rho = v / (1 + v);
    double z2 = BivariateNormal.cdf(a, a, rho);
    double dz = 2 * Normal.pdf(a) * Normal.cdf(a * Math.sqrt((1 - rho) / (1 + rho)));
    return m + y * v * dz / (z2 * s1);
  }

  @ParameterizedTest(name = "y={0} m={1} v={2}")
  @CsvSource({"1, 0.3, 0.5", "1, -1.2, 2", "-1, 0.8, 4", "-1, -2.5, 0.2", "1, 2, 10", "1, -3, 1"})
  void probitSquaredEqualsBivariateNormal(double y, double m, double v) {
    TiltedMoments q = Probit.get().powerTilted(y, m, v, 2.0);
    double a = y * m / Math.sqrt(1 + v);
    double logZ = Math.log(BivariateNormal.cdf(a, a, v / (1 + v)));
    assertEquals(logZ, q.logZ(), 1e-9 * Math.max(1, Math.abs(logZ)), "log Z");
    double mean = closedMean(y, m, v);
    assertEquals(mean, q.mean(), 1e-9 * Math.max(Math.sqrt(v), Math.abs(mean)), "mean");
    double h = 1e-4 * Math.sqrt(v);
    double var = v * (closedMean(y, m + h, v) - closedMean(y, m - h, v)) / (2 * h);
    assertEquals(var, q.variance(), 1e-6 * var, "variance");
  }
}
