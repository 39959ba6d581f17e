package org.approxgp.experiment;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where results and reports go. Results root: system property {@code approxgp.results}, else
 * environment variable {@code APPROXGP_RESULTS}, else {@code results/} under the project root.
 * Reports root: {@code approxgp.reports} / {@code APPROXGP_REPORTS} / {@code reports/}. The project
 * root is where the library is installed, whatever the working directory ({@link #projectRoot()}).
 */
public final class ProjectPaths {

  private ProjectPaths() {}

  public static Path resultsRoot() {
    return configured("approxgp.results", "APPROXGP_RESULTS", "results");
  }

  public static Path reportsRoot() {
    return configured("approxgp.reports", "APPROXGP_REPORTS", "reports");
  }

  /** Run mode from {@code approxgp.mode} / {@code APPROXGP_MODE}: smoke, quick (default) or full. */
  public static Mode mode() {
    String m = System.getProperty("approxgp.mode", System.getenv("APPROXGP_MODE"));
    return Mode.parse(m == null ? "quick" : m);
  }

  /**
   * A path as reports show it: relative to the project root when inside it ({@code results/qp-mining/….jsonl}),
   * else relative to the results or reports root named by its variable ({@code $APPROXGP_RESULTS/…}), else as
   * given. Reports never carry a machine's absolute paths.
   */
  public static String shown(Path path) {
    Path p = path.toAbsolutePath().normalize();
    Path root = projectRoot().toAbsolutePath().normalize();
    if (p.startsWith(root)) {
      return root.relativize(p).toString();
    }
    Path results = resultsRoot().toAbsolutePath().normalize();
    if (p.startsWith(results)) {
      return "$APPROXGP_RESULTS/" + results.relativize(p);
    }
    Path reports = reportsRoot().toAbsolutePath().normalize();
    if (p.startsWith(reports)) {
      return "$APPROXGP_REPORTS/" + reports.relativize(p);
    }
    return path.toString();
  }

  /**
   * The project checkout: system property {@code approxgp.home} or environment variable {@code APPROXGP_HOME}
   * ({@code bin/approxgp} sets the property to its own checkout); else the nearest directory holding both
   * {@code pom.xml} and {@code notebooks/} at or above the library's own classes ({@code library/cli/target/lib/…} of the
   * checkout that built them), so that a command started anywhere finds the checkout's results; else the same
   * search from the working directory (a library JAR copied elsewhere); else the working directory.
   */
  public static Path projectRoot() {
    String home = System.getProperty("approxgp.home");
    if (home == null || home.isBlank()) {
      home = System.getenv("APPROXGP_HOME");
    }
    if (home != null && !home.isBlank()) {
      return Path.of(home).toAbsolutePath();
    }
    Path installed = checkoutAbove(libraryLocation());
    if (installed != null) {
      return installed;
    }
    Path cwd = Path.of("").toAbsolutePath();
    Path found = checkoutAbove(cwd);
    return found != null ? found : cwd;
  }

  /** Where this class was loaded from (a JAR or a classes directory), or null if that is not a file. */
  private static Path libraryLocation() {
    try {
      var src = ProjectPaths.class.getProtectionDomain().getCodeSource();
      return src == null ? null : Path.of(src.getLocation().toURI()).toAbsolutePath();
    } catch (java.net.URISyntaxException
        | IllegalArgumentException
        | SecurityException
        | java.nio.file.FileSystemNotFoundException e) {
      return null;
    }
  }

  /** The nearest directory at or above {@code start} holding {@code pom.xml} and {@code notebooks/}, or null. */
  private static Path checkoutAbove(Path start) {
    for (Path p = start; p != null; p = p.getParent()) {
      if (Files.isRegularFile(p.resolve("pom.xml")) && Files.isDirectory(p.resolve("notebooks"))) {
        return p;
      }
    }
    return null;
  }

  private static Path configured(String property, String env, String defaultDir) {
    String v = System.getProperty(property);
    if (v == null || v.isBlank()) {
      v = System.getenv(env);
    }
    if (v != null && !v.isBlank()) {
      return Path.of(v).toAbsolutePath();
    }
    return projectRoot().resolve(defaultDir);
  }

  /** How much work a notebook does: smoke (seconds, CI), quick (default), full (the paper's). */
  public enum Mode {
    SMOKE,
    QUICK,
    FULL;

    static Mode parse(String s) {
      try {
        return valueOf(s.strip().toUpperCase(java.util.Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "APPROXGP_MODE must be smoke, quick or full; got '" + s + "'");
      }
    }

    /** Picks the value for this mode. */
    public <T> T pick(T smoke, T quick, T full) {
      return switch (this) {
        case SMOKE -> smoke;
        case QUICK -> quick;
        case FULL -> full;
      };
    }
  }
}
