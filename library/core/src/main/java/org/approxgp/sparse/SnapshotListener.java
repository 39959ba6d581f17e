package org.approxgp.sparse;

import java.util.function.Supplier;

/**
 * Called after every iteration of a fit that has no stepping trainer (SSGP's L-BFGS, VSSGP's Adam loop) with the
 * model as it stands after that iteration, so that callers can trace test metrics per iteration (the sVBSSGP
 * paper's RMSE-vs-iteration figures, Hoang, Hoang &amp; Low 2017, Fig. 2). The model is built only when the
 * supplier is called (for SSGP that costs one pass over the training data, its posterior statistics), so a caller
 * that traces every k-th iteration pays for those only.
 *
 * @param <M> the model type
 */
@FunctionalInterface
public interface SnapshotListener<M> {

  /**
   * @param iteration 1-based iteration number
   * @param model supplies the model after that iteration (immutable); valid only during this call
   */
  void onIteration(int iteration, Supplier<M> model);
}
