package org.approxgp.reference;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import org.approxgp.inference.Problem;

/**
 * The posterior marginals p(fᵢ | y) of a latent GP by elliptical slice sampling ({@link SliceTransition}, ellipses from a
 * {@link GaussianReference} q) in
 * several independent chains, run until every latent passes the convergence checks of {@link ChainDiagnostics}
 * (R̂ ≤ {@link Options#rhatTarget}, bulk ESS ≥ {@link Options#essTarget}) or a length cap stops it.
 *
 * <p>Schedule. Each chain starts from its own draw of q with twice q's standard deviation (over-dispersed
 * relative to the posterior, as R̂ needs) and runs T₀ warm-up transitions. Round r then runs as many transitions again as the chain has made
 * so far (T₀, 2T₀, 4T₀, …), keeping the new half only — Gelman's rule of discarding the first half — thinned
 * so that at most {@link Options#keptPerChain} states are stored. After each round R̂ and ESS are computed for
 * every latent on the kept states; the run ends when all pass, or when another round would pass
 * {@link Options#maxTransitions}, and then says so ({@link #capped()}).
 *
 * <p>Reproducible: chain c draws from its own commons-rng stream ({@link Streams}: seed, index c), and the
 * chains' results are combined in chain order, so the output is bit-identical whatever {@link Options#threads}.
 *
 * @param mean posterior mean of each fᵢ (pooled kept states)
 * @param variance posterior variance of each fᵢ (pooled, divisor S − 1)
 * @param meanStdError Monte-Carlo standard error of each mean, √(variance / bulk ESS)
 * @param rhat R̂ of each latent
 * @param ess bulk ESS of each latent
 * @param chains number of chains
 * @param transitionsPerChain transitions each chain made, warm-up included
 * @param keptPerChain states kept per chain in the final round
 * @param capped whether {@link Options#maxTransitions} stopped the run before the targets were met
 * @param evaluations likelihood evaluations over all chains
 * @param jitter jitter added to K's diagonal
 * @param seconds wall time
 */
public record SampledPosterior(
    double[] mean,
    double[] variance,
    double[] meanStdError,
    double[] rhat,
    double[] ess,
    int chains,
    long transitionsPerChain,
    int keptPerChain,
    boolean capped,
    long evaluations,
    double jitter,
    double seconds) {

  /**
   * @param chains independent chains (≥ 4)
   * @param seed base seed
   * @param warmup T₀, warm-up transitions per chain, also the first round's length (≥ 16)
   * @param maxTransitions cap on the transitions per chain
   * @param keptPerChain most states stored per chain (≥ 16)
   * @param rhatTarget R̂ every latent must reach (≤)
   * @param essTarget bulk ESS every latent must reach (≥)
   * @param threads worker threads (≥ 1; does not change the result)
   */
  public record Options(
      int chains,
      long seed,
      long warmup,
      long maxTransitions,
      int keptPerChain,
      double rhatTarget,
      double essTarget,
      int threads) {
    public Options {
      if (chains < 4) {
        throw new IllegalArgumentException("need at least 4 chains, got " + chains);
      }
      if (warmup < 16 || maxTransitions < 2 * warmup) {
        throw new IllegalArgumentException("need warm-up >= 16 and a cap >= twice the warm-up, got "
            + warmup + " and " + maxTransitions);
      }
      if (keptPerChain < 16) {
        throw new IllegalArgumentException(
            "keep at least 16 states per chain, got " + keptPerChain);
      }
      if (!(rhatTarget >= 1) || !(essTarget > 0) || threads < 1) {
        throw new IllegalArgumentException(
            "need R-hat target >= 1, ESS target > 0 and threads >= 1");
      }
    }

    /**
     * 4 chains, seed 0, T₀ = 1000, cap 1,024,000 transitions per chain, 2,500 kept per chain, R̂ ≤ 1.01, bulk
     * ESS ≥ 1000 (Vehtari et al. 2021, §4.3 recommend R̂ &lt; 1.01 and ESS &gt; 400), one thread per core.
     */
    public static Options defaults() {
      return new Options(
          4, 0, 1000, 1_024_000, 2500, 1.01, 1000, Runtime.getRuntime().availableProcessors());
    }

    public Options withSeed(long s) {
      return new Options(
          chains, s, warmup, maxTransitions, keptPerChain, rhatTarget, essTarget, threads);
    }

    public Options withChains(int c) {
      return new Options(
          c, seed, warmup, maxTransitions, keptPerChain, rhatTarget, essTarget, threads);
    }

    public Options withThreads(int t) {
      return new Options(
          chains, seed, warmup, maxTransitions, keptPerChain, rhatTarget, essTarget, t);
    }

    public Options withMaxTransitions(long cap) {
      return new Options(chains, seed, warmup, cap, keptPerChain, rhatTarget, essTarget, threads);
    }

    public Options withTargets(double rhat, double ess) {
      return new Options(chains, seed, warmup, maxTransitions, keptPerChain, rhat, ess, threads);
    }
  }

  public SampledPosterior {
    mean = mean.clone();
    variance = variance.clone();
    meanStdError = meanStdError.clone();
    rhat = rhat.clone();
    ess = ess.clone();
  }

  @Override
  public double[] mean() {
    return mean.clone();
  }

  @Override
  public double[] variance() {
    return variance.clone();
  }

  @Override
  public double[] meanStdError() {
    return meanStdError.clone();
  }

  @Override
  public double[] rhat() {
    return rhat.clone();
  }

  @Override
  public double[] ess() {
    return ess.clone();
  }

  /** The largest R̂ over the latents. */
  public double rhatMax() {
    double m = Double.NEGATIVE_INFINITY;
    for (double r : rhat) {
      m = Math.max(m, r);
    }
    return m;
  }

  /** The smallest bulk ESS over the latents. */
  public double essMin() {
    double m = Double.POSITIVE_INFINITY;
    for (double e : ess) {
      m = Math.min(m, e);
    }
    return m;
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "%d chains x %,d transitions (%,d kept each): R-hat max %.4f, bulk ESS min %.0f"
            + "%s, %.1f s",
        chains,
        transitionsPerChain,
        keptPerChain,
        rhatMax(),
        essMin(),
        capped ? " -- STOPPED BY THE CAP before the targets were met" : "",
        seconds);
  }

  /**
   * Samples {@code problem}'s posterior with ellipses from {@code q} ({@link GaussianReference}) and
   * {@code options}; {@code rounds} hears one line after each round.
   */
  public static SampledPosterior sample(
      Problem problem, GaussianReference q, Options options, Consumer<String> rounds) {
    long t0 = System.nanoTime();
    SliceTransition tr = new SliceTransition(problem, q);
    int n = tr.size();
    int m = options.chains();
    SliceTransition.State[] state = new SliceTransition.State[m];
    for (int c = 0; c < m; c++) {
      // over-dispersed starts: v = 2z, twice q's standard deviation in every direction
      state[c] = tr.start(Streams.of(options.seed(), c), 2.0);
    }
    ExecutorService pool = Executors.newFixedThreadPool(Math.min(options.threads(), m), r -> {
      Thread t = new Thread(r, "slice-chain");
      t.setDaemon(true);
      return t;
    });
    try {
      runAll(pool, m, c -> {
        for (long t = 0; t < options.warmup(); t++) {
          tr.step(state[c], 1.0);
        }
        return null;
      });
      long done = options.warmup();
      while (true) {
        long segment = done;
        int thin =
            (int) Math.max(1, (segment + options.keptPerChain() - 1) / options.keptPerChain());
        int kept = (int) (segment / thin);
        double[][] draws = new double[m][];
        runAll(pool, m, c -> {
          double[] d = new double[kept * n];
          double[] f = new double[n];
          int k = 0;
          for (long t = 1; t <= segment; t++) {
            tr.step(state[c], 1.0);
            if (t % thin == 0 && k < kept) {
              tr.latent(state[c], f);
              System.arraycopy(f, 0, d, k * n, n);
              k++;
            }
          }
          draws[c] = d;
          return null;
        });
        done += segment;
        double[] rhat = new double[n];
        double[] ess = new double[n];
        diagnose(pool, draws, kept, n, rhat, ess);
        long evaluations = 0;
        for (SliceTransition.State w : state) {
          evaluations += w.evaluations;
        }
        boolean met = true;
        for (int i = 0; i < n; i++) {
          met &= rhat[i] <= options.rhatTarget() && ess[i] >= options.essTarget();
        }
        boolean capped = !met && 2 * done > options.maxTransitions();
        if (met || capped) {
          SampledPosterior r = summarise(
              draws,
              kept,
              n,
              tr,
              rhat,
              ess,
              m,
              done,
              capped,
              evaluations,
              (System.nanoTime() - t0) * 1e-9);
          rounds.accept(r.toString());
          return r;
        }
        rounds.accept(String.format(
            Locale.ROOT,
            "%,d transitions per chain: R-hat max %.4f, ESS min %.0f; doubling",
            done,
            max(rhat),
            min(ess)));
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static double max(double[] v) {
    double m = Double.NEGATIVE_INFINITY;
    for (double x : v) {
      m = Math.max(m, x);
    }
    return m;
  }

  private static double min(double[] v) {
    double m = Double.POSITIVE_INFINITY;
    for (double x : v) {
      m = Math.min(m, x);
    }
    return m;
  }

  private static void diagnose(
      ExecutorService pool, double[][] draws, int kept, int n, double[] rhat, double[] ess) {
    int m = draws.length;
    int blocks = 8;
    runAll(pool, blocks, b -> {
      double[][] chains = new double[m][kept];
      for (int i = b; i < n; i += blocks) {
        for (int c = 0; c < m; c++) {
          for (int k = 0; k < kept; k++) {
            chains[c][k] = draws[c][k * n + i];
          }
        }
        ChainDiagnostics.Result d = ChainDiagnostics.of(chains);
        rhat[i] = d.rhat();
        ess[i] = d.bulkEss();
      }
      return null;
    });
  }

  private static SampledPosterior summarise(
      double[][] draws,
      int kept,
      int n,
      SliceTransition tr,
      double[] rhat,
      double[] ess,
      int chains,
      long transitions,
      boolean capped,
      long evaluations,
      double seconds) {
    double[] mean = new double[n];
    double[] var = new double[n];
    double[] se = new double[n];
    long s = (long) chains * kept;
    for (double[] d : draws) {
      for (int k = 0; k < kept; k++) {
        for (int i = 0; i < n; i++) {
          mean[i] += d[k * n + i];
        }
      }
    }
    for (int i = 0; i < n; i++) {
      mean[i] /= s;
    }
    for (double[] d : draws) {
      for (int k = 0; k < kept; k++) {
        for (int i = 0; i < n; i++) {
          double e = d[k * n + i] - mean[i];
          var[i] += e * e;
        }
      }
    }
    for (int i = 0; i < n; i++) {
      var[i] /= s - 1;
      se[i] = Math.sqrt(var[i] / ess[i]);
    }
    return new SampledPosterior(
        mean,
        var,
        se,
        rhat,
        ess,
        chains,
        transitions,
        kept,
        capped,
        evaluations,
        tr.jitter(),
        seconds);
  }

  /** Runs task(0 … count − 1) on the pool and waits; rethrows the first failure. */
  static void runAll(ExecutorService pool, int count, java.util.function.IntFunction<Void> task) {
    List<Future<Void>> fs = new ArrayList<>();
    for (int c = 0; c < count; c++) {
      int cc = c;
      fs.add(pool.submit(() -> task.apply(cc)));
    }
    try {
      for (Future<Void> f : fs) {
        f.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while sampling", e);
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      if (c instanceof RuntimeException re) {
        throw re;
      }
      throw new IllegalStateException(c);
    }
  }
}
