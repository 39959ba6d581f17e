package org.approxgp.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.approxgp.reliability.ReliabilitySweep;
import org.approxgp.reliability.ReliabilitySweep.CellId;
import org.approxgp.reliability.ReliabilitySweep.FitResult;
import org.approxgp.reliability.ReliabilitySweep.Outcome;

/**
 * The randomized fit sweep of issues 15 and 22 at scale (not a test): {@code N} fits (default 10⁵) spread evenly
 * over every cell of {@link ReliabilitySweep#allCells()} — EP, QP, Laplace, VB, Power EP (u log-uniform in
 * [1e-3, 1]) and Relaxed EP (c log-uniform in [1e-3, 1e3], every objective and site reading) on the probit,
 * Poisson square-link, Gaussian and noisy-step (ε log-uniform in [1e-6, 0.49]) likelihoods, and the five sparse
 * regressors from extreme starting hyperparameters — on all cores, each fit capped at {@code CAP} seconds
 * (default 60). Fit k of a cell is seeded from (cell, k) alone, so the counts do not depend on thread count or
 * scheduling (except for fits near the cap). Prints progress, the summary per (method, likelihood) with the
 * typed-failure kinds and their explanations, the table per data set and per setting (all also written to
 * {@code library/target/reliability-counts.md}, or {@code target/} relative to the working directory when there
 * is no {@code library/}), every NaN/Inf output and uncaught exception with its reproduction, and exits 1 if
 * there was any of those.
 *
 * <p>Run: {@code bin/bench reliability [N] [THREADS] [CAP]}.
 */
public final class ReliabilityBench {
  private ReliabilityBench() {}

  public static void main(String[] args) throws IOException {
    long n = args.length > 0 ? Long.parseLong(args[0]) : 100_000;
    int threads =
        args.length > 1 ? Integer.parseInt(args[1]) : Runtime.getRuntime().availableProcessors();
    double cap =
        args.length > 2 ? Double.parseDouble(args[2]) : ReliabilitySweep.DEFAULT_CAP_SECONDS;
    List<CellId> cells = ReliabilitySweep.allCells();
    System.out.printf(
        Locale.ROOT,
        "reliability: %d fits over %d (method, likelihood) cells, %d threads, %.0f s cap%n",
        n,
        cells.size(),
        threads,
        cap);
    Path dir = Files.isDirectory(Path.of("library"))
        ? Path.of("library", "cli", "target")
        : Path.of("target");
    Files.createDirectories(dir);
    // the tables so far are rewritten at every progress line, so a run cut short still leaves its
    // counts
    ReliabilitySweep.Report r = ReliabilitySweep.sweep(
        cells,
        n,
        threads,
        cap,
        Math.max(1, n / 50),
        System.out::println,
        p -> write(dir, n, p, true));
    String summary = r.summary();
    String table = r.markdown();
    String settings = r.bySetting();
    System.out.println();
    System.out.print(summary);
    System.out.println();
    System.out.print(table);
    System.out.println();
    System.out.print(settings);
    System.out.printf(
        Locale.ROOT,
        "%n%d fits in %.1f s (%.2f ms per fit per thread)%n",
        r.fits(),
        r.seconds(),
        1e3 * r.seconds() * threads / r.fits());
    for (FitResult f : r.failures()) {
      System.out.println("FAILURE " + f.outcome() + " " + f.method() + ": "
          + f.spec().describe() + ": " + f.detail());
    }
    int shown = 0;
    for (FitResult f : r.reported()) {
      if (shown++ < 40 || f.outcome() == Outcome.OVER_CAP) {
        System.out.println("reported " + f.outcome() + " " + f.method() + ": "
            + f.spec().describe() + ": " + f.detail());
      }
    }
    write(dir, n, r, false);
    long bad = r.total(Outcome.NON_FINITE) + r.total(Outcome.UNCAUGHT);
    if (bad > 0) {
      System.out.println(
          "reliability: " + bad + " fits with NaN/Inf outputs or uncaught exceptions");
      System.exit(1);
    }
  }

  private static void write(Path dir, long n, ReliabilitySweep.Report r, boolean partial) {
    String title = "# Randomized fits (bin/bench reliability " + n
        + (partial ? "; partial: " + r.fits() + " fits done" : "") + ")\n\n";
    try {
      Files.writeString(
          dir.resolve("reliability-counts.md"),
          title + "## Per method and likelihood\n\n" + r.summary() + "\n## Per data set\n\n"
              + r.markdown() + "\n## Per setting\n\n" + r.bySetting(),
          StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
