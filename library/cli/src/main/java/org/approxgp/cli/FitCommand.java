package org.approxgp.cli;

import java.nio.file.Path;
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
import org.approxgp.inference.Diagnostics;
import org.approxgp.inference.InferenceException;
import org.approxgp.inference.Prediction;
import org.approxgp.inference.Problem;
import org.approxgp.inference.SiteBlock;
import org.approxgp.inference.SiteBlocks;
import org.approxgp.inference.SiteBlocksProvider;
import org.approxgp.inference.SiteLoop;
import org.approxgp.inference.SiteLoopOptions;
import org.approxgp.inference.SparsePosterior;
import org.approxgp.inference.SparseProblem;
import org.approxgp.inference.SparseSiteLoop;
import org.approxgp.inference.SvgpPosterior;
import org.approxgp.kernel.Kernel;
import org.approxgp.kernel.Linear;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.likelihood.Likelihood;
import org.approxgp.likelihood.Predictive;
import org.approxgp.metrics.Metrics;
import org.approxgp.model.FittedGp;
import org.approxgp.model.GpModel;
import org.approxgp.model.InferenceMethod;
import org.approxgp.model.Registry;
import org.approxgp.model.SettingException;
import org.approxgp.model.Settings;
import org.approxgp.model.SparseGpModel;
import org.approxgp.model.SvgpModel;
import org.approxgp.optimize.Lbfgs;
import org.approxgp.sparse.BoundMonitor;
import org.approxgp.sparse.KMeans;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code approxgp fit}: learn a GP on TRAIN, predict TEST, write PRED.csv (+ SUMMARY.json). */
@Command(
    name = "fit",
    mixinStandardHelpOptions = true,
    description =
        "Fit a latent GP on TRAIN and predict TEST. Every column except --label is a feature.")
final class FitCommand implements Callable<Integer> {
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
      required = true,
      paramLabel = "TEST.csv",
      description = "test CSV; its --label column may be absent")
  String test;

  @Option(names = "--label", required = true, paramLabel = "COLUMN", description = "target column")
  String label;

  @Option(
      names = "--likelihood",
      defaultValue = "probit",
      description =
          "probit (default), poisson-square (counts, rate f²) or noisy-step (labels; needs --epsilon)")
  String likelihood;

  @Option(
      names = "--epsilon",
      paramLabel = "E",
      description = "noisy-step: label-flip probability in (0, 0.5), fixed (not learned)")
  Double epsilon;

  @Option(
      names = "--inference",
      defaultValue = "ep",
      description = "ep (default), laplace, vb, qp, power-ep, rep")
  String inference;

  @picocli.CommandLine.Mixin
  MethodOptions methodOptions = new MethodOptions();

  @picocli.CommandLine.Mixin
  KernelOptions kernelOptions = new KernelOptions();

  @Option(
      names = "--prior-mean",
      defaultValue = "0",
      paramLabel = "M",
      description =
          "constant prior mean of the latent f (default ${DEFAULT-VALUE}; the QP paper's coal runs use 1)")
  double priorMean;

  @Option(
      names = "--optimize",
      negatable = true,
      defaultValue = "true",
      fallbackValue = "true",
      description = "learn hyperparameters by L-BFGS from the given values (default on)")
  boolean optimize;

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
      names = "--out",
      required = true,
      paramLabel = "PRED.csv",
      description = "predictions, one row per TEST row")
  Path out;

  @Option(names = "--summary", paramLabel = "SUMMARY.json", description = "fit summary")
  Path summary;

  @Option(
      names = "--seed",
      defaultValue = "0",
      description =
          "random seed: of the k-means++ draws with --inducing M (the exact methods are deterministic; recorded)")
  long seed;

  @Option(
      names = "--inducing",
      paramLabel = "M|all",
      description =
          "sparse GP on M inducing inputs (ep: FITC-EP, qp, power-ep; Bui, Yan & Turner 2017; vb: SVGP, Hensman,"
              + " Matthews & Ghahramani 2015), initialised at the"
              + " k-means centroids of the (standardised) training inputs, 1 <= M <= n; all: the training inputs"
              + " themselves (M = n, the exact method's limit). Default: the exact GP")
  String inducing;

  @Option(
      names = "--learn-inducing",
      negatable = true,
      description =
          "with --inducing and --optimize: learn the inducing inputs with the hyperparameters (default off: they"
              + " stay at the k-means centroids; GPflow's SVGP learns them by default, but for alpha > 0 the energy is"
              + " not a bound, and learning them can overfit and is slow)")
  Boolean learnInducing;

  @Option(
      names = "--minibatch",
      paramLabel = "B|all",
      description = "--inducing with --inference vb (SVGP): rows per Adam step (default "
          + SvgpModel.DEFAULT_MINIBATCH
          + "; B >= n: every row each step), or all: the full batch by L-BFGS (deterministic)")
  String minibatch;

  @Option(
      names = "--learning-rate",
      paramLabel = "A",
      description = "SVGP: Adam's learning rate (default " + SvgpModel.DEFAULT_LEARNING_RATE + ")")
  Double learningRate;

  @Option(
      names = "--natural-step",
      paramLabel = "G",
      description =
          "SVGP with minibatches: natural-gradient steps of size G in (0, 1] for q(u), Adam for the"
              + " hyperparameters (Salimbeni et al. 2018; default 0: Adam for q(u) too)")
  Double naturalStep;

  @Option(
      names = "--iterations",
      paramLabel = "T",
      description = "SVGP: the cap on Adam steps or L-BFGS iterations (default "
          + SvgpModel.DEFAULT_ITERATIONS
          + ")")
  Integer iterations;

  @Option(
      names = "--stopping",
      paramLabel = "slope|means|none",
      description =
          "SVGP with minibatches: stop when the bound estimates have stopped rising by more than their noise"
              + " (slope, default; sparse.BoundMonitor as approxgp regress), by Stan ADVI's windowed means (means),"
              + " or at --iterations (none)")
  String stopping;

  @Option(
      names = "--stop-window",
      paramLabel = "W",
      description = "SVGP, --stopping: iterations between tests (default "
          + BoundMonitor.DEFAULT_WINDOW
          + " for slope)")
  Integer stopWindow;

  @Option(
      names = "--stop-tolerance",
      paramLabel = "T",
      description =
          "SVGP, --stopping slope: rise in nats per training row below which the bound has"
              + " converged (default "
              + SvgpModel.DEFAULT_STOP_TOLERANCE
              + ")")
  Double stopTolerance;

  @Option(
      names = "--schedule",
      paramLabel = "sequential|parallel",
      description =
          "--inducing with ep, qp or power-ep: the site loop's schedule: sequential (default; one site after the"
              + " other) or parallel (every site from the marginals at the start of the sweep, by blocks of "
              + SiteBlock.ROWS + " rows; damped, see --damping)")
  String schedule;

  @Option(
      names = "--damping",
      paramLabel = "D",
      description =
          "--inducing with ep, qp or power-ep: site damping in (0, 1] (natural parameters, (1 - D) old + D new);"
              + " default 1 (none) for the sequential schedule, " + PARALLEL_DAMPING
              + " for the parallel one")
  Double damping;

  @Option(
      names = "--engine",
      defaultValue = "local",
      paramLabel = "local|spark",
      description =
          "--inducing with ep, qp or power-ep: where the parallel schedule's blocks of rows (and the evidence"
              + " gradient's terms, with --optimize) run:"
              + " this JVM (default) or Spark (bin/approxgp adds the spark module; implies --schedule parallel;"
              + " same predictions, bit for bit, as --schedule parallel here, on one JDK)")
  String engine;

  @Option(
      names = "--master",
      paramLabel = "URL",
      description =
          "Spark master URL (default: spark-submit's, else embedded local[*]); --engine spark only")
  String master;

  @picocli.CommandLine.Mixin
  SparkAuth sparkAuth = new SparkAuth();

  /** The parallel schedule's default damping (the exact loop's tests damp it by 0.5 too). */
  static final double PARALLEL_DAMPING = 0.5;

  /** Lloyd iterations of the k-means that places the inducing inputs. */
  static final int KMEANS_ITERATIONS = 100;

  /** The likelihoods of a latent GP fit by the classification methods. */
  static final java.util.List<String> FIT_LIKELIHOODS =
      java.util.List.of("probit", "poisson-square", "noisy-step");

  @Override
  public Integer call() {
    java.io.PrintWriter err = spec.commandLine().getErr();
    AtomicFiles.checkTrainTestOutputs(train, test, out, summary);
    Likelihood lik = Flags.likelihood(
        likelihood,
        Settings.of("epsilon", epsilon),
        FIT_LIKELIHOODS,
        "gaussian is for approxgp compare, regression is approxgp regress");
    boolean sparse = inducing != null;
    boolean svgp = sparse && inference.strip().equals("vb");
    boolean spark = checkEngine(sparse, svgp);
    InferenceMethod method = null;
    Registry.SparseMethod sparseMethod = null;
    SvgpModel.Options svgpOptions = null;
    if (!svgp && !svgpSettings().isEmpty()) {
      throw CliException.badInput("--" + svgpSettings().names().iterator().next()
          + " applies to SVGP only (--inducing M with --inference vb)");
    }
    if (svgp) {
      svgpOptions = svgpOptions(methodOptions.settings(), svgpSettings());
      if (Boolean.TRUE.equals(learnInducing) && !optimize) {
        throw CliException.badInput(
            "--learn-inducing needs --optimize (the inducing inputs are learned with the hyperparameters)");
      }
    } else if (sparse) {
      sparseMethod = sparseMethod(inference, methodOptions.settings());
      if (optimize && !sparseMethod.energyGradient()) {
        throw CliException.badInput(
            "--inducing with --inference " + inference
                + ": the sparse energy's gradient does not hold at QP's fixed point, so hyperparameters cannot be"
                + " learned; give --no-optimize (fixed hyperparameters) or use --inference ep or power-ep");
      }
      if (Boolean.TRUE.equals(learnInducing) && !optimize) {
        throw CliException.badInput(
            "--learn-inducing needs --optimize (the inducing inputs are learned with the hyperparameters)");
      }
    } else {
      if (learnInducing != null) {
        throw CliException.badInput(
            "--learn-inducing applies to a sparse fit: give --inducing M too");
      }
      method = Flags.inference(inference, methodOptions.settings(), "--inference");
    }
    methodOptions.checkGradientFor(
        optimize, "--optimize (on by default; --no-optimize fits at the given ones)");
    SiteBlocksProvider engineProvider = null;
    if (spark) {
      sparkAuth.apply(true);
      try {
        engineProvider = SiteBlocksProvider.forEngine(engine);
      } catch (IllegalArgumentException e) {
        throw CliException.badInput("--engine " + engine + ": " + e.getMessage());
      }
      // an engine that cannot start (an unreachable or malformed master) is one line, before the
      // data is read
      engineProvider.start(master);
    } else {
      sparkAuth.apply(false);
    }
    Integer mWanted = sparse ? inducingCount(inducing) : null;
    Datasets.TrainTest data;
    try {
      boolean counts = countTargets(lik);
      if (counts && positive != null) {
        throw CliException.badInput("--positive applies to binary labels, not to counts");
      }
      data = Datasets.loadTrainTest(
          train, test, label, counts ? TargetKind.COUNT : TargetKind.BINARY, positive);
    } catch (DataException e) {
      throw CliException.badInput(e.getMessage());
    }
    Dataset tr = data.train();
    Dataset te = data.test();
    if (tr.dimension() == 0) {
      throw CliException.badInput(
          train + ": row 1: no feature columns (every column except --label '" + label
              + "' is a feature, and there is none)");
    }
    // a full GP: the kernel matrix, the posterior covariance, a Cholesky factor and the gradient's
    // work space
    // (n by n each), and the test cross-covariance
    double n = tr.size();
    if (sparse) {
      int mInd = mWanted == null ? tr.size() : mWanted;
      if (mInd > tr.size()) {
        throw CliException.badInput(
            "--inducing " + mInd + " is more than the " + tr.size()
                + " training rows (give 1 <= M <= n, or --inducing all for the training inputs themselves)");
      }
      // the sparse loop: n × M rows and gradient work space, M × M factors, the M × test
      // cross-covariance
      double mm = mInd;
      if (svgp) {
        // q(u)'s M + M(M+1)/2 numbers, times L-BFGS's 2 × 20 correction pairs and work vectors
        // (full batch) or
        // Adam's moments, gradient and iterate; per block of rows the M × block terms; K_uu and its
        // factor
        double dim = mm + mm * (mm + 1) / 2;
        double copies = "all".equals(minibatch == null ? null : minibatch.strip()) ? 46 : 6;
        Memory.require(
            String.format(
                java.util.Locale.ROOT,
                "SVGP on %,d training rows and %,d inducing inputs (%,.0f variational parameters)",
                tr.size(),
                mInd,
                dim),
            8 * (copies * dim + 6 * mm * Math.min(n, 2048) + 4 * mm * mm + 2 * mm * te.size()),
            Math.max(dim, mm * te.size()));
      } else {
        Memory.require(
            String.format(
                java.util.Locale.ROOT,
                "a sparse GP on %,d training rows and %,d inducing inputs",
                tr.size(),
                mInd),
            8 * (4 * n * mm + 8 * mm * mm + 2 * mm * te.size()),
            Math.max(n * mm, mm * te.size()));
      }
    } else {
      Memory.require(
          String.format(java.util.Locale.ROOT, "a GP on %,d training rows", tr.size()),
          8 * (6 * n * n + 2 * n * te.size()),
          Math.max(n * n, n * te.size()));
    }
    checkTargets(lik, train, label, tr.target());
    if (data.testHasTarget()) {
      checkTargets(lik, test, label, te.target());
    }
    double[][] xTrain = tr.features();
    double[][] xTest = te.features();
    if (standardize) {
      Standardizer s = Standardizer.fit(xTrain);
      xTrain = s.apply(xTrain);
      xTest = s.apply(xTest);
    }
    Kernel k0 = kernelOptions.kernel(tr.dimension());
    if (!Double.isFinite(priorMean)) {
      throw CliException.badInput("--prior-mean must be finite, got " + priorMean);
    }
    Problem problem = new Problem(k0, xTrain, tr.target(), lik, priorMean);
    Result fit;
    Map<String, Object> sparseBlock = null;
    try {
      if (sparse) {
        double[][] z0 = mWanted == null ? xTrain : kMeansCentroids(xTrain, mWanted, seed);
        boolean learnZ = optimize && Boolean.TRUE.equals(learnInducing);
        sparseBlock = new LinkedHashMap<>();
        if (svgp) {
          SvgpModel.Options o = svgpOptions.withLearning(optimize, learnZ).withSeed(seed);
          SvgpModel.Fit f = SvgpModel.fit(new SparseProblem(problem, z0), o);
          fit = svgpResult(f);
          sparseBlock.put("inducing", z0.length);
          sparseBlock.put("initialisation", mWanted == null ? "training-inputs" : "k-means");
          sparseBlock.put("method", "svgp");
          sparseBlock.put("alpha", 0.0);
          sparseBlock.put("learned_inducing", learnZ);
          sparseBlock.put("inducing_jitter", f.posterior().inducingJitter());
          sparseBlock.put("optimizer", o.isFullBatch() ? "lbfgs" : "adam");
          sparseBlock.put(
              "minibatch", o.isFullBatch() ? "all" : Math.min(o.minibatch(), tr.size()));
          if (!o.isFullBatch()) {
            sparseBlock.put("learning_rate", o.learningRate());
            sparseBlock.put("natural_step", o.naturalStep());
          }
          sparseBlock.put("iteration_cap", o.iterations());
          sparseBlock.put(
              "stop_rule",
              o.isFullBatch()
                  ? "lbfgs"
                  : o.stopping() == null ? "none" : o.stopping().test().label());
          if (!o.isFullBatch() && o.stopping() != null) {
            sparseBlock.put("stop_window", o.stopping().window());
            sparseBlock.put("stop_tolerance", o.stopping().tolerance());
          }
          sparseBlock.put("stop_reason", f.stopReason());
          sparseBlock.put("elbo", f.posterior().elbo());
        } else {
          SiteLoopOptions loop = loopOptions(sparseMethod.loop(), spark);
          SiteBlocks blocks = spark ? engineProvider.create(master) : null;
          fit = sparseFit(
              new SparseProblem(problem, z0), sparseMethod.rule(), loop, optimize, learnZ, blocks);
          sparseBlock.put("inducing", z0.length);
          sparseBlock.put("initialisation", mWanted == null ? "training-inputs" : "k-means");
          sparseBlock.put("method", sparseMethod.name());
          sparseBlock.put("alpha", sparseMethod.power());
          sparseBlock.put(
              "schedule",
              loop.schedule() == SiteLoop.Schedule.PARALLEL ? "parallel" : "sequential");
          sparseBlock.put("damping", loop.damping());
          sparseBlock.put("engine", spark ? "spark" : "local");
          sparseBlock.put("learned_inducing", learnZ);
          sparseBlock.put("inducing_jitter", fit.diagnostics().jitter());
        }
      } else {
        FittedGp g = GpModel.fit(
            problem,
            method,
            optimize ? GpModel.FitOptions.optimize(k0) : GpModel.FitOptions.fixed());
        fit = new Result(
            g::predict,
            g.posterior().problem().likelihood(),
            g.kernel(),
            g.logEvidence(),
            g.iterations(),
            g.converged(),
            g.seconds(),
            g.posterior().diagnostics(),
            g.activeBounds(),
            g.optimizerStatus());
      }
    } catch (InferenceException e) {
      throw new CliException("inference failed: " + e.getMessage(), 1);
    }
    Prediction pred = fit.predictor().apply(xTest);
    boolean counts = countTargets(lik);
    Likelihood fitted = fit.likelihood();
    int m = te.size();
    double[] y = te.target();
    double[] logLik = data.testHasTarget() ? new double[m] : null;
    // the point prediction each test row is scored on: p(y* = +1), or the mode of a count
    double[] point = new double[m];
    StringBuilder csv = new StringBuilder(
        counts
            ? "latent_mean,latent_variance,rate_mean,mode"
            : "latent_mean,latent_variance,p_positive");
    csv.append(logLik != null ? ",log_lik\n" : "\n");
    for (int j = 0; j < m; j++) {
      double mu = pred.latentMean()[j];
      double var = pred.latentVariance()[j];
      csv.append(mu).append(',').append(var).append(',');
      Predictive yPred = fitted.predictive(mu, var);
      if (counts) {
        // QP paper appendix H: g* = f*² ≈ Gamma ⇒ y* ~ NegBin (eq. 119–122); E[y*] = E[g*] = μ² +
        // σ²
        double mode = yPred.mode();
        csv.append(yPred.mean()).append(',').append((long) mode);
        point[j] = mode;
        if (logLik != null) {
          logLik[j] = yPred.logDensity(y[j]);
        }
      } else {
        // probit: p(y* = +1) = Φ(μ/√(1 + σ²)) (R&W eq. 3.82); noisy-step: ε + (1 − 2ε) Φ(μ/σ)
        double p = yPred.density(1);
        csv.append(p);
        point[j] = p;
        if (logLik != null) {
          logLik[j] = yPred.logDensity(y[j]);
        }
      }
      if (logLik != null) {
        csv.append(',').append(logLik[j]);
      }
      csv.append('\n');
    }
    String why = "the predictive distribution overflowed or failed at these hyperparameters";
    Finite.requireRows("the latent mean", pred.latentMean(), test, why);
    Finite.requireRows("the latent variance", pred.latentVariance(), test, why);
    if (logLik != null) {
      Finite.requireRows("the log predictive density", logLik, test, why);
    }
    // test error: misclassification rate (probit) or mean |y* − mode| (counts, QP paper §6.2)
    double testError = logLik == null
        ? Double.NaN
        : counts ? Metrics.meanAbsoluteError(point, y) : Metrics.testError(point, y);
    Map<String, Object> sum = new LinkedHashMap<>();
    sum.put("likelihood", likelihood);
    if (epsilon != null) {
      sum.put("epsilon", epsilon);
    }
    sum.put("inference", inference);
    if (sparseBlock != null) {
      sum.put("sparse", sparseBlock);
    }
    sum.put("kernel", kernelOptions.kernel);
    sum.put("log_evidence", fit.logEvidence());
    Map<String, Object> hyp = new LinkedHashMap<>();
    Kernel k = fit.kernel();
    if (k instanceof SquaredExponential se) {
      hyp.put("signal_variance", se.signalVariance());
      hyp.put("lengthscales", se.lengthscales());
    } else if (k instanceof Linear lin) {
      hyp.put("signal_variance", lin.signalVariance());
      hyp.put("lengthscales", new double[0]);
    }
    sum.put("hyperparameters", hyp);
    sum.put("iterations", fit.iterations());
    sum.put("inference_iterations", fit.diagnostics().iterations());
    sum.put("converged", fit.converged());
    Diagnostics diag = fit.diagnostics();
    sum.put("sweeps", diag.iterations());
    sum.put("diverged", diag.diverged());
    if (inference.equals("rep")) {
      sum.put("relaxed_sites", diag.relaxedSites());
    }
    sum.put("seconds", fit.seconds());
    if (logLik != null) {
      sum.put("test_error", testError);
      sum.put("nll", Metrics.negativeLogLikelihood(logLik));
    }
    sum.put("active_bounds", fit.activeBounds());
    sum.put("optimizer_status", fit.optimizerStatus());
    sum.put("inference_diagnostics", fit.diagnostics().toString());
    sum.put("prior_mean", priorMean);
    if (!counts) {
      sum.put("positive_label", data.positiveLabel());
    }
    sum.put("seed", seed);
    AtomicFiles.write(out, csv.toString());
    if (summary != null) {
      AtomicFiles.write(summary, Json.write(sum));
    }
    err.printf(
        Locale.ROOT,
        "%s/%s/%s: log evidence %.6f, %d iterations, %s, %.2f s%s%s%n",
        likelihood,
        sparseBlock == null
            ? inference
            : sparseBlock.get("method") + " (M = " + sparseBlock.get("inducing") + ")",
        kernelOptions.kernel,
        fit.logEvidence(),
        fit.iterations(),
        fit.converged() ? "converged" : "NOT converged",
        fit.seconds(),
        logLik != null
            ? String.format(
                Locale.ROOT,
                ", test error %.4f, nll %.4f",
                testError,
                Metrics.negativeLogLikelihood(logLik))
            : "",
        fit.activeBounds().isEmpty() ? "" : ", bounds active: " + fit.activeBounds());
    return 0;
  }

  /** What the summary reports of a fit, exact ({@link GpModel}) or sparse ({@link SparseGpModel}). */
  private record Result(
      java.util.function.Function<double[][], Prediction> predictor,
      Likelihood likelihood,
      Kernel kernel,
      double logEvidence,
      int iterations,
      boolean converged,
      double seconds,
      Diagnostics diagnostics,
      List<String> activeBounds,
      String optimizerStatus) {}

  /** The sparse method by name, a refusal worded with its flag ({@code --inducing} for a method without a sparse form). */
  static Registry.SparseMethod sparseMethod(String name, Settings settings) {
    try {
      return Registry.sparseInference(name, settings);
    } catch (SettingException e) {
      throw e.setting().equals("inference")
          ? CliException.badInput("--inducing with --inference " + e.problem())
          : Flags.badInput(e);
    }
  }

  /** The SVGP flags given, as registry settings ({@code --x} = setting {@code x}). */
  private Settings svgpSettings() {
    return Settings.none()
        .with("minibatch", minibatch)
        .with("learning-rate", learningRate)
        .with("iterations", iterations)
        .with("stopping", stopping)
        .with("natural-step", naturalStep)
        .with("stop-window", stopWindow)
        .with("stop-tolerance", stopTolerance);
  }

  /**
   * SVGP's options from its flags; a method flag (vb takes none) or a bad value is refused naming its flag.
   */
  static SvgpModel.Options svgpOptions(Settings method, Settings svgp) {
    if (!method.isEmpty()) {
      throw CliException.badInput("--" + method.names().iterator().next()
          + " is not a setting of SVGP (--inducing with --inference vb; its settings: --"
          + String.join(", --", Registry.SVGP_SETTINGS) + ")");
    }
    try {
      return Registry.svgp(svgp);
    } catch (SettingException e) {
      throw Flags.badInput(e);
    }
  }

  /** What the summary reports of an SVGP fit: the bound is its log evidence. */
  private static Result svgpResult(SvgpModel.Fit f) {
    SvgpPosterior post = f.posterior();
    return new Result(
        post::predict,
        post.problem().problem().likelihood(),
        post.problem().problem().kernel(),
        post.elbo(),
        f.iterations(),
        f.converged(),
        f.seconds(),
        post.diagnostics(),
        f.activeBounds(),
        f.status());
  }

  /** M from {@code --inducing}: a whole number >= 1, or null for "all" (the training inputs). */
  static Integer inducingCount(String word) {
    String w = word.strip();
    if (w.equalsIgnoreCase("all")) {
      return null;
    }
    int m;
    try {
      m = Integer.parseInt(w);
    } catch (NumberFormatException e) {
      throw CliException.badInput(
          "--inducing must be a whole number M >= 1 or 'all', got '" + word + "'");
    }
    if (m < 1) {
      throw CliException.badInput("--inducing must be at least 1, got " + m);
    }
    return m;
  }

  /** The k-means centroids (k-means++ seeded by {@code seed}, Lloyd to convergence or the cap) of the rows x. */
  static double[][] kMeansCentroids(double[][] x, int m, long seed) {
    return KMeans.centroidRows(x, m, seed, KMEANS_ITERATIONS);
  }

  /**
   * Checks {@code --schedule}, {@code --damping}, {@code --engine} and {@code --master} against the fit, each
   * refusal one line naming its flag; whether the fit runs on Spark.
   */
  private boolean checkEngine(boolean sparse, boolean svgp) {
    String e = engine.strip().toLowerCase(Locale.ROOT);
    boolean spark = !e.equals("local");
    if (master != null && !spark) {
      throw CliException.badInput("--master needs --engine spark");
    }
    boolean loop = sparse && !svgp;
    if (schedule != null) {
      String sch = schedule.strip().toLowerCase(Locale.ROOT);
      if (!sch.equals("sequential") && !sch.equals("parallel")) {
        throw CliException.badInput(
            "--schedule must be sequential or parallel, got '" + schedule + "'");
      }
      if (!loop) {
        throw CliException.badInput("--schedule applies to the sparse site loop: --inducing M with"
            + " --inference ep, qp or power-ep");
      }
      if (spark && sch.equals("sequential")) {
        throw CliException.badInput(
            "--engine " + engine
                + " runs the parallel schedule (blocks of rows at once); --schedule sequential is local only");
      }
    }
    if (damping != null) {
      if (!loop) {
        throw CliException.badInput("--damping applies to the sparse site loop: --inducing M with"
            + " --inference ep, qp or power-ep");
      }
      if (!(damping > 0 && damping <= 1)) {
        throw CliException.badInput("--damping must be in (0, 1], got " + damping);
      }
    }
    if (!spark) {
      return false;
    }
    String inf = inference.strip();
    if (!sparse) {
      throw CliException.badInput("--engine " + engine
          + " runs the sparse site loop on inducing points: give --inducing M (with --inference ep, qp or"
          + " power-ep)");
    }
    if (svgp) {
      throw CliException.badInput(
          "--engine " + engine
              + " runs the sparse site loop (--inference ep, qp or power-ep), not SVGP (--inference vb)");
    }
    if (!Registry.sparseInferenceNames().contains(inf)) {
      throw CliException.badInput("--engine " + engine
          + " runs the sparse site loop (--inference ep, qp or power-ep), not --inference " + inf);
    }
    return true;
  }

  /** The site loop's options from the method's, with {@code --schedule} and {@code --damping}. */
  private SiteLoopOptions loopOptions(SiteLoopOptions base, boolean spark) {
    boolean parallel = spark || (schedule != null && schedule.strip().equalsIgnoreCase("parallel"));
    SiteLoopOptions o = parallel ? base.withSchedule(SiteLoop.Schedule.PARALLEL) : base;
    if (damping != null) {
      return o.withDamping(damping);
    }
    return parallel ? o.withDamping(PARALLEL_DAMPING) : o;
  }

  /**
   * The sparse fit: θ (and Z when learnZ) by {@link SparseGpModel#fit}, or one run of the sparse loop at fixed θ
   * (the parallel schedule's blocks on {@code blocks}, null: this JVM).
   */
  private static Result sparseFit(
      SparseProblem sp,
      org.approxgp.inference.SiteUpdate<?> rule,
      SiteLoopOptions loop,
      boolean optimize,
      boolean learnZ,
      SiteBlocks blocks) {
    if (optimize) {
      SparseGpModel.Fit f = SparseGpModel.fit(
          sp, rule, loop, new SparseGpModel.FitOptions(learnZ, Lbfgs.Settings.paper()), blocks);
      SparsePosterior post = f.posterior();
      return new Result(
          post::predict,
          post.problem().problem().likelihood(),
          post.problem().problem().kernel(),
          post.logEvidence(),
          f.iterations(),
          f.converged(),
          f.seconds(),
          post.diagnostics(),
          f.activeBounds(),
          f.status());
    }
    long t0 = System.nanoTime();
    SparsePosterior post = SparseSiteLoop.run(sp, rule, loop.withGradient(false), null, blocks);
    return new Result(
        post::predict,
        sp.problem().likelihood(),
        sp.problem().kernel(),
        post.logEvidence(),
        0,
        post.diagnostics().converged(),
        (System.nanoTime() - t0) * 1e-9,
        post.diagnostics(),
        List.of(),
        "");
  }

  /** Whether the likelihood's targets are counts (columns rate_mean, mode) rather than ±1 labels. */
  static boolean countTargets(Likelihood lik) {
    return lik.name().equals("poisson-square");
  }

  /**
   * Checks every target against the likelihood's own range (e.g. poisson-square counts up to
   * {@code PoissonSquareLink.MAX_COUNT}) so that an out-of-range value is a bad-input error naming
   * file, row and column rather than a failure deep inside inference. Data rows are the file's lines
   * 2, 3, ... (the loader rejects blank lines between rows).
   */
  static void checkTargets(Likelihood lik, String file, String label, double[] y) {
    for (int i = 0; i < y.length; i++) {
      try {
        lik.validate(y[i]);
      } catch (IllegalArgumentException e) {
        throw CliException.badInput(
            file + ": row " + (i + 2) + ", column '" + label + "': " + e.getMessage());
      }
    }
  }
}
