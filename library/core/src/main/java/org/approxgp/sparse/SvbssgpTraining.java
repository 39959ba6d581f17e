package org.approxgp.sparse;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;

/**
 * A stochastic run (mutable, single-threaded): q(α) and the hyperparameters, stepped by {@link #step()} (class
 * comment, "Steps"). The paper's parameter vector η = [b (D), the lower triangle of M row by row with log M_ii on
 * the diagonal (D(D+1)/2), log σ_n², log σ_s², log ℓ (d)], D = m·d + 2m, in the coordinates α = vec(ε, s),
 * is available as a view ({@link #parameters()}) with its eq. 22 gradient ({@link #gradientEstimate}).
 */
public final class SvbssgpTraining {
  private final SvbssgpTrainer impl;

  SvbssgpTraining(SvbssgpTrainer impl) {
    this.impl = impl;
  }

  /** Iterations done so far. */
  public int iteration() {
    return impl.iteration;
  }

  /** Number of partitions p. */
  public int partitions() {
    return impl.parts.count();
  }

  /**
   * One natural-gradient step of q(α) and one Adam step of the hyperparameters (class comment, "Steps").
   *
   * @return the step's unbiased estimate of the data and prior terms of L plus the exact entropy of q, at the
   *     state before the step
   * @throws IllegalStateException if the bound estimate or the hyperparameters' gradient is not finite
   */
  public double step() {
    return impl.step();
  }

  /** Whether the smoothed bound has converged ({@link BoundMonitor#converged()}). */
  public boolean converged() {
    return impl.stopped();
  }

  /** Whether the smoothed bound keeps falling ({@link BoundMonitor#diverging()}). */
  public boolean diverging() {
    return impl.monitor.diverging();
  }

  /** The bound estimates of every step so far. */
  public double[] boundTrace() {
    return impl.monitor.trace();
  }

  /** The current q(α) and hyperparameters as an immutable model. */
  public Svbssgp current() {
    BoundMonitor.StopReason reason = impl.stopped()
        ? BoundMonitor.StopReason.CONVERGED
        : impl.iteration >= impl.options.schedule().iterations()
            ? BoundMonitor.StopReason.ITERATION_CAP
            : BoundMonitor.StopReason.NOT_STOPPED;
    return new Svbssgp(impl, reason);
  }

  /** A copy of η (layout in the class comment); for tests and checkpoints. */
  public double[] parameters() {
    return impl.eta().clone();
  }

  /** Replaces the state by η (same layout); Adam's moments and the iteration count are reset. */
  void setParameters(double[] values) {
    impl.setEta(values);
  }

  /**
   * One stochastic gradient of L with respect to η (eq. 22) at the current state, its draws from a generator
   * seeded by {@code seed} (not the run's own, so the run is not changed); for comparing strategies and tests.
   *
   * @param out receives the gradient (length {@code parameters().length})
   * @return the matching estimate of L
   */
  public double gradientEstimate(long seed, double[] out) {
    return impl.stochasticGradient(
        RandomSource.XO_RO_SHI_RO_128_PP.create(new long[] {seed, 0x96adL}), out);
  }

  /** The eq. 22 gradient with respect to η from {@code random}'s draws (tests). */
  double stochasticGradient(UniformRandomProvider random, double[] out) {
    return impl.stochasticGradient(random, out);
  }
}
