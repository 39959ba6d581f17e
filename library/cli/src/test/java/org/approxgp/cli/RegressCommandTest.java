package org.approxgp.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.approxgp.data.ColumnFile;
import org.approxgp.data.RegressionData;
import org.approxgp.data.Standardizer;
import org.approxgp.inference.PredictiveMoments;
import org.approxgp.model.Registry;
import org.approxgp.sparse.BoundMonitor;
import org.approxgp.sparse.SparseRegression;
import org.approxgp.sparse.Ssgp;
import org.approxgp.sparse.TrainingRange;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code approxgp regress}: every model runs, PRED.csv is {@code mean,variance} per test row, the summary's RMSE
 * and MNLP are those of PRED.csv (paper §5), the trace has one entry per iteration, and SSGP's predictions are
 * the library's fit on TRAIN standardised with TRAIN's moments, returned in the target's units.
 */
class RegressCommandTest {
  @TempDir
  static Path dir;

  static Path train;
  static Path test;
  static Path testNoTarget;
  static double[][] xTrain;
  static double[] yTrain;
  static double[][] xTest;
  static double[] yTest;

  /** y = 40 + 5 sin(2a) + 2 cos(b) + N(0, 0.5²): a non-zero mean and a non-unit scale, so units matter. */
  @BeforeAll
  static void data() throws IOException {
    SplittableRandom rng = new SplittableRandom(11);
    xTrain = new double[300][];
    yTrain = new double[300];
    xTest = new double[80][];
    yTest = new double[80];
    fill(rng, xTrain, yTrain);
    fill(rng, xTest, yTest);
    train = dir.resolve("train.csv");
    test = dir.resolve("test.csv");
    testNoTarget = dir.resolve("test-x.csv");
    write(train, xTrain, yTrain);
    write(test, xTest, yTest);
    write(testNoTarget, xTest, null);
  }

  private static void fill(SplittableRandom rng, double[][] x, double[] y) {
    for (int i = 0; i < x.length; i++) {
      double a = rng.nextDouble(-3, 3);
      double b = rng.nextDouble(-3, 3);
      x[i] = new double[] {a, b};
      y[i] = 40 + 5 * Math.sin(2 * a) + 2 * Math.cos(b) + 0.5 * rng.nextGaussian();
    }
  }

  private static void write(Path p, double[][] x, double[] y) throws IOException {
    StringBuilder sb = new StringBuilder(y == null ? "a,b\n" : "a,b,delay\n");
    for (int i = 0; i < x.length; i++) {
      sb.append(x[i][0]).append(',').append(x[i][1]);
      if (y != null) {
        sb.append(',').append(y[i]);
      }
      sb.append('\n');
    }
    Files.writeString(p, sb.toString());
  }

  private static double[][] readPred(Path p) throws IOException {
    List<String> lines = Files.readAllLines(p);
    assertEquals("mean,variance", lines.get(0));
    double[][] r = new double[lines.size() - 1][];
    for (int i = 1; i < lines.size(); i++) {
      String[] f = lines.get(i).split(",");
      r[i - 1] = new double[] {Double.parseDouble(f[0]), Double.parseDouble(f[1])};
    }
    return r;
  }

  @ParameterizedTest
  @ValueSource(strings = {"ssgp", "vssgp", "svbssgp", "dtc", "pic"})
  void everyModelWritesPredictionsAndAConsistentSummary(String model) throws IOException {
    Path out = dir.resolve(model + ".csv");
    Path sum = dir.resolve(model + ".json");
    // each model's own settings (the registry refuses a setting a model does not take)
    List<String> args = new ArrayList<>(List.of(
        "regress",
        "--model",
        model,
        "--train",
        train.toString(),
        "--test",
        test.toString(),
        "--target",
        "delay",
        "--iterations",
        "30",
        "--seed",
        "3",
        "--out",
        out.toString(),
        "--summary",
        sum.toString()));
    // dtc, pic and svbssgp traced (every iteration), ssgp and vssgp at the default: no trace
    boolean traced = !model.equals("ssgp") && !model.equals("vssgp");
    if (traced) {
      args.addAll(List.of("--trace-every", "1"));
    }
    Map<String, String> own =
        Map.of("--features", "20", "--partitions", "6", "--inducing", "30", "--minibatch", "100");
    for (var e : own.entrySet()) {
      if (Registry.settingsOf(model).contains(e.getKey().substring(2))
          && !(model.equals("svbssgp")
              && e.getKey().equals("--minibatch"))) { // svbssgp: whole partitions
        args.add(e.getKey());
        args.add(e.getValue());
      }
    }
    AnchorFits.Run r = AnchorFits.run(args.toArray(String[]::new));
    assertEquals(0, r.code(), r.err());
    double[][] pred = readPred(out);
    assertEquals(xTest.length, pred.length);
    double sq = 0;
    double nlp = 0;
    for (int j = 0; j < pred.length; j++) {
      assertTrue(pred[j][1] > 0 && Double.isFinite(pred[j][0]), "row " + j);
      double e = yTest[j] - pred[j][0];
      sq += e * e;
      nlp += 0.5 * (Math.log(2 * Math.PI * pred[j][1]) + e * e / pred[j][1]);
    }
    JsonNode s = new ObjectMapper().readTree(sum.toFile());
    assertEquals(model, s.get("model").asText());
    // where the inducing-point models' length-scales started: each model's default
    Map<String, String> start = Map.of("dtc", "median", "pic", "unit");
    assertEquals(
        start.get(model),
        s.has("initial_lengthscales") ? s.get("initial_lengthscales").asText() : null);
    assertEquals(
        org.approxgp.experiment.CodeVersion.current(),
        s.get("code_version").asText(),
        "the build that fitted it");
    assertEquals(Math.sqrt(sq / pred.length), s.get("rmse").asDouble(), 1e-9);
    assertEquals(nlp / pred.length, s.get("mnlp").asDouble(), 1e-9);
    // a fit stops at the cap of 30 or earlier when converged (L-BFGS, the smoothed bound, SSGP's
    // held-out trace)
    int its = s.get("iterations").asInt();
    assertEquals(its, s.get("trace").size());
    assertTrue(its >= 1 && its <= 30, "iterations " + its);
    assertTrue(s.get("train_seconds").asDouble() > 0);
    // the set-up (k-means, initialisation) is reported apart from the iterations' time
    boolean separable = !model.equals("ssgp") && !model.equals("vssgp");
    assertEquals(separable, !s.get("setup_seconds").isNull(), model);
    double setup = separable ? s.get("setup_seconds").asDouble() : 0;
    assertTrue(setup >= 0 && setup < s.get("train_seconds").asDouble(), model + " set-up " + setup);
    assertTrue(s.get("load_seconds").asDouble() > 0, model);
    // per iteration: from the set-up's end to the last iteration's (the final prediction is not an
    // iteration)
    double last = s.get("trace").get(its - 1).get("seconds").asDouble();
    assertTrue(last <= s.get("train_seconds").asDouble(), model);
    assertEquals((last - setup) / its, s.get("seconds_per_iteration").asDouble(), 1e-12);
    // every model reports the same verdict and learned hyperparameters
    String reason = s.get("stop_reason").asText();
    assertEquals(
        reason.equals("converged") || reason.equals("early_stopped"),
        s.get("converged").asBoolean(),
        reason);
    assertTrue(its == 30 || !reason.equals("iteration_cap"), reason + " after " + its);
    assertTrue(
        s.get("noise_variance").asDouble() > 0 && s.get("signal_variance").asDouble() > 0, model);
    assertEquals(s.get("inputs").asInt(), s.get("lengthscales").size(), model);
    // the target's sd is ~3.8: a model that learned anything beats predicting the training mean
    assertTrue(s.get("rmse").asDouble() < 3.0, model + " rmse " + s.get("rmse"));
    if (model.equals("svbssgp")) {
      // 30 steps is below the convergence rule's minimum of 5 windows of 20: stopped by the cap,
      // and says so
      assertFalse(s.get("converged").asBoolean());
      assertEquals("iteration_cap", s.get("stop_reason").asText());
      assertTrue(s.get("trace").get(0).has("objective"));
    }
    if (traced) {
      assertTrue(s.get("trace").get(its - 1).has("rmse"), "per-iteration RMSE trace");
      assertEquals(
          s.get("rmse").asDouble(), s.get("trace").get(its - 1).get("rmse").asDouble(), 1e-9);
      assertTrue(s.get("trace_seconds").asDouble() > 0, "the trace's predictions are timed apart");
    } else {
      // the default: the objective every iteration, no test predictions, nothing spent on them
      assertFalse(s.get("trace").get(its - 1).has("rmse"), "no RMSE trace unless asked");
      assertEquals(0.0, s.get("trace_seconds").asDouble());
    }
  }

  @Test
  void ssgpIsTheLibraryFitOnStandardisedDataInTargetUnits() throws IOException {
    Path out = dir.resolve("ssgp-lib.csv");
    AnchorFits.Run r = AnchorFits.run(
        "regress",
        "--model",
        "ssgp",
        "--train",
        train.toString(),
        "--test",
        test.toString(),
        "--target",
        "delay",
        "--iterations",
        "40",
        "--features",
        "16",
        "--seed",
        "7",
        "--out",
        out.toString());
    assertEquals(0, r.code(), r.err());
    Standardizer sx = Standardizer.fit(xTrain);
    double mu = 0;
    for (double v : yTrain) {
      mu += v;
    }
    mu /= yTrain.length;
    double ss = 0;
    for (double v : yTrain) {
      ss += (v - mu) * (v - mu);
    }
    double sd = Math.sqrt(ss / (yTrain.length - 1));
    double[] ys = new double[yTrain.length];
    for (int i = 0; i < ys.length; i++) {
      ys[i] = (yTrain[i] - mu) / sd;
    }
    Ssgp fit = Ssgp.fit(
        RegressionData.of(sx.apply(xTrain), ys),
        Ssgp.Options.earlyStopped(8, 40, 7).withFixedFallback(true),
        null);
    // rows outside the training range from its edge, by the model's SE prior (the default
    // --extrapolation revert)
    TrainingRange range = TrainingRange.of(RegressionData.of(sx.apply(xTrain), ys));
    RegressionData testRows = RegressionData.of(sx.apply(xTest), null);
    Ssgp.Hyperparameters h = fit.hyperparameters();
    PredictiveMoments p = range.revert(
        testRows,
        fit.predict(range.clamp(testRows)),
        h.lengthscales(),
        h.signalVariance(),
        h.noiseVariance());
    double[][] pred = readPred(out);
    for (int j = 0; j < pred.length; j++) {
      assertEquals(mu + sd * p.mean()[j], pred[j][0], 1e-9 * Math.abs(pred[j][0]));
      assertEquals(sd * sd * p.variance()[j], pred[j][1], 1e-9 * pred[j][1]);
    }
    // and it fits: the noise sd is 0.5
    assertTrue(p.rmse(standardise(yTest, mu, sd)) * sd < 0.7);
  }

  /**
   * SSGP and VSSGP predict a test row outside the training range from its edge: by default carried towards the
   * prior ({@code --extrapolation revert}), at the edge itself ({@code clamp}), or at the row as given ({@code free});
   * rows at the edge get the same predictions under every rule, the summary counts the rows outside and names the
   * rule, and a model without the setting refuses it.
   */
  @ParameterizedTest
  @ValueSource(strings = {"ssgp", "vssgp"})
  void spectralModelsPredictTestRowsOutsideTheTrainingRangeFromItsEdge(String model)
      throws IOException {
    // the test rows, then two beyond the training range (a = 9, b = -8) and their copies at its
    // edge
    double aMax = Double.NEGATIVE_INFINITY;
    double bMin = Double.POSITIVE_INFINITY;
    double yMean = 0;
    for (int i = 0; i < xTrain.length; i++) {
      aMax = Math.max(aMax, xTrain[i][0]);
      bMin = Math.min(bMin, xTrain[i][1]);
      yMean += yTrain[i] / yTrain.length;
    }
    double[][] x = java.util.Arrays.copyOf(xTest, xTest.length + 4);
    x[xTest.length] = new double[] {9, 0.5};
    x[xTest.length + 1] = new double[] {-1, -8};
    x[xTest.length + 2] = new double[] {aMax, 0.5};
    x[xTest.length + 3] = new double[] {-1, bMin};
    Path wide = dir.resolve(model + "-wide.csv");
    write(wide, x, null);
    int inTestOutside = TrainingRange.of(RegressionData.of(xTrain, yTrain))
        .rowsOutside(RegressionData.of(xTest, null));
    String[] rules = {"revert", "clamp", "free"};
    double[][][] pred = new double[rules.length][][];
    for (int k = 0; k < rules.length; k++) {
      Path out = dir.resolve(model + "-" + rules[k] + ".csv");
      Path sum = dir.resolve(model + "-" + rules[k] + ".json");
      List<String> args = new java.util.ArrayList<>(List.of(
          "regress",
          "--model",
          model,
          "--train",
          train.toString(),
          "--test",
          wide.toString(),
          "--target",
          "delay",
          "--iterations",
          "30",
          "--features",
          "12",
          "--seed",
          "3",
          "--out",
          out.toString(),
          "--summary",
          sum.toString()));
      if (k > 0) {
        args.addAll(List.of("--extrapolation", rules[k]));
      }
      AnchorFits.Run r = AnchorFits.run(args.toArray(String[]::new));
      assertEquals(0, r.code(), r.err());
      JsonNode s = new ObjectMapper().readTree(sum.toFile());
      assertEquals(rules[k], s.get("extrapolation").asText());
      assertEquals(inTestOutside + 2, s.get("test_rows_outside").asInt());
      pred[k] = readPred(out);
    }
    int n = xTest.length;
    double[][] revert = pred[0];
    double[][] clamp = pred[1];
    double[][] free = pred[2];
    // clamp: a row beyond the range is predicted as its copy at the edge
    assertArrayEquals(clamp[n + 2], clamp[n], 0.0);
    assertArrayEquals(clamp[n + 3], clamp[n + 1], 0.0);
    for (int i = n; i < n + 2; i++) {
      // free: not so
      assertTrue(free[i][0] != free[i + 2][0], model);
      // revert: nearer the prior (the training mean) than the edge, and less sure
      assertTrue(
          Math.abs(revert[i][0] - yMean) < Math.abs(clamp[i][0] - yMean), model + " row " + i);
      assertTrue(revert[i][1] > clamp[i][1], model + " row " + i);
      // at the edge every rule predicts alike
      assertArrayEquals(clamp[i + 2], free[i + 2], 0.0);
      assertArrayEquals(clamp[i + 2], revert[i + 2], 0.0);
    }
    AnchorFits.Run refused = AnchorFits.run(
        "regress",
        "--model",
        "dtc",
        "--train",
        train.toString(),
        "--test",
        wide.toString(),
        "--target",
        "delay",
        "--extrapolation",
        "free",
        "--out",
        dir.resolve("dtc-x.csv").toString());
    assertEquals(2, refused.code());
    assertTrue(refused.err().contains("--extrapolation"), refused.err());
  }

  private static double[] standardise(double[] y, double mu, double sd) {
    double[] r = new double[y.length];
    for (int i = 0; i < y.length; i++) {
      r[i] = (y[i] - mu) / sd;
    }
    return r;
  }

  @Test
  void svbssgpRunsEveryIterationWithStoppingNoneAndOtherModelsRefuseItsOptimiserFlags()
      throws IOException {
    Path out = dir.resolve("svbssgp-none.csv");
    Path sum = dir.resolve("svbssgp-none.json");
    AnchorFits.Run r = AnchorFits.run(
        "regress",
        "--model",
        "svbssgp",
        "--train",
        train.toString(),
        "--test",
        test.toString(),
        "--target",
        "delay",
        "--partitions",
        "6",
        "--features",
        "10",
        "--iterations",
        "130",
        "--stopping",
        "none",
        "--step-initial",
        "0.3",
        "--learning-rate",
        "0.01",
        "--seed",
        "2",
        "--out",
        out.toString(),
        "--summary",
        sum.toString());
    assertEquals(0, r.code(), r.err());
    JsonNode s = new ObjectMapper().readTree(sum.toFile());
    // past the rule's five windows of 20, and still every iteration to the cap
    assertEquals(130, s.get("iterations").asInt());
    assertEquals("iteration_cap", s.get("stop_reason").asText());
    // no rule, no slope test
    assertEquals("none", s.get("stop_rule").asText());
    assertFalse(s.has("stop_slope"), s.toString());
    assertFalse(s.has("stop_slope_se"), s.toString());
    AnchorFits.Run refused = AnchorFits.run(
        "regress",
        "--model",
        "dtc",
        "--train",
        train.toString(),
        "--test",
        test.toString(),
        "--target",
        "delay",
        "--learning-rate",
        "0.01",
        "--out",
        dir.resolve("dtc-lr.csv").toString());
    assertEquals(2, refused.code());
    assertTrue(refused.err().contains("--learning-rate"), refused.err());
    assertFalse(Files.exists(dir.resolve("dtc-lr.csv")));
  }

  /**
   * Every stochastic fit takes the stopping rule from the command line and names it in the summary: dtc on
   * minibatches under the windowed-means rule with its window and tolerance, svbssgp under the default slope test;
   * a full-batch fit reports L-BFGS; ssgp, never stochastic, refuses the flag.
   */
  @Test
  void theStoppingRuleIsAFlagOfEveryStochasticFitAndTheSummaryNamesIt() throws IOException {
    JsonNode means = regressSummary(
        "dtc-means",
        "--model",
        "dtc",
        "--inducing",
        "10",
        "--minibatch",
        "20",
        "--iterations",
        "60",
        "--stopping",
        "means",
        "--stop-window",
        "10",
        "--stop-tolerance",
        "0.05");
    assertEquals("means", means.get("stop_rule").asText());
    assertEquals(10, means.get("stop_window").asInt());
    assertEquals(0.05, means.get("stop_tolerance").asDouble());
    // a small sVBSSGP fit, at the default rule and γ and with a γ set
    String[] svbssgp = {
      "--model", "svbssgp", "--partitions", "6", "--features", "10", "--iterations", "120"
    };
    JsonNode slope = regressSummary("svbssgp-slope", svbssgp);
    assertEquals("slope", slope.get("stop_rule").asText());
    assertEquals(BoundMonitor.DEFAULT_WINDOW, slope.get("stop_window").asInt());
    assertEquals(BoundMonitor.DEFAULT_TOLERANCE, slope.get("stop_tolerance").asDouble());
    // sVBSSGP's slope test spans the last two thirds of the run (SparseRegression.SVBSSGP_STOPPING)
    assertEquals(2.0 / 3, slope.get("stop_span").asDouble(), 0);
    // the slope test's evidence: its first test ran at iteration 100 (two windows of 50)
    for (String key : new String[] {"stop_slope", "stop_slope_se"}) {
      assertTrue(
          slope.get(key).isNumber() && Double.isFinite(slope.get(key).asDouble()),
          key + " " + slope.get(key));
    }
    assertTrue(slope.get("stop_slope_se").asDouble() >= 0, slope.toString());
    assertTrue(slope.get("stop_slope_iterations").asInt() >= BoundMonitor.DEFAULT_WINDOW);
    // γ of the test conditional: the leave-one-out choice on the grid, else as set
    assertEquals("leave_one_out", slope.get("gamma_rule").asText());
    assertTrue(
        java.util.Arrays.binarySearch(
                SparseRegression.GAMMA_GRID, slope.get("gamma").asDouble())
            >= 0,
        slope.toString());
    JsonNode setGamma = regressSummary(
        "svbssgp-gamma",
        java.util.stream.Stream.concat(
                java.util.Arrays.stream(svbssgp), java.util.stream.Stream.of("--gamma", "0.25"))
            .toArray(String[]::new));
    assertEquals("set", setGamma.get("gamma_rule").asText());
    assertEquals(0.25, setGamma.get("gamma").asDouble(), 0);
    // no slope test under the windowed-means rule
    assertFalse(means.has("stop_slope"), means.toString());
    assertFalse(means.has("stop_slope_se"), means.toString());
    assertFalse(means.has("stop_span"), means.toString());
    JsonNode full = regressSummary("dtc-full", "--model", "dtc", "--inducing", "10");
    assertEquals("lbfgs", full.get("stop_rule").asText());
    JsonNode unit = regressSummary(
        "dtc-unit", "--model", "dtc", "--inducing", "10", "--initial-lengthscales", "unit");
    assertEquals("unit", unit.get("initial_lengthscales").asText());
    assertNotEquals(full.get("rmse").asDouble(), unit.get("rmse").asDouble(), "another start");
    assertFalse(full.has("stop_slope"), full.toString());
    // VSSGP's own fit (--frequencies learned), full batch: L-BFGS's tests and the slope test on the
    // exact bound; a means rule is not applied there
    JsonNode vssgp = regressSummary(
        "vssgp-s0",
        "--model",
        "vssgp",
        "--features",
        "10",
        "--frequency-variance",
        "1e-6",
        "--frequencies",
        "learned");
    assertEquals(1e-6, vssgp.get("frequency_variance").asDouble(), 0);
    assertEquals("lbfgs_slope", vssgp.get("stop_rule").asText());
    assertEquals(BoundMonitor.DEFAULT_SPAN, vssgp.get("stop_span").asDouble(), 0);
    assertTrue(vssgp.has("stop_slope"), vssgp.toString());
    assertFalse(vssgp.has("candidate"), vssgp.toString());
    JsonNode vssgpMeans = regressSummary(
        "vssgp-means",
        "--model",
        "vssgp",
        "--features",
        "10",
        "--stopping",
        "means",
        "--frequencies",
        "learned");
    assertEquals("lbfgs", vssgpMeans.get("stop_rule").asText());
    assertFalse(vssgpMeans.has("stop_window"), vssgpMeans.toString());
    // the held-out choice (the default) names its candidate, and the stop rule is that fit's own
    JsonNode chosen = regressSummary("vssgp-chosen", "--model", "vssgp", "--features", "10");
    String rule = switch (chosen.get("candidate").asText()) {
      case "vssgp" -> "lbfgs_slope";
      case "vssgp_from_ssgp" -> "lbfgs_held_out";
      case "fixed_frequencies" -> "lbfgs";
      default -> "not a candidate: " + chosen.get("candidate");
    };
    assertEquals(rule, chosen.get("stop_rule").asText(), chosen.toString());
    assertEquals(rule.equals("lbfgs_slope"), chosen.has("stop_slope"), chosen.toString());
    assertFalse(unit.has("frequency_variance"), unit.toString());
    AnchorFits.Run refused = AnchorFits.run(
        "regress",
        "--model",
        "ssgp",
        "--train",
        train.toString(),
        "--test",
        test.toString(),
        "--target",
        "delay",
        "--stopping",
        "slope",
        "--out",
        dir.resolve("ssgp-slope.csv").toString());
    assertEquals(2, refused.code());
    assertTrue(refused.err().contains("--stopping"), refused.err());
  }

  /** The summary of {@code regress} on the shared train and test files with {@code flags}. */
  private static JsonNode regressSummary(String name, String... flags) throws IOException {
    Path sum = dir.resolve(name + ".json");
    List<String> args = new ArrayList<>(List.of(
        "regress",
        "--train",
        train.toString(),
        "--test",
        test.toString(),
        "--target",
        "delay",
        "--seed",
        "2",
        "--out",
        dir.resolve(name + ".csv").toString(),
        "--summary",
        sum.toString()));
    args.addAll(List.of(flags));
    AnchorFits.Run r = AnchorFits.run(args.toArray(String[]::new));
    assertEquals(0, r.code(), r.err());
    return new ObjectMapper().readTree(sum.toFile());
  }

  @Test
  void withoutTestTargetsThereIsNoRmse() throws IOException {
    Path out = dir.resolve("nt.csv");
    Path sum = dir.resolve("nt.json");
    AnchorFits.Run r = AnchorFits.run(
        "regress",
        "--model",
        "dtc",
        "--train",
        train.toString(),
        "--test",
        testNoTarget.toString(),
        "--target",
        "delay",
        "--iterations",
        "5",
        "--inducing",
        "20",
        "--out",
        out.toString(),
        "--summary",
        sum.toString());
    assertEquals(0, r.code(), r.err());
    JsonNode s = new ObjectMapper().readTree(sum.toFile());
    assertFalse(s.has("rmse"));
    assertFalse(s.get("trace").get(4).has("rmse"));
    assertEquals(xTest.length, readPred(out).length);
  }

  /**
   * {@code --predictive-noise model} is the paper's predictive: the same fit (same seed) as the default's local
   * noise, the same partitions, but other variances, and the summary names the choice; an unknown word exits 2.
   */
  @Test
  void predictiveNoiseChoosesTheLocalOrTheModelsNoise() throws IOException {
    double[][][] pred = new double[2][][];
    String[] words = {"local", "model"};
    for (int c = 0; c < 2; c++) {
      Path out = dir.resolve("pn-" + words[c] + ".csv");
      Path sum = dir.resolve("pn-" + words[c] + ".json");
      List<String> args = new ArrayList<>(List.of(
          "regress",
          "--model",
          "svbssgp",
          "--train",
          train.toString(),
          "--test",
          test.toString(),
          "--target",
          "delay",
          "--iterations",
          "20",
          "--partitions",
          "2",
          "--features",
          "10",
          "--seed",
          "3",
          "--out",
          out.toString(),
          "--summary",
          sum.toString()));
      if (c == 1) {
        args.addAll(List.of("--predictive-noise", "model"));
      }
      AnchorFits.Run r = AnchorFits.run(args.toArray(String[]::new));
      assertEquals(0, r.code(), r.err());
      JsonNode s = new ObjectMapper().readTree(sum.toFile());
      assertEquals(words[c], s.get("predictive_noise").asText());
      pred[c] = readPred(out);
    }
    boolean differ = false;
    for (int i = 0; i < pred[0].length; i++) {
      differ |= pred[0][i][1] != pred[1][i][1];
    }
    assertTrue(differ, "local and model noise gave the same variances");
    AnchorFits.Run bad = AnchorFits.run(
        "regress",
        "--model",
        "svbssgp",
        "--train",
        train.toString(),
        "--test",
        test.toString(),
        "--target",
        "delay",
        "--predictive-noise",
        "global",
        "--out",
        dir.resolve("pn-bad.csv").toString());
    assertEquals(2, bad.code());
    assertTrue(bad.err().contains("predictive-noise"), bad.err());
    assertFalse(Files.exists(dir.resolve("pn-bad.csv")));
  }

  /**
   * The rows as an approxgp column file: a, b, then the target (unless null); with {@code swapped}, b before a
   * (a reader must go by name).
   */
  private static Path columnFile(String name, double[][] x, double[] y, boolean swapped) {
    double[] a = new double[x.length];
    double[] b = new double[x.length];
    for (int i = 0; i < x.length; i++) {
      a[i] = x[i][0];
      b[i] = x[i][1];
    }
    List<ColumnFile.Column> cols = new java.util.ArrayList<>();
    cols.add(ColumnFile.Column.ofDoubles(swapped ? "b" : "a", swapped ? b : a));
    cols.add(ColumnFile.Column.ofDoubles(swapped ? "a" : "b", swapped ? a : b));
    if (y != null) {
      cols.add(ColumnFile.Column.ofDoubles("delay", y));
    }
    Path p = dir.resolve(name);
    new ColumnFile(x.length, cols, java.util.Map.of()).write(p);
    return p;
  }

  @Test
  void columnFilesGiveTheSamePredictionsAsCsv() throws IOException {
    Path trainCols = columnFile("train.apc", xTrain, yTrain, false);
    Path testCols = columnFile("test.apc", xTest, null, true);
    Path outCsv = dir.resolve("from-csv.csv");
    Path outCols = dir.resolve("from-cols.csv");
    Path sumCols = dir.resolve("from-cols.json");
    String[] common = {
      "regress",
      "--model",
      "svbssgp",
      "--target",
      "delay",
      "--iterations",
      "20",
      "--features",
      "10",
      "--seed",
      "2"
    };
    AnchorFits.Run a = AnchorFits.run(concat(
        common,
        "--train",
        train.toString(),
        "--test",
        testNoTarget.toString(),
        "--out",
        outCsv.toString()));
    assertEquals(0, a.code(), a.err());
    AnchorFits.Run b = AnchorFits.run(concat(
        common,
        "--train",
        trainCols.toString(),
        "--test",
        testCols.toString(),
        "--out",
        outCols.toString(),
        "--summary",
        sumCols.toString()));
    assertEquals(0, b.code(), b.err());
    // same rows in the same column order, the same standardisation: the same bits
    assertEquals(Files.readString(outCsv), Files.readString(outCols));
    JsonNode s = new ObjectMapper().readTree(sumCols.toFile());
    assertTrue(s.get("lengthscales").has("a") && s.get("lengthscales").has("b"), s.toString());
    assertEquals(xTrain.length, s.get("n_train").asInt());
    // a test file without a training feature: one line, exit 2, nothing written
    Path bad = dir.resolve("bad.apc");
    new ColumnFile(
            2, List.of(ColumnFile.Column.ofDoubles("a", new double[] {1, 2})), java.util.Map.of())
        .write(bad);
    Path outBad = dir.resolve("bad-out.csv");
    AnchorFits.Run c = AnchorFits.run(concat(
        common,
        "--train",
        trainCols.toString(),
        "--test",
        bad.toString(),
        "--out",
        outBad.toString()));
    assertEquals(2, c.code(), c.err());
    assertTrue(c.err().contains("missing"), c.err());
    assertFalse(Files.exists(outBad));
  }

  private static String[] concat(String[] a, String... b) {
    String[] r = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, r, a.length, b.length);
    return r;
  }
}
