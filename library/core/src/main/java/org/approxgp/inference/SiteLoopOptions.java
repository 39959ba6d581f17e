package org.approxgp.inference;

import org.approxgp.linalg.JitterPolicy;

/**
 * The loop's settings (everything but the site rule).
 *
 * @param schedule sequential (default) or parallel
 * @param damping δ ∈ (0, 1]: new site = (1 − δ) old + δ proposed, in natural parameters (1 = none)
 * @param tolerance stop when the RMS change of the 2n site parameters over a sweep is below this
 * @param maxSweeps sweep cap; hitting it is reported as non-convergence, not an error
 * @param jitter Cholesky jitter policy for B (reported in the diagnostics)
 * @param gradient whether to compute ∂ log Z / ∂θ
 * @param negativeSites what to do with a negative proposed site precision
 * @param oscillationWindow W &gt; 0: stop early, as diverged, when the stopping rule's value (the RMS
 *     site change of a sweep) has not set a new minimum in the last W sweeps (every one of them is
 *     ≥ the minimum over all earlier sweeps; checked after every sweep from sweep W + 1 on). A
 *     converging run, however slowly, keeps setting new minima; one caught in a cycle or wandering
 *     does not. 0 = off (the run continues to the sweep cap)
 * @param requireEvidence whether an undefined EP-form log evidence at the final posterior (non-finite, or an
 *     improper cavity at some site) is an {@link InferenceException} (true, the default) or is returned as {@link Posterior#logEvidence()} NaN with the
 *     posterior (false; only without {@code gradient}): for callers that use only the posterior, e.g. test errors
 *     at fixed hyperparameters, where kept negative site precisions can leave a cavity improper and the evidence
 *     undefined while the posterior is proper
 */
public record SiteLoopOptions(
    SiteLoop.Schedule schedule,
    double damping,
    double tolerance,
    int maxSweeps,
    JitterPolicy jitter,
    boolean gradient,
    SiteLoop.NegativeSitePrecision negativeSites,
    int oscillationWindow,
    boolean requireEvidence)
    implements java.io.Serializable {
  private static final long serialVersionUID = 1L;

  public SiteLoopOptions {
    if (schedule == null || jitter == null || negativeSites == null) {
      throw new IllegalArgumentException("schedule, jitter and negativeSites must not be null");
    }
    if (!(damping > 0 && damping <= 1)) {
      throw new IllegalArgumentException("damping must be in (0, 1], got " + damping);
    }
    if (!(tolerance > 0)) {
      throw new IllegalArgumentException("tolerance must be positive, got " + tolerance);
    }
    if (maxSweeps < 1) {
      throw new IllegalArgumentException("maxSweeps must be >= 1, got " + maxSweeps);
    }
    if (oscillationWindow < 0) {
      throw new IllegalArgumentException(
          "oscillationWindow must be >= 0, got " + oscillationWindow);
    }
    if (gradient && !requireEvidence) {
      throw new IllegalArgumentException(
          "an optional evidence needs gradient off (the gradient needs it)");
    }
  }

  /** Default {@link #oscillationWindow()}: 50 sweeps. */
  public static final int DEFAULT_OSCILLATION_WINDOW = 50;

  /** The default sweep cap. */
  public static final int DEFAULT_MAX_SWEEPS = 1000;

  /**
   * Sequential, no damping, tolerance 1e-6 (QP paper §6), 1000 sweeps, no jitter, gradient on, clip,
   * oscillation window 50.
   */
  public static SiteLoopOptions defaults() {
    return new SiteLoopOptions(
        SiteLoop.Schedule.SEQUENTIAL,
        1.0,
        1e-6,
        DEFAULT_MAX_SWEEPS,
        JitterPolicy.none(),
        true,
        SiteLoop.NegativeSitePrecision.CLIP,
        DEFAULT_OSCILLATION_WINDOW,
        true);
  }

  public SiteLoopOptions withSchedule(SiteLoop.Schedule s) {
    return new SiteLoopOptions(
        s,
        damping,
        tolerance,
        maxSweeps,
        jitter,
        gradient,
        negativeSites,
        oscillationWindow,
        requireEvidence);
  }

  public SiteLoopOptions withDamping(double d) {
    return new SiteLoopOptions(
        schedule,
        d,
        tolerance,
        maxSweeps,
        jitter,
        gradient,
        negativeSites,
        oscillationWindow,
        requireEvidence);
  }

  public SiteLoopOptions withTolerance(double t) {
    return new SiteLoopOptions(
        schedule,
        damping,
        t,
        maxSweeps,
        jitter,
        gradient,
        negativeSites,
        oscillationWindow,
        requireEvidence);
  }

  public SiteLoopOptions withMaxSweeps(int m) {
    return new SiteLoopOptions(
        schedule,
        damping,
        tolerance,
        m,
        jitter,
        gradient,
        negativeSites,
        oscillationWindow,
        requireEvidence);
  }

  public SiteLoopOptions withJitter(JitterPolicy j) {
    return new SiteLoopOptions(
        schedule,
        damping,
        tolerance,
        maxSweeps,
        j,
        gradient,
        negativeSites,
        oscillationWindow,
        requireEvidence);
  }

  public SiteLoopOptions withGradient(boolean g) {
    return new SiteLoopOptions(
        schedule,
        damping,
        tolerance,
        maxSweeps,
        jitter,
        g,
        negativeSites,
        oscillationWindow,
        requireEvidence);
  }

  public SiteLoopOptions withNegativeSites(SiteLoop.NegativeSitePrecision p) {
    return new SiteLoopOptions(
        schedule,
        damping,
        tolerance,
        maxSweeps,
        jitter,
        gradient,
        p,
        oscillationWindow,
        requireEvidence);
  }

  public SiteLoopOptions withOscillationWindow(int w) {
    return new SiteLoopOptions(
        schedule,
        damping,
        tolerance,
        maxSweeps,
        jitter,
        gradient,
        negativeSites,
        w,
        requireEvidence);
  }

  /** See {@link #requireEvidence()}; false needs the gradient off. */
  public SiteLoopOptions withRequireEvidence(boolean r) {
    return new SiteLoopOptions(
        schedule,
        damping,
        tolerance,
        maxSweeps,
        jitter,
        gradient,
        negativeSites,
        oscillationWindow,
        r);
  }
}
