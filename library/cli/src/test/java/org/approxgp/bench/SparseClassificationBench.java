package org.approxgp.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
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
import org.approxgp.baseline.LogisticRegression;
import org.approxgp.data.RegressionData;
import org.approxgp.data.RegressionDatasets;
import org.approxgp.data.RegressionSet;
import org.approxgp.data.Standardizer;
import org.approxgp.inference.Problem;
import org.approxgp.inference.SiteUpdate;
import org.approxgp.inference.SparsePosterior;
import org.approxgp.inference.SparseProblem;
import org.approxgp.inference.SparseSiteLoop;
import org.approxgp.kernel.Kernel;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.likelihood.Probit;
import org.approxgp.linalg.Linalg;
import org.approxgp.model.Registry;
import org.approxgp.model.Settings;
import org.approxgp.model.SparseGpModel;
import org.approxgp.optimize.Lbfgs;
import org.approxgp.sparse.KMeans;

/**
 * Benchmark (not a unit test): sparse EP (FITC-EP, {@link SparseSiteLoop}) as a probit GP classifier at N rows of
 * flights-3m (default 1e6), M inducing inputs (default 100), beside L2-penalised logistic regression
 * ({@link LogisticRegression}) on the same rows.
 *
 * <p><b>Task.</b> Label +1 when the flight arrived late at all ({@code arr_delay > 0}), else −1 (on time or
 * early). The official threshold (the US Bureau of Transportation Statistics calls a flight on time when it arrives
 * less than 15 minutes late) was tried first and gives an uninformative test error: 21% of flights are late by
 * 15 minutes or more, and at N = 2e4 both sparse EP and logistic regression predicted "on time" for every test row
 * (error 0.2105 each, the majority rate; only the NLL told them apart). With {@code > 0} the classes are closer to
 * balanced and the error compares the classifiers. Inputs: flights' nine features, standardised on the training
 * rows. Rows: a seeded permutation of the 3e6 rows; its first {@value #TEST_ROWS} rows are the test set (the same
 * for every N), the next N the training rows.
 *
 * <p><b>Fit.</b> (1) Inducing inputs: k-means++ and Lloyd (seed 1, {@value #KMEANS_ITERATIONS} iterations) on the
 * first {@value #SUBSAMPLE} training rows. (2) Hyperparameters of an SE-ARD kernel (start: lengthscales 2, signal
 * variance 1): L-BFGS on the sparse EP energy with its analytic gradient ({@link SparseGpModel#fit}, Z fixed) on those
 * {@value #SUBSAMPLE} rows, capped at {@value #LBFGS_ITERATIONS} iterations. (3) One run of sparse EP on all N rows at
 * those hyperparameters and inducing inputs (sequential schedule, the registry's EP settings). The fit time is (1) +
 * (2) + (3); loading the data and the logistic regression are timed apart. Logistic regression: λ = 1 on the
 * standardised weights, intercept unpenalised (scikit-learn's default C = 1; with N ≥ 1e4 rows the penalty is
 * negligible next to the likelihood, so this is maximum likelihood in effect).
 *
 * <p><b>Memory.</b> The work runs in a child JVM with {@code -Xmx}{@value #HEAP}; its peak RSS is VmHWM of
 * {@code /proc/self/status} read at the end (the whole process: JVM, the 3e6 loaded rows, the fit). The last line:
 * {@code sparse classification: fit at 1e6 rows = S s; peak RSS = M MB; test error = E (logistic regression E0)}.
 *
 * <p>Run: {@code bin/bench sparse classification [N] [M]}.
 */
public final class SparseClassificationBench {
  static final int TEST_ROWS = 20_000;
  static final int SUBSAMPLE = 5_000;
  static final int KMEANS_ITERATIONS = 20;
  static final int LBFGS_ITERATIONS = 30;
  static final String HEAP = "1400m";
  /** A training or test row is +1 when its arrival delay exceeds this many minutes. */
  static final double DELAY_MINUTES = 0;

  private SparseClassificationBench() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("--child")) {
      child(Arrays.copyOfRange(args, 1, args.length));
      return;
    }
    List<String> cmd = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx" + HEAP,
        "-cp",
        System.getProperty("java.class.path")));
    for (String p : new String[] {"approxgp.data.cache", "approxgp.linalg"}) {
      if (System.getProperty(p) != null) {
        cmd.add("-D" + p + "=" + System.getProperty(p));
      }
    }
    cmd.add(SparseClassificationBench.class.getName());
    cmd.add("--child");
    cmd.addAll(List.of(args));
    Process proc = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    try (BufferedReader r =
        new BufferedReader(new InputStreamReader(proc.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        System.out.println(line);
      }
    }
    System.exit(proc.waitFor());
  }

  private static void child(String[] args) throws Exception {
    int nWanted = args.length > 0 ? (int) Double.parseDouble(args[0]) : 1_000_000;
    int mInd = args.length > 1 ? Integer.parseInt(args[1]) : 100;
    if (Linalg.nativeAvailable()) {
      Linalg.setNativeThreads(Runtime.getRuntime().availableProcessors());
    }
    System.out.println("load average at start: " + loadAverage() + "; linalg "
        + Linalg.backendName() + ", " + Linalg.nativeThreads() + " BLAS threads; heap -Xmx" + HEAP);
    long tLoad = System.nanoTime();
    RegressionSet flights = RegressionDatasets.flights();
    RegressionData all = flights.data();
    int d = all.d();
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(new long[] {47, 2026});
    int[] perm = PermutationSampler.natural(all.n());
    PermutationSampler.shuffle(rng, perm);
    int n = Math.min(nWanted, all.n() - TEST_ROWS);
    double[][] xTest = new double[TEST_ROWS][];
    double[] yTest = new double[TEST_ROWS];
    for (int i = 0; i < TEST_ROWS; i++) {
      xTest[i] = all.row(perm[i]);
      yTest[i] = all.y()[perm[i]] > DELAY_MINUTES ? 1 : -1;
    }
    double[][] x = new double[n][];
    double[] y = new double[n];
    int positives = 0;
    for (int i = 0; i < n; i++) {
      int r = perm[TEST_ROWS + i];
      x[i] = all.row(r);
      y[i] = all.y()[r] > DELAY_MINUTES ? 1 : -1;
      positives += y[i] > 0 ? 1 : 0;
    }
    all = null;
    flights = null;
    perm = null;
    Standardizer st = Standardizer.fit(x);
    for (double[][] rows : new double[][][] {x, xTest}) {
      double[][] s = st.apply(rows);
      System.arraycopy(s, 0, rows, 0, rows.length);
    }
    double loadSeconds = (System.nanoTime() - tLoad) * 1e-9;
    int testPositives = 0;
    for (double v : yTest) {
      testPositives += v > 0 ? 1 : 0;
    }
    System.out.printf(
        Locale.ROOT,
        "task: flights-3m, label +1 = arr_delay > %.0f min; %,d training rows (%.1f%% delayed), %,d test rows"
            + " (%.1f%% delayed; the majority label errs %.4f); d = %d standardised inputs; load"
            + " %.1f s%n",
        DELAY_MINUTES,
        n,
        100.0 * positives / n,
        TEST_ROWS,
        100.0 * testPositives / TEST_ROWS,
        Math.min(testPositives, TEST_ROWS - testPositives) / (double) TEST_ROWS,
        d,
        loadSeconds);

    // (1) inducing inputs and (2) hyperparameters on a subsample (the first SUBSAMPLE training
    // rows: a seeded
    // random subset)
    long tFit = System.nanoTime();
    int ns = Math.min(SUBSAMPLE, n);
    double[][] xs = Arrays.copyOf(x, ns);
    double[] ys = Arrays.copyOf(y, ns);
    KMeans km = KMeans.fit(RegressionData.of(xs, new double[ns]), mInd, 1, KMEANS_ITERATIONS);
    double[][] z = new double[mInd][];
    for (int c = 0; c < mInd; c++) {
      z[c] = km.centroid(c);
    }
    double kmeansSeconds = (System.nanoTime() - tFit) * 1e-9;
    double[] ell = new double[d];
    Arrays.fill(ell, 2.0);
    Kernel k0 = SquaredExponential.ard(ell, 1.0);
    Registry.SparseMethod ep = Registry.sparseInference("ep", Settings.none());
    @SuppressWarnings("unchecked")
    SiteUpdate<Object> rule = (SiteUpdate<Object>) ep.rule();
    long tHyp = System.nanoTime();
    SparseGpModel.Fit hyp = SparseGpModel.fit(
        new SparseProblem(new Problem(k0, xs, ys, Probit.get(), 0.0), z),
        rule,
        ep.loop(),
        new SparseGpModel.FitOptions(false, new Lbfgs.Settings(LBFGS_ITERATIONS, 1e-7, 1e-4, 10)));
    double hypSeconds = (System.nanoTime() - tHyp) * 1e-9;
    Kernel kernel = hyp.posterior().problem().problem().kernel();
    System.out.printf(
        Locale.ROOT,
        "hyperparameters: SE-ARD by L-BFGS on the sparse EP energy (M = %d k-means inducing inputs, fixed) on %,d"
            + " training rows: %d iterations, %d site-loop runs, %s, %.1f s (k-means %.1f s); energy %.2f;"
            + " log θ = %s%n",
        mInd,
        ns,
        hyp.iterations(),
        hyp.evaluations(),
        hyp.status(),
        hypSeconds,
        kmeansSeconds,
        hyp.posterior().logEvidence(),
        fmt(kernel.logHyperparameters()));
    xs = null;

    // (3) one sparse EP run on all N rows
    long tRun = System.nanoTime();
    SparsePosterior post = SparseSiteLoop.run(
        new SparseProblem(new Problem(kernel, x, y, Probit.get(), 0.0), z),
        rule,
        ep.loop().withGradient(false),
        null);
    double runSeconds = (System.nanoTime() - tRun) * 1e-9;
    double fitSeconds = (System.nanoTime() - tFit) * 1e-9;
    System.out.printf(
        Locale.ROOT,
        "sparse EP on all %,d rows: %s; %.1f s (%.2f s per sweep); log evidence %.2f%n",
        n,
        post.diagnostics(),
        runSeconds,
        runSeconds / Math.max(1, post.diagnostics().iterations()),
        post.logEvidence());
    long tPred = System.nanoTime();
    ClassifierScore sparse = ClassifierScore.of(post.predict(xTest), yTest);
    double predictSeconds = (System.nanoTime() - tPred) * 1e-9;
    post = null;

    long tLr = System.nanoTime();
    LogisticRegression lr = LogisticRegression.fit(x, y, 1.0);
    double lrSeconds = (System.nanoTime() - tLr) * 1e-9;
    ClassifierScore floor = ClassifierScore.of(lr, xTest, yTest);
    double rss = peakRssMb();
    System.out.printf(
        Locale.ROOT,
        "logistic regression (lambda = 1, intercept unpenalised) on the same %,d rows: %d Newton steps,"
            + " converged %s, %.1f s%n",
        n,
        lr.iterations(),
        lr.converged(),
        lrSeconds);
    System.out.printf(
        Locale.ROOT,
        "test (%,d rows): sparse EP error %.4f, NLL %.4f per row (prediction %.1f s); logistic regression error"
            + " %.4f, NLL %.4f per row%n",
        TEST_ROWS,
        sparse.testError(),
        sparse.nll(),
        predictSeconds,
        floor.testError(),
        floor.nll());
    System.out.printf(
        Locale.ROOT,
        "fit = k-means %.1f s + hyperparameters %.1f s + sparse EP on all rows %.1f s; load average at end: %s%n",
        kmeansSeconds,
        hypSeconds,
        runSeconds,
        loadAverage());
    System.out.printf(
        Locale.ROOT,
        "sparse classification: fit at %s rows = %.0f s; peak RSS = %.0f MB; test error = %.4f (logistic regression"
            + " %.4f)%n",
        label(n),
        fitSeconds,
        rss,
        sparse.testError(),
        floor.testError());
  }

  private static String fmt(double[] v) {
    StringBuilder b = new StringBuilder("[");
    for (int i = 0; i < v.length; i++) {
      b.append(i > 0 ? ", " : "").append(String.format(Locale.ROOT, "%.3f", v[i]));
    }
    return b.append(']').toString();
  }

  /** VmHWM of this process in MB. */
  static double peakRssMb() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("VmHWM:")) {
        return Double.parseDouble(line.replaceAll("[^0-9]", "")) / 1024;
      }
    }
    return Double.NaN;
  }

  private static String label(int n) {
    int e = (int) Math.floor(Math.log10(n));
    double m = n / Math.pow(10, e);
    return (m == Math.rint(m) ? String.valueOf((int) m) : String.format(Locale.ROOT, "%.2f", m))
        + "e" + e;
  }

  private static String loadAverage() throws IOException {
    return Files.readString(Path.of("/proc/loadavg")).trim();
  }
}
