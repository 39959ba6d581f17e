package org.approxgp.papers.qp;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.approxgp.experiment.Experiment;
import org.approxgp.experiment.ProjectPaths;
import org.approxgp.experiment.ResultRow;
import org.approxgp.experiment.TrialKey;
import org.approxgp.experiment.VerifyRule;
import org.approxgp.inference.Posterior;
import org.approxgp.inference.Problem;
import org.approxgp.model.FittedGp;
import org.approxgp.model.GpModel;
import org.approxgp.model.Registry;
import org.approxgp.reference.AnnealedImportanceSampling;
import org.approxgp.reference.Comparison;
import org.approxgp.reference.GaussianReference;
import org.approxgp.reference.Ranking;
import org.approxgp.reference.SampledPosterior;

/**
 * The QP paper's thesis against a sampled truth: on Table 1 data sets, at the hyperparameters EP finds, are QP's
 * marginal posterior variances closer to the true posterior's than EP's, and where do Laplace and VB stand
 * (Kuss &amp; Rasmussen, JMLR 6, 2005, found EP closest)? One trial = one data set and seed: fold 0 of the seeded
 * 10-fold split ({@link QpTable1#foldProblem}, features standardised on the training part), the training part cut
 * to its first {@link Config#maxRows} rows, SE-iso hyperparameters learned by EP's evidence (L-BFGS from
 * length-scale 1, signal variance 1), then the truth by {@link SampledPosterior} (ellipses from EP's Gaussian) and
 * {@link AnnealedImportanceSampling}, and every method scored by {@link Comparison} at those hyperparameters.
 * Measured: the marginals p(fᵢ | y) at the training inputs, and the log evidence. Not measured: predictive
 * distributions at test inputs (which inherit the training marginals through the GP prior) and hyperparameters
 * learned by each method's own evidence.
 */
public final class QpTruth {
  private QpTruth() {}

  /**
   * @param datasets Table 1 data set names ({@link QpTable1#dataset(String)})
   * @param seeds seeds 0 … seeds − 1 per data set
   * @param maxRows most training rows used
   * @param maxTransitions the sampler's cap per chain
   * @param aisTemperatures temperatures per AIS run (16 runs)
   * @param methods the methods scored
   */
  public record Config(
      List<String> datasets,
      int seeds,
      int maxRows,
      long maxTransitions,
      int aisTemperatures,
      List<String> methods) {
    public Config {
      datasets = List.copyOf(datasets);
      methods = List.copyOf(methods);
    }
  }

  /**
   * Smoke: 40 crabs rows, one seed, a 4,000-transition budget; quick: crabs and sonar, the first 120 training rows,
   * 2 seeds, a budget of 16,000 transitions per chain, AIS with 500 temperatures; full: every training row, 5
   * seeds, 64,000 transitions, 2,000 temperatures. Within its budget the sampler runs until the R̂/ESS targets
   * hold and the truth's noise is small beside every difference it ranks ({@link Ranking#decision}).
   */
  public static Config config(ProjectPaths.Mode mode) {
    return new Config(
        mode.pick(List.of("crabs"), List.of("crabs", "sonar"), List.of("crabs", "sonar")),
        mode.pick(1, 2, 5),
        mode.pick(40, 120, 1000),
        mode.pick(4000L, 16_000L, 64_000L),
        mode.pick(100, 500, 2000),
        List.of("ep", "qp", "laplace", "vb", "power-ep"));
  }

  /**
   * How a recomputed trial is held to its row. The problem — the data rows and EP's learned hyperparameters, with the
   * bounds they ended at — is deterministic up to rounding and must reproduce ({@link VerifyRule#ROUNDING}). The
   * truth is a Markov chain: a change of rounding anywhere (another BLAS kernel, a one-ulp perturbation) sends it
   * along another path, so its estimates, whether it hit its budget ({@code capped}) and the "closest …" decisions
   * made on them within their Monte Carlo noise can all move; a trial whose truth moves is held to its problem
   * columns only when a perturbation of rounding size moves it too (the verifier's probes: "sensitive"), and
   * otherwise "differs". A decision on the knife edge of its significance test is one such move (seen: a crabs
   * trial's "closest mean" vb under one OpenBLAS kernel, "undecided: vb qp" under another).
   */
  static final VerifyRule VERIFY =
      VerifyRule.DEFAULT.stable("n", "log_lengthscale", "log_signal_variance", "active_bounds");

  /** The experiment "compare": one trial per data set and seed (the key's method column holds the data set). */
  public static Experiment<Config, TrialKey> experiment(Config c) {
    return Experiment.of("compare", c, Experiment.grid(c.datasets(), c.seeds(), 1), QpTruth::trial)
        .withVerifyRule(VERIFY);
  }

  /** Mean and sd over seeds, per data set, of every method's marginal-variance RMSE against the truth. */
  public static tech.tablesaw.api.Table summary(
      tech.tablesaw.api.Table results, List<String> methods) {
    return org.approxgp.experiment.Summaries.meanSd(
        results,
        List.of("method"),
        methods.stream().map(m -> "variance_rmse " + m).toList());
  }

  /**
   * A trial's problem: fold 0 of {@code dataset}'s seeded split cut to {@code maxRows} rows, at the SE-iso
   * hyperparameters EP's evidence learns, with EP's fit there.
   *
   * @param problem the problem at EP's hyperparameters
   * @param ep EP's fit
   */
  public record Setup(Problem problem, FittedGp ep) {}

  /** The {@link Setup} of data set {@code dataset}, seed {@code seed}, at most {@code maxRows} training rows. */
  public static Setup setup(String dataset, long seed, int maxRows) {
    QpTable1.FoldProblem fp = QpTable1.foldProblem(dataset, "se-iso", seed, 0);
    Problem p0 = fp.problem();
    int n = Math.min(maxRows, p0.size());
    Problem p = new Problem(
        p0.kernel(),
        Arrays.copyOf(p0.x(), n),
        Arrays.copyOf(p0.y(), n),
        p0.likelihood(),
        p0.priorMean());
    FittedGp ep = GpModel.fit(p, Registry.inference("ep"), GpModel.FitOptions.optimize(p.kernel()));
    return new Setup(p.withKernel(ep.kernel()), ep);
  }

  static ResultRow trial(Config c, TrialKey k) {
    Setup setup = setup(k.method(), k.seed(), c.maxRows());
    Problem at = setup.problem();
    FittedGp ep = setup.ep();
    int n = at.size();
    // every method first: the sampler runs until it can rank them (or its budget)
    List<Posterior> posts = new ArrayList<>();
    List<Ranking.Marginals> marginals = new ArrayList<>();
    double[] seconds = new double[c.methods().size()];
    for (int j = 0; j < c.methods().size(); j++) {
      String m = c.methods().get(j);
      long t0 = System.nanoTime();
      Posterior post = Registry.inference(m).infer(at, null);
      seconds[j] = (System.nanoTime() - t0) * 1e-9;
      posts.add(post);
      marginals.add(new Ranking.Marginals(m, post.mean(), post.variance()));
    }
    GaussianReference q = GaussianReference.fromSites(at, ep.posterior().sites(), "EP's Gaussian");
    SampledPosterior truth = SampledPosterior.sample(
        at,
        q,
        SampledPosterior.Options.defaults()
            .withSeed(k.seed())
            .withThreads(1)
            .withMaxTransitions(c.maxTransitions()),
        Ranking.decision(marginals),
        line -> {});
    AnnealedImportanceSampling ais =
        AnnealedImportanceSampling.estimate(at, q, 16, c.aisTemperatures(), k.seed(), 1);
    Ranking ranking = new Ranking(truth, marginals);
    ResultRow.Builder row = ResultRow.builder()
        .put("n", (long) n)
        .put("log_lengthscale", ep.kernel().logHyperparameters()[0])
        .put("log_signal_variance", ep.kernel().logHyperparameters()[1])
        .put("active_bounds", String.join(" ", ep.activeBounds()))
        .put("rhat_max", truth.rhatMax())
        .put("ess_min", truth.essMin())
        .put("capped", truth.capped())
        .put("transitions", truth.transitionsPerChain())
        .put("sampler_seconds", truth.seconds())
        .put("ais_log_z", ais.logEvidence())
        .put("ais_se", ais.standardError())
        .put("mc_noise", Comparison.meanNoiseFloor(truth));
    for (int j = 0; j < c.methods().size(); j++) {
      String m = c.methods().get(j);
      Posterior post = posts.get(j);
      Comparison s = Comparison.of(
          m,
          post.mean(),
          post.variance(),
          post.logEvidence(),
          truth,
          ais,
          Double.NaN,
          Double.NaN,
          seconds[j]);
      if (j == 0) {
        row.put("mean_rmse_floor", s.meanRmseFloor())
            .put("variance_rmse_floor", s.varianceRmseFloor());
      }
      row.put("variance_rmse " + m, s.varianceRmse())
          .put("mean_rmse " + m, s.meanRmse())
          .put("kl " + m, s.klMean())
          .put("w2 " + m, s.w2Mean())
          .put("log_evidence_error " + m, s.logEvidenceError());
    }
    for (Ranking.Score score : Ranking.Score.values()) {
      Ranking.Verdict v = ranking.verdict(score);
      row.put(
          "closest " + score.name().toLowerCase(java.util.Locale.ROOT),
          v.decided() ? v.closest().get(0) : "undecided: " + String.join(" ", v.closest()));
    }
    return row.build();
  }
}
