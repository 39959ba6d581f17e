package org.approxgp.inference;

import java.util.ArrayList;
import java.util.List;

/**
 * Mutable per-run counters and progress of one {@link SiteLoop#run} or {@link SparseSiteLoop#run} (confined to that
 * call), the end-of-sweep bookkeeping and verdict both loops share ({@link #endSweep}, {@link #verdict},
 * {@link #finish}), and the tests on its traces: the α distance of Qi &amp; Guo's Fig. 3 and the oscillation test.
 */
final class LoopRun {

  final String method;
  final long t0;
  final List<Double> trace = new ArrayList<>();
  final List<Double> alphaTrace = new ArrayList<>();
  String message = "";
  boolean keep;
  boolean factoredK;
  int relaxed;
  int sweeps;
  int site = -1;
  boolean evidence;
  double change = Double.POSITIVE_INFINITY;
  int clipped;
  int skipped;
  int limited;
  double jitter;

  /** What a loop does after a sweep ({@link #verdict}). */
  enum Verdict {
    /** Neither converged nor stopped: sweep again (the caller's sweep cap permitting). */
    CONTINUE,
    /** The site change fell below the tolerance with no site frozen: converged. */
    CONVERGED,
    /** Stopped without converging; {@link #message} says why. */
    STOPPED
  }

  LoopRun(String method, long t0) {
    this.method = method;
    this.t0 = t0;
  }

  void noteJitter(double j) {
    jitter = Math.max(jitter, j);
  }

  /** " at site i in sweep s" or " in the log evidence at site i", or "" outside a site. */
  String where() {
    if (site < 0) {
      return evidence ? " (in the log evidence)" : " (after sweep " + sweeps + ")";
    }
    return evidence
        ? " (in the log evidence, site " + site + ")"
        : " (at site " + site + " in sweep " + (sweeps + 1) + ")";
  }

  Diagnostics diagnostics(boolean converged) {
    return new Diagnostics(
        method,
        sweeps,
        converged,
        change,
        (System.nanoTime() - t0) * 1e-9,
        jitter,
        clipped,
        skipped,
        converged ? "" : message,
        trace,
        !converged && !message.isEmpty(),
        alphaTrace,
        relaxed,
        limited);
  }

  /**
   * Records a finished sweep: counts it, sets {@link #change} to the RMS change of the sites from {@code before} to
   * (τ̃, ν̃) and appends it to the trace; no site is current after it.
   *
   * @throws InferenceException when the change is not finite (non-finite site parameters)
   */
  void endSweep(Sites before, double[] tau, double[] nu) {
    site = -1;
    sweeps++;
    change = before.rmsChange(Sites.of(tau, nu));
    trace.add(change);
    if (!Double.isFinite(change)) {
      throw new InferenceException(
          "non-finite site parameters after sweep " + sweeps, diagnostics(false), null);
    }
  }

  /**
   * The verdict after a sweep recorded by {@link #endSweep}, the stopping rule of both site loops: a change below
   * {@link SiteLoopOptions#tolerance()} converges, unless sites were skipped in that sweep (frozen with an improper
   * cavity, not at their fixed point: stopped, with a message counting them); otherwise the oscillation test of
   * {@link SiteLoopOptions#oscillationWindow()} stops the run as diverged. Sets {@link #message} when it stops.
   *
   * @param skippedBefore {@link #skipped} before the sweep
   */
  Verdict verdict(SiteLoopOptions options, int skippedBefore) {
    if (change < options.tolerance()) {
      int frozen = skipped - skippedBefore;
      if (frozen > 0) {
        // not a fixed point: the skipped sites did not take their update (SiteLoop's class comment)
        message = "stopped: " + frozen + " site" + (frozen == 1 ? "" : "s")
            + " frozen with an improper cavity in the last sweep, the others unchanged";
        return Verdict.STOPPED;
      }
      return Verdict.CONVERGED;
    }
    if (oscillating(trace, options.oscillationWindow())) {
      message = "diverged: oscillation (no new minimum of the site change in the last "
          + options.oscillationWindow() + " sweeps)";
      return Verdict.STOPPED;
    }
    return Verdict.CONTINUE;
  }

  /**
   * After the last sweep: a run that neither converged nor stopped with a message ran into the sweep cap (also
   * when the cap is 0), and says so.
   */
  void finish(boolean converged, SiteLoopOptions options) {
    if (!converged && message.isEmpty()) {
      message = "diverged: sweep cap " + options.maxSweeps() + " reached";
    }
  }

  /** ‖a − b‖₂. */
  static double distance(double[] a, double[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      double d = a[i] - b[i];
      s += d * d;
    }
    return Math.sqrt(s);
  }

  /**
   * The oscillation test of {@link SiteLoopOptions#oscillationWindow()}: W &gt; 0, more than W sweeps done, and
   * every one of the last W values of {@code trace} ≥ the minimum of the values before them.
   */
  static boolean oscillating(List<Double> trace, int w) {
    int s = trace.size();
    if (w <= 0 || s <= w) {
      return false;
    }
    double best = Double.POSITIVE_INFINITY;
    for (int i = 0; i < s - w; i++) {
      best = Math.min(best, trace.get(i));
    }
    for (int i = s - w; i < s; i++) {
      if (trace.get(i) < best) {
        return false;
      }
    }
    return true;
  }
}
