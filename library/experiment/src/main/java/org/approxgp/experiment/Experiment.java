package org.approxgp.experiment;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import java.util.regex.Pattern;

/**
 * An experiment: a name (the results sub-directory), a config record, the list of independent
 * trials — each identified by a key record of the experiment's own type — and the function computing
 * one trial. The config's canonical string (see {@link ConfigHash}) decides the results file, so
 * changing any config value starts new results; the key record's components (see {@link TrialKeys})
 * are the key columns of the result table.
 *
 * <p>An optional cost estimate ({@link #withCost}) orders the pending trials longest first, so the
 * last trials to start are short and every core stays busy until the end; it changes only when a
 * trial starts, never its result (each trial is deterministic given config and key), and the rows
 * still come back in trial-list order.
 *
 * <p>Its {@link VerifyRule} ({@link #withVerifyRule}) says how {@link Runner#verify} holds a recomputed trial to
 * its stored row: which columns within which tolerance, and which trials are sensitive to rounding.
 *
 * @param <C> config record type
 * @param <K> trial-key record type
 */
public record Experiment<C extends Record, K extends Record>(
    String name,
    C config,
    Class<K> keyType,
    List<K> trials,
    Trial<C, K> trial,
    ToDoubleFunction<? super K> cost,
    VerifyRule verifyRule) {

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

  public Experiment {
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(keyType, "keyType");
    Objects.requireNonNull(trial, "trial");
    Objects.requireNonNull(cost, "cost");
    Objects.requireNonNull(verifyRule, "verifyRule");
    if (name == null || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("experiment name must match " + NAME + ": '" + name + "'");
    }
    TrialKeys.columns(keyType); // checks the component types
    trials = List.copyOf(trials);
    Set<String> seen = new HashSet<>();
    for (K k : trials) {
      if (k.getClass() != keyType) {
        throw new IllegalArgumentException(
            "trial key " + k + " is not a " + keyType.getSimpleName());
      }
      if (!seen.add(TrialKeys.id(k))) {
        throw new IllegalArgumentException("duplicate trial " + TrialKeys.id(k));
      }
    }
  }

  /** An experiment without a cost estimate: every trial costs the same, pending trials run in list order. */
  public Experiment(String name, C config, Class<K> keyType, List<K> trials, Trial<C, K> trial) {
    this(name, config, keyType, trials, trial, k -> 1.0, VerifyRule.DEFAULT);
  }

  public static <C extends Record, K extends Record> Experiment<C, K> of(
      String name, C config, Class<K> keyType, List<K> trials, Trial<C, K> trial) {
    return new Experiment<>(name, config, keyType, trials, trial);
  }

  /**
   * This experiment with a relative cost estimate per trial (any positive scale, e.g. n³ of the trial's
   * data set): the runner starts the pending trials in decreasing cost, ties in list order. Results do
   * not depend on it.
   */
  public Experiment<C, K> withCost(ToDoubleFunction<? super K> estimate) {
    return new Experiment<>(name, config, keyType, trials, trial, estimate, verifyRule);
  }

  /** This experiment with {@code rule} deciding how {@link Runner#verify} compares its rows. */
  public Experiment<C, K> withVerifyRule(VerifyRule rule) {
    return new Experiment<>(name, config, keyType, trials, trial, cost, rule);
  }

  /**
   * {@code pending} in the order to start them: decreasing {@link #cost()}, ties (and NaN costs, last) in
   * the given order.
   */
  public List<K> longestFirst(List<K> pending) {
    List<K> out = new ArrayList<>(pending);
    Map<K, Double> c = new HashMap<>();
    for (K k : out) {
      double v = cost.applyAsDouble(k);
      c.put(k, Double.isNaN(v) ? Double.NEGATIVE_INFINITY : v);
    }
    out.sort((a, b) -> Double.compare(c.get(b), c.get(a))); // List.sort is stable
    return out;
  }

  /**
   * This experiment with only the trials whose key column {@code column} (e.g. "method", "dataset") holds one of
   * {@code values} (compared as strings), in their order. The config, and so the results store, stay the same:
   * the selected trials are read from, and added to, the store of the whole experiment.
   *
   * @throws IllegalArgumentException if the key has no such column, or a value names no trial of the experiment
   */
  public Experiment<C, K> selecting(String column, java.util.Collection<String> values) {
    if (!keyColumns().contains(column)) {
      throw new IllegalArgumentException(name + "'s trials have no '" + column
          + "' (their key columns: " + String.join(", ", keyColumns()) + ")");
    }
    java.util.LinkedHashSet<String> known = new java.util.LinkedHashSet<>();
    for (K k : trials) {
      known.add(String.valueOf(TrialKeys.values(k).get(column)));
    }
    for (String v : values) {
      if (!known.contains(v)) {
        throw new IllegalArgumentException("'" + v + "' is not a " + column + " of " + name
            + " (its: " + String.join(", ", known) + ")");
      }
    }
    java.util.Set<String> wanted = java.util.Set.copyOf(values);
    List<K> kept = trials.stream()
        .filter(k -> wanted.contains(String.valueOf(TrialKeys.values(k).get(column))))
        .toList();
    return new Experiment<>(name, config, keyType, kept, trial, cost, verifyRule);
  }

  /** An experiment keyed by the ready-made {@link TrialKey} (method, seed, fold). */
  public static <C extends Record> Experiment<C, TrialKey> of(
      String name, C config, List<TrialKey> trials, Trial<C, TrialKey> trial) {
    return new Experiment<>(name, config, TrialKey.class, trials, trial);
  }

  /** The key column names, in the key record's declaration order. */
  public List<String> keyColumns() {
    return TrialKeys.columns(keyType);
  }

  /** Trials for every combination of methods × seeds {@code 0..seeds-1} × folds {@code 0..folds-1}. */
  public static List<TrialKey> grid(List<String> methods, int seeds, int folds) {
    if (seeds < 1 || folds < 1) {
      throw new IllegalArgumentException("seeds and folds must be >= 1");
    }
    List<TrialKey> out = new ArrayList<>();
    for (String m : methods) {
      for (int s = 0; s < seeds; s++) {
        for (int f = 0; f < folds; f++) {
          out.add(new TrialKey(m, s, f));
        }
      }
    }
    return out;
  }
}
