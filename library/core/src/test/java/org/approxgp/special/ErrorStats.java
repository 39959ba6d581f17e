package org.approxgp.special;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Max and RMS of an error measure over a table, with the point of the maximum, each checked against its
 * budget. The RMS budgets are set from the measured RMS with headroom of about 2–5× (the tables are fixed
 * and the code deterministic, so the headroom covers only platform differences in Math's last bit), and
 * never above the max budget. Both budgets must be finite: a statistic that cannot fail is not a check.
 */
final class ErrorStats {
  private final String name;
  private final double budget;
  private final double rmsBudget;
  private int n;
  private double max;
  private double sumSq;
  private String worst = "";

  ErrorStats(String name, double budget, double rmsBudget) {
    if (!(Double.isFinite(budget) && Double.isFinite(rmsBudget))) {
      throw new IllegalArgumentException(
          name + ": budgets must be finite, got " + budget + " and " + rmsBudget);
    }
    if (!(rmsBudget <= budget)) {
      throw new IllegalArgumentException(
          name + ": RMS budget " + rmsBudget + " above the max budget " + budget);
    }
    this.name = name;
    this.budget = budget;
    this.rmsBudget = rmsBudget;
  }

  void add(double err, Object where) {
    n++;
    if (!(err <= max)) { // also catches NaN
      max = Double.isNaN(err) ? Double.POSITIVE_INFINITY : err;
      worst = String.valueOf(where);
    }
    sumSq += Double.isFinite(err) ? err * err : 0.0;
  }

  int count() {
    return n;
  }

  double max() {
    return max;
  }

  double rms() {
    return n == 0 ? 0.0 : Math.sqrt(sumSq / n);
  }

  /** Prints the summary line (collected into the accuracy report) and asserts max ≤ budget, RMS ≤ RMS budget. */
  void check() {
    final String line = String.format(
        "ACCURACY %-34s points=%5d budget=%.1e max=%.3e rms budget=%.1e rms=%.3e worst=[%s]",
        name, n, budget, max, rmsBudget, rms(), worst);
    System.out.println(line);
    assertTrue(n > 0, name + ": no points");
    assertTrue(max <= budget, line);
    assertTrue(rms() <= rmsBudget, line);
  }
}
