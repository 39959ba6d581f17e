package org.approxgp.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;

class RunnerTest {

  record Cfg(int draws, double scale) {}

  @TempDir
  Path dir;

  private final AtomicInteger calls = new AtomicInteger();

  /** Deterministic in (config, key): the mean of {@code draws} uniforms seeded by the key. */
  private ResultRow compute(Cfg c, TrialKey k) {
    calls.incrementAndGet();
    UniformRandomProvider rng =
        RandomSource.SPLIT_MIX_64.create(k.seed() * 31 + k.fold() + k.method().hashCode());
    double s = 0;
    for (int i = 0; i < c.draws(); i++) {
      s += rng.nextDouble();
    }
    return ResultRow.builder()
        .put("mean", c.scale() * s / c.draws())
        .put("draws", (long) c.draws())
        .put("method name", k.method())
        .build();
  }

  private Experiment<Cfg, TrialKey> experiment(Cfg cfg, Trial<Cfg, TrialKey> trial) {
    return Experiment.of("unit", cfg, Experiment.grid(List.of("a", "b"), 5, 2), trial);
  }

  private Runner runner(Path root, int threads) {
    return Runner.defaults()
        .withResultsRoot(root)
        .withThreads(threads)
        .withProgress(ProgressListener.none());
  }

  private static List<String> lines(Path file) throws IOException {
    return Files.readAllLines(file, StandardCharsets.UTF_8);
  }

  @Test
  void pendingTrialsStartLongestFirstAndRowsKeepTheTrialOrder() {
    Cfg cfg = new Cfg(50, 1.0);
    List<String> started = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
    Trial<Cfg, TrialKey> trial = (c, k) -> {
      started.add(TrialKeys.id(k));
      return compute(c, k);
    };
    // cost: method "b" costs more, and within a method the larger seed; folds tie (list order kept)
    Experiment<Cfg, TrialKey> exp =
        experiment(cfg, trial).withCost(k -> (k.method().equals("b") ? 100 : 0) + k.seed());
    Results<TrialKey> r = runner(dir, 1).run(exp);
    List<String> expected = new java.util.ArrayList<>();
    for (String m : List.of("b", "a")) {
      for (int s = 4; s >= 0; s--) {
        for (int f = 0; f < 2; f++) {
          expected.add(TrialKeys.id(new TrialKey(m, s, f)));
        }
      }
    }
    assertEquals(expected, started);
    assertEquals(exp.trials(), r.keys());
    // the same rows as a run in list order
    Results<TrialKey> plain = runner(dir.resolve("plain"), 1).run(experiment(cfg, this::compute));
    assertEquals(plain.table().toString(), r.table().toString());
  }

  @Test
  void interruptedRunResumesWithoutRecomputingFinishedTrials() throws IOException {
    Cfg cfg = new Cfg(100, 1.0);
    int k = 7;
    // First run "dies" after k trials: every later trial throws.
    ExperimentFailedException e = assertThrows(
        ExperimentFailedException.class,
        () -> runner(dir, 1).run(experiment(cfg, (c, key) -> {
          if (calls.get() >= k) {
            throw new IllegalStateException("killed");
          }
          return compute(c, key);
        })));
    assertEquals(k, e.partial().rows().size());
    Path file = e.partial().file();
    assertEquals(k, lines(file).size());

    calls.set(0);
    Results<TrialKey> resumed = runner(dir, 2).run(experiment(cfg, this::compute));
    assertEquals(20 - k, calls.get(), "only the unfinished trials run again");
    assertEquals(k, resumed.reused());
    assertEquals(20 - k, resumed.computed());
    assertEquals(20, lines(file).size());

    calls.set(0);
    Results<TrialKey> again = runner(dir, 2).run(experiment(cfg, this::compute));
    assertEquals(0, calls.get(), "a finished experiment computes nothing");
    assertEquals(20, again.reused());

    Results<TrialKey> fresh = runner(dir.resolve("fresh"), 1).run(experiment(cfg, this::compute));
    assertEquals(
        fresh.table().printAll(), again.table().printAll(), "resumed results equal a clean run");
  }

  @Test
  void partialLastLineIsIgnoredAndRepaired() throws IOException {
    Cfg cfg = new Cfg(10, 1.0);
    Results<TrialKey> first = runner(dir, 2).run(experiment(cfg, this::compute));
    Path file = first.file();
    List<String> full = lines(file);
    // Simulate a kill mid-write: drop the last 3 rows, leave half of the next one.
    List<String> kept = full.subList(0, full.size() - 3);
    String torn = full.get(full.size() - 3).substring(0, 25);
    Files.writeString(file, String.join("\n", kept) + "\n" + torn, StandardCharsets.UTF_8);

    calls.set(0);
    Results<TrialKey> resumed = runner(dir, 2).run(experiment(cfg, this::compute));
    assertEquals(3, calls.get());
    assertEquals(first.table().printAll(), resumed.table().printAll());
    List<String> repaired = lines(file);
    assertEquals(20, repaired.size());
    repaired.forEach(l -> JsonRows.read(l)); // every line complete
  }

  @Test
  void changedConfigWritesNewResultsFile() throws IOException {
    Results<TrialKey> a = runner(dir, 2).run(experiment(new Cfg(10, 1.0), this::compute));
    calls.set(0);
    Results<TrialKey> b = runner(dir, 2).run(experiment(new Cfg(10, 2.0), this::compute));
    assertEquals(20, calls.get(), "nothing reused across configs");
    assertFalse(a.file().equals(b.file()));
    try (Stream<Path> s = Files.list(dir.resolve("unit"))) {
      assertEquals(
          4,
          s.filter(p -> !p.toString().endsWith(".lock")).count(),
          "two .jsonl files and two .config.txt sidecars (besides their .lock files)");
    }
    String sidecar =
        Files.readString(Path.of(b.file().toString().replace(".jsonl", ".config.txt")));
    assertTrue(sidecar.contains("config: Cfg{draws=10, scale=2.0}"), sidecar);
    assertEquals(2.0 * a.rows().get(3).getDouble("mean"), b.rows().get(3).getDouble("mean"), 1e-15);
  }

  @Test
  void resultsDoNotDependOnThreadCount() throws IOException {
    Cfg cfg = new Cfg(1000, 1.0);
    Table one = runner(dir.resolve("t1"), 1).run(experiment(cfg, this::compute)).table();
    Table four =
        runner(dir.resolve("t4"), 4).run(experiment(cfg, this::compute)).table();
    assertEquals(20, one.rowCount());
    assertEquals(one.printAll(), four.printAll());
    for (int r = 0; r < one.rowCount(); r++) {
      assertEquals(
          one.doubleColumn("mean").get(r), four.doubleColumn("mean").get(r)); // bit-identical
    }
  }

  @Test
  void failingTrialIsReportedWithItsKeyAndRetriedNextRun() {
    Cfg cfg = new Cfg(10, 1.0);
    TrialKey bad = TrialKey.of("b", 3, 1);
    ExperimentFailedException e = assertThrows(
        ExperimentFailedException.class,
        () -> runner(dir, 3).run(experiment(cfg, (c, k) -> {
          if (k.equals(bad)) {
            throw new ArithmeticException("boom");
          }
          return compute(c, k);
        })));
    assertEquals(1, e.failures().size());
    assertEquals(bad, e.failures().get(0).key());
    assertTrue(e.getMessage().contains("method=b;seed=3;fold=1"), e.getMessage());
    assertTrue(e.getCause() instanceof ArithmeticException);
    assertEquals(19, e.partial().rows().size());
    assertFalse(e.partial().keys().contains(bad));

    calls.set(0);
    Results<TrialKey> r = runner(dir, 3).run(experiment(cfg, this::compute));
    assertEquals(1, calls.get(), "only the failed trial runs again");
    assertEquals(20, r.rows().size());
  }

  /**
   * Every stored row names the linalg backend; the backend is not part of the config hash, so a results
   * file written with the other backend is resumed (its rows reused, its backend column kept), not discarded.
   */
  @Test
  void rowsNameTheBackendAndAnotherBackendsFileIsReused() throws IOException {
    Cfg cfg = new Cfg(10, 1.0);
    Results<TrialKey> first = runner(dir, 2).run(experiment(cfg, this::compute));
    String here = org.approxgp.linalg.Linalg.defaultBackendName();
    String other = here.equals("native") ? "ejml" : "native";
    for (ResultRow row : first.rows()) {
      assertEquals(here, row.get(ResultRow.BACKEND));
    }
    List<String> stored = lines(first.file());
    assertEquals(20, stored.size());
    assertTrue(
        stored
            .get(0)
            .contains(",\"backend\":\"" + here + "\",\"code_version\":\"" + CodeVersion.current()
                + "\",\"blas\":\""),
        stored.get(0));
    // pretend the file was written by the other backend
    Files.write(
        first.file(),
        stored.stream()
            .map(l -> l.replace("\"backend\":\"" + here + "\"", "\"backend\":\"" + other + "\""))
            .toList(),
        StandardCharsets.UTF_8);
    calls.set(0);
    Results<TrialKey> again = runner(dir, 2).run(experiment(cfg, this::compute));
    assertEquals(0, calls.get(), "no trial recomputed");
    assertEquals(20, again.reused());
    assertEquals(first.file(), again.file(), "same config hash, same file");
    assertEquals(other, again.table().stringColumn(ResultRow.BACKEND).get(0));
  }

  /** A trial that writes its own backend column keeps it. */
  @Test
  void trialsOwnBackendColumnIsKept() {
    ResultRow row = ResultRow.builder()
        .put("x", 1.0)
        .put(ResultRow.BACKEND, "mine")
        .put(ResultRow.CODE_VERSION, "v1")
        .build();
    assertEquals("mine", Runner.withBackend(row).get(ResultRow.BACKEND));
    assertEquals("v1", Runner.withBackend(row).get(ResultRow.CODE_VERSION));
    assertEquals(
        List.of("x", "backend", "code_version", "blas", "blas_threads", "jdk"),
        List.copyOf(Runner.withBackend(row).values().keySet()),
        "the environment columns the trial did not write are added after its own");
    ResultRow plain = ResultRow.builder().put("x", 1.0).build();
    assertEquals(CodeVersion.current(), Runner.withBackend(plain).get(ResultRow.CODE_VERSION));
  }

  @Test
  void tableHasKeyColumnsThenResultColumnsInTrialOrder() {
    Results<TrialKey> r = runner(dir, 2).run(experiment(new Cfg(10, 1.0), this::compute));
    Table t = r.table();
    assertEquals(
        List.of(
            "method",
            "seed",
            "fold",
            "mean",
            "draws",
            "method name",
            "backend",
            "code_version",
            "blas",
            "blas_threads",
            "jdk"),
        t.columnNames());
    assertEquals("a", t.stringColumn("method").get(0));
    assertEquals("b", t.stringColumn("method").get(19));
    assertEquals(4L, t.longColumn("seed").get(9));
    assertEquals(1, t.intColumn("fold").get(9));
    assertEquals("b", t.stringColumn("method name").get(19));
  }

  @Test
  void corruptLineInTheMiddleIsAnErrorNotSilentlyDropped() throws IOException {
    Results<TrialKey> first = runner(dir, 1).run(experiment(new Cfg(10, 1.0), this::compute));
    List<String> ls = new java.util.ArrayList<>(lines(first.file()));
    ls.set(4, "{\"trial\":\"broken");
    Files.write(first.file(), ls, StandardCharsets.UTF_8, StandardOpenOption.TRUNCATE_EXISTING);
    IllegalStateException e = assertThrows(
        IllegalStateException.class,
        () -> runner(dir, 1).run(experiment(new Cfg(10, 1.0), this::compute)));
    assertTrue(e.getMessage().contains("line 5 is not a stored row"), e.getMessage());
  }

  /** A key record of the experiment's own shape: two strings, an int seed, an enum, a boolean. */
  enum Variant {
    PLAIN,
    FANCY
  }

  record PairKey(String dataset, String method, int seed, Variant variant, boolean warm) {}

  private static Experiment<Cfg, PairKey> pairExperiment(Cfg cfg) {
    List<PairKey> keys = new java.util.ArrayList<>();
    for (String d : List.of("iono", "crabs")) {
      for (String m : List.of("ep", "qp")) {
        for (int s = 0; s < 3; s++) {
          keys.add(new PairKey(d, m, s, s == 2 ? Variant.FANCY : Variant.PLAIN, s == 1));
        }
      }
    }
    return Experiment.of(
        "pairs",
        cfg,
        PairKey.class,
        keys,
        (c, k) -> ResultRow.builder()
            .put("value", c.scale() * (k.seed() + 10 * k.method().length()))
            .build());
  }

  @Test
  void ownKeyRecordGivesTheKeyColumnsAndTheStoredTrialId() throws IOException {
    Results<PairKey> r = runner(dir, 3).run(pairExperiment(new Cfg(1, 1.0)));
    Table t = r.table();
    assertEquals(
        List.of(
            "dataset",
            "method",
            "seed",
            "variant",
            "warm",
            "value",
            "backend",
            "code_version",
            "blas",
            "blas_threads",
            "jdk"),
        t.columnNames());
    assertEquals("crabs", t.stringColumn("dataset").get(6));
    assertEquals("ep", t.stringColumn("method").get(6));
    assertEquals(2, t.intColumn("seed").get(2));
    assertEquals("FANCY", t.stringColumn("variant").get(2));
    assertTrue(t.booleanColumn("warm").get(1));
    assertEquals(new PairKey("iono", "qp", 1, Variant.PLAIN, true), r.keys().get(4));
    List<String> stored = lines(r.file());
    assertTrue(
        stored.stream()
            .anyMatch(l -> l.contains(
                "\"trial\":\"dataset=crabs;method=qp;seed=2;variant=FANCY;warm=false\"")),
        stored.get(0));
    Results<PairKey> again = runner(dir, 1).run(pairExperiment(new Cfg(1, 1.0)));
    assertEquals(12, again.reused());
    assertEquals(t.printAll(), again.table().printAll(), "rows read back under the same keys");
  }

  @Test
  void keyRecordsWithUnsupportedComponentsOrBadValuesAreRejected() {
    record DoubleKey(double x) {}
    assertThrows(
        IllegalArgumentException.class,
        () -> Experiment.of(
            "bad", new Cfg(1, 1.0), DoubleKey.class, List.of(new DoubleKey(1)), (c, k) -> null));
    assertThrows(
        IllegalArgumentException.class,
        () -> TrialKeys.id(new PairKey("a;b", "ep", 0, Variant.PLAIN, false)));
  }

  @Test
  void resultColumnNamedLikeAKeyColumnFailsTheTrial() {
    ExperimentFailedException e = assertThrows(
        ExperimentFailedException.class,
        () -> runner(dir, 1)
            .run(Experiment.of(
                "clash",
                new Cfg(1, 1.0),
                List.of(TrialKey.of("a", 0, 0)),
                (c, k) -> ResultRow.builder().put("seed", 1.0).build())));
    assertTrue(e.getMessage().contains("clashes with a key column"), e.getMessage());
  }

  /** Runs the pending trials backwards on the calling thread, recording what it was given. */
  private static final class ReverseExecutor implements TrialExecutor {
    final List<Record> given = new java.util.ArrayList<>();

    @Override
    public <C extends Record, K extends Record> void execute(
        Experiment<C, K> exp, List<K> pending, Callback<K> callback) {
      given.addAll(pending);
      for (int i = pending.size() - 1; i >= 0; i--) {
        K k = pending.get(i);
        try {
          callback.finished(k, exp.trial().run(exp.config(), k));
        } catch (Exception e) {
          callback.failed(k, e);
        }
      }
    }
  }

  @Test
  void executorSeamReceivesOnlyPendingTrialsAndRowsKeepTrialOrder() {
    Cfg cfg = new Cfg(10, 1.0);
    assertThrows(
        ExperimentFailedException.class,
        () -> runner(dir, 2).run(experiment(cfg, (c, k) -> {
          if (k.seed() >= 2) {
            throw new IllegalStateException("not yet");
          }
          return compute(c, k);
        })));
    ReverseExecutor reverse = new ReverseExecutor();
    Results<TrialKey> r = runner(dir, 1).withExecutor(reverse).run(experiment(cfg, this::compute));
    List<TrialKey> expected = Experiment.grid(List.of("a", "b"), 5, 2).stream()
        .filter(k -> k.seed() >= 2)
        .toList();
    assertEquals(expected, reverse.given, "the executor gets the pending trials, in trial order");
    assertEquals(8, r.reused());
    assertEquals(12, r.computed());
    Results<TrialKey> clean = runner(dir.resolve("clean"), 1).run(experiment(cfg, this::compute));
    assertEquals(clean.keys(), r.keys());
    assertEquals(clean.table().printAll(), r.table().printAll());
  }
}
