package org.approxgp.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.approxgp.data.ColumnFile;
import org.approxgp.data.RegressionData;
import org.approxgp.inference.PredictiveMoments;
import org.approxgp.metrics.Metrics;
import org.approxgp.model.Registry;
import org.approxgp.model.SettingException;
import org.approxgp.model.Settings;
import org.approxgp.sparse.BoundMonitor;
import org.approxgp.sparse.PartitionGradientsProvider;
import org.approxgp.sparse.SparseModel;
import org.approxgp.sparse.SparseRegression;
import org.approxgp.sparse.TrainingRange;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code approxgp regress}: sparse GP regression (the sVBSSGP paper's models and baselines) on TRAIN, predictions
 * for TEST. Inputs are standardised with TRAIN's mean and sd, the target with TRAIN's mean and sd; predictions
 * are returned in the target's units. RMSE and MNLP follow the paper's §5 definitions. The models are set up by
 * {@link SparseRegression#start}, the family's one entry (the same configuration as the svbssgp-figures notebook).
 */
@Command(
    name = "regress",
    mixinStandardHelpOptions = true,
    description =
        "Sparse GP regression on TRAIN (Gaussian noise), predictions for TEST. Every column except "
            + "--target is a feature. Inputs and target are standardised with TRAIN's means and standard "
            + "deviations (divisor n; a constant input is left unscaled) before the fit, as the notebooks do; "
            + "first, unless --warp none, each input that is never negative on TRAIN and whose 99th percentile "
            + "there is at least 10 times its median is replaced by log(x + c), c the 1st percentile of its "
            + "positive TRAIN values (named in the summary's warped_inputs and on stderr). Predictions, RMSE, MNLP, "
            + "the noise and signal variances are reported in the data's units; a warped input's length-scale in "
            + "units of log(x + c).")
final class RegressCommand implements Callable<Integer> {
  @picocli.CommandLine.Mixin
  SparkAuth sparkAuth = new SparkAuth();

  @picocli.CommandLine.Spec
  picocli.CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--model",
      required = true,
      description = "ssgp, vssgp, svbssgp, dtc (DTC++ = SVGP), pic (PIC++)")
  String model;

  /** The model {@link #model} names, as the registry resolved it. */
  private SparseModel chosen;

  @Option(
      names = "--train",
      required = true,
      paramLabel = "TRAIN.csv",
      description =
          "training CSV (header row), or an approxgp column file (read without a text copy)")
  String train;

  @Option(
      names = "--test",
      required = true,
      paramLabel = "TEST.csv",
      description = "test CSV (a column file when TRAIN is one); its --target column may be absent")
  String test;

  @Option(
      names = "--target",
      required = true,
      paramLabel = "COLUMN",
      description = "target column (real values)")
  String target;

  @Option(
      names = "--features",
      paramLabel = "2m",
      description =
          "number of basis functions 2m, even (ssgp, vssgp, svbssgp; default "
              + SparseRegression.DEFAULT_FEATURES
              + ", the paper's, for svbssgp; for ssgp and vssgp ⌈√n·ln n⌉ while n·(2m)² <= 7e8; never below 40)")
  Integer features;

  @Option(
      names = "--partitions",
      paramLabel = "P",
      description =
          "k-means partitions of the training inputs (svbssgp, pic; default min(200, n/50) for svbssgp, min(200, n/20) for pic, and n/1000 "
              + "above 200,000 rows; k-means on a seeded sample of 100,000 rows, every row then assigned)")
  Integer partitions;

  @Option(
      names = "--inducing",
      paramLabel = "M",
      description = "inducing points, k-means centroids (dtc, pic; default for pic "
          + SparseRegression.DEFAULT_INDUCING
          + ", the paper's, at most n; for dtc the largest M >= "
          + SparseRegression.DEFAULT_INDUCING
          + " whose full-batch fit's work (d + 2)(nM² + M³) stays within 1.2e10, at most n: "
          + "521 on 5,000 rows of 6 inputs)")
  Integer inducing;

  @Option(
      names = "--iterations",
      paramLabel = "T",
      description =
          "iteration cap (default 1000 for ssgp and for vssgp, dtc and pic in full batch — an L-BFGS "
              + "that stops when converged; for the stochastic fits, which stop by --stopping, 5000 for theirs "
              + "and, for svbssgp's, "
              + SparseRegression.SVBSSGP_ITERATIONS
              + " on up to two inputs, "
              + SparseRegression.SVBSSGP_ITERATION_WORK
              + "/(d + 2) on d)")
  Integer iterations;

  @Option(
      names = "--gamma",
      paramLabel = "G",
      description =
          "svbssgp test conditional γ in [-1, 1], the paper's Proposition 1 (0: local data of the test point's "
              + "partition, the paper's; 1: VSSGP's global one; default: of 0, 0.1, ..., 1 the one with the lowest "
              + "leave-one-out MNLP of the training rows, named in the summary's gamma)")
  Double gamma;

  @Option(
      names = "--samples",
      paramLabel = "R",
      description = "svbssgp: samples of q(α) for the predictive (default 5, the paper's)")
  Integer samples;

  @Option(
      names = "--predictive-noise",
      paramLabel = "local|model",
      description =
          "svbssgp: noise variance of the local test conditional: each partition's own, from its "
              + "local marginal likelihood (default, local), or the model's learned σ_n² as the paper writes "
              + "Proposition 1 (model)")
  String predictiveNoise;

  @Option(
      names = "--step-initial",
      paramLabel = "RHO0",
      description =
          "svbssgp: natural-gradient step of q(α), ρ_t = ρ₀/(1 + τ(t − 1))^κ: ρ₀ in (0, 1] (default 0.5)")
  Double stepInitial;

  @Option(
      names = "--step-tau",
      paramLabel = "TAU",
      description = "svbssgp: τ >= 0 of the step (default 0.05)")
  Double stepTau;

  @Option(
      names = "--step-kappa",
      paramLabel = "KAPPA",
      description =
          "svbssgp: κ >= 0 of the step (default 0.4; the paper experiments' 0.6; 0 a constant step)")
  Double stepKappa;

  @Option(
      names = "--learning-rate",
      paramLabel = "A",
      description =
          "svbssgp: Adam's step for the hyperparameters, decayed by ρ_t/ρ₀ (default 0.03)")
  Double learningRate;

  @Option(
      names = "--stopping",
      paramLabel = "slope|means|none",
      description =
          "stochastic fits (svbssgp; dtc, pic, vssgp when not full batch), and vssgp's full-batch L-BFGS under "
              + "slope (on its exact bound, beside L-BFGS's own tests): stop when the bound has stopped "
              + "changing by a test that accounts for its noise (slope, the default: every W iterations, the "
              + "2-se interval of the OLS slope of the last half (--stop-span) of the bound estimates, times as many "
              + "iterations, lies within +-T nats per training row), by Stan ADVI's relative change of windowed "
              + "means (means), "
              + "or run every iteration to --iterations (none); the summary's stop_rule and stop_reason say "
              + "which rule ended the fit and why")
  String stopping;

  @Option(
      names = "--stop-window",
      paramLabel = "W",
      description =
          "--stopping slope: iterations between tests and the shortest regression (default "
              + BoundMonitor.DEFAULT_WINDOW
              + "); means: iterations per window of the smoothed bound; >= 2")
  Integer stopWindow;

  @Option(
      names = "--stop-tolerance",
      paramLabel = "T",
      description =
          "--stopping slope: the bound's rise in nats per training row below which it has converged (default "
              + BoundMonitor.DEFAULT_TOLERANCE
              + "); means: the relative change of the smoothed bound")
  Double stopTolerance;

  @Option(
      names = "--stop-span",
      paramLabel = "S",
      description =
          "--stopping slope: the fraction of the run its regression spans, in (0, 1) (default 0.5, the last "
              + "half; svbssgp 2/3: a level stretch of the bound stops the fit once it has lasted twice as long "
              + "as the run before it)")
  Double stopSpan;

  @Option(
      names = "--frequencies",
      paramLabel = "held-out|learned",
      description =
          "ssgp, vssgp: held-out rows choose between the learned frequencies and up to 6 random draws (fewer on large n·(2m)²) with "
              + "fitted hyperparameters (default, held-out), or always the learned ones (learned)")
  String frequencies;

  @Option(
      names = "--extrapolation",
      paramLabel = "revert|clamp|free",
      description =
          "ssgp, vssgp, svbssgp: at a TEST row outside the training rows' range, the prediction at the range's edge "
              + "carried to the row by the model's SE prior, towards the prior mean (revert; default for ssgp and vssgp, "
              + "whose sinusoids are periodic, so past the data the mean turns back or runs away), the edge's "
              + "prediction itself (clamp), or the prediction at the row as given (free; default for svbssgp, whose "
              + "local conditional carries trends on)")
  String extrapolation;

  @Option(
      names = "--frequency-variance",
      paramLabel = "S",
      description =
          "vssgp: initial variance of each frequency under q(ω), in length-scale units where the prior's is 1 "
              + "(default 1e-6, nearly a point; in full batch a second start from 1 is also run and the higher "
              + "bound kept)")
  Double frequencyVariance;

  @Option(
      names = "--initial-lengthscales",
      paramLabel = "median|unit",
      description =
          "dtc, pic: where the fit's length-scales start on the standardised inputs: the median distance between "
              + "training rows (median; default for dtc) or 1 (unit; default for pic, and the sVBSSGP paper's "
              + "stored experiments)")
  String initialLengthscales;

  @Option(
      names = "--minibatch",
      paramLabel = "B|all",
      description =
          "rows per step: vssgp and dtc (default: all rows — full batch — for vssgp while n·k² <= 7e8 for k = "
              + "--features, for dtc while (d + 2)(nM² + M³) <= 1.2e10, and for pic, which takes no --minibatch, "
              + "while (d + 2)(nM² + M³) <= 4.5e9; else 1000); svbssgp rows per sampled partition (default: "
              + "whole partitions, the paper's Theorem 1, while partitions average at most 50 rows, else 50); 'all': every "
              + "row (full batch; whole partitions)")
  String minibatch;

  @Option(
      names = "--trace-every",
      defaultValue = "0",
      paramLabel = "K",
      description =
          "with test targets: test RMSE every K iterations in the summary's trace (default 0: none; each costs a "
              + "prediction of the whole test set, timed apart as trace_seconds, not in train_seconds)")
  int traceEvery;

  @Option(
      names = "--warp",
      defaultValue = "auto",
      paramLabel = "auto|none",
      description =
          "log-warp heavy-tailed inputs (default auto: each input never negative on TRAIN whose 99th percentile "
              + "is at least 10 times its median becomes log(x + c), c the 1st percentile of its positive TRAIN "
              + "values, and below 0 its tangent there), or leave every input as it is (none)")
  String warp;

  @Option(names = "--seed", description = "random seed (default 0)")
  Long seed;

  @Option(
      names = "--engine",
      defaultValue = "local",
      paramLabel = "local|spark",
      description =
          "svbssgp: where each step's partition terms are summed: this JVM (default) or a Spark job "
              + "(bin/approxgp adds the spark module; same predictions, bit for bit, on one JDK)")
  String engine;

  @Option(
      names = "--master",
      paramLabel = "URL",
      description =
          "Spark master URL (default: spark-submit's, else embedded local[*]); --engine spark only")
  String master;

  @Option(
      names = "--out",
      required = true,
      paramLabel = "PRED.csv",
      description = "mean,variance per TEST row")
  Path out;

  @Option(names = "--summary", paramLabel = "SUMMARY.json", description = "fit summary")
  Path summary;

  /** One trace entry: iteration, objective, test RMSE (NaN when not computed), elapsed training seconds. */
  private record TracePoint(int iteration, double objective, double rmse, double seconds) {}

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    // every value validated once, by the registry; the defaults filled in here are its
    SparseRegression.Options options = options();
    chosen = options.model();
    // 2m is chosen on the rows (SparseRegression.defaultFeatures) unless given; set once n is known
    gamma = options.gamma().isPresent() ? options.gamma().getAsDouble() : null;
    samples = options.samples();
    seed = options.seed();
    checkOptions();
    boolean warpInputs = warpInputs();
    AtomicFiles.checkTrainTestOutputs(train, test, out, summary);
    sparkAuth.apply(!"local".equalsIgnoreCase(engine.strip()));
    PartitionGradientsProvider.Factory gradients;
    try {
      gradients = PartitionGradientsProvider.forEngine(engine, master);
    } catch (IllegalArgumentException e) {
      throw CliException.badInput("--engine " + engine + ": " + e.getMessage());
    }
    if (gradients != null) {
      // an engine that cannot start (an unreachable or malformed master) is one line, before the
      // data is read
      gradients.start();
    }
    long load0 = System.nanoTime();
    RegressInputs in = ColumnFile.isColumnFile(Path.of(train))
        ? RegressInputs.fromColumnFiles(train, test, target, warpInputs)
        : RegressInputs.fromCsv(train, test, target, warpInputs);
    double loadSeconds = (System.nanoTime() - load0) * 1e-9;
    Map<String, Double> warped = in.warpedInputs();
    if (!warped.isEmpty()) {
      List<String> named = new ArrayList<>();
      warped.forEach((name, c) -> named.add(String.format(Locale.ROOT, "%s (c = %.4g)", name, c)));
      err.println("note: fitting log(x + c) of " + String.join(", ", named)
          + ": on TRAIN each is never negative and its 99th percentile is at least "
          + (long) org.approxgp.data.InputWarp.TAIL_RATIO
          + " times its median (--warp none keeps them as given)");
    }
    RegressionData trainData = in.train();
    RegressionData testData = in.test();
    double[] yTest = in.yTest();
    double yMean = in.yMean();
    double ySd = in.ySd();
    int n = trainData.n();
    int d = trainData.d();
    features = options.featuresFor(n);
    inducing = options.inducingFor(n, d);
    iterations = options.iterationsFor(n, d);
    int p = options.partitionsFor(n);
    if (chosen.partitioned() && p > n) {
      throw CliException.badInput("--partitions " + p + " exceeds the " + n + " training rows");
    }
    if (options.inducingPoints() && inducing > n) {
      throw CliException.badInput(
          "--inducing " + inducing + " exceeds the " + n + " training rows");
    }
    checkMemory(n, trainData.d(), testData.n(), p);

    final double mu = yMean;
    final double sd = ySd;
    List<TracePoint> trace = new ArrayList<>();
    Progress progress = new Progress("regress " + model, iterations, System.console() != null);
    long t0 = System.nanoTime();
    double testSeconds = 0;
    double setupSeconds;
    int done;
    int[] partitionSizes;
    SparseRegression.Fit fitted;
    // the family's one entry, as the notebooks and the paper's experiments (SparseRegression.start)
    try (SparseRegression.Trainer t = SparseRegression.start(
        trainData, options, SparseRegression.Partitioning.sampled(), gradients)) {
      setupSeconds = t.setupSeconds();
      while (t.step()) {
        int it = t.iteration();
        double rmse = Double.NaN;
        if (traceEvery > 0 && yTest != null && (it % traceEvery == 0 || it == iterations)) {
          long s = System.nanoTime();
          PredictiveMoments pr = t.snapshot().predict(testData);
          double[] inUnits = new double[yTest.length];
          for (int j = 0; j < yTest.length; j++) {
            inUnits[j] = mu + sd * pr.mean()[j];
          }
          rmse = Metrics.rmse(inUnits, yTest);
          testSeconds += (System.nanoTime() - s) * 1e-9;
        }
        trace.add(
            new TracePoint(it, t.objective(), rmse, (System.nanoTime() - t0) * 1e-9 - testSeconds));
        progress.at(Math.min(it, iterations));
      }
      fitted = t.snapshot();
      done =
          t.iteration(); // an L-BFGS fit (ssgp; vssgp in full batch) may stop before --iterations
      partitionSizes = t.partitionSizes();
    } catch (IllegalArgumentException | ArithmeticException e) {
      progress.done();
      throw new CliException(model + " failed: " + e.getMessage(), 1);
    }
    double seconds = (System.nanoTime() - t0) * 1e-9 - testSeconds;
    progress.done();
    long predict0 = System.nanoTime();
    PredictiveMoments pred = fitted.predict(testData);
    double predictSeconds = (System.nanoTime() - predict0) * 1e-9;

    int m = testData.n();
    double[] mean = new double[m];
    double[] variance = new double[m];
    StringBuilder csv = new StringBuilder("mean,variance\n");
    for (int j = 0; j < m; j++) {
      mean[j] = mu + sd * pred.mean()[j];
      variance[j] = sd * sd * pred.variance()[j];
      if (Double.isInfinite(variance[j])) {
        variance[j] =
            sd * (sd * pred.variance()[j]); // sd² alone may overflow where the product does not
      }
      csv.append(mean[j]).append(',').append(variance[j]).append('\n');
    }
    String scaleHint = String.format(
        Locale.ROOT,
        "in units of the target (sd %.3g) it is beyond a double;" + " rescale the target",
        sd);
    Finite.requireRows("the predictive mean", mean, test, scaleHint);
    Finite.requireRows("the predictive variance", variance, test, scaleHint);
    PredictiveMoments inUnits = new PredictiveMoments(mean, variance);
    Map<String, Object> sum = new LinkedHashMap<>();
    sum.put("model", chosen.id());
    // the build that fitted it, as every stored experiment row records it (a benchmark's rows name
    // it)
    sum.put("code_version", org.approxgp.experiment.CodeVersion.current());
    sum.put("n_train", n);
    sum.put("n_test", m);
    sum.put("inputs", trainData.d());
    // the inputs fitted on the log scale (InputWarp's rule), each with its offset c in the input's
    // units
    sum.put("warp", warpInputs ? "auto" : "none");
    sum.put("warped_inputs", warped);
    sum.put("iterations", done);
    if (chosen != SparseModel.DTC) {
      sum.put("partitions", chosen.partitioned() ? p : null);
    }
    if (!chosen.inducingPoints()) {
      sum.put("features", features);
      if (chosen == SparseModel.VSSGP) {
        sum.put("frequency_variance", options.frequencyVarianceOrDefault());
      }
    } else {
      sum.put("inducing", inducing);
      sum.put("initial_lengthscales", options.startFor().name().toLowerCase(java.util.Locale.ROOT));
    }
    if (!chosen.inducingPoints()) {
      // how many test rows lie outside the training range, where the extrapolation rule applies
      sum.put("extrapolation", options.extrapolation().name().toLowerCase(java.util.Locale.ROOT));
      sum.put("test_rows_outside", TrainingRange.of(trainData).rowsOutside(testData));
    }
    if (chosen == SparseModel.SVBSSGP) {
      // as set, else the leave-one-out choice (SparseRegression.leaveOneOutGamma)
      sum.put("gamma", fitted.gamma());
      sum.put("gamma_rule", gamma == null ? "leave_one_out" : "set");
      sum.put("samples", samples);
      sum.put("predictive_noise", options.noise().name().toLowerCase(java.util.Locale.ROOT));
    }
    SparseRegression.Outcome outcome = fitted.outcome();
    sum.put("converged", outcome.converged());
    sum.put("stop_reason", outcome.stopReason().label());
    // the rule that governs the fit: a stochastic fit's stopping rule (or none), else L-BFGS's own
    // tests (full-batch VSSGP: beside them, under the slope rule, the slope test on its exact
    // bound)
    boolean stochastic = options.stochasticFor(n, d);
    BoundMonitor.Rule rule = options.appliedStopping(n, d);
    // VSSGP under --frequencies held-out: the fit the held-out rows chose, and the rule that
    // stopped it where that is not the configured one (VSSGP from SSGP's fit is kept at its best
    // held-out iterate, the fixed-frequency model's hyperparameters stop by L-BFGS's tests)
    if (outcome.candidate() != null) {
      sum.put("candidate", outcome.candidate());
    }
    if (outcome.candidateStopRule() != null) {
      sum.put("stop_rule", outcome.candidateStopRule());
    } else if (stochastic || rule != null) {
      sum.put(
          "stop_rule",
          rule == null ? "none" : (stochastic ? "" : "lbfgs_") + rule.test().label());
      if (rule != null) {
        sum.put("stop_window", rule.window());
        sum.put("stop_tolerance", rule.tolerance());
        if (rule.test() == BoundMonitor.Test.SLOPE) {
          sum.put("stop_span", rule.span());
          // the last slope test's evidence, in nats per training row per iteration over its
          // regression's iterations (null before the first test)
          BoundMonitor.SlopeTest last = outcome.lastSlopeTest();
          sum.put("stop_slope", last == null ? null : last.slope());
          sum.put("stop_slope_se", last == null ? null : last.standardError());
          sum.put("stop_slope_iterations", last == null ? null : last.iterations());
        }
      }
    } else {
      sum.put("stop_rule", chosen == SparseModel.SSGP ? "lbfgs_held_out" : "lbfgs");
    }
    if (chosen == SparseModel.SVBSSGP) {
      sum.put("diverging", fitted.svbssgp().diverging());
      sum.put("partition_sizes", java.util.Arrays.stream(partitionSizes).boxed().toList());
    }
    // learned hyperparameters in the data's units (the fit saw standardised inputs and target)
    sum.put("noise_variance", sd * sd * outcome.noiseVariance());
    sum.put("signal_variance", sd * sd * outcome.signalVariance());
    Map<String, Object> ell = new LinkedHashMap<>();
    double[] l = outcome.lengthscales();
    for (int j = 0; j < l.length; j++) {
      ell.put(in.featureNames().get(j), l[j] * in.xScale()[j]);
    }
    sum.put("lengthscales", ell);
    // inputs the fit has switched off: a length-scale far beyond the input's range on TRAIN
    List<String> ignored =
        RegressInputs.ignoredInputs(l, RegressInputs.ranges(trainData), in.featureNames());
    sum.put("inputs_ignored", ignored);
    if (!ignored.isEmpty()) {
      err.println("note: the fit ignores " + String.join(", ", ignored) + " (length-scale over "
          + (long) RegressInputs.IGNORED_RATIO
          + " times the input's range on TRAIN: no effect on any prediction)");
    }
    sum.put("seed", seed);
    if (yTest != null) {
      sum.put(
          "rmse", Finite.require("the test RMSE", inUnits.rmse(yTest), "the test targets' scale"));
      sum.put(
          "mnlp", Finite.require("the test MNLP", inUnits.mnlp(yTest), "the test targets' scale"));
    }
    // the iterations' time: to the end of the last iteration (not the final prediction), less the
    // set-up
    // (k-means, initialisation), which is NaN (null) where not separable (ssgp, vssgp)
    double lastIteration =
        trace.isEmpty() ? seconds : trace.get(trace.size() - 1).seconds();
    double iterSeconds = Double.isNaN(setupSeconds) ? lastIteration : lastIteration - setupSeconds;
    sum.put("load_seconds", loadSeconds);
    sum.put("setup_seconds", Double.isNaN(setupSeconds) ? null : setupSeconds);
    sum.put("train_seconds", seconds);
    sum.put("trace_seconds", testSeconds);
    sum.put("predict_seconds", predictSeconds);
    sum.put("seconds_per_iteration", done == 0 ? null : iterSeconds / done);
    sum.put("target_mean", mu);
    sum.put("target_sd", sd);
    List<Map<String, Object>> rows = new ArrayList<>();
    for (TracePoint tp : trace) {
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("iteration", tp.iteration());
      r.put("objective", tp.objective());
      if (!Double.isNaN(tp.rmse())) {
        r.put("rmse", tp.rmse());
      }
      r.put("seconds", tp.seconds());
      rows.add(r);
    }
    sum.put("trace", rows);
    AtomicFiles.write(out, csv.toString());
    if (summary != null) {
      AtomicFiles.write(summary, Json.write(sum));
    }
    err.printf(
        Locale.ROOT,
        "%s: %d training rows, %d iterations, %.2f s (%s%.4f s per iteration)%s%n",
        model,
        n,
        done,
        seconds,
        Double.isNaN(setupSeconds)
            ? ""
            : String.format(Locale.ROOT, "set-up %.2f s, ", setupSeconds),
        done == 0 ? Double.NaN : iterSeconds / done,
        yTest != null
            ? String.format(
                Locale.ROOT,
                ", test RMSE %.6g, MNLP %.6g",
                inUnits.rmse(yTest),
                inUnits.mnlp(yTest))
            : "");
    return 0;
  }

  /**
   * The model's largest structures against the heap, before any is allocated (doubles, 8 bytes): the design
   * matrix of n rows by 2m features (ssgp, vssgp); for svbssgp, the dense precision of q(α) over its
   * dim = m·d + 2m coordinates (with its factor, the curvature and a work matrix) and the r predictive samples
   * of α; the n by M cross-covariance and the M by M matrices of the inducing-point models, and PIC's
   * per-partition blocks.
   */
  private void checkMemory(int n, int d, int nTest, int p) {
    double rows = Math.max(n, nTest);
    Memory.require("--iterations " + iterations, 64.0 * iterations, iterations); // the bound trace
    String on = String.format(Locale.ROOT, " on %,d rows of %d inputs", n, d);
    switch (chosen) {
      case DTC, PIC -> {
        double mm = (double) inducing * inducing;
        double block = chosen == SparseModel.PIC ? rows * Math.ceil((double) n / p) : 0;
        Memory.require(
            "--inducing " + inducing + on,
            8 * (rows * inducing + 3 * mm + block),
            Math.max(rows * inducing, Math.max(mm, block)));
      }
      case SVBSSGP -> {
        double dim = features / 2.0 * d + features;
        // q(α)'s precision, its Cholesky factor, the sampled curvature and a work matrix: dim by
        // dim each
        Memory.require(
            "--features " + features + on, 8 * (4 * dim * dim + rows * features), dim * dim);
        Memory.require(
            "--samples " + samples + " of " + String.format(Locale.ROOT, "%.0f", dim)
                + " coordinates" + " (--features " + features + on + ")",
            8 * (samples * dim + 4 * dim * dim),
            Math.max(samples, dim));
      }
      default ->
        Memory.require(
            "--features " + features + on,
            8 * (rows * features + 3.0 * features * features),
            Math.max(rows * features, (double) features * features));
    }
  }

  /**
   * A one-line progress bar with ETA on stderr, redrawn at most ten times a second, only on a terminal (a pipe,
   * a notebook or CI gets the one summary line at the end instead).
   */
  private static final class Progress {
    private final String name;
    private final int total;
    private final boolean interactive;
    private final long start = System.nanoTime();
    private long lastDraw = Long.MIN_VALUE;
    private boolean drawn;

    Progress(String name, int total, boolean interactive) {
      this.name = name;
      this.total = total;
      this.interactive = interactive;
    }

    void at(int done) {
      long now = System.nanoTime();
      if (!interactive || (now - lastDraw < 100_000_000L && done < total)) {
        return;
      }
      lastDraw = now;
      double elapsed = (now - start) * 1e-9;
      double eta = done == 0 ? Double.NaN : elapsed * (total - done) / done;
      int filled = (int) Math.round(30.0 * done / total);
      System.err.printf(
          Locale.ROOT,
          "\r%s [%s%s] %d/%d %3d%% elapsed %.0f s ETA %s",
          name,
          "#".repeat(filled),
          ".".repeat(30 - filled),
          done,
          total,
          100 * done / total,
          elapsed,
          Double.isNaN(eta) ? "?" : String.format(Locale.ROOT, "%.0f s", eta));
      drawn = true;
    }

    void done() {
      if (drawn) {
        System.err.println();
        drawn = false;
      }
    }
  }

  /**
   * The model's options from the flags through {@link Registry#regression} (flag {@code --x} is setting {@code x});
   * a refusal names the flag.
   */
  private SparseRegression.Options options() {
    Settings given = Settings.none()
        .with("features", features)
        .with("partitions", partitions)
        .with("inducing", inducing)
        .with("iterations", iterations)
        .with("minibatch", minibatch)
        .with("gamma", gamma)
        .with("samples", samples)
        .with("predictive-noise", predictiveNoise)
        .with("frequencies", frequencies)
        .with("frequency-variance", frequencyVariance)
        .with("extrapolation", extrapolation)
        .with("initial-lengthscales", initialLengthscales)
        .with("step-initial", stepInitial)
        .with("step-tau", stepTau)
        .with("step-kappa", stepKappa)
        .with("learning-rate", learningRate)
        .with("stopping", stopping)
        .with("stop-window", stopWindow)
        .with("stop-tolerance", stopTolerance)
        .with("stop-span", stopSpan)
        .with("seed", seed);
    try {
      return Registry.regression(model, given);
    } catch (SettingException e) {
      throw e.setting().equals("model")
          ? CliException.badInput("--model: " + e.problem())
          : Flags.badInput(e);
    }
  }

  /** Whether {@code --warp} asks for the warp (auto) or not (none); any other value is refused. */
  private boolean warpInputs() {
    String w = warp.strip();
    if (!"auto".equalsIgnoreCase(w) && !"none".equalsIgnoreCase(w)) {
      throw CliException.badInput("--warp must be auto or none, got '" + warp + "'");
    }
    return "auto".equalsIgnoreCase(w);
  }

  /** The command line's own flags (not model settings). */
  private void checkOptions() {
    if (traceEvery < 0) {
      throw CliException.badInput(
          "--trace-every must be >= 0 (0: no test RMSE trace), got " + traceEvery);
    }
    if (!"local".equalsIgnoreCase(engine.strip()) && chosen != SparseModel.SVBSSGP) {
      throw CliException.badInput("--engine " + engine + " is for --model svbssgp only");
    }
    if (master != null && "local".equalsIgnoreCase(engine.strip())) {
      throw CliException.badInput("--master needs --engine spark");
    }
  }
}
