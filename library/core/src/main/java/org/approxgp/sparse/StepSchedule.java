package org.approxgp.sparse;

/**
 * A Robbins–Monro step-size schedule ρ_t = ρ₀ / (1 + τ (t − 1))^κ for iteration t = 1, 2, … (Robbins &amp; Monro
 * 1951; Hoffman et al. 2013 use (τ + t)^−κ with κ ∈ (0.5, 1]). κ = 0 gives a constant step.
 *
 * @param initial ρ₀ ∈ (0, 1]
 * @param tau τ ≥ 0
 * @param kappa κ ≥ 0 (κ ∈ (0.5, 1] for the Robbins–Monro conditions)
 */
public record StepSchedule(double initial, double tau, double kappa) {

  public StepSchedule {
    if (!(initial > 0 && initial <= 1)) {
      throw new IllegalArgumentException("initial step must be in (0, 1], got " + initial);
    }
    if (!(tau >= 0) || !(kappa >= 0) || !Double.isFinite(tau) || !Double.isFinite(kappa)) {
      throw new IllegalArgumentException("need tau >= 0 and kappa >= 0, got " + tau + ", " + kappa);
    }
  }

  /** A constant step ρ. */
  public static StepSchedule constant(double rho) {
    return new StepSchedule(rho, 0, 0);
  }

  /**
   * The form and constants of the DTC++/PIC++ authors' code (RVGP {@code SGPPlus.h}: LZ = 0.1, TAU = 9,
   * LPOW = 0.75, ρ = LZ/(1 + LZ·TAU·t)^LPOW), i.e. 0.1/(1 + 0.9 t')^0.75 with t' = t − 1 counted from 0 here
   * (their first step is 0.1/1.9^0.75 ≈ 0.062, ours 0.1).
   */
  public static StepSchedule authors() {
    return new StepSchedule(0.1, 0.9, 0.75);
  }

  /**
   * ρ_t/ρ₀ for iteration t ≥ 1: the factor by which a first-order method's own step (e.g. Adam's learning rate)
   * is scaled to follow this schedule.
   */
  public double decay(int t) {
    return at(t) / initial;
  }

  /** ρ_t for iteration t ≥ 1. */
  public double at(int t) {
    if (t < 1) {
      throw new IllegalArgumentException("iterations count from 1, got " + t);
    }
    return initial / Math.pow(1 + tau * (t - 1), kappa);
  }
}
