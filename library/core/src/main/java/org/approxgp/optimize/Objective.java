package org.approxgp.optimize;

/** A differentiable function to minimise. */
@FunctionalInterface
public interface Objective {

  /**
   * Returns f(x) and writes ∇f(x) into {@code gradient} (Modified). May return
   * {@code Double.POSITIVE_INFINITY} for a point where f cannot be evaluated; the line search then
   * backs off.
   */
  double evaluate(double[] x, double[] gradient);
}
