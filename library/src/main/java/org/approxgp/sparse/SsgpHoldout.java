package org.approxgp.sparse;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.approxgp.data.RegressionData;
import org.approxgp.linalg.NotPositiveDefiniteException;
import org.approxgp.optimize.Lbfgs;

/**
 * SSGP's early stopping on a held-out trace. Maximising SSGP's marginal likelihood over m·d frequencies overfits
 * (Lázaro-Gredilla et al. 2010, §6; Gal &amp; Turner 2015, §1, motivate VSSGP by it): on scikit-learn's diabetes data
 * (354 rows, 10 inputs, m = 20) the converged fit's test RMSE is twice the exact GP's. So a seeded fraction of the
 * training rows is held out, L-BFGS maximises the likelihood of the rest, and after each iteration the mean negative
 * log predictive density of the held-out rows is computed at the iterate (the model conditioned on the rest). The
 * iterate with the lowest held-out density is kept; the run stops at L-BFGS's own convergence, its cap, or when
 * {@value #PATIENCE} iterations have passed without a new lowest value. The final model is conditioned on all rows
 * at the kept parameters.
 */
final class SsgpHoldout {
  /** Iterations without a new lowest held-out density before the run stops. */
  static final int PATIENCE = 20;

  /** The kept parameters, the iterations run, and why the run stopped. */
  record Result(double[] p, int iterations, BoundMonitor.StopReason reason, String status) {}

  /** Thrown from L-BFGS's progress callback to end the run once the held-out trace has stopped improving. */
  private static final class Stop extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Stop() {
      super(null, null, false, false);
    }
  }

  private SsgpHoldout() {}

  /**
   * Fits from p0 on all but a seeded {@code fraction} of the rows of {@code train} (at least one row on each side),
   * telling {@code progress} after every iteration the parameters kept so far (the best held-out iterate, which
   * conditions on all rows) and the negative log likelihood of the fitted part at the iterate.
   */
  static Result fit(
      RegressionData train,
      int m,
      double[] p0,
      int maxIterations,
      double fraction,
      long seed,
      Lbfgs.Progress progress) {
    int n = train.n();
    int held = Math.max(1, Math.min(n - 1, (int) Math.round(fraction * n)));
    int[] perm = new int[n];
    for (int i = 0; i < n; i++) {
      perm[i] = i;
    }
    SplittableRandom rng = new SplittableRandom(seed ^ 0x5DEECE66DL);
    for (int i = n - 1; i > 0; i--) {
      int j = rng.nextInt(i + 1);
      int t = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
    }
    int[] heldRows = Arrays.copyOfRange(perm, 0, held);
    int[] fitRows = Arrays.copyOfRange(perm, held, n);
    Arrays.sort(heldRows);
    Arrays.sort(fitRows);
    RegressionData fitPart = train.subset(fitRows);
    RegressionData heldPart = train.subset(heldRows);
    int d = train.d();
    double[][] best = {p0.clone()};
    double[] bestScore = {
      conditions(train, m, d, p0) ? score(fitPart, heldPart, m, d, p0) : Double.POSITIVE_INFINITY
    };
    int[] since = {0};
    int[] iters = {0};
    Lbfgs.Result r;
    try {
      r = Lbfgs.minimize(
          (x, g) -> Ssgp.negLogMarginal(fitPart, m, x, g),
          p0,
          null,
          null,
          new Lbfgs.Settings(maxIterations, 1e-9, 1e-5, 10),
          (it, x, fx) -> {
            iters[0] = it;
            double s = score(fitPart, heldPart, m, d, x);
            // a new best must also condition on all rows (the final model), which can fail where
            // the fitted part
            // does not (e.g. a tiny noise variance on noise-free targets)
            boolean better = s < bestScore[0] && conditions(train, m, d, x);
            if (better) {
              bestScore[0] = s;
              best[0] = x.clone();
              since[0] = 0;
            }
            if (progress != null) {
              progress.onIteration(it, best[0], fx);
            }
            if (!better && ++since[0] >= PATIENCE) {
              throw new Stop();
            }
          });
    } catch (Stop e) {
      return new Result(
          best[0],
          iters[0],
          BoundMonitor.StopReason.EARLY_STOPPED,
          "held-out density lowest at an earlier iterate for " + PATIENCE + " iterations");
    }
    return new Result(best[0], r.iterations(), BoundMonitor.StopReason.of(r), r.status());
  }

  /** Whether the model at p conditions on {@code rows} (its weight precision is numerically positive definite). */
  private static boolean conditions(RegressionData rows, int m, int d, double[] p) {
    try {
      Ssgp.at(rows, m, d, p);
      return true;
    } catch (NotPositiveDefiniteException | IllegalArgumentException e) {
      return false;
    }
  }

  /** Mean negative log predictive density of {@code held} under the model at p conditioned on {@code fit}. */
  private static double score(RegressionData fit, RegressionData held, int m, int d, double[] p) {
    Ssgp model;
    try {
      model = Ssgp.at(fit, m, d, p);
    } catch (NotPositiveDefiniteException
        | IllegalArgumentException e) { // a singular or non-finite iterate
      return Double.POSITIVE_INFINITY;
    }
    double v = model.predict(held).mnlp(held.y());
    return Double.isNaN(v) ? Double.POSITIVE_INFINITY : v;
  }
}
