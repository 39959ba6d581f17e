package org.approxgp.sparse;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.approxgp.data.RegressionData;
import org.approxgp.optimize.Adam;

/** VSSGP's minibatch fit ({@link Vssgp}'s class comment). */
final class VssgpMinibatch {

  private VssgpMinibatch() {}

  /**
   * Minibatches: each step draws a batch, moves q(a) by a natural-gradient step of size ρ_t = 0.5/(1 + 0.05(t − 1))^0.6
   * towards its optimum for that batch ({@link Vssgp#weightStep}; the conjugate part, as DTC++'s q(u)), and takes one
   * Adam step at rate α_t on q(ω) and the hyperparameters along the batch estimate of the bound's gradient at the
   * new q(a); stops at the cap or when the smoothed estimate has converged ({@link BoundMonitor}).
   */
  static Vssgp fit(
      RegressionData train,
      Vssgp.Options options,
      double[] p,
      SplittableRandom rng,
      IterationListener l,
      SnapshotListener<Vssgp> snapshots) {
    int m = options.m();
    int d = train.d();
    int n = train.n();
    int nq = VssgpParameters.offMuA(m, d);
    StepSchedule natural = new StepSchedule(0.5, 0.05, 0.6);
    int[] rows = new int[options.schedule().batchFor(n)];
    drawBatch(rows, n, rng);
    Vssgp.optimalWeights(train, rows, m, p);
    Adam adam = new Adam(nq, Adam.Settings.of(options.schedule().step().initial()));
    BoundMonitor monitor =
        BoundMonitor.of(options.schedule().stopping(), InducingOptions.DEFAULT_STOPPING, n);
    double[] g = new double[p.length];
    double[] x = new double[nq];
    double[] gx = new double[nq];
    double[] unit = new double[nq];
    long t0 = System.nanoTime();
    int it = 0;
    while (it < options.schedule().iterations() && !monitor.converged()) {
      it++;
      if (it > 1) {
        drawBatch(rows, n, rng);
        Vssgp.weightStep(train, rows, m, p, natural.at(it));
      }
      Vssgp.Bound b = Vssgp.evaluate(train, rows, m, p, g);
      System.arraycopy(p, 0, x, 0, nq);
      for (int t = 0; t < nq; t++) {
        gx[t] = -g[t];
      }
      Arrays.fill(unit, options.schedule().step().decay(it));
      adam.step(x, gx, unit);
      System.arraycopy(x, 0, p, 0, nq);
      monitor.add(b.value());
      l.onIteration(it, b.value(), (System.nanoTime() - t0) * 1e-9);
      if (snapshots != null) {
        int iteration = it;
        snapshots.onIteration(
            it, () -> Vssgp.of(m, d, p.clone(), iteration, BoundMonitor.StopReason.NOT_STOPPED));
      }
    }
    BoundMonitor.StopReason reason = monitor.converged()
        ? BoundMonitor.StopReason.CONVERGED
        : BoundMonitor.StopReason.ITERATION_CAP;
    return Vssgp.of(m, d, p, it, reason, monitor.lastSlopeTest());
  }

  private static void drawBatch(int[] rows, int n, SplittableRandom rng) {
    if (rows != null) {
      for (int t = 0; t < rows.length; t++) {
        rows[t] = rng.nextInt(n);
      }
    }
  }
}
