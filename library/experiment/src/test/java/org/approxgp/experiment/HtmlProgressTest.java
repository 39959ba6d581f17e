package org.approxgp.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HtmlProgressTest {

  /** Records what a kernel would receive: one show, then updates of the same id. */
  static final class FakeDisplay implements LiveDisplay {
    final List<String> ids = new ArrayList<>();
    final List<String> html = new ArrayList<>();
    final List<String> text = new ArrayList<>();
    int shows;

    @Override
    public boolean active() {
      return true;
    }

    @Override
    public String show(String h, String t) {
      shows++;
      ids.add("id-1");
      html.add(h);
      text.add(t);
      return "id-1";
    }

    @Override
    public void update(String id, String h, String t) {
      ids.add(id);
      html.add(h);
      text.add(t);
    }
  }

  private static final long SECOND = 1_000_000_000L;

  @TempDir
  Path dir;

  @Test
  void oneOutputUpdatedInPlaceAtMostEveryIntervalWithEtaAndFailures() {
    FakeDisplay d = new FakeDisplay();
    AtomicLong now = new AtomicLong(5 * SECOND);
    HtmlProgress p = new HtmlProgress(d, now::get, SECOND);
    p.started("exp <1>", 40, 10);
    assertEquals(
        "exp <1>: 10/40 trials (25%), 10 reused from the results file, elapsed 00:00, ETA ?, 0 failures",
        d.text.get(0));
    for (int done = 11; done <= 40; done++) {
      now.addAndGet(SECOND / 2); // two trials per second
      p.advanced(done, done >= 39 ? done - 38 : 0, 40);
    }
    p.finished(40, 2, 40);
    assertEquals(1, d.shows);
    assertTrue(d.ids.stream().allMatch("id-1"::equals), "every update targets the one output");
    // 30 trials at half a second, redrawn every second (15) plus the forced last-trial draw and the
    // finish
    assertEquals(1 + 15 + 1, d.ids.size(), String.join("\n", d.text));
    assertEquals(
        "exp <1>: 12/40 trials (30%), 10 reused from the results file, elapsed 00:01, ETA 00:14, 0 failures",
        d.text.get(1));
    String last = d.text.get(d.text.size() - 1);
    assertEquals(
        "exp <1>: 40/40 trials (100%), 10 reused from the results file, elapsed 00:15, finished, 2 failures",
        last);
    String html = d.html.get(d.html.size() - 1);
    assertTrue(
        html.contains(
            "data-state=\"finished\" data-done=\"40\" data-total=\"40\" data-failed=\"2\""),
        html);
    assertTrue(html.contains("<b>exp &lt;1&gt;</b>"), "the name is escaped: " + html);
    assertTrue(
        html.contains("width:95.00%") && html.contains("width:5.00%"),
        "38 ok and 2 failed of 40: " + html);
    assertFalse(
        html.contains("<table") || html.contains("<img"), "no table or image: reports count those");
  }

  @Test
  void interruptShowsTheStoredCountAndHowToResume() {
    FakeDisplay d = new FakeDisplay();
    AtomicLong now = new AtomicLong();
    HtmlProgress p = new HtmlProgress(d, now::get, 0);
    p.started("exp", 10, 0);
    now.addAndGet(3 * SECOND);
    p.advanced(3, 0, 10);
    p.interrupted(3, 0, 10);
    assertEquals(
        "exp: 3/10 trials (30%), elapsed 00:03, interrupted: finished trials are stored; rerun the cell to "
            + "resume, 0 failures",
        d.text.get(d.text.size() - 1));
    assertTrue(d.html.get(d.html.size() - 1).contains("data-state=\"interrupted\""));
  }

  /** Collects the listener calls of a run. */
  static final class Calls implements ProgressListener {
    final List<String> log = new ArrayList<>();

    @Override
    public void started(String experiment, int total, int reused) {
      log.add("started " + total + " " + reused);
    }

    @Override
    public void advanced(int done, int failed, int total) {
      log.add("advanced " + done);
      if (done == 3) {
        Thread.currentThread().interrupt(); // as the kernel's interrupt does to the cell's thread
      }
    }

    @Override
    public void finished(int done, int failed, int total) {
      log.add("finished " + done);
    }

    @Override
    public void interrupted(int done, int failed, int total) {
      log.add(
          "interrupted " + done + " interrupt flag " + Thread.currentThread().isInterrupted());
    }
  }

  record Cfg(int n) {}

  @Test
  void runnerReportsAnInterruptAndTheRerunResumesFromTheStore() {
    CountDownLatch never = new CountDownLatch(1);
    List<TrialKey> keys = Experiment.grid(List.of("m"), 6, 1);
    Experiment<Cfg, TrialKey> blocking = Experiment.of("interrupt", new Cfg(6), keys, (c, k) -> {
      if (k.seed() >= 3) {
        never.await(); // trials 3..5 would run forever; the interrupt stops the run instead
      }
      return ResultRow.builder().put("x", (double) k.seed()).build();
    });
    Calls calls = new Calls();
    Runner runner = Runner.defaults().withResultsRoot(dir).withThreads(1);
    IllegalStateException e = assertThrows(
        IllegalStateException.class, () -> runner.withProgress(calls).run(blocking));
    assertTrue(Thread.interrupted(), "the runner leaves the interrupt flag set");
    assertInstanceOf(InterruptedException.class, e.getCause());
    assertEquals(
        List.of(
            "started 6 0",
            "advanced 1",
            "advanced 2",
            "advanced 3",
            "interrupted 3 interrupt flag false"),
        calls.log);

    Experiment<Cfg, TrialKey> quick = Experiment.of(
        "interrupt",
        new Cfg(6),
        keys,
        (c, k) -> ResultRow.builder().put("x", (double) k.seed()).build());
    FakeDisplay d = new FakeDisplay();
    Results<TrialKey> r = runner.withProgress(new HtmlProgress(d, () -> 0L, 0)).run(quick);
    assertEquals(3, r.reused());
    assertEquals(3, r.computed());
    assertTrue(
        d.text.get(0).startsWith("interrupt: 3/6 trials (50%), 3 reused from the results file"),
        d.text.get(0));
    assertTrue(d.text.get(d.text.size() - 1).startsWith("interrupt: 6/6 trials (100%)"));
  }

  @Test
  void automaticFallsBackToTheConsoleOutsideAKernel() {
    assertTrue(LiveDisplay.current().isEmpty(), "no kernel adapter on the test class path");
    assertInstanceOf(ConsoleProgress.class, ProgressListener.automatic());
  }
}
