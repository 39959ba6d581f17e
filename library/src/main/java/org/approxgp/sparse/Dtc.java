package org.approxgp.sparse;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.approxgp.data.RegressionData;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.JitterPolicy;
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
 * {@link BoundMonitor} on the estimates ends the fit when the smoothed bound has stopped rising
 * ({@link Options#stopping()}).
 *
 * <p><b>Full batch</b> (minibatch ≥ n, what {@code approxgp regress} uses while n·M² is small), with hyperparameters
 * learned: the optimum q(u) at given θ is Titsias' (2009), the natural step with ρ = 1 on all rows, and the
 * gradient of the collapsed bound L*(θ) = max_q L(θ, q) is ∂L/∂θ at that q held fixed (q is a stationary point:
 * envelope theorem). So θ is fitted by L-BFGS ({@link CollapsedLbfgs}: relative decrease 1e-9, gradient
 * tolerance 1e-6, at most {@code iterations} iterations) on L*, deterministic and converging, instead of Adam steps against a q(u)
 * that lags behind them. On scikit-learn's diabetes data (354 rows, M = 200) 300 Adam steps at rate 0.01 (the
 * earlier full-batch path) ended with the bound still rising by 1.2 nats per 25 steps and every length-scale
 * between 1.9 and 3.7, against 2.8 to 1.5·10⁴ for the exact GP's ML-II fit. The first {@link Trainer#step} runs
 * the L-BFGS; each step then moves to the next L-BFGS iterate (q(u) optimal there) and reports L* there; after
 * the last iterate the model stays put.
 *
 * <p>Cost per iteration O(|B| M² + M³); memory O(M² + |B| M) plus one int per training row (the permutation).
 * No n × M matrix is formed: prediction and full-data bounds stream over rows in chunks.
 */
public final class Dtc {
  static final int CHUNK = 2048;

  private Dtc() {}

  /**
   * Options of a DTC++ fit.
   *
   * @param minibatch rows per iteration |B| (capped at n; ≥ n with learned hyperparameters: the full-batch L-BFGS)
   * @param iterations iteration cap
   * @param seed seed of the minibatch permutation
   * @param naturalStep ρ_t of the q(u) natural-gradient step
   * @param hyperStep Adam's learning rate α_t on the log-hyperparameters at iteration t (a decaying schedule makes
   *     the stochastic fit settle; unused when not learning or in full batch)
   * @param learnHyperparameters whether θ is learned (false: kernel and noise stay as given)
   * @param stopping the rule on the smoothed bound estimate that ends a stochastic fit before the cap, or null to
   *     run every iteration up to the cap
   */
  public record Options(
      int minibatch,
      int iterations,
      long seed,
      StepSchedule naturalStep,
      StepSchedule hyperStep,
      boolean learnHyperparameters,
      BoundMonitor.Rule stopping) {

    public Options {
      if (minibatch < 1 || iterations < 0) {
        throw new IllegalArgumentException(
            "need minibatch >= 1 and iterations >= 0, got " + minibatch + ", " + iterations);
      }
      if (naturalStep == null || hyperStep == null) {
        throw new IllegalArgumentException("naturalStep and hyperStep are required");
      }
    }

    /** A constant Adam learning rate (> 0, ≤ 1) and no early stop. */
    public Options(
        int minibatch,
        int iterations,
        long seed,
        StepSchedule naturalStep,
        double hyperLearningRate,
        boolean learnHyperparameters) {
      this(
          minibatch,
          iterations,
          seed,
          naturalStep,
          StepSchedule.constant(hyperLearningRate),
          learnHyperparameters,
          null);
    }

    /**
     * Defaults: ρ_t = 0.5/(1 + 0.05 (t − 1))^0.6 (κ in the Robbins–Monro range), Adam's rate
     * α_t = 0.01/(1 + 0.01 (t − 1))^0.6 (decaying as ρ_t, so the hyperparameters settle instead of hovering
     * at the step size's noise level), hyperparameters learned, and a stochastic fit stops when its smoothed bound
     * has converged ({@link #DEFAULT_STOPPING}).
     */
    public static Options defaults(int minibatch, int iterations, long seed) {
      return new Options(
          minibatch,
          iterations,
          seed,
          new StepSchedule(0.5, 0.05, 0.6),
          new StepSchedule(0.01, 0.01, 0.6),
          true,
          DEFAULT_STOPPING);
    }
  }

  /**
   * The stopping rule of the stochastic inducing-point fits (DTC++, PIC++): windows of 50 iterations, relative
   * tolerance 10⁻³ — tighter than Stan ADVI's 0.01 because these bounds are sums over all n rows, so a relative
   * change of 0.01 is many nats on large data.
   */
  public static final BoundMonitor.Rule DEFAULT_STOPPING = new BoundMonitor.Rule(50, 1e-3);

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
    public RegressionPrediction predict(RegressionData test) {
      int d = inducing.d();
      requireDim(test, d);
      boolean ard = kernel.isArd();
      SeArd k = new SeArd(SeArd.logParams(kernel, d), d, ard);
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
      return new RegressionPrediction(mu, var);
    }

    /** The bound L on the full training data at this q(u) and these hyperparameters (streams over rows). */
    public double elbo(RegressionData train) {
      boolean ard = kernel.isArd();
      return Dtc.objective(
          train,
          inducing,
          params(kernel, noiseVariance, train.d()),
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
      Options options,
      IterationListener listener) {
    Trainer t = new Trainer(train, inducing, kernel, noiseVariance, options);
    IterationListener l = listener == null ? IterationListener.NONE : listener;
    long start = System.nanoTime();
    while (t.iteration() < options.iterations() && !t.stopped()) {
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
    private final Options options;
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
    private final double
        jitter; // ε on K_uu's diagonal: KUU_JITTER while θ is learned stochastically, else 0

    public Trainer(
        RegressionData train,
        RegressionData inducing,
        SquaredExponential kernel,
        double noiseVariance,
        Options options) {
      if (!train.hasTargets()) {
        throw new IllegalArgumentException("training rows need targets");
      }
      if (train.n() < 1) {
        throw new IllegalArgumentException("no training rows");
      }
      requireDim(inducing, train.d());
      if (!(noiseVariance > 0) || !Double.isFinite(noiseVariance)) {
        throw new IllegalArgumentException("noise variance must be positive, got " + noiseVariance);
      }
      this.train = train;
      this.inducing = inducing;
      this.options = options;
      this.ard = kernel.isArd();
      this.params = params(kernel, noiseVariance, train.d());
      this.perm = new int[train.n()];
      for (int i = 0; i < perm.length; i++) {
        perm[i] = i;
      }
      this.rng = new SplittableRandom(options.seed());
      shuffle();
      this.adam = new Adam(params.length, Adam.Settings.of(options.hyperStep().initial()));
      this.monitor = (options.stopping() != null ? options.stopping() : DEFAULT_STOPPING).start();
      SeArd k = kernelOf(params, train.d(), ard);
      this.fullBatch = options.learnHyperparameters() && options.minibatch() >= train.n();
      this.jitter = options.learnHyperparameters() && !fullBatch ? InducingPosterior.KUU_JITTER : 0;
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
      int b = Math.min(options.minibatch(), n);
      if (position + b > n) {
        shuffle();
      }
      int from = position;
      position += b;
      iteration++;
      int d = train.d();
      SeArd k = kernelOf(params, d, ard);
      Cholesky kuu = InducingPosterior.kuu(k, inducing, jitter);
      Matrix kinv = kuu.inverse();
      double scale = (double) n / b;
      Terms terms = new Terms(inducing.n(), params.length);
      double[] xb = SeArd.gatherX(train, perm, from, from + b);
      double[] yb = SeArd.gatherY(train, perm, from, from + b);
      accumulate(k, params, inducing, kuu, kinv, q.mean(), q.covariance(), xb, yb, b, terms);
      if (iteration == 1 && options.learnHyperparameters()) {
        // q(u) from the prior to its optimum for this batch before θ's first gradient (class
        // comment)
        q.stepTowards(kinv, terms.aat, terms.ay, scale * Math.exp(-params[params.length - 1]), 1.0);
        terms = new Terms(inducing.n(), params.length);
        accumulate(k, params, inducing, kuu, kinv, q.mean(), q.covariance(), xb, yb, b, terms);
      }
      double[] grad = options.learnHyperparameters() ? new double[params.length] : null;
      double value = finish(k, params, inducing, kuu, kinv, q, scale, terms, grad);
      // natural-gradient step on q(u) at the current hyperparameters
      q.stepTowards(
          kinv,
          terms.aat,
          terms.ay,
          scale * Math.exp(-params[params.length - 1]),
          options.naturalStep().at(iteration));
      if (grad != null) {
        double[] unit = new double[params.length];
        Arrays.fill(unit, options.hyperStep().decay(iteration));
        adam.ascend(params, grad, unit);
      }
      last = value;
      monitor.add(value);
      return value;
    }

    private double stepFullBatch() {
      if (lbfgs == null) {
        lbfgs = new CollapsedLbfgs(
            (x, g) -> {
              InducingPosterior opt = optimalPosterior(train, inducing, x, ard);
              return objective(train, inducing, x, ard, opt.mean(), opt.covariance(), g);
            },
            params,
            options.iterations());
      }
      int t = iteration;
      iteration++;
      if (t >= lbfgs.size()) { // past the last L-BFGS iterate: the model stays put
        return last;
      }
      params = lbfgs.iterate(t);
      q = optimalPosterior(train, inducing, params, ard);
      last = lbfgs.value(t);
      return last;
    }

    /**
     * Whether further steps leave the model as it is or the fit has converged: in full batch, every L-BFGS iterate
     * has been replayed; stochastically, the smoothed bound has converged under {@link Options#stopping()}.
     */
    public boolean stopped() {
      return CollapsedLbfgs.stopped(
          fullBatch, lbfgs, monitor, options.stopping() != null, iteration);
    }

    /**
     * Why the fit stands where it is: converged (L-BFGS's tests, or the smoothed bound's), the iteration cap, a
     * failed L-BFGS line search, or not stopped yet.
     */
    public BoundMonitor.StopReason stopReason() {
      return CollapsedLbfgs.verdict(
          fullBatch, lbfgs, monitor, options.stopping() != null, iteration, options.iterations());
    }

    /** Whether the fit has converged ({@link #stopReason()} is {@code CONVERGED}). */
    public boolean converged() {
      return stopReason() == BoundMonitor.StopReason.CONVERGED;
    }

    /** Whether the smoothed bound estimate of a stochastic fit keeps falling ({@link BoundMonitor#diverging()}). */
    public boolean diverging() {
      return !fullBatch && monitor.diverging();
    }

    /** Iterations run so far. */
    public int iteration() {
      return iteration;
    }

    /** The current model (copies of m and S). */
    public Fit snapshot() {
      double[] kp = Arrays.copyOf(params, params.length - 1);
      return new Fit(
          SeArd.kernel(kp, ard),
          Math.exp(params[params.length - 1]),
          inducing,
          q.mean().clone(),
          q.covariance().copy(),
          iteration,
          last,
          jitter);
    }
  }

  // ---------------------------------------------------------------------------------------------------------
  // The bound and its gradient, shared by the trainer, Fit.elbo and the gradient test.

  /** (log ℓ…, log σ_f², log σ²) of a kernel and noise. */
  static double[] params(SquaredExponential kernel, double noiseVariance, int d) {
    double[] kp = SeArd.logParams(kernel, d);
    double[] p = Arrays.copyOf(kp, kp.length + 1);
    p[kp.length] = Math.log(noiseVariance);
    return p;
  }

  static SeArd kernelOf(double[] params, int d, boolean ard) {
    return new SeArd(Arrays.copyOf(params, params.length - 1), d, ard);
  }

  /**
   * The optimal q(u) on all rows at hyperparameters {@code params} (Titsias 2009; the natural-gradient step with
   * ρ = 1 from any start): S⁻¹ = K_uu⁻¹ + σ⁻² Σᵢ aᵢaᵢᵀ, S⁻¹m = σ⁻² Σᵢ aᵢyᵢ, aᵢ = K_uu⁻¹k_u(xᵢ). Streams over rows.
   */
  static InducingPosterior optimalPosterior(
      RegressionData train, RegressionData z, double[] params, boolean ard) {
    int d = train.d();
    int mM = z.n();
    SeArd k = kernelOf(params, d, ard);
    Cholesky kuu = InducingPosterior.kuu(k, z, 0);
    double beta = Math.exp(-params[params.length - 1]);
    Matrix target = kuu.inverse();
    double[] td = target.data();
    double[] t1 = new double[mM];
    int n = train.n();
    for (int from = 0; from < n; from += CHUNK) {
      int to = Math.min(n, from + CHUNK);
      int b = to - from;
      double[] xb = Arrays.copyOfRange(train.x(), from * d, to * d);
      Matrix a = kuu.solve(k.cross(z.x(), mM, xb, b));
      double[] aat = a.multTransB(a).data();
      for (int i = 0; i < td.length; i++) {
        td[i] += beta * aat[i];
      }
      double[] ad = a.data();
      for (int p = 0; p < mM; p++) {
        double sy = 0;
        for (int i = 0; i < b; i++) {
          sy += ad[p * b + i] * train.y()[from + i];
        }
        t1[p] += beta * sy;
      }
    }
    InducingPosterior q = InducingPosterior.prior(kuu);
    q.step(target, t1, 1.0);
    return q;
  }

  static void requireDim(RegressionData rows, int d) {
    if (rows.d() != d) {
      throw new IllegalArgumentException("rows have " + rows.d() + " inputs, expected " + d);
    }
  }

  /**
   * The bound L (full data, scale 1) at hyperparameters {@code params} and q(u) = N(m, S); if {@code grad} is
   * non-null, ∂L/∂params (m, S held fixed) is written into it. Streams over rows in chunks.
   */
  static double objective(
      RegressionData train,
      RegressionData z,
      double[] params,
      boolean ard,
      double[] m,
      Matrix s,
      double[] grad) {
    return objective(train, z, params, ard, m, s, grad, 0);
  }

  /** As {@link #objective(RegressionData, RegressionData, double[], boolean, double[], Matrix, double[])} with
   * K_uu + εI, ε = {@code jitter}. */
  static double objective(
      RegressionData train,
      RegressionData z,
      double[] params,
      boolean ard,
      double[] m,
      Matrix s,
      double[] grad,
      double jitter) {
    int d = train.d();
    SeArd k = kernelOf(params, d, ard);
    Cholesky kuu = InducingPosterior.kuu(k, z, jitter);
    Matrix kinv = kuu.inverse();
    Terms terms = new Terms(z.n(), params.length);
    int n = train.n();
    for (int from = 0; from < n; from += CHUNK) {
      int to = Math.min(n, from + CHUNK);
      double[] xb = Arrays.copyOfRange(train.x(), from * d, to * d);
      double[] yb = Arrays.copyOfRange(train.y(), from, to);
      accumulate(k, params, z, kuu, kinv, m, s, xb, yb, to - from, terms);
    }
    return finishWith(k, params, z, kuu, kinv, m, s, null, 1.0, terms, grad);
  }

  /** Sums over rows that the bound and its gradient need (unscaled). */
  static final class Terms {
    final Matrix aat; // Σ A Aᵀ
    final double[] ar; // Σ A r
    final double[] ay; // Σ A y
    double quad; // Σ (rᵢ² + k̃ᵢᵢ + aᵢᵀSaᵢ)
    int rows;
    final double[]
        gradUb; // Σ_ab G_ub,ab ∂K_ub,ab/∂θ_kernel without the factor σ⁻², per kernel parameter

    Terms(int mM, int np) {
      aat = Matrix.zeros(mM, mM);
      ar = new double[mM];
      ay = new double[mM];
      gradUb = new double[np - 1];
    }
  }

  /**
   * Adds one block of rows (xb, yb; b rows) to {@code terms}. With A = K_uu⁻¹K_uB, r = y − Aᵀm, ν = K_uu⁻¹m,
   * the data part of L is D = −½ Σᵢ[log 2πσ² + σ⁻²(rᵢ² + k̃ᵢᵢ + aᵢᵀSaᵢ)], and (K_uB entries independent)
   * ∂D/∂K_uB = σ⁻²(ν rᵀ + A − K_uu⁻¹ S A); that matrix is contracted here with ∂K_uB/∂θ.
   */
  static void accumulate(
      SeArd k,
      double[] params,
      RegressionData z,
      Cholesky kuu,
      Matrix kinv,
      double[] m,
      Matrix s,
      double[] xb,
      double[] yb,
      int b,
      Terms t) {
    int mM = z.n();
    Matrix kub = k.cross(z.x(), mM, xb, b);
    Matrix a = kuu.solve(kub);
    Matrix sa = s.mult(a);
    double[] nu = kuu.solve(m);
    double[] ad = a.data();
    double[] kd = kub.data();
    double[] sd = sa.data();
    double[] r = new double[b];
    double sf2 = k.signalVariance();
    for (int i = 0; i < b; i++) {
      double mu = 0;
      double qii = 0;
      double c = 0;
      for (int p = 0; p < mM; p++) {
        double av = ad[p * b + i];
        mu += av * m[p];
        qii += kd[p * b + i] * av;
        c += av * sd[p * b + i];
      }
      r[i] = yb[i] - mu;
      t.quad += r[i] * r[i] + (sf2 - qii) + c;
    }
    t.rows += b;
    // Σ A Aᵀ, Σ A r, Σ A y
    Matrix aat = a.multTransB(a);
    double[] tad = t.aat.data();
    double[] nad = aat.data();
    for (int i = 0; i < tad.length; i++) {
      tad[i] += nad[i];
    }
    for (int p = 0; p < mM; p++) {
      double sr = 0;
      double sy = 0;
      for (int i = 0; i < b; i++) {
        sr += ad[p * b + i] * r[i];
        sy += ad[p * b + i] * yb[i];
      }
      t.ar[p] += sr;
      t.ay[p] += sy;
    }
    // G_ub / σ⁻² = ν rᵀ + A − K⁻¹ S A
    Matrix kisa = kinv.mult(sa);
    double[] gd = new double[mM * b];
    double[] kisad = kisa.data();
    for (int p = 0; p < mM; p++) {
      for (int i = 0; i < b; i++) {
        int o = p * b + i;
        gd[o] = nu[p] * r[i] + ad[o] - kisad[o];
      }
    }
    k.accumulateGradient(Matrix.wrap(mM, b, gd), kub, z.x(), xb, t.gradUb);
  }

  private static double finish(
      SeArd k,
      double[] params,
      RegressionData z,
      Cholesky kuu,
      Matrix kinv,
      InducingPosterior q,
      double scale,
      Terms t,
      double[] grad) {
    double[] m = q.mean();
    Matrix s = q.covariance();
    return finishWith(k, params, z, kuu, kinv, m, s, q, scale, t, grad);
  }

  /**
   * L = scale · D − KL and, if asked, ∂L/∂θ. With β = σ⁻², s = scale, ν = K⁻¹m:
   * <ul>
   *   <li>∂L/∂log σ² = s Σᵢ[−½ + ½β(rᵢ² + k̃ᵢᵢ + aᵢᵀSaᵢ)];</li>
   *   <li>∂L/∂K_uB = sβ(ν rᵀ + A − K⁻¹SA) (accumulated), ∂L/∂kᵢᵢ = −½sβ;</li>
   *   <li>∂L/∂K_uu = sβ[−(A r)νᵀ − ½AAᵀ + ½(AAᵀSK⁻¹ + K⁻¹SAAᵀ)] + ½[K⁻¹SK⁻¹ + ννᵀ − K⁻¹] (the last bracket
   *       from −KL), contracted with ∂K_uu/∂θ.</li>
   * </ul>
   */
  static double finishWith(
      SeArd k,
      double[] params,
      RegressionData z,
      Cholesky kuu,
      Matrix kinv,
      double[] m,
      Matrix s,
      InducingPosterior q,
      double scale,
      Terms t,
      double[] grad) {
    int mM = z.n();
    double noise = Math.exp(params[params.length - 1]);
    double beta = 1 / noise;
    double data = scale * (-0.5 * t.rows * Math.log(2 * Math.PI * noise) - 0.5 * beta * t.quad);
    double logDetS;
    if (q != null) {
      logDetS = q.logDetCovariance();
    } else {
      logDetS = Cholesky.factor(s.copy(), JitterPolicy.none()).logDet();
    }
    double[] nu = kuu.solve(m);
    double mt = 0;
    for (int p = 0; p < mM; p++) {
      mt += m[p] * nu[p];
    }
    double kl = 0.5 * (kinv.dot(s) + mt - mM + kuu.logDet() - logDetS);
    double value = data - kl;
    if (grad != null) {
      int nk = params.length - 1;
      double sf2 = k.signalVariance();
      for (int j = 0; j < nk; j++) {
        grad[j] = scale * beta * t.gradUb[j];
      }
      grad[nk - 1] += -0.5 * scale * beta * t.rows * sf2; // k_ii = σ_f², ∂k_ii/∂log σ_f² = σ_f²
      grad[nk] = scale * (-0.5 * t.rows + 0.5 * beta * t.quad);
      Matrix kis = kinv.mult(s); // K⁻¹S
      Matrix aatSki = t.aat.mult(kis.transpose()); // AAᵀ S K⁻¹
      Matrix kisAat = kis.mult(t.aat); // K⁻¹ S AAᵀ
      Matrix kisk = kis.mult(kinv); // K⁻¹ S K⁻¹
      double[] g = new double[mM * mM];
      double[] aat = t.aat.data();
      double[] x1 = aatSki.data();
      double[] x2 = kisAat.data();
      double[] x3 = kisk.data();
      double[] ki = kinv.data();
      double sb = scale * beta;
      for (int p = 0; p < mM; p++) {
        for (int c = 0; c < mM; c++) {
          int o = p * mM + c;
          g[o] = sb * (-t.ar[p] * nu[c] - 0.5 * aat[o] + 0.5 * (x1[o] + x2[o]))
              + 0.5 * (x3[o] + nu[p] * nu[c] - ki[o]);
        }
      }
      Matrix kzz = k.cross(z.x(), mM, z.x(), mM);
      k.accumulateGradient(Matrix.wrap(mM, mM, g), kzz, z.x(), z.x(), grad);
    }
    return value;
  }
}
