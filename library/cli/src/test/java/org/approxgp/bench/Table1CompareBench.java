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
 * Benchmark (not a test): QP Table 1's EP, QP and VB trials (full scale, se-iso), this build against a baseline
 * build side by side, as {@link VbTable1Bench} does for VB alone. For each protocol and data set, {@code SAMPLES}
 * distinct (seed, fold) pairs are drawn (seeded, the draw of {@link Table1Bench}); each pair runs its EP, QP and VB
 * trials in that order (QP reuses EP's optimum of the same fold, within each build's own class loader), each trial
 * once with the baseline's classes and once with this build's, the build that goes first alternating from pair to
 * pair, all in one JVM so that both see the same machine load. Printed per data set and method: the mean thread
 * CPU seconds per trial of each build and their ratio, and whether the trials' TE, NTLL and log evidence are
 * bit-identical between the builds (else the largest relative difference of the log evidence); at the end each
 * method's full-run CPU hours (1000 trials per data set) of both builds and the Table 1 wall-time estimate on
 * this machine's cores.
 *
 * <p>Run: {@code java -cp CLASSPATH org.approxgp.bench.Table1CompareBench BASELINE_CLASSES [SAMPLES] [SEED]
 * [PROTOCOL] [METHODS]} (defaults 2, 1, both and ep,qp,vb), BASELINE_CLASSES the {@code target/classes}
 * directory of the baseline's library (built from another commit and copied aside).
 */
public final class Table1CompareBench {
  private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

  private Table1CompareBench() {}

  public static void main(String[] args) throws Exception {
    Method oldTrial = BaselineClasses.method(
        args[0],
        Table1CompareBench.class,
        "trial",
        String.class,
        String.class,
        String.class,
        long.class,
        int.class);
    int samples = args.length > 1 ? Integer.parseInt(args[1]) : 2;
    long seed = args.length > 2 ? Long.parseLong(args[2]) : 1;
    String which = args.length > 3 ? args[3] : "both";
    List<String> methods = List.of((args.length > 4 ? args[4] : "ep,qp,vb").split(","));
    List<String> protocols = which.equals("both") ? List.of("clean", "authors") : List.of(which);
    Method newTrial = Table1CompareBench.class.getMethod(
        "trial", String.class, String.class, String.class, long.class, int.class);
    int cores = Runtime.getRuntime().availableProcessors();
    for (String protocol : protocols) {
      QpTable1.Config full = QpTable1.Config.forMode(
              ProjectPaths.Mode.FULL, List.of("ep", "qp", "vb"))
          .withProtocol(QpTable1.Protocol.of(protocol));
      int perCell = full.seeds() * full.folds();
      System.out.printf(
          Locale.ROOT,
          "QP Table 1 trials, %s protocol, %d (seed, fold) pair(s) per data set, seed %d%n"
              + "%-11s %-4s %10s %10s %7s %s%n",
          protocol,
          samples,
          seed,
          "data",
          "meth",
          "old cpu s",
          "new cpu s",
          "ratio",
          "outputs");
      Random rng = new Random(seed);
      double[] oldHours = new double[methods.size()];
      double[] newHours = new double[methods.size()];
      int pairCount = 0;
      for (String d : full.datasets()) {
        int[] pairs = Table1Bench.distinctPairs(rng, perCell, samples);
        double[][] sum = new double[methods.size()][2];
        double[] maxRel = new double[methods.size()];
        boolean[] identical = new boolean[methods.size()];
        java.util.Arrays.fill(identical, true);
        for (int r = 0; r < samples; r++) {
          long s = pairs[r] / full.folds();
          int f = pairs[r] % full.folds();
          boolean oldFirst = pairCount++ % 2 == 0;
          for (int m = 0; m < methods.size(); m++) {
            String method = methods.get(m);
            double[] o;
            double[] n;
            if (oldFirst) {
              o = (double[]) oldTrial.invoke(null, protocol, d, method, s, f);
              n = (double[]) newTrial.invoke(null, protocol, d, method, s, f);
            } else {
              n = (double[]) newTrial.invoke(null, protocol, d, method, s, f);
              o = (double[]) oldTrial.invoke(null, protocol, d, method, s, f);
            }
            sum[m][0] += o[0] / samples;
            sum[m][1] += n[0] / samples;
            for (int q = 1; q < 4; q++) {
              identical[m] &= Double.doubleToRawLongBits(o[q]) == Double.doubleToRawLongBits(n[q]);
            }
            maxRel[m] = Math.max(maxRel[m], Math.abs(o[3] - n[3]) / Math.abs(o[3]));
          }
        }
        for (int m = 0; m < methods.size(); m++) {
          oldHours[m] += sum[m][0] * perCell / 3600;
          newHours[m] += sum[m][1] * perCell / 3600;
          System.out.printf(
              Locale.ROOT,
              "%-11s %-4s %10.3f %10.3f %7.3f %s%n",
              d,
              methods.get(m),
              sum[m][0],
              sum[m][1],
              sum[m][0] / sum[m][1],
              identical[m]
                  ? "bit-identical"
                  : String.format(Locale.ROOT, "differ, max rel dLE %.1e", maxRel[m]));
        }
      }
      double oldTotal = 0;
      double newTotal = 0;
      for (int m = 0; m < methods.size(); m++) {
        oldTotal += oldHours[m];
        newTotal += newHours[m];
        System.out.printf(
            Locale.ROOT,
            "%s protocol, %s: full run CPU old %.2f h, new %.2f h, ratio %.3f%n",
            protocol,
            methods.get(m),
            oldHours[m],
            newHours[m],
            oldHours[m] / newHours[m]);
      }
      System.out.printf(
          Locale.ROOT,
          "%s protocol, %s: full run CPU old %.2f h, new %.2f h; on %d cores old %.2f h, new %.2f h%n",
          protocol,
          methods,
          oldTotal,
          newTotal,
          cores,
          oldTotal / cores,
          newTotal / cores);
    }
  }

  /**
   * One trial of the full-scale configuration: (thread CPU seconds, TE, NTLL, log evidence). Public for the
   * baseline's class loader, which calls its own copy of this method.
   */
  public static double[] trial(String protocol, String dataset, String method, long seed, int fold)
      throws Exception {
    QpTable1.Config full = QpTable1.Config.forMode(
            ProjectPaths.Mode.FULL, List.of("ep", "qp", "vb"))
        .withProtocol(QpTable1.Protocol.of(protocol));
    Experiment<QpTable1.Config, QpTable1.Key> exp = QpTable1.experiment(full);
    QpTable1.Key key = new QpTable1.Key(dataset, method, seed, fold);
    long c0 = CPU.getCurrentThreadCpuTime();
    ResultRow row = exp.trial().run(full, key);
    double cpu = (CPU.getCurrentThreadCpuTime() - c0) * 1e-9;
    return new double[] {
      cpu, row.getDouble("te"), row.getDouble("ntll"), row.getDouble("log_evidence")
    };
  }
}
