package org.approxgp.experiment;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Progress on a text stream (stderr by default). On an interactive terminal it redraws one bar
 * line with {@code \r} (at most ten times a second); elsewhere — a notebook cell, a CI log — it
 * prints a plain line at start, at each 10% step and at the end, so the output stays short.
 * ETA = elapsed time per trial computed in this run × trials left. Numbers are formatted with
 * {@link Locale#ROOT}, whatever the default locale.
 */
public final class ConsoleProgress implements ProgressListener {

  private static final int BAR_WIDTH = 30;
  private static final long REDRAW_NANOS = 100_000_000L;

  private final PrintStream out;
  private final boolean interactive;
  private final LongSupplier nanoClock;
  private String name = "";
  private long startNanos;
  private long lastDraw;
  private int reused;
  private int lastDecile = -1;

  public ConsoleProgress(PrintStream out, boolean interactive, LongSupplier nanoClock) {
    this.out = out;
    this.interactive = interactive;
    this.nanoClock = nanoClock;
  }

  /** stderr; interactive only when the JVM has a console (not in a notebook kernel or CI). */
  public static ConsoleProgress stderr() {
    return new ConsoleProgress(System.err, System.console() != null, System::nanoTime);
  }

  @Override
  public void started(String experiment, int total, int reused) {
    this.name = experiment;
    this.reused = reused;
    this.startNanos = nanoClock.getAsLong();
    this.lastDraw = Long.MIN_VALUE;
    // one println per line: notebook kernels turn every separate write into a separate output chunk
    out.println(String.format(
        Locale.ROOT,
        "%s: %d trials, %d already in the results file, %d to run",
        experiment,
        total,
        reused,
        total - reused));
    out.flush();
  }

  @Override
  public void advanced(int done, int failed, int total) {
    long now = nanoClock.getAsLong();
    if (interactive) {
      if (now - lastDraw >= REDRAW_NANOS || done == total) {
        lastDraw = now;
        out.print("\r" + line(done, failed, total, now));
        out.flush();
      }
    } else {
      int decile = total == 0 ? 10 : (int) (10L * done / total);
      if (decile > lastDecile) {
        lastDecile = decile;
        out.println(line(done, failed, total, now));
        out.flush();
      }
    }
  }

  @Override
  public void finished(int done, int failed, int total) {
    long now = nanoClock.getAsLong();
    if (interactive) {
      out.println();
    }
    out.println(String.format(
        Locale.ROOT,
        "%s: finished %d/%d trials (%d failed) in %s",
        name,
        done,
        total,
        failed,
        clock((now - startNanos) / 1e9)));
    out.flush();
  }

  @Override
  public void interrupted(int done, int failed, int total) {
    if (interactive) {
      out.println();
    }
    out.println(String.format(
        Locale.ROOT,
        "%s: interrupted after %d/%d trials (%d failed); finished trials are stored,"
            + " rerun to resume",
        name,
        done,
        total,
        failed));
    out.flush();
  }

  String line(int done, int failed, int total, long now) {
    double frac = total == 0 ? 1.0 : (double) done / total;
    int filled = (int) Math.round(frac * BAR_WIDTH);
    double elapsed = (now - startNanos) / 1e9;
    int computed = done - reused;
    String eta = computed <= 0 ? "?" : clock(elapsed / computed * (total - done));
    return String.format(
        Locale.ROOT,
        "%s [%s%s] %d/%d %3.0f%% elapsed %s ETA %s%s",
        name,
        "#".repeat(filled),
        ".".repeat(BAR_WIDTH - filled),
        done,
        total,
        100 * frac,
        clock(elapsed),
        eta,
        failed > 0 ? " (" + failed + " failed)" : "");
  }

  static String clock(double seconds) {
    long s = Math.round(seconds);
    return s >= 3600
        ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, (s / 60) % 60, s % 60)
        : String.format(Locale.ROOT, "%02d:%02d", s / 60, s % 60);
  }
}
