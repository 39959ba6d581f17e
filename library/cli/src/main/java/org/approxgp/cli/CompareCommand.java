package org.approxgp.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.approxgp.data.DataException;
import org.approxgp.data.Dataset;
import org.approxgp.data.Datasets;
import org.approxgp.data.Standardizer;
import org.approxgp.data.TargetKind;
import org.approxgp.experiment.ProgressListener;
import org.approxgp.inference.InferenceException;
import org.approxgp.inference.Posterior;
import org.approxgp.inference.Prediction;
import org.approxgp.inference.Problem;
import org.approxgp.kernel.Kernel;
import org.approxgp.likelihood.Likelihood;
import org.approxgp.metrics.Metrics;
import org.approxgp.model.FittedGp;
import org.approxgp.model.GpModel;
import org.approxgp.model.InferenceMethod;
import org.approxgp.model.Registry;
import org.approxgp.model.Settings;
import org.approxgp.reference.AnnealedImportanceSampling;
import org.approxgp.reference.Comparison;
import org.approxgp.reference.GaussianReference;
import org.approxgp.reference.Ranking;
import org.approxgp.reference.SampledPosterior;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code approxgp compare}: every approximate method against a sampled ground truth on TRAIN. */
@Command(
    name = "compare",
    mixinStandardHelpOptions = true,
    description =
        "Compare approximate inference methods with the true posterior on TRAIN. The truth: >= 4 chains of"
            + " elliptical slice steps (ellipses from EP's Gaussian) each followed by a sweep of exact single-site"
            + " updates, run until split-R-hat <= 1.01 and bulk ESS >= 1000 on every latent and the truth's"
            + " Monte-Carlo error is at most 1/4 of every difference between methods it ranks, or until"
            + " --max-transitions; log evidence by annealed importance sampling. Scores are reported with the truth's"
            + " noise removed and its floor beside them; a method is called closest only where a paired comparison"
            + " over the latents is significant (3 standard errors), otherwise the report says undecided. Every"
            + " column except --label is a feature.")
final class CompareCommand implements Callable<Integer> {
  @picocli.CommandLine.Spec
  picocli.CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--train",
      required = true,
      paramLabel = "TRAIN.csv",
      description = "training CSV (header row)")
  String train;

  @Option(
      names = "--test",
      paramLabel = "TEST.csv",
      description = "optional test CSV with the --label column")
  String test;

  @Option(names = "--label", required = true, paramLabel = "COLUMN", description = "target column")
  String label;

  @Option(
      names = "--likelihood",
      defaultValue = "probit",
      description =
          "probit (default), noisy-step (needs --epsilon), poisson-square, gaussian (needs --noise-variance)")
  String likelihood;

  @Option(
      names = "--epsilon",
      paramLabel = "E",
      description = "noisy-step: label-flip probability in (0, 0.5)")
  Double epsilon;

  @Option(
      names = "--noise-variance",
      paramLabel = "S2",
      description = "gaussian: the noise variance")
  Double noiseVariance;

  @Option(
      names = "--methods",
      split = ",",
      defaultValue = "ep,qp,vb,laplace,power-ep,rep",
      paramLabel = "M1,M2,...",
      description = "methods to compare (default ${DEFAULT-VALUE})")
  List<String> methods;

  @picocli.CommandLine.Mixin
  MethodOptions methodOptions = new MethodOptions();

  @picocli.CommandLine.Mixin
  KernelOptions kernelOptions = new KernelOptions();

  @Option(
      names = "--prior-mean",
      defaultValue = "0",
      paramLabel = "M",
      description = "constant prior mean of f")
  double priorMean;

  @Option(
      names = "--optimize",
      paramLabel = "METHOD",
      description =
          "learn the hyperparameters on METHOD's evidence first (default: keep the given ones); hyperparameters"
              + " that end at a bound are named in the report")
  String optimize;

  @Option(
      names = "--standardize",
      description = "standardise features with TRAIN's mean and sd (default off)")
  boolean standardize;

  @Option(
      names = "--positive",
      paramLabel = "VALUE",
      description = "label mapped to +1 (default: 1/+1 or the larger)")
  String positive;

  @Option(
      names = "--chains",
      defaultValue = "4",
      description = "sampler chains (>= 4, default ${DEFAULT-VALUE})")
  int chains;

  @Option(
      names = "--max-transitions",
      defaultValue = "64000",
      paramLabel = "T",
      description =
          "the sampler's budget: transitions per chain (default ${DEFAULT-VALUE}); the report says when it stopped the"
              + " run, and which rankings it left undecided")
  long maxTransitions;

  @Option(
      names = "--ais-runs",
      defaultValue = "16",
      description = "independent AIS runs (default ${DEFAULT-VALUE})")
  int aisRuns;

  @Option(
      names = "--ais-temperatures",
      defaultValue = "1000",
      description = "temperatures per AIS run (default ${DEFAULT-VALUE})")
  int aisTemperatures;

  @Option(
      names = "--ellipses",
      defaultValue = "ep",
      paramLabel = "ep|prior",
      description =
          "where the sampler's ellipses come from: ep (default; EP's Gaussian, fast mixing) or prior (plain"
              + " elliptical slice sampling); the target is the exact posterior either way")
  String ellipses;

  @Option(
      names = "--threads",
      paramLabel = "N",
      description = "worker threads (default: cores; the result does not" + " depend on it)")
  Integer threads;

  @Option(names = "--seed", defaultValue = "0", description = "random seed of the sampler and AIS")
  long seed;

  @Option(
      names = "--out",
      required = true,
      paramLabel = "REPORT.html",
      description = "the HTML report")
  Path out;

  @Option(names = "--summary", paramLabel = "SUMMARY.csv", description = "one row per method")
  Path summary;

  @Option(
      names = "--marginals",
      paramLabel = "MARGINALS.csv",
      description =
          "one row per training point: the truth's mean and variance with their Monte-Carlo standard errors,"
              + " then each method's mean and variance (for checking the scores independently)")
  Path marginalsOut;

  @Override
  public Integer call() {
    java.io.PrintWriter err = spec.commandLine().getErr();
    checkOutputs();
    Likelihood lik = Flags.likelihood(
        likelihood,
        Settings.of("epsilon", epsilon, "noise-variance", noiseVariance),
        Registry.likelihoodNames(),
        "");
    Map<String, InferenceMethod> byName = configuredMethods();
    InferenceMethod learner = optimize == null ? null : configure(optimize, "--optimize");
    methodOptions.checkGradientFor(
        learner != null && Registry.settingsOf(optimize.strip()).contains("gradient"),
        "--optimize");
    if (!ellipses.equals("ep") && !ellipses.equals("prior")) {
      throw CliException.badInput("--ellipses must be ep or prior, got '" + ellipses + "'");
    }
    if (chains < 4) {
      throw CliException.badInput(
          "--chains must be >= 4 (split-R-hat needs several chains), got " + chains);
    }
    if (maxTransitions < 2000 || aisRuns < 2 || aisTemperatures < 2) {
      throw CliException.badInput(
          "need --max-transitions >= 2000, --ais-runs >= 2 and --ais-temperatures >= 2");
    }
    int nThreads = threads == null ? Runtime.getRuntime().availableProcessors() : threads;
    if (nThreads < 1) {
      throw CliException.badInput("--threads must be >= 1, got " + nThreads);
    }
    TargetKind kind = lik.name().equals("gaussian")
        ? TargetKind.REAL
        : FitCommand.countTargets(lik) ? TargetKind.COUNT : TargetKind.BINARY;
    if (kind != TargetKind.BINARY && positive != null) {
      throw CliException.badInput(
          "--positive applies to binary labels, not to " + lik.name() + " targets");
    }
    Dataset tr;
    Dataset te = null;
    try {
      if (test == null) {
        tr = kind == TargetKind.BINARY
            ? Datasets.loadBinary(train, label, positive)
            : Datasets.load(train, label, kind);
      } else {
        Datasets.TrainTest data = Datasets.loadTrainTest(train, test, label, kind, positive);
        if (!data.testHasTarget()) {
          throw CliException.badInput(test + ": no column '" + label
              + "' (compare scores the test set, so it needs" + " the labels)");
        }
        tr = data.train();
        te = data.test();
      }
    } catch (DataException e) {
      throw CliException.badInput(e.getMessage());
    }
    if (tr.dimension() == 0) {
      throw CliException.badInput(
          train + ": row 1: no feature columns (every column except --label '" + label
              + "' is a feature, and there is none)");
    }
    double n = tr.size();
    // K, its factor, its inverse (site sweeps), q's root, the method's n-by-n work, and the kept
    // draws (2,500 per chain)
    Memory.require(
        String.format(Locale.ROOT, "a GP on %,d training rows", tr.size()),
        8 * (9 * n * n + 2500.0 * chains * n),
        n * n);
    FitCommand.checkTargets(lik, train, label, tr.target());
    if (te != null) {
      FitCommand.checkTargets(lik, test, label, te.target());
    }
    checkMagnitudes(train, tr);
    if (te != null) {
      checkMagnitudes(test, te);
    }
    double[][] xTrain = tr.features();
    double[][] xTest = te == null ? null : te.features();
    if (standardize) {
      Standardizer s = Standardizer.fit(xTrain);
      xTrain = s.apply(xTrain);
      xTest = xTest == null ? null : s.apply(xTest);
    }
    if (!Double.isFinite(priorMean)) {
      throw CliException.badInput("--prior-mean must be finite, got " + priorMean);
    }
    Kernel k0 = kernelOptions.kernel(tr.dimension());
    Problem problem = new Problem(k0, xTrain, tr.target(), lik, priorMean);
    ProgressListener progress = ProgressListener.automatic();
    int steps = byName.size() + 2 + (learner == null ? 0 : 1);
    progress.started("compare", steps, 0);
    int done = 0;
    List<String> activeBounds = List.of();
    if (learner != null) {
      try {
        FittedGp fit = GpModel.fit(problem, learner, GpModel.FitOptions.optimize(k0));
        problem = problem.withKernel(fit.kernel()).withLikelihood(fit.likelihood());
        activeBounds = fit.activeBounds();
      } catch (InferenceException e) {
        throw new CliException(
            "learning the hyperparameters with " + optimize + " on " + train + " failed: "
                + e.getMessage(),
            1);
      }
      progress.advanced(++done, 0, steps);
    }
    // every method first: the sampler runs until it can rank them
    Map<String, Posterior> posts = new LinkedHashMap<>();
    Map<String, double[]> testScores = new LinkedHashMap<>();
    List<Ranking.Marginals> marginals = new ArrayList<>();
    for (Map.Entry<String, InferenceMethod> e : byName.entrySet()) {
      long t0 = System.nanoTime();
      Posterior post;
      try {
        post = e.getValue().infer(problem, null);
      } catch (InferenceException ex) {
        throw new CliException(e.getKey() + " failed on " + train + ": " + ex.getMessage(), 1);
      }
      double seconds = (System.nanoTime() - t0) * 1e-9;
      double nll = Double.NaN;
      double error = Double.NaN;
      if (te != null) {
        double[] lp = post.logPredictive(xTest, te.target());
        Finite.requireRows(
            e.getKey() + "'s log predictive density", lp, test, "the method's predictive failed");
        nll = Metrics.negativeLogLikelihood(lp);
        if (kind == TargetKind.BINARY) {
          error = testError(post.predict(xTest), problem.likelihood(), te.target());
        }
      }
      String why = e.getKey() + " returned a non-finite marginal or evidence";
      Finite.requireRows(e.getKey() + "'s posterior mean", post.mean(), null, why);
      Finite.requireRows(e.getKey() + "'s posterior variance", post.variance(), null, why);
      Finite.require(e.getKey() + "'s log evidence", post.logEvidence(), why);
      posts.put(e.getKey(), post);
      testScores.put(e.getKey(), new double[] {nll, error, seconds});
      marginals.add(new Ranking.Marginals(e.getKey(), post.mean(), post.variance()));
      progress.advanced(++done, 0, steps);
    }
    // the sampler's ellipses come from EP's Gaussian when EP converges (faster mixing; the target
    // is unchanged)
    GaussianReference q = GaussianReference.prior(problem);
    if (ellipses.equals("ep")) {
      try {
        Posterior ep = Registry.inference("ep").infer(problem, null);
        if (ep.diagnostics().converged()) {
          q = GaussianReference.fromSites(problem, ep.sites(), "EP's Gaussian");
        }
      } catch (InferenceException e) {
        err.println("compare: EP failed (" + e.getMessage()
            + "); the sampler's ellipses come from the prior");
      }
    }
    SampledPosterior truth = SampledPosterior.sample(
        problem,
        q,
        SampledPosterior.Options.defaults()
            .withSeed(seed)
            .withThreads(nThreads)
            .withMaxTransitions(maxTransitions)
            .withChains(chains),
        Ranking.decision(marginals),
        err::println);
    progress.advanced(++done, 0, steps);
    AnnealedImportanceSampling ais =
        AnnealedImportanceSampling.estimate(problem, q, aisRuns, aisTemperatures, seed, nThreads);
    err.println(ais);
    progress.advanced(++done, 0, steps);
    progress.finished(done, 0, steps);
    Finite.require(
        "the AIS log evidence", ais.logEvidence(), "annealing failed; try more --ais-temperatures");
    List<Comparison> rows = new ArrayList<>();
    Map<String, double[]> variances = new LinkedHashMap<>();
    for (Map.Entry<String, Posterior> e : posts.entrySet()) {
      Posterior post = e.getValue();
      double[] t = testScores.get(e.getKey());
      Comparison c = Comparison.of(
          e.getKey(),
          post.mean(),
          post.variance(),
          post.logEvidence(),
          truth,
          ais,
          t[0],
          t[1],
          t[2]);
      for (double v :
          new double[] {c.meanRmse(), c.varianceRmse(), c.klMean(), c.w2Mean(), c.logEvidenceError()
          }) {
        Finite.require(
            e.getKey() + "'s score", v, e.getKey() + " returned a non-finite marginal or evidence");
      }
      rows.add(c);
      variances.put(e.getKey(), post.variance());
    }
    Ranking ranking = new Ranking(truth, marginals);
    String html = CompareReport.html(new CompareReport.Inputs(
        problem, q, truth, ais, rows, ranking, variances, train, activeBounds, posts));
    Map<Path, String> files = new LinkedHashMap<>();
    files.put(out, html);
    if (summary != null) {
      files.put(summary, Comparison.csv(rows, truth));
    }
    if (marginalsOut != null) {
      files.put(marginalsOut, marginalsCsv(truth, marginals));
    }
    AtomicFiles.writeAll(files);
    for (Ranking.Score score : Ranking.Score.values()) {
      err.println("compare: " + ranking.verdict(score).text());
    }
    if (!activeBounds.isEmpty()) {
      err.println("compare: hyperparameters at a bound after --optimize: "
          + String.join(", ", activeBounds));
    }
    err.println(
        truth.capped()
            ? "compare: the sampler stopped at --max-transitions ("
                + (truth.pending() == null
                    ? String.format(
                        Locale.ROOT,
                        "R-hat max %.4f, ESS min %.0f: the targets were not met",
                        truth.rhatMax(),
                        truth.essMin())
                    : "undecided: " + truth.pending())
                + "); the report says what it could not separate"
            : "compare: " + truth);
    return 0;
  }

  /**
   * Refuses a feature whose magnitude would overflow the kernel's squared distances (|x| &gt; 1e150), naming the
   * file, row and column; such a value otherwise surfaces far from its cause, as an infinite distance and a
   * non-finite evidence gradient.
   */
  static void checkMagnitudes(String file, Dataset d) {
    double[][] x = d.features();
    List<String> names = d.featureNames();
    for (int i = 0; i < x.length; i++) {
      for (int j = 0; j < x[i].length; j++) {
        if (Math.abs(x[i][j]) > 1e150) {
          throw CliException.badInput(String.format(
              Locale.ROOT,
              "%s: data row %d, column '%s': %s is too large for the kernel (squared distances overflow"
                  + " above 1e150); rescale the column",
              file,
              i + 1,
              names.get(j),
              x[i][j]));
        }
      }
    }
  }

  /** The --marginals CSV (full precision). */
  static String marginalsCsv(SampledPosterior truth, List<Ranking.Marginals> methods) {
    StringBuilder sb =
        new StringBuilder("i,truth_mean,truth_mean_se,truth_variance,truth_variance_se");
    for (Ranking.Marginals q : methods) {
      sb.append(',').append(q.method()).append("_mean,").append(q.method()).append("_variance");
    }
    sb.append('\n');
    double[] m = truth.mean();
    double[] em = truth.meanStdError();
    double[] v = truth.variance();
    double[] ev = truth.varianceStdError();
    for (int i = 0; i < m.length; i++) {
      sb.append(i)
          .append(',')
          .append(m[i])
          .append(',')
          .append(em[i])
          .append(',')
          .append(v[i])
          .append(',')
          .append(ev[i]);
      for (Ranking.Marginals q : methods) {
        sb.append(',').append(q.mean()[i]).append(',').append(q.variance()[i]);
      }
      sb.append('\n');
    }
    return sb.toString();
  }

  private void checkOutputs() {
    AtomicFiles.checkWritable(out, "--out");
    Map<String, String> inputs = new LinkedHashMap<>();
    inputs.put("--train", train);
    if (test != null) {
      inputs.put("--test", test);
    }
    AtomicFiles.checkDistinct(out, "--out", inputs);
    inputs.put("--out", out.toString());
    if (summary != null) {
      AtomicFiles.checkWritable(summary, "--summary");
      AtomicFiles.checkDistinct(summary, "--summary", inputs);
      inputs.put("--summary", summary.toString());
    }
    if (marginalsOut != null) {
      AtomicFiles.checkWritable(marginalsOut, "--marginals");
      AtomicFiles.checkDistinct(marginalsOut, "--marginals", inputs);
    }
  }

  /**
   * The methods of {@code --methods}, each configured once with the settings it takes; a setting none of them takes
   * is refused.
   */
  private Map<String, InferenceMethod> configuredMethods() {
    Settings all = methodOptions.settings();
    Map<String, InferenceMethod> m = new LinkedHashMap<>();
    for (String name : methods) {
      String s = name.strip();
      if (m.containsKey(s)) {
        throw CliException.badInput("--methods names " + s + " twice");
      }
      m.put(s, configure(s, "--methods"));
    }
    for (String setting : all.names()) {
      if (m.keySet().stream().noneMatch(n -> Registry.settingsOf(n).contains(setting))) {
        List<String> owners = Registry.inferenceNames().stream()
            .filter(n -> Registry.settingsOf(n).contains(setting))
            .toList();
        throw CliException.badInput("--" + setting + " applies to " + String.join(", ", owners)
            + ", which --methods does not list (" + String.join(", ", m.keySet()) + ")");
      }
    }
    return m;
  }

  /** Method {@code name} with the method flags it takes (a flag for another listed method is not an error). */
  private InferenceMethod configure(String name, String option) {
    Settings own = Registry.inferenceNames().contains(name)
        ? methodOptions.settings().restrictedTo(Registry.settingsOf(name))
        : Settings.none();
    return Flags.inference(name, own, option);
  }

  /** Misclassification rate with p(y* = +1) from the method's predictive; p = ½ counts half. */
  private static double testError(Prediction pred, Likelihood lik, double[] y) {
    double[] p = new double[y.length];
    for (int j = 0; j < y.length; j++) {
      p[j] = lik.predictive(pred.latentMean()[j], pred.latentVariance()[j]).density(1);
    }
    return Metrics.testError(p, y);
  }
}
