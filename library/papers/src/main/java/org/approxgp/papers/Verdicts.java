package org.approxgp.papers;

import java.util.List;
import java.util.Locale;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * The rules that map stored rows to {@link Verdict}s, shared by the papers' notebooks, and the table and headline
 * made from a list of verdicts.
 */
public final class Verdicts {

  private Verdicts() {}

  /** The rule of {@link #sameMean}, as printed beside each verdict. */
  public static final String SAME_MEAN_RULE =
      "|ours − paper| ≤ 2 se(difference of means): reproduces; beyond: contradicts; se unknown: undecided";

  /**
   * Whether our mean reproduces the paper's: d = ours − paper, its standard error
   * se = √(sd_ours²/n_ours + sd_paper²/n_paper) (two means over independent units), and |d| ≤ 2·se reproduces,
   * |d| &gt; 2·se contradicts (a two-sided test at about 5 %). Undecided when a spread is unknown: fewer than two of
   * our units, or a non-finite sd or mean.
   *
   * @param claim what is claimed, e.g. "Ionosphere, EP, TE ×1e-2"
   * @param unit the unit both spreads are over, e.g. "seed (mean over its 10 folds)"
   * @param ours our mean over {@code oursN} units
   * @param oursSd our sd over units
   * @param oursN our number of units
   * @param paper the paper's mean
   * @param paperSd the paper's sd over its units
   * @param paperN the paper's number of units
   */
  public static Verdict sameMean(
      String claim,
      String unit,
      double ours,
      double oursSd,
      int oursN,
      double paper,
      double paperSd,
      int paperN) {
    double d = ours - paper;
    double se = oursN >= 2 && paperN >= 1 && Double.isFinite(oursSd) && Double.isFinite(paperSd)
        ? Math.sqrt(oursSd * oursSd / oursN + paperSd * paperSd / paperN)
        : Double.NaN;
    Verdict.Outcome o;
    if (!Double.isFinite(d) || !Double.isFinite(se)) {
      o = Verdict.Outcome.UNDECIDED;
    } else {
      o = Math.abs(d) <= 2 * se ? Verdict.Outcome.REPRODUCES : Verdict.Outcome.CONTRADICTS;
    }
    return new Verdict(claim, unit, "ours − paper", d, se, SAME_MEAN_RULE, o);
  }

  /** The rule of {@link #pairedPositive}, as printed beside each verdict. */
  public static final String PAIRED_POSITIVE_RULE =
      "mean paired difference d̄ over units, se = sd/√n: d̄ − 2 se > 0 reproduces; d̄ + 2 se < 0 contradicts; else"
          + " undecided";

  /**
   * Whether paired differences over units (e.g. per split, RMSE of the claimed-worse setting minus the
   * claimed-better one) are positive as claimed: their mean d̄ and its standard error se = sd/√n; d̄ − 2·se &gt; 0
   * reproduces, d̄ + 2·se &lt; 0 contradicts (the opposite is significant), anything between is undecided (equal
   * settings included). Fewer than two units: undecided.
   */
  public static Verdict pairedPositive(
      String claim, String unit, String statistic, double[] differences) {
    double[] ms = meanAndSe(differences);
    double mean = ms[0];
    double se = ms[1];
    Verdict.Outcome o = Verdict.Outcome.UNDECIDED;
    if (Double.isFinite(mean) && Double.isFinite(se)) {
      if (mean - 2 * se > 0) {
        o = Verdict.Outcome.REPRODUCES;
      } else if (mean + 2 * se < 0) {
        o = Verdict.Outcome.CONTRADICTS;
      }
    }
    return new Verdict(claim, unit, statistic, mean, se, PAIRED_POSITIVE_RULE, o);
  }

  /**
   * [mean, standard error of the mean] of {@code x}: the standard error is the sample sd over √n, NaN with fewer
   * than two values; the mean is NaN for none.
   */
  public static double[] meanAndSe(double[] x) {
    int n = x.length;
    double mean = n == 0 ? Double.NaN : java.util.Arrays.stream(x).sum() / n;
    double se = Double.NaN;
    if (n >= 2) {
      double ss = 0;
      for (double v : x) {
        ss += (v - mean) * (v - mean);
      }
      se = Math.sqrt(ss / (n - 1) / n);
    }
    return new double[] {mean, se};
  }

  /** The verdicts as a table: claim, unit, statistic, estimate, noise, outcome (the rule is in the headline). */
  public static Table table(String name, List<Verdict> verdicts) {
    StringColumn claim = StringColumn.create("claim");
    StringColumn unit = StringColumn.create("unit");
    StringColumn stat = StringColumn.create("statistic");
    DoubleColumn est = DoubleColumn.create("estimate");
    DoubleColumn noise = DoubleColumn.create("noise (se)");
    StringColumn out = StringColumn.create("verdict");
    for (Verdict v : verdicts) {
      claim.append(v.claim());
      unit.append(v.unit());
      stat.append(v.statistic());
      est.append(v.estimate());
      noise.append(v.noise());
      out.append(v.outcome().label());
    }
    return Table.create(name, claim, unit, stat, est, noise, out);
  }

  /**
   * "Agreement: R of N claims reproduce, C contradict, U undecided (rule: …)" — the line the report index takes as
   * the notebook's headline ({@code notebooks/kernel/make_index.py}), computed from the same verdicts the tables
   * show. The rule is printed when every verdict has the same one.
   */
  public static String headline(List<Verdict> verdicts) {
    return "Agreement: " + counts(verdicts);
  }

  /** "R of N claims reproduce, C contradict, U undecided (rule: …)": {@link #headline} without its label. */
  public static String counts(List<Verdict> verdicts) {
    long r =
        verdicts.stream().filter(v -> v.outcome() == Verdict.Outcome.REPRODUCES).count();
    long c = verdicts.stream()
        .filter(v -> v.outcome() == Verdict.Outcome.CONTRADICTS)
        .count();
    long u = verdicts.size() - r - c;
    List<String> rules = verdicts.stream().map(Verdict::rule).distinct().toList();
    return String.format(
        Locale.ROOT,
        "%d of %d claims reproduce, %d contradict, %d undecided%s",
        r,
        verdicts.size(),
        c,
        u,
        rules.size() == 1 ? " (rule: " + rules.get(0) + ")" : "");
  }
}
