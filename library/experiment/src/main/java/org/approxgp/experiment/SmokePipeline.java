package org.approxgp.experiment;

import java.util.ArrayList;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.apache.commons.rng.simple.RandomSource;

/**
 * Pipeline demo with a known answer (notebooks/smoke-pipeline.ipynb): Monte-Carlo estimates of
 * E[exp(X)] for X ~ N(μ, σ²), whose exact value is exp(μ + σ²/2), by plain sampling and by
 * antithetic pairs (x, 2μ − x). The trial key's {@code fold} indexes {@link Config#sampleSizes()}.
 * Each trial seeds its own generator from {@code (seed, fold)}, so results are bit-identical for any
 * thread count.
 */
public final class SmokePipeline {

  public static final String NAME = "smoke-pipeline";
  public static final List<String> METHODS = List.of("plain", "antithetic");

  private SmokePipeline() {}

  /**
   * @param mu          mean of X
   * @param sigma       standard deviation of X (> 0)
   * @param seeds       independent repetitions per method and sample size
   * @param sampleSizes numbers of function evaluations per estimate (even, > 0)
   */
  public record Config(double mu, double sigma, int seeds, List<Integer> sampleSizes) {
    public Config {
      if (!(sigma > 0)
          || seeds < 1
          || sampleSizes.isEmpty()
          || sampleSizes.stream().anyMatch(n -> n < 2 || n % 2 != 0)) {
        throw new IllegalArgumentException("need sigma > 0, seeds >= 1, even sample sizes >= 2");
      }
      sampleSizes = List.copyOf(sampleSizes);
    }

    /** smoke: 4 seeds × {100, 1000}; quick: 20 × {100 … 10⁴}; full: 100 × {100 … 10⁵}. */
    public static Config forMode(ProjectPaths.Mode mode) {
      return new Config(
          0.0,
          1.0,
          mode.pick(4, 20, 100),
          mode.pick(
              List.of(100, 1000), List.of(100, 1000, 10_000), List.of(100, 1000, 10_000, 100_000)));
    }
  }

  public static double exact(Config c) {
    return Math.exp(c.mu() + 0.5 * c.sigma() * c.sigma());
  }

  public static Experiment<Config, TrialKey> experiment(Config config) {
    List<TrialKey> keys = new ArrayList<>();
    for (String m : METHODS) {
      for (int s = 0; s < config.seeds(); s++) {
        for (int f = 0; f < config.sampleSizes().size(); f++) {
          keys.add(TrialKey.of(m, s, f));
        }
      }
    }
    return Experiment.of(NAME, config, keys, SmokePipeline::trial);
  }

  static ResultRow trial(Config c, TrialKey key) {
    int n = c.sampleSizes().get(key.fold());
    UniformRandomProvider rng =
        RandomSource.XO_RO_SHI_RO_128_PP.create(new long[] {key.seed(), key.fold()});
    ZigguratSampler.NormalizedGaussian z = ZigguratSampler.NormalizedGaussian.of(rng);
    double sum = 0;
    switch (key.method()) {
      case "plain" -> {
        for (int i = 0; i < n; i++) {
          sum += Math.exp(c.mu() + c.sigma() * z.sample());
        }
      }
      case "antithetic" -> {
        for (int i = 0; i < n / 2; i++) {
          double e = c.sigma() * z.sample();
          sum += Math.exp(c.mu() + e) + Math.exp(c.mu() - e);
        }
      }
      default -> throw new IllegalArgumentException("unknown method " + key.method());
    }
    double estimate = sum / n;
    return ResultRow.builder()
        .put("n", (long) n)
        .put("estimate", estimate)
        .put("abs error", Math.abs(estimate - exact(c)))
        .build();
  }
}
