package org.approxgp.inference;

import org.approxgp.linalg.JitterPolicy;

/**
 * The settings of {@link Laplace}.
 *
 * @param tolerance stop when a Newton step increases Ψ by less than this
 * @param maxIterations cap on Newton steps; hitting it is reported as non-convergence
 * @param jitter Cholesky jitter policy for B (reported in the diagnostics)
 * @param gradient whether to compute ∂ log q(y)/∂θ
 */
public record LaplaceOptions(
    double tolerance, int maxIterations, JitterPolicy jitter, boolean gradient) {

  public LaplaceOptions {
    if (!(tolerance > 0)) {
      throw new IllegalArgumentException("tolerance must be positive, got " + tolerance);
    }
    if (maxIterations < 1) {
      throw new IllegalArgumentException("maxIterations must be >= 1, got " + maxIterations);
    }
  }

  /** Tolerance 1e-10 on Ψ, 100 Newton steps, no jitter, gradient on. */
  public static LaplaceOptions defaults() {
    return new LaplaceOptions(1e-10, 100, JitterPolicy.none(), true);
  }

  public LaplaceOptions withTolerance(double t) {
    return new LaplaceOptions(t, maxIterations, jitter, gradient);
  }

  public LaplaceOptions withMaxIterations(int m) {
    return new LaplaceOptions(tolerance, m, jitter, gradient);
  }

  public LaplaceOptions withJitter(JitterPolicy j) {
    return new LaplaceOptions(tolerance, maxIterations, j, gradient);
  }

  public LaplaceOptions withGradient(boolean g) {
    return new LaplaceOptions(tolerance, maxIterations, jitter, g);
  }
}
