package org.approxgp.sparse;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * The stochastic-optimisation part shared by the iterative sparse models' options: how many iterations, how much of
 * the data each one draws, the step schedule, the seed of every draw, and the rule that ends the fit before the cap.
 * What a batch counts is the model's: rows for DTC++, partitions (blocks) for PIC++.
 *
 * @param iterations iteration cap (≥ 0)
 * @param batch rows or partitions drawn per iteration (≥ 1; capped at what the data has), or empty for full batch
 * @param step the step schedule (for DTC++ and PIC++ the natural-gradient step ρ_t of q(u); for VSSGP and sVBSSGP
 *     the one the model's options document)
 * @param seed seeds every random draw (same seed, same fit)
 * @param stopping the rule on the smoothed bound estimate that ends a stochastic fit before the cap, or empty to run
 *     every iteration up to the cap
 */
public record StochasticSchedule(
    int iterations,
    OptionalInt batch,
    StepSchedule step,
    long seed,
    Optional<BoundMonitor.Rule> stopping) {

  public StochasticSchedule {
    if (iterations < 0) {
      throw new IllegalArgumentException("need iterations >= 0, got " + iterations);
    }
    if (batch == null || step == null || stopping == null) {
      throw new IllegalArgumentException("batch, step and stopping must not be null (use empty)");
    }
    if (batch.isPresent() && batch.getAsInt() < 1) {
      throw new IllegalArgumentException("need a batch >= 1, got " + batch.getAsInt());
    }
  }

  /** {@code batch} rows or partitions per iteration, run up to the cap (no early stop). */
  public static StochasticSchedule of(int batch, int iterations, StepSchedule step, long seed) {
    return new StochasticSchedule(iterations, OptionalInt.of(batch), step, seed, Optional.empty());
  }

  /** Every row or partition in each iteration, run up to the cap (no early stop). */
  public static StochasticSchedule fullBatch(int iterations, StepSchedule step, long seed) {
    return new StochasticSchedule(iterations, OptionalInt.empty(), step, seed, Optional.empty());
  }

  /** The batch size for data with {@code available} rows or partitions: the batch capped at it, or all of it. */
  public int batchFor(int available) {
    return Math.min(batch.orElse(available), available);
  }

  /** Whether each iteration draws all {@code available} rows or partitions. */
  public boolean fullBatchFor(int available) {
    return batch.isEmpty() || batch.getAsInt() >= available;
  }

  public StochasticSchedule withIterations(int i) {
    return new StochasticSchedule(i, batch, step, seed, stopping);
  }

  public StochasticSchedule withBatch(int b) {
    return new StochasticSchedule(iterations, OptionalInt.of(b), step, seed, stopping);
  }

  public StochasticSchedule withFullBatch() {
    return new StochasticSchedule(iterations, OptionalInt.empty(), step, seed, stopping);
  }

  public StochasticSchedule withStep(StepSchedule s) {
    return new StochasticSchedule(iterations, batch, s, seed, stopping);
  }

  public StochasticSchedule withSeed(long s) {
    return new StochasticSchedule(iterations, batch, step, s, stopping);
  }

  public StochasticSchedule withStopping(BoundMonitor.Rule rule) {
    return new StochasticSchedule(iterations, batch, step, seed, Optional.of(rule));
  }

  public StochasticSchedule withoutStopping() {
    return new StochasticSchedule(iterations, batch, step, seed, Optional.empty());
  }
}
