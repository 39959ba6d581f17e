package org.approxgp.spark.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.apache.spark.api.java.JavaSparkContext;
import org.approxgp.experiment.Experiment;
import org.approxgp.experiment.ProgressListener;
import org.approxgp.experiment.ProjectPaths;
import org.approxgp.experiment.Results;
import org.approxgp.experiment.Runner;
import org.approxgp.experiment.SmokePipeline;
import org.approxgp.experiment.TrialExecutor;
import org.approxgp.experiment.TrialKey;
import org.approxgp.papers.qp.QpMining;
import org.approxgp.spark.SparkTrialExecutor;

/**
 * {@code bin/bench spark [SEEDS] [MASTER]}: trials per second of one experiment (the QP paper's coal
 * mining, EP and VB, SEEDS seeds, default 24) on the local runner with 1 and 2 threads and on Spark
 * (default {@code local[2]}), side by side in one JVM, each into a fresh results directory; Spark's
 * start-up (context creation and a first one-task job) is timed apart from the experiment. Not a test.
 */
public final class SparkBench {

  private SparkBench() {}

  public static void main(String[] args) throws Exception {
    int seeds = args.length > 0 ? Integer.parseInt(args[0]) : 24;
    String master = args.length > 1 ? args[1] : "local[2]";
    Experiment<QpMining.Config, QpMining.Key> exp =
        QpMining.experiment(new QpMining.Config(seeds, List.of("ep", "vb")));
    Path root = Files.createTempDirectory("approxgp-spark-bench");
    System.out.printf(
        Locale.ROOT,
        "experiment qp-mining (EP + VB), %d trials; %d cores; results under %s%n",
        exp.trials().size(),
        Runtime.getRuntime().availableProcessors(),
        root);

    // warm-up: class loading and JIT for the trial code, so neither engine pays it in its timing
    run(
        Runner.of(TrialExecutor.local(1)),
        root.resolve("warm"),
        QpMining.experiment(new QpMining.Config(1, List.of("ep", "vb"))));

    double t1 = run(Runner.of(TrialExecutor.local(1)), root.resolve("local1"), exp);
    double t2 = run(Runner.of(TrialExecutor.local(2)), root.resolve("local2"), exp);

    long s0 = System.nanoTime();
    JavaSparkContext sc = new JavaSparkContext(new org.apache.spark.SparkConf()
        .setMaster(master)
        .setAppName("approxgp-bench")
        .set("spark.ui.enabled", "false")
        .set("spark.driver.bindAddress", "127.0.0.1")
        .set("spark.driver.host", "127.0.0.1"));
    double startContext = (System.nanoTime() - s0) * 1e-9;
    long s1 = System.nanoTime();
    sc.parallelize(List.of(1), 1).count();
    double firstJob = (System.nanoTime() - s1) * 1e-9;
    double ts;
    double tinyLocal;
    double tinySpark;
    Experiment<SmokePipeline.Config, TrialKey> tiny =
        SmokePipeline.experiment(SmokePipeline.Config.forMode(ProjectPaths.Mode.QUICK));
    try {
      ts = run(Runner.of(SparkTrialExecutor.on(sc)), root.resolve("spark"), exp);
      // per-task overhead: trials of microseconds (the smoke pipeline, quick mode), so the time is
      // the engine's
      tinyLocal = run(Runner.of(TrialExecutor.local(2)), root.resolve("tiny-local"), tiny);
      tinySpark = run(Runner.of(SparkTrialExecutor.on(sc)), root.resolve("tiny-spark"), tiny);
    } finally {
      sc.stop();
    }
    int n = exp.trials().size();
    System.out.printf(
        Locale.ROOT, "%-26s %10s %12s %14s%n", "engine", "seconds", "trials/s", "vs local(2)");
    row("local, 1 thread", t1, n, t2);
    row("local, 2 threads", t2, n, t2);
    row("spark " + master, ts, n, t2);
    System.out.printf(
        Locale.ROOT,
        "spark start-up (not in the row above): context %.2f s + first one-task job %.2f s"
            + " = %.2f s%n",
        startContext,
        firstJob,
        startContext + firstJob);
    int nt = tiny.trials().size();
    System.out.printf(
        Locale.ROOT,
        "per-trial overhead (smoke-pipeline quick, %d trials of microseconds):"
            + " local(2) %.2f ms, spark %.1f ms%n",
        nt,
        1e3 * tinyLocal / nt,
        1e3 * tinySpark / nt);
    System.out.printf(
        Locale.ROOT,
        "spark incl. start-up: %.2f s, %.3f trials/s, %.2f × local(2)%n",
        ts + startContext + firstJob,
        n / (ts + startContext + firstJob),
        (ts + startContext + firstJob) / t2);
  }

  private static void row(String name, double secs, int n, double ref) {
    System.out.printf(
        Locale.ROOT, "%-26s %10.2f %12.3f %13.2f×%n", name, secs, n / secs, secs / ref);
  }

  private static <C extends Record, K extends Record> double run(
      Runner r, Path dir, Experiment<C, K> e) {
    long t0 = System.nanoTime();
    Results<K> res =
        r.withResultsRoot(dir).withProgress(ProgressListener.none()).run(e);
    double s = (System.nanoTime() - t0) * 1e-9;
    if (res.computed() != e.trials().size()) {
      throw new IllegalStateException("expected a fresh run, got " + res);
    }
    return s;
  }
}
