package org.approxgp.experiment;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * An experiment: a name (the results sub-directory), a config record, the list of independent
 * trials, and the function computing one trial. The config's canonical string (see
 * {@link ConfigHash}) decides the results file, so changing any config value starts new results.
 *
 * @param <C> config record type
 */
public record Experiment<C extends Record>(String name, C config, List<TrialKey> trials, Trial<C> trial) {

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

  public Experiment {
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(trial, "trial");
    if (name == null || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("experiment name must match " + NAME + ": '" + name + "'");
    }
    trials = List.copyOf(trials);
    Set<TrialKey> seen = new HashSet<>();
    for (TrialKey k : trials) {
      if (!seen.add(k)) {
        throw new IllegalArgumentException("duplicate trial " + k);
      }
    }
  }

  public static <C extends Record> Experiment<C> of(String name, C config, List<TrialKey> trials, Trial<C> trial) {
    return new Experiment<>(name, config, trials, trial);
  }

  /** Trials for every combination of methods × seeds {@code 0..seeds-1} × folds {@code 0..folds-1}. */
  public static List<TrialKey> grid(List<String> methods, int seeds, int folds) {
    if (seeds < 1 || folds < 1) {
      throw new IllegalArgumentException("seeds and folds must be >= 1");
    }
    java.util.ArrayList<TrialKey> out = new java.util.ArrayList<>();
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
