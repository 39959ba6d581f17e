package org.approxgp.spark;

import org.approxgp.experiment.Engines;
import org.approxgp.experiment.TrialExecutor;
import org.approxgp.experiment.TrialExecutorProvider;

/**
 * The {@code spark} engine for {@link Engines#executor}, {@code Runner.withEngine("spark")} and
 * {@code approxgp run --engine spark}, registered in
 * {@code META-INF/services/org.approxgp.experiment.TrialExecutorProvider}.
 */
public final class SparkEngine implements TrialExecutorProvider {

  @Override
  public String engine() {
    return Engines.SPARK;
  }

  /** {@link SparkTrialExecutor#embedded} on {@code master}; the thread count is the master's business. */
  @Override
  public TrialExecutor create(String master, int threads) {
    return SparkTrialExecutor.embedded(master);
  }
}
