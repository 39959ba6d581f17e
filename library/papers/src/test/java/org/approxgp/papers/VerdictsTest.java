package org.approxgp.papers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The shared verdict rules on constructed numbers. */
class VerdictsTest {

  @Test
  void pairedDifferencesReproduceContradictOrLeaveUndecided() {
    assertEquals(
        Verdict.Outcome.REPRODUCES,
        Verdicts.pairedPositive("c", "split", "d", new double[] {1.0, 1.2, 0.9, 1.1})
            .outcome());
    assertEquals(
        Verdict.Outcome.CONTRADICTS,
        Verdicts.pairedPositive("c", "split", "d", new double[] {-1.0, -1.2, -0.9, -1.1})
            .outcome());
    // equal settings (the r = 1, 5, 20 at one RMSE): no difference to decide on
    assertEquals(
        Verdict.Outcome.UNDECIDED,
        Verdicts.pairedPositive("c", "split", "d", new double[] {0, 0, 0}).outcome());
    assertEquals(
        Verdict.Outcome.UNDECIDED,
        Verdicts.pairedPositive("c", "split", "d", new double[] {1.0, -1.0, 0.5, -0.4})
            .outcome());
    assertEquals(
        Verdict.Outcome.UNDECIDED,
        Verdicts.pairedPositive("c", "split", "d", new double[] {5.0}).outcome(),
        "one unit: no noise");
    Verdict v = Verdicts.pairedPositive("c", "split", "d", new double[] {1, 3});
    assertEquals(2.0, v.estimate(), 0);
    assertEquals(1.0, v.noise(), 1e-15, "sd √2 over √2 units");
  }

  @Test
  void sameMeanUsesTheStandardErrorOfTheDifferenceOfMeans() {
    Verdict v = Verdicts.sameMean("c", "seed", 10.3, 1.0, 100, 10.0, 1.0, 100);
    assertEquals(Math.sqrt(0.02), v.noise(), 1e-15);
    assertEquals(Verdict.Outcome.CONTRADICTS, v.outcome(), "0.3 > 2·0.141");
    assertEquals(
        Verdict.Outcome.REPRODUCES,
        Verdicts.sameMean("c", "seed", 10.2, 1.0, 100, 10.0, 1.0, 100).outcome());
    assertEquals(
        Verdict.Outcome.UNDECIDED,
        Verdicts.sameMean("c", "seed", 10.2, Double.NaN, 1, 10.0, 1.0, 100).outcome());
  }

  @Test
  void theHeadlineCountsEachOutcome() {
    List<Verdict> v = List.of(
        Verdicts.sameMean("a", "seed", 10.0, 1.0, 100, 10.0, 1.0, 100),
        Verdicts.sameMean("b", "seed", 20.0, 1.0, 100, 10.0, 1.0, 100),
        Verdicts.sameMean("c", "seed", 20.0, Double.NaN, 1, 10.0, 1.0, 100));
    assertEquals(
        "Agreement: 1 of 3 claims reproduce, 1 contradict, 1 undecided (rule: "
            + Verdicts.SAME_MEAN_RULE + ")",
        Verdicts.headline(v));
  }
}
