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
 * {@link GaussianReference} q), by default each ellipse step followed by a sweep of exact single-site updates
 * ({@link Moves}), in several independent chains, run until every latent passes the convergence checks of
 * {@link ChainDiagnostics} (R̂ ≤ {@link Options#rhatTarget}, bulk ESS ≥ {@link Options#essTarget}) and the caller's
 * {@link Decision} says the draws answer its question, or a length cap (the budget) stops it.
 *
 * <p>Schedule. Each chain starts from its own draw of q with twice q's standard deviation (over-dispersed
 * relative to the posterior, as R̂ needs) and runs T₀ warm-up transitions. Round r then runs as many transitions again as the chain has made
 * so far (T₀, 2T₀, 4T₀, …), keeping the new half only — Gelman's rule of discarding the first half — thinned
 * so that at most {@link Options#keptPerChain} states are stored. After each round R̂ and ESS are computed for
 * every latent on the kept states; the run ends when all pass and the {@link Decision} is made, or when another
 * round would pass {@link Options#maxTransitions}, and then says so ({@link #capped()}).
 *
 * <p>Monte-Carlo standard errors (V21 §4.4, with the ESS of the raw draws, {@link ChainDiagnostics#meanEss}): of
 * a mean √(s²/ESS(f)); of a variance √(var((f − m)²)/ESS((f − m)²)).
 *
 * <p>Reproducible: chain c draws from its own commons-rng stream ({@link Streams}: seed, index c), and the
 * chains' results are combined in chain order, so the output is bit-identical whatever {@link Options#threads}.
 *
 * @param mean posterior mean of each fᵢ (pooled kept states)
 * @param variance posterior variance of each fᵢ (pooled, divisor S − 1)
 * @param meanStdError Monte-Carlo standard error of each mean
 * @param varianceStdError Monte-Carlo standard error of each variance
 * @param rhat R̂ of each latent
 * @param ess bulk ESS of each latent
 * @param chains number of chains
 * @param transitionsPerChain transitions each chain made, warm-up included
 * @param keptPerChain states kept per chain in the final round
 * @param capped whether {@link Options#maxTransitions} stopped the run before the targets were met or the decision made
 * @param pending why the {@link Decision} was not made when the cap stopped the run, or null
 * @param moves the transitions the chains made
 * @param evaluations likelihood evaluations over all chains
 * @param jitter jitter added to K's diagonal
 * @param seconds wall time
 */
public record SampledPosterior(
    double[] mean,
    double[] variance,
    double[] meanStdError,
    double[] varianceStdError,
    double[] rhat,
    double[] ess,
    int chains,
    long transitionsPerChain,
    int keptPerChain,
    boolean capped,
    String pending,
    Moves moves,
    long evaluations,
    double jitter,
    double seconds) {

  /**
   * What one transition of a chain is. Every one leaves the posterior invariant; they differ in speed only.
   * {@link #ELLIPSE}: one elliptical slice step (fast when q is close to the posterior in every direction at once);
   * {@link #SITES}: one sweep of single-site updates ({@link SliceTransition#sweep}; fast when the posterior's
   * departure from a Gaussian is a product over the latents, slow when the prior correlates them strongly);
   * {@link #ELLIPSE_AND_SITES}: the one then the other, the default.
   */
  public enum Moves {
    ELLIPSE,
    SITES,
    ELLIPSE_AND_SITES;

    boolean ellipse() {
      return this != SITES;
    }

    boolean sites() {
      return this != ELLIPSE;
    }
  }

  /**
   * The caller's question, asked after every round once the R̂ and ESS targets hold: are these draws precise enough
   * to answer it? Returns null when they are, otherwise a short reason (reported in the round's line, and in
   * {@link #pending} if the cap ends the run first).
   */
  @FunctionalInterface
  public interface Decision {
    /** No question beyond the R̂ and ESS targets. */
    Decision NONE = current -> null;

    String pending(SampledPosterior current);
  }

  /**
   * @param chains independent chains (≥ 4)
   * @param seed base seed
   * @param warmup T₀, warm-up transitions per chain, also the first round's length (≥ 16)
   * @param maxTransitions cap on the transitions per chain
   * @param keptPerChain most states stored per chain (≥ 16)
   * @param rhatTarget R̂ every latent must reach (≤)
   * @param essTarget bulk ESS every latent must reach (≥)
   * @param threads worker threads (≥ 1; does not change the result)
   * @param moves what one transition is
   */
  public record Options(
      int chains,
      long seed,
      long warmup,
      long maxTransitions,
      int keptPerChain,
      double rhatTarget,
      double essTarget,
      int threads,
      Moves moves) {
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
      if (moves == null) {
        throw new IllegalArgumentException("moves must be given");
      }
    }

    /**
     * 4 chains, seed 0, T₀ = 1000, cap 1,024,000 transitions per chain, 2,500 kept per chain, R̂ ≤ 1.01, bulk
     * ESS ≥ 1000 (Vehtari et al. 2021, §4.3 recommend R̂ &lt; 1.01 and ESS &gt; 400), one thread per core, an
     * ellipse step and a site sweep per transition.
     */
    public static Options defaults() {
      return new Options(
          4,
          0,
          1000,
          1_024_000,
          2500,
          1.01,
          1000,
          Runtime.getRuntime().availableProcessors(),
          Moves.ELLIPSE_AND_SITES);
    }

    public Options withMoves(Moves m) {
      return new Options(
          chains, seed, warmup, maxTransitions, keptPerChain, rhatTarget, essTarget, threads, m);
    }

    public Options withWarmup(long w) {
      return new Options(
          chains, seed, w, maxTransitions, keptPerChain, rhatTarget, essTarget, threads, moves);
    }

    public Options withSeed(long s) {
      return new Options(
          chains, s, warmup, maxTransitions, keptPerChain, rhatTarget, essTarget, threads, moves);
    }

    public Options withChains(int c) {
      return new Options(
          c, seed, warmup, maxTransitions, keptPerChain, rhatTarget, essTarget, threads, moves);
    }

    public Options withThreads(int t) {
      return new Options(
          chains, seed, warmup, maxTransitions, keptPerChain, rhatTarget, essTarget, t, moves);
    }

    public Options withMaxTransitions(long cap) {
      return new Options(
          chains, seed, warmup, cap, keptPerChain, rhatTarget, essTarget, threads, moves);
    }

    public Options withTargets(double rhat, double ess) {
      return new Options(
          chains, seed, warmup, maxTransitions, keptPerChain, rhat, ess, threads, moves);
    }
  }

  public SampledPosterior {
    mean = mean.clone();
    variance = variance.clone();
    meanStdError = meanStdError.clone();
    varianceStdError = varianceStdError.clone();
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
  public double[] varianceStdError() {
    return varianceStdError.clone();
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
        "%d chains x %,d transitions of %s (%,d kept each): R-hat max %.4f, bulk ESS min %.0f"
            + "%s, %.1f s",
        chains,
        transitionsPerChain,
        moves.name().toLowerCase(Locale.ROOT).replace('_', ' '),
        keptPerChain,
        rhatMax(),
        essMin(),
        capped
            ? " -- STOPPED BY THE CAP before the targets were met"
                + (pending == null ? "" : " or the decision made (" + pending + ")")
            : "",
        seconds);
  }

  /**
   * Samples {@code problem}'s posterior with ellipses from {@code q} ({@link GaussianReference}) and
   * {@code options}; {@code rounds} hears one line after each round.
   */
  public static SampledPosterior sample(
      Problem problem, GaussianReference q, Options options, Consumer<String> rounds) {
    return sample(problem, q, options, Decision.NONE, rounds);
  }

  /**
   * Samples as {@link #sample(Problem, GaussianReference, Options, Consumer)} until, beyond the R̂ and ESS targets,
   * {@code decision} is made (or the cap).
   */
  public static SampledPosterior sample(
      Problem problem,
      GaussianReference q,
      Options options,
      Decision decision,
      Consumer<String> rounds) {
    long t0 = System.nanoTime();
    Moves moves = options.moves();
    SliceTransition tr = new SliceTransition(problem, q, moves.sites());
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
          transition(tr, state[c], moves);
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
            transition(tr, state[c], moves);
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
        boolean last = 2 * done > options.maxTransitions();
        String pending = null;
        SampledPosterior r = null;
        if (met || last) {
          r = summarise(
              pool,
              draws,
              kept,
              n,
              tr,
              rhat,
              ess,
              m,
              done,
              false,
              null,
              moves,
              evaluations,
              (System.nanoTime() - t0) * 1e-9);
          pending = decision.pending(r);
        }
        if (met && pending == null) {
          rounds.accept(r.toString());
          return r;
        }
        if (last) {
          r = summarise(
              pool,
              draws,
              kept,
              n,
              tr,
              rhat,
              ess,
              m,
              done,
              true,
              pending,
              moves,
              evaluations,
              (System.nanoTime() - t0) * 1e-9);
          rounds.accept(r.toString());
          return r;
        }
        rounds.accept(String.format(
            Locale.ROOT,
            "%,d transitions per chain: R-hat max %.4f, ESS min %.0f%s; doubling",
            done,
            max(rhat),
            min(ess),
            pending == null ? "" : ", undecided: " + pending));
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static void transition(SliceTransition tr, SliceTransition.State s, Moves moves) {
    if (moves.ellipse()) {
      tr.step(s, 1.0);
    }
    if (moves.sites()) {
      tr.sweep(s);
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
      ExecutorService pool,
      double[][] draws,
      int kept,
      int n,
      SliceTransition tr,
      double[] rhat,
      double[] ess,
      int chains,
      long transitions,
      boolean capped,
      String pending,
      Moves moves,
      long evaluations,
      double seconds) {
    double[] mean = new double[n];
    double[] var = new double[n];
    double[] se = new double[n];
    double[] seVar = new double[n];
    long s = (long) chains * kept;
    int blocks = 8;
    runAll(pool, blocks, b -> {
      double[][] x = new double[chains][kept];
      double[][] sq = new double[chains][kept];
      for (int i = b; i < n; i += blocks) {
        double sum = 0;
        for (int c = 0; c < chains; c++) {
          for (int k = 0; k < kept; k++) {
            x[c][k] = draws[c][k * n + i];
            sum += x[c][k];
          }
        }
        double mu = sum / s;
        double ss = 0;
        for (int c = 0; c < chains; c++) {
          for (int k = 0; k < kept; k++) {
            double e = x[c][k] - mu;
            sq[c][k] = e * e;
            ss += sq[c][k];
          }
        }
        double v = ss / (s - 1);
        double v4 = 0;
        double msq = ss / s;
        for (int c = 0; c < chains; c++) {
          for (int k = 0; k < kept; k++) {
            double e = sq[c][k] - msq;
            v4 += e * e;
          }
        }
        v4 /= s - 1;
        mean[i] = mu;
        var[i] = v;
        se[i] = Math.sqrt(v / ChainDiagnostics.meanEss(x));
        seVar[i] = v4 > 0 ? Math.sqrt(v4 / ChainDiagnostics.meanEss(sq)) : 0;
      }
      return null;
    });
    return new SampledPosterior(
        mean,
        var,
        se,
        seVar,
        rhat,
        ess,
        chains,
        transitions,
        kept,
        capped,
        pending,
        moves,
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
