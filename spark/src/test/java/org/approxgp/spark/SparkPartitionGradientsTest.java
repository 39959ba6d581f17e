package org.approxgp.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.apache.spark.api.java.JavaSparkContext;
import org.approxgp.cli.Main;
import org.approxgp.data.RegressionData;
import org.approxgp.sparse.Svbssgp;
import org.junit.jupiter.api.AfterAll;
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
    sc = new JavaSparkContext(SparkTrialExecutor.conf("local[2]").setAppName("SparkPartitionGradientsTest"));
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
  @CsvSource({"0, 1", "0, 2", "15, 1", "15, 2"})
  void sameGradientAndStepsAsTheLocalPath(int minibatch, int samples) {
    int n = 700;
    RegressionData train = data(n, 3, 11);
    int[] labels = labels(n, 14, 12);
    Svbssgp.Options o = Svbssgp.Options.builder().m(6).partitionsPerIteration(5).minibatch(minibatch)
        .gradientSamples(samples).seed(3).build();
    try (SparkPartitionGradients spark = SparkPartitionGradients.of(sc, train, labels, 3)) {
      assertEquals(3, spark.slices());
      assertEquals(14, spark.partitions());
      Svbssgp.Training local = Svbssgp.start(train, labels, o);
      Svbssgp.Training remote = Svbssgp.start(train, labels, o, spark);
      assertArrayEquals(local.parameters(), remote.parameters(), "initial parameters");
      for (long seed = 1; seed <= 3; seed++) {
        double[] gl = new double[local.parameters().length];
        double[] gs = new double[gl.length];
        double bl = local.gradientEstimate(seed, gl);
        double bs = remote.gradientEstimate(seed, gs);
        assertArrayEquals(gl, gs, "gradient, seed " + seed);
        assertEquals(bl, bs, "bound estimate, seed " + seed);
      }
      assertEquals(3 * samples, spark.jobs(), "one Spark job per gradient sample");
      for (int it = 0; it < 4; it++) {
        double el = local.step();
        double es = remote.step();
        assertEquals(el, es, "bound estimate at step " + (it + 1));
      }
      assertArrayEquals(local.parameters(), remote.parameters(), "parameters after 4 steps");
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
      int code = Main.run(new PrintWriter(err), "regress", "--model", "svbssgp", "--train", train.toString(),
          "--test", test.toString(), "--target", "y", "--iterations", "6", "--features", "10", "--partitions", "8",
          "--minibatch", "0", "--seed", "4", "--engine", engines[e], "--out", out.toString());
      assertEquals(0, code, engines[e] + ": " + err);
      files[e] = Files.readString(out);
    }
    assertEquals(files[0], files[1]);
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
      Svbssgp.Options o = Svbssgp.Options.builder().m(3).partitionsPerIteration(40).build();
      Svbssgp.Training run = Svbssgp.start(train, more, o, spark);
      double[] g = new double[run.parameters().length];
      assertThrows(IllegalArgumentException.class, () -> run.gradientEstimate(1, g));
    }
  }
}
