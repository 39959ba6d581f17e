package org.approxgp.sparse;

import java.util.Arrays;
import org.approxgp.optimize.Lbfgs;

/**
 * A stopping rule for stochastic maximisation of a variational bound from its noisy per-iteration estimates, after
 * Stan's ADVI (Kucukelbir et al., JMLR 2017, §3.5: the relative change of the ELBO, with a tolerance of 0.01 and a
 * warning when it diverges). The estimates are averaged over windows of {@code window} iterations (the smoothed
 * bound L̄_k), each with its standard error from the spread within the window. ADVI's ELBO is computed from the
 * full data; here each estimate draws a few partitions, so a window mean carries sampling noise that no relative
 * tolerance below it can see through, and the rule asks whether the gain is distinguishable from that noise: with
 * Δ = L̄_k − L̄_{k−H} the gain over the last H = {@value #HISTORY} windows and se(Δ) = √(se_k² + se_{k−H}²), the run
 * has converged when |Δ| &lt; tolerance · |L̄_k| + 2 se(Δ) at the end of H consecutive windows — the smoothed
 * bound has stopped rising by more than the relative tolerance or by more than its noise (asking it H times in a
 * row, as ADVI looks at a buffer of relative changes, keeps one lucky window from stopping a run that still
 * moves) — and at least {@value #MIN_WINDOWS} windows are done. It
 * is flagged as diverging when Δ &lt; −(tolerance · |L̄_k| + 2 se(Δ)): the smoothed bound fell by more than both.
 *
 * <p>Holds the trace of every estimate (the summary carries it). Mutable, single-threaded.
 */
public final class BoundMonitor {
  /** Windows between the two smoothed values compared. */
  public static final int HISTORY = 3;
  /** Windows done before the run may be declared converged. */
  public static final int MIN_WINDOWS = 5;

  /** Why a run stopped. */
  public enum StopReason {
    /** The smoothed bound's gain over the last windows fell below the tolerance and its noise. */
    CONVERGED,
    /** The iteration cap was reached first. */
    ITERATION_CAP,
    /** The run was not driven to a stop by this class (e.g. a caller stepped it a fixed number of times). */
    NOT_STOPPED,
    /** A deterministic optimiser could not lower its objective further without meeting a convergence test. */
    OPTIMIZER_FAILED,
    /** A held-out trace stopped improving (early stopping); the model kept is the one at its best iterate. */
    EARLY_STOPPED;

    /** The verdict of a full-batch L-BFGS run: converged, its iteration cap, or a failed line search. */
    public static StopReason of(Lbfgs.Result r) {
      if (r.converged()) {
        return CONVERGED;
      }
      return r.status().startsWith(Lbfgs.Status.MAX_ITERATIONS.name())
          ? ITERATION_CAP
          : OPTIMIZER_FAILED;
    }

    /** Whether the run met its stopping rule: converged, or early-stopped at the best held-out iterate. */
    public boolean metStoppingRule() {
      return this == CONVERGED || this == EARLY_STOPPED;
    }

    /** The lower-case name the summaries print (e.g. {@code iteration_cap}). */
    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * The constants of the rule: iterations per window (≥ 2) and the relative tolerance (positive).
   *
   * @param window iterations per window of the smoothed bound
   * @param tolerance relative change of the smoothed bound below which the run has converged
   */
  public record Rule(int window, double tolerance) {
    public Rule {
      if (window < 2 || !(tolerance > 0) || !Double.isFinite(tolerance)) {
        throw new IllegalArgumentException(
            "need window >= 2 and a positive tolerance, got " + window + ", " + tolerance);
      }
    }

    /** A monitor with these constants, no estimate recorded yet. */
    public BoundMonitor start() {
      return new BoundMonitor(window, tolerance);
    }
  }

  private final int window;
  private final double tolerance;
  private double[] trace = new double[64];
  private int count;
  private double windowSum;
  private double windowSq;
  private final double[] means = new double[HISTORY + 1];
  private final double[] variances =
      new double[HISTORY + 1]; // squared standard errors of the window means
  private int windows;
  private int settled; // consecutive windows at whose end |Δ| was below the threshold

  /**
   * @param window iterations per window of the smoothed bound (≥ 2)
   * @param tolerance relative change of the smoothed bound below which the run has converged (positive)
   */
  public BoundMonitor(int window, double tolerance) {
    if (window < 2 || !(tolerance > 0) || !Double.isFinite(tolerance)) {
      throw new IllegalArgumentException(
          "need window >= 2 and a positive tolerance, got " + window + ", " + tolerance);
    }
    this.window = window;
    this.tolerance = tolerance;
  }

  /** Records one iteration's bound estimate. */
  public void add(double bound) {
    if (count == trace.length) {
      trace = Arrays.copyOf(trace, 2 * count);
    }
    trace[count++] = bound;
    windowSum += bound;
    windowSq += bound * bound;
    if (count % window == 0) {
      double mean = windowSum / window;
      double var = Math.max(windowSq / window - mean * mean, 0) * window / (window - 1);
      windowSum = 0;
      windowSq = 0;
      System.arraycopy(means, 0, means, 1, HISTORY);
      System.arraycopy(variances, 0, variances, 1, HISTORY);
      means[0] = mean;
      variances[0] = var / window;
      windows++;
      settled = windows > HISTORY && Math.abs(gain()) < threshold() ? settled + 1 : 0;
    }
  }

  /** The gain Δ of the smoothed bound over the last HISTORY windows (NaN before HISTORY + 1 windows). */
  public double gain() {
    return windows > HISTORY ? means[0] - means[HISTORY] : Double.NaN;
  }

  /** tolerance · |L̄_k| + 2 se(Δ): the gain below which the bound counts as settled (NaN when not yet known). */
  public double threshold() {
    return windows > HISTORY
        ? tolerance * Math.abs(means[0]) + 2 * Math.sqrt(variances[0] + variances[HISTORY])
        : Double.NaN;
  }

  /** Whether the smoothed bound has settled (class comment). */
  public boolean converged() {
    return windows >= MIN_WINDOWS && settled >= HISTORY;
  }

  /** Whether the smoothed bound fell by more than the tolerance and its noise (class comment). */
  public boolean diverging() {
    return windows > HISTORY && gain() < -threshold();
  }

  /** The relative change Δ / |L̄_k| of the smoothed bound over the last HISTORY windows (NaN before). */
  public double relativeChange() {
    return gain() / Math.abs(means[0]);
  }

  /** The mean of the last complete window (NaN before one). */
  public double smoothedBound() {
    return windows >= 1 ? means[0] : Double.NaN;
  }

  /** Every estimate recorded, in order. */
  public double[] trace() {
    return Arrays.copyOf(trace, count);
  }

  /** Iterations per window. */
  public int window() {
    return window;
  }

  /** The relative tolerance. */
  public double tolerance() {
    return tolerance;
  }
}
