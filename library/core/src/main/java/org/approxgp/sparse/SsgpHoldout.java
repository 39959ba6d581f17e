package org.approxgp.sparse;

import org.approxgp.data.RegressionData;
import org.approxgp.optimize.Lbfgs;

/**
 * SSGP's early stopping on a held-out trace. Maximising SSGP's marginal likelihood over m·d frequencies overfits
 * (Lázaro-Gredilla et al. 2010, §6; Gal &amp; Turner 2015, §1, motivate VSSGP by it): on scikit-learn's diabetes data
 * (354 rows, 10 inputs, m = 20) the converged fit's test RMSE is twice the exact GP's. So a seeded fraction of the
 * training rows is held out, L-BFGS maximises the likelihood of the rest, and after each iteration the mean negative
 * log predictive density of the held-out rows is computed at the iterate (the model conditioned on the rest). The
 * iterate with the lowest held-out density is kept; the run stops at L-BFGS's own convergence, its cap, or when
 * {@value #PATIENCE} iterations have passed without a new lowest value. The final model is conditioned on all rows
 * at the kept parameters. With the fixed-frequency fallback, the same held-out rows then choose between that
 * model and the model at the initial frequencies with fitted hyperparameters ({@link FixedFrequencies}).
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
   * conditions on all rows) and the negative log likelihood of the fitted part at the iterate; with {@code
   * fixedFallback}, returns the best fixed-frequency model (p0's frequencies or another seeded draw) instead where
   * the held-out rows prefer it.
   */
  static Result fit(
      RegressionData train,
      int m,
      double[] p0,
      int maxIterations,
      double fraction,
      long seed,
      boolean fixedFallback,
      Lbfgs.Progress progress) {
    FixedFrequencies.Split split = FixedFrequencies.split(train, fraction, seed);
    RegressionData fitPart = split.fit();
    RegressionData heldPart = split.held();
    double[][] best = {p0.clone()};
    double[] bestScore = {
      FixedFrequencies.conditions(train, m, p0)
          ? FixedFrequencies.score(fitPart, heldPart, m, p0)
          : Double.POSITIVE_INFINITY
    };
    int[] since = {0};
    int[] iters = {0};
    Result learned;
    try {
      Lbfgs.Result r = Lbfgs.minimize(
          (x, g) -> Ssgp.negLogMarginal(fitPart, m, x, g),
          p0,
          null,
          null,
          new Lbfgs.Settings(maxIterations, 1e-9, 1e-5, 10),
          (it, x, fx) -> {
            iters[0] = it;
            double s = FixedFrequencies.score(fitPart, heldPart, m, x);
            // a new best must also condition on all rows (the final model), which can fail where
            // the fitted part does not (e.g. a tiny noise variance on noise-free targets)
            boolean better = s < bestScore[0] && FixedFrequencies.conditions(train, m, x);
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
      learned = new Result(best[0], r.iterations(), BoundMonitor.StopReason.of(r), r.status());
    } catch (Stop e) {
      learned = new Result(
          best[0],
          iters[0],
          BoundMonitor.StopReason.EARLY_STOPPED,
          "held-out density lowest at an earlier iterate for " + PATIENCE + " iterations");
    }
    return choose(train, split, m, p0, seed, fixedFallback, bestScore[0], learned);
  }

  /**
   * {@code learned} unless {@code fixedFallback} and the best fixed-frequency candidate (p0's frequencies or
   * another seeded draw: {@link FixedFrequencies#candidate}) has a lower held-out density than {@code
   * learnedScore}; then that candidate, with the learned run's iterations and stop reason.
   */
  private static Result choose(
      RegressionData train,
      FixedFrequencies.Split split,
      int m,
      double[] p0,
      long seed,
      boolean fixedFallback,
      double learnedScore,
      Result learned) {
    if (!fixedFallback) {
      return learned;
    }
    FixedFrequencies.Candidate c = FixedFrequencies.candidate(train, split, m, p0, seed);
    if (!(c.score() < learnedScore)) {
      return learned;
    }
    return new Result(
        c.p(),
        learned.iterations(),
        learned.reason(),
        c.describe(learnedScore + " of the learned frequencies; " + learned.status()));
  }
}
