package org.approxgp.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.spark.api.java.JavaSparkContext;
import org.approxgp.cli.Main;
import org.approxgp.inference.MomentMatching;
import org.approxgp.inference.PowerEp;
import org.approxgp.inference.Prediction;
import org.approxgp.inference.Problem;
import org.approxgp.inference.SiteBlock;
import org.approxgp.inference.SiteLoop;
import org.approxgp.inference.SiteLoopOptions;
import org.approxgp.inference.SiteUpdate;
import org.approxgp.inference.SparsePosterior;
import org.approxgp.inference.SparseProblem;
import org.approxgp.inference.SparseSiteLoop;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.likelihood.Probit;
import org.approxgp.projection.W2Projection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The sparse site loop's parallel schedule with its blocks of rows on Spark ({@code local[2]}, one context for the
 * class): the same sites, log evidence and predictions as the in-JVM blocks, bit for bit (both run
 * {@link SiteBlock#apply} per block and add the answers in block order), and {@code approxgp fit --engine spark}
 * writes the predictions file of {@code fit --schedule parallel}, byte for byte.
 */
class SparkSiteBlocksTest {

  private static JavaSparkContext sc;

  @BeforeAll
  static void start() {
    sc =
        new JavaSparkContext(SparkTrialExecutor.conf("local[2]").setAppName("SparkSiteBlocksTest"));
  }

  @AfterAll
  static void stop() {
    sc.stop();
  }

  /** Two full blocks and a partial one: n is not a multiple of the block size. */
  private static final int N = 2 * SiteBlock.ROWS + 357;

  /** n rows of two standard normal inputs, y = sign(sin(2x₁) + x₂ + noise) in {−1, +1}. */
  private static double[][] inputs(int n, long seed) {
    Random r = new Random(seed);
    double[][] x = new double[n][2];
    for (double[] row : x) {
      row[0] = r.nextGaussian();
      row[1] = r.nextGaussian();
    }
    return x;
  }

  private static double[] labels(double[][] x, long seed) {
    Random r = new Random(seed);
    double[] y = new double[x.length];
    for (int i = 0; i < y.length; i++) {
      y[i] = Math.sin(2 * x[i][0]) + x[i][1] + 0.3 * r.nextGaussian() > 0 ? 1 : -1;
    }
    return y;
  }

  private static SiteUpdate<Void> rule(String name) {
    return switch (name) {
      case "ep" -> MomentMatching.ep();
      case "qp" -> MomentMatching.qp(W2Projection.shipped());
      case "power-ep" -> PowerEp.of(0.5);
      default -> throw new IllegalArgumentException(name);
    };
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"ep", "qp", "power-ep"})
  void sparkBlocksGiveTheLocalBlocksBits(String method) {
    double[][] x = inputs(N, 1);
    double[] y = labels(x, 2);
    double[][] z = inputs(20, 3);
    SparseProblem sp =
        new SparseProblem(Problem.of(SquaredExponential.iso(0.8, 1.5), x, y, Probit.get()), z);
    SiteLoopOptions opt = SiteLoopOptions.defaults()
        .withGradient(false)
        .withSchedule(SiteLoop.Schedule.PARALLEL)
        .withDamping(0.5);
    SparsePosterior local = SparseSiteLoop.run(sp, rule(method), opt, null);
    SparsePosterior spark;
    long jobs;
    int partitions;
    try (SparkSiteBlocks blocks = new SparkSiteBlocks(sc, 2)) {
      spark = SparseSiteLoop.run(sp, rule(method), opt, null, blocks);
      jobs = blocks.jobs();
      partitions = blocks.partitions();
    }
    System.out.printf(
        "%s, n = %d (3 blocks, 2 Spark partitions): local %s; spark %s (%d jobs)%n",
        method, N, local.diagnostics(), spark.diagnostics(), jobs);
    assertTrue(local.diagnostics().converged(), local.diagnostics().toString());
    assertEquals(2, partitions);
    // the start, one per sweep, the evidence
    assertEquals(local.diagnostics().iterations() + 2, jobs);
    assertEquals(local.diagnostics().iterations(), spark.diagnostics().iterations());
    assertEquals(local.diagnostics().skippedSites(), spark.diagnostics().skippedSites());
    assertArrayEquals(local.sites().tau(), spark.sites().tau());
    assertArrayEquals(local.sites().nu(), spark.sites().nu());
    assertArrayEquals(local.mean(), spark.mean());
    assertArrayEquals(local.variance(), spark.variance());
    assertEquals(
        Double.doubleToRawLongBits(local.logEvidence()),
        Double.doubleToRawLongBits(spark.logEvidence()),
        local.logEvidence() + " vs " + spark.logEvidence());
    double[][] xt = inputs(200, 4);
    Prediction pl = local.predict(xt);
    Prediction ps = spark.predict(xt);
    assertArrayEquals(pl.latentMean(), ps.latentMean());
    assertArrayEquals(pl.latentVariance(), ps.latentVariance());
  }

  private static void writeCsv(Path file, double[][] x, double[] y) throws IOException {
    StringBuilder sb = new StringBuilder("x1,x2,y\n");
    for (int i = 0; i < x.length; i++) {
      sb.append(x[i][0])
          .append(',')
          .append(x[i][1])
          .append(',')
          .append((int) y[i])
          .append('\n');
    }
    Files.writeString(file, sb.toString());
  }

  private static String[] fit(Path dir, String name, String... extra) {
    List<String> args = new ArrayList<>(List.of(
        "fit",
        "--train",
        dir.resolve("train.csv").toString(),
        "--test",
        dir.resolve("test.csv").toString(),
        "--label",
        "y",
        "--out",
        dir.resolve(name + ".csv").toString(),
        "--summary",
        dir.resolve(name + ".json").toString()));
    args.addAll(List.of(extra));
    if (!args.contains("--optimize")) {
      args.add("--no-optimize");
    }
    if (!args.contains("--inducing")) {
      args.addAll(List.of("--inducing", "25"));
    }
    StringWriter err = new StringWriter();
    int code = Main.run(new PrintWriter(err), args.toArray(String[]::new));
    return new String[] {Integer.toString(code), err.toString()};
  }

  /**
   * {@code fit --engine spark} (the service-loaded provider on this class's active context; the command fails if
   * it is not found) writes the predictions of {@code fit --schedule parallel} in this JVM, byte for byte, with the
   * same log evidence, for EP and QP; the summary names the schedule and the engine.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"ep", "qp"})
  void fitOnSparkWritesTheLocalParallelPredictions(String inference, @TempDir Path dir)
      throws IOException {
    double[][] x = inputs(N, 5);
    writeCsv(dir.resolve("train.csv"), x, labels(x, 6));
    double[][] xt = inputs(300, 7);
    writeCsv(dir.resolve("test.csv"), xt, labels(xt, 8));
    String[] local = fit(dir, "local", "--inference", inference, "--schedule", "parallel");
    assertEquals("0", local[0], local[1]);
    String[] spark = fit(dir, "spark", "--inference", inference, "--engine", "spark");
    assertEquals("0", spark[0], spark[1]);
    assertEquals(
        Files.readString(dir.resolve("local.csv")), Files.readString(dir.resolve("spark.csv")));
    String ls = Files.readString(dir.resolve("local.json"));
    String ss = Files.readString(dir.resolve("spark.json"));
    assertEquals(field(ls, "\"log_evidence\""), field(ss, "\"log_evidence\""));
    assertTrue(
        ls.contains("\"schedule\": \"parallel\"") || ls.contains("\"schedule\":\"parallel\""), ls);
    assertTrue(ss.contains("\"engine\": \"spark\"") || ss.contains("\"engine\":\"spark\""), ss);
    assertTrue(ls.contains("\"engine\": \"local\"") || ls.contains("\"engine\":\"local\""), ls);
  }

  /**
   * {@code fit --engine spark} learning the hyperparameters (L-BFGS on the sparse EP evidence, its gradient's
   * per-row terms summed in the blocks on Spark) writes the predictions and log evidence of {@code fit --schedule
   * parallel} in this JVM, byte for byte, with the same learned hyperparameters.
   */
  @Test
  void fitOnSparkLearnsTheLocalHyperparameters(@TempDir Path dir) throws IOException {
    double[][] x = inputs(SiteBlock.ROWS + 150, 11);
    writeCsv(dir.resolve("train.csv"), x, labels(x, 12));
    double[][] xt = inputs(200, 13);
    writeCsv(dir.resolve("test.csv"), xt, labels(xt, 14));
    long t0 = System.nanoTime();
    String[] local = fit(dir, "local", "--optimize", "--inducing", "10", "--schedule", "parallel");
    long t1 = System.nanoTime();
    assertEquals("0", local[0], local[1]);
    String[] spark = fit(dir, "spark", "--optimize", "--inducing", "10", "--engine", "spark");
    long t2 = System.nanoTime();
    assertEquals("0", spark[0], spark[1]);
    System.out.printf(
        "fit --optimize, n = %d, M = 10: local parallel %.1f s, spark %.1f s; %s%n",
        x.length, (t1 - t0) * 1e-9, (t2 - t1) * 1e-9, local[1].strip());
    assertEquals(
        Files.readString(dir.resolve("local.csv")), Files.readString(dir.resolve("spark.csv")));
    String ls = Files.readString(dir.resolve("local.json"));
    String ss = Files.readString(dir.resolve("spark.json"));
    assertEquals(field(ls, "\"log_evidence\""), field(ss, "\"log_evidence\""));
    assertEquals(field(ls, "\"iterations\""), field(ss, "\"iterations\""));
    int h = ls.indexOf("\"hyperparameters\"");
    assertEquals(
        ls.substring(h, ls.indexOf('}', h)),
        ss.substring(
            ss.indexOf("\"hyperparameters\""), ss.indexOf('}', ss.indexOf("\"hyperparameters\""))));
  }

  /** The text of a JSON number field, up to the next comma or line end. */
  private static String field(String json, String key) {
    int i = json.indexOf(key);
    assertTrue(i >= 0, key + " in " + json);
    int from = json.indexOf(':', i) + 1;
    int to = from;
    while (to < json.length() && json.charAt(to) != ',' && json.charAt(to) != '\n') {
      to++;
    }
    return json.substring(from, to).strip();
  }

  /** Each combination --engine spark cannot run is one line and exit 2, before any output is written. */
  @Test
  void fitOnSparkRefusesWhatItCannotRun(@TempDir Path dir) throws IOException {
    double[][] x = inputs(60, 9);
    writeCsv(dir.resolve("train.csv"), x, labels(x, 10));
    writeCsv(dir.resolve("test.csv"), x, labels(x, 10));
    // the flags given, then a word the one-line refusal must contain
    String[][] cases = {
      {"--engine", "spark", "--inference", "vb", "--inference vb"},
      {"--engine", "spark", "--inference", "laplace", "--inference laplace"},
      {"--engine", "spark", "--inference", "rep", "--inference rep"},
      {"--engine", "spark", "--schedule", "sequential", "--schedule sequential"},
      {"--master", "local[2]", "--master needs --engine spark"},
    };
    for (String[] c : cases) {
      String[] flags = java.util.Arrays.copyOf(c, c.length - 1);
      String[] r = fit(dir, "refused", flags);
      assertEquals("2", r[0], String.join(" ", c) + ": " + r[1]);
      assertTrue(r[1].contains(c[c.length - 1]), r[1]);
      assertEquals(1, r[1].strip().lines().count(), r[1]);
      assertFalse(Files.exists(dir.resolve("refused.csv")));
    }
    // without --inducing
    StringWriter err = new StringWriter();
    int code = Main.run(
        new PrintWriter(err),
        "fit",
        "--train",
        dir.resolve("train.csv").toString(),
        "--test",
        dir.resolve("test.csv").toString(),
        "--label",
        "y",
        "--no-optimize",
        "--engine",
        "spark",
        "--out",
        dir.resolve("refused.csv").toString());
    assertEquals(2, code, err.toString());
    assertTrue(err.toString().contains("--inducing"), err.toString());
    assertEquals(1, err.toString().strip().lines().count(), err.toString());
  }
}
