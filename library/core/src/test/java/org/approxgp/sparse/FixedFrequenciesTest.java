package org.approxgp.sparse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.approxgp.data.RegressionData;
import org.junit.jupiter.api.Test;

/**
 * The fixed-frequency model and the held-out choice between it and the learned frequencies of SSGP and VSSGP
 * ({@link FixedFrequencies}, {@link VssgpChoice}).
 */
class FixedFrequenciesTest {

  /**
   * Training rows (n) and 1,000 test rows of y = sin(f x₁) + x₂/2 + noise, standard normal inputs in d
   * dimensions.
   */
  private static RegressionData[] data(long seed, int n, int d, double noiseSd, double f) {
    SplittableRandom rng = new SplittableRandom(seed);
    RegressionData[] s = new RegressionData[2];
    int[] sizes = {n, 1000};
    for (int k = 0; k < 2; k++) {
      double[] x = new double[sizes[k] * d];
      double[] y = new double[sizes[k]];
      for (int i = 0; i < sizes[k]; i++) {
        for (int j = 0; j < d; j++) {
          x[i * d + j] = rng.nextGaussian();
        }
        y[i] = Math.sin(f * x[i * d]) + 0.5 * x[i * d + 1] + noiseSd * rng.nextGaussian();
      }
      s[k] = new RegressionData(x, sizes[k], d, y);
    }
    return s;
  }

  /**
   * 100 noisy rows in 5 inputs, m = 20 (100 frequency coordinates): even early-stopped, the learned frequencies
   * predict the held-out rows worse than the initial draw with fitted hyperparameters; the fallback keeps the
   * draw (its frequencies are SSGP's initial ω) and predicts 1,000 test rows with a lower MNLP.
   */
  @Test
  void ssgpFallsBackToFixedFrequenciesWhereTheLearnedOnesOverfit() {
    RegressionData[] s = data(5, 100, 5, 0.5, 1.0);
    Ssgp learned = Ssgp.fit(s[0], Ssgp.Options.earlyStopped(20, 1000, 2), null);
    Ssgp chosen =
        Ssgp.fit(s[0], Ssgp.Options.earlyStopped(20, 1000, 2).withFixedFallback(true), null);
    assertTrue(chosen.status().startsWith(FixedFrequencies.CHOSEN), chosen.status());
    // the chosen frequencies are the draw the status names (draw 1: the initial one)
    Matcher which = Pattern.compile("draw (\\d+) of (\\d+)").matcher(chosen.status());
    assertTrue(which.find(), chosen.status());
    assertEquals(FixedFrequencies.draws(100, 20), Integer.parseInt(which.group(2)));
    double[] w0 = FixedFrequencies.draw(
        FixedFrequencies.initial(20, 5, 2, Ssgp.Hyperparameters.fromData(s[0])),
        20,
        5,
        2,
        Integer.parseInt(which.group(1)) - 1);
    double[] r = chosen.features().frequencies();
    double[] ell = chosen.hyperparameters().lengthscales();
    for (int k = 0; k < 20; k++) {
      for (int j = 0; j < 5; j++) {
        assertEquals(
            w0[k * 5 + j],
            r[k * 5 + j] * 2 * Math.PI * ell[j],
            1e-12 * (1 + Math.abs(w0[k * 5 + j])));
      }
    }
    double learnedMnlp = learned.predict(s[1]).mnlp(s[1].y());
    double chosenMnlp = chosen.predict(s[1]).mnlp(s[1].y());
    assertTrue(chosenMnlp < learnedMnlp - 0.03, "fixed " + chosenMnlp + ", learned " + learnedMnlp);
  }

  /**
   * 300 rows of a smooth 2-input function with little noise, m = 6: the learned frequencies win on the held-out
   * rows, and then SSGP's fit is the learned one to the bit, and VSSGP's is its fit to the held-out choice's
   * fitted rows with q(a) set on all rows, to the bit.
   */
  @Test
  void whereTheLearnedFrequenciesWinTheFitsAreUnchanged() {
    RegressionData[] s = data(5, 300, 2, 0.1, 1.3);
    Ssgp learned = Ssgp.fit(s[0], Ssgp.Options.earlyStopped(6, 1000, 2), null);
    Ssgp chosen =
        Ssgp.fit(s[0], Ssgp.Options.earlyStopped(6, 1000, 2).withFixedFallback(true), null);
    assertEquals(learned.status(), chosen.status());
    assertArrayEquals(learned.predict(s[1]).mean(), chosen.predict(s[1]).mean(), 0.0);
    assertArrayEquals(learned.predict(s[1]).variance(), chosen.predict(s[1]).variance(), 0.0);
    // VSSGP: its own fit to the choice's fitted rows, q(a) then set on all rows
    Vssgp.Options vo = Vssgp.Options.of(6, 1000, 300, 2);
    FixedFrequencies.Split split = FixedFrequencies.split(s[0], Ssgp.Options.DEFAULT_HOLDOUT, 2);
    Vssgp v = Vssgp.fit(split.fit(), vo, null);
    double[] q = v.parameters();
    Vssgp onAll = Vssgp.fromParameters(
        6,
        2,
        VssgpFullBatch.collapsedPoint(s[0], 6, q, Arrays.copyOf(q, VssgpParameters.offMuA(6, 2))));
    VssgpChoice.Chosen c = VssgpChoice.fit(s[0], vo, null, null);
    assertEquals(VssgpChoice.Candidate.VSSGP, c.candidate());
    assertEquals(v.iterations(), c.iterations());
    assertArrayEquals(onAll.predict(s[1]).mean(), c.predict(s[1]).mean(), 0.0);
    assertArrayEquals(onAll.predict(s[1]).variance(), c.predict(s[1]).variance(), 0.0);
  }

  /**
   * 100 rows in 5 inputs, m = 40: VSSGP's own optimum predicts the held-out rows worse than another candidate and is
   * not chosen; the fixed draw with fitted hyperparameters predicts 1,000 test rows with a lower MNLP than VSSGP on
   * all rows. (The held-out rows, 20 of them, prefer VSSGP from SSGP's fit to that draw, and it predicts the test
   * rows worse than both: {@link VssgpChoice}'s class comment.)
   */
  @Test
  void vssgpFallsBackWhereItsOptimumPredictsWorse() {
    RegressionData[] s = data(5, 100, 5, 0.3, 2.0);
    Vssgp.Options vo = Vssgp.Options.of(40, 1000, 100, 2);
    Vssgp v = Vssgp.fit(s[0], vo, null);
    VssgpChoice.Chosen c = VssgpChoice.fit(s[0], vo, null, null);
    assertNotEquals(VssgpChoice.Candidate.VSSGP, c.candidate());
    FixedFrequencies.Split split = FixedFrequencies.split(s[0], Ssgp.Options.DEFAULT_HOLDOUT, 2);
    double[] p0 = FixedFrequencies.initial(40, 5, 2, Ssgp.Hyperparameters.fromData(split.fit()));
    FixedFrequencies.Candidate fixed = FixedFrequencies.candidate(s[0], split, 40, p0, 2);
    Ssgp fixedModel = Ssgp.at(s[0], 40, fixed.p(), fixed.describe("VSSGP's"), fixed.reason());
    assertTrue(fixedModel.status().startsWith(FixedFrequencies.CHOSEN), fixedModel.status());
    double vMnlp = v.predict(s[1]).mnlp(s[1].y());
    double fMnlp = fixedModel.predict(s[1]).mnlp(s[1].y());
    assertTrue(fMnlp < vMnlp - 0.05, "fixed " + fMnlp + ", VSSGP " + vMnlp);
  }

  /**
   * At 2m = 40 six draws up to 10,000 rows, then fewer: one from 60,000 rows on; the budget is work, n·(2m)², so
   * 2m = 400 fits one draw from 600 rows on. Draw 0 is p0 itself, the others keep p0's hyperparameters and replace
   * its frequencies by a seeded standard normal draw, distinct per draw and per seed.
   */
  @Test
  void theDrawsAreSeededAndTheirNumberFallsWithTheWork() {
    assertEquals(6, FixedFrequencies.draws(100, 20));
    assertEquals(6, FixedFrequencies.draws(10_000, 20));
    assertEquals(3, FixedFrequencies.draws(20_000, 20));
    assertEquals(1, FixedFrequencies.draws(60_000, 20));
    assertEquals(1, FixedFrequencies.draws(3_000_000, 20));
    assertEquals(6, FixedFrequencies.draws(100, 200));
    assertEquals(2, FixedFrequencies.draws(300, 200));
    assertEquals(1, FixedFrequencies.draws(600, 200));
    assertEquals(6, FixedFrequencies.draws(354, 56), "diabetes at SSGP's default 2m = 112");
    assertEquals(6, FixedFrequencies.draws(4307, 30), "volcano at VSSGP's default 2m = 60");
    assertEquals(1, FixedFrequencies.draws(3791, 214), "college at SSGP's default 2m = 428");
    int m = 4;
    int d = 2;
    double[] p0 =
        FixedFrequencies.initial(m, d, 7, new Ssgp.Hyperparameters(new double[] {1, 2}, 3, 0.5));
    assertArrayEquals(p0, FixedFrequencies.draw(p0, m, d, 7, 0), 0.0);
    double[] a = FixedFrequencies.draw(p0, m, d, 7, 1);
    assertArrayEquals(a, FixedFrequencies.draw(p0, m, d, 7, 1), 0.0);
    assertArrayEquals(
        Arrays.copyOfRange(p0, m * d, p0.length), Arrays.copyOfRange(a, m * d, a.length), 0.0);
    double[] b = FixedFrequencies.draw(p0, m, d, 7, 2);
    double[] c = FixedFrequencies.draw(p0, m, d, 8, 1);
    for (double[] other : new double[][] {p0, b, c}) {
      assertTrue(a[0] != other[0] && a[m * d - 1] != other[m * d - 1]);
    }
  }

  /**
   * The hyperparameter fit at fixed frequencies leaves the frequencies alone, raises the log marginal likelihood
   * and stops where its gradient in (log ℓ, log σ², log σₙ²) is small against the gradient at the start.
   */
  @Test
  void hyperparameterFitReachesAStationaryPointAtTheDraw() {
    RegressionData[] s = data(3, 150, 3, 0.2, 1.5);
    int m = 10;
    int d = 3;
    double[] p0 = FixedFrequencies.initial(m, d, 4, Ssgp.Hyperparameters.fromData(s[0]));
    FixedFrequencies.Fitted f = FixedFrequencies.fit(s[0], m, p0);
    assertArrayEquals(Arrays.copyOf(p0, m * d), Arrays.copyOf(f.p(), m * d), 0.0);
    double[] g0 = new double[p0.length];
    double[] g = new double[p0.length];
    double before = SsgpObjective.negLogMarginal(s[0], m, p0, g0);
    double after = SsgpObjective.negLogMarginal(s[0], m, f.p(), g);
    assertTrue(after < before - 1, "−log p(y) " + before + " -> " + after);
    double n0 = 0;
    double n1 = 0;
    for (int k = m * d; k < p0.length; k++) {
      n0 = Math.max(n0, Math.abs(g0[k]));
      n1 = Math.max(n1, Math.abs(g[k]));
    }
    assertTrue(n1 < 1e-3 * n0, "hyperparameter gradient " + n0 + " -> " + n1);
    assertEquals(BoundMonitor.StopReason.CONVERGED, f.reason());
  }
}
