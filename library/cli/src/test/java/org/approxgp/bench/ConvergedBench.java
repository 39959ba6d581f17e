package org.approxgp.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.DoubleAdder;
import org.approxgp.experiment.ProjectPaths;
import org.approxgp.model.FittedGp;
import org.approxgp.papers.qp.QpMining;
import org.approxgp.papers.qp.QpTable1;

/**
 * Benchmark (not a test): the fraction of QP Table 1's optimised fits that report converged, on a seeded random
 * sample of the paper-scale trials of all ten data sets, under the authors' protocol and the clean one.
 *
 * <p>Classification rows (nine data sets): {@code N} distinct (seed, fold) pairs are drawn (seeded) from the full
 * run's 100 × 10 per data set and protocol; each pair is fitted by EP, QP (optimised from EP's optimum, as the
 * full run: {@code QpTable1.Config.forMode(FULL, …)}), VB and Laplace, exactly as the experiment's trial does
 * ({@link QpTable1#fit}). Mining: {@code N} distinct seeds of the full run's 200, fitted by EP, QP, VB
 * ({@link QpMining#fit}). A fit counts as converged when the L-BFGS run ended by its gradient or relative-decrease
 * test and the final inference converged ({@code FittedGp.converged}).
 *
 * <p>Prints, per protocol × data set × method, converged k/n with the fraction's binomial standard error and the
 * Wilson 95 % interval, then every stop reason of a fit that did not converge, counted (numbers in the reasons
 * replaced by #), and how every fit's optimiser stopped. Thread CPU time of all fits at the end.
 *
 * <p>Run: {@code bin/bench converged [N] [SEED] [THREADS] [DATASETS]} (defaults 30, 1, all cores, all ten;
 * DATASETS a comma-separated subset of Table 1's row names). Every fit is printed as one line as it ends, the draws
 * run round-robin over the cells, so a run stopped early has sampled every cell about equally:
 * {@code bin/bench converged --from OUTPUT} prints the tables of such a run from its lines.
 */
public final class ConvergedBench {
  private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();
  private static final List<String> CLASSIFICATION_METHODS = List.of("ep", "qp", "vb", "laplace");

  private ConvergedBench() {}

  /** One fit's verdict. */
  record Verdict(
      String protocol, String dataset, String method, boolean converged, String reason) {}

  public static void main(String[] args) throws Exception {
    if (args.length == 2 && args[0].equals("--from")) {
      // the tables of an earlier (possibly stopped) run, from its "fit …" lines
      List<Verdict> read = new ArrayList<>();
      for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of(args[1]))) {
        if (line.startsWith("fit ")) {
          String[] f = line.split(" ", 8);
          read.add(new Verdict(
              f[1], f[2], f[3], f[5].equals("converged"), f.length > 7 ? f[6] + " " + f[7] : f[6]));
        }
      }
      print(read);
      return;
    }
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 30;
    long seed = args.length > 1 ? Long.parseLong(args[1]) : 1;
    int threads =
        args.length > 2 ? Integer.parseInt(args[2]) : Runtime.getRuntime().availableProcessors();
    List<String> datasets = args.length > 3
        ? List.of(args[3].split(","))
        : List.of(
            "ionosphere",
            "cancer",
            "pima",
            "crabs",
            "sonar",
            "glass",
            "wine1",
            "wine2",
            "wine3",
            "mining");
    QpTable1.Config fullClean =
        QpTable1.Config.forMode(ProjectPaths.Mode.FULL, CLASSIFICATION_METHODS);
    int miningSeeds = QpMining.Config.forMode(ProjectPaths.Mode.FULL).seeds();
    System.out.printf(
        Locale.ROOT,
        "converged fraction of QP Table 1's optimised fits: %d fits per protocol × data set"
            + " × method, sample seed %d, %d threads; classification: (seed, fold) of %d × %d, kernel %s, QP optimised"
            + " %s; mining: seeds of %d%n",
        n,
        seed,
        threads,
        fullClean.seeds(),
        fullClean.folds(),
        fullClean.kernel(),
        fullClean.qpOptimized(),
        miningSeeds);
    List<Verdict> verdicts = java.util.Collections.synchronizedList(new ArrayList<>());
    DoubleAdder cpu = new DoubleAdder();
    // jobs[i] holds the i-th draw of every (protocol, data set): run round-robin, so that a run
    // stopped early
    // has sampled every cell about equally (each finished fit is printed as it ends)
    List<List<Runnable>> rounds = new ArrayList<>();
    for (String protocol : List.of("authors", "clean")) {
      Random rng = new Random(seed * 31 + protocol.hashCode());
      for (String d : datasets) {
        List<Runnable> cell = new ArrayList<>();
        if (d.equals("mining")) {
          QpMining.Protocol mp = QpMining.Protocol.of(protocol);
          for (int s : distinct(rng, n, miningSeeds)) {
            cell.add(() -> {
              for (QpMining.MethodResult r :
                  QpMining.fit(s, QpMining.METHODS, mp).methods()) {
                record(
                    verdicts,
                    new Verdict(protocol, d, r.method(), r.converged(), r.status()),
                    s + "");
              }
            });
          }
        } else {
          QpTable1.Config c = fullClean.withProtocol(QpTable1.Protocol.of(protocol));
          for (int pair : distinct(rng, n, c.seeds() * c.folds())) {
            cell.add(() -> {
              for (String m : CLASSIFICATION_METHODS) {
                FittedGp fit =
                    QpTable1.fit(c, new QpTable1.Key(d, m, pair / c.folds(), pair % c.folds()));
                record(
                    verdicts,
                    new Verdict(protocol, d, m, fit.converged(), reason(fit)),
                    pair / c.folds() + "/" + pair % c.folds());
              }
            });
          }
        }
        for (int i = 0; i < cell.size(); i++) {
          if (rounds.size() <= i) {
            rounds.add(new ArrayList<>());
          }
          rounds.get(i).add(cell.get(i));
        }
      }
    }
    List<Runnable> jobs = rounds.stream().flatMap(List::stream).toList();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    AtomicInteger done = new AtomicInteger();
    long w0 = System.nanoTime();
    List<Future<?>> futures = new ArrayList<>();
    for (Runnable job : jobs) {
      futures.add(pool.submit(() -> {
        long c0 = CPU.getCurrentThreadCpuTime();
        try {
          job.run();
        } catch (RuntimeException e) {
          System.err.println("a job threw: " + e);
        } finally {
          cpu.add((CPU.getCurrentThreadCpuTime() - c0) * 1e-9);
          int k = done.incrementAndGet();
          System.err.printf(
              Locale.ROOT, "\r%d/%d jobs, %.0f s", k, jobs.size(), (System.nanoTime() - w0) * 1e-9);
        }
      }));
    }
    for (Future<?> f : futures) {
      f.get();
    }
    pool.shutdown();
    System.err.println();
    print(verdicts);
    System.out.printf(
        Locale.ROOT,
        "CPU time of all fits: %.0f s; wall time %.0f s%n",
        cpu.sum(),
        (System.nanoTime() - w0) * 1e-9);
  }

  /** Keeps a verdict and prints it as one line (seed/fold or seed), so that a stopped run leaves its data. */
  private static void record(List<Verdict> verdicts, Verdict v, String trial) {
    verdicts.add(v);
    System.out.printf(
        Locale.ROOT,
        "fit %s %s %s %s %s %s%n",
        v.protocol(),
        v.dataset(),
        v.method(),
        trial,
        v.converged() ? "converged" : "NOT-converged",
        v.reason().replace('\n', ' '));
  }

  /** {@code k} distinct integers of [0, bound), drawn uniformly by {@code rng}, in drawing order. */
  static List<Integer> distinct(Random rng, int k, int bound) {
    Set<Integer> out = new LinkedHashSet<>();
    while (out.size() < Math.min(k, bound)) {
      out.add(rng.nextInt(bound));
    }
    return List.copyOf(out);
  }

  /** The optimiser's stop reason and, when the final inference did not converge, its diagnostics. */
  static String reason(FittedGp fit) {
    String s = fit.optimizerStatus();
    return fit.posterior().diagnostics().converged()
        ? s
        : s + "; final inference: " + fit.posterior().diagnostics();
  }

  private static void print(List<Verdict> verdicts) {
    Map<String, int[]> cells = new LinkedHashMap<>();
    Map<String, int[]> byMethod = new TreeMap<>();
    Map<String, Integer> reasons = new TreeMap<>();
    Map<String, Integer> stops = new TreeMap<>();
    for (Verdict v : verdicts) {
      for (String key : List.of(
          v.protocol() + " " + v.dataset() + " " + v.method(),
          v.protocol() + " ALL " + v.method(),
          "both ALL ALL")) {
        int[] c = (key.contains(" ALL ") ? byMethod : cells).computeIfAbsent(key, x -> new int[2]);
        c[0] += v.converged() ? 1 : 0;
        c[1]++;
      }
      String stop = v.reason().split("[ ;:,(]", 2)[0];
      stops.merge(
          v.protocol() + " " + v.method() + ": " + stop + (v.converged() ? "" : " (not converged)"),
          1,
          Integer::sum);
      if (!v.converged()) {
        reasons.merge(
            v.protocol() + " " + v.dataset() + " " + v.method() + ": "
                + v.reason().replaceAll("\\b[0-9][0-9.eE+-]*", "#"),
            1,
            Integer::sum);
      }
    }
    System.out.printf(
        Locale.ROOT,
        "%-8s %-11s %-8s %9s %9s %8s %17s%n",
        "protocol",
        "data",
        "method",
        "converged",
        "fraction",
        "± (se)",
        "Wilson 95 %");
    java.util.List<String> keys = new ArrayList<>(cells.keySet());
    keys.sort(java.util.Comparator.naturalOrder());
    for (String key : keys) {
      row(key, cells.get(key));
    }
    for (Map.Entry<String, int[]> e : byMethod.entrySet()) {
      row(e.getKey(), e.getValue());
    }
    System.out.println(
        "how the optimiser stopped, all fits (protocol, method: first word of the stop reason):");
    stops.forEach((r, c) -> System.out.printf(Locale.ROOT, "  %4d × %s%n", c, r));
    System.out.println(
        "stop reasons of the fits that did not converge:" + (reasons.isEmpty() ? " none" : ""));
    reasons.forEach((r, c) -> System.out.printf(Locale.ROOT, "  %3d × %s%n", c, r));
  }

  private static void row(String key, int[] c) {
    String[] k = key.split(" ");
    double p = (double) c[0] / c[1];
    double[] w = wilson(c[0], c[1]);
    System.out.printf(
        Locale.ROOT,
        "%-8s %-11s %-8s %4d/%-4d %9.3f %8.3f   [%.3f, %.3f]%n",
        k[0],
        k[1],
        k[2],
        c[0],
        c[1],
        p,
        Math.sqrt(p * (1 - p) / c[1]),
        w[0],
        w[1]);
  }

  /** Wilson's 95 % score interval for k successes of n (E. B. Wilson, JASA 22, 1927). */
  static double[] wilson(int k, int n) {
    double z = 1.959963984540054;
    double p = (double) k / n;
    double centre = (p + z * z / (2 * n)) / (1 + z * z / n);
    double half = z / (1 + z * z / n) * Math.sqrt(p * (1 - p) / n + z * z / (4.0 * n * n));
    return new double[] {Math.max(0, centre - half), Math.min(1, centre + half)};
  }
}
