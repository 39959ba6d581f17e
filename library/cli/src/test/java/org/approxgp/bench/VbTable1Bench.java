package org.approxgp.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.approxgp.experiment.Experiment;
import org.approxgp.experiment.ProjectPaths;
import org.approxgp.experiment.ResultRow;
import org.approxgp.papers.qp.QpTable1;

/**
 * Benchmark (not a test): QP Table 1's VB trials alone, this build against a baseline build side by side. For
 * each protocol and data set, {@code SAMPLES} distinct (seed, fold) pairs are drawn uniformly (seeded, the
 * draw of {@link Table1Bench}); each pair's VB trial runs once with the baseline's classes and once with this
 * build's, alternately in one JVM, so both see the same machine load. Printed per data set: the mean thread
 * CPU seconds per trial of each build and their ratio, the largest relative difference of the trial's log
 * evidence, and the trials' TE and NTLL of both builds (means over the sample); at the end the full run's VB
 * CPU hours (1000 trials per data set) of each build, the ratio, and the largest relative change of a trial's
 * TE and NTLL over all the protocol's sampled trials.
 *
 * <p>Run: {@code java -cp CLASSPATH org.approxgp.bench.VbTable1Bench BASELINE_CLASSES [SAMPLES] [SEED]
 * [PROTOCOL]} (defaults 3, 1 and both), where BASELINE_CLASSES is the {@code target/classes} directory of the
 * baseline's library (e.g. built from another commit and copied aside); "-" runs this build alone.
 */
public final class VbTable1Bench {
  private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

  private VbTable1Bench() {}

  public static void main(String[] args) throws Exception {
    String baseline = args[0];
    int samples = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    long seed = args.length > 2 ? Long.parseLong(args[2]) : 1;
    String which = args.length > 3 ? args[3] : "both";
    List<String> protocols = which.equals("both") ? List.of("clean", "authors") : List.of(which);
    Method oldTrial = baseline.equals("-")
        ? null
        : BaselineClasses.method(
            baseline,
            VbTable1Bench.class,
            "trial",
            String.class,
            String.class,
            long.class,
            int.class);
    Method newTrial =
        VbTable1Bench.class.getMethod("trial", String.class, String.class, long.class, int.class);
    for (String protocol : protocols) {
      QpTable1.Config full = QpTable1.Config.forMode(ProjectPaths.Mode.FULL, List.of("vb"))
          .withProtocol(QpTable1.Protocol.of(protocol));
      int perCell = full.seeds() * full.folds();
      System.out.printf(
          Locale.ROOT,
          "VB trials of QP Table 1, %s protocol, %d (seed, fold) pair(s) per data set, seed %d%n"
              + "%-11s %10s %10s %7s %12s %9s %9s %10s %10s%n",
          protocol,
          samples,
          seed,
          "data",
          "old cpu s",
          "new cpu s",
          "ratio",
          "max rel dLE",
          "old TE",
          "new TE",
          "old NTLL",
          "new NTLL");
      Random rng = new Random(seed);
      double oldHours = 0;
      double maxTe = 0;
      double maxNtll = 0;
      int fits = 0;
      double newHours = 0;
      for (String d : full.datasets()) {
        int[] pairs = Table1Bench.distinctPairs(rng, perCell, samples);
        double[] sum = new double[6];
        double maxRel = 0;
        for (int r = 0; r < samples; r++) {
          int pair = pairs[r];
          long s = pair / full.folds();
          int f = pair % full.folds();
          double[] o = oldTrial == null
              ? new double[] {Double.NaN, Double.NaN, Double.NaN, Double.NaN}
              : (double[]) oldTrial.invoke(null, protocol, d, s, f);
          double[] n = (double[]) newTrial.invoke(null, protocol, d, s, f);
          sum[0] += o[0] / samples;
          sum[1] += n[0] / samples;
          sum[2] += o[1] / samples;
          sum[3] += n[1] / samples;
          sum[4] += o[2] / samples;
          sum[5] += n[2] / samples;
          maxRel = Math.max(maxRel, Math.abs(o[3] - n[3]) / Math.abs(o[3]));
          maxTe = Math.max(maxTe, relative(o[1], n[1]));
          maxNtll = Math.max(maxNtll, relative(o[2], n[2]));
          fits++;
        }
        oldHours += sum[0] * perCell / 3600;
        newHours += sum[1] * perCell / 3600;
        System.out.printf(
            Locale.ROOT,
            "%-11s %10.3f %10.3f %7.2f %12.1e %9.5f %9.5f %10.6f %10.6f%n",
            d,
            sum[0],
            sum[1],
            sum[0] / sum[1],
            maxRel,
            sum[2],
            sum[3],
            sum[4],
            sum[5]);
      }
      System.out.printf(
          Locale.ROOT,
          "%s protocol: full run's VB CPU time old %.2f h, new %.2f h, ratio %.2f; over the %d fits the"
              + " largest relative change of TE %.1e, of NTLL %.1e%n",
          protocol,
          oldHours,
          newHours,
          oldHours / newHours,
          fits,
          maxTe,
          maxNtll);
    }
  }

  /** |a − b| / |a|, 0 when both are 0 (a TE of 0 on a fold). */
  private static double relative(double a, double b) {
    return a == b ? 0 : Math.abs(a - b) / Math.abs(a);
  }

  /**
   * One VB trial of the full-scale configuration: (thread CPU seconds, TE, NTLL, log evidence). Public for
   * the baseline's class loader, which calls its own copy of this method.
   */
  public static double[] trial(String protocol, String dataset, long seed, int fold)
      throws Exception {
    QpTable1.Config full = QpTable1.Config.forMode(ProjectPaths.Mode.FULL, List.of("vb"))
        .withProtocol(QpTable1.Protocol.of(protocol));
    Experiment<QpTable1.Config, QpTable1.Key> exp = QpTable1.experiment(full);
    QpTable1.Key key = new QpTable1.Key(dataset, "vb", seed, fold);
    long c0 = CPU.getCurrentThreadCpuTime();
    ResultRow row = exp.trial().run(full, key);
    double cpu = (CPU.getCurrentThreadCpuTime() - c0) * 1e-9;
    return new double[] {
      cpu, row.getDouble("te"), row.getDouble("ntll"), row.getDouble("log_evidence")
    };
  }
}
