package org.approxgp.sparse;

/**
 * Called after every iteration of an iterative sparse fit (SSGP's L-BFGS, VSSGP/sVBSSGP/DTC/PIC's
 * stochastic steps), for progress bars and per-iteration traces (the paper's RMSE-vs-iteration figures).
 */
@FunctionalInterface
public interface IterationListener {

  /** A listener that does nothing. */
  IterationListener NONE = (iteration, objective, seconds) -> {};

  /**
   * @param iteration 1-based iteration number
   * @param objective the method's objective after the step (log marginal likelihood, or a stochastic
   *     estimate of the variational lower bound), NaN if the method does not compute it
   * @param seconds wall-clock seconds since the fit started
   */
  void onIteration(int iteration, double objective, double seconds);
}
