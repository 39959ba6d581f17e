package org.approxgp.experiment;

import java.util.Locale;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * Progress as one notebook output re-rendered in place (see {@link LiveDisplay}): a bar, trials
 * done/total, how many were reused from the results file, elapsed time, ETA and failures. The output is
 * shown when the run starts and replaced at most every {@code minIntervalNanos} (and always on the last
 * trial, at the end, and on interrupt), so a long cell shows one live line, not a stream of stderr
 * lines. ETA = elapsed time per trial computed in this run × trials left, as in {@link ConsoleProgress}.
 * The HTML is plain {@code div}s with inline styles (no table, no image), so exported reports keep the
 * final state and their table/figure counts are unchanged.
 */
public final class HtmlProgress implements ProgressListener {

  /** Default redraw interval: four times a second. */
  public static final long DEFAULT_INTERVAL_NANOS = 250_000_000L;

  enum State {
    RUNNING,
    FINISHED,
    INTERRUPTED
  }

  private final LiveDisplay display;
  private final LongSupplier nanoClock;
  private final long minIntervalNanos;
  private String id;
  private String name = "";
  private long startNanos;
  private long lastDraw;
  private int reused;

  public HtmlProgress(LiveDisplay display, LongSupplier nanoClock, long minIntervalNanos) {
    this.display = Objects.requireNonNull(display, "display");
    this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
    if (minIntervalNanos < 0) {
      throw new IllegalArgumentException("minIntervalNanos must be >= 0");
    }
    this.minIntervalNanos = minIntervalNanos;
  }

  public HtmlProgress(LiveDisplay display) {
    this(display, System::nanoTime, DEFAULT_INTERVAL_NANOS);
  }

  @Override
  public void started(String experiment, int total, int reused) {
    this.name = experiment;
    this.reused = reused;
    this.startNanos = nanoClock.getAsLong();
    this.lastDraw = startNanos;
    this.id = display.show(
        html(State.RUNNING, reused, 0, total, startNanos),
        text(State.RUNNING, reused, 0, total, startNanos));
  }

  @Override
  public void advanced(int done, int failed, int total) {
    long now = nanoClock.getAsLong();
    if (now - lastDraw >= minIntervalNanos || done == total) {
      lastDraw = now;
      draw(State.RUNNING, done, failed, total, now);
    }
  }

  @Override
  public void finished(int done, int failed, int total) {
    draw(State.FINISHED, done, failed, total, nanoClock.getAsLong());
  }

  @Override
  public void interrupted(int done, int failed, int total) {
    draw(State.INTERRUPTED, done, failed, total, nanoClock.getAsLong());
  }

  private void draw(State state, int done, int failed, int total, long now) {
    if (id != null) {
      display.update(
          id, html(state, done, failed, total, now), text(state, done, failed, total, now));
    }
  }

  /** The plain-text alternative, e.g. {@code qp-table1: 12/40 trials (30%), 4 reused, elapsed 00:10, ETA 00:35}. */
  String text(State state, int done, int failed, int total, long now) {
    return name + ": " + summary(state, done, failed, total, now);
  }

  private String summary(State state, int done, int failed, int total, long now) {
    double elapsed = (now - startNanos) / 1e9;
    int computed = done - reused;
    StringBuilder s = new StringBuilder(String.format(
        Locale.ROOT,
        "%d/%d trials (%.0f%%)",
        done,
        total,
        total == 0 ? 100.0 : 100.0 * done / total));
    if (reused > 0) {
      s.append(", ").append(reused).append(" reused from the results file");
    }
    s.append(", elapsed ").append(ConsoleProgress.clock(elapsed));
    switch (state) {
      case RUNNING ->
        s.append(", ETA ")
            .append(
                computed <= 0 ? "?" : ConsoleProgress.clock(elapsed / computed * (total - done)));
      case FINISHED -> s.append(", finished");
      case INTERRUPTED ->
        s.append(", interrupted: finished trials are stored; rerun the cell to resume");
      default -> throw new AssertionError(state);
    }
    s.append(", ").append(failed).append(failed == 1 ? " failure" : " failures");
    return s.toString();
  }

  /** The HTML: a 24em bar (green running/finished, orange interrupted, red part for failures) and the summary. */
  String html(State state, int done, int failed, int total, long now) {
    double ok = total == 0 ? 1.0 : (double) (done - failed) / total;
    double bad = total == 0 ? 0.0 : (double) failed / total;
    String colour = state == State.INTERRUPTED ? "#e69f00" : "#2e8b57";
    return String.format(
        Locale.ROOT,
        "<div class=\"approxgp-progress\" data-state=\"%s\" data-done=\"%d\" data-total=\"%d\" data-failed=\"%d\""
            + " style=\"font-family:monospace;font-size:13px;margin:2px 0\">"
            + "<div style=\"display:inline-block;vertical-align:middle;width:24em;height:0.9em;"
            + "background:#e6e6e6;border:1px solid #999;margin-right:0.6em\">"
            + "<div style=\"float:left;height:100%%;width:%.2f%%;background:%s\"></div>"
            + "<div style=\"float:left;height:100%%;width:%.2f%%;background:#d55e00\"></div></div>"
            + "<b>%s</b>: %s</div>",
        state.name().toLowerCase(Locale.ROOT),
        done,
        total,
        failed,
        100 * ok,
        colour,
        100 * bad,
        escape(name),
        escape(summary(state, done, failed, total, now)));
  }

  static String escape(String s) {
    return s.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
