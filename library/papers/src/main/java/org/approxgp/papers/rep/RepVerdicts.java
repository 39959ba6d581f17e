package org.approxgp.papers.rep;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.approxgp.experiment.Summaries;

/**
 * The paired rule "REP lower than X" that {@link RepFidelity} applies to its comparisons: whether our numbers
 * <b>reproduce</b> a claim, <b>contradict</b> it, or leave it <b>undecided</b>. The REP paper's claims are decided by
 * {@link RepClaims} (one declared test per claim, the shared {@link org.approxgp.papers.Verdict}).
 *
 * <p><b>The rule</b>: over the units (seeds, splits) where both have a value, d = REP − X, its mean d̄ and standard
 * error s = sd/√n. Against every comparator d̄ + 2s &lt; 0: reproduces; against some comparator d̄ − 2s ≥ 0 (REP not
 * lower, including REP identical to X): contradicts; otherwise undecided. With one unit s = 0 and the rule is the
 * sign of d.
 */
public final class RepVerdicts {
  public static final String REPRODUCES = "reproduces";
  public static final String CONTRADICTS = "contradicts";
  public static final String UNDECIDED = "undecided";

  private RepVerdicts() {}

  /** One comparison: mean difference, its standard error, the number of units. */
  record Diff(double mean, double se, int n) {
    String text(String against, double scale) {
      return String.format(
          Locale.ROOT, "%+.3g ± %.2g vs %s (n = %d)", mean * scale, 2 * se * scale, against, n);
    }
  }

  static Diff diff(double[] rep, double[] other) {
    List<Double> d = new ArrayList<>();
    for (int i = 0; i < rep.length; i++) {
      if (Double.isFinite(rep[i]) && Double.isFinite(other[i])) {
        d.add(rep[i] - other[i]);
      }
    }
    double[] v = d.stream().mapToDouble(Double::doubleValue).toArray();
    if (v.length == 0) {
      return new Diff(Double.NaN, Double.NaN, 0);
    }
    double se = v.length < 2 ? 0 : Summaries.sd(v) / Math.sqrt(v.length);
    return new Diff(Summaries.mean(v), se, v.length);
  }

  /** The class comment's rule over the comparators' differences. */
  static String lower(List<Diff> diffs) {
    boolean all = true;
    for (Diff d : diffs) {
      if (d.n() == 0) {
        return UNDECIDED;
      }
      if (d.mean() - 2 * d.se() >= 0) {
        return CONTRADICTS;
      }
      all &= d.mean() + 2 * d.se() < 0;
    }
    return all ? REPRODUCES : UNDECIDED;
  }
}
