package org.approxgp.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.PermutationSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.approxgp.data.ColumnFile;
import org.approxgp.data.RegressionData;
import org.approxgp.data.RegressionDatasets;
import org.approxgp.data.RegressionSet;

/**
 * Benchmark (not a unit test): {@code approxgp regress --model svbssgp} at its default settings on n = 1e4, 1e5,
 * 1e6 and 3e6 training rows of flights-3m, each run a separate process under {@code /usr/bin/time}: per-iteration
 * time (the median of the differences of the summary's trace seconds after the first iteration, so without the
 * set-up), set-up time (k-means, initialisation; the summary's {@code setup_seconds}), the iterations' and the final
 * prediction's time ({@code predict_seconds}), peak RSS, the whole run's wall time, and the test RMSE beside predicting the training mean and a linear ridge regression on the same
 * standardised inputs. The rows are a seeded permutation of flights-3m: its first {@value #TEST_ROWS} rows are the
 * test set of every run, the first n of the rest the training rows (at most 2,970,000, printed). Train and test
 * rows go to the process as approxgp column files (the test file without the target, so the run predicts once,
 * at the end). Ends with the line
 * {@code sparse scaling: per-iteration time 3e6/1e4 = R; peak RSS at 3e6 rows = M MB; fit at 3e6 rows = S s}.
 *
 * <p>Run: {@code bin/bench sparse scaling [N,N,...]} (default 10000,100000,1000000,3000000).
 */
public final class SparseScalingBench {
  static final int TEST_ROWS = 30_000;
  private static final ObjectMapper JSON = new ObjectMapper();

  private SparseScalingBench() {}

  /** One run's measurements. */
  private record Run(
      int n,
      int partitions,
      int iterations,
      String stop,
      double loadSeconds,
      double setupSeconds,
      double iterationSeconds,
      double predictSeconds,
      double perIteration,
      double wallSeconds,
      double rssMb,
      double rmse,
      double rmseMean,
      double rmseRidge) {}

  public static void main(String[] args) throws Exception {
    int[] sizes = Arrays.stream(
            (args.length > 0 ? args[0] : "10000,100000,1000000,3000000").split(","))
        .mapToInt(Integer::parseInt)
        .toArray();
    Path root = Path.of(System.getProperty("user.dir"));
    Path approxgp = root.resolve("bin/approxgp");
    System.out.println("load average at start: " + loadAverage());
    RegressionSet flights = RegressionDatasets.flights();
    RegressionData all = flights.data();
    int d = all.d();
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(new long[] {2017, 23});
    int[] perm = PermutationSampler.natural(all.n());
    PermutationSampler.shuffle(rng, perm);
    Path dir = Files.createTempDirectory("sparse-scaling");
    List<String> names = new ArrayList<>(flights.featureNames());
    int[] testRows = Arrays.copyOf(perm, TEST_ROWS);
    double[] yTest = new double[TEST_ROWS];
    for (int i = 0; i < TEST_ROWS; i++) {
      yTest[i] = all.y()[testRows[i]];
    }
    Path test = dir.resolve("test.apc");
    write(all, testRows, names, null, test);
    List<Run> runs = new ArrayList<>();
    System.out.printf(
        Locale.ROOT,
        "%-9s %6s %6s %-10s %7s %8s %7s %7s %10s %8s %8s %9s %9s %9s%n",
        "n_train",
        "p",
        "iters",
        "stop",
        "load s",
        "setup s",
        "iter s",
        "pred s",
        "ms/iter",
        "fit s",
        "RSS MB",
        "RMSE",
        "mean",
        "ridge");
    for (int size : sizes) {
      int n = Math.min(size, all.n() - TEST_ROWS);
      int[] rows = Arrays.copyOfRange(perm, TEST_ROWS, TEST_ROWS + n);
      Path train = dir.resolve("train-" + size + ".apc");
      write(all, rows, names, flights.targetName(), train);
      double[] base = baselines(all, rows, testRows, yTest);
      rows = null;
      Path out = dir.resolve("pred-" + size + ".csv");
      Path sum = dir.resolve("summary-" + size + ".json");
      Path timing = dir.resolve("time-" + size + ".txt");
      ProcessBuilder pb = new ProcessBuilder(
          "/usr/bin/time",
          "-o",
          timing.toString(),
          "-f",
          "%M %e",
          approxgp.toString(),
          "regress",
          "--model",
          "svbssgp",
          "--train",
          train.toString(),
          "--test",
          test.toString(),
          "--target",
          flights.targetName(),
          "--out",
          out.toString(),
          "--summary",
          sum.toString());
      pb.redirectErrorStream(true);
      pb.redirectOutput(dir.resolve("log-" + size + ".txt").toFile());
      int rc = pb.start().waitFor();
      if (rc != 0) {
        System.out.println("n = " + size + ": regress exited " + rc + "; log:");
        System.out.println(Files.readString(dir.resolve("log-" + size + ".txt")));
        System.exit(1);
      }
      String[] t = Files.readString(timing).trim().split("\\s+");
      double rssMb = Double.parseDouble(t[t.length - 2]) / 1024;
      double wall = Double.parseDouble(t[t.length - 1]);
      JsonNode s = JSON.readTree(sum.toFile());
      JsonNode trace = s.path("trace");
      double[] steps = new double[Math.max(0, trace.size() - 1)];
      for (int i = 1; i < trace.size(); i++) {
        steps[i - 1] = trace.get(i).path("seconds").asDouble()
            - trace.get(i - 1).path("seconds").asDouble();
      }
      Arrays.sort(steps);
      double median = steps.length == 0
          ? Double.NaN
          : steps.length % 2 == 1
              ? steps[steps.length / 2]
              : 0.5 * (steps[steps.length / 2 - 1] + steps[steps.length / 2]);
      Run r = new Run(
          n,
          s.path("partitions").asInt(),
          s.path("iterations").asInt(),
          s.path("stop_reason").asText(),
          s.path("load_seconds").asDouble(),
          s.path("setup_seconds").asDouble(),
          trace.size() == 0
              ? 0
              : trace.get(trace.size() - 1).path("seconds").asDouble()
                  - s.path("setup_seconds").asDouble(),
          s.path("predict_seconds").asDouble(),
          median,
          wall,
          rssMb,
          rmse(out, yTest),
          base[0],
          base[1]);
      runs.add(r);
      System.out.printf(
          Locale.ROOT,
          "%-9d %6d %6d %-10s %7.2f %8.2f %7.2f %7.2f %10.3f %8.1f %8.0f %9.4f %9.4f %9.4f%n",
          r.n(),
          r.partitions(),
          r.iterations(),
          r.stop(),
          r.loadSeconds(),
          r.setupSeconds(),
          r.iterationSeconds(),
          r.predictSeconds(),
          1e3 * r.perIteration(),
          r.wallSeconds(),
          r.rssMb(),
          r.rmse(),
          r.rmseMean(),
          r.rmseRidge());
      Files.deleteIfExists(train);
    }
    System.out.println("load average at end: " + loadAverage());
    System.out.println("files: " + dir);
    Run first = runs.get(0);
    Run last = runs.get(runs.size() - 1);
    System.out.printf(
        Locale.ROOT,
        "fit at %s rows: load %.1f s, set-up %.1f s, iterations %.1f s, prediction %.1f s, the rest (JVM start,"
            + " output) %.1f s%n",
        label(sizes[sizes.length - 1]),
        last.loadSeconds(),
        last.setupSeconds(),
        last.iterationSeconds(),
        last.predictSeconds(),
        last.wallSeconds()
            - last.loadSeconds()
            - last.setupSeconds()
            - last.iterationSeconds()
            - last.predictSeconds());
    System.out.printf(
        Locale.ROOT,
        "sparse scaling: per-iteration time %s/%s = %.2f; peak RSS at %s rows = %.0f MB;"
            + " fit at %s rows = %.0f s%n",
        label(sizes[sizes.length - 1]),
        label(sizes[0]),
        last.perIteration() / first.perIteration(),
        label(sizes[sizes.length - 1]),
        last.rssMb(),
        label(sizes[sizes.length - 1]),
        last.wallSeconds());
  }

  private static String label(int n) {
    int e = (int) Math.floor(Math.log10(n));
    double m = n / Math.pow(10, e);
    return (m == Math.rint(m) ? String.valueOf((int) m) : String.valueOf(m)) + "e" + e;
  }

  private static String loadAverage() throws IOException {
    return Files.readString(Path.of("/proc/loadavg")).trim();
  }

  /** The rows {@code rows} of {@code all} as a column file: the inputs, then the target unless null. */
  private static void write(
      RegressionData all, int[] rows, List<String> names, String target, Path file) {
    int d = all.d();
    List<ColumnFile.Column> cols = new ArrayList<>();
    for (int j = 0; j < d; j++) {
      double[] v = new double[rows.length];
      for (int i = 0; i < rows.length; i++) {
        v[i] = all.x()[rows[i] * d + j];
      }
      cols.add(ColumnFile.Column.ofDoubles(names.get(j), v));
    }
    if (target != null) {
      double[] v = new double[rows.length];
      for (int i = 0; i < rows.length; i++) {
        v[i] = all.y()[rows[i]];
      }
      cols.add(ColumnFile.Column.ofDoubles(target, v));
    }
    new ColumnFile(rows.length, cols, java.util.Map.of("source", "flights-3m, seeded permutation"))
        .write(file);
  }

  /**
   * Test RMSE of the training mean and of linear ridge regression (inputs standardised on the training rows,
   * intercept unpenalised, penalty 1e-6·n on the standardised weights: least squares in practice).
   */
  static double[] baselines(RegressionData all, int[] rows, int[] testRows, double[] yTest) {
    int d = all.d();
    int n = rows.length;
    double[] mu = new double[d];
    double[] sd = new double[d];
    double yMu = 0;
    for (int r : rows) {
      for (int j = 0; j < d; j++) {
        mu[j] += all.x()[r * d + j] / n;
      }
      yMu += all.y()[r] / n;
    }
    for (int r : rows) {
      for (int j = 0; j < d; j++) {
        double e = all.x()[r * d + j] - mu[j];
        sd[j] += e * e / n;
      }
    }
    for (int j = 0; j < d; j++) {
      sd[j] = sd[j] > 0 ? Math.sqrt(sd[j]) : 1;
    }
    double[][] a = new double[d][d];
    double[] b = new double[d];
    double[] z = new double[d];
    for (int r : rows) {
      for (int j = 0; j < d; j++) {
        z[j] = (all.x()[r * d + j] - mu[j]) / sd[j];
      }
      double yc = all.y()[r] - yMu;
      for (int j = 0; j < d; j++) {
        b[j] += z[j] * yc;
        for (int k = 0; k <= j; k++) {
          a[j][k] += z[j] * z[k];
        }
      }
    }
    for (int j = 0; j < d; j++) {
      a[j][j] += 1e-6 * n;
      for (int k = 0; k < j; k++) {
        a[k][j] = a[j][k];
      }
    }
    double[] w = solve(a, b);
    double sMean = 0;
    double sRidge = 0;
    for (int i = 0; i < testRows.length; i++) {
      double f = yMu;
      for (int j = 0; j < d; j++) {
        f += w[j] * (all.x()[testRows[i] * d + j] - mu[j]) / sd[j];
      }
      sMean += (yTest[i] - yMu) * (yTest[i] - yMu);
      sRidge += (yTest[i] - f) * (yTest[i] - f);
    }
    return new double[] {Math.sqrt(sMean / testRows.length), Math.sqrt(sRidge / testRows.length)};
  }

  /** Gaussian elimination with partial pivoting (a small symmetric positive definite system). */
  private static double[] solve(double[][] a0, double[] b0) {
    int d = b0.length;
    double[][] a = new double[d][];
    for (int i = 0; i < d; i++) {
      a[i] = a0[i].clone();
    }
    double[] b = b0.clone();
    for (int c = 0; c < d; c++) {
      int piv = c;
      for (int r = c + 1; r < d; r++) {
        if (Math.abs(a[r][c]) > Math.abs(a[piv][c])) {
          piv = r;
        }
      }
      double[] tr = a[c];
      a[c] = a[piv];
      a[piv] = tr;
      double tb = b[c];
      b[c] = b[piv];
      b[piv] = tb;
      for (int r = c + 1; r < d; r++) {
        double f = a[r][c] / a[c][c];
        for (int k = c; k < d; k++) {
          a[r][k] -= f * a[c][k];
        }
        b[r] -= f * b[c];
      }
    }
    double[] x = new double[d];
    for (int r = d - 1; r >= 0; r--) {
      double s = b[r];
      for (int k = r + 1; k < d; k++) {
        s -= a[r][k] * x[k];
      }
      x[r] = s / a[r][r];
    }
    return x;
  }

  private static double rmse(Path predictions, double[] y) {
    try {
      List<String> lines = Files.readAllLines(predictions, StandardCharsets.UTF_8);
      double ss = 0;
      for (int i = 0; i < y.length; i++) {
        double m = Double.parseDouble(lines.get(i + 1).split(",")[0]);
        ss += (y[i] - m) * (y[i] - m);
      }
      return Math.sqrt(ss / y.length);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
