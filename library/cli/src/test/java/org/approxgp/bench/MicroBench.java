package org.approxgp.bench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Benchmark (not a test): the JMH micro-benchmarks of {@code org.approxgp.bench.jmh} ({@code SmallLinalg}: dense
 * operations at small n per backend; {@code SiteProjections}: one site's projection per method), run by JMH's
 * runner with its forks, warm-up and measurement iterations, then summarised side by side: native/ejml time per
 * operation and size, and each site projection's time over EP's closed-form probit projection.
 *
 * <p>Run: {@code bin/bench micro [JMH options]} — any of JMH's own, e.g. a benchmark regex ({@code SiteProjections}),
 * {@code -p n=16,32}, {@code -wi 1 -i 2 -f 1} for a quick look, {@code -jvmArgs -Dapproxgp.linalg.crossover=0}.
 */
public final class MicroBench {

  private MicroBench() {}

  public static void main(String[] args) throws RunnerException {
    CommandLineOptions cmd;
    try {
      cmd = new CommandLineOptions(args);
    } catch (CommandLineOptionException e) {
      System.err.println("bench micro: " + e.getMessage());
      System.exit(2);
      return;
    }
    OptionsBuilder b = new OptionsBuilder();
    b.parent(cmd);
    if (cmd.getIncludes().isEmpty()) {
      b.include("org\\.approxgp\\.bench\\.jmh\\..*");
    }
    Collection<RunResult> results = new Runner(b.build()).run();
    System.out.println();
    printLinalg(results);
    printSites(results);
  }

  /** native/ejml per (operation, n), when both backends ran. */
  static void printLinalg(Collection<RunResult> results) {
    Map<String, Map<String, Result<?>>> cells = new TreeMap<>();
    for (RunResult r : results) {
      String name = r.getParams().getBenchmark();
      if (!name.contains(".SmallLinalg.")) {
        continue;
      }
      String op = name.substring(name.lastIndexOf('.') + 1);
      int n = Integer.parseInt(r.getParams().getParam("n"));
      String key = String.format(Locale.ROOT, "%-9s %4d", op, n);
      cells
          .computeIfAbsent(key, k -> new LinkedHashMap<>())
          .put(r.getParams().getParam("backend"), r.getPrimaryResult());
    }
    if (cells.isEmpty()) {
      return;
    }
    System.out.println(
        "small dense operations, microseconds per call (JMH mean ± 99.9 % half-width), side by side:");
    System.out.printf(
        Locale.ROOT, "%-9s %4s %18s %18s %s%n", "op", "n", "ejml", "native", "native/ejml");
    for (Map.Entry<String, Map<String, Result<?>>> e : cells.entrySet()) {
      Result<?> j = e.getValue().get("ejml");
      Result<?> nat = e.getValue().get("native");
      System.out.printf(
          Locale.ROOT,
          "%s %18s %18s %s%n",
          e.getKey(),
          cell(j),
          cell(nat),
          j != null && nat != null
              ? String.format(Locale.ROOT, "%.2f", nat.getScore() / j.getScore())
              : "-");
    }
    System.out.println();
  }

  /** Each site projection's time per site over EP's closed-form probit projection. */
  static void printSites(Collection<RunResult> results) {
    Map<String, Result<?>> rows = new LinkedHashMap<>();
    for (RunResult r : results) {
      String name = r.getParams().getBenchmark();
      if (name.contains(".SiteProjections.")) {
        rows.put(name.substring(name.lastIndexOf('.') + 1), r.getPrimaryResult());
      }
    }
    if (rows.isEmpty()) {
      return;
    }
    Result<?> base = rows.get("epProbit");
    System.out.println(
        "one site's projection, nanoseconds per site, and the ratio to EP's probit site:");
    List<String> names = new ArrayList<>(rows.keySet());
    for (String name : names) {
      Result<?> r = rows.get(name);
      System.out.printf(
          Locale.ROOT,
          "%-18s %18s %s%n",
          name,
          cell(r),
          base == null ? "-" : String.format(Locale.ROOT, "%.1f", r.getScore() / base.getScore()));
    }
  }

  private static String cell(Result<?> r) {
    if (r == null) {
      return "-";
    }
    double err = r.getScoreError();
    return Double.isNaN(err)
        ? String.format(Locale.ROOT, "%.3g", r.getScore())
        : String.format(Locale.ROOT, "%.3g ± %.2g", r.getScore(), err);
  }
}
