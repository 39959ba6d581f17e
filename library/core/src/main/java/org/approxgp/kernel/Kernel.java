package org.approxgp.kernel;

import java.util.List;
import org.approxgp.linalg.Matrix;

/**
 * A covariance function k(x, x') with hyperparameters θ held as logarithms. Immutable: a new θ gives
 * a new kernel via {@link #withLogHyperparameters(double[])}.
 */
public interface Kernel {

  /** θ (a copy): log length-scale(s) first, then log signal variance. */
  double[] logHyperparameters();

  /** Names of the entries of θ, e.g. {@code log_lengthscale_3}, {@code log_signal_variance}. */
  List<String> hyperparameterNames();

  /** The same kernel family at θ. */
  Kernel withLogHyperparameters(double[] theta);

  /** K with K_ij = k(x_i, x_j) (n × n, symmetric). */
  Matrix matrix(double[][] x);

  /** K with K_ij = k(a_i, b_j) (na × nb). */
  Matrix cross(double[][] a, double[][] b);

  /** k(x_i, x_i) for each row. */
  double[] diagonal(double[][] x);

  /** ∂K/∂θ_j as an n × n matrix. */
  Matrix gradient(double[][] x, int j);

  /**
   * g_j = Σ_ab W_ab ∂K_ab/∂θ_j for every j, without forming the derivative matrices; W symmetric
   * n × n. This is what evidence gradients need: ∂/∂θ_j of ½ tr(W K) type terms.
   */
  double[] traceGradient(double[][] x, Matrix w);

  /**
   * {@link #traceGradient(double[][], Matrix)} when the caller already holds K = {@link #matrix}(x) at the
   * same θ ({@code k}, not modified): a kernel whose derivatives are K times a function of the inputs can
   * then skip re-evaluating K. The default ignores {@code k}.
   */
  default double[] traceGradient(double[][] x, Matrix w, Matrix k) {
    return traceGradient(x, w);
  }

  /**
   * g_j = Σ_ab W_ab ∂k(a_a, b_b)/∂θ_j for every j, W of any shape na × nb (not modified): the cross-covariance terms
   * of an inducing-point evidence gradient (a = Z, b = X), without forming n × n matrices.
   */
  double[] crossTraceGradient(double[][] a, double[][] b, Matrix w);

  /** g_j = Σ_a w_a ∂k(x_a, x_a)/∂θ_j for every j (w not modified): the diagonal terms of such a gradient. */
  double[] diagonalTraceGradient(double[][] x, double[] w);

  /**
   * G_a = Σ_b W_ab ∂k(a_a, b_b)/∂a_a for every row a_a (na × d; W na × nb, not modified): the derivative of
   * Σ_ab W_ab k(a_a, b_b) in the first inputs, for learning inducing inputs.
   */
  double[][] crossInputGradient(double[][] a, double[][] b, Matrix w);

  /** Number of hyperparameters (length of θ). */
  default int size() {
    return logHyperparameters().length;
  }

  /** A short name for reports ("se-iso", "se-ard", "linear"). */
  String name();
}
