package org.approxgp.sparse;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.approxgp.data.RegressionData;
import org.approxgp.linalg.NotPositiveDefiniteException;
import org.approxgp.optimize.Lbfgs;

/** VSSGP's full-batch fit: L-BFGS on the collapsed bound L* ({@link Vssgp}'s class comment). */
final class VssgpFullBatch {

  private VssgpFullBatch() {}

  /**
   * Full batch: L-BFGS on −L* over the leading {@link VssgpParameters#offMuA} entries of p (q(ω) and the hyperparameters), q(a)
   * set to its optimum at every evaluation; relative-decrease tolerance 1e-9, gradient tolerance 1e-6 (on the
   * ∞-norm of the gradient, relative to max(1, |L*|); see {@link Lbfgs}), memory 20. Two starts that differ only in the initial frequency variance: the
   * options' s₀ and the prior's, 1 (one start if s₀ = 1); the one with the higher final bound is kept, and its
   * iterates are then replayed to the listener and snapshots. The bound has distinct local optima that the start
   * selects: on a 1-d sine (400 rows, m = 10) s₀ = 0.01 reaches bound +279 (test RMSE at the noise level) and
   * s₀ = 1 a flat fit at −408; on scikit-learn's diabetes data (354 rows, d = 10, m = 100) s₀ = 0.01 ends with
   * the signal switched off (σ² → 0, −501.8) and s₀ = 1 at −442.1 to −442.5 (four seeds of μ_ω). Choosing by the
   * bound uses only the training data.
   *
   * <p>With a {@link BoundMonitor.Test#SLOPE} rule ({@code stopping} not null) each run also stops when that test,
   * fed the exact bound after every iteration, finds it no longer rising by more than the rule's tolerance per
   * training row ({@link BoundMonitor}: over the last half of the run, the rise extrapolated over as many
   * iterations again; the standard error then measures only how far the trace bends from a line). L-BFGS's own
   * relative-decrease test asks for a gain below 1e-9 of |L*| per iteration, which a fit of m·d frequency means and
   * variances on thousands of rows does not reach within its cap while its predictions no longer change: on
   * volcano's seed-1 split of {@code bin/bench regress-defaults} (4,307 rows, 2m = 400, s₀ = 1e-6) the slope test
   * (tolerance 0.05) stopped the run at iteration 150, test RMSE 0.806 against 0.783 at the cap of 600, where the
   * bound still rose by 7 nats (0.002 per row) per 50 iterations. A {@link BoundMonitor.Test#MEANS} rule is not
   * applied here (a deterministic bound has no noise for its standard errors to measure; the sVBSSGP paper's stored
   * full-batch runs, which name it, stop by L-BFGS's tests alone).
   */
  static Vssgp fit(
      RegressionData train,
      int m,
      double[] p,
      int maxIterations,
      BoundMonitor.Rule stopping,
      IterationListener l,
      SnapshotListener<Vssgp> snapshots) {
    int d = train.d();
    int md = m * d;
    if (maxIterations == 0) {
      double[] full = p.clone();
      Vssgp.optimalWeights(train, null, m, full);
      return Vssgp.of(m, d, full, 0, BoundMonitor.StopReason.NOT_STOPPED);
    }
    BoundMonitor.Rule slope = Vssgp.fullBatchStopping(stopping);
    double s0 = Math.exp(p[md]);
    List<double[]> starts = new ArrayList<>();
    starts.add(p);
    if (s0 != 1.0) {
      double[] q = p.clone();
      Arrays.fill(q, md, 2 * md, 0.0); // log s = 0
      starts.add(q);
    }
    Run best = null;
    for (double[] start : starts) {
      Run r = lbfgs(train, m, start, maxIterations, slope);
      if (best == null || r.bound > best.bound) {
        best = r;
      }
    }
    for (int t = 0; t < best.iterates.size(); t++) {
      int it = t + 1;
      double[] xi = best.iterates.get(t);
      l.onIteration(it, best.values.get(t), best.seconds.get(t));
      if (snapshots != null) {
        snapshots.onIteration(
            it,
            () -> Vssgp.of(
                m, d, collapsedPoint(train, m, p, xi), it, BoundMonitor.StopReason.NOT_STOPPED));
      }
    }
    return Vssgp.of(
        m,
        d,
        collapsedPoint(train, m, p, best.x),
        best.iterates.size(),
        best.reason,
        best.slopeTest);
  }

  /**
   * A full-batch run kept at its best held-out iterate: the first {@link VssgpParameters#offMuA} entries {@code x}
   * of the kept point, the held-out rows' mean negative log predictive density there, the iterations run and why
   * the run stopped.
   */
  record HeldOut(double[] x, double score, int iterations, BoundMonitor.StopReason reason) {}

  /**
   * L-BFGS on −L* of {@code fit} from p (settings as {@link #fit}), kept at its best held-out iterate: after each
   * iteration the model at the iterate (q(a) optimal for {@code fit}) scores {@code held} by its mean negative log
   * predictive density; p itself is iteration 0; the lowest score is kept, and the run stops when {@value
   * SsgpHoldout#PATIENCE} iterations pass without a new lowest ({@code EARLY_STOPPED}), at L-BFGS's own
   * convergence or at {@code maxIterations} — SSGP's held-out rule ({@link SsgpHoldout}) applied to VSSGP's bound.
   * An iterate that cannot be scored (q(a) not conditioned, NaN) scores +∞.
   */
  static HeldOut heldOut(
      RegressionData fit, RegressionData held, int m, double[] p, int maxIterations) {
    int d = fit.d();
    int nq = VssgpParameters.offMuA(m, d);
    double[][] best = {Arrays.copyOf(p, nq)};
    double[] bestScore = {heldScore(fit, held, m, p, best[0])};
    int[] since = {0};
    int[] iters = {0};
    try {
      Lbfgs.Result r = Lbfgs.minimize(
          (x, grad) -> negativeBound(fit, m, x, grad, nq),
          Arrays.copyOf(p, nq),
          null,
          null,
          settings(maxIterations),
          (it, x, fx) -> {
            iters[0] = it;
            double s = heldScore(fit, held, m, p, x);
            if (s < bestScore[0]) {
              bestScore[0] = s;
              best[0] = x.clone();
              since[0] = 0;
            } else if (++since[0] >= SsgpHoldout.PATIENCE) {
              throw new Settled();
            }
          });
      return new HeldOut(best[0], bestScore[0], r.iterations(), BoundMonitor.StopReason.of(r));
    } catch (Settled e) {
      return new HeldOut(best[0], bestScore[0], iters[0], BoundMonitor.StopReason.EARLY_STOPPED);
    }
  }

  /** The mean negative log predictive density of {@code held} at q(ω) and hyperparameters x, q(a) optimal for {@code fit}; +∞ if none. */
  private static double heldScore(
      RegressionData fit, RegressionData held, int m, double[] template, double[] x) {
    double v;
    try {
      v = Vssgp.of(
              m,
              fit.d(),
              collapsedPoint(fit, m, template, x),
              0,
              BoundMonitor.StopReason.NOT_STOPPED)
          .predict(held)
          .mnlp(held.y());
    } catch (NotPositiveDefiniteException | IllegalArgumentException e) {
      return Double.POSITIVE_INFINITY;
    }
    return Double.isNaN(v) ? Double.POSITIVE_INFINITY : v;
  }

  /** One L-BFGS run's iterates (first {@link VssgpParameters#offMuA} entries), bounds and seconds, and its final point. */
  private static final class Run {
    final List<double[]> iterates = new ArrayList<>();
    final List<Double> values = new ArrayList<>();
    final List<Double> seconds = new ArrayList<>();
    double[] x;
    double bound;
    BoundMonitor.StopReason reason;
    BoundMonitor.SlopeTest slopeTest; // the slope rule's last test (null without one)
  }

  /** Thrown from L-BFGS's progress callback to end a run whose bound the slope test finds settled. */
  private static final class Settled extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Settled() {
      super(null, null, false, false);
    }
  }

  private static Run lbfgs(
      RegressionData train, int m, double[] p, int maxIterations, BoundMonitor.Rule slope) {
    int nq = VssgpParameters.offMuA(m, train.d());
    Run run = new Run();
    BoundMonitor monitor = slope == null ? null : slope.start(train.n());
    long t0 = System.nanoTime();
    Lbfgs.Result r;
    try {
      r = minimize(train, m, p, maxIterations, nq, run, monitor, t0);
    } catch (Settled e) {
      int last = run.iterates.size() - 1;
      run.x = run.iterates.get(last).clone();
      run.bound = run.values.get(last);
      run.reason = BoundMonitor.StopReason.CONVERGED;
      run.slopeTest = monitor.lastSlopeTest();
      return run;
    }
    run.x = r.x();
    run.bound = -r.value();
    run.reason = BoundMonitor.StopReason.of(r);
    run.slopeTest = monitor == null ? null : monitor.lastSlopeTest();
    // the reported iterates end at the returned point (a run that ends before its first iteration
    // reports none)
    if (run.iterates.isEmpty()
        || !Arrays.equals(run.iterates.get(run.iterates.size() - 1), run.x)) {
      run.iterates.add(run.x.clone());
      run.values.add(run.bound);
      run.seconds.add((System.nanoTime() - t0) * 1e-9);
    }
    return run;
  }

  /**
   * L-BFGS's tests for VSSGP's bound, in either run (its own fit, {@link #heldOut}): relative decrease 1e-9,
   * gradient 1e-6, memory 20, at most {@code maxIterations}.
   */
  private static Lbfgs.Settings settings(int maxIterations) {
    return new Lbfgs.Settings(maxIterations, 1e-9, 1e-6, 20);
  }

  /** L-BFGS on −L*, recording every iterate in {@code run}; throws {@link Settled} when {@code monitor} says so. */
  private static Lbfgs.Result minimize(
      RegressionData train,
      int m,
      double[] p,
      int maxIterations,
      int nq,
      Run run,
      BoundMonitor monitor,
      long t0) {
    return Lbfgs.minimize(
        (x, grad) -> negativeBound(train, m, x, grad, nq),
        Arrays.copyOf(p, nq),
        null,
        null,
        settings(maxIterations),
        (it, x, fx) -> {
          run.iterates.add(Arrays.copyOf(x, nq));
          run.values.add(-fx);
          run.seconds.add((System.nanoTime() - t0) * 1e-9);
          if (monitor != null) {
            monitor.add(-fx);
            if (monitor.converged()) {
              throw new Settled();
            }
          }
        });
  }

  /**
   * −L* of {@code train} at x (q(ω) and hyperparameters, q(a) optimal) and its gradient into {@code grad}; +∞ where a
   * trial step overflowed a variance or length-scale, q(a)'s precision is not finite, or the bound is not finite.
   */
  private static double negativeBound(
      RegressionData train, int m, double[] x, double[] grad, int nq) {
    if (!finiteScales(x, m, train.d())) {
      return Double.POSITIVE_INFINITY;
    }
    double v;
    try {
      v = VssgpBound.collapsed(train, m, x, grad);
    } catch (NotPositiveDefiniteException e) {
      return Double.POSITIVE_INFINITY;
    }
    if (!Double.isFinite(v)) {
      return Double.POSITIVE_INFINITY;
    }
    for (int t = 0; t < nq; t++) {
      grad[t] = -grad[t];
    }
    return -v;
  }

  /**
   * Whether exp of every log-parameter (q(ω)'s variances, ℓ, σ², σₙ²) among the first {@link VssgpParameters#offMuA} entries
   * of x is positive and finite: a line search's trial point may overshoot until a length-scale overflows.
   */
  static boolean finiteScales(double[] x, int m, int d) {
    for (int t = m * d; t < VssgpParameters.offMuA(m, d); t++) {
      double v = Math.exp(x[t]);
      if (!(v > 0) || !Double.isFinite(v)) {
        return false;
      }
    }
    return true;
  }

  /** The packed parameters with q(ω) and hyperparameters x (the first {@link VssgpParameters#offMuA} entries) and q(a) optimal. */
  static double[] collapsedPoint(RegressionData train, int m, double[] template, double[] x) {
    double[] q = template.clone();
    System.arraycopy(x, 0, q, 0, x.length);
    Vssgp.optimalWeights(train, null, m, q);
    return q;
  }
}
