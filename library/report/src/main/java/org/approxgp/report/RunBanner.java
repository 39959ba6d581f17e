package org.approxgp.report;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.approxgp.experiment.Experiment;
import org.approxgp.experiment.ProjectPaths;
import org.approxgp.experiment.TrialKeys;

/**
 * The line at the top of every report: the run mode, how many trials, the scale of each experiment as the
 * distinct values of its trial keys (e.g. {@code 7 dataset × 3 method × 10 seed × 10 fold}) and the date, so that
 * a reader knows at once whether the numbers below are a smoke test, a quick look or the paper's full scale.
 *
 * @param mode smoke, quick or full
 * @param trials trials of all the experiments together
 * @param scales one entry per experiment: its name and the distinct-value counts of its key columns
 * @param date the day the report was made (UTC)
 */
public record RunBanner(ProjectPaths.Mode mode, int trials, List<String> scales, LocalDate date) {

  public RunBanner {
    scales = List.copyOf(scales);
  }

  /** The banner for the notebook's experiments at the current mode, dated today (UTC). */
  public static RunBanner of(Experiment<?, ?>... experiments) {
    return of(ProjectPaths.mode(), LocalDate.now(ZoneOffset.UTC), experiments);
  }

  /** The banner for {@code experiments} at {@code mode} and {@code date}. */
  public static RunBanner of(
      ProjectPaths.Mode mode, LocalDate date, Experiment<?, ?>... experiments) {
    int trials = 0;
    List<String> scales = new ArrayList<>();
    for (Experiment<?, ?> e : experiments) {
      trials += e.trials().size();
      int t = e.trials().size();
      scales.add(e.name() + ": " + t + " trial" + (t == 1 ? "" : "s") + scale(e));
    }
    return new RunBanner(mode, trials, scales, date);
  }

  /**
   * The trial list's shape, computed from its keys: " (5 dataset × 2 method × …)" when the trials are every
   * combination of their key columns' values (columns with one value left out). Otherwise the columns that do
   * combine with all the rest are factored out and the others counted together, e.g. " (3 seed × 40 combinations
   * of figure, dataset, method)" — the numbers always multiply to the trial count.
   */
  static String scale(List<Map<String, Object>> keys) {
    Map<String, Set<Object>> distinct = new LinkedHashMap<>();
    for (Map<String, Object> k : keys) {
      k.forEach(
          (c, v) -> distinct.computeIfAbsent(c, x -> new LinkedHashSet<>()).add(v));
    }
    List<String> rest = new ArrayList<>();
    distinct.forEach((c, v) -> {
      if (v.size() > 1) {
        rest.add(c);
      }
    });
    List<String> parts = new ArrayList<>();
    boolean factored = true;
    while (factored && !rest.isEmpty()) {
      factored = false;
      for (String c : rest) {
        List<String> others = new ArrayList<>(rest);
        others.remove(c);
        if (combinations(keys, rest)
            == combinations(keys, others) * distinct.get(c).size()) {
          parts.add(distinct.get(c).size() + " " + c);
          rest.remove(c);
          factored = true;
          break;
        }
      }
    }
    if (!rest.isEmpty()) {
      parts.add(combinations(keys, rest) + " combinations of " + String.join(", ", rest));
    }
    return parts.isEmpty() ? "" : " (" + String.join(" × ", parts) + ")";
  }

  private static String scale(Experiment<?, ?> e) {
    List<Map<String, Object>> keys = new ArrayList<>();
    for (Record k : e.trials()) {
      keys.add(TrialKeys.values(k));
    }
    return scale(keys);
  }

  /** Distinct value tuples of {@code columns} among {@code keys}. */
  private static int combinations(List<Map<String, Object>> keys, List<String> columns) {
    Set<List<Object>> seen = new java.util.HashSet<>();
    for (Map<String, Object> k : keys) {
      List<Object> t = new ArrayList<>(columns.size());
      for (String c : columns) {
        t.add(k.get(c));
      }
      seen.add(t);
    }
    return seen.size();
  }

  /**
   * One line: {@code Run mode: quick · 40 trials · qp-table1: 40 trials (…) · 2026-11-26}, or
   * {@code Run mode: quick · 2026-11-26} for a notebook without experiments.
   */
  public String text() {
    String head = "Run mode: " + mode.name().toLowerCase(java.util.Locale.ROOT);
    if (scales.isEmpty()) {
      return head + " · " + date;
    }
    return head + " · " + trials + " trial" + (trials == 1 ? "" : "s") + " · "
        + String.join(" · ", scales) + " · " + date;
  }

  /**
   * The line as a one-cell table of class "approxgp", as every table of the display layer, with only tags that
   * survive Jupyter's HTML sanitiser (table, tr, td, b). Nothing in it needs escaping: experiment names match
   * {@code [A-Za-z0-9._-]+}, key columns are Java identifiers.
   */
  public String html() {
    String head = "Run mode: " + mode.name().toLowerCase(java.util.Locale.ROOT);
    return "<table class=\"approxgp\"><tr><td><b>" + head + "</b>" + text().substring(head.length())
        + "</td></tr></table>";
  }

  @Override
  public String toString() {
    return text();
  }
}
