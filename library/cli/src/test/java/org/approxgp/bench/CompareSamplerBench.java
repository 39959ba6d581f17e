package org.approxgp.bench;

import java.util.Locale;
import org.approxgp.papers.qp.QpTruth;
import org.approxgp.reference.GaussianReference;
import org.approxgp.reference.SampledPosterior;

/**
 * Benchmark (not a test): the truth sampler of {@code approxgp compare} with site sweeps (the default,
 * {@link SampledPosterior.Moves#ELLIPSE_AND_SITES}) against ellipse steps alone ({@link SampledPosterior.Moves#ELLIPSE},
 * the sampler before site sweeps), both with ellipses from EP's Gaussian, on one compare trial's problem
 * ({@link QpTruth#setup}: fold 0 of seed 0, the first ROWS training rows, SE-iso at EP's learned hyperparameters).
 * Each runs its fixed number of transitions per chain (4 chains, over-dispersed starts, the last half kept, the R̂
 * and ESS targets set out of reach so that neither stops early), one after the other in this JVM on THREADS threads;
 * printed: each run's smallest bulk ESS over the latents, its R̂ max and wall time, and the ratio of ESS per second,
 * new/old.
 *
 * <p>Run: {@code bin/bench compare [DATA] [ROWS] [OLD_T] [NEW_T] [THREADS]} (defaults sonar, 120, 64000, 8000, 2).
 */
public final class CompareSamplerBench {
  private CompareSamplerBench() {}

  public static void main(String[] args) {
    String data = args.length > 0 ? args[0] : "sonar";
    int rows = args.length > 1 ? Integer.parseInt(args[1]) : 120;
    long oldT = args.length > 2 ? Long.parseLong(args[2]) : 64_000;
    long newT = args.length > 3 ? Long.parseLong(args[3]) : 8_000;
    int threads = args.length > 4 ? Integer.parseInt(args[4]) : 2;
    QpTruth.Setup s = QpTruth.setup(data, 0, rows);
    GaussianReference q =
        GaussianReference.fromSites(s.problem(), s.ep().posterior().sites(), "EP's Gaussian");
    System.out.printf(
        Locale.ROOT,
        "compare sampler on %s: %d rows, log-hyperparameters %s, ellipses from EP's Gaussian%n",
        data,
        s.problem().size(),
        java.util.Arrays.toString(s.problem().kernel().logHyperparameters()));
    SampledPosterior old = run(s, q, SampledPosterior.Moves.ELLIPSE, oldT, threads);
    SampledPosterior mine = run(s, q, SampledPosterior.Moves.ELLIPSE_AND_SITES, newT, threads);
    double rOld = old.essMin() / old.seconds();
    double rNew = mine.essMin() / mine.seconds();
    System.out.printf(Locale.ROOT, "old: %s; %.2f ESS/s%n", old, rOld);
    System.out.printf(Locale.ROOT, "new: %s; %.2f ESS/s%n", mine, rNew);
    System.out.printf(
        Locale.ROOT, "compare: ESS per second new/old = %.1f on %s%n", rNew / rOld, data);
  }

  private static SampledPosterior run(
      QpTruth.Setup s, GaussianReference q, SampledPosterior.Moves moves, long t, int threads) {
    return SampledPosterior.sample(
        s.problem(),
        q,
        SampledPosterior.Options.defaults()
            .withMoves(moves)
            .withThreads(threads)
            .withMaxTransitions(t)
            .withTargets(1.0, Double.MAX_VALUE),
        line -> {});
  }
}
