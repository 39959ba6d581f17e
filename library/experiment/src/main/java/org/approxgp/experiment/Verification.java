package org.approxgp.experiment;

import java.util.List;
import java.util.Locale;

/**
 * Stored rows held to today's code ({@link Runner#verify}): for each recomputed trial, how it stands to its row
 * under the experiment's {@link VerifyRule}.
 *
 * @param experiment the experiment's name
 * @param outcomes one per recomputed trial, in the order drawn
 * @param environment where the stored rows' environment ({@link RunEnvironment}) differs from this process's, one
 *     line per column and distinct value (empty when every checked row was computed in an environment like this)
 */
public record Verification(String experiment, List<Outcome> outcomes, List<String> environment) {

  /** How a recomputed trial stands to its stored row. */
  public enum Kind {
    /** Every compared column equal to the bit. */
    IDENTICAL("identical bits"),
    /**
     * Every compared column within its tolerance ({@link VerifyRule}), some not to the bit; or beyond it but within
     * {@code Runner.MEASURED_ROUNDING_FACTOR} times the trial's measured rounding spread (the outcome's detail says
     * so).
     */
    ROUNDING("within rounding"),
    /**
     * A sensitive trial (named by the experiment's rule, or found by a rerun under a rounding perturbation) whose
     * stable columns agree; its other columns move with rounding and are not held to the row.
     */
    SENSITIVE("sensitive"),
    /**
     * A column beyond its tolerance and beyond {@code Runner.MEASURED_ROUNDING_FACTOR} times what rounding
     * perturbations move it: today's code computes another result.
     */
    DIFFERS("differs");

    private final String label;

    Kind(String label) {
      this.label = label;
    }

    /** E.g. "within rounding". */
    public String label() {
      return label;
    }
  }

  /**
   * One recomputed trial.
   *
   * @param trial the trial id
   * @param storedBy the code version that stored the row
   * @param kind how it stands
   * @param gap the largest relative difference among its compared numbers (0 when identical)
   * @param gapColumn the column of that difference (empty when identical)
   * @param detail for a sensitive or differing trial, why and the first columns that disagree; for a trial within
   *     rounding only by its measured spread ({@link Runner#verify}), that spread; else empty
   */
  public record Outcome(
      String trial, String storedBy, Kind kind, double gap, String gapColumn, String detail) {}

  public Verification {
    outcomes = List.copyOf(outcomes);
    environment = List.copyOf(environment);
  }

  /** The trial ids recomputed. */
  public List<String> checked() {
    return outcomes.stream().map(Outcome::trial).toList();
  }

  /** One line per trial that differs: its id, the code version that stored it and the first differing columns. */
  public List<String> differences() {
    return outcomes.stream()
        .filter(o -> o.kind() == Kind.DIFFERS)
        .map(o -> o.trial() + " (stored by " + o.storedBy() + "): " + o.detail())
        .toList();
  }

  /** The number of recomputed trials of {@code kind}. */
  public long count(Kind kind) {
    return outcomes.stream().filter(o -> o.kind() == kind).count();
  }

  /** Whether no recomputed trial differs (identical, within rounding or sensitive with its stable columns equal). */
  public boolean passed() {
    return count(Kind.DIFFERS) == 0;
  }

  /**
   * One line: "verified 5/5 (2 identical bits, 3 within rounding, largest relative difference 3.1e-14 in te; 0
   * sensitive)", with "; N differ" when some do.
   */
  public String summary() {
    int n = outcomes.size();
    StringBuilder s = new StringBuilder(String.format(
        Locale.ROOT,
        "verified %d/%d (%d identical bits, %d within" + " rounding",
        n - count(Kind.DIFFERS),
        n,
        count(Kind.IDENTICAL),
        count(Kind.ROUNDING)));
    outcomes.stream()
        .filter(o -> o.kind() == Kind.ROUNDING)
        .max((a, b) -> Double.compare(a.gap(), b.gap()))
        .ifPresent(o -> s.append(String.format(
            Locale.ROOT, ", largest relative difference %.2g in %s", o.gap(), o.gapColumn())));
    s.append(String.format(Locale.ROOT, "; %d sensitive", count(Kind.SENSITIVE)));
    if (count(Kind.DIFFERS) > 0) {
      s.append(String.format(Locale.ROOT, "; %d differ", count(Kind.DIFFERS)));
    }
    s.append(')');
    return s.toString();
  }

  /** {@link #summary}, then one line per sensitive and per differing trial, then the environment lines. */
  public String report() {
    StringBuilder s = new StringBuilder(summary());
    for (Outcome o : outcomes) {
      if (o.kind() == Kind.SENSITIVE || o.kind() == Kind.DIFFERS || !o.detail().isEmpty()) {
        s.append("\n  ")
            .append(o.kind().label())
            .append(": ")
            .append(o.trial())
            .append(" (stored by ")
            .append(o.storedBy())
            .append("): ")
            .append(o.detail());
      }
    }
    for (String e : environment) {
      s.append("\n  environment: ").append(e);
    }
    return s.toString();
  }
}
