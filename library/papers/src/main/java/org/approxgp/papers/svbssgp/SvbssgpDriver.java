package org.approxgp.papers.svbssgp;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.approxgp.data.RegressionData;
import org.approxgp.data.RegressionSplits;
import org.approxgp.inference.PredictiveMoments;
import org.approxgp.model.Registry;
import org.approxgp.sparse.KMeans;
import org.approxgp.sparse.PartitionGradientsProvider;
import org.approxgp.sparse.SparseRegression;
import org.approxgp.sparse.Svbssgp;

/**
 * Trains one of the sVBSSGP paper's five models (Hoang, Hoang &amp; Low 2017, §5: sVBSSGP, DTC++, PIC++,
 * SSGP, VSSGP) on one standardised 95/5 split and records the test RMSE and MNLP (§5's definitions, in the
 * target's original units) after every {@code traceEvery}-th iteration and the last, with the training
 * seconds so far (the time spent predicting for the trace is excluded). The same model set-up as
 * {@code approxgp regress}: k-means partitions and inducing inputs, SE-ARD at unit length-scales for
 * DTC++/PIC++ (learned), full batch for VSSGP, DTC++ and PIC++ while the data fit the work budget
 * ({@link #FULL_BATCH_WORK}), else minibatches of min(1000, n) rows (VSSGP, DTC++) or 10 partitions (PIC++).
 *
 * <p>SSGP and VSSGP have no stepping trainer: they are traced through their {@code SnapshotListener}; SSGP's
 * L-BFGS (and VSSGP's, when the minibatch covers all rows) may stop early, and its last trace point is then its
 * final iterate.
 */
public final class SvbssgpDriver {

  /** The five models, by the names {@code approxgp regress --model} uses. */
  public static final List<String> METHODS = SvbssgpPaper.METHODS;

  private SvbssgpDriver() {}

  /**
   * One run's settings.
   *
   * @param method       svbssgp, dtc, pic, ssgp or vssgp
   * @param features     2m basis functions (ssgp, vssgp, svbssgp), even
   * @param partitions   k-means partitions p (svbssgp, pic)
   * @param inducing     inducing inputs, k-means centroids (dtc, pic)
   * @param iterations   iterations t
   * @param gamma        sVBSSGP's γ of the test conditional (Proposition 1)
   * @param samples      sVBSSGP's r samples of q(α) for the predictive (§4.2)
   * @param traceEvery   evaluate the test metrics every this many iterations (and at the last)
   * @param traceBlocks  0: the trace's test metrics on every test row; k &gt; 0: on the test rows of k seeded
   *                     partitions of the k-means partitions ({@link SparseRegression#testPartitions}, the same for
   *                     every method), so that a trace point costs PIC++ k blocks instead of all p; the final
   *                     metrics are on every test row either way
   * @param leaky        partitions by {@link KMeans#fitLeaky} (inputs and outputs of training and test rows,
   *                     the authors' code) instead of k-means on the training inputs only
   * @param kmeansSample rows k-means is fitted on (0: all training rows; then every row is assigned)
   * @param seed         seed of k-means and of the model's random draws
   */
  public record Settings(
      String method,
      int features,
      int partitions,
      int inducing,
      int iterations,
      double gamma,
      int samples,
      int traceEvery,
      int traceBlocks,
      boolean leaky,
      int kmeansSample,
      long seed) {

    public Settings {
      if (traceEvery < 1 || traceBlocks < 0 || kmeansSample < 0) {
        throw new IllegalArgumentException(
            "need traceEvery >= 1, traceBlocks >= 0 and kmeansSample >= 0, got " + traceEvery + ", "
                + traceBlocks + ", " + kmeansSample);
      }
      if (traceBlocks > partitions) {
        throw new IllegalArgumentException(
            "traceBlocks = " + traceBlocks + " exceeds the " + partitions + " partitions");
      }
      options(
          method, features, partitions, inducing, iterations, gamma, samples, seed); // validates
    }

    /**
     * The model's settings in the family's terms, through the one registry ({@link Registry#regression}): the
     * settings the model takes, its minibatch at the family's default, for sVBSSGP the paper's predictive
     * (Proposition 1 with the model's σ_n², as its experiments report it), and for SSGP and VSSGP their own learned
     * frequencies, predicting at the test rows as given (the methods the paper compares).
     */
    public SparseRegression.Options options() {
      return options(method, features, partitions, inducing, iterations, gamma, samples, seed);
    }

    private static SparseRegression.Options options(
        String method,
        int features,
        int partitions,
        int inducing,
        int iterations,
        double gamma,
        int samples,
        long seed) {
      org.approxgp.model.Settings all = org.approxgp.model.Settings.of(
          "features", features,
          "partitions", partitions,
          "inducing", inducing,
          "iterations", iterations,
          "gamma", gamma,
          "samples", samples,
          "predictive-noise", "model",
          "frequencies", "learned",
          "extrapolation", "free",
          "initial-lengthscales", "unit",
          "frequency-variance", 0.01,
          "seed", seed);
      // the stochastic fits stop by the rule the shipped stores were computed with, Stan ADVI's
      // windowed means
      // (windows of 20 and a relative tolerance of 0.01 for sVBSSGP; 50 and 0.001 for the others),
      // not the
      // family's default slope test (BoundMonitor), so that the stored trials stay reproducible
      boolean svb = method.equals("svbssgp");
      all = all.with("stopping", "means")
          .with("stop-window", svb ? 20 : 50)
          .with("stop-tolerance", svb ? 0.01 : 1e-3);
      // sVBSSGP steps by the library's schedule and Adam rate (SvbssgpOptions.defaults()),
      // which the stores were computed with, not regress's more slowly decaying default
      // (SvbssgpSteps.NATURAL_STEP); the other methods do not take these settings: dropped below
      org.approxgp.sparse.StepSchedule step =
          org.approxgp.sparse.SvbssgpOptions.DEFAULT_NATURAL_STEP;
      all = all.with("step-initial", step.initial())
          .with("step-tau", step.tau())
          .with("step-kappa", step.kappa())
          .with("learning-rate", org.approxgp.sparse.SvbssgpOptions.defaults().learningRate());
      return Registry.regression(method, all.restrictedTo(Registry.settingsOf(method)));
    }

    /** The partitioning: honest k-means, on a sample of {@code kmeansSample} rows if &gt; 0, or leaky. */
    SparseRegression.Partitioning partitioning(RegressionData test) {
      return new SparseRegression.Partitioning(leaky, leaky ? test : null, kmeansSample);
    }
  }

  /**
   * A run's trace: at each recorded iteration, test RMSE and MNLP (target units) on the trace's test rows and
   * training seconds so far; and the final model's RMSE and MNLP on every test row.
   *
   * @param iterations recorded iterations, ascending, the last one = the run's iteration count
   * @param partitionSizes training rows per partition (empty for ssgp, vssgp, dtc)
   * @param setupSeconds the seconds of {@code seconds} spent before the first iteration (k-means,
   *     initialisation; {@link Fitted#setupSeconds}), NaN for ssgp and vssgp
   * @param traceRows the test rows {@code rmse} and {@code mnlp} are on (all of them unless
   *     {@link Settings#traceBlocks} &gt; 0)
   * @param finalRmse RMSE of the final model on every test row
   * @param finalMnlp MNLP of the final model on every test row
   */
  public record Trace(
      int[] iterations,
      double[] rmse,
      double[] mnlp,
      double[] seconds,
      int[] partitionSizes,
      double setupSeconds,
      int traceRows,
      double finalRmse,
      double finalMnlp) {
    public Trace {
      iterations = iterations.clone();
      rmse = rmse.clone();
      mnlp = mnlp.clone();
      seconds = seconds.clone();
      partitionSizes = partitionSizes.clone();
    }

    @Override
    public int[] iterations() {
      return iterations.clone();
    }

    @Override
    public double[] rmse() {
      return rmse.clone();
    }

    @Override
    public double[] mnlp() {
      return mnlp.clone();
    }

    @Override
    public double[] seconds() {
      return seconds.clone();
    }

    @Override
    public int[] partitionSizes() {
      return partitionSizes.clone();
    }

    /** Training seconds of the whole run. */
    public double trainSeconds() {
      return seconds[seconds.length - 1];
    }
  }

  /**
   * Trains {@code s.method()} on {@code data.train()} and traces its test metrics on {@code data.test()}
   * (whose targets must be known; both standardised by {@link RegressionSplits#standardize}, target too).
   */
  public static Trace run(RegressionSplits.Standardized data, Settings s) {
    RegressionData test = data.test();
    if (!test.hasTargets()) {
      throw new IllegalArgumentException("the test rows need targets for RMSE and MNLP");
    }
    int[] rows = s.traceBlocks() == 0 ? null : traceRows(data.train(), test, s);
    RegressionData traced = rows == null ? test : test.subset(rows);
    Recorder rec = new Recorder(data, traced, s);
    Fitted f = fit(
        data.train(),
        test,
        s,
        (it, objective, prediction) -> rec.maybe(it, prediction),
        null,
        traced);
    PredictiveMoments all = f.prediction();
    rec.last(f.iterations(), () -> rows == null ? all : all.subset(rows));
    return rec.trace(f.partitionSizes(), f.setupSeconds(), all);
  }

  /**
   * The test rows of {@code s.traceBlocks()} partitions drawn with the run's seed (ascending): the partitions
   * are those sVBSSGP and PIC++ build with the same settings ({@link SparseRegression#testPartitions}), so PIC++
   * predicts them from that many local blocks. Partitions with no test row are never drawn; if fewer than
   * {@code traceBlocks} have test rows, all of them are.
   */
  static int[] traceRows(RegressionData train, RegressionData test, Settings s) {
    // p and the seed as sVBSSGP and PIC++ take them (the other models' options carry no partitions)
    int[] label = SparseRegression.testPartitions(
        train, test, s.partitions(), s.seed(), s.partitioning(test));
    int p = s.partitions();
    boolean[] occupied = new boolean[p];
    for (int c : label) {
      occupied[c] = true;
    }
    int[] ids = java.util.stream.IntStream.range(0, p).filter(c -> occupied[c]).toArray();
    // partial Fisher–Yates shuffle of the occupied partitions with the run's seed
    java.util.SplittableRandom rng = new java.util.SplittableRandom(s.seed() ^ 0x7ace_b10cL);
    int k = Math.min(s.traceBlocks(), ids.length);
    boolean[] chosen = new boolean[p];
    for (int i = 0; i < k; i++) {
      int j = i + rng.nextInt(ids.length - i);
      int t = ids[i];
      ids[i] = ids[j];
      ids[j] = t;
      chosen[ids[i]] = true;
    }
    return java.util.stream.IntStream.range(0, label.length)
        .filter(i -> chosen[label[i]])
        .toArray();
  }

  /**
   * Told after every iteration of {@link #fit}: the iteration (1-based), the method's objective after it (log
   * marginal likelihood for SSGP, a bound or its stochastic estimate otherwise; NaN if not computed), and the
   * current model's standardised test prediction, computed only if {@code prediction.get()} is called (valid
   * during the call only).
   */
  @FunctionalInterface
  public interface Observer {
    void onIteration(int iteration, double objective, Supplier<PredictiveMoments> prediction);
  }

  /**
   * A finished fit.
   *
   * @param prediction the final model's prediction for the test rows (standardised scale)
   * @param iterations iterations done (the L-BFGS fits and the stochastic fits' stopping rules may stop before
   *     {@code Settings.iterations()})
   * @param partitionSizes training rows per partition (empty for ssgp, vssgp, dtc)
   * @param svbssgp the fitted sVBSSGP model (its convergence verdict, stop reason, learned hyperparameters and bound
   *     trace), or null for the other methods
   * @param outcome the convergence verdict and learned hyperparameters, for every method
   * @param setupSeconds seconds before the first iteration: k-means (partitions, inducing inputs) and the
   *     model's initialisation (svbssgp, dtc, pic); NaN for ssgp and vssgp, whose set-up is not separable
   *     from their optimiser
   */
  public record Fitted(
      PredictiveMoments prediction,
      int iterations,
      int[] partitionSizes,
      Svbssgp svbssgp,
      SparseRegression.Outcome outcome,
      double setupSeconds) {
    public Fitted {
      partitionSizes = partitionSizes.clone();
    }

    @Override
    public int[] partitionSizes() {
      return partitionSizes.clone();
    }
  }

  /**
   * Sets up and trains {@code s.method()} on {@code train} (standardised inputs and target) through the family's
   * one entry ({@link SparseRegression#start}: the same set-up as {@code approxgp regress}) and predicts
   * {@code test} (targets needed only for {@code s.leaky()} partitions).
   */
  public static Fitted fit(
      RegressionData train, RegressionData test, Settings s, Observer observer) {
    return fit(train, test, s, observer, null);
  }

  /**
   * As {@link #fit(RegressionData, RegressionData, Settings, Observer)}, sVBSSGP's data terms summed by the
   * strategy {@code gradients} builds (null: in this JVM; ignored by the other methods).
   */
  public static Fitted fit(
      RegressionData train,
      RegressionData test,
      Settings s,
      Observer observer,
      PartitionGradientsProvider.Factory gradients) {
    return fit(train, test, s, observer, gradients, test);
  }

  /** As above, the observer's predictions for the rows {@code traced} (the final one for all of {@code test}). */
  private static Fitted fit(
      RegressionData train,
      RegressionData test,
      Settings s,
      Observer observer,
      PartitionGradientsProvider.Factory gradients,
      RegressionData traced) {
    try (SparseRegression.Trainer t =
        SparseRegression.start(train, s.options(), s.partitioning(test), gradients)) {
      while (t.step()) {
        observer.onIteration(t.iteration(), t.objective(), () -> t.snapshot().predict(traced));
      }
      SparseRegression.Fit f = t.snapshot();
      return new Fitted(
          f.predict(test),
          t.iteration(),
          t.partitionSizes(),
          f.svbssgp(),
          f.outcome(),
          t.setupSeconds());
    }
  }

  /** Collects trace points; the time spent predicting is excluded from the training seconds. */
  private static final class Recorder {
    private final RegressionSplits.Standardized data;
    private final Settings s;
    private final double[] yTest;
    private final long t0 = System.nanoTime();
    private double predictSeconds;
    private final List<Integer> its = new ArrayList<>();
    private final List<double[]> points = new ArrayList<>(); // rmse, mnlp, seconds

    Recorder(RegressionSplits.Standardized data, RegressionData traced, Settings s) {
      this.data = data;
      this.s = s;
      yTest = targets(data, traced);
    }

    /** The targets of {@code rows} in target units. */
    private static double[] targets(RegressionSplits.Standardized data, RegressionData rows) {
      double[] y = rows.y();
      double[] u = new double[y.length];
      for (int j = 0; j < y.length; j++) {
        u[j] = data.mean(y[j]);
      }
      return u;
    }

    /** Records iteration {@code it} if it is a trace point (every traceEvery-th and the last). */
    void maybe(int it, Supplier<PredictiveMoments> predict) {
      if (it % s.traceEvery() == 0 || it == s.iterations()) {
        at(it, predict);
      }
    }

    /**
     * Records the final model of a fit that may stop before {@code s.iterations()} (L-BFGS convergence), unless
     * that iteration is already recorded.
     */
    void last(int it, Supplier<PredictiveMoments> predict) {
      if (its.isEmpty() || its.get(its.size() - 1) != it) {
        at(Math.max(it, 1), predict);
      }
    }

    /** Records iteration {@code it}; the prediction's time (and building its model) is not training time. */
    private void at(int it, Supplier<PredictiveMoments> predict) {
      double seconds = elapsed();
      long p0 = System.nanoTime();
      PredictiveMoments p = predict.get();
      predictSeconds += (System.nanoTime() - p0) * 1e-9;
      add(it, p, seconds);
    }

    private double elapsed() {
      return (System.nanoTime() - t0) * 1e-9 - predictSeconds;
    }

    private void add(int it, PredictiveMoments p, double seconds) {
      PredictiveMoments u = units(p);
      its.add(it);
      points.add(new double[] {u.rmse(yTest), u.mnlp(yTest), seconds});
    }

    /** Maps the standardised prediction to target units (mean yMean + yScale·m, variance yScale²·v). */
    private PredictiveMoments units(PredictiveMoments p) {
      double[] mean = p.mean().clone();
      double[] var = p.variance().clone();
      for (int j = 0; j < mean.length; j++) {
        mean[j] = data.mean(mean[j]);
        var[j] = data.variance(var[j]);
      }
      return new PredictiveMoments(mean, var);
    }

    /** The trace, with the final metrics of {@code all}, the final model's prediction for every test row. */
    Trace trace(int[] sizes, double setupSeconds, PredictiveMoments all) {
      int k = its.size();
      int[] it = new int[k];
      double[] r = new double[k];
      double[] m = new double[k];
      double[] sec = new double[k];
      for (int i = 0; i < k; i++) {
        it[i] = its.get(i);
        r[i] = points.get(i)[0];
        m[i] = points.get(i)[1];
        sec[i] = points.get(i)[2];
      }
      PredictiveMoments u = units(all);
      double[] y = targets(data, data.test());
      return new Trace(it, r, m, sec, sizes, setupSeconds, yTest.length, u.rmse(y), u.mnlp(y));
    }
  }
}
