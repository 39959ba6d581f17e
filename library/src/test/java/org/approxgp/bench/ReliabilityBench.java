package org.approxgp.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.approxgp.model.Methods;
import org.approxgp.reliability.ReliabilitySweep;
import org.approxgp.reliability.ReliabilitySweep.FitResult;
import org.approxgp.reliability.ReliabilitySweep.Outcome;

/**
 * The randomized fixed-θ fit sweep of issue 15 at scale (not a test): {@code N} fits (default 10⁵)
 * spread evenly over every (method, likelihood) of {@link ReliabilitySweep}, on all cores. Fit k of a
 * likelihood is {@link ReliabilitySweep#spec}(likelihood, k), seeded from k alone, so the counts do
 * not depend on thread count or scheduling. Prints progress, the count table (also written to
 * {@code library/target/reliability-counts.md}, or {@code target/} relative to the working directory
 * when there is no {@code library/}), every NaN/Inf output and uncaught exception with its
 * reproduction, and exits 1 if there was any of those.
 *
 * <p>Run: {@code bin/bench reliability [N] [THREADS]}.
 */
public final class ReliabilityBench {
  private ReliabilityBench() {}

  public static void main(String[] args) throws IOException {
    long n = args.length > 0 ? Long.parseLong(args[0]) : 100_000;
    int threads = args.length > 1 ? Integer.parseInt(args[1]) : Runtime.getRuntime().availableProcessors();
    int cells = Methods.names().size() * ReliabilitySweep.LIKELIHOODS.size();
    int perCell = (int) ((n + cells - 1) / cells);
    System.out.printf(Locale.ROOT, "reliability: %d fits = %d per (method, likelihood) x %d, %d threads%n",
        (long) perCell * cells, perCell, cells, threads);
    ReliabilitySweep.Report r = ReliabilitySweep.sweep(Methods.names(), ReliabilitySweep.LIKELIHOODS, perCell,
        threads, Math.max(1, (long) perCell * cells / 50), System.out::println);
    String table = r.markdown();
    System.out.println();
    System.out.print(table);
    System.out.printf(Locale.ROOT, "%n%d fits in %.1f s (%.2f ms per fit per thread)%n", r.fits(), r.seconds(),
        1e3 * r.seconds() * threads / r.fits());
    for (FitResult f : r.failures()) {
      System.out.println("FAILURE " + f.outcome() + " " + f.method() + ": " + f.spec().describe() + ": " + f.detail());
    }
    int shown = 0;
    for (FitResult f : r.reported()) {
      if (shown++ < 20) {
        System.out.println("reported " + f.outcome() + " " + f.method() + ": " + f.spec().describe() + ": "
            + f.detail());
      }
    }
    Path dir = Files.isDirectory(Path.of("library")) ? Path.of("library", "target") : Path.of("target");
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("reliability-counts.md"), "# Randomized fixed-θ fits (bin/bench reliability "
        + n + ")\n\n" + table, StandardCharsets.UTF_8);
    long bad = r.total(Outcome.NON_FINITE) + r.total(Outcome.UNCAUGHT);
    if (bad > 0) {
      System.out.println("reliability: " + bad + " fits with NaN/Inf outputs or uncaught exceptions");
      System.exit(1);
    }
  }
}
