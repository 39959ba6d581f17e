package org.approxgp.experiment;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * Chooses a {@link TrialExecutor} by engine name: {@code local} (this JVM's thread pool, built in) or
 * any {@link TrialExecutorProvider} on the class path ({@code spark} when the {@code approxgp-spark}
 * module is). The default engine of {@link Runner#defaults()} is read from the system property
 * {@code approxgp.engine}, else the environment variable {@code APPROXGP_ENGINE}, else {@code local};
 * the master URL from {@code approxgp.master} / {@code APPROXGP_MASTER}.
 *
 * <p>Loaded on demand: when no provider of {@code spark} is on the class path, the engine is looked for on the
 * path of {@code approxgp.spark.classpath} / {@code APPROXGP_SPARK_CLASSPATH} (jars, or directories whose
 * {@code *.jar} are all taken; {@code library/spark/target/engine} after {@code mvn -pl library/spark -am package}), through a
 * class loader of its own whose parent is the library's — so a JVM that never chooses {@code spark} (a notebook
 * kernel) never opens a Spark class, and one that does shares the library's classes with it. The JVM still needs
 * Spark's {@code --add-opens} flags (the project's kernel passes them).
 */
public final class Engines {

  public static final String LOCAL = "local";
  public static final String SPARK = "spark";

  private Engines() {}

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
        throw new IllegalArgumentException(
            "the local engine takes no master URL (got '" + master + "')");
      }
      return TrialExecutor.local(
          threads == 0 ? Runtime.getRuntime().availableProcessors() : threads);
    }
    ClassLoader cl = Thread.currentThread().getContextClassLoader();
    for (TrialExecutorProvider p : ServiceLoader.load(
        TrialExecutorProvider.class, cl == null ? Engines.class.getClassLoader() : cl)) {
      if (p.engine().equals(e)) {
        return p.create(master, threads);
      }
    }
    if (e.equals(SPARK)) {
      String path = setting("approxgp.spark.classpath", "APPROXGP_SPARK_CLASSPATH");
      if (path != null) {
        for (TrialExecutorProvider p :
            ServiceLoader.load(TrialExecutorProvider.class, moduleLoader(path))) {
          if (p.engine().equals(e)) {
            return p.create(master, threads);
          }
        }
      }
      throw new EngineUnavailableException("engine 'spark' is not on the class path"
          + (path == null ? "" : " nor in APPROXGP_SPARK_CLASSPATH (" + path + ")")
          + ": the approxgp-spark module is needed (build it with 'mvn -pl library/spark -am -DskipTests package'; "
          + "the project's notebook kernel then loads library/spark/target/engine on demand, and 'bin/approxgp run "
          + "--engine spark' puts it on the class path)");
    }
    throw new IllegalArgumentException("unknown engine '" + engine + "' (known: local, spark)");
  }

  private static final Map<String, ClassLoader> MODULES = new ConcurrentHashMap<>();

  /**
   * The class loader of an engine module on {@code path} (entries separated by {@link File#pathSeparator}: jars,
   * or directories of jars), parent the library's class loader; one per path for the JVM's life, so the engine's
   * static state (Spark's one context per JVM) is shared by every executor made from it.
   */
  static ClassLoader moduleLoader(String path) {
    return MODULES.computeIfAbsent(path, p -> {
      List<URL> urls = new ArrayList<>();
      for (String entry : p.split(File.pathSeparator)) {
        if (entry.isBlank()) {
          continue;
        }
        Path f = Path.of(entry.strip());
        try {
          if (Files.isDirectory(f)) {
            try (Stream<Path> jars = Files.list(f)) {
              for (Path j :
                  jars.filter(j -> j.toString().endsWith(".jar")).sorted().toList()) {
                urls.add(j.toUri().toURL());
              }
            }
          } else if (Files.isRegularFile(f)) {
            urls.add(f.toUri().toURL());
          }
        } catch (MalformedURLException ex) {
          throw new IllegalArgumentException(
              "engine class path entry " + entry + ": " + ex.getMessage(), ex);
        } catch (IOException ex) {
          throw new UncheckedIOException("listing engine class path entry " + entry, ex);
        }
      }
      return new ModuleLoader(urls.toArray(URL[]::new), Engines.class.getClassLoader());
    });
  }

  /**
   * An engine module's class loader: {@code org.approxgp} classes (the interfaces and records the engine shares
   * with its caller) and the JDK's come from the parent; everything else from the module's jars first, so that
   * Spark gets its own versions of libraries that a host JVM may hold in other versions (the notebook kernel's
   * JAR bundles commons-codec and commons-logging), and from the parent only when the module lacks them (the
   * library's own dependencies, e.g. Jackson).
   */
  private static final class ModuleLoader extends URLClassLoader {
    static {
      ClassLoader.registerAsParallelCapable();
    }

    ModuleLoader(URL[] urls, ClassLoader parent) {
      super("approxgp-engine", urls, parent);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (name.startsWith("java.")
          || name.startsWith("javax.")
          || name.startsWith("jdk.")
          || name.startsWith("sun.")
          || name.startsWith("org.approxgp.") && !name.startsWith("org.approxgp.spark.")) {
        return super.loadClass(name, resolve);
      }
      synchronized (getClassLoadingLock(name)) {
        Class<?> c = findLoadedClass(name);
        if (c == null) {
          try {
            c = findClass(name);
          } catch (ClassNotFoundException e) {
            c = getParent().loadClass(name);
          }
        }
        if (resolve) {
          resolveClass(c);
        }
        return c;
      }
    }
  }

  static String setting(String property, String env) {
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
