package org.approxgp.optimize;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Limited-memory BFGS with box bounds, written from the mathematics (no third-party optimiser).
 *
 * <p><b>Direction.</b> The inverse-Hessian approximation H_k is applied by the two-loop recursion (Nocedal &amp;
 * Wright, <i>Numerical Optimization</i>, 2nd ed. 2006, Algorithm 7.4) from the last m correction pairs
 * s_i = x_{i+1} − x_i, y_i = ∇f_{i+1} − ∇f_i, with H_k⁰ = γ_k I, γ_k = s_{k−1}ᵀy_{k−1} / y_{k−1}ᵀy_{k−1} (N&amp;W
 * eq. 7.20, the Barzilai–Borwein scaling). A pair is stored only when s_iᵀy_i &gt; {@value #CURVATURE_EPS}·‖s_i‖‖y_i‖,
 * which keeps H_k positive definite (N&amp;W §7.2, the update is skipped otherwise). Without pairs (the first
 * iteration, or after a reset) the direction is −∇f with the trial step 1/‖∇f‖₂ (a unit move), as in N&amp;W
 * Algorithm 7.5 and liblbfgs; later trial steps are 1.
 *
 * <p><b>Bounds</b> (a projected, active-set variant in the spirit of L-BFGS-B, Byrd, Lu, Nocedal &amp; Zhu, SIAM J.
 * Sci. Comput. 16, 1995). Iterates are always feasible. At x_k the active set A holds the coordinates at a bound
 * whose gradient points out of the box (x_i = l_i, g_i &gt; 0 or x_i = u_i, g_i &lt; 0); with P the projector that
 * zeroes the coordinates in A the direction is d = −P H_k P ∇f. P H_k P is a principal submatrix of a positive
 * definite matrix, so d is a descent direction whenever the projected gradient is not zero. A free coordinate
 * at a bound whose d_i would leave the box joins A and d is recomputed (at most n times; if nothing free is left
 * the direction is the projected steepest descent −P∇f). The step is cut at α_max, the first point where d
 * meets a bound; a coordinate whose breakpoint is reached is set exactly to its bound, so it becomes active and
 * is reported in {@link Result#activeBounds()}. Compared with L-BFGS-B this adds at most one bound per line
 * search instead of following the projected path to the generalised Cauchy point — simpler and correct, and
 * enough for the few hyperparameters (≤ tens) this library optimises. The correction pairs are kept across
 * changes of A (as L-BFGS-B keeps them); in a pair, y_i is set to 0 for a coordinate held at its bound (s_i = 0),
 * so the pairs describe f on the free variables, the subspace P H_k P acts on (without this the held
 * coordinates' gradient changes distort γ_k and the steps overshoot).
 *
 * <p><b>Line search.</b> Moré–Thuente ({@link MoreThuente}: strong Wolfe, μ = 1e-4, η = 0.9) on (0, α_max]; a
 * non-finite f is "too far" and shrinks the step. If it cannot meet the Wolfe conditions, its best step is
 * taken when it satisfies sufficient decrease, else a backtracking Armijo search (halving from the smallest
 * step tried) runs until the trial point no longer differs from x_k; if that fails too, the memory is cleared
 * and the iteration is retried once along −P∇f. Only then does the run end, with {@link Status#LINE_SEARCH_FAILED}.
 *
 * <p><b>Convergence</b> (checked at every iterate, the start included), in this order:
 * <ol>
 *   <li>{@link Status#CONVERGED_GRADIENT}: ‖x − P_box(x − ∇f)‖_∞ ≤ gtol · max(1, ‖x‖₂), the projected-gradient
 *   norm of L-BFGS-B (zero exactly at a KKT point of the box problem) with liblbfgs' scale max(1, ‖x‖), the
 *   one the callers' tolerances were chosen for. (A scale of |f|, as one might use for sums over data points,
 *   would make the QP paper's gtol = 1e-5 about 30 times looser on a GP evidence of ≈ 90 and stop fits short of
 *   the optimum, by 4e-8 in log evidence on coal mining.)</li>
 *   <li>{@link Status#CONVERGED_FUNCTION}: (f_{k−1} − f_k) / max(|f_{k−1}|, |f_k|) &lt; relativeFunctionTolerance on
 *   two consecutive iterations (the QP paper's 1e-9 rule; two so that one short step does not end the run). An
 *   iteration whose line search fails counts with the decrease of its lowest trial point: an objective that is
 *   noisy (an inference converged to 1e-6, a central-difference gradient) stops falling at its noise level,
 *   and after a small decrease that is convergence in the paper's sense, not a failure. So is a failure whose
 *   smallest backtracking step changed f by more than {@value #NOISE_FACTOR}·|α φ'(0)| (noise; a gradient of the
 *   wrong sign would show f rising by ≈ |α φ'(0)| and stays {@link Status#LINE_SEARCH_FAILED});</li>
 *   <li>{@link Status#MAX_ITERATIONS}: the iteration cap.</li>
 * </ol>
 */
public final class Lbfgs {

  /** Curvature pairs with sᵀy ≤ this · ‖s‖‖y‖ are skipped. */
  static final double CURVATURE_EPS = 1e-10;
  /** Halvings of the backtracking fallback at most (the loop ends earlier when the point stops moving). */
  static final int MAX_BACKTRACKS = 60;
  /** A failed search whose smallest step changed f by more than this × |α φ'(0)| has met noise in f. */
  static final double NOISE_FACTOR = 10;

  /**
   * @param maxIterations iteration cap (QP paper: 1000)
   * @param relativeFunctionTolerance stop when (f_{k−1} − f_k)/max(|f_{k−1}|, |f_k|) &lt; this on two consecutive
   *     iterations (QP paper: 1e-9; 0 switches the test off)
   * @param gradientTolerance gtol: stop when the projected gradient's ∞-norm ≤ gtol · max(1, ‖x‖₂)
   * @param memory number of correction pairs m
   */
  public record Settings(
      int maxIterations, double relativeFunctionTolerance, double gradientTolerance, int memory) {

    public Settings {
      if (maxIterations < 1
          || !(relativeFunctionTolerance >= 0)
          || !(gradientTolerance >= 0)
          || memory < 1) {
        throw new IllegalArgumentException("invalid L-BFGS settings " + maxIterations + ", "
            + relativeFunctionTolerance + ", " + gradientTolerance + ", " + memory);
      }
    }

    /** The QP paper's: 1000 iterations, relative function tolerance 1e-9; gtol = 1e-5; m = 10. */
    public static Settings paper() {
      return new Settings(1000, 1e-9, 1e-5, 10);
    }
  }

  /** Why a run stopped. */
  public enum Status {
    /** The projected-gradient test held. */
    CONVERGED_GRADIENT,
    /** The relative-decrease test held on two consecutive iterations. */
    CONVERGED_FUNCTION,
    /** The iteration cap was reached first. */
    MAX_ITERATIONS,
    /** No step along −P∇f lowered f (after Moré–Thuente, backtracking and a memory reset). */
    LINE_SEARCH_FAILED,
    /** f or ∇f is not finite at the (clipped) starting point. */
    NON_FINITE_START;

    /** Whether this status is a convergence verdict. */
    public boolean converged() {
      return this == CONVERGED_GRADIENT || this == CONVERGED_FUNCTION;
    }
  }

  /**
   * @param x the final iterate (inside the bounds)
   * @param value f(x) as evaluated there
   * @param iterations accepted steps
   * @param evaluations function evaluations
   * @param converged the status is a convergence verdict ({@link Status#converged()})
   * @param status the {@link Status} name, followed for a failure by the reason and the projected-gradient norm
   * @param activeBounds indices of coordinates at a bound
   */
  public record Result(
      double[] x,
      double value,
      int iterations,
      int evaluations,
      boolean converged,
      String status,
      List<Integer> activeBounds) {}

  /** Told after every L-BFGS iteration (for progress bars and per-iteration traces). */
  @FunctionalInterface
  public interface Progress {

    /**
     * @param iteration 1-based iteration number
     * @param x the iterate (Not modified; valid only during the call)
     * @param value the objective at x
     */
    void onIteration(int iteration, double[] x, double value);
  }

  private Lbfgs() {}

  /** Unbounded minimisation. */
  public static Result minimize(Objective f, double[] x0, Settings settings) {
    return minimize(f, x0, null, null, settings);
  }

  /**
   * Minimises f from x0 (clipped into the box) within [lower, upper] (either may be null = unbounded; entries
   * may be infinite). f may return a non-finite value where it cannot be evaluated: the line search backs off.
   */
  public static Result minimize(
      Objective f, double[] x0, double[] lower, double[] upper, Settings settings) {
    return minimize(f, x0, lower, upper, settings, null);
  }

  /**
   * As {@link #minimize(Objective, double[], double[], double[], Settings)}, telling {@code progress} (may be
   * null) after every iteration.
   */
  public static Result minimize(
      Objective f,
      double[] x0,
      double[] lower,
      double[] upper,
      Settings settings,
      Progress progress) {
    return new Run(f, x0, lower, upper, settings).solve(progress);
  }

  /** One minimisation: the box, the iterate, the correction pairs and the counters. */
  private static final class Run {
    final Objective f;
    final Settings settings;
    final int n;
    final double[] lo;
    final double[] hi;
    final double[][] s;
    final double[][] y;
    final double[] rho;
    int pairs; // stored pairs (≤ m)
    int newest = -1; // slot of the newest pair
    double[] x;
    double[] g;
    double fx;
    int evals;
    double lowestTried; // the lowest f among this iteration's trial points
    boolean noisy; // this iteration's backtracking ended in noise (see lineSearch)

    Run(Objective f, double[] x0, double[] lower, double[] upper, Settings settings) {
      this.f = f;
      this.settings = settings;
      n = x0.length;
      lo = new double[n];
      hi = new double[n];
      for (int i = 0; i < n; i++) {
        lo[i] = lower == null ? Double.NEGATIVE_INFINITY : lower[i];
        hi[i] = upper == null ? Double.POSITIVE_INFINITY : upper[i];
        if (!(lo[i] <= hi[i])) {
          throw new IllegalArgumentException(
              "empty box in coordinate " + i + ": [" + lo[i] + ", " + hi[i] + "]");
        }
      }
      int m = settings.memory();
      s = new double[m][n];
      y = new double[m][n];
      rho = new double[m];
      x = new double[n];
      for (int i = 0; i < n; i++) {
        x[i] = Math.min(hi[i], Math.max(lo[i], x0[i]));
      }
      g = new double[n];
    }

    /** f at p, its gradient into gp; +∞ when f or ∇f is not finite. */
    double eval(double[] p, double[] gp) {
      evals++;
      double v = f.evaluate(p, gp);
      return Double.isFinite(v) && allFinite(gp) ? v : Double.POSITIVE_INFINITY;
    }

    Result solve(Progress progress) {
      fx = eval(x, g);
      if (!Double.isFinite(fx)) {
        return result(0, Status.NON_FINITE_START, "");
      }
      int k = 0;
      int small = 0;
      while (true) {
        if (projectedGradientNorm()
            <= settings.gradientTolerance() * Math.max(1, Math.sqrt(dot(x, x)))) {
          return result(k, Status.CONVERGED_GRADIENT, "");
        }
        if (small >= 2) {
          return result(k, Status.CONVERGED_FUNCTION, "");
        }
        if (k >= settings.maxIterations()) {
          return result(k, Status.MAX_ITERATIONS, "");
        }
        Trial t = iterate();
        if (t.failure != null) {
          // no step was accepted: the decrease this iteration offers is at most that of the lowest
          // trial point;
          // below the tolerance it counts as a small decrease (f has stopped falling at its noise
          // level), and
          // ends the run after a small decrease or when the smallest steps show f's noise
          double rel = (fx - lowestTried)
              / Math.max(Math.max(Math.abs(fx), Math.abs(lowestTried)), Double.MIN_NORMAL);
          if (settings.relativeFunctionTolerance() > 0
              && !(rel >= settings.relativeFunctionTolerance())
              && (small >= 1 || noisy)) {
            return result(k, Status.CONVERGED_FUNCTION, "");
          }
          return result(k, Status.LINE_SEARCH_FAILED, t.failure);
        }
        double fPrev = fx;
        store(t);
        k++;
        if (progress != null) {
          progress.onIteration(k, x, fx);
        }
        double rel =
            (fPrev - fx) / Math.max(Math.max(Math.abs(fPrev), Math.abs(fx)), Double.MIN_NORMAL);
        small =
            settings.relativeFunctionTolerance() > 0 && rel < settings.relativeFunctionTolerance()
                ? small + 1
                : 0;
      }
    }

    /** One step from x: the direction, the line search and its fallbacks. */
    Trial iterate() {
      lowestTried = Double.POSITIVE_INFINITY;
      noisy = false;
      String why = null;
      for (int attempt = 0; attempt < 2; attempt++) {
        double[] d = direction();
        Trial t = lineSearch(d);
        if (t.failure == null) {
          return t;
        }
        why = t.failure;
        if (pairs == 0) {
          break; // already steepest descent
        }
        pairs = 0; // reset the memory and retry along −P∇f
        newest = -1;
      }
      return Trial.failed(why);
    }

    /** d = −P H P ∇f (see the class comment); steepest descent −P∇f when that is not a descent direction. */
    double[] direction() {
      boolean[] fixed = new boolean[n];
      for (int i = 0; i < n; i++) {
        fixed[i] = (x[i] <= lo[i] && g[i] > 0) || (x[i] >= hi[i] && g[i] < 0) || lo[i] == hi[i];
      }
      boolean[] fixed0 = fixed.clone();
      double[] d = new double[n];
      for (int round = 0; round <= n; round++) {
        double[] q = new double[n];
        for (int i = 0; i < n; i++) {
          q[i] = fixed[i] ? 0 : g[i];
        }
        twoLoop(q);
        boolean changed = false;
        double slope = 0;
        for (int i = 0; i < n; i++) {
          d[i] = fixed[i] ? 0 : -q[i];
          if (!fixed[i] && ((x[i] <= lo[i] && d[i] < 0) || (x[i] >= hi[i] && d[i] > 0))) {
            fixed[i] = true;
            changed = true;
          }
          slope += fixed[i] ? 0 : d[i] * g[i];
        }
        if (!changed) {
          if (slope < 0) {
            return d;
          }
          break;
        }
      }
      for (int i = 0; i < n; i++) {
        d[i] = fixed0[i] ? 0 : -g[i];
      }
      return d;
    }

    /** q ← H q by the two-loop recursion (N&amp;W Algorithm 7.4) with H⁰ = γI (eq. 7.20); H = I without pairs. */
    void twoLoop(double[] q) {
      int m = s.length;
      double[] alpha = new double[m];
      for (int j = 0, i = newest; j < pairs; j++, i = (i - 1 + m) % m) {
        alpha[i] = rho[i] * dot(s[i], q);
        axpy(-alpha[i], y[i], q);
      }
      if (pairs > 0) {
        double gamma = 1 / (rho[newest] * dot(y[newest], y[newest]));
        for (int i = 0; i < n; i++) {
          q[i] *= gamma;
        }
      }
      for (int j = 0, i = (newest - pairs + 1 + m) % m; j < pairs; j++, i = (i + 1) % m) {
        double beta = rho[i] * dot(y[i], q);
        axpy(alpha[i] - beta, s[i], q);
      }
    }

    /** Moré–Thuente along d on (0, α_max], then the backtracking fallback. */
    Trial lineSearch(double[] d) {
      double g0 = dot(g, d);
      double[] breakpoint = new double[n];
      double stepMax = Double.POSITIVE_INFINITY;
      double dnorm2 = 0;
      for (int i = 0; i < n; i++) {
        breakpoint[i] = d[i] > 0
            ? (hi[i] - x[i]) / d[i]
            : d[i] < 0 ? (lo[i] - x[i]) / d[i] : Double.POSITIVE_INFINITY;
        stepMax = Math.min(stepMax, breakpoint[i]);
        dnorm2 += d[i] * d[i];
      }
      if (!(stepMax > 0) || !(g0 < 0)) {
        return Trial.failed(
            "no descent direction (slope " + g0 + ", largest step " + stepMax + ")");
      }
      double step0 = pairs == 0 ? 1 / Math.sqrt(dnorm2) : 1;
      List<Trial> tried = new ArrayList<>();
      MoreThuente.Phi phi = (a, deriv) -> {
        if (unmoved(d, breakpoint, a)) {
          deriv[0] = g0; // x + a·d rounds to x: nothing to evaluate
          return fx;
        }
        Trial t = trial(d, breakpoint, a);
        tried.add(t);
        deriv[0] = dot(t.g, d);
        return t.f;
      };
      double cap = Double.isFinite(stepMax) ? stepMax : Double.MAX_VALUE;
      MoreThuente.Outcome o = MoreThuente.search(phi, fx, g0, step0, cap);
      if (o.step() > 0
          && !unmoved(d, breakpoint, o.step())
          && (o.wolfe() || o.value() <= fx + MoreThuente.MU * o.step() * g0)) {
        for (Trial t : tried) {
          if (t.step == o.step()) {
            return t;
          }
        }
        return trial(d, breakpoint, o.step());
      }
      // backtracking Armijo (N&W Algorithm 3.1, contraction ½) from below the smallest step tried
      double a = o.smallestTried();
      for (int j = 0; j < MAX_BACKTRACKS; j++) {
        a *= 0.5;
        if (unmoved(d, breakpoint, a)) {
          break; // the step no longer moves x
        }
        Trial t = trial(d, breakpoint, a);
        if (t.f <= fx + MoreThuente.MU * a * g0) {
          return t;
        }
        tried.add(t);
      }
      // at the smallest step evaluated f differs from f(x) by far more than the first-order change
      // |α φ'(0)|:
      // what is left is noise in f, not a gradient that points the wrong way (f rising by ≈ |α
      // φ'(0)|)
      Trial last = null;
      for (Trial t : tried) {
        if (Double.isFinite(t.f) && (last == null || t.step < last.step)) {
          last = t;
        }
      }
      if (last != null && Math.abs(last.f - fx) > NOISE_FACTOR * last.step * -g0) {
        noisy = true;
      }
      return Trial.failed(o.why() + "; backtracking found no decrease");
    }

    /** Whether x + a·d (as {@link #trial} forms it) equals x in every coordinate. */
    boolean unmoved(double[] d, double[] breakpoint, double a) {
      return Arrays.equals(point(d, breakpoint, a), x);
    }

    double[] point(double[] d, double[] breakpoint, double a) {
      double[] xt = new double[n];
      for (int i = 0; i < n; i++) {
        double v = a >= breakpoint[i] ? (d[i] > 0 ? hi[i] : lo[i]) : x[i] + a * d[i];
        xt[i] = Math.min(hi[i], Math.max(lo[i], v));
      }
      return xt;
    }

    /** The point x + a·d (coordinates past their breakpoint exactly at the bound) and f, ∇f there. */
    Trial trial(double[] d, double[] breakpoint, double a) {
      double[] xt = point(d, breakpoint, a);
      double[] gt = new double[n];
      double ft = eval(xt, gt);
      lowestTried = Math.min(lowestTried, ft);
      return new Trial(a, xt, ft, gt, null);
    }

    /**
     * Accepts the trial as x_{k+1} and stores (s, y) when sᵀy &gt; ε‖s‖‖y‖; y_i = 0 for a coordinate held at a
     * bound, so the pairs model f on the free variables (P H P then approximates the reduced inverse Hessian).
     */
    void store(Trial t) {
      int m = s.length;
      int slot = (newest + 1) % m;
      double sy = 0;
      double ss = 0;
      double yy = 0;
      for (int i = 0; i < n; i++) {
        double si = t.x[i] - x[i];
        // a coordinate held at its bound (s_i = 0): its gradient change is no curvature of the free
        // subspace,
        // where the model is used; dropping it makes the pair one of f restricted to the free
        // variables
        boolean held = si == 0 && (x[i] <= lo[i] || x[i] >= hi[i]);
        double yi = held ? 0 : t.g[i] - g[i];
        s[slot][i] = si;
        y[slot][i] = yi;
        sy += si * yi;
        ss += si * si;
        yy += yi * yi;
      }
      if (sy > CURVATURE_EPS * Math.sqrt(ss) * Math.sqrt(yy)) {
        rho[slot] = 1 / sy;
        newest = slot;
        pairs = Math.min(pairs + 1, m);
      }
      x = t.x;
      g = t.g;
      fx = t.f;
    }

    /** ‖x − P_box(x − ∇f)‖_∞. */
    double projectedGradientNorm() {
      double r = 0;
      for (int i = 0; i < n; i++) {
        r = Math.max(r, Math.abs(x[i] - Math.min(hi[i], Math.max(lo[i], x[i] - g[i]))));
      }
      return r;
    }

    Result result(int k, Status status, String why) {
      List<Integer> active = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        if (x[i] <= lo[i] || x[i] >= hi[i]) {
          active.add(i);
        }
      }
      String text = status.name();
      if (!status.converged() && Double.isFinite(fx)) {
        text += (why.isEmpty() ? "" : ": " + why)
            + String.format(" (projected gradient %.3g, f %.10g)", projectedGradientNorm(), fx);
      }
      return new Result(x.clone(), fx, k, evals, status.converged(), text, List.copyOf(active));
    }
  }

  /** A trial point of a line search (or, with {@code failure}, the reason none was accepted). */
  private record Trial(double step, double[] x, double f, double[] g, String failure) {
    static Trial failed(String why) {
      return new Trial(0, null, Double.NaN, null, why);
    }
  }

  static double dot(double[] a, double[] b) {
    double r = 0;
    for (int i = 0; i < a.length; i++) {
      r += a[i] * b[i];
    }
    return r;
  }

  private static void axpy(double a, double[] xv, double[] yv) {
    for (int i = 0; i < xv.length; i++) {
      yv[i] += a * xv[i];
    }
  }

  private static boolean allFinite(double[] v) {
    for (double e : v) {
      if (!Double.isFinite(e)) {
        return false;
      }
    }
    return true;
  }
}
