package org.approxgp.reference;

import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.approxgp.inference.Problem;
import org.approxgp.special.LogSpace;

/**
 * The log evidence log Z = log ∫ N(f | m₀, K) Πᵢ p(yᵢ | fᵢ) df by annealed importance sampling (R. M. Neal,
 * "Annealed importance sampling", Statistics and Computing 11, 2001, §2–3). With p* = q exp(ℓ) as in
 * {@link GaussianReference} (q normalised, so Z = E_q[exp ℓ]), the intermediate distributions are
 * π_j ∝ q exp(β_j ℓ), 0 = β₀ &lt; β₁ &lt; … &lt; β_J = 1: from q itself (q the prior: the classic annealing from
 * prior to posterior) to the posterior. One run: x₀ ~ q (exact for β₀ = 0); for j = 1 … J,
 * log w += (β_j − β_{j−1}) ℓ(x_{j−1}) (Neal eq. 3), then x_j = one elliptical slice transition leaving π_j
 * invariant ({@link SliceTransition} with β_j). Each run's w is an unbiased estimate of Z.
 *
 * <p>Schedule β_j = (j/J)⁴: a power schedule puts most temperatures near β = 0, where π_β moves fastest away
 * from q when ℓ is a sum of many terms.
 *
 * <p>Estimate over R independent runs: log Ẑ = log((1/R) Σ_r w_r) by log-sum-exp; its standard error by the
 * delta method, se(log Ẑ) = sd(w)/(√R · mean(w)), computed with w scaled by its largest value. log Ẑ is biased low by
 * about se²/2 (Jensen), well inside se when se is small. Seeded: run r draws from its own stream
 * ({@link Streams}, index 10⁶ + r, apart from the sampler's chains); runs are combined in order, so the result does not depend on the thread count.
 *
 * @param logEvidence log Ẑ
 * @param standardError se(log Ẑ) by the delta method over the runs
 * @param logWeights each run's log w
 * @param temperatures J
 * @param seconds wall time
 */
public record AnnealedImportanceSampling(
    double logEvidence,
    double standardError,
    double[] logWeights,
    int temperatures,
    double seconds) {

  public AnnealedImportanceSampling {
    logWeights = logWeights.clone();
  }

  @Override
  public double[] logWeights() {
    return logWeights.clone();
  }

  /** The effective number of runs (Σ w)²/Σ w² (Kish), out of R. */
  public double effectiveRuns() {
    double mx = Double.NEGATIVE_INFINITY;
    for (double l : logWeights) {
      mx = Math.max(mx, l);
    }
    double s = 0;
    double s2 = 0;
    for (double l : logWeights) {
      double w = Math.exp(l - mx);
      s += w;
      s2 += w * w;
    }
    return s * s / s2;
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "AIS log Z = %.4f +- %.4f (%d runs x %,d temperatures, %.1f effective runs," + " %.1f s)",
        logEvidence,
        standardError,
        logWeights.length,
        temperatures,
        effectiveRuns(),
        seconds);
  }

  /**
   * Runs {@code runs} (≥ 2) independent annealing runs of {@code temperatures} (≥ 2) steps each on
   * {@code threads} threads.
   */
  public static AnnealedImportanceSampling estimate(
      Problem problem, GaussianReference q, int runs, int temperatures, long seed, int threads) {
    if (runs < 2 || temperatures < 2 || threads < 1) {
      throw new IllegalArgumentException("need runs >= 2, temperatures >= 2 and threads >= 1, got "
          + runs + ", " + temperatures + ", " + threads);
    }
    long t0 = System.nanoTime();
    SliceTransition tr = new SliceTransition(problem, q);
    double[] logW = new double[runs];
    ExecutorService pool = Executors.newFixedThreadPool(Math.min(threads, runs), r -> {
      Thread t = new Thread(r, "ais-run");
      t.setDaemon(true);
      return t;
    });
    try {
      SampledPosterior.runAll(pool, runs, r -> {
        // β₀ = 0: an exact draw from q
        SliceTransition.State s = tr.start(Streams.of(seed, 1_000_000L + r), 1.0);
        double lw = 0;
        double prev = 0;
        for (int j = 1; j <= temperatures; j++) {
          double x = (double) j / temperatures;
          double beta = j == temperatures ? 1.0 : x * x * x * x;
          // Neal (2001) eq. 3: the weight's factor f_j(x_{j−1})/f_{j−1}(x_{j−1}) = exp((β_j −
          // β_{j−1}) ℓ)
          lw += (beta - prev) * tr.residual(s);
          tr.step(s, beta);
          prev = beta;
        }
        logW[r] = lw;
        return null;
      });
    } finally {
      pool.shutdownNow();
    }
    double logMean = LogSpace.logSumExp(logW) - Math.log(runs);
    double mx = Double.NEGATIVE_INFINITY;
    for (double l : logW) {
      mx = Math.max(mx, l);
    }
    double mean = 0;
    for (double l : logW) {
      mean += Math.exp(l - mx);
    }
    mean /= runs;
    double var = 0;
    for (double l : logW) {
      double d = Math.exp(l - mx) - mean;
      var += d * d;
    }
    var /= runs - 1;
    double se = Math.sqrt(var / runs) / mean;
    return new AnnealedImportanceSampling(
        logMean, se, logW, temperatures, (System.nanoTime() - t0) * 1e-9);
  }
}
