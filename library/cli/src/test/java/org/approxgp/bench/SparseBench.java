package org.approxgp.bench;

import java.util.Locale;
import org.approxgp.data.RegressionData;
import org.approxgp.data.RegressionDatasets;
import org.approxgp.data.RegressionSet;
import org.approxgp.sparse.KMeans;
import org.approxgp.sparse.Svbssgp;
import org.approxgp.sparse.SvbssgpOptions;
import org.approxgp.sparse.SvbssgpTraining;

/**
 * Benchmark (not a unit test): seconds per sVBSSGP training iteration on the first n rows of flights-3m
 * (AIRLINE's role), n = 1e4, 1e5, 1e6, 3e6, with the paper's settings (2m = 40 features, p = 2000 k-means
 * partitions, r = 5; §5), side by side in one run, with the ratio to n = 1e4. Two gradient estimators: whole
 * sampled partitions (Theorem 1 as written: cost ∝ n/p per partition) and B rows per sampled partition (unbiased
 * by reweighting; cost independent of n once every partition has at least B rows, i.e. B ≤ n/p). Also the time to load the 3M rows and the heap in use. The paper reports
 * 43 s per iteration on AIRLINE (2M rows, Xeon); printed beside ours.
 *
 * <p>{@code bin/bench sparse scaling} runs {@link SparseScalingBench} instead ({@code approxgp regress} at its
 * defaults, set-up apart from iterations, peak RSS); {@code bin/bench sparse classification} runs
 * {@link SparseClassificationBench} (sparse EP as a classifier at 1e6 rows beside logistic regression).
 *
 * <p>Run: {@code bin/bench sparse [ITERATIONS] [B,B,...]} (defaults 20 and 5,100; B = 0 is always run). The first run fetches
 * flights-3m (npm, ~60 MB once).
 */
public final class SparseBench {
  private SparseBench() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("scaling")) {
      SparseScalingBench.main(java.util.Arrays.copyOfRange(args, 1, args.length));
      return;
    }
    if (args.length > 1 && args[0].equals("classification") && args[1].equals("check")) {
      SparseClassificationCheck.main(java.util.Arrays.copyOfRange(args, 2, args.length));
      return;
    }
    if (args.length > 0 && args[0].equals("classification")) {
      SparseClassificationBench.main(java.util.Arrays.copyOfRange(args, 1, args.length));
      return;
    }
    int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 20;
    int[] given = java.util.Arrays.stream((args.length > 1 ? args[1] : "5,100").split(","))
        .mapToInt(Integer::parseInt)
        .toArray();
    int[] batches = new int[given.length + 1];
    System.arraycopy(given, 0, batches, 1, given.length);
    long t0 = System.nanoTime();
    RegressionSet flights = RegressionDatasets.flights();
    double loadSeconds = (System.nanoTime() - t0) * 1e-9;
    Runtime rt = Runtime.getRuntime();
    System.gc();
    double heapMb = (rt.totalMemory() - rt.freeMemory()) / 1048576.0;
    System.out.printf(
        Locale.ROOT,
        "flights-3m: %d rows x %d inputs loaded in %.2f s; heap in use %.0f MB (max %.0f MB)%n",
        flights.size(),
        flights.data().d(),
        loadSeconds,
        heapMb,
        rt.maxMemory() / 1048576.0);
    int[] sizes = {10_000, 100_000, 1_000_000, 3_000_000};
    int p = 2000;
    System.out.printf(
        Locale.ROOT,
        "%-10s %-12s %12s %12s %12s %10s%n",
        "n",
        "estimator",
        "kmeans s",
        "start s",
        "s/iteration",
        "ratio");
    double[] base = new double[batches.length];
    for (int n : sizes) {
      RegressionData d = standardised(flights.data(), Math.min(n, flights.size()));
      long k0 = System.nanoTime();
      KMeans km = KMeans.fit(d, p, 1, 20, Math.min(d.n(), 100_000));
      int[] parts = km.assign(d);
      double kmSeconds = (System.nanoTime() - k0) * 1e-9;
      for (int e = 0; e < batches.length; e++) {
        SvbssgpOptions whole = SvbssgpOptions.defaults()
            .withM(20)
            .withPredictiveSamples(5)
            .withIterations(iterations)
            .withSeed(1);
        // batch 0: every row of each drawn partition
        SvbssgpOptions o = batches[e] == 0 ? whole : whole.withMinibatch(batches[e]);
        long s0 = System.nanoTime();
        SvbssgpTraining t = Svbssgp.start(d, parts, o);
        double startSeconds = (System.nanoTime() - s0) * 1e-9;
        t.step(); // warm-up (JIT)
        long i0 = System.nanoTime();
        for (int i = 0; i < iterations; i++) {
          t.step();
        }
        double perIt = (System.nanoTime() - i0) * 1e-9 / iterations;
        if (n == sizes[0]) {
          base[e] = perIt;
        }
        System.out.printf(
            Locale.ROOT,
            "%-10d %-12s %12.2f %12.2f %12.5f %10.2f%n",
            d.n(),
            batches[e] == 0 ? "partitions" : "B=" + batches[e],
            kmSeconds,
            startSeconds,
            perIt,
            perIt / base[e]);
      }
    }
    System.out.println("paper (AIRLINE, 2M rows, Xeon): 43 s per iteration");
    System.out.printf(
        Locale.ROOT,
        "peak heap in use (after GC, approx.): %.0f MB%n",
        (rt.totalMemory() - rt.freeMemory()) / 1048576.0);
  }

  /** The first n rows, inputs and target standardised on those rows. */
  private static RegressionData standardised(RegressionData all, int n) {
    int d = all.d();
    double[] x = java.util.Arrays.copyOf(all.x(), n * d);
    double[] y = java.util.Arrays.copyOf(all.y(), n);
    for (int j = 0; j < d; j++) {
      double mu = 0;
      double ss = 0;
      for (int i = 0; i < n; i++) {
        mu += x[i * d + j];
      }
      mu /= n;
      for (int i = 0; i < n; i++) {
        double v = x[i * d + j] - mu;
        ss += v * v;
      }
      double sd = Math.sqrt(ss / n);
      for (int i = 0; i < n; i++) {
        x[i * d + j] = sd > 0 ? (x[i * d + j] - mu) / sd : 0;
      }
    }
    double mu = 0;
    double ss = 0;
    for (double v : y) {
      mu += v;
    }
    mu /= n;
    for (double v : y) {
      ss += (v - mu) * (v - mu);
    }
    double sd = Math.sqrt(ss / n);
    for (int i = 0; i < n; i++) {
      y[i] = (y[i] - mu) / sd;
    }
    return new RegressionData(x, n, d, y);
  }
}
