package org.approxgp.sparse;

import java.util.Locale;
import java.util.ServiceLoader;
import org.approxgp.data.RegressionData;

/**
 * An engine that sums sVBSSGP's data terms ({@link PartitionGradients}) elsewhere than in this JVM, found by
 * {@link ServiceLoader} under its name ({@code spark} when the {@code approxgp-spark} module is on the class path;
 * {@code approxgp regress --model svbssgp --engine spark}).
 */
public interface PartitionGradientsProvider {

  /** The engine name, lower case (e.g. {@code spark}). */
  String engine();

  /**
   * A strategy holding {@code train} grouped by {@code partitionOfRow}, on {@code master} (null: the engine's
   * default).
   */
  PartitionGradients create(RegressionData train, int[] partitionOfRow, String master);

  /**
   * Starts the engine on {@code master} now (null: its default), so that one that cannot start fails in one line
   * before any data is read or work done, rather than when the first gradient is asked for. By default nothing.
   *
   * @throws RuntimeException the engine's own unavailability exception naming the master and the reason (Spark's:
   *     {@code org.approxgp.experiment.Engines.EngineUnavailableException}, a module above this one)
   */
  default void start(String master) {}

  /** Builds the strategy for a training set and its partition labels (null strategy: in this JVM). */
  @FunctionalInterface
  interface Factory {
    PartitionGradients create(RegressionData train, int[] partitionOfRow);

    /**
     * Starts the engine behind this factory now (see {@link PartitionGradientsProvider#start}); by default
     * nothing.
     */
    default void start() {}
  }

  /**
   * The factory of {@code engine}: null for {@code local} (the in-JVM default), else the provider of that name on
   * the class path, bound to {@code master}.
   *
   * @throws IllegalArgumentException if {@code local} gets a master, or no provider has that name
   */
  static Factory forEngine(String engine, String master) {
    String e = engine.strip().toLowerCase(Locale.ROOT);
    if (e.equals("local")) {
      if (master != null) {
        throw new IllegalArgumentException(
            "the local engine takes no master URL (got '" + master + "')");
      }
      return null;
    }
    ClassLoader cl = Thread.currentThread().getContextClassLoader();
    for (PartitionGradientsProvider p : ServiceLoader.load(
        PartitionGradientsProvider.class,
        cl == null ? PartitionGradientsProvider.class.getClassLoader() : cl)) {
      if (p.engine().equals(e)) {
        return new Factory() {
          @Override
          public PartitionGradients create(RegressionData train, int[] partitionOfRow) {
            return p.create(train, partitionOfRow, master);
          }

          @Override
          public void start() {
            p.start(master);
          }
        };
      }
    }
    throw new IllegalArgumentException(
        "engine '" + engine + "' for sVBSSGP's gradients is not on the class path"
            + (e.equals("spark")
                ? " (the approxgp-spark module is needed; bin/approxgp adds it for --engine spark)"
                : " (known: local, spark)"));
  }
}
