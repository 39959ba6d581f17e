package org.approxgp.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Runner#verify}: stored rows held to today's code, timings aside, and each row names its code version. */
class VerifyTest {
  record Cfg(double scale) {}

  @TempDir
  Path dir;

  private static final AtomicLong CLOCK = new AtomicLong();

  /** Deterministic in (config, key) but for its timing column, which differs on every call. */
  private static ResultRow compute(Cfg c, TrialKey k) {
    double v = c.scale() * Math.sqrt(1 + k.seed() + 10 * k.fold()) + k.method().length();
    return ResultRow.builder()
        .put("value", v)
        .put("values", new double[] {v, -v})
        .put("label", "m-" + k.method())
        .put("train_seconds", (double) CLOCK.incrementAndGet())
        .build();
  }

  private Experiment<Cfg, TrialKey> experiment(double scale) {
    return Experiment.of(
        "verify", new Cfg(scale), Experiment.grid(List.of("a", "bb"), 4, 2), VerifyTest::compute);
  }

  private Runner runner() {
    return Runner.defaults()
        .withResultsRoot(dir)
        .withThreads(2)
        .withProgress(ProgressListener.none());
  }

  @Test
  void storedRowsOfTheSameCodeVerifyAndNameTheirCodeVersion() throws IOException {
    Results<TrialKey> r = runner().run(experiment(1.5));
    Verification v = runner().verify(experiment(1.5), 5, 0);
    assertTrue(v.passed(), v.report());
    assertEquals("verified 5/5", v.report());
    assertEquals(5, v.checked().size());
    assertEquals(5, new java.util.HashSet<>(v.checked()).size(), "five different trials");
    // the same seed draws the same trials, another seed others
    assertEquals(v.checked(), runner().verify(experiment(1.5), 5, 0).checked());
    assertFalse(v.checked().equals(runner().verify(experiment(1.5), 5, 1).checked()));
    // more than are stored: all of them
    assertEquals(16, runner().verify(experiment(1.5), 100, 0).checked().size());
    String line = Files.readAllLines(r.file(), StandardCharsets.UTF_8).get(0);
    assertTrue(
        line.contains("\"" + ResultRow.CODE_VERSION + "\":\"" + CodeVersion.current() + "\""),
        line);
  }

  @Test
  void aStoredRowThatTodaysCodeDoesNotReproduceIsReported() throws IOException {
    Results<TrialKey> r = runner().run(experiment(1.5));
    // tamper with one stored number (as a change of the code would): every draw that includes it
    // must say so
    List<String> lines = Files.readAllLines(r.file(), StandardCharsets.UTF_8);
    String first = lines.get(0);
    int at = first.indexOf("\"value\":") + "\"value\":".length();
    int end = first.indexOf(',', at);
    String tampered = first.substring(0, at) + "1234.5" + first.substring(end);
    lines.set(0, tampered);
    Files.write(r.file(), lines, StandardCharsets.UTF_8);
    Verification all = runner().verify(experiment(1.5), 16, 0);
    assertFalse(all.passed());
    assertEquals(1, all.differences().size(), all.report());
    assertTrue(all.report().startsWith("verified 15/16"), all.report());
    assertTrue(all.differences().get(0).contains("value: stored 1234.5, now "), all.report());
  }

  @Test
  void verifyingNothingStoredIsAnError() {
    assertThrows(IllegalArgumentException.class, () -> runner().verify(experiment(2.0), 3, 0));
    assertThrows(IllegalArgumentException.class, () -> runner().verify(experiment(2.0), 0, 0));
    assertFalse(Files.exists(dir.resolve("verify")), "verifying wrote nothing");
  }

  @Test
  void timingsAndBackendAsideNumbersCompareToTheBitOnOneBackendAndToRoundingAcross() {
    assertTrue(Verification.isTiming("seconds")
        && Verification.isTiming("train_seconds")
        && Verification.isTiming("seconds_ep")
        && !Verification.isTiming("second_moment"));
    var a =
        new java.util.LinkedHashMap<String, Object>(java.util.Map.of("x", 1.0, "backend", "ejml"));
    var same = new java.util.LinkedHashMap<String, Object>(
        java.util.Map.of("x", Math.nextUp(1.0), "backend", "ejml"));
    var other = new java.util.LinkedHashMap<String, Object>(
        java.util.Map.of("x", Math.nextUp(1.0), "backend", "native"));
    assertEquals(1, Verification.compare(a, same).size(), "one ulp on the same backend differs");
    assertEquals(0, Verification.compare(a, other).size(), "one ulp across backends is rounding");
    other.put("x", 1.0 + 1e-6);
    assertEquals(1, Verification.compare(a, other).size(), "1e-6 relative across backends differs");
  }

  @Test
  void aStatusStringMustAgreeInAllButItsWallClockReadings() {
    var stored = new java.util.LinkedHashMap<String, Object>(
        java.util.Map.of("status", "ep: 3 iterations, converged (final change 1.95e-07, 0.001 s)"));
    var rerun = new java.util.LinkedHashMap<String, Object>(java.util.Map.of(
        "status", "ep: 3 iterations, converged (final change 1.95e-07, 12.250 s)"));
    assertEquals(List.of(), Verification.compare(stored, rerun), "only the time differs");
    rerun.put("status", "ep: 4 iterations, converged (final change 1.95e-07, 0.001 s)");
    assertEquals(1, Verification.compare(stored, rerun).size(), "the iterations differ");
    rerun.put("status", "ep: 3 iterations, converged (final change 1.96e-07, 0.001 s)");
    assertEquals(1, Verification.compare(stored, rerun).size(), "the final change differs");
  }

  @Test
  void aRunWithVerifyChecksItsStoreAndFailsOnAStaleRow() throws IOException {
    Results<TrialKey> r = runner().run(experiment(1.5));
    // a clean store: the run reuses every row, then verifies
    Results<TrialKey> again = runner().withVerify(16).run(experiment(1.5));
    assertEquals(16, again.reused());
    List<String> lines = Files.readAllLines(r.file(), StandardCharsets.UTF_8);
    lines.set(0, lines.get(0).replaceFirst("\"value\":[^,]*,", "\"value\":99.0,"));
    Files.write(r.file(), lines, StandardCharsets.UTF_8);
    VerificationFailedException e = assertThrows(
        VerificationFailedException.class, () -> runner().withVerify(16).run(experiment(1.5)));
    assertTrue(e.getMessage().contains("verified 15/16"), e.getMessage());
    assertTrue(e.getMessage().contains("value: stored 99.0, now "), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> runner().withVerify(-1));
  }

  @Test
  void aStoredOnlyRunComputesNothingWhenTrialsAreMissing() throws IOException {
    Experiment<Cfg, TrialKey> full = experiment(3.0);
    Experiment<Cfg, TrialKey> part =
        Experiment.of("verify", new Cfg(3.0), full.trials().subList(0, 10), VerifyTest::compute);
    Results<TrialKey> r = runner().run(part);
    long size = Files.size(r.file());
    MissingTrialsException e = assertThrows(
        MissingTrialsException.class, () -> runner().withStoredOnly(true).run(full));
    assertEquals(6, e.missing());
    assertTrue(e.getMessage().contains("6 of 16 trials are not in"), e.getMessage());
    assertEquals(size, Files.size(r.file()), "nothing was computed or appended");
    // complete: it reads the store
    runner().run(full);
    Results<TrialKey> read = runner().withStoredOnly(true).run(full);
    assertEquals(16, read.reused());
    assertEquals(0, read.computed());
  }

  @Test
  void aTrialThatNowThrowsIsReportedAsADifferenceNotAnError() {
    runner().run(experiment(1.5));
    Experiment<Cfg, TrialKey> broken =
        Experiment.of("verify", new Cfg(1.5), Experiment.grid(List.of("a", "bb"), 4, 2), (c, k) -> {
          if (k.method().equals("bb")) {
            throw new ArithmeticException("no longer computable");
          }
          return compute(c, k);
        });
    Verification v = runner().verify(broken, 16, 0);
    assertEquals(8, v.differences().size(), v.report());
    assertTrue(v.report().startsWith("verified 8/16"), v.report());
    assertTrue(
        v.differences()
            .get(0)
            .contains(
                "the trial now fails: java.lang.ArithmeticException:" + " no longer computable"),
        v.report());
    // reported in the order drawn, whatever order the picks finish in
    List<String> ids =
        v.checked().stream().filter(id -> id.contains("method=bb")).toList();
    for (int i = 0; i < ids.size(); i++) {
      assertTrue(v.differences().get(i).startsWith(ids.get(i) + " "), v.report());
    }
  }

  @Test
  void thePicksAreRecomputedSideBySide() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(
        Runtime.getRuntime().availableProcessors() >= 2, "needs two cores");
    runner().run(experiment(1.5));
    // each recomputation waits for a second one to be under way: one after another, both time out
    java.util.concurrent.CyclicBarrier both = new java.util.concurrent.CyclicBarrier(2);
    Experiment<Cfg, TrialKey> paired =
        Experiment.of("verify", new Cfg(1.5), Experiment.grid(List.of("a", "bb"), 4, 2), (c, k) -> {
          try {
            both.await(30, java.util.concurrent.TimeUnit.SECONDS);
          } catch (Exception e) {
            throw new IllegalStateException("no second recomputation alongside", e);
          }
          return compute(c, k);
        });
    Verification v = runner().verify(paired, 2, 0);
    assertTrue(v.passed(), v.report());
  }
}
