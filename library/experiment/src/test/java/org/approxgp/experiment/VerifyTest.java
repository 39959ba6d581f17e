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
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Runner#verify}: stored rows held to today's code, timings aside, and each row names its code version. */
@Tag("rounding")
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
    assertTrue(
        v.report().startsWith("verified 5/5 (5 identical bits, 0 within rounding; 0 sensitive)"),
        v.report());
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

  private static java.util.Map<String, Object> row(Object... kv) {
    var m = new java.util.LinkedHashMap<String, Object>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  private static List<VerifyRule.Agreement> agreements(
      VerifyRule rule, java.util.Map<String, Object> a, java.util.Map<String, Object> b) {
    return rule.compare(a, b).stream().map(VerifyRule.ColumnCheck::agreement).toList();
  }

  @Test
  void numbersAgreeWithinRoundingWholeNumbersAndFlagsExactlyTimingsAndEnvironmentNotAtAll() {
    assertTrue(VerifyRule.isTiming("seconds")
        && VerifyRule.isTiming("train_seconds")
        && VerifyRule.isTiming("seconds_ep")
        && !VerifyRule.isTiming("second_moment"));
    VerifyRule r = VerifyRule.DEFAULT;
    var a = row("x", 1.0, "n", 7L, "ok", true, "backend", "ejml", "blas", "none", "seconds", 3.0);
    assertEquals(
        List.of(
            VerifyRule.Agreement.IDENTICAL,
            VerifyRule.Agreement.IDENTICAL,
            VerifyRule.Agreement.IDENTICAL),
        agreements(
            r,
            a,
            row("x", 1.0, "n", 7L, "ok", true, "backend", "native", "blas", "x", "seconds", 9.0)),
        "backend, BLAS and timing are not compared");
    assertEquals(
        VerifyRule.Agreement.WITHIN,
        r.compare(row("x", 1.0), row("x", Math.nextUp(1.0))).get(0).agreement(),
        "one ulp is rounding");
    assertEquals(
        VerifyRule.Agreement.WITHIN,
        r.compare(row("x", 1.0), row("x", 1.0 + 0.9 * VerifyRule.ROUNDING))
            .get(0)
            .agreement());
    assertEquals(
        VerifyRule.Agreement.BEYOND,
        r.compare(row("x", 1.0), row("x", 1.0 + 1e-6)).get(0).agreement(),
        "1e-6 relative is a change");
    assertEquals(
        VerifyRule.Agreement.BEYOND,
        r.compare(row("n", 7L), row("n", 8L)).get(0).agreement());
    assertEquals(
        VerifyRule.Agreement.WITHIN,
        r.absolute(1, "n").compare(row("n", 7L), row("n", 8L)).get(0).agreement(),
        "declared: one sweep");
    assertEquals(
        VerifyRule.Agreement.BEYOND,
        r.compare(row("ok", true), row("ok", false)).get(0).agreement());
    assertEquals(
        VerifyRule.Agreement.BEYOND,
        r.compare(row("x", 1.0), row("x", Double.NaN)).get(0).agreement(),
        "NaN is not rounding");
    assertEquals(
        VerifyRule.Agreement.WITHIN,
        r.within(1e-3, "x").compare(row("x", 1.0), row("x", 1.0005)).get(0).agreement(),
        "declared tolerance");
    assertEquals(
        VerifyRule.Agreement.WITHIN,
        r.compare(row("v", new double[] {1, 2}), row("v", new double[] {1, Math.nextDown(2.0)}))
            .get(0)
            .agreement());
    assertEquals(
        VerifyRule.Agreement.BEYOND,
        r.compare(row("v", new double[] {1, 2}), row("v", new double[] {1}))
            .get(0)
            .agreement(),
        "length");
    assertEquals(
        VerifyRule.Agreement.BEYOND, r.compare(row("x", 1.0), row()).get(0).agreement(), "missing");
  }

  @Test
  void aStatusStringMustAgreeInItsWordsAndToRoundingInItsNumbersWallClockAside() {
    VerifyRule r = VerifyRule.DEFAULT;
    var stored = row("status", "ep: 3 iterations, converged (final change 1.95e-07, 0.001 s)");
    assertEquals(
        VerifyRule.Agreement.IDENTICAL,
        r.compare(
                stored,
                row("status", "ep: 3 iterations, converged (final change 1.95e-07, 12.250 s)"))
            .get(0)
            .agreement(),
        "only the time differs");
    assertEquals(
        VerifyRule.Agreement.BEYOND,
        r.compare(
                stored,
                row("status", "ep: 4 iterations, converged (final change 1.95e-07, 0.001 s)"))
            .get(0)
            .agreement(),
        "the iterations differ");
    assertEquals(
        VerifyRule.Agreement.BEYOND,
        r.compare(
                stored,
                row("status", "ep: 3 iterations, converged (final change 1.96e-07, 0.001 s)"))
            .get(0)
            .agreement(),
        "the final change differs");
    assertEquals(
        VerifyRule.Agreement.BEYOND,
        r.compare(
                stored, row("status", "ep: 3 iterations, stopped (final change 1.95e-07, 0.001 s)"))
            .get(0)
            .agreement(),
        "a word differs");
    // a vector stored as space-separated numbers
    assertEquals(
        VerifyRule.Agreement.WITHIN,
        r.compare(
                row("var", "0.3677227271161561 32.258035183343964"),
                row("var", "0.36772272711615614 32.25803518334397"))
            .get(0)
            .agreement());
  }

  /** Deterministic per backend but chaotic across backends: a different number on each. */
  private static ResultRow chaotic(Cfg c, TrialKey k) {
    double jump = org.approxgp.linalg.Linalg.backendName().equals("ejml") ? 0.3 : 0.1;
    return ResultRow.builder()
        .put("value", c.scale() + k.seed() + jump)
        .put("converged", k.method().equals("a"))
        .put("label", "m-" + k.method())
        .build();
  }

  private Experiment<Cfg, TrialKey> chaoticExperiment(VerifyRule rule) {
    return Experiment.of(
            "verify", new Cfg(1.0), Experiment.grid(List.of("a", "bb"), 4, 1), VerifyTest::chaotic)
        .withVerifyRule(rule);
  }

  /** Every stored "value" moved by 0.05, as a row computed on another kernel of a chaotic trial would be. */
  private void shiftStoredValues(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    for (int i = 0; i < lines.size(); i++) {
      var m = JsonRows.read(lines.get(i));
      m.put("value", (Double) m.get("value") + 0.05);
      lines.set(i, JsonRows.write(m));
    }
    Files.write(file, lines, StandardCharsets.UTF_8);
  }

  @Test
  void aTrialNamedSensitiveIsVerifiedOnItsStableColumnsOnly() throws IOException {
    VerifyRule rule = VerifyRule.DEFAULT.sensitiveWhen(
        "did not converge", m -> m.get("converged") == Boolean.FALSE);
    Results<TrialKey> r = runner().run(chaoticExperiment(rule));
    shiftStoredValues(r.file());
    Verification v = runner().verify(chaoticExperiment(rule), 8, 0);
    // the four unconverged ("bb") trials are sensitive; the converged ones are checked in full:
    // their values moved
    // by 0.05, and a rerun on the other backend moves them too (to +0.3), so they count as
    // sensitive found by
    // rerun only where a second backend exists
    assertEquals(
        4,
        v.outcomes().stream()
            .filter(o -> o.trial().contains("method=bb") && o.kind() == Verification.Kind.SENSITIVE)
            .count(),
        v.report());
    assertTrue(v.report().contains("did not converge; stable columns agree"), v.report());
    // a stable column that changes is a difference even for a sensitive trial
    List<String> lines = Files.readAllLines(r.file(), StandardCharsets.UTF_8);
    for (int i = 0; i < lines.size(); i++) {
      lines.set(i, lines.get(i).replace("\"m-bb\"", "\"m-old\""));
    }
    Files.write(r.file(), lines, StandardCharsets.UTF_8);
    Verification changed = runner().verify(chaoticExperiment(rule), 8, 0);
    assertEquals(4, changed.count(Verification.Kind.DIFFERS), changed.report());
    assertTrue(
        changed.report().contains("a stable column changed: label: stored m-old, now m-bb"),
        changed.report());
    // with no stable column, the same trials are sensitive: held only to running to their end
    Verification none = runner().verify(chaoticExperiment(rule.stable()), 8, 0);
    assertEquals(
        4,
        none.outcomes().stream()
            .filter(o -> o.trial().contains("method=bb") && o.kind() == Verification.Kind.SENSITIVE)
            .count(),
        none.report());
  }

  @Test
  void aRerunOnTheOtherBackendTellsAChaoticTrialFromAChangedOne() throws IOException {
    org.junit.jupiter.api.Assumptions.assumeTrue(
        org.approxgp.linalg.Linalg.nativeAvailable(), "needs both backends");
    // chaotic: the other backend moves the value (by 0.2), so the 0.05 by which the stored row
    // disagrees is rounding
    Results<TrialKey> r = runner().run(chaoticExperiment(VerifyRule.DEFAULT));
    shiftStoredValues(r.file());
    Verification v = runner().verify(chaoticExperiment(VerifyRule.DEFAULT), 8, 0);
    assertEquals(8, v.count(Verification.Kind.SENSITIVE), v.report());
    assertTrue(v.passed());
    assertTrue(v.report().contains("found by rerun"), v.report());
    // changed: the same disagreement on a trial that every backend computes alike
    Results<TrialKey> s = runner().withResultsRoot(dir.resolve("stable")).run(experiment(1.5));
    shiftStoredValues(s.file());
    Verification w = runner().withResultsRoot(dir.resolve("stable")).verify(experiment(1.5), 16, 0);
    assertEquals(16, w.count(Verification.Kind.DIFFERS), w.report());
    assertTrue(
        w.report()
            .contains(
                "reproduce today's row within rounding, the row lies beyond 10x their spread"),
        w.report());
  }

  /**
   * A trial that amplifies rounding as an optimiser's end point does: the last diagonal element of the Cholesky
   * factor of the nearly singular [[1, 1−ε], [1−ε, 1]], squared and divided by its exact value 2ε − ε². A one-ulp
   * move of the diagonal entries (what {@code Linalg.withUlpPerturbation} does) moves L₁₁² by a few units of
   * 1.1e-16 (measured: two to five), each unit {@value #AMPLIFIED_UNIT} relative here: far beyond 1e-16, inside the
   * value column's tolerance 1e-6.
   */
  private static ResultRow amplified(Cfg c, TrialKey k) {
    double e = 1.1e-16 / AMPLIFIED_UNIT / 2;
    org.approxgp.linalg.Matrix a =
        org.approxgp.linalg.Matrix.of(new double[][] {{1, 1 - e}, {1 - e, 1}});
    double l11 = org.approxgp.linalg.Cholesky.factor(a).lower().get(1, 1);
    return ResultRow.builder().put("value", l11 * l11 / (2 * e - e * e)).build();
  }

  private static final double AMPLIFIED_UNIT = 1.5e-7;

  private Experiment<Cfg, TrialKey> amplifiedExperiment() {
    return Experiment.of(
            "verify",
            new Cfg(1.0),
            Experiment.grid(List.of("a", "bb"), 4, 1),
            VerifyTest::amplified)
        .withVerifyRule(VerifyRule.DEFAULT.within(1e-6, "value"));
  }

  /** Every stored "value" moved by {@code relative} of itself. */
  private void scaleStoredValues(Path file, double relative) throws IOException {
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    for (int i = 0; i < lines.size(); i++) {
      var m = JsonRows.read(lines.get(i));
      m.put("value", (Double) m.get("value") * (1 + relative));
      lines.set(i, JsonRows.write(m));
    }
    Files.write(file, lines, StandardCharsets.UTF_8);
  }

  @Test
  void aRowBeyondTheToleranceButWithinTheTrialsMeasuredRoundingSpreadIsRounding()
      throws IOException {
    // the reruns move each trial by two to five units of 1.5e-7 (within the tolerance 1e-6, so not
    // sensitive); a row 1.2e-6 away, as another kernel could leave an amplifying trial, lies within
    // 10x that
    Results<TrialKey> r = runner().run(amplifiedExperiment());
    scaleStoredValues(r.file(), 1.2e-6);
    Verification v = runner().verify(amplifiedExperiment(), 8, 0);
    assertTrue(v.passed(), v.report());
    assertEquals(8, v.count(Verification.Kind.ROUNDING), v.report());
    assertTrue(
        v.report()
            .contains("within 10x of what reruns under rounding perturbations move it: value"),
        v.report());
    // a row 1e-4 away is beyond any rounding this trial shows: a change
    Results<TrialKey> s =
        runner().withResultsRoot(dir.resolve("changed")).run(amplifiedExperiment());
    scaleStoredValues(s.file(), 1e-4);
    Verification w =
        runner().withResultsRoot(dir.resolve("changed")).verify(amplifiedExperiment(), 8, 0);
    assertEquals(8, w.count(Verification.Kind.DIFFERS), w.report());
    assertTrue(
        w.report().contains("beyond 10x their spread (value 1.0e-04 from the row"), w.report());
  }

  @Test
  void thePicksSpreadOverTheCodeVersionsThatStoredTheRows() throws IOException {
    Results<TrialKey> r = runner().run(experiment(1.5));
    List<String> lines = Files.readAllLines(r.file(), StandardCharsets.UTF_8);
    // the last two rows as if an older commit had stored them
    for (int i = lines.size() - 2; i < lines.size(); i++) {
      lines.set(
          i, lines.get(i).replaceFirst("\"code_version\":\"[^\"]*\"", "\"code_version\":\"0ld\""));
    }
    Files.write(r.file(), lines, StandardCharsets.UTF_8);
    for (long seed = 0; seed < 5; seed++) {
      Verification v = runner().verify(experiment(1.5), 2, seed);
      assertEquals(
          1, v.outcomes().stream().filter(o -> o.storedBy().equals("0ld")).count(), v.report());
    }
    assertEquals(
        runner().verify(experiment(1.5), 3).checked(),
        runner().verify(experiment(1.5), 3, CodeVersion.seed()).checked(),
        "seeded by the code version");
  }

  /** Stored rows of {@code experiment(1.5)}'s trials, trial i recording {@code seconds.applyAsDouble(i)}. */
  private static Map<String, ResultRow> rowsCosting(
      List<TrialKey> trials, java.util.function.IntToDoubleFunction seconds) {
    Map<String, ResultRow> rows = new java.util.HashMap<>();
    for (int i = 0; i < trials.size(); i++) {
      rows.put(
          TrialKeys.id(trials.get(i)),
          ResultRow.builder()
              .put("value", 1.0)
              .put("seconds", seconds.applyAsDouble(i))
              .put(ResultRow.CODE_VERSION, "v")
              .build());
    }
    return rows;
  }

  @Test
  void thePicksFavourCheapTrialsInInverseProportionToTheirStoredCost() {
    Experiment<Cfg, TrialKey> exp = experiment(1.5);
    List<TrialKey> trials = exp.trials();
    // one trial 1,000 times dearer than the other fifteen: drawn about once in 15,000 draws, they
    // about 1/15 each
    Map<String, ResultRow> oneDear = rowsCosting(trials, i -> i == 3 ? 1000.0 : 1.0);
    Map<TrialKey, Integer> count = new java.util.HashMap<>();
    for (long seed = 0; seed < 3000; seed++) {
      count.merge(Runner.picks(exp, oneDear, 1, seed).get(0), 1, Integer::sum);
    }
    assertTrue(count.getOrDefault(trials.get(3), 0) <= 2, count.toString());
    for (int i = 0; i < trials.size(); i++) {
      if (i != 3) {
        assertTrue(count.getOrDefault(trials.get(i), 0) > 120, "trial " + i + ": " + count);
      }
    }
    // half at 1 s, half at 3 s: a first pick is a cheap one with probability 8/(8 + 8/3) = 0.75
    Map<String, ResultRow> halves = rowsCosting(trials, i -> i % 2 == 0 ? 1.0 : 3.0);
    int cheap = 0;
    for (long seed = 0; seed < 3000; seed++) {
      TrialKey first = Runner.picks(exp, halves, 1, seed).get(0);
      cheap += trials.indexOf(first) % 2 == 0 ? 1 : 0;
    }
    assertEquals(0.75, cheap / 3000.0, 0.03);
    // k picks are k distinct trials, every trial once when k is all of them
    assertEquals(
        new java.util.HashSet<>(trials),
        new java.util.HashSet<>(Runner.picks(exp, oneDear, trials.size(), 7)));
  }

  @Test
  void aStoredTrialsCostIsItsSecondsColumnElseItsNamedTimingsAtLeastOneSecond() {
    assertEquals(2.5, Runner.storedSeconds(Map.of("seconds", 2.5)));
    assertEquals(
        7.0,
        Runner.storedSeconds(Map.of(
            "seconds",
            new double[] {1, 2},
            "setup_seconds",
            3.0,
            "train_seconds",
            4.0,
            "rmse",
            9.0)));
    assertEquals(5.0, Runner.storedSeconds(Map.of("seconds_ep", 2.0, "seconds_vb", 3.0)));
    assertEquals(1.0, Runner.storedSeconds(Map.of("seconds_ep", 0.2, "seconds_vb", 0.3)));
    assertEquals(1.0, Runner.storedSeconds(Map.of("value", 100.0)));
    assertEquals(1.0, Runner.storedSeconds(Map.of("seconds", Double.NaN)));
  }

  @Test
  void rowsSayWhereTheyWereComputedAndVerificationSaysWhenThatDiffers() throws IOException {
    Results<TrialKey> r = runner().run(experiment(1.5));
    var stored =
        JsonRows.read(Files.readAllLines(r.file(), StandardCharsets.UTF_8).get(0));
    for (String c : RunEnvironment.COLUMNS) {
      assertTrue(stored.containsKey(c), c + " in " + stored);
    }
    assertTrue(
        ((String) stored.get(RunEnvironment.JDK)).startsWith(System.getProperty("java.version")),
        stored.toString());
    assertEquals(List.of(), runner().verify(experiment(1.5), 4, 0).environment());
    List<String> lines = Files.readAllLines(r.file(), StandardCharsets.UTF_8);
    for (int i = 0; i < lines.size(); i++) {
      lines.set(
          i,
          lines
              .get(i)
              .replaceFirst("\"blas\":\"[^\"]*\"", "\"blas\":\"OpenBLAS 0.0, core Elsewhere\""));
    }
    Files.write(r.file(), lines, StandardCharsets.UTF_8);
    Verification v = runner().verify(experiment(1.5), 4, 0);
    assertTrue(v.passed(), v.report());
    assertTrue(
        v.report().contains("environment: blas: stored OpenBLAS 0.0, core Elsewhere, now "),
        v.report());
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
