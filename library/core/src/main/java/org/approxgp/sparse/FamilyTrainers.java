package org.approxgp.sparse;

import java.util.Arrays;
import java.util.OptionalInt;
import java.util.function.BooleanSupplier;
import java.util.function.DoubleSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.approxgp.data.RegressionData;
import org.approxgp.inference.PredictiveMoments;
import org.approxgp.kernel.SquaredExponential;

/**
 * The five models behind {@link SparseRegression#start}: their set-up (the one place where the family is
 * configured) and a {@link SparseRegression.Trainer} over each model's own trainer.
 */
final class FamilyTrainers {
  private FamilyTrainers() {}

  /** k-means iterations for partitions and inducing inputs. */
  private static final int KMEANS_ITERATIONS = 50;

  static SparseRegression.Trainer start(
      RegressionData train,
      SparseRegression.Options o,
      SparseRegression.Partitioning partitioning,
      PartitionGradientsProvider.Factory gradients) {
    long t0 = System.nanoTime();
    int n = train.n();
    int p = o.partitionsFor(n);
    if (o.model().partitioned() && p > n) {
      throw new IllegalArgumentException(
          "p = " + p + " partitions exceed the " + n + " training rows");
    }
    int d = train.d();
    int mInducing = o.inducingFor(n, d);
    if (o.inducingPoints() && mInducing > n) {
      throw new IllegalArgumentException(
          "M = " + mInducing + " inducing inputs exceed the " + n + " training rows");
    }
    int cap = o.iterationsFor(n, d);
    boolean full = o.fullBatchFor(n, d);
    int b = full ? n : o.minibatch().orElse(Math.min(1000, n));
    long seed = o.seed();
    switch (o.model()) {
      case SSGP -> {
        TrainingRange range = TrainingRange.of(train);
        Ssgp.Options so = Ssgp.Options.earlyStopped(o.featuresFor(n) / 2, cap, seed)
            .withFixedFallback(o.frequencies() == SparseRegression.Frequencies.HELD_OUT);
        double[] objective = {Double.NaN};
        return new Stepped<Ssgp>(
            cap,
            objective,
            l -> Ssgp.fit(train, so, (it, obj, sec) -> objective[0] = obj, l),
            m -> extrapolating(o, range, m::predict, m.hyperparameters()),
            m -> SparseRegression.Outcome.of(m.stopReason(), null, m.hyperparameters()),
            Ssgp::iterations);
      }
      case VSSGP -> {
        TrainingRange range = TrainingRange.of(train);
        Vssgp.Options base = Vssgp.Options.of(o.featuresFor(n) / 2, cap, b, seed)
            .withInitialFrequencyVariance(o.frequencyVarianceOrDefault());
        Vssgp.Options vo = base.withSchedule(stopping(base.schedule(), o.stopping()));
        double[] objective = {Double.NaN};
        if (o.frequencies() == SparseRegression.Frequencies.HELD_OUT && n >= 2) {
          return new Stepped<VssgpChoice.Chosen>(
              cap,
              objective,
              l -> VssgpChoice.fit(train, vo, (it, obj, sec) -> objective[0] = obj, l),
              c -> extrapolating(o, range, c::predict, c.hyperparameters()),
              c -> SparseRegression.Outcome.of(
                      c.stopReason(), c.lastSlopeTest(), c.hyperparameters())
                  .withCandidate(c.candidate()),
              VssgpChoice.Chosen::iterations);
        }
        return new Stepped<Vssgp>(
            cap,
            objective,
            l -> Vssgp.fit(train, vo, (it, obj, sec) -> objective[0] = obj, l),
            m -> extrapolating(o, range, m::predict, m.hyperparameters()),
            m ->
                SparseRegression.Outcome.of(m.stopReason(), m.lastSlopeTest(), m.hyperparameters()),
            Vssgp::iterations);
      }
      case SVBSSGP -> {
        TrainingRange range = TrainingRange.of(train);
        Partitions parts = partitions(train, p, seed, partitioning);
        OptionalInt rows = o.minibatch().isPresent()
            ? o.minibatch()
            : SparseRegression.defaultSvbssgpMinibatch(n, p);
        SvbssgpOptions whole = SvbssgpOptions.defaults()
            .withM(o.featuresFor(n) / 2)
            .withIterations(cap)
            .withGamma(o.gamma().orElse(0))
            .withPredictiveSamples(o.samples())
            .withSeed(seed)
            .withNaturalStep(o.steps().natural())
            .withLearningRate(o.steps().learningRate());
        whole = whole.withSchedule(stopping(whole.schedule(), o.stopping()));
        SvbssgpOptions so = rows.isPresent() ? whole.withMinibatch(rows.getAsInt()) : whole;
        SvbssgpTraining t = Svbssgp.start(
            train,
            parts.labels(),
            so,
            gradients == null ? null : gradients.create(train, parts.labels()));
        return new Steps(t0, cap, parts.sizes()) {
          @Override
          boolean stopped() {
            return t.converged();
          }

          @Override
          double advance() {
            return t.step();
          }

          @Override
          public SparseRegression.Fit snapshot() {
            Svbssgp model = t.current();
            SparseRegression.Outcome out = new SparseRegression.Outcome(
                model.converged(),
                model.stopReason(),
                model.noiseVariance(),
                model.signalVariance(),
                model.priorLengthscales(),
                model.lastSlopeTest(),
                null);
            return new SparseRegression.Fit() {
              // γ chosen once per snapshot (a pass over the partitions' local terms), NaN until
              // asked
              private double gamma = Double.NaN;

              // off the training range as --extrapolation says (sVBSSGP's default: free,
              // Extrapolation)
              final Function<RegressionData, PredictiveMoments> predict = extrapolating(
                  o,
                  range,
                  test -> model.predict(
                      test, parts.assign(test), gamma(), o.samples(), seed, o.noise()),
                  new Ssgp.Hyperparameters(
                      model.priorLengthscales(), model.signalVariance(), model.noiseVariance()));

              @Override
              public PredictiveMoments predict(RegressionData test) {
                return predict.apply(test);
              }

              @Override
              public SparseRegression.Outcome outcome() {
                return out;
              }

              @Override
              public Svbssgp svbssgp() {
                return model;
              }

              @Override
              public synchronized double gamma() {
                if (Double.isNaN(gamma)) {
                  gamma = SparseRegression.leaveOneOutGamma(model, o);
                }
                return gamma;
              }
            };
          }

          @Override
          public int iteration() {
            return t.iteration();
          }
        };
      }
      case DTC -> {
        RegressionData z =
            kmeans(train, mInducing, seed, partitioning.kmeansSample()).centroidInputs();
        InducingOptions io = InducingOptions.defaults(b, cap, seed);
        Dtc.Trainer t = new Dtc.Trainer(
            train,
            z,
            initialKernel(train, o.startFor(), seed),
            0.25,
            io.withSchedule(stopping(io.schedule(), o.stopping())));
        return inducing(t0, cap, new int[0], t::stopped, t::step, () -> {
          Dtc.Fit f = t.snapshot();
          return fit(
              f::predict,
              SparseRegression.Outcome.of(
                  t.stopReason(), t.lastSlopeTest(), f.kernel(), f.noiseVariance()));
        });
      }
      case PIC -> {
        Partitions parts = partitions(train, p, seed, partitioning);
        RegressionData z =
            kmeans(train, mInducing, seed + 1, partitioning.kmeansSample()).centroidInputs();
        // full batch: every partition in each iteration (L-BFGS on the collapsed bound, Pic's class
        // comment)
        int blocks = full ? p : Math.min(10, p);
        InducingOptions io = InducingOptions.defaults(blocks, cap, seed);
        Pic.Trainer t = new Pic.Trainer(
            train,
            parts.labels(),
            z,
            initialKernel(train, o.startFor(), seed),
            0.25,
            io.withSchedule(stopping(io.schedule(), o.stopping())));
        return inducing(t0, cap, parts.sizes(), t::stopped, t::step, () -> {
          Pic.Fit f = t.snapshot();
          return fit(
              test -> f.predict(test, parts.assign(test)),
              SparseRegression.Outcome.of(
                  t.stopReason(), t.lastSlopeTest(), f.kernel(), f.noiseVariance()));
        });
      }
      default -> throw new IllegalStateException("unhandled model " + o.model());
    }
  }

  /**
   * SSGP's, VSSGP's or sVBSSGP's {@code predict} under {@code o}'s {@link SparseRegression.Extrapolation}, for test rows outside
   * the training rows' {@code range}: at the edge and carried to the row by the model's SE prior ({@code h}; {@code
   * REVERT}), at the edge ({@code CLAMP}), or at the rows as given ({@code FREE}).
   */
  private static Function<RegressionData, PredictiveMoments> extrapolating(
      SparseRegression.Options o,
      TrainingRange range,
      Function<RegressionData, PredictiveMoments> predict,
      Ssgp.Hyperparameters h) {
    return switch (o.extrapolation()) {
      case FREE -> predict;
      case CLAMP -> test -> predict.apply(range.clamp(test));
      case REVERT ->
        test -> range.revert(
            test,
            predict.apply(range.clamp(test)),
            h.lengthscales(),
            h.signalVariance(),
            h.noiseVariance());
    };
  }

  /** {@code s} ended by {@code rule} (null: run every iteration to the cap). */
  private static StochasticSchedule stopping(StochasticSchedule s, BoundMonitor.Rule rule) {
    return rule == null ? s.withoutStopping() : s.withStopping(rule);
  }

  private static SparseRegression.Fit fit(
      Function<RegressionData, PredictiveMoments> predict, SparseRegression.Outcome outcome) {
    return new SparseRegression.Fit() {
      @Override
      public PredictiveMoments predict(RegressionData test) {
        return predict.apply(test);
      }

      @Override
      public SparseRegression.Outcome outcome() {
        return outcome;
      }
    };
  }

  /**
   * The trainer over an inducing-point model (DTC++ or PIC++): its stopping rule, one iteration (returning the
   * objective after it), and a snapshot of the fit so far.
   */
  private static Steps inducing(
      long t0,
      int cap,
      int[] sizes,
      BooleanSupplier stopped,
      DoubleSupplier step,
      Supplier<SparseRegression.Fit> snapshot) {
    return new Steps(t0, cap, sizes) {
      @Override
      boolean stopped() {
        return stopped.getAsBoolean();
      }

      @Override
      double advance() {
        return step.getAsDouble();
      }

      @Override
      public SparseRegression.Fit snapshot() {
        return snapshot.get();
      }
    };
  }

  /** A trainer over a stepping model: the cap and the set-up time; {@link #advance} makes one iteration. */
  private abstract static class Steps implements SparseRegression.Trainer {
    private final double setupSeconds;
    private final int cap;
    private final int[] sizes;
    private int iteration;
    private double objective = Double.NaN;

    Steps(long t0, int cap, int[] sizes) {
      this.setupSeconds = (System.nanoTime() - t0) * 1e-9;
      this.cap = cap;
      this.sizes = sizes.clone();
    }

    /** Whether the model's stopping rule has fired. */
    abstract boolean stopped();

    /** One iteration; the objective after it. */
    abstract double advance();

    @Override
    public boolean step() {
      if (iteration() >= cap || stopped()) {
        return false;
      }
      objective = advance();
      iteration++;
      return true;
    }

    @Override
    public int iteration() {
      return iteration;
    }

    @Override
    public double objective() {
      return objective;
    }

    @Override
    public double setupSeconds() {
      return setupSeconds;
    }

    @Override
    public int[] partitionSizes() {
      return sizes.clone();
    }
  }

  /**
   * SSGP or VSSGP through {@link SteppedFit}: {@code run} performs the whole fit with the given listener (while it
   * writes the objective after each iteration into {@code objective}) and returns the model. Once the fit has
   * returned, the trainer reports the model's own iteration count and its final model (for SSGP, the best held-out
   * iterate).
   */
  private static final class Stepped<M> implements SparseRegression.Trainer {
    private final int cap;
    private final double[] objective;
    private final SteppedFit<M> fit;
    private final Function<M, Function<RegressionData, PredictiveMoments>> predictor;
    private final Function<M, SparseRegression.Outcome> outcome;
    private final ToIntFunction<M> iterations;
    private int iteration;

    Stepped(
        int cap,
        double[] objective,
        Function<SnapshotListener<M>, M> run,
        Function<M, Function<RegressionData, PredictiveMoments>> predictor,
        Function<M, SparseRegression.Outcome> outcome,
        ToIntFunction<M> iterations) {
      this.cap = cap;
      this.objective = objective;
      this.predictor = predictor;
      this.outcome = outcome;
      this.iterations = iterations;
      this.fit = new SteppedFit<>("sparse-fit", run);
    }

    @Override
    public boolean step() {
      if (fit.finished() || iteration >= cap && fit.started()) {
        // past the cap the fit returns at its next resumption; finish it so that the final model is
        // its own
        while (!fit.finished()) {
          fit.step();
        }
        return false;
      }
      if (fit.step()) {
        iteration++;
        return true;
      }
      return false;
    }

    @Override
    public int iteration() {
      return fit.finished() ? iterations.applyAsInt(fit.result()) : iteration;
    }

    @Override
    public double objective() {
      return objective[0];
    }

    @Override
    public SparseRegression.Fit snapshot() {
      M m = fit.snapshot();
      SparseRegression.Outcome out = outcome.apply(m);
      return new SparseRegression.Fit() {
        @Override
        public PredictiveMoments predict(RegressionData test) {
          return predictor.apply(m).apply(test);
        }

        @Override
        public SparseRegression.Outcome outcome() {
          return out;
        }
      };
    }

    /** NaN: SSGP's and VSSGP's initialisation happens inside their optimiser, not separable from it. */
    @Override
    public double setupSeconds() {
      return Double.NaN;
    }

    @Override
    public int[] partitionSizes() {
      return new int[0];
    }

    @Override
    public void close() {
      fit.close();
    }
  }

  /** Partition labels of the training rows, their sizes, and the rule that assigns test rows. */
  record Partitions(int[] labels, int[] sizes, KMeans kmeans) {
    int[] assign(RegressionData test) {
      return kmeans.assign(test);
    }
  }

  /**
   * k-means partitions (§5: "partitioned into p disjoint subsets using k-means"): on the training inputs only, test
   * rows assigned to the nearest centroid; or, when leaky, the authors' variant on inputs and outputs of training
   * and test rows together ({@link KMeans#fitLeaky}).
   */
  static Partitions partitions(
      RegressionData train, int p, long seed, SparseRegression.Partitioning how) {
    KMeans km = how.leaky()
        ? KMeans.fitLeaky(train, how.test(), p, seed, KMEANS_ITERATIONS)
        : kmeans(train, p, seed, how.kmeansSample());
    int[] labels = km.assign(train);
    int[] sizes = new int[p];
    for (int c : labels) {
      sizes[c]++;
    }
    return new Partitions(labels, sizes, km);
  }

  /**
   * Lloyd iterations of k-means: at most 50 on all rows, 20 on a sample smaller than n (its partitions are then
   * decided by the final assignment of every row; the cap bounds the set-up at millions of rows and thousands of
   * partitions).
   */
  private static KMeans kmeans(RegressionData x, int k, long seed, int sample) {
    return sample > 0 && sample < x.n()
        ? KMeans.fit(x, k, seed, 20, sample)
        : KMeans.fit(x, k, seed, KMEANS_ITERATIONS);
  }

  /** SE-ARD at unit signal variance on the standardised target, its length-scales where {@code start} says. */
  private static SquaredExponential initialKernel(
      RegressionData train, SparseRegression.LengthscaleStart start, long seed) {
    if (start == SparseRegression.LengthscaleStart.MEDIAN) {
      return medianKernel(train, seed);
    }
    double[] ell = new double[train.d()];
    Arrays.fill(ell, 1.0);
    return SquaredExponential.ard(ell, 1.0);
  }

  /**
   * The median-heuristic start: SE-ARD at unit signal variance, every length-scale ℓⱼ = sⱼ·r with sⱼ
   * input j's standard deviation and r² the median squared distance between {@value SvbssgpInit#MEDIAN_PAIRS}
   * seeded pairs of rows in those units (the median heuristic, as sVBSSGP starts: {@link SvbssgpInit}); on
   * standardised, roughly independent inputs r is near √(2d), and two rows at the median distance start correlated
   * e^{−1/2}. From ℓ = 1 DTC++ on the held-out split of seed 6 of diamonds (2,000 rows, 26 inputs, M = 420) ended
   * at a test RMSE 1.6–1.75 times the exact GP's, its length-scales in a local optimum; from ℓ = 3, √26 and that
   * split's median-heuristic 7.0 it ended at 0.95 times, the same optimum from all three. Over {@code bin/bench
   * regress-defaults}' held-out seeds 6–10 ({@code results/bench/regress-defaults-heldout.json}) diamonds went
   * from 1.146 to 0.919 times on average, and the other six sets stayed within 0.01 of their unit-start means.
   */
  static SquaredExponential medianKernel(RegressionData train, long seed) {
    int n = train.n();
    int d = train.d();
    double[] x = train.x();
    double[] sd = new double[d];
    for (int j = 0; j < d; j++) {
      double mean = 0;
      for (int i = 0; i < n; i++) {
        mean += x[i * d + j];
      }
      mean /= n;
      double ss = 0;
      for (int i = 0; i < n; i++) {
        double e = x[i * d + j] - mean;
        ss += e * e;
      }
      double v = n > 1 ? Math.sqrt(ss / (n - 1)) : 1;
      sd[j] = v > 0 ? v : 1;
    }
    UniformRandomProvider rng =
        RandomSource.XO_RO_SHI_RO_128_PP.create(new long[] {seed, 0x3ed1aL});
    double r = Math.sqrt(SvbssgpInit.medianScaledSquaredDistance(x, n, d, sd, rng));
    double[] ell = new double[d];
    for (int j = 0; j < d; j++) {
      ell[j] = sd[j] * r;
    }
    return SquaredExponential.ard(ell, 1.0);
  }
}
