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
 * <p><b>Hyperparameters.</b> RVGP fixes them (it reads them from a file); by default so do we — pass a kernel
 * and noise learned elsewhere, e.g. by {@link Dtc}. Optionally ({@link Options#learnHyperparameters}) they take
 * an Adam step per iteration along the sampled blocks' estimate of ∂F/∂(log ℓ, log σ_f², log σ²) at the current
 * q(u) (formulas in {@code Block.gradient}); the sVBSSGP paper says DTC++ and PIC++ "find point estimates of the
 * kernel hyperparameters", without saying how. Inducing inputs are fixed. Each iteration samples s partitions
 * uniformly without replacement from the p non-empty ones and scales their sum by p/s; its cost is
 * O(Σ_sampled (n_i³ + n_i² M + n_i M²) + M³).
 */
public final class Pic {

  private Pic() {
  }

  /**
   * Options of a PIC++ fit.
   *
   * @param blocksPerIteration partitions sampled per iteration s (capped at the number of non-empty ones)
   * @param iterations number of iterations
   * @param seed seed of the partition sampling
   * @param naturalStep ρ_t of the q(u) natural-gradient step
   * @param hyperLearningRate Adam learning rate on the log-hyperparameters (> 0; unused when not learning)
   * @param learnHyperparameters whether (log ℓ, log σ_f², log σ²) are learned by stochastic gradient ascent on
   *     F (not in the authors' code, which fixes them)
   */
  public record Options(int blocksPerIteration, int iterations, long seed, StepSchedule naturalStep,
      double hyperLearningRate, boolean learnHyperparameters) {

    public Options {
      if (blocksPerIteration < 1 || iterations < 0) {
        throw new IllegalArgumentException("need blocksPerIteration >= 1 and iterations >= 0, got "
            + blocksPerIteration + ", " + iterations);
      }
      if (naturalStep == null) {
        throw new IllegalArgumentException("naturalStep is required");
      }
      if (!(hyperLearningRate > 0) || !Double.isFinite(hyperLearningRate)) {
        throw new IllegalArgumentException("hyperLearningRate must be positive, got " + hyperLearningRate);
      }
    }

    /**
     * Defaults: ρ_t = 0.5/(1 + 0.05 (t − 1))^0.6 (as {@link Dtc.Options#defaults}); hyperparameters fixed, as
     * in the authors' code.
     */
    public static Options defaults(int blocksPerIteration, int iterations, long seed) {
      return new Options(blocksPerIteration, iterations, seed, new StepSchedule(0.5, 0.05, 0.6), 0.01, false);
    }
  }

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
   */
  public record Fit(SquaredExponential kernel, double noiseVariance, RegressionData inducing, double[] mean,
      Matrix covariance, RegressionData train, Blocks blocks, int iterations, double objective) {

    /**
     * Predictive mean and variance of y* for test rows with partition labels {@code testPartition} (labels
     * beyond the training partitions, or of partitions without training rows, use no local block). Streams over
     * the test partitions; for repeated predictions on one test set (per-iteration traces) build a
     * {@link #predictor} once.
     */
    public RegressionPrediction predict(RegressionData test, int[] testPartition) {
      double[] mu = new double[test.n()];
      double[] var = new double[test.n()];
      Predictor.forEachBlock(this, test, testPartition, (rows, prep) -> prep.apply(mean, covariance, rows, mu, var));
      return new RegressionPrediction(mu, var);
    }

    /**
     * The parts of the PIC predictive at these test rows that do not depend on q(u) (the kernel and noise are
     * fixed in PIC++), computed once: M = P_* − H P_k (M doubles per test row), H y_k and the q-free variance.
     * Memory n_test × M doubles.
     */
    public Predictor predictor(RegressionData test, int[] testPartition) {
      return new Predictor(this, test, testPartition);
    }

    /** F on all training blocks at this q(u) and these hyperparameters (exact, not stochastic). */
    public double elbo() {
      double[] params = Dtc.params(kernel, noiseVariance, train.d());
      int[] all = new int[blocks.count()];
      int ne = 0;
      for (int c = 0; c < blocks.count(); c++) {
        if (blocks.size(c) > 0) {
          all[ne++] = c;
        }
      }
      double logDetS = Cholesky.factor(covariance.copy(), JitterPolicy.standard()).logDet();
      return evaluate(train, blocks, all, ne, 1.0, inducing, params, kernel.isArd(), mean, covariance, logDetS,
          null, null, null).value();
    }
  }

  /**
   * Fits PIC++'s q(u) with the kernel and noise held fixed.
   *
   * @param train training rows with targets
   * @param partition partition label (≥ 0) of every training row
   * @param inducing inducing inputs Z
   */
  public static Fit fit(RegressionData train, int[] partition, RegressionData inducing, SquaredExponential kernel,
      double noiseVariance, Options options, IterationListener listener) {
    Trainer t = new Trainer(train, partition, inducing, kernel, noiseVariance, options);
    IterationListener l = listener == null ? IterationListener.NONE : listener;
    long start = System.nanoTime();
    for (int i = 0; i < options.iterations(); i++) {
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
    private final Options options;
    private final Blocks blocks;
    private final int[] nonEmpty;
    private final SplittableRandom rng;
    private final Adam adam;
    private final double[] params; // (log ℓ…, log σ_f², log σ²)
    private final InducingPosterior q;
    private SquaredExponential kernel;
    private int iteration;
    private double last = Double.NaN;

    public Trainer(RegressionData train, int[] partition, RegressionData inducing, SquaredExponential kernel,
        double noiseVariance, Options options) {
      if (!train.hasTargets()) {
        throw new IllegalArgumentException("training rows need targets");
      }
      if (partition.length != train.n()) {
        throw new IllegalArgumentException(partition.length + " labels for " + train.n() + " training rows");
      }
      Dtc.requireDim(inducing, train.d());
      if (!(noiseVariance > 0) || !Double.isFinite(noiseVariance)) {
        throw new IllegalArgumentException("noise variance must be positive, got " + noiseVariance);
      }
      this.train = train;
      this.inducing = inducing;
      this.kernel = kernel;
      this.ard = kernel.isArd();
      this.params = Dtc.params(kernel, noiseVariance, train.d());
      this.options = options;
      this.blocks = Blocks.of(partition, max(partition) + 1);
      int ne = 0;
      for (int c = 0; c < blocks.count(); c++) {
        ne += blocks.size(c) > 0 ? 1 : 0;
      }
      this.nonEmpty = new int[ne];
      for (int c = 0, i = 0; c < blocks.count(); c++) {
        if (blocks.size(c) > 0) {
          nonEmpty[i++] = c;
        }
      }
      this.rng = new SplittableRandom(options.seed());
      this.adam = new Adam(params.length, Adam.Settings.of(options.hyperLearningRate()));
      this.q = InducingPosterior.prior(Dtc.kuu(Dtc.kernelOf(params, train.d(), ard), inducing));
    }

    /** Runs one iteration; returns the stochastic estimate of F (at q and θ before the step). */
    public double step() {
      int p = nonEmpty.length;
      int s = Math.min(options.blocksPerIteration(), p);
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
      int mM = inducing.n();
      Matrix lam = Matrix.zeros(mM, mM);
      double[] t1 = new double[mM];
      double[] grad = options.learnHyperparameters() ? new double[params.length] : null;
      Eval e = evaluate(train, blocks, pool, s, scale, inducing, params, ard, q.mean(), q.covariance(),
          q.logDetCovariance(), lam, t1, grad);
      Matrix target = e.kinv().copy();
      double[] td = target.data();
      double[] ld = lam.data();
      for (int i = 0; i < td.length; i++) {
        td[i] += scale * ld[i];
      }
      for (int a = 0; a < mM; a++) {
        t1[a] *= scale;
      }
      q.step(target, t1, options.naturalStep().at(iteration));
      if (grad != null) {
        adam.ascend(params, grad);
        kernel = SeArd.kernel(Arrays.copyOf(params, params.length - 1), ard);
      }
      last = e.value();
      return last;
    }

    public int iteration() {
      return iteration;
    }

    /** The current model (copies of m and S). */
    public Fit snapshot() {
      return new Fit(kernel, Math.exp(params[params.length - 1]), inducing, q.mean().clone(), q.covariance().copy(),
          train, blocks, iteration, last);
    }
  }

  /** The value of an evaluation and the K_uu⁻¹ it used. */
  record Eval(double value, Matrix kinv) {
  }

  /**
   * F restricted to {@code which[0 … count)} blocks, their sum scaled by {@code scale}, minus KL; optionally the
   * natural-gradient sums Σ AΓ⁻¹Aᵀ into {@code lam} and Σ AΓ⁻¹y into {@code t1} (unscaled), and ∂/∂params into
   * {@code grad} (scaled). The KL part of the gradient (as in {@link Dtc}): ∂(−KL)/∂K_uu = ½[K⁻¹SK⁻¹ + ννᵀ − K⁻¹].
   */
  static Eval evaluate(RegressionData train, Blocks blocks, int[] which, int count, double scale,
      RegressionData z, double[] params, boolean ard, double[] m, Matrix s, double logDetS, Matrix lam,
      double[] t1, double[] grad) {
    int d = train.d();
    int mM = z.n();
    SeArd k = Dtc.kernelOf(params, d, ard);
    Cholesky kuu = Dtc.kuu(k, z);
    Matrix kinv = kuu.inverse();
    double noise = Math.exp(params[params.length - 1]);
    double[] nu = kuu.solve(m);
    Matrix kinvS = grad == null ? null : kinv.mult(s);
    double[] gK = grad == null ? null : new double[mM * mM];
    double sum = 0;
    for (int i = 0; i < count; i++) {
      Block b = Block.of(k, noise, z, kuu, train, blocks.rows(which[i]));
      sum += b.expectedLogLik(m, s);
      if (lam != null) {
        b.addNatural(lam, t1);
      }
      if (grad != null) {
        b.gradient(k, z, noise, m, s, nu, kinvS, scale, gK, grad);
      }
    }
    double mt = 0;
    for (int a = 0; a < mM; a++) {
      mt += m[a] * nu[a];
    }
    double kl = 0.5 * (kinv.dot(s) + mt - mM + kuu.logDet() - logDetS);
    if (grad != null) {
      double[] kisk = kinvS.mult(kinv).data();
      double[] ki = kinv.data();
      for (int a = 0; a < mM; a++) {
        for (int c = 0; c < mM; c++) {
          int o = a * mM + c;
          gK[o] += 0.5 * (kisk[o] + nu[a] * nu[c] - ki[o]);
        }
      }
      k.accumulateGradient(Matrix.wrap(mM, mM, gK), k.cross(z.x(), mM, z.x(), mM), z.x(), z.x(), grad);
    }
    return new Eval(scale * sum - kl, kinv);
  }

  /**
   * F on all training blocks at hyperparameters {@code params} and q(u) = N(m, S), with ∂F/∂params into
   * {@code grad} if non-null (m, S fixed) — for the gradient test.
   */
  static double objective(RegressionData train, int[] partition, RegressionData z, double[] params, boolean ard,
      double[] m, Matrix s, double[] grad) {
    Blocks blocks = Blocks.of(partition, max(partition) + 1);
    int[] all = new int[blocks.count()];
    int ne = 0;
    for (int c = 0; c < blocks.count(); c++) {
      if (blocks.size(c) > 0) {
        all[ne++] = c;
      }
    }
    double logDetS = Cholesky.factor(s.copy(), JitterPolicy.none()).logDet();
    return evaluate(train, blocks, all, ne, 1.0, z, params, ard, m, s, logDetS, null, null, grad).value();
  }

  private static int max(int[] labels) {
    int m = -1;
    for (int l : labels) {
      if (l < 0) {
        throw new IllegalArgumentException("partition labels must be >= 0, got " + l);
      }
      m = Math.max(m, l);
    }
    return m;
  }

  /** One training block's quantities: x, y, A = K_uu⁻¹K_uk, the Cholesky of Γ_k = K_kk − Q_kk + σ²I. */
  private static final class Block {
    final int size;
    final double[] x;
    final double[] y;
    final Matrix kub; // K_uk, M × n_k
    final Matrix a; // M × n_k
    final Cholesky gamma;
    private Matrix w; // Γ⁻¹Aᵀ, computed on first use

    private Block(int size, double[] x, double[] y, Matrix kub, Matrix a, Cholesky gamma) {
      this.size = size;
      this.x = x;
      this.y = y;
      this.kub = kub;
      this.a = a;
      this.gamma = gamma;
    }

    /** W = Γ_k⁻¹ A_kᵀ (n_k × M). */
    Matrix w() {
      if (w == null) {
        w = gamma.solve(a.transpose());
      }
      return w;
    }

    static Block of(SeArd k, double noise, RegressionData z, Cholesky kuu, RegressionData train, int[] rows) {
      int nb = rows.length;
      double[] x = SeArd.gatherX(train, rows, 0, nb);
      double[] y = SeArd.gatherY(train, rows, 0, nb);
      Matrix kub = k.cross(z.x(), z.n(), x, nb);
      Matrix v = kuu.solveLower(kub); // V = L⁻¹K_uk, Q_kk = VᵀV
      Matrix a = kuu.solveUpper(v);
      Matrix g = k.cross(x, nb, x, nb);
      double[] gd = g.data();
      double[] qd = v.gram().data();
      for (int i = 0; i < gd.length; i++) {
        gd[i] -= qd[i];
      }
      g.addDiagonal(noise);
      return new Block(nb, x, y, kub, a, Cholesky.factor(g, JitterPolicy.standard()));
    }

    /** r = y − P_k m = y − Aᵀm. */
    double[] residual(double[] m) {
      double[] mu = a.multTransA(m);
      double[] r = new double[size];
      for (int i = 0; i < size; i++) {
        r[i] = y[i] - mu[i];
      }
      return r;
    }

    /** E_q[log N(y_k | P_k u, Γ_k)] = log N(y_k | Aᵀm, Γ_k) − ½ tr(Γ_k⁻¹ Aᵀ S A). */
    double expectedLogLik(double[] m, Matrix s) {
      double[] r = residual(m);
      Matrix w = w(); // Γ⁻¹Aᵀ  (n_k × M)
      Matrix sa = s.mult(a); // M × n_k
      double tr = 0;
      double[] wd = w.data();
      double[] sd = sa.data();
      int mM = a.rows();
      for (int i = 0; i < size; i++) {
        for (int p = 0; p < mM; p++) {
          tr += wd[i * mM + p] * sd[p * size + i];
        }
      }
      return -0.5 * (size * Math.log(2 * Math.PI) + gamma.logDet() + gamma.quadForm(r) + tr);
    }

    /**
     * Adds scale · ∂f_k/∂θ to {@code grad} and scale · ∂f_k/∂K_uu to {@code gK}, where
     * f_k = −½[log|Γ| + rᵀΓ⁻¹r + tr(Γ⁻¹C)] + const, r = y − Aᵀm, C = AᵀSA, Γ = K_kk − K_kuK⁻¹K_uk + σ²I.
     * With α = Γ⁻¹r, W = Γ⁻¹Aᵀ, U = AW, ν = K⁻¹m and G_Γ = ∂f/∂Γ = ½[ααᵀ + WSWᵀ − Γ⁻¹]:
     * ∂f/∂K_kk = G_Γ; ∂f/∂K_uk = ναᵀ − K⁻¹SWᵀ − 2AG_Γ; ∂f/∂K_uu = −(Aα)νᵀ + ½(USK⁻¹ + K⁻¹SU) + AG_ΓAᵀ;
     * ∂f/∂log σ² = σ² tr(G_Γ). (With Γ = σ²I these are DTC's terms without the trace term of Titsias.)
     */
    void gradient(SeArd k, RegressionData z, double noise, double[] m, Matrix s, double[] nu, Matrix kinvS,
        double scale, double[] gK, double[] grad) {
      int mM = a.rows();
      int n = size;
      double[] alpha = gamma.solve(residual(m));
      Matrix wm = w();
      Matrix wsw = wm.mult(s).multTransB(wm); // W S Wᵀ (n × n)
      double[] gg = gamma.inverse().data();
      double[] wswd = wsw.data();
      for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
          int o = i * n + j;
          gg[o] = 0.5 * (alpha[i] * alpha[j] + wswd[o] - gg[o]);
        }
      }
      Matrix gGamma = Matrix.wrap(n, n, gg);
      double tr = 0;
      for (int i = 0; i < n; i++) {
        tr += gg[i * n + i];
      }
      grad[grad.length - 1] += scale * noise * tr;
      Matrix gScaled = gGamma.copy();
      gScaled.scale(scale);
      k.accumulateGradient(gScaled, k.cross(x, n, x, n), x, x, grad);
      Matrix ag = a.mult(gGamma); // A G_Γ (M × n)
      double[] agd = ag.data();
      double[] ksw = kinvS.multTransB(wm).data(); // K⁻¹ S Wᵀ (M × n)
      double[] gub = new double[mM * n];
      for (int p = 0; p < mM; p++) {
        for (int i = 0; i < n; i++) {
          int o = p * n + i;
          gub[o] = scale * (nu[p] * alpha[i] - ksw[o] - 2 * agd[o]);
        }
      }
      k.accumulateGradient(Matrix.wrap(mM, n, gub), kub, z.x(), x, grad);
      double[] aAlpha = a.mult(alpha);
      Matrix u = a.mult(wm); // A Γ⁻¹ Aᵀ
      double[] usk = u.mult(kinvS.transpose()).data(); // U S K⁻¹
      double[] ksu = kinvS.mult(u).data(); // K⁻¹ S U
      double[] agat = ag.multTransB(a).data(); // A G_Γ Aᵀ
      for (int p = 0; p < mM; p++) {
        for (int c = 0; c < mM; c++) {
          int o = p * mM + c;
          gK[o] += scale * (-aAlpha[p] * nu[c] + 0.5 * (usk[o] + ksu[o]) + agat[o]);
        }
      }
    }

    /** Adds A Γ⁻¹ Aᵀ to {@code lam} and A Γ⁻¹ y to {@code t1}. */
    void addNatural(Matrix lam, double[] t1) {
      Matrix awt = a.mult(w()); // A Γ⁻¹ Aᵀ
      double[] ld = lam.data();
      double[] ad = awt.data();
      for (int i = 0; i < ld.length; i++) {
        ld[i] += ad[i];
      }
      double[] ay = w().multTransA(y); // A Γ⁻¹ y = Wᵀ y
      for (int p = 0; p < t1.length; p++) {
        t1[p] += ay[p];
      }
    }
  }

  /**
   * PIC's predictive at a fixed test set with the q(u)-free parts precomputed (RVGP's {@code PrecomputedData}):
   * μ* = M m + H y_k, σ*² = v₀ + (M S Mᵀ)** with v₀ = k** − Q** − H J_k* + σ². Valid for every q(u) of fits
   * that share the kernel, noise, inducing inputs and training partition of the fit it was built from.
   */
  public static final class Predictor {
    private final Fit source;
    private final int mM;
    private final double[] rowsM; // n_t × M, row-major
    private final double[] offset; // H y_k
    private final double[] base; // v₀

    private Predictor(Fit fit, RegressionData test, int[] testPartition) {
      this.source = fit;
      this.mM = fit.inducing().n();
      int nt = test.n();
      rowsM = new double[nt * mM];
      offset = new double[nt];
      base = new double[nt];
      forEachBlock(fit, test, testPartition, (rows, prep) -> {
        int c = rows.length;
        for (int t = 0; t < c; t++) {
          int row = rows[t];
          for (int a = 0; a < mM; a++) {
            rowsM[row * mM + a] = prep.mt[a * c + t];
          }
          offset[row] = prep.offset[t];
          base[row] = prep.base[t];
        }
      });
    }

    /** Predictions at q(u) of {@code fit}, which must share the kernel, noise, Z and training data. */
    public RegressionPrediction predict(Fit fit) {
      if (!Arrays.equals(fit.kernel().logHyperparameters(), source.kernel().logHyperparameters())
          || fit.kernel().isArd() != source.kernel().isArd() || fit.noiseVariance() != source.noiseVariance()
          || fit.inducing() != source.inducing() || fit.train() != source.train()) {
        throw new IllegalArgumentException("this predictor was built for another kernel, noise, Z or training set");
      }
      int nt = offset.length;
      double[] mu = new double[nt];
      double[] var = new double[nt];
      double[] m = fit.mean();
      double[] s = fit.covariance().data();
      double[] sm = new double[mM];
      for (int t = 0; t < nt; t++) {
        int o = t * mM;
        double mean = offset[t];
        for (int a = 0; a < mM; a++) {
          mean += rowsM[o + a] * m[a];
        }
        // (M S Mᵀ)_tt = Σ_a M_ta (S M_tᵀ)_a
        double v = 0;
        for (int a = 0; a < mM; a++) {
          double acc = 0;
          int sa = a * mM;
          for (int b = 0; b < mM; b++) {
            acc += s[sa + b] * rowsM[o + b];
          }
          sm[a] = acc;
          v += rowsM[o + a] * acc;
        }
        mu[t] = mean;
        var[t] = base[t] + v;
      }
      return new RegressionPrediction(mu, var);
    }

    /** One test partition's q-free quantities: Mᵀ (M × n_t, column per test row), H y_k, v₀. */
    private record Prepared(double[] mt, double[] offset, double[] base) {
      void apply(double[] m, Matrix s, int[] rows, double[] mu, double[] var) {
        int c = rows.length;
        int mM = m.length;
        Matrix smt = s.mult(Matrix.wrap(mM, c, mt));
        double[] sd = smt.data();
        for (int t = 0; t < c; t++) {
          double mean = offset[t];
          double v = 0;
          for (int a = 0; a < mM; a++) {
            mean += mt[a * c + t] * m[a];
            v += mt[a * c + t] * sd[a * c + t];
          }
          mu[rows[t]] = mean;
          var[rows[t]] = base[t] + v;
        }
      }
    }

    private interface BlockSink {
      void accept(int[] rows, Prepared prep);
    }

    /** Calls {@code sink} for every test partition with its rows and prepared quantities. */
    static void forEachBlock(Fit fit, RegressionData test, int[] testPartition, BlockSink sink) {
      RegressionData train = fit.train();
      int d = train.d();
      Dtc.requireDim(test, d);
      if (testPartition.length != test.n()) {
        throw new IllegalArgumentException(testPartition.length + " labels for " + test.n() + " test rows");
      }
      SeArd k = new SeArd(SeArd.logParams(fit.kernel(), d), d, fit.kernel().isArd());
      Cholesky kuu = Dtc.kuu(k, fit.inducing());
      Blocks blocks = fit.blocks();
      Blocks testBlocks = Blocks.of(testPartition, Math.max(blocks.count(), max(testPartition) + 1));
      for (int c = 0; c < testBlocks.count(); c++) {
        int[] rows = testBlocks.rows(c);
        if (rows.length == 0) {
          continue;
        }
        double[] xt = SeArd.gatherX(test, rows, 0, rows.length);
        Block local = c < blocks.count() && blocks.size(c) > 0
            ? Block.of(k, fit.noiseVariance(), fit.inducing(), kuu, train, blocks.rows(c)) : null;
        sink.accept(rows, prepare(k, kuu, fit.inducing(), fit.noiseVariance(), local, xt, rows.length));
      }
    }

    /**
     * With A_* = K_uu⁻¹K_u* (columns P_*ᵀ), J_*k = K_*k − Q_*k and Hᵀ = Γ_k⁻¹ J_k*: Mᵀ = A_* − A_k Hᵀ,
     * offset = H y_k, v₀ = k** − Q** − (H J_k*)** + σ² (no local block: H = 0).
     */
    private static Prepared prepare(SeArd k, Cholesky kuu, RegressionData z, double noise, Block local,
        double[] xt, int nt) {
      int mM = z.n();
      Matrix kut = k.cross(z.x(), mM, xt, nt);
      Matrix at = kuu.solve(kut);
      double[] mt = at.data().clone();
      double[] off = new double[nt];
      double[] hj = new double[nt];
      if (local != null) {
        int nb = local.size;
        Matrix jtb = k.cross(xt, nt, local.x, nb);
        double[] jd = jtb.data();
        double[] qd = kut.multTransA(local.a).data(); // Q_*k = K_*u K⁻¹ K_uk
        for (int i = 0; i < jd.length; i++) {
          jd[i] -= qd[i];
        }
        Matrix ht = local.gamma.solve(jtb.transpose()); // n_b × n_t
        double[] htd = ht.data();
        double[] pd = local.a.mult(ht).data(); // A_k Hᵀ
        for (int i = 0; i < mt.length; i++) {
          mt[i] -= pd[i];
        }
        for (int t = 0; t < nt; t++) {
          double o = 0;
          double dj = 0;
          for (int j = 0; j < nb; j++) {
            o += htd[j * nt + t] * local.y[j];
            dj += htd[j * nt + t] * jd[t * nb + j];
          }
          off[t] = o;
          hj[t] = dj;
        }
      }
      double[] kd = kut.data();
      double[] ad = at.data();
      double[] base = new double[nt];
      for (int t = 0; t < nt; t++) {
        double q = 0;
        for (int a = 0; a < mM; a++) {
          q += kd[a * nt + t] * ad[a * nt + t];
        }
        base[t] = Math.max(k.signalVariance() - q - hj[t], 0) + noise;
      }
      return new Prepared(mt, off, base);
    }
  }

  /**
   * Row indices grouped by partition label (a counting sort: O(n) ints, no per-row objects).
   */
  public static final class Blocks {
    private final int[] start; // count + 1
    private final int[] rows;

    private Blocks(int[] start, int[] rows) {
      this.start = start;
      this.rows = rows;
    }

    /** Groups rows 0 … n−1 by their labels, which must lie in [0, count). */
    public static Blocks of(int[] labels, int count) {
      int[] start = new int[count + 1];
      for (int l : labels) {
        if (l < 0 || l >= count) {
          throw new IllegalArgumentException("label " + l + " outside [0, " + count + ")");
        }
        start[l + 1]++;
      }
      for (int c = 0; c < count; c++) {
        start[c + 1] += start[c];
      }
      int[] fill = Arrays.copyOf(start, count);
      int[] rows = new int[labels.length];
      for (int i = 0; i < labels.length; i++) {
        rows[fill[labels[i]]++] = i;
      }
      return new Blocks(start, rows);
    }

    /** Number of partitions (labels 0 … count−1). */
    public int count() {
      return start.length - 1;
    }

    /** Rows in partition c. */
    public int size(int c) {
      return start[c + 1] - start[c];
    }

    /** The row indices of partition c (a copy, ascending). */
    public int[] rows(int c) {
      return Arrays.copyOfRange(rows, start[c], start[c + 1]);
    }
  }
}
