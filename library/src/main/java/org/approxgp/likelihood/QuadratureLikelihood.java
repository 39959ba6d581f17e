package org.approxgp.likelihood;

import java.util.function.DoubleUnaryOperator;
import org.approxgp.special.Quadrature;

/**
 * Everything a {@link Likelihood} must answer, computed by numerical integration from
 * {@link #logDensity(double, double)} alone (the GPflow pattern: a quadrature fallback that the
 * analytic overrides are tested against).
 *
 * <p>Tilted integrals ∫ h(f) N(f | m, v) p(y | f) df are done by adaptive quadrature on (−∞, f₀] and
 * [f₀, ∞) of exp(ℓ(f) − ℓ(f₀)), where ℓ is the log integrand and f₀ its numerically located mode, so
 * nothing under- or overflows; the variational expectation uses Gauss–Hermite.
 */
public abstract class QuadratureLikelihood implements Likelihood {
  /** Relative tolerance asked of the adaptive quadrature. */
  static final double REL_TOL = 1e-13;
  private static final double LOG_2PI = Math.log(2 * Math.PI);

  @Override
  public TiltedMoments tilted(double y, double m, double v) {
    return tiltedByQuadrature(this, y, m, v);
  }

  @Override
  public double tiltedCdf(double y, double m, double v, double x) {
    return tiltedCdfByQuadrature(this, y, m, v, x);
  }

  @Override
  public VariationalExpectation variationalExpectation(double y, double m, double v) {
    return variationalExpectationByQuadrature(this, y, m, v);
  }

  /** log N(f | m, v) + log p(y | f). */
  private static DoubleUnaryOperator logIntegrand(Likelihood lik, double y, double m, double v) {
    return f -> -0.5 * (LOG_2PI + Math.log(v)) - (f - m) * (f - m) / (2 * v) + lik.logDensity(y, f).value();
  }

  /** A point near the maximum of ℓ, found on a grid over m ± 12√v and refined by golden section. */
  static double mode(DoubleUnaryOperator ell, double m, double v) {
    double s = Math.sqrt(v);
    int grid = 241;
    double best = m;
    double bestVal = Double.NEGATIVE_INFINITY;
    for (int k = 0; k < grid; k++) {
      double f = m + s * (-12 + 24.0 * k / (grid - 1));
      double val = ell.applyAsDouble(f);
      if (val > bestVal) {
        bestVal = val;
        best = f;
      }
    }
    double h = 24.0 * s / (grid - 1);
    double a = best - h;
    double b = best + h;
    final double g = (Math.sqrt(5) - 1) / 2;
    for (int it = 0; it < 80 && b - a > 1e-12 * (1 + Math.abs(best)); it++) {
      double c = b - g * (b - a);
      double d = a + g * (b - a);
      if (ell.applyAsDouble(c) > ell.applyAsDouble(d)) {
        b = d;
      } else {
        a = c;
      }
    }
    return 0.5 * (a + b);
  }

  private static double integrate(DoubleUnaryOperator f, double a, double b) {
    Quadrature.Result r = Quadrature.integrate(f, a, b, 0.0, REL_TOL);
    return r.value();
  }

  /** Tilted log Z, mean and variance by adaptive quadrature. */
  public static TiltedMoments tiltedByQuadrature(Likelihood lik, double y, double m, double v) {
    DoubleUnaryOperator ell = logIntegrand(lik, y, m, v);
    double f0 = mode(ell, m, v);
    double l0 = ell.applyAsDouble(f0);
    DoubleUnaryOperator g = f -> Math.exp(ell.applyAsDouble(f) - l0);
    double z = integrate(g, Double.NEGATIVE_INFINITY, f0) + integrate(g, f0, Double.POSITIVE_INFINITY);
    // moments about f0, then shifted: E[f] = f0 + E[f − f0], Var = E[(f − f0)²] − E[f − f0]²
    DoubleUnaryOperator g1 = f -> (f - f0) * g.applyAsDouble(f);
    DoubleUnaryOperator g2 = f -> (f - f0) * (f - f0) * g.applyAsDouble(f);
    double e1 = (integrate(g1, Double.NEGATIVE_INFINITY, f0) + integrate(g1, f0, Double.POSITIVE_INFINITY)) / z;
    double e2 = (integrate(g2, Double.NEGATIVE_INFINITY, f0) + integrate(g2, f0, Double.POSITIVE_INFINITY)) / z;
    return new TiltedMoments(l0 + Math.log(z), f0 + e1, e2 - e1 * e1);
  }

  /** Tilted CDF F(x) by adaptive quadrature; the smaller tail is integrated directly. */
  public static double tiltedCdfByQuadrature(Likelihood lik, double y, double m, double v, double x) {
    if (x == Double.NEGATIVE_INFINITY) {
      return 0;
    }
    if (x == Double.POSITIVE_INFINITY) {
      return 1;
    }
    DoubleUnaryOperator ell = logIntegrand(lik, y, m, v);
    double f0 = mode(ell, m, v);
    double l0 = ell.applyAsDouble(f0);
    DoubleUnaryOperator g = f -> Math.exp(ell.applyAsDouble(f) - l0);
    double left = integrate(g, Double.NEGATIVE_INFINITY, f0);
    double right = integrate(g, f0, Double.POSITIVE_INFINITY);
    double z = left + right;
    if (x <= f0) {
      return Math.min(1, integrate(g, Double.NEGATIVE_INFINITY, x) / z);
    }
    return Math.max(0, 1 - integrate(g, x, Double.POSITIVE_INFINITY) / z);
  }

  /**
   * E[log p], ∂/∂m and ∂/∂v by adaptive quadrature in f (split at m, tolerance 1e-13) with Bonnet's
   * and Price's theorems (∂E/∂m = E[∂ log p/∂f], ∂E/∂v = ½ E[∂² log p/∂f²]).
   */
  public static VariationalExpectation variationalExpectationByQuadrature(Likelihood lik, double y, double m, double v) {
    double e = normalExpectation(m, v, f -> lik.logDensity(y, f).value());
    double dm = normalExpectation(m, v, f -> lik.logDensity(y, f).d1());
    double dv = 0.5 * normalExpectation(m, v, f -> lik.logDensity(y, f).d2());
    return new VariationalExpectation(e, dm, dv);
  }

  private static double normalExpectation(double m, double v, DoubleUnaryOperator h) {
    DoubleUnaryOperator g = f -> Math.exp(-0.5 * (LOG_2PI + Math.log(v)) - (f - m) * (f - m) / (2 * v)) * h.applyAsDouble(f);
    return integrate(g, Double.NEGATIVE_INFINITY, m) + integrate(g, m, Double.POSITIVE_INFINITY);
  }
}
