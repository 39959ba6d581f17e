package org.approxgp.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.api.java.JavaSparkContext;
import org.approxgp.experiment.Engines;
import org.approxgp.experiment.Experiment;
import org.approxgp.experiment.ExperimentFailedException;
import org.approxgp.experiment.ProgressListener;
import org.approxgp.experiment.ProjectPaths;
import org.approxgp.experiment.ResultRow;
import org.approxgp.experiment.Results;
import org.approxgp.experiment.Runner;
import org.approxgp.experiment.SmokePipeline;
import org.approxgp.experiment.TrialKey;
import org.approxgp.experiment.TrialKeys;
import org.approxgp.papers.qp.QpAtScale;
import org.approxgp.papers.qp.QpMining;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Spark executor in {@code local[2]} (one context for the class): the same rows as the local
 * runner, bit for bit; resume after a stopped driver; a throwing trial reported with its key.
 */
class SparkTrialExecutorTest {

  private static JavaSparkContext sc;

  @TempDir
  Path dir;

  @BeforeAll
  static void start() {
    sc = new JavaSparkContext(
        SparkTrialExecutor.conf("local[2]").setAppName("SparkTrialExecutorTest"));
  }

  @AfterAll
  static void stop() {
    sc.stop();
  }

  private Runner runner(String sub, org.approxgp.experiment.TrialExecutor ex) {
    return Runner.defaults()
        .withExecutor(ex)
        .withResultsRoot(dir.resolve(sub))
        .withProgress(ProgressListener.none());
  }

  private static <K extends Record> void assertSameRows(Results<K> expected, Results<K> actual) {
    assertEquals(expected.keys(), actual.keys());
    // ResultRow.equals compares doubles by Double.equals (their bits) and vectors by Arrays.equals
    assertEquals(expected.rows(), actual.rows());
  }

  /**
   * Each row's key and values with the wall-clock measurements left out (the {@code seconds…} and {@code …_seconds}
   * columns
   * and the "0.123 s" in status strings); doubles as their bits.
   */
  private static List<Object> withoutWallClock(Results<?> r) {
    java.util.regex.Pattern wallClock = java.util.regex.Pattern.compile("[0-9.]+ s\\b");
    List<Object> out = new java.util.ArrayList<>();
    for (int i = 0; i < r.rows().size(); i++) {
      out.add(r.keys().get(i));
      r.rows().get(i).values().forEach((name, v) -> {
        if (!name.startsWith("seconds") && !name.endsWith("_seconds")) {
          out.add(name + "="
              + (v instanceof Double d
                  ? "bits " + Double.doubleToLongBits(d)
                  : v instanceof String str ? wallClock.matcher(str).replaceAll("# s") : v));
        }
      });
    }
    return out;
  }

  @Test
  void anUnreachableMasterFailsInOneLineBeforeTheStoreIsTouched() throws java.io.IOException {
    int port;
    try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
      port = free.getLocalPort(); // closed again: nothing listens there
    }
    String url = "spark://127.0.0.1:" + port;
    Experiment<SmokePipeline.Config, TrialKey> exp =
        SmokePipeline.experiment(SmokePipeline.Config.forMode(ProjectPaths.Mode.SMOKE));
    Engines.EngineUnavailableException e = assertThrows(
        Engines.EngineUnavailableException.class,
        () -> runner("unreachable", SparkTrialExecutor.embedded(url)).run(exp));
    assertTrue(
        e.getMessage().contains(url) && e.getMessage().contains("unreachable"), e.getMessage());
    assertFalse(e.getMessage().contains("\n"), e.getMessage());
    assertFalse(Files.exists(dir.resolve("unreachable")), "no store, no lock file");
  }

  /** Every master form Spark starts a context on passes the form check; anything else is one line, exit 2. */
  @Test
  void aMasterUrlOfNoFormSparkKnowsIsRefusedBeforeSparkIsAsked() {
    for (String ok : java.util.List.of(
        "local",
        "local[2]",
        "local[*]",
        "local[4, 3]",
        "local-cluster[2,1,1024]",
        "spark://h:7077",
        "spark://a:7077,b:7077",
        "yarn",
        "k8s://https://host:6443")) {
      SparkTrialExecutor.checkForm(ok);
    }
    for (String bad : java.util.List.of("bogus://x", "local[two]", "spark:/h:7077", "")) {
      Engines.EngineUnavailableException e = assertThrows(
          Engines.EngineUnavailableException.class,
          () -> SparkTrialExecutor.embedded(bad).start(),
          bad);
      assertTrue(e.getMessage().contains("'" + bad + "' is not a master URL"), e.getMessage());
      assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }
  }

  @Test
  void smokeExperimentThroughSparkEqualsTheLocalRunnerBitForBit() {
    Experiment<SmokePipeline.Config, TrialKey> exp =
        SmokePipeline.experiment(SmokePipeline.Config.forMode(ProjectPaths.Mode.SMOKE));
    Results<TrialKey> one =
        runner("t1", org.approxgp.experiment.TrialExecutor.local(1)).run(exp);
    Results<TrialKey> two =
        runner("t2", org.approxgp.experiment.TrialExecutor.local(2)).run(exp);
    Results<TrialKey> spark = runner("spark", SparkTrialExecutor.on(sc)).run(exp);
    assertEquals(16, spark.rows().size());
    assertEquals(16, spark.computed());
    assertSameRows(one, two);
    assertSameRows(one, spark);
    // and what Spark's driver wrote to the store reads back the same
    Results<TrialKey> reread = runner("spark", SparkTrialExecutor.on(sc)).run(exp);
    assertEquals(16, reread.reused());
    assertSameRows(one, reread);
  }

  @Test
  void aPaperExperimentThroughSparkEqualsTheLocalRunner() {
    // two coal-mining seeds, EP and VB: a real paper config (a record with a list) crosses as JSON
    Experiment<QpMining.Config, QpMining.Key> exp =
        QpMining.experiment(new QpMining.Config(2, List.of("ep", "vb")));
    Results<QpMining.Key> local =
        runner("local", org.approxgp.experiment.TrialExecutor.local(1)).run(exp);
    Results<QpMining.Key> spark = runner("spark", SparkTrialExecutor.on(sc)).run(exp);
    assertEquals(withoutWallClock(local), withoutWallClock(spark));
  }

  @Test
  void sparseClassificationThroughSparkEqualsTheLocalRunner() {
    // issue 47: the sparse classifiers' trials (sparse EP and QP, SVGP, logistic regression) give
    // the
    // same rows on Spark as in this JVM; a config with a list of integers crosses as JSON
    QpAtScale.Config c = new QpAtScale.Config(
        List.of("spam"),
        List.of("sparse-ep", "sparse-qp", "svgp", "logistic"),
        List.of(120),
        2,
        10,
        120,
        120);
    Experiment<QpAtScale.Config, QpAtScale.Key> exp = QpAtScale.experiment(c);
    Results<QpAtScale.Key> local =
        runner("local", org.approxgp.experiment.TrialExecutor.local(1)).run(exp);
    Results<QpAtScale.Key> spark = runner("spark", SparkTrialExecutor.on(sc)).run(exp);
    assertEquals(8, local.rows().size());
    assertEquals(withoutWallClock(local), withoutWallClock(spark));
  }

  @Test
  void resumesAfterTheDriverStopsWithoutDuplicates() throws Exception {
    Experiment<SmokePipeline.Config, TrialKey> exp =
        SmokePipeline.experiment(SmokePipeline.Config.forMode(ProjectPaths.Mode.SMOKE));
    Results<TrialKey> reference =
        runner("ref", org.approxgp.experiment.TrialExecutor.local(1)).run(exp);
    // stop the driver after 5 trials are stored: interrupt the thread running the job, as Ctrl-C
    // would
    int[] stored = {0};
    ProgressListener stopAfterFive = new ProgressListener() {
      @Override
      public void started(String experiment, int total, int reused) {}

      @Override
      public void advanced(int done, int failed, int total) {
        if (++stored[0] == 5) {
          Thread.currentThread().interrupt();
        }
      }

      @Override
      public void finished(int done, int failed, int total) {}
    };
    Runner stopping = Runner.defaults()
        .withExecutor(SparkTrialExecutor.on(sc))
        .withResultsRoot(dir.resolve("s"))
        .withProgress(stopAfterFive);
    IllegalStateException stop = assertThrows(IllegalStateException.class, () -> stopping.run(exp));
    assertTrue(Thread.interrupted(), "the interrupt stays set for the caller");
    assertTrue(stop.getMessage().contains("interrupted after"), stop.getMessage());
    Path file = Files.list(dir.resolve("s").resolve(SmokePipeline.NAME))
        .filter(p -> p.toString().endsWith(".jsonl"))
        .findFirst()
        .orElseThrow();
    long storedLines =
        Files.readAllLines(file).stream().filter(l -> l.contains("\"trial\"")).count();
    assertTrue(storedLines >= 5 && storedLines < 16, "stored " + storedLines);
    // a torn last line, as a kill in the middle of an append leaves it
    Files.writeString(
        file,
        "{\"trial\":\"method=plain;seed=3",
        StandardCharsets.UTF_8,
        StandardOpenOption.APPEND);
    Results<TrialKey> resumed = runner("s", SparkTrialExecutor.on(sc)).run(exp);
    assertEquals(storedLines, resumed.reused());
    assertEquals(16 - storedLines, resumed.computed());
    assertSameRows(reference, resumed);
    Set<String> ids = new HashSet<>();
    for (String line : Files.readAllLines(file)) {
      if (line.startsWith("{\"trial\"") && line.endsWith("}")) {
        String id = line.substring(10, line.indexOf('"', 10));
        assertTrue(ids.add(id), "trial " + id + " stored twice");
      }
    }
    assertEquals(16, ids.size());
  }

  @Test
  void aTrialThatThrowsIsReportedWithItsKeyAndTheOthersAreStored() {
    Experiment<TestExperiments.Config, TrialKey> exp =
        TestExperiments.failing(new TestExperiments.Config(5, 3));
    ExperimentFailedException e = assertThrows(
        ExperimentFailedException.class,
        () -> runner("f", SparkTrialExecutor.on(sc)).run(exp));
    assertEquals(1, e.failures().size());
    assertEquals(TrialKey.of("square", 3, 0), e.failures().get(0).key());
    Throwable cause = e.failures().get(0).cause();
    assertInstanceOf(RemoteTrialException.class, cause);
    assertTrue(
        cause
            .getMessage()
            .contains("trial method=square;seed=3;fold=0 failed in a Spark task: "
                + "java.lang.IllegalArgumentException: boom at seed 3"),
        cause.getMessage());
    assertTrue(
        cause.getStackTrace().length > 0
            && List.of(cause.getStackTrace()).stream()
                .anyMatch(f -> f.getClassName().startsWith(TestExperiments.class.getName())),
        "the executor's stack trace");
    List<ResultRow> rows = e.partial().rows();
    assertEquals(4, rows.size());
    assertEquals(16.0, rows.get(3).getDouble("square"));
  }

  @Test
  void aTaskSparkGivesUpOnFailsEveryTrialNotYetReported() {
    // an Error is not caught by the task: Spark fails it (local[2] tries once) and aborts the job
    Experiment<TestExperiments.Config, TrialKey> exp =
        TestExperiments.failing(new TestExperiments.Config(4, -1, 1));
    ExperimentFailedException e = assertThrows(
        ExperimentFailedException.class,
        () -> runner("g", SparkTrialExecutor.on(sc)).run(exp));
    assertEquals(4, e.failures().size() + e.partial().rows().size());
    var failure = e.failures().stream()
        .filter(f -> f.key().equals(TrialKey.of("square", 1, 0)))
        .findFirst()
        .orElseThrow();
    assertTrue(
        failure
            .cause()
            .getMessage()
            .startsWith("trial method=square;seed=1;fold=0: Spark gave up on its task: "),
        failure.cause().getMessage());
    assertTrue(
        failure.cause().getMessage().contains("fatal-looking error at seed 1"),
        failure.cause().getMessage());
    // the context survives for the next job
    assertEquals(
        3,
        runner("g2", SparkTrialExecutor.on(sc))
            .run(TestExperiments.failing(new TestExperiments.Config(3, -1)))
            .rows()
            .size());
  }

  @Test
  void anUnregisteredExperimentIsRefusedOnTheDriver() {
    Experiment<TestExperiments.Config, TrialKey> adhoc = Experiment.of(
        "adhoc",
        new TestExperiments.Config(2, -1),
        List.of(TrialKey.of("x", 0, 0)),
        (c, k) -> ResultRow.builder().put("v", 1.0).build());
    IllegalArgumentException e = assertThrows(
        IllegalArgumentException.class,
        () -> runner("u", SparkTrialExecutor.on(sc)).run(adhoc));
    assertTrue(e.getMessage().contains("no registered experiment builds 'adhoc'"), e.getMessage());
  }

  @Test
  void theSparkEngineIsFoundOnTheClassPath() {
    var ex = Engines.executor("spark", "local[2]", 0);
    assertInstanceOf(SparkTrialExecutor.class, ex);
    // the active context is reused (getOrCreate), so this runs in the class's local[2]
    Experiment<TestExperiments.Config, TrialKey> exp =
        TestExperiments.failing(new TestExperiments.Config(3, -1));
    Results<TrialKey> r = runner("e", ex).run(exp);
    assertEquals(
        List.of(0.0, 1.0, 4.0),
        r.rows().stream().map(row -> row.getDouble("square")).toList());
    assertEquals("spark(local[2])", ex.toString());
    assertFalse(r.file().toString().isEmpty());
    assertEquals(
        List.of(
            "method=square;seed=0;fold=0",
            "method=square;seed=1;fold=0",
            "method=square;seed=2;fold=0"),
        r.keys().stream().map(TrialKeys::id).toList());
  }

  @Test
  void runnerDefaultsFollowTheEngineSettingAsANotebookWould() {
    try {
      System.setProperty("approxgp.engine", "spark");
      System.setProperty("approxgp.master", "local[2]");
      assertInstanceOf(SparkTrialExecutor.class, Runner.defaults().executor());
      assertInstanceOf(
          SparkTrialExecutor.class,
          Runner.of(org.approxgp.experiment.TrialExecutor.local(1))
              .withEngine("spark")
              .executor());
    } finally {
      System.clearProperty("approxgp.engine");
      System.clearProperty("approxgp.master");
    }
  }

  @Test
  void theCommandLineWritesTheSameSummaryOnBothEngines() throws Exception {
    Path local = dir.resolve("local.csv");
    Path spark = dir.resolve("spark.csv");
    java.io.StringWriter err = new java.io.StringWriter();
    assertEquals(
        0,
        org.approxgp.cli.Main.run(
            new java.io.PrintWriter(err, true),
            "run",
            "smoke-pipeline",
            "--mode",
            "smoke",
            "--threads",
            "2",
            "--results",
            dir.resolve("rl").toString(),
            "--out",
            local.toString()),
        err.toString());
    assertEquals(
        0,
        org.approxgp.cli.Main.run(
            new java.io.PrintWriter(err, true),
            "run",
            "smoke-pipeline",
            "--mode",
            "smoke",
            "--engine",
            "spark",
            "--master",
            "local[2]",
            "--results",
            dir.resolve("rs").toString(),
            "--out",
            spark.toString()),
        err.toString());
    assertEquals(Files.readAllLines(local), Files.readAllLines(spark));
    assertEquals(5, Files.readAllLines(spark).size());
  }
}
