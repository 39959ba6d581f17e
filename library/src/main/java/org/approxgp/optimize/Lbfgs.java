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
   * @param relativeFunctionTolerance stop when (f_{k−1} − f_k)/max(|f_k|, 1) &lt; this (QP paper: 1e-9)
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

  private Lbfgs() {}

  /** Unbounded minimisation. */
  public static Result minimize(Objective f, double[] x0, Settings settings) {
    return minimize(f, x0, null, null, settings);
  }

  /**
   * Minimises f from x0 within [lower, upper] (either may be null = unbounded).
   */
  public static Result minimize(Objective f, double[] x0, double[] lower, double[] upper, Settings settings) {
    int n = x0.length;
    LbfgsConstant.LBFGS_Param p = com.github.lbfgs4j.liblbfgs.Lbfgs.defaultParams();
    p.max_iterations = settings.maxIterations();
    p.past = 1;
    p.delta = settings.relativeFunctionTolerance();
    p.epsilon = settings.gradientTolerance();
    p.m = settings.memory();
    int[] evals = {0};
    int[] iters = {0};
    double[] best = {Double.POSITIVE_INFINITY};
    double[] bestX = x0.clone();
    LbfgsConstant.LBFGS_Evaluate eval = (instance, x, g, size, step) -> {
      evals[0]++;
      double v = f.evaluate(x, g);
      if (!Double.isFinite(v)) {
        java.util.Arrays.fill(g, 0);
        return Double.MAX_VALUE / 4; // lets the line search back off instead of failing on NaN
      }
      double pen = 0;
      for (int i = 0; i < size; i++) {
        if (lower != null && x[i] < lower[i]) {
          double d = x[i] - lower[i];
          pen += 0.5 * PENALTY * d * d;
          g[i] += PENALTY * d;
        } else if (upper != null && x[i] > upper[i]) {
          double d = x[i] - upper[i];
          pen += 0.5 * PENALTY * d * d;
          g[i] += PENALTY * d;
        }
      }
      if (v + pen < best[0]) {
        best[0] = v + pen;
        System.arraycopy(x, 0, bestX, 0, size);
      }
      return v + pen;
    };
    LbfgsConstant.LBFGS_Progress progress = (instance, x, g, fx, xnorm, gnorm, step, size, k, ls) -> {
      iters[0] = k;
      return LbfgsConstant.ReturnValue.LBFGS_SUCCESS;
    };
    double[] x = x0.clone();
    LbfgsConstant.ReturnValue rv =
        com.github.lbfgs4j.liblbfgs.Lbfgs.lbfgs(n, x, new MutableDouble(), eval, progress, null, p);
    boolean converged = rv == LbfgsConstant.ReturnValue.LBFGS_SUCCESS
        || rv == LbfgsConstant.ReturnValue.LBFGS_CONVERGENCE
        || rv == LbfgsConstant.ReturnValue.LBFGS_STOP
        || rv == LbfgsConstant.ReturnValue.LBFGS_ALREADY_MINIMIZED;
    // liblbfgs returns its last iterate; a failed line search may leave it worse than the best seen
    double[] out = bestX.clone();
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
    double value = best[0];
    if (!active.isEmpty()) {
      // the point moved onto the box: evaluate the objective there (no penalty applies)
      value = f.evaluate(out, new double[n]);
      evals[0]++;
    }
    return new Result(out, value, iters[0], evals[0], converged, rv.name(), List.copyOf(active));
  }
}
