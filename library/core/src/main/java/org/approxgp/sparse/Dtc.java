package org.approxgp.sparse;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.approxgp.data.RegressionData;
import org.approxgp.inference.PredictiveMoments;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.Matrix;
import org.approxgp.optimize.Adam;

/**
 * DTC++: stochastic variational GP regression with inducing points (SVGP; Hensman, Fusi &amp; Lawrence 2013,
 * "Gaussian processes for big data", UAI), the inducing-point baseline of the sVBSSGP paper (§5, Table 1).
 *
 * <p>Model: y = f(x) + ε, ε ∼ N(0, σ²), f ∼ GP(0, k) with the SE kernel; inducing outputs u = f(Z) at M fixed
 * inducing inputs Z (k-means centroids of the training inputs, {@link KMeans#centroidInputs}; Z is not
 * optimised). Variational posterior q(u) = N(m, S). The bound (Hensman et al. 2013, eq. 8):
 * <pre>
 *   L = Σᵢ [ log N(yᵢ | aᵢᵀm, σ²) − k̃ᵢᵢ/(2σ²) − aᵢᵀ S aᵢ/(2σ²) ] − KL(q(u) ‖ p(u)),
 *   aᵢ = K_uu⁻¹ k_u(xᵢ),  k̃ᵢᵢ = k(xᵢ, xᵢ) − k_u(xᵢ)ᵀ K_uu⁻¹ k_u(xᵢ),
 * </pre>
 * estimated on a minibatch B of rows by scaling the sum by n/|B|. Each iteration:
 * <ol>
 *   <li>q(u): one natural-gradient step of size ρ_t (a {@link StepSchedule}) in the natural parameters:
 *       S⁻¹ ← (1 − ρ)S⁻¹ + ρ(K_uu⁻¹ + (n/|B|) σ⁻² A_B A_Bᵀ), S⁻¹m ← (1 − ρ)S⁻¹m + ρ (n/|B|) σ⁻² A_B y_B
 *       with A_B = K_uu⁻¹ K_uB (Hensman et al. 2013, §3.1). With ρ = 1 on the full data this is the optimum
 *       q of Titsias (2009) in one step;</li>
 *   <li>hyperparameters θ = (log ℓ, log σ_f², log σ²), if learned: one Adam step (Kingma &amp; Ba 2015;
 *       {@link org.approxgp.optimize.Adam}, β₁ = 0.9, β₂ = 0.999, ε = 10⁻⁸) along the minibatch estimate of
 *       ∂L/∂θ at the current (m, S), computed analytically (formulas at {@code accumulate} and
 *       {@code finishWith} below), with the learning rate α_t of a decaying {@link StepSchedule}.</li>
 * </ol>
 * At the first iteration, when θ is learned, q(u) is first set to its optimum for that batch (the natural step
 * with ρ = 1), so that θ's first gradient is not taken at the prior q(u), where it is orders of magnitude larger than
 * later and would dominate Adam's second moment. While θ is learned this way K_uu carries the fixed jitter
 * {@link InducingPosterior#KUU_JITTER}. The minibatch estimate of L before the step is reported to the
 * {@link IterationListener}. Minibatches are consecutive slices of a seeded permutation of the rows, re-shuffled
 * every epoch. With decaying steps for q(u) and θ (Robbins–Monro) the iterates settle, and a
 * {@link BoundMonitor} on the estimates ends the fit when the bound has stopped rising
 * ({@link StochasticSchedule#stopping()}).
 *
 * <p><b>Full batch</b> (minibatch ≥ n, what {@code approxgp regress} uses while n·M² is small), with hyperparameters
 * learned: the optimum q(u) at given θ is Titsias' (2009), the natural step with ρ = 1 on all rows, and the
 * gradient of the collapsed bound L*(θ) = max_q L(θ, q) is ∂L/∂θ at that q held fixed (q is a stationary point:
 * envelope theorem), which {@link DtcBound#collapsed} evaluates in Titsias' closed form without forming q. So θ is
 * fitted by L-BFGS ({@link CollapsedLbfgs}: relative decrease 1e-9, gradient
 * tolerance 1e-6, at most {@code iterations} iterations) on L*, deterministic and converging, instead of Adam steps against a q(u)
 * that lags behind them. On scikit-learn's diabetes data (354 rows, M = 200) 300 Adam steps at rate 0.01 (the
 * earlier full-batch path) ended with the bound still rising by 1.2 nats per 25 steps and every length-scale
 * between 1.9 and 3.7, against 2.8 to 1.5·10⁴ for the exact GP's ML-II fit. The first {@link Trainer#step} runs
 * the L-BFGS; each step then moves to the next L-BFGS iterate (q(u) optimal there, formed when a snapshot asks for
 * it) and reports L* there; after the last iterate the model stays put. K_uu carries the fixed jitter {@link InducingPosterior#KUU_JITTER} here too,
 * so that L* is a smooth function of θ for the line search.
 *
 * <p>Cost per iteration O(|B| M² + M³); memory O(M² + |B| M) plus one int per training row (the permutation).
 * Prediction and full-data bounds stream over rows in chunks; the full-batch fit keeps K(X, Z), n × M, between the
 * two passes of an evaluation while it has at most {@link DtcBound#KEEP_CROSS} entries.
 */
public final class Dtc {
  static final int CHUNK = 2048;

  private Dtc() {}

  /**
   * A fitted DTC++ model: the hyperparameters and q(u) = N(m, S) at the end of the fit.
   *
   * @param kernel the SE kernel at the final hyperparameters
   * @param noiseVariance σ²
   * @param inducing the inducing inputs Z (M rows, no targets)
   * @param mean m (length M; owned, not copied)
   * @param covariance S (M × M; owned, not copied)
   * @param iterations iterations run
   * @param objective the last minibatch estimate of the bound (NaN before the first iteration)
   * @param inducingJitter ε added to K_uu's diagonal ({@link InducingPosterior#KUU_JITTER} for a stochastic fit, else
   * 0)
   */
  public record Fit(
      SquaredExponential kernel,
      double noiseVariance,
      RegressionData inducing,
      double[] mean,
      Matrix covariance,
      int iterations,
      double objective,
      double inducingJitter) {

    /**
     * Predictive mean and variance of y* (Hensman et al. 2013, §4: q(f*) = ∫ p(f* | u) q(u) du):
     * μ* = a*ᵀ m, σ*² = k** − k*ᵀK_uu⁻¹k* + a*ᵀ S a* + σ², a* = K_uu⁻¹ k*. Streams over test rows.
     */
    public PredictiveMoments predict(RegressionData test) {
      int d = inducing.d();
      DtcBound.requireDim(test, d);
      boolean ard = kernel.isArd();
      SquaredExponential.Rows k = kernel.rows(d);
      int mM = inducing.n();
      Cholesky kuu = InducingPosterior.kuu(k, inducing, inducingJitter);
      double[] mu = new double[test.n()];
      double[] var = new double[test.n()];
      for (int from = 0; from < test.n(); from += CHUNK) {
        int to = Math.min(test.n(), from + CHUNK);
        int c = to - from;
        double[] xt = Arrays.copyOfRange(test.x(), from * d, to * d);
        Matrix kut = k.cross(inducing.x(), mM, xt, c);
        Matrix at = kuu.solve(kut);
        Matrix sat = covariance.mult(at);
        double[] kd = kut.data();
        double[] ad = at.data();
        double[] sd = sat.data();
        for (int i = 0; i < c; i++) {
          double mi = 0;
          double q = 0;
          double v = 0;
          for (int a = 0; a < mM; a++) {
            double aa = ad[a * c + i];
            mi += aa * mean[a];
            q += kd[a * c + i] * aa;
            v += aa * sd[a * c + i];
          }
          mu[from + i] = mi;
          var[from + i] = Math.max(k.signalVariance() - q, 0) + v + noiseVariance;
        }
      }
      return new PredictiveMoments(mu, var);
    }

    /** The bound L on the full training data at this q(u) and these hyperparameters (streams over rows). */
    public double elbo(RegressionData train) {
      boolean ard = kernel.isArd();
      return DtcBound.objective(
          train,
          inducing,
          DtcBound.params(kernel, noiseVariance, train.d()),
          ard,
          mean,
          covariance,
          null,
          inducingJitter);
    }
  }

  /**
   * Fits DTC++.
   *
   * @param train training rows with targets
   * @param inducing inducing inputs Z (e.g. {@code KMeans.fit(train, M, seed, iters).centroidInputs()})
   * @param kernel initial SE kernel (ARD or isotropic)
   * @param noiseVariance initial σ² (> 0)
   */
  public static Fit fit(
      RegressionData train,
      RegressionData inducing,
      SquaredExponential kernel,
      double noiseVariance,
      InducingOptions options,
      IterationListener listener) {
    Trainer t = new Trainer(train, inducing, kernel, noiseVariance, options);
    IterationListener l = listener == null ? IterationListener.NONE : listener;
    long start = System.nanoTime();
    while (t.iteration() < options.schedule().iterations() && !t.stopped()) {
      double obj = t.step();
      l.onIteration(t.iteration(), obj, (System.nanoTime() - start) * 1e-9);
    }
    return t.snapshot();
  }

  /**
   * A DTC++ fit advanced one iteration at a time, for per-iteration traces (RMSE vs iterations, the paper's
   * Fig. 2): call {@link #step} and take a {@link #snapshot} whenever predictions are wanted.
   */
  public static final class Trainer {
    private final RegressionData train;
    private final RegressionData inducing;
    private final InducingOptions options;
    private final boolean ard;
    private final int[] perm;
    private final SplittableRandom rng;
    private final Adam adam;
    private double[] params; // (log ℓ…, log σ_f², log σ²)
    private InducingPosterior q;
    private int position;
    private int iteration;
    private double last = Double.NaN;
    private final boolean fullBatch;
    private CollapsedLbfgs lbfgs; // full batch: the L-BFGS iterates (computed at the first step)
    private final BoundMonitor monitor;
    private double[] evalX; // the fixed batch of fixedBound (drawn at its first call)
    private double[] evalY;
    private final double jitter; // ε on K_uu's diagonal: KUU_JITTER while θ is learned, else 0

    public Trainer(
        RegressionData train,
        RegressionData inducing,
        SquaredExponential kernel,
        double noiseVariance,
        InducingOptions options) {
      if (!train.hasTargets()) {
        throw new IllegalArgumentException("training rows need targets");
      }
      if (train.n() < 1) {
        throw new IllegalArgumentException("no training rows");
      }
      DtcBound.requireDim(inducing, train.d());
      if (!(noiseVariance > 0) || !Double.isFinite(noiseVariance)) {
        throw new IllegalArgumentException("noise variance must be positive, got " + noiseVariance);
      }
      this.train = train;
      this.inducing = inducing;
      this.options = options;
      this.ard = kernel.isArd();
      this.params = DtcBound.params(kernel, noiseVariance, train.d());
      this.perm = new int[train.n()];
      for (int i = 0; i < perm.length; i++) {
        perm[i] = i;
      }
      this.rng = new SplittableRandom(options.schedule().seed());
      shuffle();
      this.adam = new Adam(params.length, Adam.Settings.of(options.hyperStep().initial()));
      this.monitor = BoundMonitor.of(
          options.schedule().stopping(), InducingOptions.DEFAULT_STOPPING, train.n());
      SquaredExponential.Rows k = DtcBound.kernelOf(params, train.d(), ard);
      this.fullBatch = options.learnHyperparameters() && options.schedule().fullBatchFor(train.n());
      this.jitter = options.learnHyperparameters() ? InducingPosterior.KUU_JITTER : 0;
      this.q = InducingPosterior.prior(InducingPosterior.kuu(k, inducing, jitter));
    }

    private void shuffle() {
      for (int i = perm.length - 1; i > 0; i--) {
        int j = rng.nextInt(i + 1);
        int t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
      }
      position = 0;
    }

    /**
     * Runs one iteration; returns the minibatch estimate of the bound before the step (full batch with learned
     * hyperparameters: the collapsed bound at the new L-BFGS iterate, class comment).
     */
    public double step() {
      if (fullBatch) {
        return stepFullBatch();
      }
      int n = train.n();
      int b = options.schedule().batchFor(n);
      if (position + b > n) {
        shuffle();
      }
      int from = position;
      position += b;
      iteration++;
      int d = train.d();
      SquaredExponential.Rows k = DtcBound.kernelOf(params, d, ard);
      Cholesky kuu = InducingPosterior.kuu(k, inducing, jitter);
      Matrix kinv = kuu.inverse();
      double scale = (double) n / b;
      DtcBound.Terms terms = new DtcBound.Terms(inducing.n(), params.length);
      double[] xb = train.gatherX(perm, from, from + b);
      double[] yb = train.gatherY(perm, from, from + b);
      DtcBound.accumulate(
          k, params, inducing, kuu, kinv, q.mean(), q.covariance(), xb, yb, b, terms);
      if (iteration == 1 && options.learnHyperparameters()) {
        // q(u) from the prior to its optimum for this batch before θ's first gradient (class
        // comment)
        q.stepTowards(kinv, terms.aat, terms.ay, scale * Math.exp(-params[params.length - 1]), 1.0);
        terms = new DtcBound.Terms(inducing.n(), params.length);
        DtcBound.accumulate(
            k, params, inducing, kuu, kinv, q.mean(), q.covariance(), xb, yb, b, terms);
      }
      double[] grad = options.learnHyperparameters() ? new double[params.length] : null;
      double value = DtcBound.finish(k, params, inducing, kuu, kinv, q, scale, terms, grad);
      // natural-gradient step on q(u) at the current hyperparameters
      q.stepTowards(
          kinv,
          terms.aat,
          terms.ay,
          scale * Math.exp(-params[params.length - 1]),
          options.schedule().step().at(iteration));
      if (grad != null) {
        double[] unit = new double[params.length];
        Arrays.fill(unit, options.hyperStep().decay(iteration));
        adam.ascend(params, grad, unit);
      }
      last = value;
      monitor.add(value);
      if (monitor.evaluationDue()) {
        monitor.addEvaluation(fixedBound(b));
      }
      return value;
    }

    /**
     * The minibatch estimate of the bound at the current q(u) and θ on a fixed batch of {@code b} rows, the same at
     * every call (BoundMonitor's evaluations on a fixed sample: common random numbers, so that successive values
     * differ by the change of q and θ alone, not by which rows were drawn).
     */
    private double fixedBound(int b) {
      if (evalX == null) {
        int[] rows = BoundMonitor.fixedSample(train.n(), b, options.schedule().seed());
        evalX = train.gatherX(rows, 0, b);
        evalY = train.gatherY(rows, 0, b);
      }
      SquaredExponential.Rows k = DtcBound.kernelOf(params, train.d(), ard);
      Cholesky kuu = InducingPosterior.kuu(k, inducing, jitter);
      Matrix kinv = kuu.inverse();
      DtcBound.Terms terms = new DtcBound.Terms(inducing.n(), params.length);
      DtcBound.accumulate(
          k, params, inducing, kuu, kinv, q.mean(), q.covariance(), evalX, evalY, b, terms);
      return DtcBound.finish(
          k, params, inducing, kuu, kinv, q, (double) train.n() / b, terms, null);
    }

    private double stepFullBatch() {
      if (lbfgs == null) {
        lbfgs = new CollapsedLbfgs(
            (x, g) -> DtcBound.collapsed(train, inducing, x, ard, jitter, g),
            params,
            options.schedule().iterations());
      }
      int t = iteration;
      iteration++;
      if (t >= lbfgs.size()) { // past the last L-BFGS iterate: the model stays put
        return last;
      }
      params = lbfgs.iterate(t);
      q = null; // the optimal q(u) at these θ, computed when a snapshot asks for it
      last = lbfgs.value(t);
      return last;
    }

    /**
     * Whether further steps leave the model as it is or the fit has converged: in full batch, every L-BFGS iterate
     * has been replayed; stochastically, the bound has stopped rising under {@link StochasticSchedule#stopping()}.
     */
    public boolean stopped() {
      return CollapsedLbfgs.stopped(fullBatch, lbfgs, monitor, iteration);
    }

    /**
     * Why the fit stands where it is: converged (L-BFGS's tests, or the smoothed bound's), the iteration cap, a
     * failed L-BFGS line search, or not stopped yet.
     */
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

    /** Iterations run so far. */
    public int iteration() {
      return iteration;
    }

    /** The current model (copies of m and S). */
    public Fit snapshot() {
      if (q == null) {
        q = DtcBound.optimalPosterior(train, inducing, params, ard, jitter);
      }
      double[] kp = Arrays.copyOf(params, params.length - 1);
      return new Fit(
          SquaredExponential.ofLog(kp, ard),
          Math.exp(params[params.length - 1]),
          inducing,
          q.mean().clone(),
          q.covariance().copy(),
          iteration,
          last,
          jitter);
    }
  }
}
