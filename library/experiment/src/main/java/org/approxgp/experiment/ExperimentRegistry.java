package org.approxgp.experiment;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * Every registered experiment by name: {@link SmokePipeline} (built in) plus what each
 * {@link ExperimentCatalog} on the class path registers (the papers' catalog ships in the library JAR).
 * Used by {@code approxgp run} and by remote executors, which rebuild an experiment from its name and
 * config with {@link #rebuild}.
 */
public final class ExperimentRegistry {

  private ExperimentRegistry() {}

  /**
   * All registered experiments, sorted by name, loaded through the context class loader.
   *
   * @throws IllegalStateException if two catalogs register the same name
   */
  public static List<ExperimentSpec<?, ?>> all() {
    return all(Thread.currentThread().getContextClassLoader());
  }

  /** All registered experiments visible to {@code loader}, sorted by name. */
  public static List<ExperimentSpec<?, ?>> all(ClassLoader loader) {
    Map<String, ExperimentSpec<?, ?>> byName = new LinkedHashMap<>();
    List<ExperimentSpec<?, ?>> found = new ArrayList<>(List.of(smokePipeline()));
    ClassLoader cl = loader == null ? ExperimentRegistry.class.getClassLoader() : loader;
    for (ExperimentCatalog c : ServiceLoader.load(ExperimentCatalog.class, cl)) {
      found.addAll(c.experiments());
    }
    for (ExperimentSpec<?, ?> s : found) {
      ExperimentSpec<?, ?> old = byName.putIfAbsent(s.name(), s);
      if (old != null && old != s) {
        throw new IllegalStateException("experiment name '" + s.name() + "' is registered twice");
      }
    }
    List<ExperimentSpec<?, ?>> out = new ArrayList<>(byName.values());
    out.sort(Comparator.comparing(ExperimentSpec::name));
    return List.copyOf(out);
  }

  /** The experiment registered as {@code name}. */
  public static Optional<ExperimentSpec<?, ?>> find(String name) {
    return all().stream().filter(s -> s.name().equals(name)).findFirst();
  }

  /** The registered names, sorted. */
  public static List<String> names() {
    return all().stream().map(ExperimentSpec::name).toList();
  }

  /**
   * Rebuilds the experiment named {@code experimentName} (its {@link Experiment#name()}) for
   * {@code config}, e.g. on a remote executor that received the name and the decoded config.
   *
   * @throws IllegalArgumentException if no registered spec builds an experiment of that name from a
   *                                  config of {@code config}'s class
   */
  public static Experiment<?, ?> rebuild(String experimentName, Record config) {
    for (ExperimentSpec<?, ?> s : all()) {
      if (s.configType().isInstance(config)) {
        Experiment<?, ?> e = s.forConfig(config);
        if (e.name().equals(experimentName)) {
          return e;
        }
      }
    }
    throw new IllegalArgumentException("no registered experiment builds '" + experimentName
        + "' from a " + config.getClass().getName() + " (registered: " + names()
        + "); register it with an ExperimentCatalog");
  }

  private static ExperimentSpec<?, ?> smokePipeline() {
    return ExperimentSpec.of(
            SmokePipeline.NAME,
            "known-answer Monte-Carlo check of the runner (E[exp X], plain vs antithetic)",
            SmokePipeline.Config.class,
            SmokePipeline.Config::forMode,
            SmokePipeline::experiment)
        .withSummary((c, r) -> r.summary(List.of("method", "n"), List.of("estimate", "abs error")));
  }
}
