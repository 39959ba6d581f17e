package org.approxgp.experiment;

/**
 * An engine that runs trials elsewhere than the local thread pool (e.g. Apache Spark), found by
 * {@link java.util.ServiceLoader} when its module is on the class path (a line naming the
 * implementation in {@code META-INF/services/org.approxgp.experiment.TrialExecutorProvider}). The
 * core never links an engine: {@link Engines#executor} looks it up by {@link #engine()} name.
 */
public interface TrialExecutorProvider {

  /** The engine name, e.g. {@code spark}. */
  String engine();

  /**
   * An executor on {@code master}.
   *
   * @param master the engine's master URL; null for its default (Spark: the master set by
   *               {@code spark-submit}, else an embedded {@code local[*]})
   * @param threads the caller's thread count, or 0 for the engine's default (Spark ignores it: the
   *                master decides)
   */
  TrialExecutor create(String master, int threads);
}
