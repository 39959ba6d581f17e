package org.approxgp.papers;

import java.util.Locale;
import java.util.Objects;

/**
 * One claim of a paper tested on stored rows: what is compared, over which unit, by which statistic with which
 * noise, and the outcome of the rule that maps them to reproduces / contradicts / undecided. Notebooks print
 * verdicts and the headline computed from them ({@link Verdicts#headline}); their markdown states the claim and the
 * test, never the number or the outcome.
 *
 * @param claim what the paper claims, e.g. "Table 1, Ionosphere, EP: TE"
 * @param unit what one observation is, e.g. "seed (mean over 10 folds)"
 * @param statistic what is compared, e.g. "ours − paper, mean TE ×1e-2"
 * @param estimate the statistic's value
 * @param noise its noise as the rule uses it (e.g. the standard error of a difference of means); NaN when unknown
 * @param rule the rule, e.g. "|d| ≤ 2 se: reproduces; else contradicts; se unknown: undecided"
 * @param outcome the rule's outcome
 */
public record Verdict(
    String claim,
    String unit,
    String statistic,
    double estimate,
    double noise,
    String rule,
    Outcome outcome) {

  /** The outcome of a claim's test. */
  public enum Outcome {
    /** The rows reproduce the claim. */
    REPRODUCES("reproduces"),
    /** The rows contradict it. */
    CONTRADICTS("contradicts"),
    /** The rows cannot decide it (too few units, noise unknown, or the difference within the noise either way). */
    UNDECIDED("undecided");

    private final String label;

    Outcome(String label) {
      this.label = label;
    }

    /** "reproduces", "contradicts" or "undecided". */
    public String label() {
      return label;
    }
  }

  public Verdict {
    Objects.requireNonNull(claim, "claim");
    Objects.requireNonNull(unit, "unit");
    Objects.requireNonNull(statistic, "statistic");
    Objects.requireNonNull(rule, "rule");
    Objects.requireNonNull(outcome, "outcome");
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "%s: %s (%s = %.4g, noise %.4g; %s)",
        claim,
        outcome.label(),
        statistic,
        estimate,
        noise,
        rule);
  }
}
