package org.approxgp.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.approxgp.experiment.ComparableRows;
import org.approxgp.experiment.Results;
import org.approxgp.papers.qp.QpMining;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kill and resume (issue 15): a real experiment runs in a child JVM that is killed with SIGKILL
 * ({@link Process#destroyForcibly()} on Linux) at {@value #KILLS} seeded random moments, resumed each
 * time, and finally run to completion. The resumed results must equal an uninterrupted run's to the
 * last bit (every value of every row but the wall-clock timings, see {@link ComparableRows}), and the
 * results file must hold each trial exactly once, every line complete.
 */
class KillAndResumeTest {
  static final int KILLS = 20;
  static final long SEED = 20261123L;

  @TempDir
  Path tmp;

  /** Starts the child on {@code root}; its stderr goes to a log file, its stdout is read by the test. */
  private Process start(Path root, int threads, Path log) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder pb = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
        KillResumeChild.class.getName(), root.toString(), Integer.toString(threads));
    pb.redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
    return pb.start();
  }

  /** Blocks until the child says its trials start (true) or its stdout ends first (false). */
  private static boolean awaitStarted(Process p) throws IOException {
    java.io.BufferedReader r = new java.io.BufferedReader(
        new java.io.InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    for (String line = r.readLine(); line != null; line = r.readLine()) {
      if (line.equals(KillResumeChild.STARTED)) {
        return true;
      }
    }
    return false;
  }

  private static int finish(Process p) throws InterruptedException {
    if (!p.waitFor(10, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("child did not finish in 10 minutes");
    }
    return p.exitValue();
  }

  /** Lines of the experiment's results file(s) under {@code root}. */
  private static List<String> resultLines(Path root) throws IOException {
    List<String> lines = new ArrayList<>();
    try (Stream<Path> s = Files.walk(root)) {
      for (Path f : s.filter(p -> p.toString().endsWith(".jsonl")).toList()) {
        String text = Files.readString(f, StandardCharsets.UTF_8);
        assertTrue(text.isEmpty() || text.endsWith("\n"), f + " ends in a torn line");
        text.lines().filter(l -> !l.isBlank()).forEach(lines::add);
      }
    }
    return lines;
  }

  @Test
  void killedRunsResumeToTheUninterruptedResultBitForBit() throws Exception {
    Path log = tmp.resolve("children.log");
    // the reference: one uninterrupted run
    Path clean = tmp.resolve("clean");
    Process first = start(clean, 2, log);
    assertTrue(awaitStarted(first), () -> "uninterrupted child did not start; see " + log);
    long t0 = System.nanoTime();
    assertEquals(0, finish(first), () -> "uninterrupted child failed; see " + log);
    long runMs = (System.nanoTime() - t0) / 1_000_000; // the trials' time, without JVM start-up

    Path killed = tmp.resolve("killed");
    SplittableRandom rng = new SplittableRandom(SEED);
    int killedMidRun = 0;
    List<Integer> storedAfterKill = new ArrayList<>();
    for (int k = 0; k < KILLS; k++) {
      Process p = start(killed, 2, log);
      // a moment after the trials start, up to a quarter of the uninterrupted run's trial time: on a
      // fast or a busy machine alike, a killed run has finished a few trials or none (the first trials
      // of every JVM are slow), and the kills spread over the whole experiment
      long delayMs = rng.nextLong(Math.max(1, runMs / 4));
      assertTrue(awaitStarted(p), () -> "child did not start; see " + log);
      boolean exited = p.waitFor(delayMs, TimeUnit.MILLISECONDS);
      if (!exited) {
        p.destroyForcibly();
        p.waitFor(1, TimeUnit.MINUTES);
        killedMidRun++;
      } else {
        assertEquals(0, p.exitValue(), () -> "child failed; see " + log);
      }
      storedAfterKill.add(Files.exists(killed) ? resultLines(killed).size() : 0);
    }
    assertEquals(0, finish(start(killed, 2, log)), () -> "resuming child failed; see " + log);

    // no duplicate and no torn rows: each trial exactly once
    List<String> lines = resultLines(killed);
    Map<String, Integer> count = new HashMap<>();
    for (String l : lines) {
      assertTrue(l.startsWith("{") && l.endsWith("}"), "incomplete line: " + l);
      String id = l.substring(l.indexOf("\"trial\""), l.indexOf(',', l.indexOf("\"trial\"")));
      count.merge(id, 1, Integer::sum);
    }
    assertEquals(KillResumeChild.SEEDS, lines.size(), "rows in the resumed file: " + count);
    assertTrue(count.values().stream().allMatch(c -> c == 1), "duplicate trials: " + count);

    // identical to the last bit: read both stores through the runner (all trials are reused)
    Results<QpMining.Key> a = KillResumeChild.runner(clean, 1).run(QpMining.experiment(KillResumeChild.config()));
    Results<QpMining.Key> b = KillResumeChild.runner(killed, 1).run(QpMining.experiment(KillResumeChild.config()));
    assertEquals(KillResumeChild.SEEDS, a.rows().size());
    assertEquals(ComparableRows.of(a), ComparableRows.of(b), "all but wall-clock values, to the bit");
    System.out.println("kill and resume: uninterrupted trials " + runMs + " ms; " + KILLS + " kills (" + killedMidRun
        + " mid-run), rows stored after each: "
        + storedAfterKill + "; final " + lines.size() + " rows, identical to the uninterrupted run");
    long partial = storedAfterKill.stream().filter(n -> n > 0 && n < KillResumeChild.SEEDS).count();
    assertTrue(partial >= 3, "too few kills left a partly finished store: " + storedAfterKill);
  }
}
