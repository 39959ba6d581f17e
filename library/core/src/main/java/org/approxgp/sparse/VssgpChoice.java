package org.approxgp.sparse;

import java.util.Arrays;
import org.approxgp.data.RegressionData;
import org.approxgp.inference.PredictiveMoments;

/**
 * VSSGP, VSSGP started at SSGP's fit, or the fixed-frequency model, whichever predicts held-out rows best ({@link
 * SparseRegression.Frequencies#HELD_OUT}): {@value Ssgp.Options#DEFAULT_HOLDOUT} of the training rows are held out
 * (SSGP's seeded split, {@link FixedFrequencies#split}), and each candidate is scored by the held-out rows' mean
 * negative log predictive density:
 *
 * <ul>
 *   <li>VSSGP (Gal &amp; Turner 2015) from its own initialisation (the fit {@link
 *       SparseRegression.Frequencies#LEARNED} gives), fitted to the other rows;
 *   <li>in full batch, VSSGP from SSGP's held-out fit ({@link #fromSsgp}: q(ω) a near-point at SSGP's
 *       frequencies, SSGP's hyperparameters), L-BFGS on the other rows' bound kept at its best held-out iterate
 *       ({@link VssgpFullBatch#heldOut});
 *   <li>the fixed-frequency m-point model (Lázaro-Gredilla et al. 2010; {@link FixedFrequencies}), its
 *       hyperparameters refitted on all rows from where they stopped.
 * </ul>
 *
 * <p>A chosen VSSGP keeps the q(ω) and hyperparameters fitted to the other rows, and its q(a) is set optimal for all
 * rows (SSGP's rule, {@link SsgpHoldout}). Refitting VSSGP on all rows, as this choice did before, re-ran the
 * optimisation whose outcome the held-out rows had just judged, from the same start but on other rows, so it could
 * land elsewhere, and it took about as long again as the run it repeated.
 *
 * <p>The second candidate is there because VSSGP's bound, maximised from its own start, can leave most inputs
 * unused, and from SSGP's fit it trades held-out accuracy for a smaller KL(q(ω) ‖ p(ω)) (m·d terms beside n
 * rows): on diamonds ({@code bin/bench regress-defaults}, 2,000 rows, 26 inputs, 2m = 340), seed 17, VSSGP from its
 * own start on all rows stopped with 20 of the 26 length-scales over 1000 times their input's range (carat among
 * them), test RMSE 0.220 against the exact GP's 0.108; on the fitted rows it switched the signal off (σ² → 1e-29)
 * within 24 iterations, so the fixed-frequency model was chosen: 0.136. From SSGP's fit (test RMSE 0.105) the
 * bound's L-BFGS run rose from −29,621 to −26,627 nats in 170 iterations while the test RMSE went from 0.105 to
 * 0.149; kept at its best held-out iterate, 0.105. Its held-out score favours it slightly: SSGP's iterate was
 * itself chosen on the same held-out rows. A third candidate is one more chance for few held-out rows to choose
 * by noise: on 100 rows of 5 inputs at m = 40 ({@code FixedFrequenciesTest}) it won on the 20 held-out rows and
 * then predicted 1,000 test rows worse than the fixed-frequency model the choice took before and than VSSGP itself
 * (MNLP 0.500 against 0.373 and 0.476).
 */
final class VssgpChoice {

  /** The fits the held-out rows choose among. */
  enum Candidate {
    /** VSSGP from its own initialisation. */
    VSSGP("vssgp", null),
    /** VSSGP from SSGP's held-out fit, kept at its best held-out iterate ({@link VssgpFullBatch#heldOut}). */
    VSSGP_FROM_SSGP("vssgp_from_ssgp", "lbfgs_held_out"),
    /** The m-point model at a seeded frequency draw with fitted hyperparameters ({@link FixedFrequencies}). */
    FIXED_FREQUENCIES("fixed_frequencies", "lbfgs");

    private final String label;
    private final String stopRule;

    Candidate(String label, String stopRule) {
      this.label = label;
      this.stopRule = stopRule;
    }

    /** The name in {@code approxgp regress}'s summary. */
    String label() {
      return label;
    }

    /**
     * The rule that stopped this candidate's fit, as {@code approxgp regress}'s summary names it; null for VSSGP
     * from its own start, whose rule is the fit's configured one.
     */
    String stopRule() {
      return stopRule;
    }

    /** The candidate named {@code label} in the summary. */
    static Candidate ofLabel(String label) {
      for (Candidate c : values()) {
        if (c.label.equals(label)) {
          return c;
        }
      }
      throw new IllegalArgumentException("no VSSGP candidate named '" + label + "'");
    }
  }

  /**
   * The chosen model: exactly one of {@code vssgp} and {@code fixed} is non-null; {@code iterations} are the
   * VSSGP iterations run last; {@code candidate} says which fit it is.
   */
  record Chosen(Vssgp vssgp, Ssgp fixed, int iterations, Candidate candidate) {
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
   * Fits the candidates on the fitted rows, VSSGP from its own start telling {@code listener} and {@code snapshots}
   * (if not null) its iterations, and returns the held-out rows' choice conditioned on all of {@code train} (n ≥
   * 2).
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
        : (it, model) ->
            snapshots.onIteration(it, () -> new Chosen(model.get(), null, it, Candidate.VSSGP));
    Vssgp onFit = Vssgp.fit(split.fit(), options, listener, inner);
    double v = onFit.predict(split.held()).mnlp(split.held().y());
    double vssgpScore = Double.isNaN(v) ? Double.POSITIVE_INFINITY : v;
    double fixedScore = fixed.p() == null ? Double.POSITIVE_INFINITY : fixed.score();
    if (options.schedule().fullBatchFor(split.fit().n())) {
      double[] start = fromSsgp(train, m, options);
      VssgpFullBatch.HeldOut held = VssgpFullBatch.heldOut(
          split.fit(), split.held(), m, start, options.schedule().iterations());
      if (held.score() < vssgpScore && held.score() <= fixedScore) {
        Vssgp kept = Vssgp.of(
            m,
            train.d(),
            VssgpFullBatch.collapsedPoint(train, m, start, held.x()),
            held.iterations(),
            held.reason());
        return new Chosen(kept, null, held.iterations(), Candidate.VSSGP_FROM_SSGP);
      }
    }
    if (fixedScore < vssgpScore) {
      Ssgp s =
          Ssgp.at(train, m, fixed.p(), fixed.describe("VSSGP's " + vssgpScore), fixed.reason());
      return new Chosen(null, s, onFit.iterations(), Candidate.FIXED_FREQUENCIES);
    }
    double[] q = onFit.parameters();
    Vssgp all = Vssgp.of(
        m,
        train.d(),
        VssgpFullBatch.collapsedPoint(
            train, m, q, Arrays.copyOf(q, VssgpParameters.offMuA(m, train.d()))),
        onFit.iterations(),
        onFit.stopReason(),
        onFit.lastSlopeTest());
    return new Chosen(all, null, all.iterations(), Candidate.VSSGP);
  }

  /**
   * VSSGP's start at SSGP's held-out fit ({@link #ssgpFit}, {@link #vssgpStart}) with the options' s₀.
   */
  static double[] fromSsgp(RegressionData train, int m, Vssgp.Options options) {
    return vssgpStart(ssgpFit(train, m, options), m, train.d(), options.initialFrequencyVariance());
  }

  /**
   * SSGP's held-out fit's packed parameters ({@link SsgpHoldout} without the fixed-frequency fallback, from SSGP's
   * own initialisation, on the held-out split of {@link #fit}: the model {@code approxgp regress --model ssgp
   * --frequencies learned} fits).
   */
  static double[] ssgpFit(RegressionData train, int m, Vssgp.Options options) {
    long seed = options.schedule().seed();
    double[] p0 =
        FixedFrequencies.initial(m, train.d(), seed, Ssgp.Hyperparameters.fromData(train));
    return SsgpHoldout.fit(
            train,
            m,
            p0,
            options.schedule().iterations(),
            Ssgp.Options.DEFAULT_HOLDOUT,
            seed,
            false,
            null)
        .p();
  }

  /**
   * VSSGP's packed parameters at SSGP's (packed) fit: μ_ω = SSGP's frequencies ω (both in length-scale units,
   * {@link Vssgp}'s class comment), s_ω = s₀, SSGP's hyperparameters, q(a) at N(0, I) (the held-out run sets it
   * optimal). As s₀ → 0 this VSSGP is SSGP (E[φ] → φ, the Ψᵢ correction → 0).
   */
  static double[] vssgpStart(double[] ssgp, int m, int d, double s0) {
    // VssgpParameters' layout: μ_ω, log s_ω, then (log ℓ, log σ², log σₙ²) as in SSGP's vector
    // after its m·d frequencies; μ_a = 0 and S_a's Cholesky factor I (log-diagonal 0) are zeros
    int md = m * d;
    double[] p = new double[VssgpParameters.size(m, d)];
    System.arraycopy(ssgp, 0, p, 0, md);
    Arrays.fill(p, md, 2 * md, Math.log(s0));
    System.arraycopy(ssgp, md, p, VssgpParameters.offLogEll(m, d), d + 2);
    return p;
  }
}
