package org.approxgp.inference;

import java.util.ArrayList;
import java.util.List;

/**
 * Mutable per-run counters and progress of one {@link SiteLoop#run} (confined to that call), and the tests on its
 * traces: the α distance of Qi &amp; Guo's Fig. 3 and the oscillation test.
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
