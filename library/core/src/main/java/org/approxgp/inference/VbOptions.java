package org.approxgp.inference;

import org.approxgp.linalg.JitterPolicy;

/**
 * The settings of {@link Vb}.
 *
 * @param tolerance stop when the RMS distance of the sites to their fixed-point target is below this
 * @param maxIterations cap on accepted + rejected natural-gradient steps; hitting it is reported as
 *     non-convergence, not an error
 * @param initialStep the first natural-gradient step size ρ ∈ (0, 1]
 * @param jitter Cholesky jitter policy for B
 * @param gradient whether to compute ∂ELBO/∂θ
 * @param andersonMemory Anderson acceleration's memory m (0 = plain natural-gradient iteration)
 */
public record VbOptions(
    double tolerance,
    int maxIterations,
    double initialStep,
    JitterPolicy jitter,
    boolean gradient,
    int andersonMemory) {

  public VbOptions {
    if (andersonMemory < 0) {
      throw new IllegalArgumentException("andersonMemory must be >= 0, got " + andersonMemory);
    }
    if (!(tolerance > 0)) {
      throw new IllegalArgumentException("tolerance must be positive, got " + tolerance);
    }
    if (maxIterations < 1) {
      throw new IllegalArgumentException("maxIterations must be >= 1, got " + maxIterations);
    }
    if (!(initialStep > 0 && initialStep <= 1)) {
      throw new IllegalArgumentException("initialStep must be in (0, 1], got " + initialStep);
    }
  }

  /**
   * Tolerance 1e-6 (the EP/QP stopping rule of the QP paper, §6), 2000 iterations, ρ₀ = 1, no jitter,
   * gradient on, Anderson memory 5.
   */
  public static VbOptions defaults() {
    return new VbOptions(1e-6, 2000, 1.0, JitterPolicy.none(), true, 5);
  }

  public VbOptions withTolerance(double t) {
    return new VbOptions(t, maxIterations, initialStep, jitter, gradient, andersonMemory);
  }

  public VbOptions withMaxIterations(int m) {
    return new VbOptions(tolerance, m, initialStep, jitter, gradient, andersonMemory);
  }

  public VbOptions withJitter(JitterPolicy j) {
    return new VbOptions(tolerance, maxIterations, initialStep, j, gradient, andersonMemory);
  }

  /**
   * Anderson acceleration of the site iteration with the last {@code m} iterates (0 = off; 5 is a
   * good value, see {@link Vb}).
   */
  public VbOptions withAndersonMemory(int m) {
    return new VbOptions(tolerance, maxIterations, initialStep, jitter, gradient, m);
  }

  public VbOptions withGradient(boolean g) {
    return new VbOptions(tolerance, maxIterations, initialStep, jitter, g, andersonMemory);
  }
}
