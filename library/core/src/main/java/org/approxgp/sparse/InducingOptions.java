package org.approxgp.sparse;

/**
 * Options of a fit with inducing points and a stochastic natural-gradient q(u): DTC++ ({@link Dtc}) and PIC++
 * ({@link Pic}).
 *
 * @param schedule iteration cap, rows (DTC++) or partitions (PIC++) per iteration, capped at what there is (full
 *     batch with learned hyperparameters: the full-batch L-BFGS of the class comments), the natural-gradient step
 *     ρ_t of q(u), the seed of the sampling and the stopping rule on the smoothed bound estimate
 * @param hyperStep Adam's learning rate α_t on the log-hyperparameters at iteration t (a decaying schedule makes
 *     the stochastic fit settle; unused when not learning or in full batch)
 * @param learnHyperparameters whether θ = (log ℓ, log σ_f², log σ²) is learned (false: kernel and noise stay as
 *     given, as in the authors' PIC++ code)
 */
public record InducingOptions(
    StochasticSchedule schedule, StepSchedule hyperStep, boolean learnHyperparameters) {

  /**
   * The stopping rule of the stochastic inducing-point fits (DTC++, PIC++) and of VSSGP on minibatches: every
   * stochastic fit's, {@link BoundMonitor.Rule#DEFAULT} (its tolerance is per training row, so the same on any n).
   */
  public static final BoundMonitor.Rule DEFAULT_STOPPING = BoundMonitor.Rule.DEFAULT;

  public InducingOptions {
    if (schedule == null || hyperStep == null) {
      throw new IllegalArgumentException("schedule and hyperStep are required");
    }
  }

  /**
   * Defaults: {@code batch} rows (DTC++) or partitions (PIC++) per iteration, ρ_t = 0.5/(1 + 0.05 (t − 1))^0.6 (κ in
   * the Robbins–Monro range), Adam's rate α_t = 0.01/(1 + 0.01 (t − 1))^0.6 (decaying as ρ_t, so the
   * hyperparameters settle instead of hovering at the step size's noise level), hyperparameters learned, and a
   * stochastic fit stops when its smoothed bound has converged ({@link #DEFAULT_STOPPING}).
   */
  public static InducingOptions defaults(int batch, int iterations, long seed) {
    return new InducingOptions(
        StochasticSchedule.of(batch, iterations, new StepSchedule(0.5, 0.05, 0.6), seed)
            .withStopping(DEFAULT_STOPPING),
        new StepSchedule(0.01, 0.01, 0.6),
        true);
  }

  public InducingOptions withSchedule(StochasticSchedule s) {
    return new InducingOptions(s, hyperStep, learnHyperparameters);
  }

  public InducingOptions withHyperStep(StepSchedule h) {
    return new InducingOptions(schedule, h, learnHyperparameters);
  }

  public InducingOptions withLearnHyperparameters(boolean learn) {
    return new InducingOptions(schedule, hyperStep, learn);
  }
}
