package org.approxgp.sparse;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.approxgp.linalg.NotPositiveDefiniteException;
import org.approxgp.optimize.Lbfgs;

/**
 * A full-batch fit of log-hyperparameters θ by L-BFGS on a collapsed bound L*(θ) = max_q L(θ, q), kept as the list
 * of its iterates so that a stepping trainer can replay them one per {@code step()} (the inducing-point models
 * {@link Dtc} and {@link Pic}: q(u) optimal at each θ, the envelope theorem giving ∇L* = ∂L/∂θ at that q).
 * Relative-decrease tolerance 1e-9, gradient tolerance 1e-6 ({@link Lbfgs}), memory 10. Where the bound cannot be
 * evaluated (a covariance not numerically positive definite at a trial θ) the objective is +∞ and the line search
 * backs off.
 *
 * <p><b>The box.</b> Every log-hyperparameter stays in [−{@link #LOG_LIMIT}, {@link #LOG_LIMIT}], where its
 * exponential is a finite double. This is no prior: an input the bound finds irrelevant raises L* as its
 * length-scale grows, at a gradient that vanishes, and L-BFGS's curvature estimate along it can step log ℓ past
 * log(Double.MAX_VALUE) ≈ 709.8, where ℓ = e^{log ℓ} is infinite and no kernel can be built from the fit (DTC++ on
 * a 2,000-row, 26-input diamonds split did so). At the upper limit ℓ ≈ 1e304: the input is ignored, as at ℓ = ∞.
 * Inside the box L-BFGS steps as it would unbounded, unless a line search would reach the limit.
 */
final class CollapsedLbfgs {

  /** The bound on |log θᵢ| (e^700 ≈ 1.0e304 and e^−700 ≈ 9.9e−305 are normal doubles). */
  static final double LOG_LIMIT = 700;

  /** L*(θ) and, into {@code grad}, ∇L*(θ); may throw {@link NotPositiveDefiniteException}. */
  @FunctionalInterface
  interface Bound {
    double value(double[] theta, double[] grad);
  }

  private final List<double[]> iterates = new ArrayList<>();
  private final List<Double> values = new ArrayList<>();
  private final Lbfgs.Result result;

  /** Runs L-BFGS from θ₀ for at most {@code maxIterations} iterations (≥ 1). */
  CollapsedLbfgs(Bound bound, double[] theta0, int maxIterations) {
    result = Lbfgs.minimize(
        (x, g) -> {
          try {
            double v = bound.value(x, g);
            if (!Double.isFinite(v)) {
              return Double.POSITIVE_INFINITY;
            }
            for (int i = 0; i < g.length; i++) {
              g[i] = -g[i];
            }
            return -v;
          } catch (NotPositiveDefiniteException e) {
            return Double.POSITIVE_INFINITY;
          }
        },
        theta0.clone(),
        box(theta0.length, -LOG_LIMIT),
        box(theta0.length, LOG_LIMIT),
        new Lbfgs.Settings(Math.max(1, maxIterations), 1e-9, 1e-6, 10),
        (it, x, fx) -> {
          iterates.add(x.clone());
          values.add(-fx);
        });
    // the replayed iterates end at the returned point (a run that stops before its first iteration
    // has none)
    if (iterates.isEmpty() || !Arrays.equals(iterates.get(iterates.size() - 1), result.x())) {
      iterates.add(result.x().clone());
      values.add(-result.value());
    }
  }

  private static double[] box(int n, double limit) {
    double[] b = new double[n];
    Arrays.fill(b, limit);
    return b;
  }

  /** Number of iterates to replay (≥ 1). */
  int size() {
    return iterates.size();
  }

  /** θ after iteration t + 1 (a copy). */
  double[] iterate(int t) {
    return iterates.get(t).clone();
  }

  /** L* after iteration t + 1. */
  double value(int t) {
    return values.get(t);
  }

  /** Why L-BFGS stopped, as a {@link BoundMonitor.StopReason}. */
  BoundMonitor.StopReason stopReason() {
    return BoundMonitor.StopReason.of(result);
  }

  /**
   * Whether a DTC++ or PIC++ trainer has stopped after {@code iteration} steps: in full batch, every L-BFGS iterate
   * has been replayed ({@code lbfgs} is null before the first step); stochastically, the smoothed bound has
   * converged under the fit's stopping rule ({@link BoundMonitor#converged()}: never when the monitor only
   * watches, the fit having no rule).
   */
  static boolean stopped(
      boolean fullBatch, CollapsedLbfgs lbfgs, BoundMonitor monitor, int iteration) {
    return fullBatch ? lbfgs != null && iteration >= lbfgs.size() : monitor.converged();
  }

  /**
   * Such a trainer's verdict: when {@link #stopped}, L-BFGS's reason (full batch) or CONVERGED; otherwise
   * ITERATION_CAP at {@code cap} steps, else NOT_STOPPED.
   */
  static BoundMonitor.StopReason verdict(
      boolean fullBatch, CollapsedLbfgs lbfgs, BoundMonitor monitor, int iteration, int cap) {
    if (stopped(fullBatch, lbfgs, monitor, iteration)) {
      return fullBatch ? lbfgs.stopReason() : BoundMonitor.StopReason.CONVERGED;
    }
    return iteration >= cap
        ? BoundMonitor.StopReason.ITERATION_CAP
        : BoundMonitor.StopReason.NOT_STOPPED;
  }
}
