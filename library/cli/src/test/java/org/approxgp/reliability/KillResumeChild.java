package org.approxgp.reliability;

import java.nio.file.Path;
import java.util.List;
import org.approxgp.experiment.ProgressListener;
import org.approxgp.experiment.Runner;
import org.approxgp.papers.qp.QpMining;

/**
 * The child JVM of {@link KillAndResumeTest}: runs a real experiment (the QP paper's Mining row,
 * EP and VB fits on the coal data, {@value #SEEDS} seeds) into the results root given as the first
 * argument, on the thread count given as the second, and exits 0 when every trial is stored.
 */
public final class KillResumeChild {
  static final int SEEDS = 48;

  private KillResumeChild() {}

  static Runner runner(Path root, int threads) {
    return Runner.defaults()
        .withResultsRoot(root)
        .withThreads(threads)
        .withProgress(ProgressListener.none());
  }

  static QpMining.Config config() {
    return new QpMining.Config(SEEDS, List.of("ep", "vb"));
  }

  /**
   * Prints {@value #STARTED} on stdout once the results store is open and trials are about to run,
   * and a line after every stored trial.
   */
  public static void main(String[] args) {
    ProgressListener announce = new ProgressListener() {
      @Override
      public void started(String experiment, int total, int reused) {
        System.out.println(STARTED);
        System.out.flush();
      }

      @Override
      public void advanced(int done, int failed, int total) {
        System.out.println(ADVANCED + done); // after the row is in the results file
        System.out.flush();
      }

      @Override
      public void finished(int done, int failed, int total) {}
    };
    runner(Path.of(args[0]), Integer.parseInt(args[1]))
        .withProgress(announce)
        .run(QpMining.experiment(config()));
  }

  static final String STARTED = "started";
  static final String ADVANCED = "advanced ";
}
