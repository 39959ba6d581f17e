package org.approxgp.sparse;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.approxgp.data.RegressionData;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.Matrix;
import org.approxgp.optimize.Adam;

/**
 * The state and the steps of an sVBSSGP run ({@link SvbssgpTraining} is its public face; the maths is in the
 * {@link Svbssgp} class comment). q(α) = N(b, Λ⁻¹) over α = vec(ε, s) is held by its mean b and precision Λ
 * (with Λ's Cholesky factor L); the hyperparameters h = [log σ_n², log σ_s², log ℓ] by Adam.
 *
 * <p>The paper's parameter vector η = [b, M (lower triangle, log-diagonal), …] (Lemma 1, Cov = M Mᵀ) is kept as
 * a view ({@link SvbssgpEta}), computed from (b, Λ) when asked for ({@link #eta()}, {@link #stochasticGradient}):
 * the reparameterised gradient of eq. 22 with respect to η is still available and tested for unbiasedness. The
 * rows, their grouping by partition and the strategy summing the data terms are in {@link SvbssgpRows}.
 */
final class SvbssgpTrainer {

  private static final double TWO_PI = 2 * Math.PI;
  private static final double LOG_2PI = Math.log(TWO_PI);
  /**
   * At most this many rows per rank-k update of the curvature (a scratch of up to this many rows of D, allocated
   * once; fewer updates, each a BLAS dsyrk on the whole D × D matrix, are faster).
   */
  private static final int MAX_BLOCK = 2048;

  /** The training rows grouped by partition, and the strategy summing their data terms. */
  private final SvbssgpRows data;
  /** The training rows grouped by partition ({@link SvbssgpRows#grouped}). */
  final RegressionData grouped;
  /** The partitions of {@link #grouped} ({@link SvbssgpRows#local}). */
  final RowBlocks local;
  /** The partitions of the caller's rows ({@link SvbssgpRows#parts}). */
  final RowBlocks parts;

  private final int[]
      order; // positions 0…n−1, permuted in place within partitions to draw minibatches
  final SvbssgpOptions options;
  final int m;
  final int d;
  final int dim;
  private final int md;
  // q(α): mean, precision Λ (both triangles), its lower factor L
  final double[] b;
  private final Matrix lam;
  private final Matrix chol;
  // hyperparameters [log σ_n², log σ_s², log ℓ_1 … log ℓ_d]
  final double[] hyper;
  private Adam adam;
  private final UniformRandomProvider rng;
  private final ZigguratSampler.NormalizedGaussian normal;
  final BoundMonitor monitor;
  private int[]
      savedOrder; // fixedEstimate's copy of order (allocated at construction when evaluations are
  // taken)
  int iteration;
  // η view (lazily recomputed)
  private double[] eta;
  // scratch
  private final Matrix curvature; // −Ĝ, upper triangle, accumulated by rank-k updates
  private final double[] block;
  private final int blockRows;
  private final double[] ones;
  private final double[] gB;
  private final double[] invEll;
  private final double[] cosBuf;
  private final double[] sinBuf;
  private final double[] hyperGrad;
  private final double[] hyperUnit;
  private final double[][] alphaScratch; // the samples α of an iteration (overwritten by the next)
  private final double[] accScratch;
  private final List<PartitionGradients.Draw> draws = new ArrayList<>();

  SvbssgpTrainer(
      RegressionData train,
      int[] partitionOfRow,
      SvbssgpOptions options,
      PartitionGradients gradients) {
    Objects.requireNonNull(train, "train");
    Objects.requireNonNull(options, "options");
    this.data = new SvbssgpRows(train, partitionOfRow, gradients);
    this.grouped = data.grouped;
    this.local = data.local;
    this.parts = data.parts;
    this.order = new int[train.n()];
    Arrays.setAll(order, i -> i);
    this.options = options;
    this.m = options.m();
    this.d = train.d();
    this.md = m * d;
    this.dim = md + 2 * m;
    this.b = new double[dim];
    this.lam = Matrix.zeros(dim, dim);
    this.chol = Matrix.zeros(dim, dim);
    this.hyper = new double[2 + d];
    this.adam = new Adam(hyper.length, Adam.Settings.of(options.learningRate()));
    this.curvature = Matrix.zeros(dim, dim);
    int largest = data.largestPartition();
    int take = Math.min(options.minibatch().orElse(largest), largest);
    this.blockRows = (int) Math.max(1, Math.min(MAX_BLOCK, (long) partitionsPerIteration() * take));
    this.block = new double[blockRows * dim];
    this.ones = new double[blockRows];
    Arrays.fill(ones, 1);
    this.gB = new double[dim];
    this.invEll = new double[d];
    this.cosBuf = new double[m];
    this.sinBuf = new double[m];
    this.hyperGrad = new double[hyper.length];
    this.hyperUnit = new double[hyper.length];
    this.alphaScratch = new double[options.gradientSamples()][dim];
    this.accScratch = new double[2 + dim + d];
    this.monitor =
        BoundMonitor.of(options.schedule().stopping(), SvbssgpOptions.DEFAULT_STOPPING, train.n());
    if (monitor.takesEvaluations()) {
      this.savedOrder = new int[train.n()];
    }
    this.rng =
        RandomSource.XO_RO_SHI_RO_128_PP.create(new long[] {options.schedule().seed(), 0x5b55L});
    this.normal = ZigguratSampler.NormalizedGaussian.of(rng);
    SvbssgpInit.initialise(this, train, rng, normal);
    refactor();
  }

  // ---- state access for SvbssgpInit ----

  /** a, the partitions an iteration reads: the schedule's batch, or every partition (p). */
  int partitionsPerIteration() {
    return options.schedule().batch().orElse(parts.count());
  }

  /** Whether the stopping rule has fired (never without one: the monitor then only watches). */
  boolean stopped() {
    return monitor.converged();
  }

  /** Λ (both triangles are kept equal). */
  Matrix precision() {
    return lam;
  }

  /** Refactors L from Λ; throws if Λ is not positive definite. */
  void refactor() {
    double[] src = lam.data();
    double[] dst = chol.data();
    System.arraycopy(src, 0, dst, 0, src.length);
    if (!Cholesky.factorInPlace(chol)) {
      throw new IllegalStateException(
          "sVBSSGP: the precision of q(α) lost positive definiteness at iteration " + iteration);
    }
    eta = null;
  }

  /**
   * One iteration: the natural-gradient step of q(α) and an Adam step of the hyperparameters, from the same
   * partition-sampled estimates (Svbssgp class comment, "Steps").
   *
   * @return the iteration's unbiased estimate of L before the step (data and prior terms sampled, entropy exact)
   */
  double step() {
    int iter = iteration + 1;
    double rho = options.schedule().step().at(iter);
    double elbo = estimate(rng, normal);
    if (!Double.isFinite(elbo)) {
      throw new IllegalStateException(
          "sVBSSGP diverged at iteration " + iter + " (non-finite bound estimate)");
    }
    update(rho, iter);
    iteration = iter;
    eta = null;
    monitor.add(elbo);
    if (monitor.evaluationDue()) {
      monitor.addEvaluation(fixedEstimate());
    }
    return elbo;
  }

  /**
   * The estimate of L at the current state from the same draws at every call (BoundMonitor's evaluations on a
   * fixed sample: common random numbers, the same partitions, rows and standard-normal z): a generator seeded from
   * the fit's seed alone, restarted each time. The fit's own generator is not touched, and the row order the
   * minibatch draws permute is restored, so the fit is the same with or without these evaluations; the scratch
   * {@link #estimate} fills is refilled by the next step's.
   */
  private double fixedEstimate() {
    if (savedOrder == null) {
      savedOrder = new int[order.length];
    }
    System.arraycopy(order, 0, savedOrder, 0, order.length);
    Arrays.setAll(order, i -> i); // the minibatch draws start from the same order every time
    UniformRandomProvider fixed = RandomSource.XO_RO_SHI_RO_128_PP.create(
        new long[] {options.schedule().seed() ^ BoundMonitor.FIXED_SAMPLE_SALT, 0x5b55L});
    double value = estimate(fixed, ZigguratSampler.NormalizedGaussian.of(fixed));
    System.arraycopy(savedOrder, 0, order, 0, order.length);
    return value;
  }

  /**
   * The iteration's estimates at the current state, from {@code random}'s draws: ĝ_b − (the prior part is added by
   * {@link #update}) into {@link #gB}, the hyperparameters' gradient into {@link #hyperGrad}, −Ĝ into the upper
   * triangle of {@link #curvature}.
   *
   * @return the estimate of L
   */
  double estimate(UniformRandomProvider random, ZigguratSampler.NormalizedGaussian gauss) {
    int samples = options.gradientSamples();
    double noise = Math.exp(hyper[0]);
    double lambda = Math.exp(hyper[1]) / m;
    for (int c = 0; c < d; c++) {
      invEll[c] = Math.exp(-hyper[2 + c]);
    }
    double logNorm = 0.5 * Math.log(TWO_PI * noise);
    double[][] alphas = alphaScratch;
    List<PartitionGradients.Point> points = new ArrayList<>(samples);
    List<List<PartitionGradients.Draw>> drawn = new ArrayList<>(samples);
    boolean anyDraw = false;
    double[] ell = invEll.clone();
    for (int j = 0; j < samples; j++) {
      // α = b + L⁻ᵀ z, z ~ N(0, I): Cov = (L Lᵀ)⁻¹ = Λ⁻¹ (Lemma 1 with M = L⁻ᵀ)
      double[] alpha = alphas[j];
      for (int k = 0; k < dim; k++) {
        alpha[k] = gauss.sample();
      }
      Cholesky.solveUpperInPlace(chol, alpha);
      for (int k = 0; k < dim; k++) {
        alpha[k] += b[k];
      }
      drawPartitions(random);
      points.add(new PartitionGradients.Point(m, d, alpha, ell, noise, logNorm, samples));
      drawn.add(List.copyOf(draws));
      anyDraw |= !draws.isEmpty();
    }
    double[][][] terms = anyDraw ? terms(points, drawn) : null;
    double[] acc = accScratch;
    Arrays.fill(gB, 0);
    Arrays.fill(hyperGrad, 0);
    Arrays.fill(curvature.data(), 0);
    double elbo = 0;
    for (int j = 0; j < samples; j++) {
      double[] alpha = alphas[j];
      Arrays.fill(acc, 0);
      if (terms != null) {
        for (double[] term : terms[j]) {
          PartitionGradients.addInOrder(term, acc);
        }
      }
      hyperGrad[0] += acc[1];
      for (int c = 0; c < d; c++) {
        hyperGrad[2 + c] += acc[2 + dim + c];
      }
      for (int k = 0; k < dim; k++) {
        gB[k] += acc[2 + k] / samples;
      }
      double logPrior = 0;
      for (int k = 0; k < md; k++) {
        logPrior += -0.5 * alpha[k] * alpha[k] - 0.5 * LOG_2PI;
      }
      double ss = 0;
      for (int k = md; k < dim; k++) {
        ss += alpha[k] * alpha[k];
      }
      logPrior += -0.5 * ss / lambda - m * Math.log(TWO_PI * lambda);
      hyperGrad[1] += (0.5 * ss / lambda - m) / samples;
      elbo += (acc[0] + logPrior) / samples;
      addCurvature(alpha, drawn.get(j), noise, samples);
    }
    double logDet = 0;
    double[] l = chol.data();
    for (int i = 0; i < dim; i++) {
      logDet -= Math.log(l[i * dim + i]);
    }
    elbo += 0.5 * dim * (1 + LOG_2PI) + logDet;
    return elbo;
  }

  /** The −Ĝ of the last {@link #estimate} (upper triangle; tests). */
  Matrix curvature() {
    return curvature;
  }

  /** The natural-gradient step of q(α) and the Adam step of the hyperparameters from {@link #estimate}'s values. */
  private void update(double rho, int iter) {
    double lambda = Math.exp(hyper[1]) / m;
    // ∇_b L = E_q[∇_α log p(y | α)] − P b (P = blkdiag(I, λ⁻¹ I), the prior precision)
    for (int k = 0; k < dim; k++) {
      gB[k] -= (k < md ? 1 : 1 / lambda) * b[k];
    }
    // Λ ← (1 − ρ) Λ + ρ (P + Ĝ) on the upper triangle (curvature holds −Ĝ), mirrored
    double[] a = lam.data();
    double[] g = curvature.data();
    for (int i = 0; i < dim; i++) {
      for (int k = i; k < dim; k++) {
        double target = -g[i * dim + k] + (i == k ? (i < md ? 1 : 1 / lambda) : 0);
        double v = (1 - rho) * a[i * dim + k] + rho * target;
        a[i * dim + k] = v;
        a[k * dim + i] = v;
      }
    }
    refactor();
    // b ← b + ρ Λ⁻¹ ∇_b L (with the new Λ)
    Cholesky.solveLowerInPlace(chol, gB);
    Cholesky.solveUpperInPlace(chol, gB);
    for (int k = 0; k < dim; k++) {
      b[k] += rho * gB[k];
    }
    if (options.learnHyperparameters()) {
      for (double v : hyperGrad) {
        if (!Double.isFinite(v)) {
          throw new IllegalStateException(
              "sVBSSGP diverged at iteration " + iter + " (non-finite gradient)");
        }
      }
      // Adam's step decays with the same schedule as ρ; log ℓ moves at LENGTHSCALE_STEP_FACTOR ×
      // the step
      double decay = rho / options.schedule().step().initial();
      hyperUnit[0] = decay;
      hyperUnit[1] = decay;
      for (int c = 0; c < d; c++) {
        hyperUnit[2 + c] = decay * Svbssgp.LENGTHSCALE_STEP_FACTOR;
      }
      adam.ascend(hyper, hyperGrad, hyperUnit);
    }
  }

  /** Draws a partitions (and minibatch rows) into {@link #draws} from {@code random} (Theorem 1, eq. 22). */
  private void drawPartitions(UniformRandomProvider random) {
    int p = parts.count();
    int a = partitionsPerIteration();
    boolean every = options.schedule().batch().isEmpty();
    int[] start = parts.start();
    draws.clear();
    for (int draw = 0; draw < a; draw++) {
      int part = every ? draw : random.nextInt(p);
      int lo = start[part];
      int size = start[part + 1] - lo;
      if (size == 0) {
        continue;
      }
      int take = Math.min(options.minibatch().orElse(size), size);
      int[] rows = null;
      if (take < size) {
        for (int t = 0; t < take; t++) {
          int u = lo + t + random.nextInt(size - t);
          int tmp = order[lo + t];
          order[lo + t] = order[u];
          order[u] = tmp;
        }
        rows = Arrays.copyOfRange(order, lo, lo + take);
      }
      draws.add(new PartitionGradients.Draw(part, rows, (double) p / a * size / take));
    }
  }

  /**
   * Adds −Ĝ to {@link #curvature}'s upper triangle: Ĝ = (1/S) Σ_draws w Σ_rows σ_n⁻² J Jᵀ, J = ∂f/∂α at the sample
   * α (f = φ_θ(x)ᵀ s), the partition-sampled (unbiased) estimate of the Gauss–Newton curvature
   * E_q[Σ_rows σ_n⁻² J Jᵀ] of −log p(y | α) (exact in the s block, where log p(y | α) is quadratic).
   */
  private void addCurvature(
      double[] alpha, List<PartitionGradients.Draw> drawn, double noise, int samples) {
    double[] x = grouped.x();
    int filled = 0;
    for (PartitionGradients.Draw draw : drawn) {
      double scale = Math.sqrt(draw.weight() / (noise * samples));
      int[] rows = draw.rows() != null ? draw.rows() : local.rows();
      int from = draw.rows() != null ? 0 : local.start()[draw.partition()];
      int to = draw.rows() != null ? rows.length : local.start()[draw.partition() + 1];
      for (int t = from; t < to; t++) {
        int off = rows[t] * d;
        int o = filled * dim;
        PartitionGradients.phases(alpha, x, off, invEll, m, d, cosBuf, sinBuf);
        for (int l = 0; l < m; l++) {
          block[o + md + 2 * l] = scale * cosBuf[l];
          block[o + md + 2 * l + 1] = scale * sinBuf[l];
          // ∂f/∂ε_lc = (−s_{2l} sin a_l + s_{2l+1} cos a_l) x_c / ℓ_c
          double h = scale * (-alpha[md + 2 * l] * sinBuf[l] + alpha[md + 2 * l + 1] * cosBuf[l]);
          for (int c = 0; c < d; c++) {
            block[o + l * d + c] = h * x[off + c] * invEll[c];
          }
        }
        if (++filled == blockRows) {
          curvature.symmetricUpdateUpper(0, filled, block, ones);
          filled = 0;
        }
      }
    }
    if (filled > 0) {
      curvature.symmetricUpdateUpper(0, filled, block, ones);
    }
  }

  // ---- the η view (Lemma 1's b and M) ----

  /** Index in η of M_ij ({@link SvbssgpEta#triIndex}). */
  int triIndex(int i, int j) {
    return SvbssgpEta.triIndex(dim, i, j);
  }

  /** Index in η of log σ_n² ({@link SvbssgpEta#iNoise}). */
  int iNoise() {
    return SvbssgpEta.iNoise(dim);
  }

  /** η = [b, M (lower, log-diagonal), log σ_n², log σ_s², log ℓ], M the lower Cholesky factor of Λ⁻¹. */
  double[] eta() {
    if (eta == null) {
      eta = SvbssgpEta.pack(b, chol, hyper, dim);
    }
    return eta;
  }

  /** Replaces the state by η (layout of {@link #eta()}); Adam's moments and the iteration count are reset. */
  void setEta(double[] values) {
    if (values.length != iNoise() + 2 + d) {
      throw new IllegalArgumentException("need " + (iNoise() + 2 + d) + " parameters");
    }
    System.arraycopy(values, 0, b, 0, dim);
    System.arraycopy(SvbssgpEta.precision(values, dim).data(), 0, lam.data(), 0, dim * dim);
    System.arraycopy(values, iNoise(), hyper, 0, hyper.length);
    adam = new Adam(hyper.length, Adam.Settings.of(options.learningRate()));
    iteration = 0;
    refactor();
    eta = values.clone();
  }

  /** M (lower, row-major dim × dim) with M Mᵀ = Λ⁻¹. */
  double[] unpackScale() {
    return SvbssgpEta.scale(eta(), dim);
  }

  /**
   * The stochastic gradient of L with respect to η (Appendix G, eq. 22, with minibatch reweighting), written to
   * {@code out}; the state is not changed. Draws from {@code random} only.
   *
   * @return the matching estimate of L (data and prior terms from the same draws, entropy exact)
   */
  double stochasticGradient(UniformRandomProvider random, double[] out) {
    return SvbssgpEtaGradient.compute(this, eta(), random, out);
  }

  /** Draws for {@link SvbssgpEtaGradient}: the partitions of one sample, as {@link #step()} draws them. */
  List<PartitionGradients.Draw> drawFor(UniformRandomProvider random) {
    drawPartitions(random);
    return List.copyOf(draws);
  }

  /** The data terms of the drawn partitions, summed by the run's strategy ({@link SvbssgpRows#terms}). */
  double[][][] terms(
      List<PartitionGradients.Point> points, List<List<PartitionGradients.Draw>> drawn) {
    return data.terms(points, drawn);
  }
}
