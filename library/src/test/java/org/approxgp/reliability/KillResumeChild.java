package org.approxgp.reliability;

import java.nio.file.Path;
import java.util.List;
import org.approxgp.experiment.ProgressListener;
import org.approxgp.experiment.QpMining;
import org.approxgp.experiment.Runner;

/**
 * The child JVM of {@link KillAndResumeTest}: runs a real experiment (the QP paper's Mining row,
 * EP and VB fits on the coal data, {@value #SEEDS} seeds) into the results root given as the first
 * argument, on the thread count given as the second, and exits 0 when every trial is stored.
 */
public final class KillResumeChild {
  static final int SEEDS = 16;

  private KillResumeChild() {}

  static Runner runner(Path root, int threads) {
    return Runner.defaults().withResultsRoot(root).withThreads(threads).withProgress(ProgressListener.none());
  }

  static QpMining.Config config() {
    return new QpMining.Config(SEEDS, List.of("ep", "vb"));
  }

  public static void main(String[] args) {
    runner(Path.of(args[0]), Integer.parseInt(args[1])).run(QpMining.experiment(config()));
  }
}
