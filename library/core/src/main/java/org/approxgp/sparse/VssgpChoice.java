package org.approxgp.sparse;

import org.approxgp.data.RegressionData;
import org.approxgp.inference.PredictiveMoments;

/**
 * VSSGP or the fixed-frequency model, whichever predicts held-out rows better ({@link
 * SparseRegression.Frequencies#HELD_OUT}): {@value Ssgp.Options#DEFAULT_HOLDOUT} of the training rows are held out
 * (SSGP's seeded split, {@link FixedFrequencies#split}); VSSGP (Gal &amp; Turner 2015) and the fixed-frequency
 * m-point model (Lázaro-Gredilla et al. 2010; {@link FixedFrequencies}) are fitted to the other rows and
 * scored by the held-out rows' mean negative log predictive density. The winner is refitted on all rows: VSSGP
 * from its own initialisation (the model {@link SparseRegression.Frequencies#LEARNED} gives), the fixed-frequency
 * model's hyperparameters from where they stopped.
 */
final class VssgpChoice {

  /**
   * The chosen model: exactly one of {@code vssgp} and {@code fixed} is non-null; {@code iterations} are the
   * VSSGP iterations run last.
   */
  record Chosen(Vssgp vssgp, Ssgp fixed, int iterations) {
    PredictiveMoments predict(RegressionData test) {
      return vssgp != null ? vssgp.predict(test) : fixed.predict(test);
    }

    BoundMonitor.StopReason stopReason() {
      return vssgp != null ? vssgp.stopReason() : fixed.stopReason();
    }

    BoundMonitor.SlopeTest lastSlopeTest() {
      return vssgp != null ? vssgp.lastSlopeTest() : null;
    }

    Ssgp.Hyperparameters hyperparameters() {
      return vssgp != null ? vssgp.hyperparameters() : fixed.hyperparameters();
    }
  }

  private VssgpChoice() {}

  /**
   * Fits both candidates on the fitted rows, VSSGP telling {@code listener} and {@code snapshots} (if not null)
   * its iterations, and returns the held-out rows' choice refitted on all of {@code train} (n ≥ 2).
   */
  static Chosen fit(
      RegressionData train,
      Vssgp.Options options,
      IterationListener listener,
      SnapshotListener<Chosen> snapshots) {
    SpectralBasis.requireTargets(train);
    int m = options.m();
    long seed = options.schedule().seed();
    FixedFrequencies.Split split =
        FixedFrequencies.split(train, Ssgp.Options.DEFAULT_HOLDOUT, seed);
    double[] p0 =
        FixedFrequencies.initial(m, train.d(), seed, Ssgp.Hyperparameters.fromData(split.fit()));
    FixedFrequencies.Candidate fixed = FixedFrequencies.candidate(train, split, m, p0, seed);
    SnapshotListener<Vssgp> inner = snapshots == null
        ? null
        : (it, model) -> snapshots.onIteration(it, () -> new Chosen(model.get(), null, it));
    Vssgp onFit = Vssgp.fit(split.fit(), options, listener, inner);
    double v = onFit.predict(split.held()).mnlp(split.held().y());
    double vssgpScore = Double.isNaN(v) ? Double.POSITIVE_INFINITY : v;
    if (fixed.p() != null && fixed.score() < vssgpScore) {
      Ssgp s =
          Ssgp.at(train, m, fixed.p(), fixed.describe("VSSGP's " + vssgpScore), fixed.reason());
      return new Chosen(null, s, onFit.iterations());
    }
    Vssgp all = Vssgp.fit(train, options, listener, null);
    return new Chosen(all, null, all.iterations());
  }
}
