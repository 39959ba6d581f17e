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
 * Kill and resume: a real experiment runs in a child JVM that is killed with SIGKILL
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
    ProcessBuilder pb = new ProcessBuilder(
        java,
        "-cp",
        System.getProperty("java.class.path"),
        KillResumeChild.class.getName(),
        root.toString(),
        Integer.toString(threads));
    pb.redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
    return pb.start();
  }

  /**
   * Reads the child's stdout until it has announced the start of its trials and then {@code trials}
   * more stored trials; false if the child ended first.
   */
  private static boolean await(java.io.BufferedReader out, int trials) throws IOException {
    boolean started = false;
    int seen = 0;
    for (String line = out.readLine(); line != null; line = out.readLine()) {
      if (line.equals(KillResumeChild.STARTED)) {
        started = true;
      } else if (line.startsWith(KillResumeChild.ADVANCED)) {
        seen++;
      }
      if (started && seen >= trials) {
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

  private static java.io.BufferedReader stdout(Process p) {
    return new java.io.BufferedReader(
        new java.io.InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
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
    java.io.BufferedReader firstOut = stdout(first);
    assertTrue(await(firstOut, 1), () -> "uninterrupted child did not store a trial; see " + log);
    long t0 = System.nanoTime();
    await(firstOut, Integer.MAX_VALUE);
    assertEquals(0, finish(first), () -> "uninterrupted child failed; see " + log);
    // the mean time of a trial once the JVM is warm (after the first stored one)
    long trialMs = (System.nanoTime() - t0) / 1_000_000 / (KillResumeChild.SEEDS - 1);

    Path killed = tmp.resolve("killed");
    SplittableRandom rng = new SplittableRandom(SEED);
    int killedMidRun = 0;
    List<Integer> storedAfterKill = new ArrayList<>();
    for (int k = 0; k < KILLS; k++) {
      Process p = start(killed, 2, log);
      // a random moment defined by progress, so it does not depend on the machine's speed: after
      // 0–3
      // more stored trials, then up to two trials' time more (mid-trial, or mid-write of a row)
      int trials = rng.nextInt(4);
      long delayMs = rng.nextLong(Math.max(1, 2 * trialMs));
      await(stdout(p), trials);
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
    Results<QpMining.Key> a =
        KillResumeChild.runner(clean, 1).run(QpMining.experiment(KillResumeChild.config()));
    Results<QpMining.Key> b =
        KillResumeChild.runner(killed, 1).run(QpMining.experiment(KillResumeChild.config()));
    assertEquals(KillResumeChild.SEEDS, a.rows().size());
    assertEquals(
        ComparableRows.of(a), ComparableRows.of(b), "all but wall-clock values, to the bit");
    System.out.println(
        "kill and resume: a warm trial " + trialMs + " ms; " + KILLS + " kills (" + killedMidRun
            + " mid-run), rows stored after each: "
            + storedAfterKill + "; final " + lines.size()
            + " rows, identical to the uninterrupted run");
    long partial =
        storedAfterKill.stream().filter(n -> n > 0 && n < KillResumeChild.SEEDS).count();
    assertTrue(partial >= 3, "too few kills left a partly finished store: " + storedAfterKill);
  }
}
