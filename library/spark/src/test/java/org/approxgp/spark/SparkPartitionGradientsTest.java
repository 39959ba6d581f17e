package org.approxgp.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.approxgp.cli.Main;
import org.approxgp.data.DataException;
import org.approxgp.data.Flights;
import org.approxgp.data.RegressionData;
import org.approxgp.data.RegressionSplits;
import org.approxgp.data.Split;
import org.approxgp.sparse.Svbssgp;
import org.approxgp.sparse.SvbssgpOptions;
import org.approxgp.sparse.SvbssgpTraining;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * sVBSSGP's data terms as a Spark job in {@code local[2]} (one context for the class): the same stochastic
 * gradient as the in-JVM path for the same seed, and the same parameters after a few steps. Both paths sum each
 * drawn partition's term on its own and add the terms in draw order (the PartitionGradients contract), so the
 * check is bit for bit, stronger than the 1e-12; summing the same terms in another grouping already
 * differs by 1.3e-11 relative on a gradient entry where terms cancel.
 */
class SparkPartitionGradientsTest {

  private static JavaSparkContext sc;

  @BeforeAll
  static void start() {
    sc = new JavaSparkContext(
        SparkTrialExecutor.conf("local[2]").setAppName("SparkPartitionGradientsTest"));
  }

  @AfterAll
  static void stop() {
    sc.stop();
  }

  /** n rows of d standard normal inputs, y = sin(x₁) + 0.5 x₂ + noise, labels uniform on p partitions. */
  private static RegressionData data(int n, int d, long seed) {
    Random r = new Random(seed);
    double[][] x = new double[n][d];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      for (int c = 0; c < d; c++) {
        x[i][c] = r.nextGaussian();
      }
      y[i] = Math.sin(x[i][0]) + 0.5 * x[i][1] + 0.1 * r.nextGaussian();
    }
    return RegressionData.of(x, y);
  }

  private static int[] labels(int n, int p, long seed) {
    Random r = new Random(seed);
    int[] labels = new int[n];
    for (int i = 0; i < n; i++) {
      labels[i] = r.nextInt(p);
    }
    return labels;
  }

  @ParameterizedTest(name = "minibatch {0}, gradient samples {1}")
  @CsvSource({"0, 1", "0, 2", "15, 1", "15, 2", "15, 5"})
  void sameGradientAndStepsAsTheLocalPath(int minibatch, int samples) {
    int n = 700;
    RegressionData train = data(n, 3, 11);
    int[] labels = labels(n, 14, 12);
    SvbssgpOptions whole = SvbssgpOptions.defaults()
        .withM(6)
        .withPartitionsPerIteration(5)
        .withGradientSamples(samples)
        .withSeed(3);
    // minibatch 0: every row of each drawn partition
    SvbssgpOptions o = minibatch == 0 ? whole : whole.withMinibatch(minibatch);
    try (SparkPartitionGradients spark = SparkPartitionGradients.of(sc, train, labels, 3)) {
      assertEquals(3, spark.slices());
      assertEquals(14, spark.partitions());
      SvbssgpTraining local = Svbssgp.start(train, labels, o);
      SvbssgpTraining remote = Svbssgp.start(train, labels, o, spark);
      assertArrayEquals(local.parameters(), remote.parameters(), "initial parameters");
      for (long seed = 1; seed <= 3; seed++) {
        double[] gl = new double[local.parameters().length];
        double[] gs = new double[gl.length];
        double bl = local.gradientEstimate(seed, gl);
        double bs = remote.gradientEstimate(seed, gs);
        assertArrayEquals(gl, gs, "gradient, seed " + seed);
        assertEquals(bl, bs, "bound estimate, seed " + seed);
      }
      assertEquals(3, spark.jobs(), "one Spark job per gradient estimate, all its samples");
      for (int it = 0; it < 4; it++) {
        double el = local.step();
        double es = remote.step();
        assertEquals(el, es, "bound estimate at step " + (it + 1));
      }
      assertEquals(3 + 4, spark.jobs(), "one Spark job per step");
      assertArrayEquals(local.parameters(), remote.parameters(), "parameters after 4 steps");
    }
  }

  /**
   * Spark reads flights-3m's parquet file itself ({@link SparkPartitionGradients#ofFlights}): the blocks it builds
   * on the executors hold the bits of the driver's rows (Flights.load, subset, RegressionSplits.standardize), and
   * the gradient estimates equal the local path's bit for bit. Loads all 3·10⁶ rows on the driver (Flights.load) and
   * has Spark read the file (zipWithIndex and the grouping each scan it): ≈ 40 s on this loaded machine, the one
   * check of the parquet path against the library's own reader;
   * skipped when flights-3m cannot be fetched (offline, no npm).
   */
  @Test
  void flightsParquetReadBySparkGivesTheDriversRowsAndGradient() {
    Path parquet;
    try {
      parquet = FlightsParquet.ensureCached();
    } catch (DataException | java.io.UncheckedIOException e) {
      Assumptions.abort("flights-3m not available: " + e.getMessage());
      return;
    }
    RegressionData all = Flights.load().data();
    int n = 3000;
    Random r = new Random(17);
    int[] source = r.ints(0, all.n()).distinct().limit(n).toArray(); // not in increasing order
    RegressionSplits.Standardized st = RegressionSplits.standardize(
        all.subset(source),
        new Split(java.util.stream.IntStream.range(0, n).toArray(), new int[0]),
        true);
    int[] labels = labels(n, 12, 18);
    SparkSession spark = SparkSession.builder().config(sc.getConf()).getOrCreate();
    try (SparkPartitionGradients driver = SparkPartitionGradients.of(sc, st.train(), labels, 3);
        SparkPartitionGradients read = SparkPartitionGradients.ofFlights(
            spark,
            parquet,
            Flights.cacheDir().resolve(Flights.AIRPORTS_FILE),
            source,
            st.xMean(),
            st.xScale(),
            st.yMean(),
            st.yScale(),
            labels,
            3)) {
      assertEquals(12, read.partitions());
      assertEquals(n, read.rows());
      var a = driver.blocks();
      var b = read.blocks();
      assertEquals(a.size(), b.size());
      for (int k = 0; k < a.size(); k++) {
        assertEquals(a.get(k).partition(), b.get(k).partition());
        assertArrayEquals(a.get(k).rows(), b.get(k).rows(), "rows of partition " + k);
        assertArrayEquals(a.get(k).x(), b.get(k).x(), "inputs of partition " + k);
        assertArrayEquals(a.get(k).y(), b.get(k).y(), "targets of partition " + k);
      }
      SvbssgpOptions o = SvbssgpOptions.defaults()
          .withM(5)
          .withPartitionsPerIteration(4)
          .withMinibatch(50)
          .withGradientSamples(2)
          .withSeed(5);
      SvbssgpTraining local = Svbssgp.start(st.train(), labels, o);
      SvbssgpTraining remote = Svbssgp.start(st.train(), labels, o, read);
      for (long seed = 1; seed <= 2; seed++) {
        double[] gl = new double[local.parameters().length];
        double[] gs = new double[gl.length];
        assertEquals(local.gradientEstimate(seed, gl), remote.gradientEstimate(seed, gs));
        assertArrayEquals(gl, gs, "gradient, seed " + seed);
      }
    }
  }

  /** Writes x and y as a CSV with a header (x0…, y). */
  private static void writeCsv(Path file, RegressionData data) throws IOException {
    StringBuilder sb = new StringBuilder();
    for (int c = 0; c < data.d(); c++) {
      sb.append("x").append(c).append(',');
    }
    sb.append("y\n");
    for (int i = 0; i < data.n(); i++) {
      for (int c = 0; c < data.d(); c++) {
        sb.append(data.x(i, c)).append(',');
      }
      sb.append(data.y()[i]).append('\n');
    }
    Files.writeString(file, sb.toString());
  }

  /**
   * {@code approxgp regress --model svbssgp --engine spark} (the service-loaded provider, on this class's active
   * context; the command fails if the provider is not found) writes the same predictions file as
   * {@code --engine local}, byte for byte.
   */
  @Test
  void regressCommandOnSparkWritesTheLocalPredictions(@TempDir Path dir) throws IOException {
    Path train = dir.resolve("train.csv");
    Path test = dir.resolve("test.csv");
    writeCsv(train, data(400, 2, 21));
    writeCsv(test, data(50, 2, 22));
    String[] files = new String[2];
    String[] engines = {"local", "spark"};
    for (int e = 0; e < 2; e++) {
      Path out = dir.resolve(engines[e] + ".csv");
      StringWriter err = new StringWriter();
      int code = Main.run(
          new PrintWriter(err),
          "regress",
          "--model",
          "svbssgp",
          "--train",
          train.toString(),
          "--test",
          test.toString(),
          "--target",
          "y",
          "--iterations",
          "6",
          "--features",
          "10",
          "--partitions",
          "8",
          "--seed",
          "4",
          "--engine",
          engines[e],
          "--out",
          out.toString());
      assertEquals(0, code, engines[e] + ": " + err);
      files[e] = Files.readString(out);
    }
    assertEquals(files[0], files[1]);
  }

  /**
   * {@code regress --engine spark} with a master nothing listens on, or a URL of no form Spark knows, fails as
   * {@code run} does: one line naming the master, exit 2, before any data is read, and no output file (both are
   * checked before Spark is asked, so this class's active context does not hide them).
   */
  @Test
  void regressWithAnUnreachableOrMalformedMasterFailsInOneLine(@TempDir Path dir)
      throws IOException {
    Path train = dir.resolve("train.csv");
    Path test = dir.resolve("test.csv");
    writeCsv(train, data(400, 2, 21));
    writeCsv(test, data(50, 2, 22));
    int port;
    try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
      port = free.getLocalPort(); // closed again: nothing listens there
    }
    for (String url : java.util.List.of("spark://127.0.0.1:" + port, "bogus://x")) {
      Path out = dir.resolve("pred.csv");
      StringWriter err = new StringWriter();
      int code = Main.run(
          new PrintWriter(err),
          "regress",
          "--model",
          "svbssgp",
          "--train",
          train.toString(),
          "--test",
          test.toString(),
          "--target",
          "y",
          "--iterations",
          "6",
          "--engine",
          "spark",
          "--master",
          url,
          "--out",
          out.toString());
      assertEquals(2, code, url + ": " + err);
      assertEquals(1, err.toString().strip().lines().count(), err.toString());
      assertTrue(err.toString().contains(url), err.toString());
      assertFalse(Files.exists(out));
    }
  }

  @Test
  void rejectsDrawsOutsideItsPartitions() {
    int n = 200;
    int p = 13;
    RegressionData train = data(n, 2, 5);
    int[] labels = labels(n, p, 6);
    int[] more = labels.clone();
    more[0] = p; // the run sees p + 1 partitions, the Spark data p
    try (SparkPartitionGradients spark = SparkPartitionGradients.of(sc, train, labels, 2)) {
      SvbssgpOptions o = SvbssgpOptions.defaults().withM(3).withPartitionsPerIteration(40);
      SvbssgpTraining run = Svbssgp.start(train, more, o, spark);
      double[] g = new double[run.parameters().length];
      assertThrows(IllegalArgumentException.class, () -> run.gradientEstimate(1, g));
    }
  }
}
