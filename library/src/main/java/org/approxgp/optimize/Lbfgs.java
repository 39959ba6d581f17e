package org.approxgp.optimize;

import com.github.lbfgs4j.liblbfgs.LbfgsConstant;
import com.github.lbfgs4j.liblbfgs.MutableDouble;
import java.util.ArrayList;
import java.util.List;

/**
 * L-BFGS minimisation (lbfgs4j) with box bounds.
 *
 * <p>Bounds are enforced with a penalty that is exactly zero inside the box and ½·κ·(distance
 * outside)² beyond it (κ = {@value #PENALTY}), so inside the box the objective is untouched; the
 * final point is then clipped into the box and every coordinate at (or pushed against) a bound is
 * reported in {@link Result#activeBounds()}.
 */
public final class Lbfgs {
  static final double PENALTY = 1e4;

  /**
   * @param maxIterations iteration cap (QP paper: 1000)
   * @param relativeFunctionTolerance stop when (f_{k−1} − f_k)/|f_k| &lt; this (QP paper: 1e-9)
   * @param gradientTolerance stop when ‖g‖ &lt; this · max(1, ‖x‖) (liblbfgs' ε)
   * @param memory number of correction pairs
   */
  public record Settings(int maxIterations, double relativeFunctionTolerance, double gradientTolerance, int memory) {

    public Settings {
      if (maxIterations < 1 || !(relativeFunctionTolerance >= 0) || !(gradientTolerance >= 0) || memory < 1) {
        throw new IllegalArgumentException("invalid L-BFGS settings " + maxIterations + ", " + relativeFunctionTolerance
            + ", " + gradientTolerance + ", " + memory);
      }
    }

    /** The QP paper's: 1000 iterations, relative function tolerance 1e-9; ε = 1e-5; m = 10. */
    public static Settings paper() {
      return new Settings(1000, 1e-9, 1e-5, 10);
    }
  }

  /**
   * @param x the minimiser found (clipped into the bounds)
   * @param value f(x) without penalty as last evaluated at the returned point
   * @param iterations L-BFGS iterations
   * @param evaluations function evaluations
   * @param converged a stopping test was met (not the iteration cap or a line-search failure)
   * @param status liblbfgs' return code name
   * @param activeBounds indices of coordinates at a bound
   */
  public record Result(double[] x, double value, int iterations, int evaluations, boolean converged, String status,
      List<Integer> activeBounds) {}

  /** Told after every L-BFGS iteration (for progress bars and per-iteration traces). */
  @FunctionalInterface
  public interface Progress {

    /**
     * @param iteration 1-based iteration number (counting on across restarts)
     * @param x the iterate (Not modified; valid only during the call)
     * @param value the objective at x (with the bound penalty, zero inside the box)
     */
    void onIteration(int iteration, double[] x, double value);
  }

  private Lbfgs() {}

  /** Unbounded minimisation. */
  public static Result minimize(Objective f, double[] x0, Settings settings) {
    return minimize(f, x0, null, null, settings);
  }

  /** Restarts after a failed evaluation (see {@link #minimize(Objective, double[], double[], double[], Settings)}). */
  static final int MAX_RESTARTS = 5;

  /**
   * Minimises f from x0 within [lower, upper] (either may be null = unbounded).
   *
   * <p><b>Points where f fails.</b> An objective may return a non-finite value where it cannot be
   * evaluated (an inference that fails at extreme hyperparameters). liblbfgs' Moré–Thuente line search
   * cannot use such a point: it interpolates with it and ends the run with a rounding or line-search
   * error, often at the first failed trial step. So when a run that met a failed evaluation ends
   * without converging, L-BFGS is restarted from the best point seen, with a backtracking (Wolfe) line
   * search, which only shrinks the step after a failure; at most {@value #MAX_RESTARTS} restarts, and
   * only while each improves the best value. A run that never meets a failure is exactly one
   * Moré–Thuente run, as before.
   */
  public static Result minimize(Objective f, double[] x0, double[] lower, double[] upper, Settings settings) {
    return minimize(f, x0, lower, upper, settings, null);
  }

  /**
   * As {@link #minimize(Objective, double[], double[], double[], Settings)}, telling {@code progress} (may be
   * null) after every iteration.
   */
  public static Result minimize(Objective f, double[] x0, double[] lower, double[] upper, Settings settings,
      Progress progress) {
    int n = x0.length;
    Search s = new Search(f, lower, upper, x0, progress);
    LbfgsConstant.ReturnValue rv = s.run(x0.clone(), settings, null);
    int restarts = 0;
    while (s.failures > 0 && !converged(rv) && restarts < MAX_RESTARTS) {
      double before = s.best;
      s.failures = 0;
      rv = s.run(s.bestX.clone(), settings, LbfgsConstant.LineSearch.LBFGS_LINESEARCH_BACKTRACKING_WOLFE);
      restarts++;
      if (!(s.best < before)) {
        break;
      }
    }
    // liblbfgs returns its last iterate; a failed line search may leave it worse than the best seen
    double[] out = s.bestX.clone();
    List<Integer> active = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if (lower != null && out[i] <= lower[i]) {
        out[i] = lower[i];
        active.add(i);
      } else if (upper != null && out[i] >= upper[i]) {
        out[i] = upper[i];
        active.add(i);
      }
    }
    double value = s.best;
    if (!active.isEmpty()) {
      // the point moved onto the box: evaluate the objective there (no penalty applies)
      value = f.evaluate(out, new double[n]);
      s.evals++;
    }
    String status = rv.name() + (restarts > 0 ? " after " + restarts + " restart(s) past failed evaluations" : "");
    return new Result(out, value, s.iters, s.evals, converged(rv), status, List.copyOf(active));
  }

  private static boolean converged(LbfgsConstant.ReturnValue rv) {
    return rv == LbfgsConstant.ReturnValue.LBFGS_SUCCESS
        || rv == LbfgsConstant.ReturnValue.LBFGS_CONVERGENCE
        || rv == LbfgsConstant.ReturnValue.LBFGS_STOP
        || rv == LbfgsConstant.ReturnValue.LBFGS_ALREADY_MINIMIZED;
  }

  /** One minimisation's state across restarts: counters and the best penalised point seen. */
  private static final class Search {
    final Objective f;
    final double[] lower;
    final double[] upper;
    final double[] bestX;
    final Progress progress;
    double best = Double.POSITIVE_INFINITY;
    int evals;
    int iters;
    int failures;

    Search(Objective f, double[] lower, double[] upper, double[] x0, Progress progress) {
      this.f = f;
      this.progress = progress;
      this.lower = lower;
      this.upper = upper;
      this.bestX = x0.clone();
    }

    LbfgsConstant.ReturnValue run(double[] x, Settings settings, LbfgsConstant.LineSearch lineSearch) {
      LbfgsConstant.LBFGS_Param p = com.github.lbfgs4j.liblbfgs.Lbfgs.defaultParams();
      p.max_iterations = settings.maxIterations();
      // liblbfgs' own relative-decrease test, (f_{k−1} − f_k)/f_k < δ, stops at once whenever f_k < 0 (the
      // rate is then negative); it is switched off (past = 0) and done in the progress callback below with
      // |f_k| in the denominator — the same decision as liblbfgs' whenever f_k > 0.
      p.past = 0;
      double delta = settings.relativeFunctionTolerance();
      p.epsilon = settings.gradientTolerance();
      p.m = settings.memory();
      if (lineSearch != null) {
        p.lineSearch = lineSearch; // null: liblbfgs' default, Moré–Thuente
      }
      int itersBefore = iters;
      double[] previous = {Double.NaN}; // f at the previous iterate; the first evaluation of a run is at x
      LbfgsConstant.LBFGS_Evaluate eval = (instance, xs, g, size, step) -> {
        evals++;
        double v = f.evaluate(xs, g);
        if (!Double.isFinite(v)) {
          failures++;
          java.util.Arrays.fill(g, 0);
          return Double.MAX_VALUE / 4; // larger than any finite value: the line search backs off
        }
        double pen = 0;
        for (int i = 0; i < size; i++) {
          if (lower != null && xs[i] < lower[i]) {
            double d = xs[i] - lower[i];
            pen += 0.5 * PENALTY * d * d;
            g[i] += PENALTY * d;
          } else if (upper != null && xs[i] > upper[i]) {
            double d = xs[i] - upper[i];
            pen += 0.5 * PENALTY * d * d;
            g[i] += PENALTY * d;
          }
        }
        if (Double.isNaN(previous[0])) {
          previous[0] = v + pen;
        }
        if (v + pen < best) {
          best = v + pen;
          System.arraycopy(xs, 0, bestX, 0, size);
        }
        return v + pen;
      };
      LbfgsConstant.LBFGS_Progress progress = (instance, xs, g, fx, xnorm, gnorm, step, size, k, ls) -> {
        iters = itersBefore + k;
        if (Search.this.progress != null) {
          Search.this.progress.onIteration(iters, xs, fx);
        }
        if (gnorm / Math.max(xnorm, 1) <= p.epsilon) {
          return LbfgsConstant.ReturnValue.LBFGS_SUCCESS; // liblbfgs' gradient test comes next and ends the run
        }
        double rate = (previous[0] - fx) / Math.abs(fx);
        previous[0] = fx;
        return rate < delta ? LbfgsConstant.ReturnValue.LBFGS_STOP : LbfgsConstant.ReturnValue.LBFGS_SUCCESS;
      };
      return com.github.lbfgs4j.liblbfgs.Lbfgs.lbfgs(x.length, x, new MutableDouble(), eval, progress, null, p);
    }
  }
}
