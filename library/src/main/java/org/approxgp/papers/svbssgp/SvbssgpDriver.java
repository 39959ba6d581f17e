package org.approxgp.papers.svbssgp;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;
import org.approxgp.data.RegressionData;
import org.approxgp.data.RegressionSplits;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.sparse.BoundMonitor;
import org.approxgp.sparse.Dtc;
import org.approxgp.sparse.KMeans;
import org.approxgp.sparse.Pic;
import org.approxgp.sparse.RegressionPrediction;
import org.approxgp.sparse.Ssgp;
import org.approxgp.sparse.PartitionGradientsProvider;
import org.approxgp.sparse.Svbssgp;
import org.approxgp.sparse.Vssgp;

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

  private SvbssgpDriver() {
  }

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
   * @param leaky        partitions by {@link KMeans#fitLeaky} (inputs and outputs of training and test rows,
   *                     the authors' code) instead of k-means on the training inputs only
   * @param kmeansSample rows k-means is fitted on (0: all training rows; then every row is assigned)
   * @param seed         seed of k-means and of the model's random draws
   * @param minibatch    rows per step for vssgp and dtc, rows per sampled partition for svbssgp; −1: the
   *                     defaults (full batch within {@link #FULL_BATCH_WORK}, else min(1000, n) for vssgp and
   *                     dtc; {@link #defaultSvbssgpMinibatch} for svbssgp); 0 is allowed for svbssgp only (whole
   *                     partitions)
   */
  public record Settings(String method, int features, int partitions, int inducing, int iterations, double gamma,
      int samples, int traceEvery, boolean leaky, int kmeansSample, long seed, int minibatch) {

    /** Settings with the default minibatches. */
    public Settings(String method, int features, int partitions, int inducing, int iterations, double gamma,
        int samples, int traceEvery, boolean leaky, int kmeansSample, long seed) {
      this(method, features, partitions, inducing, iterations, gamma, samples, traceEvery, leaky, kmeansSample, seed,
          -1);
    }

    public Settings {
      if (minibatch < -1 || (minibatch == 0 && !"svbssgp".equals(method))) {
        throw new IllegalArgumentException("minibatch must be >= 1, or -1 for the default (0 = whole partitions, "
            + "svbssgp only), got " + minibatch);
      }
      if (!METHODS.contains(method)) {
        throw new IllegalArgumentException("unknown method '" + method + "'; known: " + METHODS);
      }
      if (features < 2 || features % 2 != 0 || partitions < 1 || inducing < 1 || iterations < 1 || samples < 1
          || traceEvery < 1 || kmeansSample < 0) {
        throw new IllegalArgumentException("bad settings " + Arrays.asList(features, partitions, inducing,
            iterations, samples, traceEvery, kmeansSample));
      }
    }
  }

  /**
   * A run's trace: at each recorded iteration, test RMSE and MNLP (target units) and training seconds so far.
   *
   * @param iterations recorded iterations, ascending, the last one = the run's iteration count
   * @param partitionSizes training rows per partition (empty for ssgp, vssgp, dtc)
   * @param setupSeconds the seconds of {@code seconds} spent before the first iteration (k-means,
   *     initialisation; {@link Fitted#setupSeconds}), NaN for ssgp and vssgp
   */
  public record Trace(int[] iterations, double[] rmse, double[] mnlp, double[] seconds, int[] partitionSizes,
      double setupSeconds) {
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

    /** RMSE after the last iteration. */
    public double finalRmse() {
      return rmse[rmse.length - 1];
    }

    /** MNLP after the last iteration. */
    public double finalMnlp() {
      return mnlp[mnlp.length - 1];
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
    Recorder rec = new Recorder(data, s);
    Fitted f = fit(data.train(), test, s, (it, objective, prediction) -> rec.maybe(it, prediction));
    rec.last(f.iterations(), f::prediction);
    return rec.trace(f.partitionSizes(), f.setupSeconds());
  }

  /**
   * Told after every iteration of {@link #fit}: the iteration (1-based), the method's objective after it (log
   * marginal likelihood for SSGP, a bound or its stochastic estimate otherwise; NaN if not computed), and the
   * current model's standardised test prediction, computed only if {@code prediction.get()} is called (valid
   * during the call only).
   */
  @FunctionalInterface
  public interface Observer {
    void onIteration(int iteration, double objective, Supplier<RegressionPrediction> prediction);
  }

  /**
   * What every fit reports beside its prediction: whether it converged, why it stopped, and the learned
   * hyperparameters on the standardised scale it was fitted on.
   *
   * @param converged the fit met its stopping rule: L-BFGS's convergence tests, the smoothed bound's (stochastic
   *     fits), or SSGP's held-out early stopping
   * @param stopReason why it stopped
   * @param noiseVariance σₙ²
   * @param signalVariance σ² (the SE kernel's; SSGP's and VSSGP's prior scale of the weights times m)
   * @param lengthscales ℓ, one per input
   */
  public record Outcome(boolean converged, BoundMonitor.StopReason stopReason, double noiseVariance,
      double signalVariance, double[] lengthscales) {
    public Outcome {
      lengthscales = lengthscales.clone();
    }

    @Override
    public double[] lengthscales() {
      return lengthscales.clone();
    }

    static Outcome of(BoundMonitor.StopReason reason, Ssgp.Hyperparameters h) {
      return new Outcome(reason.metStoppingRule(), reason, h.noiseVariance(), h.signalVariance(),
          h.lengthscales());
    }

    static Outcome of(BoundMonitor.StopReason reason, SquaredExponential k, double noise) {
      double[] ell = k.lengthscales();
      return new Outcome(reason.metStoppingRule(), reason, noise, k.signalVariance(), ell);
    }
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
  public record Fitted(RegressionPrediction prediction, int iterations, int[] partitionSizes, Svbssgp svbssgp,
      Outcome outcome, double setupSeconds) {
    public Fitted {
      partitionSizes = partitionSizes.clone();
    }

    @Override
    public int[] partitionSizes() {
      return partitionSizes.clone();
    }
  }

  /**
   * Rows up to which VSSGP, DTC++ and PIC++ fit in full batch by default (L-BFGS on the collapsed bound, converging
   * to a stationary point) rather than by stochastic steps: each L-BFGS evaluation makes a pass over all n rows
   * costing about n·k² multiply-adds for k = 2m features or M inducing points (PIC++'s small blocks add little), so
   * the budget is on n·k²: {@value #FULL_BATCH_WORK} (at M = 250, 3,200 rows; at 2m = 40, 250,000 rows; at most a
   * few hundred evaluations, seconds to a few minutes on two cores).
   */
  public static final double FULL_BATCH_WORK = 2e8;

  /**
   * Training rows per k-means partition at which the default partition count starts to grow with n: the sVBSSGP
   * paper's AIRLINE setting, p = 2,000 partitions of 2M rows (§5).
   */
  public static final int PARTITION_ROWS = 1000;

  /** Partitions below which the default count does not go while n allows 20 rows each. */
  public static final int MIN_PARTITIONS = 200;

  /**
   * The default partition count: min(200, n/20) (at least 1) up to 200,000 rows, then ⌈n / {@value
   * #PARTITION_ROWS}⌉, so that partitions keep the paper's size as n grows (p = 3,000 at 3M rows).
   */
  public static int defaultPartitions(int n) {
    int small = Math.max(1, Math.min(MIN_PARTITIONS, n / 20));
    return Math.max(small, (int) ((n + (long) PARTITION_ROWS - 1) / PARTITION_ROWS));
  }

  /**
   * Rows of each drawn partition that an sVBSSGP step reads by default once partitions are larger: the mean
   * partition size at 10,000 rows and p = 200 (below that, steps read whole partitions, as before).
   */
  public static final int SVBSSGP_ROWS_PER_PARTITION = 50;

  /**
   * sVBSSGP's default rows per drawn partition B: 0 (whole partitions, the paper's Theorem 1) while the mean
   * partition size n/p is at most {@value #SVBSSGP_ROWS_PER_PARTITION}, else {@value #SVBSSGP_ROWS_PER_PARTITION}
   * (an unbiased minibatch, rows weighted by |X_i|/B): a step then reads at most a·B rows whatever n, so its cost
   * is constant in n.
   */
  public static int defaultSvbssgpMinibatch(int n, int p) {
    return n <= (long) SVBSSGP_ROWS_PER_PARTITION * p ? 0 : SVBSSGP_ROWS_PER_PARTITION;
  }

  /**
   * Rows of the seeded sample that k-means is fitted on by default ({@link KMeans#fit(RegressionData, int, long,
   * int, int)}; every row is then assigned to its nearest centroid): all rows up to this many.
   */
  public static final int KMEANS_SAMPLE = 100_000;

  /** Whether the default fit of {@code method} on n rows with k features or inducing points is full batch. */
  public static boolean fullBatchByDefault(String method, int n, int k) {
    return (double) n * k * k <= FULL_BATCH_WORK || "ssgp".equals(method);
  }

  /**
   * Sets up and trains {@code s.method()} on {@code train} (standardised inputs and target) as the sVBSSGP paper's
   * experiments do — k-means partitions and inducing inputs, SE-ARD at unit length-scales for DTC++/PIC++ — and
   * predicts {@code test} (targets needed only for {@code s.leaky()} partitions). The one place where the five
   * models are configured: {@link #run} and {@code approxgp regress} both call it.
   */
  public static Fitted fit(RegressionData train, RegressionData test, Settings s, Observer observer) {
    return fit(train, test, s, observer, null);
  }

  /**
   * As {@link #fit(RegressionData, RegressionData, Settings, Observer)}, sVBSSGP's data terms summed by the
   * strategy {@code gradients} builds (null: in this JVM; ignored by the other methods).
   */
  public static Fitted fit(RegressionData train, RegressionData test, Settings s, Observer observer,
      PartitionGradientsProvider.Factory gradients) {
    int n = train.n();
    if (s.partitions() > n || s.inducing() > n) {
      throw new IllegalArgumentException("p = " + s.partitions() + " or M = " + s.inducing() + " exceeds the "
          + n + " training rows");
    }
    int k = "dtc".equals(s.method()) || "pic".equals(s.method()) ? s.inducing() : s.features();
    boolean full = s.minibatch() > 0 ? s.minibatch() >= n : fullBatchByDefault(s.method(), n, k);
    int b = full ? n : s.minibatch() > 0 ? s.minibatch() : Math.min(1000, n);
    switch (s.method()) {
      case "ssgp" -> {
        double[] objective = {Double.NaN};
        Ssgp fit = Ssgp.fit(train, Ssgp.Options.earlyStopped(s.features() / 2, s.iterations(), s.seed()),
            (it, obj, sec) -> objective[0] = obj,
            (it, model) -> observer.onIteration(it, objective[0], () -> model.get().predict(test)));
        return new Fitted(fit.predict(test), fit.iterations(), new int[0], null,
            Outcome.of(fit.stopReason(), fit.hyperparameters()), Double.NaN);
      }
      case "vssgp" -> {
        double[] objective = {Double.NaN};
        Vssgp fit = Vssgp.fit(train, Vssgp.Options.of(s.features() / 2, s.iterations(), b, s.seed()),
            (it, obj, sec) -> objective[0] = obj,
            (it, model) -> observer.onIteration(it, objective[0], () -> model.get().predict(test)));
        return new Fitted(fit.predict(test), fit.iterations(), new int[0], null,
            Outcome.of(fit.stopReason(), fit.hyperparameters()), Double.NaN);
      }
      case "svbssgp" -> {
        long t0 = System.nanoTime();
        Parts p = partitions(train, test, s, s.partitions(), s.seed());
        int batch = s.minibatch() >= 0 ? s.minibatch() : defaultSvbssgpMinibatch(n, s.partitions());
        Svbssgp.Options o = Svbssgp.Options.builder().m(s.features() / 2).iterations(s.iterations())
            .gamma(s.gamma()).predictiveSamples(s.samples()).minibatch(batch).seed(s.seed())
            .build();
        Svbssgp.Training t = Svbssgp.start(train, p.train(), o,
            gradients == null ? null : gradients.create(train, p.train()));
        double setup = (System.nanoTime() - t0) * 1e-9;
        // steps until the bound has converged (Svbssgp.fit's rule) or the cap
        while (t.iteration() < s.iterations() && !t.converged()) {
          double objective = t.step();
          observer.onIteration(t.iteration(), objective, () -> t.current().predict(test, p.test()));
        }
        Svbssgp model = t.current();
        Outcome out = new Outcome(model.converged(), model.stopReason(), model.noiseVariance(),
            model.signalVariance(), model.priorLengthscales());
        return new Fitted(model.predict(test, p.test()), t.iteration(), p.sizes(), model, out, setup);
      }
      case "dtc" -> {
        long t0 = System.nanoTime();
        RegressionData z = kmeans(train, s.inducing(), s.seed(), s.kmeansSample()).centroidInputs();
        Dtc.Trainer t = new Dtc.Trainer(train, z, initialKernel(train.d()), 0.25,
            Dtc.Options.defaults(b, s.iterations(), s.seed()));
        double setup = (System.nanoTime() - t0) * 1e-9;
        loop(s, t::step, t::stopped, () -> t.snapshot().predict(test), observer);
        Dtc.Fit f = t.snapshot();
        return new Fitted(f.predict(test), t.iteration(), new int[0], null,
            Outcome.of(t.stopReason(), f.kernel(), f.noiseVariance()), setup);
      }
      case "pic" -> {
        long t0 = System.nanoTime();
        Parts p = partitions(train, test, s, s.partitions(), s.seed());
        RegressionData z = kmeans(train, s.inducing(), s.seed() + 1, s.kmeansSample()).centroidInputs();
        // full batch: every partition in each iteration (L-BFGS on the collapsed bound, Pic's class comment)
        int blocks = full ? s.partitions() : Math.min(10, s.partitions());
        Pic.Trainer t = new Pic.Trainer(train, p.train(), z, initialKernel(train.d()), 0.25,
            Pic.Options.defaults(blocks, s.iterations(), s.seed()));
        double setup = (System.nanoTime() - t0) * 1e-9;
        loop(s, t::step, t::stopped, () -> t.snapshot().predict(test, p.test()), observer);
        Pic.Fit f = t.snapshot();
        return new Fitted(f.predict(test, p.test()), t.iteration(), p.sizes(), null,
            Outcome.of(t.stopReason(), f.kernel(), f.noiseVariance()), setup);
      }
      default -> throw new IllegalStateException(s.method());
    }
  }

  /** Steps until the cap or until the trainer has stopped (converged, or an L-BFGS run fully replayed). */
  private static void loop(Settings s, DoubleSupplier step, BooleanSupplier stopped,
      Supplier<RegressionPrediction> predict, Observer observer) {
    for (int it = 1; it <= s.iterations() && !stopped.getAsBoolean(); it++) {
      double objective = step.getAsDouble();
      observer.onIteration(it, objective, predict);
    }
  }

  /** Partition labels of the training and test rows and the training partition sizes. */
  record Parts(int[] train, int[] test, int[] sizes) {
  }

  /**
   * k-means partitions (§5: "partitioned into p disjoint subsets using k-means"): on the training inputs
   * only, test rows assigned to the nearest centroid; or, when {@code s.leaky()}, the authors' variant on
   * inputs and outputs of training and test rows together ({@link KMeans#fitLeaky}).
   */
  static Parts partitions(RegressionData train, RegressionData test, Settings s, int p, long seed) {
    KMeans km = s.leaky() ? KMeans.fitLeaky(train, test, p, seed, 50) : kmeans(train, p, seed, s.kmeansSample());
    int[] tr = km.assign(train);
    int[] te = km.assign(test);
    int[] sizes = new int[p];
    for (int c : tr) {
      sizes[c]++;
    }
    return new Parts(tr, te, sizes);
  }

  /**
   * Lloyd iterations of k-means: at most 50 on all rows, 20 on a sample smaller than n (its partitions are then
   * decided by the final assignment of every row; the cap bounds the set-up at millions of rows and thousands
   * of partitions).
   */
  private static KMeans kmeans(RegressionData x, int k, long seed, int sample) {
    return sample > 0 && sample < x.n() ? KMeans.fit(x, k, seed, 20, sample) : KMeans.fit(x, k, seed, 50);
  }

  /** SE-ARD at unit length-scales and signal variance on standardised inputs and target. */
  private static SquaredExponential initialKernel(int d) {
    double[] ell = new double[d];
    Arrays.fill(ell, 1.0);
    return SquaredExponential.ard(ell, 1.0);
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

    Recorder(RegressionSplits.Standardized data, Settings s) {
      this.data = data;
      this.s = s;
      double[] y = data.test().y();
      yTest = new double[y.length];
      for (int j = 0; j < y.length; j++) {
        yTest[j] = data.mean(y[j]);
      }
    }

    /** Records iteration {@code it} if it is a trace point (every traceEvery-th and the last). */
    void maybe(int it, Supplier<RegressionPrediction> predict) {
      if (it % s.traceEvery() == 0 || it == s.iterations()) {
        at(it, predict);
      }
    }

    /**
     * Records the final model of a fit that may stop before {@code s.iterations()} (L-BFGS convergence), unless
     * that iteration is already recorded.
     */
    void last(int it, Supplier<RegressionPrediction> predict) {
      if (its.isEmpty() || its.get(its.size() - 1) != it) {
        at(Math.max(it, 1), predict);
      }
    }

    /** Records iteration {@code it}; the prediction's time (and building its model) is not training time. */
    private void at(int it, Supplier<RegressionPrediction> predict) {
      double seconds = elapsed();
      long p0 = System.nanoTime();
      RegressionPrediction p = predict.get();
      predictSeconds += (System.nanoTime() - p0) * 1e-9;
      add(it, p, seconds);
    }

    private double elapsed() {
      return (System.nanoTime() - t0) * 1e-9 - predictSeconds;
    }

    /** Maps the standardised prediction to target units (mean yMean + yScale·m, variance yScale²·v). */
    private void add(int it, RegressionPrediction p, double seconds) {
      double[] mean = p.mean().clone();
      double[] var = p.variance().clone();
      for (int j = 0; j < mean.length; j++) {
        mean[j] = data.mean(mean[j]);
        var[j] = data.variance(var[j]);
      }
      RegressionPrediction u = new RegressionPrediction(mean, var);
      its.add(it);
      points.add(new double[] {u.rmse(yTest), u.mnlp(yTest), seconds});
    }

    Trace trace(int[] sizes, double setupSeconds) {
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
      return new Trace(it, r, m, sec, sizes, setupSeconds);
    }
  }
}
