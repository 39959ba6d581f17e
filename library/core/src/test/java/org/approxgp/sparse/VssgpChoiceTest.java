package org.approxgp.sparse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.approxgp.data.RegressionData;
import org.approxgp.inference.PredictiveMoments;
import org.junit.jupiter.api.Test;

/**
 * VSSGP's held-out choice ({@link VssgpChoice}): its start at SSGP's held-out fit is that SSGP model while q(ω) is
 * a point, the held-out run keeps its best held-out iterate, and the choice is the candidate with the lowest
 * held-out density.
 */
class VssgpChoiceTest {

  private static final RegressionData TRAIN = DenseGp.synthetic(300, 0.1, 5);
  private static final RegressionData TEST = DenseGp.synthetic(40, 0.1, 6);
  private static final int M = 6;
  private static final int CAP = 40;
  private static final long SEED = 3;

  /**
   * With q(ω) a point (s₀ = 1e-12) the start is SSGP's held-out fit itself: E[cos z] = e^{−v/2} cos m → cos m and
   * the Ψᵢ correction → 0, so VSSGP's optimal q(a) is SSGP's weight posterior and the predictions agree. Checks
   * the frequencies' units (both ω = 2πℓr) and the packed layout against the independent SSGP code.
   */
  @Test
  void theStartIsSsgpsHeldOutFitWhileTheFrequenciesArePoints() {
    Vssgp.Options o = Vssgp.Options.of(M, CAP, TRAIN.n(), SEED).withInitialFrequencyVariance(1e-12);
    double[] p = VssgpChoice.fromSsgp(TRAIN, M, o);
    Vssgp start = Vssgp.fromParameters(
        M,
        TRAIN.d(),
        VssgpFullBatch.collapsedPoint(
            TRAIN, M, p, Arrays.copyOf(p, VssgpParameters.offMuA(M, TRAIN.d()))));
    Ssgp ssgp = Ssgp.fit(
        TRAIN,
        Ssgp.Options.earlyStopped(M, CAP, SEED).withFixedFallback(false),
        IterationListener.NONE);
    PredictiveMoments v = start.predict(TEST);
    PredictiveMoments s = ssgp.predict(TEST);
    for (int i = 0; i < TEST.n(); i++) {
      assertEquals(s.mean()[i], v.mean()[i], 1e-7 * (1 + Math.abs(s.mean()[i])), "mean " + i);
      assertEquals(s.variance()[i], v.variance()[i], 1e-7 * s.variance()[i], "variance " + i);
    }
    assertEquals(
        ssgp.hyperparameters().noiseVariance(), start.hyperparameters().noiseVariance(), 0);
  }

  /**
   * The held-out run returns the iterate it scored lowest: its score is the held-out density of the model at the
   * returned point (q(a) optimal for the fitted rows), and no higher than the start's.
   */
  @Test
  void theHeldOutRunKeepsItsBestIterate() {
    Vssgp.Options o = Vssgp.Options.of(M, CAP, TRAIN.n(), SEED).withInitialFrequencyVariance(1e-6);
    double[] p = VssgpChoice.fromSsgp(TRAIN, M, o);
    FixedFrequencies.Split split =
        FixedFrequencies.split(TRAIN, Ssgp.Options.DEFAULT_HOLDOUT, SEED);
    int nq = VssgpParameters.offMuA(M, TRAIN.d());
    double startScore = heldScore(split, p, Arrays.copyOf(p, nq));
    VssgpFullBatch.HeldOut h = VssgpFullBatch.heldOut(split.fit(), split.held(), M, p, CAP);
    assertEquals(heldScore(split, p, h.x()), h.score(), 1e-12 * Math.abs(h.score()));
    assertTrue(h.score() <= startScore, h.score() + " > " + startScore);
    assertTrue(h.iterations() >= 1 && h.iterations() <= CAP, "iterations " + h.iterations());
    assertTrue(h.reason().metStoppingRule() || h.iterations() == CAP, h.reason().toString());
  }

  /**
   * The choice's model is the candidate the held-out rows score lowest: refitting the candidates here, the chosen
   * one's score is the minimum (the fresh VSSGP's fitted-rows run stands for its all-rows refit).
   */
  @Test
  void theChoiceIsTheCandidateWithTheLowestHeldOutDensity() {
    Vssgp.Options o = Vssgp.Options.of(M, CAP, TRAIN.n(), SEED)
        .withInitialFrequencyVariance(SparseRegression.VSSGP_FREQUENCY_VARIANCE);
    FixedFrequencies.Split split =
        FixedFrequencies.split(TRAIN, Ssgp.Options.DEFAULT_HOLDOUT, SEED);
    double fresh = Vssgp.fit(split.fit(), o, IterationListener.NONE)
        .predict(split.held())
        .mnlp(split.held().y());
    double[] p0 =
        FixedFrequencies.initial(M, TRAIN.d(), SEED, Ssgp.Hyperparameters.fromData(split.fit()));
    double fixed = FixedFrequencies.candidate(TRAIN, split, M, p0, SEED).score();
    double[] start = VssgpChoice.fromSsgp(TRAIN, M, o);
    double fromSsgp =
        VssgpFullBatch.heldOut(split.fit(), split.held(), M, start, CAP).score();
    VssgpChoice.Chosen c = VssgpChoice.fit(TRAIN, o, IterationListener.NONE, null);
    assertNotNull(c.candidate());
    double chosen = switch (c.candidate()) {
      case VSSGP -> fresh;
      case VSSGP_FROM_SSGP -> fromSsgp;
      case FIXED_FREQUENCIES -> fixed;
    };
    double min = Math.min(fresh, Math.min(fixed, fromSsgp));
    assertEquals(min, chosen, 0, "fresh " + fresh + ", fixed " + fixed + ", from SSGP " + fromSsgp);
  }

  private static double heldScore(FixedFrequencies.Split split, double[] template, double[] x) {
    return Vssgp.fromParameters(
            M, TRAIN.d(), VssgpFullBatch.collapsedPoint(split.fit(), M, template, x))
        .predict(split.held())
        .mnlp(split.held().y());
  }
}
