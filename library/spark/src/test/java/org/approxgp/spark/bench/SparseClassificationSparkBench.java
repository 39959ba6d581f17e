package org.approxgp.spark.bench;

import java.util.Arrays;
import java.util.Locale;
import java.util.Random;
import org.apache.spark.api.java.JavaSparkContext;
import org.approxgp.inference.MomentMatching;
import org.approxgp.inference.Prediction;
import org.approxgp.inference.Problem;
import org.approxgp.inference.SiteBlock;
import org.approxgp.inference.SiteLoop;
import org.approxgp.inference.SiteLoopOptions;
import org.approxgp.inference.SparsePosterior;
import org.approxgp.inference.SparseProblem;
import org.approxgp.inference.SparseSiteLoop;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.likelihood.Probit;
import org.approxgp.linalg.Linalg;
import org.approxgp.spark.SparkSiteBlocks;
import org.approxgp.sparse.KMeans;

/**
 * Benchmark (not a unit test): one sparse EP fit (FITC-EP, {@link SparseSiteLoop}, the parallel schedule with
 * damping 0.5, at fixed hyperparameters) on N training rows, its blocks of {@link SiteBlock#ROWS} rows in this JVM
 * and on Spark ({@link SparkSiteBlocks}), side by side: seconds of each (the Spark run after one warm-up run on a
 * small problem, so the context's start is not counted), sweeps, and whether sites, log evidence and the predictions
 * at the test rows are identical bit for bit.
 *
 * <p>Data (synthetic; the flights set is not needed): d = 4 standard normal inputs, label +1 when
 * sin(2x₁) + x₂ − 0.5 x₃x₄ + 0.3 ε > 0, seeded; 10 000 test rows. SE-ISO kernel (lengthscale 1, signal variance 1),
 * M inducing inputs at the k-means centroids of the first 5 000 training rows (seed 1, 20 Lloyd iterations).
 *
 * <p>Run: {@code bin/bench sparse classification spark [N] [M] [MASTER]} (defaults 1e5, 100, local[2]).
 */
public final class SparseClassificationSparkBench {
  private SparseClassificationSparkBench() {}

  static final int D = 4;
  static final int TEST_ROWS = 10_000;

  private static double[][] inputs(int n, Random r) {
    double[][] x = new double[n][D];
    for (double[] row : x) {
      for (int c = 0; c < D; c++) {
        row[c] = r.nextGaussian();
      }
    }
    return x;
  }

  private static double[] labels(double[][] x, Random r) {
    double[] y = new double[x.length];
    for (int i = 0; i < y.length; i++) {
      double[] v = x[i];
      y[i] = Math.sin(2 * v[0]) + v[1] - 0.5 * v[2] * v[3] + 0.3 * r.nextGaussian() > 0 ? 1 : -1;
    }
    return y;
  }

  public static void main(String[] args) {
    int n = args.length > 0 ? (int) Double.parseDouble(args[0]) : 100_000;
    int m = args.length > 1 ? Integer.parseInt(args[1]) : 100;
    String master = args.length > 2 ? args[2] : "local[2]";
    Random r = new Random(47);
    double[][] x = inputs(n, r);
    double[] y = labels(x, r);
    double[][] xt = inputs(TEST_ROWS, r);
    double[] yt = labels(xt, r);
    double[][] z = KMeans.centroidRows(Arrays.copyOf(x, Math.min(n, 5_000)), m, 1, 20);
    SparseProblem sp =
        new SparseProblem(Problem.of(SquaredExponential.iso(1.0, 1.0), x, y, Probit.get()), z);
    SiteLoopOptions opt = SiteLoopOptions.defaults()
        .withGradient(false)
        .withSchedule(SiteLoop.Schedule.PARALLEL)
        .withDamping(0.5);
    System.out.printf(
        Locale.ROOT,
        "sparse EP, parallel schedule: n = %,d rows (%d blocks of %d), M = %d, d = %d; linalg %s, %d BLAS"
            + " thread(s); Spark master %s; %d cores%n",
        n,
        SiteBlock.count(n),
        SiteBlock.ROWS,
        m,
        D,
        Linalg.backendName(),
        Linalg.nativeThreads(),
        master,
        Runtime.getRuntime().availableProcessors());
    long t0 = System.nanoTime();
    SparsePosterior local = SparseSiteLoop.run(sp, MomentMatching.ep(), opt, null);
    double localSeconds = (System.nanoTime() - t0) * 1e-9;
    JavaSparkContext sc = new JavaSparkContext(new org.apache.spark.SparkConf()
        .setMaster(master)
        .setAppName("SparseClassificationSparkBench")
        .set("spark.ui.enabled", "false")
        .set("spark.driver.bindAddress", "127.0.0.1")
        .set("spark.driver.host", "127.0.0.1"));
    SparsePosterior spark;
    double sparkSeconds;
    long jobs;
    int partitions;
    try (SparkSiteBlocks blocks = new SparkSiteBlocks(sc)) {
      // warm-up: the executors' first tasks (class loading, JIT) on a small problem
      SparseProblem small = new SparseProblem(
          Problem.of(
              SquaredExponential.iso(1.0, 1.0),
              Arrays.copyOf(x, Math.min(n, 3_000)),
              Arrays.copyOf(y, Math.min(n, 3_000)),
              Probit.get()),
          z);
      SparseSiteLoop.run(small, MomentMatching.ep(), opt.withMaxSweeps(3), null, blocks);
      long t1 = System.nanoTime();
      spark = SparseSiteLoop.run(sp, MomentMatching.ep(), opt, null, blocks);
      sparkSeconds = (System.nanoTime() - t1) * 1e-9;
      jobs = blocks.jobs();
      partitions = blocks.partitions();
    } finally {
      sc.stop();
    }
    Prediction pl = local.predict(xt);
    Prediction ps = spark.predict(xt);
    boolean identical = Arrays.equals(local.sites().tau(), spark.sites().tau())
        && Arrays.equals(local.sites().nu(), spark.sites().nu())
        && Double.doubleToRawLongBits(local.logEvidence())
            == Double.doubleToRawLongBits(spark.logEvidence())
        && Arrays.equals(pl.latentMean(), ps.latentMean())
        && Arrays.equals(pl.latentVariance(), ps.latentVariance());
    int errors = 0;
    for (int j = 0; j < TEST_ROWS; j++) {
      errors += (pl.latentMean()[j] > 0 ? 1 : -1) != yt[j] ? 1 : 0;
    }
    System.out.printf(
        Locale.ROOT,
        "local:  %8.2f s, %d sweeps, %s, log evidence %.6f%n",
        localSeconds,
        local.diagnostics().iterations(),
        local.diagnostics().converged() ? "converged" : "NOT converged",
        local.logEvidence());
    System.out.printf(
        Locale.ROOT,
        "spark:  %8.2f s, %d sweeps, %d Spark partitions, %d jobs (incl. a 3-sweep warm-up), log evidence %.6f%n",
        sparkSeconds,
        spark.diagnostics().iterations(),
        partitions,
        jobs,
        spark.logEvidence());
    System.out.printf(
        Locale.ROOT,
        "sparse classification spark: n = %,d, M = %d: local %.2f s, spark (%s) %.2f s, ratio %.2f;"
            + " identical (sites, log evidence, %,d test predictions): %s; test error %.4f%n",
        n,
        m,
        localSeconds,
        master,
        sparkSeconds,
        sparkSeconds / localSeconds,
        TEST_ROWS,
        identical ? "yes" : "NO",
        errors / (double) TEST_ROWS);
  }
}
