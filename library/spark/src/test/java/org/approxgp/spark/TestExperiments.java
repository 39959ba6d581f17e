package org.approxgp.spark;

import java.util.ArrayList;
import java.util.List;
import org.approxgp.experiment.Experiment;
import org.approxgp.experiment.ExperimentCatalog;
import org.approxgp.experiment.ExperimentSpec;
import org.approxgp.experiment.ResultRow;
import org.approxgp.experiment.TrialKey;

/** A test-only registered experiment whose trial throws for one seed (registered by a service file). */
public final class TestExperiments implements ExperimentCatalog {

  static final String FAILING = "spark-test-failing";

  /** An {@link Error}: Spark fails the task instead of the trial reporting it. */
  static final class TrialError extends Error {
    private static final long serialVersionUID = 1L;

    TrialError(String message) {
      super(message);
    }
  }

  /**
   * Trials with seeds 0..n-1; the trial of seed {@code failAt} throws an exception, that of seed
   * {@code errorAt} an {@link Error}.
   */
  public record Config(int n, int failAt, int errorAt) {
    Config(int n, int failAt) {
      this(n, failAt, -1);
    }
  }

  static Experiment<Config, TrialKey> failing(Config c) {
    List<TrialKey> keys = new ArrayList<>();
    for (int s = 0; s < c.n(); s++) {
      keys.add(TrialKey.of("square", s, 0));
    }
    return Experiment.of(FAILING, c, keys, (cfg, k) -> {
      if (k.seed() == cfg.failAt()) {
        throw new IllegalArgumentException("boom at seed " + k.seed());
      }
      if (k.seed() == cfg.errorAt()) {
        throw new TrialError("fatal-looking error at seed " + k.seed());
      }
      return ResultRow.builder().put("square", (double) k.seed() * k.seed()).build();
    });
  }

  @Override
  public List<ExperimentSpec<?, ?>> experiments() {
    return List.of(ExperimentSpec.of(
        FAILING,
        "test: a trial that throws",
        Config.class,
        m -> new Config(4, 2),
        TestExperiments::failing));
  }
}
