package org.approxgp.experiment;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.regex.Pattern;
import tech.tablesaw.api.Table;

/**
 * A registered experiment: how to build it from a config, the config of each run mode, and the
 * summary table its notebook shows. The {@link ExperimentRegistry} lists these by {@link #name()}
 * (what {@code approxgp run NAME} takes, the notebook's name where one notebook runs one experiment);
 * a remote executor rebuilds an {@link Experiment} from its {@link Experiment#name()} and config (see
 * {@link ExperimentRegistry#rebuild}), since the trial function itself cannot be shipped.
 *
 * @param name           registry name, e.g. {@code qp-figure1}
 * @param description    one line for {@code approxgp run --list}
 * @param configType     the config record class (a remote executor decodes the config into it)
 * @param configForMode  the config of each run mode (smoke, quick, full)
 * @param factory        builds the experiment of a config; deterministic in the config
 * @param summary        the summary table of a run's results given its config (e.g. mean ± sd per method)
 * @param variantsForMode the other configs its notebook runs in each mode (e.g. Relaxed EP's "clip" beside
 *                       "keep", the authors' protocol beside the clean one), each with a store of its own; none
 *                       by default. {@code approxgp run NAME --compress --stored-only} compresses their stores too
 * @param <C>            config record type
 * @param <K>            trial-key record type
 */
public record ExperimentSpec<C extends Record, K extends Record>(
    String name,
    String description,
    Class<C> configType,
    Function<ProjectPaths.Mode, C> configForMode,
    Function<C, Experiment<C, K>> factory,
    BiFunction<C, Results<K>, Table> summary,
    Function<ProjectPaths.Mode, List<C>> variantsForMode) {

  private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]*");

  public ExperimentSpec {
    if (name == null || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("registry name must match " + NAME + ": '" + name + "'");
    }
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(configType, "configType");
    Objects.requireNonNull(configForMode, "configForMode");
    Objects.requireNonNull(factory, "factory");
    Objects.requireNonNull(summary, "summary");
    Objects.requireNonNull(variantsForMode, "variantsForMode");
  }

  /** A spec without variants. */
  public ExperimentSpec(
      String name,
      String description,
      Class<C> configType,
      Function<ProjectPaths.Mode, C> configForMode,
      Function<C, Experiment<C, K>> factory,
      BiFunction<C, Results<K>, Table> summary) {
    this(name, description, configType, configForMode, factory, summary, m -> List.of());
  }

  /** A spec whose summary is the full row table ({@link Results#table()}). */
  public static <C extends Record, K extends Record> ExperimentSpec<C, K> of(
      String name,
      String description,
      Class<C> configType,
      Function<ProjectPaths.Mode, C> configForMode,
      Function<C, Experiment<C, K>> factory) {
    return new ExperimentSpec<>(
        name, description, configType, configForMode, factory, (c, r) -> r.table());
  }

  /** The same spec with another summary. */
  public ExperimentSpec<C, K> withSummary(BiFunction<C, Results<K>, Table> s) {
    return new ExperimentSpec<>(
        name, description, configType, configForMode, factory, s, variantsForMode);
  }

  /** The same spec with {@code v} as the other configs its notebook runs in each mode. */
  public ExperimentSpec<C, K> withVariants(Function<ProjectPaths.Mode, List<C>> v) {
    return new ExperimentSpec<>(name, description, configType, configForMode, factory, summary, v);
  }

  /**
   * Every experiment this spec runs in {@code mode}: {@link #forMode} first, then one per variant, each store
   * (experiment name and {@link ConfigHash#storeHash}) once.
   */
  public List<Experiment<C, K>> allForMode(ProjectPaths.Mode mode) {
    List<C> configs = new ArrayList<>();
    configs.add(configForMode.apply(mode));
    configs.addAll(variantsForMode.apply(mode));
    List<Experiment<C, K>> out = new ArrayList<>();
    Set<String> stores = new LinkedHashSet<>();
    for (C c : configs) {
      Experiment<C, K> e = forConfig(c);
      if (stores.add(e.name() + "/" + ConfigHash.storeHash(c))) {
        out.add(e);
      }
    }
    return out;
  }

  /** The experiment of run mode {@code mode}. */
  public Experiment<C, K> forMode(ProjectPaths.Mode mode) {
    return forConfig(configForMode.apply(mode));
  }

  /**
   * The experiment of {@code config}.
   *
   * @throws IllegalArgumentException if the config is not a {@link #configType()}
   */
  public Experiment<C, K> forConfig(Record config) {
    if (!configType.isInstance(config)) {
      throw new IllegalArgumentException(
          name + ": config " + config + " is not a " + configType.getName());
    }
    return factory.apply(configType.cast(config));
  }

  /** The summary table of {@code results}, a run of this spec's experiment with {@code config}. */
  @SuppressWarnings("unchecked")
  public Table summarize(Record config, Results<?> results) {
    return summary.apply(configType.cast(config), (Results<K>) results);
  }
}
