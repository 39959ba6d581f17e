package org.approxgp.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.approxgp.experiment.Experiment;
import org.approxgp.experiment.ProjectPaths;
import org.approxgp.linalg.Linalg;
import org.approxgp.papers.qp.QpTable1;

/**
 * Benchmark (not a test): the wall time of the full paper-scale QP Table 1 (Zhang et al. 2020: every
 * data set × EP, QP, VB × 100 seeds × 10 folds, se-iso, QP's hyperparameters optimised from EP's
 * optimum — {@code QpTable1.Config.forMode(FULL, …)}) on this machine, per protocol (clean, authors'),
 * extrapolated from a seeded sample of its trials.
 *
 * <p>For each protocol and data set, {@code SAMPLES} distinct (seed, fold) pairs are drawn uniformly
 * (seeded) from the 100 × 10 of the full run; each pair runs the EP, QP and VB trials one after the other on
 * one thread, exactly as the experiment does (QP reuses EP's optimum of the same fold). WORKERS pairs run at
 * once (default: one per core, with one BLAS thread each, as the runner runs a full Table 1), since trials
 * side by side can slow each other (the cores share the L3 cache and the memory bus). On Ionosphere and Wine2
 * a real 2-thread run of all 6,000 clean trials took 1,098 s; this bench predicted 1,103 s with 2 workers
 * and 986 s with 1. The thread CPU time of a trial is its cost (on a shared machine wall
 * time also measures the other jobs); the full run's CPU time is the sample mean × 1000 trials per data set
 * and method, and its wall time on all cores that sum divided by the number of cores (trials are
 * single-threaded and independent, and ordered longest-first the last busy core idles for at most one
 * trial). Trial times are skewed (a few fits take many more optimiser
 * steps), so each estimate is printed with its standard error, the sample standard deviation of a cell's
 * trial times over √SAMPLES scaled to the cell and summed in quadrature over the cells: a one-sample
 * estimate has none and cannot be trusted. The estimate before the reuse (QP refitting EP) is printed beside
 * it: the refit is the same deterministic EP fit, so it costs the EP trial's time again.
 *
 * <p>Run: {@code bin/bench table1 [SAMPLES] [SEED] [PROTOCOL] [WORKERS]} (defaults 8, 1, both and the number
 * of cores; PROTOCOL is clean, authors or both; WORKERS = 1 is the quiet-machine figure).
 */
public final class Table1Bench {
  private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();
  private static final List<String> METHODS = List.of("ep", "qp", "vb");

  private Table1Bench() {}

  public static void main(String[] args) throws Exception {
    int samples = args.length > 0 ? Integer.parseInt(args[0]) : 8;
    long seed = args.length > 1 ? Long.parseLong(args[1]) : 1;
    String which = args.length > 2 ? args[2] : "both";
    int cores = Runtime.getRuntime().availableProcessors();
    int workers = args.length > 3 ? Integer.parseInt(args[3]) : cores;
    if (workers < 1) {
      throw new IllegalArgumentException("WORKERS must be at least 1, got " + workers);
    }
    List<QpTable1.Protocol> protocols = which.equals("both")
        ? List.of(QpTable1.Protocol.clean(), QpTable1.Protocol.authors())
        : List.of(QpTable1.Protocol.of(which));
    ExecutorService pool = Executors.newFixedThreadPool(workers);
    // one BLAS thread per trial, as the runner computes them
    try (Linalg.Scope oneThread = Linalg.oneNativeThread()) {
      for (QpTable1.Protocol protocol : protocols) {
        QpTable1.Config full =
            QpTable1.Config.forMode(ProjectPaths.Mode.FULL, METHODS).withProtocol(protocol);
        run(full, samples, seed, cores, pool, workers);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static void run(
      QpTable1.Config full, int samples, long seed, int cores, ExecutorService pool, int workers)
      throws Exception {
    Experiment<QpTable1.Config, QpTable1.Key> exp = QpTable1.experiment(full);
    int perCell = full.seeds() * full.folds();
    if (samples < 1 || samples > perCell) {
      throw new IllegalArgumentException("SAMPLES must be in 1.." + perCell + ", got " + samples);
    }
    System.out.printf(
        Locale.ROOT,
        "Table 1 at paper scale, %s protocol: %d data sets × %s × %d seeds × %d folds = %d trials,"
            + " kernel %s, QP optimised: %s; sample: %d (seed, fold) pair(s) per data set, seed %d; %d cores;"
            + " %d pair(s) at once%n",
        full.protocol().name(),
        full.datasets().size(),
        METHODS,
        full.seeds(),
        full.folds(),
        exp.trials().size(),
        full.kernel(),
        full.qpOptimized(),
        samples,
        seed,
        cores,
        workers);
    Random rng = new Random(seed);
    // every pair of every data set, drawn in order, then run WORKERS at a time
    List<double[][]> cpus = new ArrayList<>();
    List<Future<?>> pending = new ArrayList<>();
    for (String d : full.datasets()) {
      double[][] cpu = new double[METHODS.size()][samples];
      cpus.add(cpu);
      int[] pairs = distinctPairs(rng, perCell, samples);
      for (int r = 0; r < samples; r++) {
        long s = pairs[r] / full.folds();
        int f = pairs[r] % full.folds();
        int slot = r;
        pending.add(pool.submit(() -> {
          for (int m = 0; m < METHODS.size(); m++) {
            QpTable1.Key key = new QpTable1.Key(d, METHODS.get(m), s, f);
            long c0 = CPU.getCurrentThreadCpuTime();
            exp.trial().run(full, key);
            cpu[m][slot] = (CPU.getCurrentThreadCpuTime() - c0) * 1e-9;
          }
          return null;
        }));
      }
    }
    for (Future<?> p : pending) {
      p.get();
    }
    double totalCpu = 0;
    double totalCpuNoReuse = 0;
    double totalVar = 0;
    System.out.printf(
        Locale.ROOT,
        "%-11s %-6s %12s %10s %10s %14s%n",
        "data",
        "method",
        "cpu s/trial",
        "sd s",
        "max s",
        "full run cpu h");
    for (int di = 0; di < full.datasets().size(); di++) {
      String d = full.datasets().get(di);
      double[][] cpu = cpus.get(di);
      for (int m = 0; m < METHODS.size(); m++) {
        double mean = 0;
        double max = 0;
        for (double v : cpu[m]) {
          mean += v / samples;
          max = Math.max(max, v);
        }
        double ss = 0;
        for (double v : cpu[m]) {
          ss += (v - mean) * (v - mean);
        }
        double sd = samples > 1 ? Math.sqrt(ss / (samples - 1)) : Double.NaN;
        double cellHours = mean * perCell / 3600;
        // standard error of the cell's extrapolated hours (finite population of perCell trials)
        double se = sd / Math.sqrt(samples) * perCell / 3600;
        totalVar += samples > 1 ? se * se : Double.NaN;
        totalCpu += cellHours;
        totalCpuNoReuse += cellHours;
        if (METHODS.get(m).equals("qp")) {
          double ep = 0;
          for (double v : cpu[0]) {
            ep += v / samples;
          }
          totalCpuNoReuse += ep * perCell / 3600;
        }
        System.out.printf(
            Locale.ROOT,
            "%-11s %-6s %12.3f %10.3f %10.3f %14.2f%n",
            d,
            METHODS.get(m),
            mean,
            sd,
            max,
            cellHours);
      }
    }
    double se = Math.sqrt(totalVar);
    System.out.printf(
        Locale.ROOT,
        "%s protocol: full run CPU time %.2f ± %.2f h (%.1f h if QP refitted EP, as before the reuse)%n",
        full.protocol().name(),
        totalCpu,
        se,
        totalCpuNoReuse);
    System.out.printf(
        Locale.ROOT,
        "%s protocol: full Table 1 estimate on %d cores, all busy: %.2f ± %.2f h (%.1f h before the"
            + " reuse)%n",
        full.protocol().name(),
        cores,
        totalCpu / cores,
        se / cores,
        totalCpuNoReuse / cores);
  }

  /**
   * {@code samples} distinct (seed, fold) pair indices in [0, {@code perCell}), drawn in order from {@code rng}
   * (rejecting repeats), as both Table 1 benches sample a data set's cell.
   */
  static int[] distinctPairs(Random rng, int perCell, int samples) {
    java.util.Set<Integer> drawn = new java.util.HashSet<>();
    int[] pairs = new int[samples];
    for (int r = 0; r < samples; r++) {
      int pair;
      do {
        pair = rng.nextInt(perCell);
      } while (!drawn.add(pair));
      pairs[r] = pair;
    }
    return pairs;
  }
}
