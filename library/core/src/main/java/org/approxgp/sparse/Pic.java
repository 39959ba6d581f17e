package org.approxgp.sparse;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.approxgp.data.RegressionData;
import org.approxgp.inference.PredictiveMoments;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.JitterPolicy;
import org.approxgp.linalg.Matrix;
import org.approxgp.optimize.Adam;

/**
 * PIC++: the partitioned inducing-point baseline of the sVBSSGP paper (§5, Table 1) — the anytime PIC of
 * Hoang, Hoang &amp; Low (2015, ICML, "A unifying framework of anytime sparse GP regression models with
 * stochastic variational inference for big data").
 *
 * <p><b>Source of the formulation.</b> The ICML paper's text was not available to us; the formulation below
 * is the one implemented in the authors' public code (RVGP, {@code SGPPlus.cpp}, {@code PICPlus.cpp},
 * {@code PrecomputedData.cpp}), which the sVBSSGP paper says it ran ("run with their GitHub codes"), restated
 * as a variational bound whose natural gradient is exactly that code's update:
 *
 * <p>Partition the training rows into blocks D₁ … D_p (labels are an input, e.g. {@link KMeans}). PITC's
 * likelihood given the inducing outputs u = f(Z) (Quiñonero-Candela &amp; Rasmussen 2005, §6; Snelson &amp;
 * Ghahramani 2007) is p(y | u) = Πᵢ N(y_i | P_i u, Γ_i), P_i = K_iu K_uu⁻¹, Γ_i = K_ii − Q_ii + σ²I,
 * Q_ii = K_iu K_uu⁻¹ K_ui. With q(u) = N(m, S) the bound
 * <pre>
 *   F(q) = Σᵢ E_q[log N(y_i | P_i u, Γ_i)] − KL(q ‖ p(u))
 *        = Σᵢ [ log N(y_i | P_i m, Γ_i) − ½ tr(Γ_i⁻¹ P_i S P_iᵀ) ] − KL(q ‖ p(u))  ≤  log p_PITC(y)
 * </pre>
 * is tight at q = p_PITC(u | y). Its natural gradient from a sample of s blocks gives the step
 * S⁻¹ ← (1 − ρ)S⁻¹ + ρ(K_uu⁻¹ + (p/s) Σ K_uu⁻¹K_ui Γ_i⁻¹ K_iu K_uu⁻¹), S⁻¹m ← (1 − ρ)S⁻¹m + ρ (p/s) Σ
 * K_uu⁻¹K_ui Γ_i⁻¹ y_i — the RVGP update (without its extra shrinkage term −τE, which moves the fixed point by
 * 1/(1 + τ); we drop it so the fixed point is the PITC posterior).
 *
 * <p><b>Prediction</b> (PIC, Snelson &amp; Ghahramani 2007; RVGP {@code PrecomputedData.cpp}): a test input x* of
 * block k keeps its exact covariance with that block's training rows: with J_*k = K_*k − Q_*k and
 * H = J_*k Γ_k⁻¹, q(f*) = N(P_* m + H(y_k − P_k m), k** − Q** − H J_k* + M S Mᵀ), M = P_* − H P_k; the noise σ²
 * is added for y*. A block with no training rows gives FITC/DTC's prediction (H = 0).
 *
 * <p><b>Hyperparameters.</b> RVGP fixes them (it reads them from a file); the sVBSSGP paper says DTC++ and PIC++
 * "find point estimates of the kernel hyperparameters", without saying how, and by default
 * ({@link InducingOptions#defaults}) we learn them as {@link Dtc} does: with every block in each iteration (full batch),
 * L-BFGS on the collapsed bound F*(θ) = max_q F(θ, q) = log p_PITC(y | θ) (q optimal at each θ: the natural step
 * with ρ = 1 on all blocks; its gradient is ∂F/∂θ at that q, envelope theorem; {@link CollapsedLbfgs}); with a
 * sample of blocks, an Adam step per iteration along the sampled blocks' estimate of ∂F/∂(log ℓ, log σ_f², log σ²)
 * at the current q(u) (formulas in {@code PicBlock.gradient}) at a decaying rate, until the smoothed bound has
 * converged ({@link BoundMonitor}) or the cap; as in {@link Dtc}, q(u) is set to its optimum for the first sample
 * before θ's first gradient and K_uu carries {@link InducingPosterior#KUU_JITTER}. Inducing inputs are fixed. Each
 * stochastic iteration samples s partitions
 * uniformly without replacement from the p non-empty ones and scales their sum by p/s; its cost is
 * O(Σ_sampled (n_i³ + n_i² M + n_i M²) + M³).
 */
public final class Pic {

  private Pic() {}

  /**
   * A fitted PIC++ model.
   *
   * @param kernel SE kernel (at the end of the fit)
   * @param noiseVariance σ²
   * @param inducing inducing inputs Z
   * @param mean m (owned)
   * @param covariance S (owned)
   * @param train the training rows (referenced, not copied; prediction needs each test block's local data)
   * @param blocks the training partition (referenced)
   * @param iterations iterations run
   * @param objective last stochastic estimate of F (NaN before the first iteration)
   * @param inducingJitter ε added to K_uu's diagonal (as {@link Dtc.Fit#inducingJitter})
   */
  public record Fit(
      SquaredExponential kernel,
      double noiseVariance,
      RegressionData inducing,
      double[] mean,
      Matrix covariance,
      RegressionData train,
      RowBlocks blocks,
      int iterations,
      double objective,
      double inducingJitter) {

    /**
     * Predictive mean and variance of y* for test rows with partition labels {@code testPartition} (labels
     * beyond the training partitions, or of partitions without training rows, use no local block). Streams over
     * the test partitions; for repeated predictions on one test set (per-iteration traces) build a
     * {@link #predictor} once.
     */
    public PredictiveMoments predict(RegressionData test, int[] testPartition) {
      double[] mu = new double[test.n()];
      double[] var = new double[test.n()];
      PicPredictor.forEachBlock(
          this, test, testPartition, (rows, prep) -> prep.apply(mean, covariance, rows, mu, var));
      return new PredictiveMoments(mu, var);
    }

    /**
     * The parts of the PIC predictive at these test rows that do not depend on q(u) (the kernel and noise are
     * fixed in PIC++), computed once: M = P_* − H P_k (M doubles per test row), H y_k and the q-free variance.
     * Memory n_test × M doubles.
     */
    public PicPredictor predictor(RegressionData test, int[] testPartition) {
      return new PicPredictor(this, test, testPartition);
    }

    /** F on all training blocks at this q(u) and these hyperparameters (exact, not stochastic). */
    public double elbo() {
      double logDetS =
          Cholesky.factor(covariance.copy(), JitterPolicy.standard()).logDet();
      return PicBound.evaluate(
              PicBound.Sample.all(train, blocks, inducing, kernel.isArd(), inducingJitter),
              DtcBound.params(kernel, noiseVariance, train.d()),
              mean,
              covariance,
              logDetS,
              null,
              null,
              null)
          .value();
    }
  }

  /**
   * Fits PIC++ (q(u), and the kernel and noise if {@link InducingOptions#learnHyperparameters}), stopping at the cap or
   * when {@link Trainer#stopped()}.
   *
   * @param train training rows with targets
   * @param partition partition label (≥ 0) of every training row
   * @param inducing inducing inputs Z
   */
  public static Fit fit(
      RegressionData train,
      int[] partition,
      RegressionData inducing,
      SquaredExponential kernel,
      double noiseVariance,
      InducingOptions options,
      IterationListener listener) {
    Trainer t = new Trainer(train, partition, inducing, kernel, noiseVariance, options);
    IterationListener l = listener == null ? IterationListener.NONE : listener;
    long start = System.nanoTime();
    while (t.iteration() < options.schedule().iterations() && !t.stopped()) {
      double obj = t.step();
      l.onIteration(t.iteration(), obj, (System.nanoTime() - start) * 1e-9);
    }
    return t.snapshot();
  }

  /** A PIC++ fit advanced one iteration at a time (for per-iteration traces). */
  public static final class Trainer {
    private final RegressionData train;
    private final RegressionData inducing;
    private final boolean ard;
    private final InducingOptions options;
    private final RowBlocks blocks;
    private final int[] nonEmpty;
    private final SplittableRandom rng;
    private final Adam adam;
    private double[] params; // (log ℓ…, log σ_f², log σ²)
    private InducingPosterior q;
    private SquaredExponential kernel;
    private int iteration;
    private double last = Double.NaN;
    private final boolean fullBatch;
    private CollapsedLbfgs lbfgs; // full batch: the L-BFGS iterates (computed at the first step)
    private final BoundMonitor monitor;
    private PicBound.Sample evalSample; // the fixed blocks of fixedBound (drawn at its first call)
    private final double jitter; // ε on K_uu's diagonal (as in Dtc.Trainer)

    public Trainer(
        RegressionData train,
        int[] partition,
        RegressionData inducing,
        SquaredExponential kernel,
        double noiseVariance,
        InducingOptions options) {
      if (!train.hasTargets()) {
        throw new IllegalArgumentException("training rows need targets");
      }
      if (partition.length != train.n()) {
        throw new IllegalArgumentException(
            partition.length + " labels for " + train.n() + " training rows");
      }
      DtcBound.requireDim(inducing, train.d());
      if (!(noiseVariance > 0) || !Double.isFinite(noiseVariance)) {
        throw new IllegalArgumentException("noise variance must be positive, got " + noiseVariance);
      }
      this.train = train;
      this.inducing = inducing;
      this.kernel = kernel;
      this.ard = kernel.isArd();
      this.params = DtcBound.params(kernel, noiseVariance, train.d());
      this.options = options;
      this.blocks = RowBlocks.of(partition, RowBlocks.max(partition) + 1);
      this.nonEmpty = blocks.nonEmpty();
      this.rng = new SplittableRandom(options.schedule().seed());
      this.adam = new Adam(params.length, Adam.Settings.of(options.hyperStep().initial()));
      this.fullBatch =
          options.learnHyperparameters() && options.schedule().fullBatchFor(nonEmpty.length);
      this.jitter = options.learnHyperparameters() && !fullBatch ? InducingPosterior.KUU_JITTER : 0;
      this.q = InducingPosterior.prior(
          InducingPosterior.kuu(DtcBound.kernelOf(params, train.d(), ard), inducing, jitter));
      this.monitor = BoundMonitor.of(
          options.schedule().stopping(), InducingOptions.DEFAULT_STOPPING, train.n());
    }

    /**
     * Runs one iteration; returns the stochastic estimate of F (at q and θ before the step), or in full batch the
     * collapsed bound F* at the next L-BFGS iterate (the first step runs the L-BFGS; after its last iterate the
     * model stays put).
     */
    public double step() {
      if (fullBatch) {
        return stepFullBatch();
      }
      int p = nonEmpty.length;
      int s = options.schedule().batchFor(p);
      // s of the p non-empty blocks uniformly without replacement (partial Fisher–Yates on a copy)
      int[] pool = nonEmpty.clone();
      for (int i = 0; i < s; i++) {
        int j = i + rng.nextInt(p - i);
        int t = pool[i];
        pool[i] = pool[j];
        pool[j] = t;
      }
      iteration++;
      double scale = (double) p / s;
      PicBound.Sample sample =
          new PicBound.Sample(train, blocks, pool, s, scale, inducing, ard, jitter);
      int mM = inducing.n();
      Matrix lam = Matrix.zeros(mM, mM);
      double[] t1 = new double[mM];
      double[] grad = options.learnHyperparameters() ? new double[params.length] : null;
      PicBound.Eval e = PicBound.evaluate(sample, params, q, lam, t1, grad);
      Matrix target = naturalTarget(e, lam, t1, scale);
      if (iteration == 1
          && grad != null) { // q(u) to its optimum for these blocks, θ's first gradient there
        q.step(target, t1, 1.0);
        grad = new double[params.length];
        e = PicBound.evaluate(sample, params, q, null, null, grad);
      } else {
        q.step(target, t1, options.schedule().step().at(iteration));
      }
      if (grad != null) {
        double[] unit = new double[params.length];
        Arrays.fill(unit, options.hyperStep().decay(iteration));
        adam.ascend(params, grad, unit);
        kernel = SquaredExponential.ofLog(Arrays.copyOf(params, params.length - 1), ard);
      }
      last = e.value();
      monitor.add(last);
      if (monitor.evaluationDue()) {
        monitor.addEvaluation(fixedBound(s, scale));
      }
      return last;
    }

    /**
     * The estimate of the bound at the current q(u) and θ on a fixed set of {@code s} blocks, the same at every call
     * (BoundMonitor's evaluations on a fixed sample, as in {@link Dtc.Trainer}).
     */
    private double fixedBound(int s, double scale) {
      if (evalSample == null) {
        int[] pick =
            BoundMonitor.fixedSample(nonEmpty.length, s, options.schedule().seed());
        int[] pool = new int[s];
        for (int i = 0; i < s; i++) {
          pool[i] = nonEmpty[pick[i]];
        }
        evalSample = new PicBound.Sample(train, blocks, pool, s, scale, inducing, ard, jitter);
      }
      return PicBound.evaluate(evalSample, params, q, null, null, null).value();
    }

    /**
     * The target of the natural step from the sums of an evaluation on blocks whose sum is scaled by
     * {@code scale}: K_uu⁻¹ + scale · Σ AΓ⁻¹Aᵀ (returned), and {@code t1} ← scale · Σ AΓ⁻¹y in place.
     */
    private static Matrix naturalTarget(PicBound.Eval e, Matrix lam, double[] t1, double scale) {
      Matrix target = e.kinv().copy();
      double[] td = target.data();
      double[] ld = lam.data();
      for (int i = 0; i < td.length; i++) {
        td[i] += scale * ld[i];
      }
      for (int a = 0; a < t1.length; a++) {
        t1[a] *= scale;
      }
      return target;
    }

    private double stepFullBatch() {
      if (lbfgs == null) {
        PicBound.Sample all = PicBound.Sample.all(train, blocks, inducing, ard, 0);
        lbfgs = new CollapsedLbfgs(
            (x, g) -> PicBound.evaluate(all, x, optimalPosterior(all, x), null, null, g)
                .value(),
            params,
            options.schedule().iterations());
      }
      int t = iteration;
      iteration++;
      if (t < lbfgs.size()) {
        params = lbfgs.iterate(t);
        kernel = SquaredExponential.ofLog(Arrays.copyOf(params, params.length - 1), ard);
        q = null; // the optimal q(u) at these θ, formed when a snapshot asks for it
        last = lbfgs.value(t);
      }
      return last;
    }

    /**
     * The optimal q(u) on all blocks ({@code all}) at θ = {@code x}: the PITC posterior, the natural step with
     * ρ = 1 from the prior, S⁻¹ = K_uu⁻¹ + Σ_k A_kΓ_k⁻¹A_kᵀ, S⁻¹m = Σ_k A_kΓ_k⁻¹y_k.
     */
    private InducingPosterior optimalPosterior(PicBound.Sample all, double[] x) {
      int mM = inducing.n();
      InducingPosterior prior = InducingPosterior.prior(
          InducingPosterior.kuu(DtcBound.kernelOf(x, train.d(), ard), inducing, 0));
      Matrix lam = Matrix.zeros(mM, mM);
      double[] t1 = new double[mM];
      PicBound.Eval e = PicBound.evaluate(all, x, prior, lam, t1, null);
      prior.step(naturalTarget(e, lam, t1, 1.0), t1, 1.0);
      return prior;
    }

    /** Whether further steps leave the model as it is or the fit has converged (as {@link Dtc.Trainer#stopped}). */
    public boolean stopped() {
      return CollapsedLbfgs.stopped(fullBatch, lbfgs, monitor, iteration);
    }

    /** Why the fit stands where it is (as {@link Dtc.Trainer#stopReason}). */
    public BoundMonitor.StopReason stopReason() {
      return CollapsedLbfgs.verdict(
          fullBatch, lbfgs, monitor, iteration, options.schedule().iterations());
    }

    /** Whether the fit has converged ({@link #stopReason()} is {@code CONVERGED}). */
    public boolean converged() {
      return stopReason() == BoundMonitor.StopReason.CONVERGED;
    }

    /** Whether the smoothed bound estimate of a stochastic fit keeps falling ({@link BoundMonitor#diverging()}). */
    public boolean diverging() {
      return !fullBatch && monitor.diverging();
    }

    /**
     * A stochastic fit's last {@link BoundMonitor.Test#SLOPE} test ({@link BoundMonitor#lastSlopeTest()}); null in
     * full batch, without a stopping rule, under another rule, or before the first test.
     */
    public BoundMonitor.SlopeTest lastSlopeTest() {
      return fullBatch ? null : monitor.lastSlopeTest();
    }

    public int iteration() {
      return iteration;
    }

    /** The current model (copies of m and S). */
    public Fit snapshot() {
      if (q == null) {
        q = optimalPosterior(PicBound.Sample.all(train, blocks, inducing, ard, 0), params);
      }
      return new Fit(
          kernel,
          Math.exp(params[params.length - 1]),
          inducing,
          q.mean().clone(),
          q.covariance().copy(),
          train,
          blocks,
          iteration,
          last,
          jitter);
    }
  }
}
