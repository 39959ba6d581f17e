package org.approxgp.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.approxgp.experiment.Experiment;
import org.approxgp.experiment.ProjectPaths;
import org.approxgp.papers.qp.QpTable1;

/**
 * Benchmark (not a test): the wall time of the full paper-scale QP Table 1 (Zhang et al. 2020: every
 * data set × EP, QP, VB × 100 seeds × 10 folds, se-iso, QP's hyperparameters optimised from EP's
 * optimum — {@code QpTable1.Config.forMode(FULL, …)}) on this machine, extrapolated from a seeded sample
 * of its trials.
 *
 * <p>For each data set, {@code SAMPLES} (seed, fold) pairs are drawn uniformly (seeded) from the 100 × 10
 * of the full run; each pair runs the EP, QP and VB trials one after the other on one thread, exactly
 * as the experiment does (QP reuses EP's optimum of the same fold). The thread CPU time of a trial is its
 * cost (on a shared machine wall time also measures the other jobs); the full run's CPU time is the
 * sample mean × 1000 trials per data set and method, and its wall time on all cores that sum divided by
 * the number of cores (trials are single-threaded and independent, and ordered longest-first the last
 * busy core idles for at most one trial). The estimate before the reuse (QP refitting EP) is printed
 * beside it: the refit is the same deterministic EP fit, so it costs the EP trial's time again.
 *
 * <p>Run: {@code bin/bench table1 [SAMPLES] [SEED]} (defaults 1 and 1).
 */
public final class Table1Bench {
  private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();
  private static final List<String> METHODS = List.of("ep", "qp", "vb");

  private Table1Bench() {}

  public static void main(String[] args) throws Exception {
    int samples = args.length > 0 ? Integer.parseInt(args[0]) : 1;
    long seed = args.length > 1 ? Long.parseLong(args[1]) : 1;
    int cores = Runtime.getRuntime().availableProcessors();
    QpTable1.Config full = QpTable1.Config.forMode(ProjectPaths.Mode.FULL, METHODS);
    Experiment<QpTable1.Config, QpTable1.Key> exp = QpTable1.experiment(full);
    int perCell = full.seeds() * full.folds();
    System.out.printf(
        Locale.ROOT,
        "Table 1 at paper scale: %d data sets × %s × %d seeds × %d folds = %d trials,"
            + " kernel %s, QP optimised: %s; sample: %d (seed, fold) pair(s) per data set, seed %d; %d cores%n",
        full.datasets().size(),
        METHODS,
        full.seeds(),
        full.folds(),
        exp.trials().size(),
        full.kernel(),
        full.qpOptimized(),
        samples,
        seed,
        cores);
    Random rng = new Random(seed);
    double totalCpu = 0;
    double totalCpuNoReuse = 0;
    System.out.printf(
        Locale.ROOT,
        "%-11s %-6s %10s %10s %14s%n",
        "data",
        "method",
        "cpu s/trial",
        "wall s",
        "full run cpu h");
    for (String d : full.datasets()) {
      double[] sum = new double[METHODS.size()];
      double[] wall = new double[METHODS.size()];
      for (int r = 0; r < samples; r++) {
        long s = rng.nextInt(full.seeds());
        int f = rng.nextInt(full.folds());
        for (int m = 0; m < METHODS.size(); m++) {
          QpTable1.Key key = new QpTable1.Key(d, METHODS.get(m), s, f);
          long w0 = System.nanoTime();
          long c0 = CPU.getCurrentThreadCpuTime();
          exp.trial().run(full, key);
          sum[m] += (CPU.getCurrentThreadCpuTime() - c0) * 1e-9;
          wall[m] += (System.nanoTime() - w0) * 1e-9;
        }
      }
      for (int m = 0; m < METHODS.size(); m++) {
        double mean = sum[m] / samples;
        double cellHours = mean * perCell / 3600;
        totalCpu += cellHours;
        totalCpuNoReuse += cellHours;
        if (METHODS.get(m).equals("qp")) {
          totalCpuNoReuse += sum[0] / samples * perCell / 3600;
        }
        System.out.printf(
            Locale.ROOT,
            "%-11s %-6s %10.2f %10.2f %14.2f%n",
            d,
            METHODS.get(m),
            mean,
            wall[m] / samples,
            cellHours);
      }
    }
    System.out.printf(
        Locale.ROOT,
        "full run CPU time: %.1f h (%.1f h if QP refitted EP, as before the reuse)%n",
        totalCpu,
        totalCpuNoReuse);
    System.out.printf(
        Locale.ROOT,
        "on %d cores, all busy: %.1f h (%.1f h before the reuse)%n",
        cores,
        totalCpu / cores,
        totalCpuNoReuse / cores);
    System.out.printf(Locale.ROOT, "full Table 1 estimate: %.1f h%n", totalCpu / cores);
  }
}
