package org.approxgp.experiment;

import java.util.Locale;
import java.util.ServiceLoader;

/**
 * Chooses a {@link TrialExecutor} by engine name: {@code local} (this JVM's thread pool, built in) or
 * any {@link TrialExecutorProvider} on the class path ({@code spark} when the {@code approxgp-spark}
 * module is). The default engine of {@link Runner#defaults()} is read from the system property
 * {@code approxgp.engine}, else the environment variable {@code APPROXGP_ENGINE}, else {@code local};
 * the master URL from {@code approxgp.master} / {@code APPROXGP_MASTER}.
 */
public final class Engines {

  public static final String LOCAL = "local";
  public static final String SPARK = "spark";

  private Engines() {
  }

  /** The engine named by {@code approxgp.engine} / {@code APPROXGP_ENGINE}, default {@code local}. */
  public static String fromEnvironment() {
    String e = setting("approxgp.engine", "APPROXGP_ENGINE");
    return e == null ? LOCAL : e.strip().toLowerCase(Locale.ROOT);
  }

  /** The master URL of {@code approxgp.master} / {@code APPROXGP_MASTER}, or null. */
  public static String masterFromEnvironment() {
    String m = setting("approxgp.master", "APPROXGP_MASTER");
    return m == null ? null : m.strip();
  }

  /**
   * The executor of {@code engine}.
   *
   * @param master  the engine's master URL, or null for its default (must be null for {@code local})
   * @param threads threads of the local pool (>= 1), or 0 for all cores; engines may ignore it
   * @throws IllegalArgumentException if {@code engine} is unknown, or {@code local} gets a master
   * @throws EngineUnavailableException if the engine's module is not on the class path
   */
  public static TrialExecutor executor(String engine, String master, int threads) {
    if (threads < 0) {
      throw new IllegalArgumentException("threads must be >= 0 (0 = all cores), got " + threads);
    }
    String e = engine.strip().toLowerCase(Locale.ROOT);
    if (e.equals(LOCAL)) {
      if (master != null) {
        throw new IllegalArgumentException("the local engine takes no master URL (got '" + master + "')");
      }
      return TrialExecutor.local(threads == 0 ? Runtime.getRuntime().availableProcessors() : threads);
    }
    ClassLoader cl = Thread.currentThread().getContextClassLoader();
    for (TrialExecutorProvider p : ServiceLoader.load(TrialExecutorProvider.class,
        cl == null ? Engines.class.getClassLoader() : cl)) {
      if (p.engine().equals(e)) {
        return p.create(master, threads);
      }
    }
    if (e.equals(SPARK)) {
      throw new EngineUnavailableException("engine 'spark' is not on the class path: the approxgp-spark module "
          + "is needed (build it with 'mvn -pl spark -am -DskipTests package' and add spark/target/approxgp-spark-*.jar"
          + " and spark/target/lib/* to the class path; 'bin/approxgp run --engine spark' does this)");
    }
    throw new IllegalArgumentException("unknown engine '" + engine + "' (known: local, spark)");
  }

  private static String setting(String property, String env) {
    String v = System.getProperty(property);
    if (v == null || v.isBlank()) {
      v = System.getenv(env);
    }
    return v == null || v.isBlank() ? null : v;
  }

  /** The engine's module is not on the class path. */
  public static final class EngineUnavailableException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public EngineUnavailableException(String message) {
      super(message);
    }
  }
}
