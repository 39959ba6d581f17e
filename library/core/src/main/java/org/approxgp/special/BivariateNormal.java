package org.approxgp.special;

/**
 * The standard bivariate normal distribution function
 * Φ₂(x, y; ρ) = P(X ≤ x, Y ≤ y) for standard normal X, Y with correlation ρ ∈ [−1, 1].
 *
 * <p>Formula: D. B. Owen (1956), "Tables for computing bivariate normal probabilities",
 * Ann. Math. Statist. 27, 1075–1090, eq. (3.1) (also Patefield &amp; Tandy 2000, eq. (1.2)):
 * <pre>
 *   Φ₂(x, y; ρ) = ½Φ(x) + ½Φ(y) − T(x, a_x) − T(y, a_y) − β,
 *   a_x = (y − ρx)/(x√(1 − ρ²)),  a_y = (x − ρy)/(y√(1 − ρ²)),
 *   β = 0 if xy &gt; 0 or (xy = 0 and x + y ≥ 0), ½ otherwise,
 * </pre>
 * with T from {@link OwensT}; when x = 0 (resp. y = 0), a_x = ±∞ with the sign of y − ρx.
 * Special cases: Φ₂(0, 0; ρ) = ¼ + asin(ρ)/(2π) (Sheppard 1898); ρ = 1: Φ(min(x, y));
 * ρ = −1: max(0, Φ(x) − Φ(−y)).
 */
public final class BivariateNormal {

  private static final double ONE_DIV_TWO_PI = 0.15915494309189535;

  private BivariateNormal() {}

  /**
   * Bivariate standard normal CDF; absolute error about 2e-16 (tested ≤ 3e-14). The error is absolute:
   * values far below 1e-16 (e.g. both limits negative and ρ near −1) are not relatively accurate.
   *
   * @param x   upper limit for the first variable (±∞ allowed)
   * @param y   upper limit for the second variable (±∞ allowed)
   * @param rho correlation in [−1, 1]
   * @return P(X ≤ x, Y ≤ y)
   * @throws IllegalArgumentException if |rho| &gt; 1
   */
  public static double cdf(double x, double y, double rho) {
    if (Double.isNaN(x) || Double.isNaN(y) || Double.isNaN(rho)) {
      return Double.NaN;
    }
    if (rho < -1.0 || rho > 1.0) {
      throw new IllegalArgumentException("rho must be in [-1, 1]: " + rho);
    }
    if (x == Double.NEGATIVE_INFINITY || y == Double.NEGATIVE_INFINITY) {
      return 0.0;
    }
    if (x == Double.POSITIVE_INFINITY) {
      return Normal.cdf(y);
    }
    if (y == Double.POSITIVE_INFINITY) {
      return Normal.cdf(x);
    }
    if (rho == 1.0) {
      // X = Y: P(X ≤ min(x, y))
      return Normal.cdf(Math.min(x, y));
    }
    if (rho == -1.0) {
      // Y = −X: P(−y ≤ X ≤ x)
      return x > -y ? Normal.cdf(x) - Normal.cdf(-y) : 0.0;
    }
    if (x == 0.0 && y == 0.0) {
      // Sheppard: ¼ + asin(ρ)/(2π)
      return 0.25 + Math.asin(rho) * ONE_DIV_TWO_PI;
    }
    // √(1 − ρ²) = √((1 − ρ)(1 + ρ)) avoids cancellation near |ρ| = 1
    final double s = Math.sqrt((1.0 - rho) * (1.0 + rho));
    // y − ρx and x − ρy with a single rounding (fma): for ρ → 1 and x ≈ y they are tiny differences
    // of nearly equal numbers, and the separate rounding of ρx would cost up to 1e-11 in Φ₂
    final double dy = Math.fma(-rho, x, y);
    final double dx = Math.fma(-rho, y, x);
    final double ax = x == 0.0 ? Math.copySign(Double.POSITIVE_INFINITY, dy) : dy / (x * s);
    final double ay = y == 0.0 ? Math.copySign(Double.POSITIVE_INFINITY, dx) : dx / (y * s);
    final double xy = x * y;
    final double beta = (xy > 0.0 || (xy == 0.0 && x + y >= 0.0)) ? 0.0 : 0.5;
    // Owen (1956) eq. (3.1)
    return 0.5 * Normal.cdf(x)
        + 0.5 * Normal.cdf(y)
        - OwensT.value(x, ax)
        - OwensT.value(y, ay)
        - beta;
  }
}
