package org.approxgp.spark.bench;

import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;
import org.apache.spark.api.java.JavaSparkContext;
import org.approxgp.data.RegressionData;
import org.approxgp.spark.SparkPartitionGradients;
import org.approxgp.spark.SparkTrialExecutor;
import org.approxgp.sparse.Svbssgp;
import org.approxgp.sparse.SvbssgpOptions;
import org.approxgp.sparse.SvbssgpTraining;

/**
 * Seconds per sVBSSGP step with the data terms summed in this JVM and as a Spark job
 * ({@link SparkPartitionGradients}, default master {@code local[2]}), on N synthetic rows (d = 8, p = 50 partitions,
 * a = 10 drawn per step, m = 20, whole partitions); the context start and the first, caching job are timed apart.
 * Also checks that both runs end at the same parameters. Not a test. Arguments: [N] [STEPS] [MASTER].
 */
public final class SvbssgpSparkBench {

  private SvbssgpSparkBench() {}

  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
    int steps = args.length > 1 ? Integer.parseInt(args[1]) : 10;
    String master = args.length > 2 ? args[2] : "local[2]";
    int d = 8;
    int p = 50;
    SplittableRandom r = new SplittableRandom(1);
    double[][] x = new double[n][d];
    double[] y = new double[n];
    int[] labels = new int[n];
    for (int i = 0; i < n; i++) {
      double s = 0;
      for (int c = 0; c < d; c++) {
        x[i][c] = r.nextDouble(-2, 2);
        s += Math.sin(x[i][c] * (c + 1) * 0.5);
      }
      y[i] = s + 0.1 * r.nextDouble(-1, 1);
      labels[i] = (int) ((x[i][0] + 2) / 4 * p);
    }
    RegressionData train = RegressionData.of(x, y);
    SvbssgpOptions o =
        SvbssgpOptions.defaults().withM(20).withPartitionsPerIteration(10).withSeed(2);

    long t0 = System.nanoTime();
    JavaSparkContext sc = SparkTrialExecutor.embedded(master).context();
    double start = (System.nanoTime() - t0) * 1e-9;
    try (SparkPartitionGradients spark = SparkPartitionGradients.of(sc, train, labels)) {
      SvbssgpTraining local = Svbssgp.start(train, labels, o);
      SvbssgpTraining remote = Svbssgp.start(train, labels, o, spark);
      // warm-up: one gradient each (JIT; the Spark one also distributes and caches the blocks)
      double[] g = new double[local.parameters().length];
      local.gradientEstimate(99, g);
      t0 = System.nanoTime();
      remote.gradientEstimate(99, g);
      double first = (System.nanoTime() - t0) * 1e-9;
      t0 = System.nanoTime();
      for (int i = 0; i < steps; i++) {
        local.step();
      }
      double tl = (System.nanoTime() - t0) * 1e-9 / steps;
      t0 = System.nanoTime();
      for (int i = 0; i < steps; i++) {
        remote.step();
      }
      double ts = (System.nanoTime() - t0) * 1e-9 / steps;
      System.out.printf(
          Locale.ROOT,
          "n = %d, p = %d, a = 10, m = 20, d = %d, %d cores, Spark %s (%d slices)%n",
          n,
          p,
          d,
          Runtime.getRuntime().availableProcessors(),
          master,
          spark.slices());
      System.out.printf(
          Locale.ROOT, "Spark start %.2f s, first (distributing) gradient %.2f s%n", start, first);
      System.out.printf(
          Locale.ROOT,
          "per step: local %.3f s, Spark %.3f s; same parameters: %b%n",
          tl,
          ts,
          Arrays.equals(local.parameters(), remote.parameters()));
    } finally {
      sc.stop();
    }
  }
}
