package org.approxgp.inference;

import java.util.Locale;
import java.util.ServiceLoader;

/**
 * An engine that runs {@link SparseSiteLoop}'s blocks of training rows ({@link SiteBlocks}) elsewhere than in this
 * JVM, found by {@link ServiceLoader} under its name ({@code spark} when the {@code approxgp-spark} module is on the
 * class path; {@code approxgp fit --inducing M --engine spark}), as {@link org.approxgp.sparse.PartitionGradientsProvider}
 * finds sVBSSGP's.
 */
public interface SiteBlocksProvider {

  /** The engine name, lower case (e.g. {@code spark}). */
  String engine();

  /** The engine's blocks, on {@code master} (null: the engine's default). */
  SiteBlocks create(String master);

  /**
   * Starts the engine on {@code master} now (null: its default), so that one that cannot start fails in one line
   * before any data is read. By default nothing.
   */
  default void start(String master) {}

  /**
   * The provider of {@code engine} on the class path.
   *
   * @throws IllegalArgumentException if no provider has that name
   */
  static SiteBlocksProvider forEngine(String engine) {
    String e = engine.strip().toLowerCase(Locale.ROOT);
    ClassLoader cl = Thread.currentThread().getContextClassLoader();
    for (SiteBlocksProvider p : ServiceLoader.load(
        SiteBlocksProvider.class, cl == null ? SiteBlocksProvider.class.getClassLoader() : cl)) {
      if (p.engine().equals(e)) {
        return p;
      }
    }
    throw new IllegalArgumentException(
        "engine '" + engine + "' for the sparse loop's blocks is not on the class path"
            + (e.equals("spark")
                ? " (the approxgp-spark module is needed; bin/approxgp adds it for --engine spark)"
                : " (known: local, spark)"));
  }
}
