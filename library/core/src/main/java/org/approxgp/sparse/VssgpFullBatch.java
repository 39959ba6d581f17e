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
   */
  static Vssgp fit(
      RegressionData train,
      int m,
      double[] p,
      int maxIterations,
      IterationListener l,
      SnapshotListener<Vssgp> snapshots) {
    int d = train.d();
    int md = m * d;
    if (maxIterations == 0) {
      double[] full = p.clone();
      Vssgp.optimalWeights(train, null, m, full);
      return Vssgp.of(m, d, full, 0, BoundMonitor.StopReason.NOT_STOPPED);
    }
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
      Run r = lbfgs(train, m, start, maxIterations);
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
    return Vssgp.of(m, d, collapsedPoint(train, m, p, best.x), best.iterates.size(), best.reason);
  }

  /** One L-BFGS run's iterates (first {@link VssgpParameters#offMuA} entries), bounds and seconds, and its final point. */
  private static final class Run {
    final List<double[]> iterates = new ArrayList<>();
    final List<Double> values = new ArrayList<>();
    final List<Double> seconds = new ArrayList<>();
    double[] x;
    double bound;
    BoundMonitor.StopReason reason;
  }

  private static Run lbfgs(RegressionData train, int m, double[] p, int maxIterations) {
    int nq = VssgpParameters.offMuA(m, train.d());
    Run run = new Run();
    long t0 = System.nanoTime();
    Lbfgs.Result r = Lbfgs.minimize(
        (x, grad) -> {
          if (!finiteScales(
              x, m, train.d())) { // a trial step overflowed a variance or length-scale
            return Double.POSITIVE_INFINITY;
          }
          double v;
          try {
            v = VssgpBound.collapsed(train, m, x, grad);
          } catch (
              NotPositiveDefiniteException
                  e) { // q(a)'s precision not finite at an extreme trial point
            return Double.POSITIVE_INFINITY;
          }
          if (!Double.isFinite(v)) {
            return Double.POSITIVE_INFINITY;
          }
          for (int t = 0; t < nq; t++) {
            grad[t] = -grad[t];
          }
          return -v;
        },
        Arrays.copyOf(p, nq),
        null,
        null,
        new Lbfgs.Settings(maxIterations, 1e-9, 1e-6, 20),
        (it, x, fx) -> {
          run.iterates.add(Arrays.copyOf(x, nq));
          run.values.add(-fx);
          run.seconds.add((System.nanoTime() - t0) * 1e-9);
        });
    run.x = r.x();
    run.bound = -r.value();
    run.reason = BoundMonitor.StopReason.of(r);
    // the reported iterates end at the returned point (a run that ends before its first iteration
    // reports
    // none)
    if (run.iterates.isEmpty()
        || !Arrays.equals(run.iterates.get(run.iterates.size() - 1), run.x)) {
      run.iterates.add(run.x.clone());
      run.values.add(run.bound);
      run.seconds.add((System.nanoTime() - t0) * 1e-9);
    }
    return run;
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
  private static double[] collapsedPoint(
      RegressionData train, int m, double[] template, double[] x) {
    double[] q = template.clone();
    System.arraycopy(x, 0, q, 0, x.length);
    Vssgp.optimalWeights(train, null, m, q);
    return q;
  }
}
