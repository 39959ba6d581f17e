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
import org.approxgp.linalg.JitterPolicy;
import org.approxgp.linalg.Matrix;
import org.approxgp.optimize.Adam;

/**
 * sVBSSGP: stochastic variational Bayesian sparse-spectrum GP regression (Hoang, Hoang &amp; Low, AAAI 2017,
 * {@code shared/papers/sparse-spectrum-svbssgp.txt}).
 *
 * <p><b>Model</b> (paper §2). The SE-ARD kernel is replaced by its m-frequency trigonometric estimate
 * φ_θ(x)ᵀ Λ φ_θ(x'), Λ = (σ_s²/m) I (eq. 1–2, {@link SpectralFeatures}). The frequencies θ = vec(r₁…r_m) get
 * the prior N(0, Θ), Θ = (4π² I ⊗ Δ)⁻¹, Δ = diag(ℓ²) (§2); the nuisance weights s (2m of them) get
 * p(s) = N(0, Λ) independent of θ (eq. 3), and y | α ~ N(Φ_θ(X)ᵀ s, σ_n² I) with α = vec(θ, s) (Lemma 2).
 *
 * <p><b>Variational family</b> (§3.1, Lemma 1). α = M z + b with z ~ N(0, I) (the paper's §5 choice of ψ),
 * so q(α) = N(b, M Mᵀ) is one <em>joint</em> Gaussian over all frequencies and weights (Remark 2). Here M
 * is lower triangular with a positive diagonal (every Gaussian has such a factor; log|M| = Σ log M_ii);
 * the diagonal is stored and updated as log M_ii so it stays positive.
 *
 * <p><b>Bound and its gradient</b> (§3.2, eq. 5–6; Theorem 1; Appendix G eq. 22). The ELBO is
 * L = E_z[log p(y | α) + log p(α)] + H[q], H[q] = ½ D (1 + log 2π) + log|M|. One iteration draws
 * {@code gradientSamples} z's and {@code partitionsPerIteration} (= a) partition indices i.i.d. uniform on
 * {0…p−1}; with v_i = y_i − Φ_θ(X_i)ᵀ s (Theorem 1) the data part of the gradient is (p/a) Σ_k F_{i_k},
 * F_i = −½ σ_n⁻² ∇(v_iᵀ v_i), an unbiased estimate of ∇ log p(y | α) (Proposition 2). With a
 * {@code minibatch} B &lt; |X_i|, B rows of the partition are drawn without replacement and weighted by
 * |X_i|/B, which keeps the estimate unbiased and bounds the rows touched per iteration by a·B whatever n
 * is. The prior term follows Appendix D: ∂/∂b = ∇_α log p(α), ∂/∂M = ∇_α log p(α) zᵀ (lower triangle), and
 * the entropy adds ∂ log|M| / ∂ log M_ii = 1.
 *
 * <p><b>Frequencies in prior units; learned length-scales.</b> The paper designs Θ a priori (§2: "learning the
 * length-scales in Δ ... is cast as optimizing θ"). With Θ fixed at a wrong scale (e.g. unit length-scales on
 * 26 standardised one-hot inputs, where SSGP learns ℓ of 3 to 1,700) the bound's gradient cannot move q(θ)
 * far in 30–50 iterations, and sVBSSGP did not learn. So θ is written θ_lc = ε_lc / (2π ℓ_c) with
 * p(ε) = N(0, I) — the same prior N(0, (4π²Δ)⁻¹) on θ as eq. 1 — and q is the joint Gaussian over
 * α = vec(ε, s) (Lemma 1 unchanged: α = M z + b). The bound L is the same functional of q(θ, s) in either
 * coordinate system (the Jacobian Σ log(2π ℓ) cancels between log p and the entropy); ℓ, σ_n² and σ_s² are
 * then learned by ascending L (type-II maximum likelihood, as SSGP learns ℓ, Lázaro-Gredilla et al. 2010),
 * with the same unbiased partition-sampled gradient, when {@link Options#learnHyperparameters()}:
 * ∂L/∂ log ℓ_c = Σ_rows (v/σ_n²) Σ_l (−s_{2l} sin a_l + s_{2l+1} cos a_l)(−ε_lc x_c/ℓ_c) with
 * a_l = Σ_c ε_lc x_c/ℓ_c (estimated), ∂L/∂ log σ_n² = Σ_rows (½ v²/σ_n² − ½) (estimated),
 * ∂L/∂ log σ_s² = ½ sᵀs / λ − m (λ = σ_s²/m). The fitted model ({@link #mean()}, {@link #scale()}) reports
 * q in θ coordinates: b_θ = D b_ε, M_θ = D M_ε, D = diag(1/(2π ℓ_c)).
 *
 * <p><b>Step sizes.</b> The paper only requires an appropriate schedule (§4.1) and states none, so this class uses
 * {@link Adam} (Kingma &amp; Ba 2015) with the step size {@link Options#learningRate()} (ascent, bias-corrected
 * moments, β₁ = 0.9, β₂ = 0.999, ε = 1e-8) and per-coordinate units: Adam's steps have the size of the step size
 * in each coordinate's own units, so the units are chosen. b_i and the entries of row i of M move in units of
 * M_ii (q's current scale along α_i; a frequency known to 1e-3 is not moved by 1e-2; without this the first
 * steps destroy the initial fit); log M_ii, log σ_n² and log σ_s² move in absolute units, and log ℓ at 3 × the
 * step (ℓ must often move by orders of magnitude: SSGP's learned ℓ on standardised diamonds span 1 to 1,700).
 * Default step 0.03. Measured on 8,000 standardised diamonds rows (p = 20, 30 iterations, test RMSE 0.748 at the
 * start; SSGP 0.105): ℓ learned at the plain step 0.61, at 3 × the step 0.50; a step of 0.01 moved too little in
 * 30 iterations and 0.1 let ε outrun s (σ_n² grew beyond var(y)). Moving b_s in units of its prior sd √λ instead
 * (so that s follows θ faster) gave 0.45 there but a flat RMSE trace on flights, so it is not done.
 *
 * <p><b>Initialisation.</b> b_ε is a draw from the prior N(0, I) (random Fourier features) with M_εε = 0.1 I;
 * (b_s, M_ss) is the exact Gaussian posterior of s given θ = b_θ on the rows of
 * min(p, 10a) randomly drawn partitions (reweighted), and the default σ_n² is that fit's mean squared
 * residual.
 *
 * <p><b>Where the data terms are summed.</b> Each draw's term (p/a)·F_i is summed on its own and the terms are added
 * in draw order; the sum is delegated to a {@link PartitionGradients} strategy (default: in this JVM; the
 * {@code approxgp-spark} module runs it as a Spark job over the partitioned rows, with the same bits). The run
 * makes every random draw itself, so the strategy does not change the draws.
 *
 * <p><b>Prediction</b> (Proposition 1, §4.2): see {@link #predict(RegressionData, int[], double, int, long)}.
 *
 * <p><b>Memory.</b> Nothing of size n × m is formed: features are computed row by row inside the loops
 * (training touches only the sampled rows; prediction streams the rows of each test point's partition).
 * The n-dependent state is the training data itself plus two int arrays of n row indices (the rows
 * grouped by partition, and the trainer's own copy that it permutes to draw minibatches).
 */
public final class Svbssgp {

  private static final double TWO_PI = 2 * Math.PI;
  private static final double LOG_2PI = Math.log(TWO_PI);

  private final RegressionData train;
  private final Partitioning parts;
  private final int m;
  private final int d;
  private final int dim;
  private final double[] b;
  private final double[] scale; // M, row-major dim × dim, lower triangular
  private final double noiseVariance;
  private final double signalVariance;
  private final double[] lengthscales;
  private final Options options;
  private final int iterations;

  private Svbssgp(Training t) {
    this.train = t.train;
    this.parts = t.parts;
    this.m = t.m;
    this.d = t.d;
    this.dim = t.dim;
    this.lengthscales = t.lengthscales();
    // q over θ = ε / (2π ℓ) (coordinate-wise): b_θ = D b_ε, M_θ = D M_ε with D = diag(1 / (2π ℓ_c)) on θ rows
    this.b = Arrays.copyOf(t.eta, dim);
    this.scale = t.unpackScale();
    for (int i = 0; i < m * d; i++) {
      double f = 1 / (TWO_PI * lengthscales[i % d]);
      b[i] *= f;
      for (int j = 0; j <= i; j++) {
        scale[i * dim + j] *= f;
      }
    }
    this.noiseVariance = Math.exp(t.eta[t.iNoise]);
    this.signalVariance = Math.exp(t.eta[t.iSignal]);
    this.options = t.options;
    this.iterations = t.iteration;
  }

  /**
   * Options. Build with {@link #builder()}; defaults follow the paper's AIRLINE settings where it gives them
   * (2m = 40, γ = 0, r = 5, §5) and are stated on each builder method otherwise.
   *
   * @param m number of spectral frequencies (2m basis functions)
   * @param partitionsPerIteration a, partitions drawn (uniformly, with replacement) per iteration
   * @param minibatch B, rows drawn without replacement from each drawn partition (0 = all its rows)
   * @param gradientSamples b, samples z ~ N(0, I) per iteration (Appendix G)
   * @param iterations number of stochastic gradient steps
   * @param gamma γ ∈ [−1, 1] of the test conditional (Proposition 1)
   * @param predictiveSamples r, samples of α for the predictive mean and variance (§4.2)
   * @param seed seed of every random draw (same seed, same fit and predictions)
   * @param learningRate Adam step size
   * @param learnHyperparameters whether σ_n², σ_s² and the prior length-scales ℓ are learned by the bound
   * @param noiseVariance initial σ_n² (NaN: 0.1 × the sample variance of y)
   * @param signalVariance initial σ_s² (NaN: the sample variance of y)
   * @param lengthscales initial ℓ of the frequency prior Θ, one per input (null: each input's standard
   *     deviation)
   */
  public record Options(int m, int partitionsPerIteration, int minibatch, int gradientSamples, int iterations,
      double gamma, int predictiveSamples, long seed, double learningRate, boolean learnHyperparameters,
      double noiseVariance, double signalVariance, double[] lengthscales) {

    public Options {
      if (m < 1 || partitionsPerIteration < 1 || minibatch < 0 || gradientSamples < 1 || iterations < 0
          || predictiveSamples < 1) {
        throw new IllegalArgumentException("need m, partitionsPerIteration, gradientSamples, predictiveSamples >= 1"
            + " and minibatch, iterations >= 0");
      }
      checkGamma(gamma);
      if (!(learningRate > 0) || !Double.isFinite(learningRate)) {
        throw new IllegalArgumentException("learning rate must be positive, got " + learningRate);
      }
      if (!Double.isNaN(noiseVariance) && !(noiseVariance > 0 && Double.isFinite(noiseVariance))) {
        throw new IllegalArgumentException("noise variance must be positive, got " + noiseVariance);
      }
      if (!Double.isNaN(signalVariance) && !(signalVariance > 0 && Double.isFinite(signalVariance))) {
        throw new IllegalArgumentException("signal variance must be positive, got " + signalVariance);
      }
      if (lengthscales != null) {
        lengthscales = lengthscales.clone();
        for (double l : lengthscales) {
          if (!(l > 0) || !Double.isFinite(l)) {
            throw new IllegalArgumentException("length-scales must be positive, got " + l);
          }
        }
      }
    }

    /** ℓ of the frequency prior (a copy), or null for the default. */
    @Override
    public double[] lengthscales() {
      return lengthscales == null ? null : lengthscales.clone();
    }

    /** A builder holding the defaults. */
    public static Builder builder() {
      return new Builder();
    }

    /** A builder starting from these options. */
    public Builder toBuilder() {
      Builder bld = new Builder();
      bld.m = m;
      bld.partitionsPerIteration = partitionsPerIteration;
      bld.minibatch = minibatch;
      bld.gradientSamples = gradientSamples;
      bld.iterations = iterations;
      bld.gamma = gamma;
      bld.predictiveSamples = predictiveSamples;
      bld.seed = seed;
      bld.learningRate = learningRate;
      bld.learnHyperparameters = learnHyperparameters;
      bld.noiseVariance = noiseVariance;
      bld.signalVariance = signalVariance;
      bld.lengthscales = lengthscales;
      return bld;
    }

    /** Builder for {@link Options}. */
    public static final class Builder {
      private int m = 20;
      private int partitionsPerIteration = 10;
      private int minibatch = 0;
      private int gradientSamples = 1;
      private int iterations = 100;
      private double gamma = 0;
      private int predictiveSamples = 5;
      private long seed = 1;
      private double learningRate = 0.03;
      private boolean learnHyperparameters = true;
      private double noiseVariance = Double.NaN;
      private double signalVariance = Double.NaN;
      private double[] lengthscales;

      private Builder() { }

      /** Frequencies m (2m features); default 20 (the paper's 2m = 40). */
      public Builder m(int v) {
        m = v;
        return this;
      }

      /** Partitions per iteration a; default 10 (the paper does not state it). */
      public Builder partitionsPerIteration(int v) {
        partitionsPerIteration = v;
        return this;
      }

      /** Rows per drawn partition B (0 = all, the paper's Theorem 1); default 0. */
      public Builder minibatch(int v) {
        minibatch = v;
        return this;
      }

      /** z samples per iteration b; default 1. */
      public Builder gradientSamples(int v) {
        gradientSamples = v;
        return this;
      }

      /** Iterations; default 100. */
      public Builder iterations(int v) {
        iterations = v;
        return this;
      }

      /** γ of Proposition 1; default 0 (the paper's best, §5). */
      public Builder gamma(double v) {
        gamma = v;
        return this;
      }

      /** r predictive samples; default 5 (the paper's AIRLINE setting). */
      public Builder predictiveSamples(int v) {
        predictiveSamples = v;
        return this;
      }

      /** Seed; default 1. */
      public Builder seed(long v) {
        seed = v;
        return this;
      }

      /** Adam step size; default 0.03. */
      public Builder learningRate(double v) {
        learningRate = v;
        return this;
      }

      /** Learn σ_n², σ_s² and ℓ by the bound; default true. */
      public Builder learnHyperparameters(boolean v) {
        learnHyperparameters = v;
        return this;
      }

      /** Initial σ_n²; default 0.1 × var(y). */
      public Builder noiseVariance(double v) {
        noiseVariance = v;
        return this;
      }

      /** Initial σ_s²; default var(y). */
      public Builder signalVariance(double v) {
        signalVariance = v;
        return this;
      }

      /** Initial prior length-scales ℓ (Θ); default each input's standard deviation. */
      public Builder lengthscales(double... v) {
        lengthscales = v == null ? null : v.clone();
        return this;
      }

      public Options build() {
        return new Options(m, partitionsPerIteration, minibatch, gradientSamples, iterations, gamma,
            predictiveSamples, seed, learningRate, learnHyperparameters, noiseVariance, signalVariance,
            lengthscales);
      }
    }
  }

  private static void checkGamma(double gamma) {
    if (!(Math.abs(gamma) <= 1)) {
      throw new IllegalArgumentException("gamma must be in [-1, 1], got " + gamma);
    }
  }

  /**
   * Fits q(α) by {@link Options#iterations()} stochastic gradient steps, calling {@code listener} after each
   * with the step's estimate of the bound L.
   *
   * @param partitionOfRow partition label 0…p−1 of every training row (p = largest label + 1)
   */
  public static Svbssgp fit(RegressionData train, int[] partitionOfRow, Options options, IterationListener listener) {
    return fit(train, partitionOfRow, options, listener, null);
  }

  /**
   * As {@link #fit(RegressionData, int[], Options, IterationListener)}, the data terms of each gradient (Theorem 1)
   * summed by {@code gradients} (null: in this JVM; see {@link #start(RegressionData, int[], Options,
   * PartitionGradients)}).
   */
  public static Svbssgp fit(RegressionData train, int[] partitionOfRow, Options options, IterationListener listener,
      PartitionGradients gradients) {
    Training t = start(train, partitionOfRow, options, gradients);
    long t0 = System.nanoTime();
    for (int it = 0; it < options.iterations(); it++) {
      double elbo = t.step();
      listener.onIteration(t.iteration(), elbo, (System.nanoTime() - t0) * 1e-9);
    }
    return t.current();
  }

  /** A training run positioned before its first step, for callers that predict between steps. */
  public static Training start(RegressionData train, int[] partitionOfRow, Options options) {
    return start(train, partitionOfRow, options, null);
  }

  /**
   * A training run whose data terms (Theorem 1) are summed by {@code gradients} (null: in this JVM). The strategy
   * must hold the same training rows and partition labels as {@code train} and {@code partitionOfRow}.
   */
  public static Training start(RegressionData train, int[] partitionOfRow, Options options,
      PartitionGradients gradients) {
    return new Training(train, partitionOfRow, options, gradients);
  }

  /** Row indices grouped by partition: rows of partition k are {@code rows[start[k] … start[k+1])}. */
  private record Partitioning(int[] rows, int[] start) {

    static Partitioning of(int[] labels, int p) {
      int[] start = new int[p + 1];
      for (int label : labels) {
        start[label + 1]++;
      }
      for (int k = 0; k < p; k++) {
        start[k + 1] += start[k];
      }
      int[] fill = Arrays.copyOf(start, p);
      int[] rows = new int[labels.length];
      for (int i = 0; i < labels.length; i++) {
        rows[fill[labels[i]]++] = i;
      }
      return new Partitioning(rows, start);
    }

    int count() {
      return start.length - 1;
    }
  }

  /**
   * A stochastic-gradient run (mutable, single-threaded). Parameter vector η = [b (D), the lower triangle of
   * M row by row with log M_ii on the diagonal (D(D+1)/2), log σ_n², log σ_s², log ℓ (d)], D = m·d + 2m, in
   * the coordinates α = vec(ε, s) (class comment).
   */
  public static final class Training {
    /** log ℓ moves at this multiple of the step size (class comment, "Step sizes"). */
    private static final double LENGTHSCALE_STEP_FACTOR = 3;
    private final RegressionData train;
    private final Partitioning parts;
    private final int[] order; // the trainer's copy of parts.rows, permuted in place to draw minibatches
    private final Options options;
    private final int m;
    private final int d;
    private final int dim;
    private final int iNoise;
    private final int iSignal;
    private final int iEll;
    private final double[] eta;
    private final double[] grad;
    private final double[] unit;
    private Adam adam;
    private final UniformRandomProvider rng;
    private final ZigguratSampler.NormalizedGaussian normal;
    // scratch
    private final double[] z;
    private final double[] alpha;
    private final double[] gAlpha;
    private final double[] scratchM;
    private final double[] invEll;
    private final double[] acc; // PartitionGradients' accumulator
    private final List<PartitionGradients.Draw> draws = new ArrayList<>();
    private final PartitionGradients gradients;
    private int iteration;

    private Training(RegressionData train, int[] partitionOfRow, Options options, PartitionGradients gradients) {
      Objects.requireNonNull(train, "train");
      Objects.requireNonNull(options, "options");
      if (!train.hasTargets() || train.n() == 0) {
        throw new IllegalArgumentException("sVBSSGP needs training rows with targets");
      }
      if (partitionOfRow == null || partitionOfRow.length != train.n()) {
        throw new IllegalArgumentException("need one partition label per training row (" + train.n() + ")");
      }
      int p = 0;
      for (int label : partitionOfRow) {
        if (label < 0) {
          throw new IllegalArgumentException("partition labels must be >= 0, got " + label);
        }
        p = Math.max(p, label + 1);
      }
      this.train = train;
      this.parts = Partitioning.of(partitionOfRow, p);
      this.order = parts.rows().clone();
      this.options = options;
      this.m = options.m();
      this.d = train.d();
      this.dim = m * d + 2 * m;
      int nTri = dim * (dim + 1) / 2;
      this.iNoise = dim + nTri;
      this.iSignal = iNoise + 1;
      this.iEll = iSignal + 1;
      this.eta = new double[iEll + d];
      this.grad = new double[eta.length];
      this.unit = new double[eta.length];
      this.adam = new Adam(eta.length, Adam.Settings.of(options.learningRate()));
      this.z = new double[dim];
      this.alpha = new double[dim];
      this.gAlpha = new double[dim];
      this.scratchM = new double[nTri];
      this.invEll = new double[d];
      this.acc = new double[2 + dim + d];
      this.gradients = gradients != null ? gradients : new PartitionGradients() {
        @Override
        public void add(PartitionGradients.Point at, List<PartitionGradients.Draw> list, double[] sums) {
          addLocally(at, list, sums);
        }

        @Override
        public double[][][] terms(List<PartitionGradients.Point> at, List<List<PartitionGradients.Draw>> list) {
          return termsLocally(at, list);
        }
      };
      this.rng = RandomSource.XO_RO_SHI_RO_128_PP.create(new long[] {options.seed(), 0x5b55L});
      this.normal = ZigguratSampler.NormalizedGaussian.of(rng);

      // Defaults from one streaming pass over the data (column and target variances).
      int n = train.n();
      double[] mean = new double[d];
      double[] m2 = new double[d];
      double yMean = 0;
      double yM2 = 0;
      double[] x = train.x();
      double[] y = train.y();
      for (int i = 0; i < n; i++) {
        for (int j = 0; j < d; j++) {
          double delta = x[i * d + j] - mean[j];
          mean[j] += delta / (i + 1);
          m2[j] += delta * (x[i * d + j] - mean[j]);
        }
        double dy = y[i] - yMean;
        yMean += dy / (i + 1);
        yM2 += dy * (y[i] - yMean);
      }
      double yVar = n > 1 ? yM2 / (n - 1) : 1;
      if (!(yVar > 0)) {
        yVar = 1;
      }
      if (options.lengthscales() != null) {
        if (options.lengthscales().length != d) {
          throw new IllegalArgumentException(options.lengthscales().length + " length-scales for " + d + " inputs");
        }
        for (int j = 0; j < d; j++) {
          eta[iEll + j] = Math.log(options.lengthscales()[j]);
        }
      } else {
        for (int j = 0; j < d; j++) {
          double sd = n > 1 ? Math.sqrt(m2[j] / (n - 1)) : 1;
          eta[iEll + j] = Math.log(sd > 0 ? sd : 1);
        }
      }
      double s2 = Double.isNaN(options.signalVariance()) ? yVar : options.signalVariance();
      double n2 = Double.isNaN(options.noiseVariance()) ? 0.1 * yVar : options.noiseVariance();
      eta[iNoise] = Math.log(n2);
      eta[iSignal] = Math.log(s2);

      // Initial q: b_ε drawn from the prior N(0, I) (random features) with M_εε = 0.1 I; (b_s, M_ss) from the
      // Gaussian posterior of s given θ = b_θ on a sample of partitions.
      for (int k = 0; k < m * d; k++) {
        eta[k] = normal.sample();
        eta[diagIndex(k)] = Math.log(0.1);
      }
      initialiseWeights(Double.isNaN(options.noiseVariance()));
    }

    /**
     * b_s and M_ss from p(s | y_I, θ = b_θ) = N(Γ⁻¹ Φ y, σ_n² Γ⁻¹), Γ = w Φ Φᵀ + σ_n² Λ⁻¹ (the posterior behind
     * Proposition 1's μ and Σ, Appendix A), on the rows of min(p, 10a) partitions drawn uniformly with
     * replacement, the sums weighted by w = p / draws so that they estimate the full-data sums. When σ_n² has
     * no user value it starts at the weighted mean squared residual of that fit (at least 1e-6 var(y)).
     */
    private void initialiseWeights(boolean setNoise) {
      int p = parts.count();
      int draws = Math.min(p, 10 * options.partitionsPerIteration());
      int two = 2 * m;
      int md = m * d;
      double noise = Math.exp(eta[iNoise]);
      double lambda = Math.exp(eta[iSignal]) / m;
      double[] theta = Arrays.copyOf(eta, md);
      for (int k = 0; k < md; k++) {
        theta[k] /= TWO_PI * Math.exp(eta[iEll + k % d]);
      }
      SpectralFeatures features = new SpectralFeatures(theta, m, d);
      double[] phi = new double[two];
      Matrix gram = Matrix.zeros(two, two);
      double[] g = gram.data();
      double[] rhs = new double[two];
      int[] chosen = new int[draws];
      double rows = 0;
      for (int k = 0; k < draws; k++) {
        chosen[k] = rng.nextInt(p);
        for (int t = parts.start()[chosen[k]]; t < parts.start()[chosen[k] + 1]; t++) {
          int row = parts.rows()[t];
          features.features(train.x(), row * d, phi);
          double yr = train.y()[row];
          for (int u = 0; u < two; u++) {
            rhs[u] += phi[u] * yr;
            for (int v = 0; v <= u; v++) {
              g[u * two + v] += phi[u] * phi[v];
            }
          }
          rows++;
        }
      }
      double w = (double) p / draws;
      for (int u = 0; u < two; u++) {
        rhs[u] *= w;
        for (int v = 0; v <= u; v++) {
          g[u * two + v] *= w;
          g[v * two + u] = g[u * two + v];
        }
        g[u * two + u] += noise / lambda;
      }
      Cholesky chol = Cholesky.factor(gram, JitterPolicy.standard());
      double[] mean = chol.solve(rhs);
      if (setNoise && rows > 0) {
        double sse = 0;
        for (int k = 0; k < draws; k++) {
          for (int t = parts.start()[chosen[k]]; t < parts.start()[chosen[k] + 1]; t++) {
            int row = parts.rows()[t];
            features.features(train.x(), row * d, phi);
            double f = 0;
            for (int u = 0; u < two; u++) {
              f += phi[u] * mean[u];
            }
            double e = train.y()[row] - f;
            sse += e * e;
          }
        }
        noise = Math.max(sse / rows, 1e-6 * Math.exp(eta[iSignal]));
        eta[iNoise] = Math.log(noise);
      }
      // Cholesky factor of σ_n² Γ⁻¹ (symmetrised inverse), written into the s block of M
      Matrix cov = chol.inverse();
      double[] c = cov.data();
      for (int u = 0; u < two; u++) {
        for (int v = 0; v < two; v++) {
          c[u * two + v] *= noise;
        }
      }
      for (int u = 0; u < two; u++) {
        for (int v = 0; v < u; v++) {
          double avg = 0.5 * (c[u * two + v] + c[v * two + u]);
          c[u * two + v] = avg;
          c[v * two + u] = avg;
        }
      }
      Cholesky factor = Cholesky.factor(cov, JitterPolicy.standard());
      for (int u = 0; u < two; u++) {
        eta[md + u] = mean[u];
        for (int v = 0; v < u; v++) {
          eta[triIndex(md + u, md + v)] = factor.lowerAt(u, v);
        }
        eta[diagIndex(md + u)] = Math.log(factor.lowerAt(u, u));
      }
    }

    /**
     * The default {@link PartitionGradients}: in this JVM, each drawn partition's term summed on its own (row after
     * row, from zero) and then added to the running sums in draw order ({@link PartitionGradients#addInOrder}), the
     * grouping a distributed strategy can reproduce exactly.
     */
    private void addLocally(PartitionGradients.Point at, List<PartitionGradients.Draw> list, double[] sums) {
      double[] x = train.x();
      double[] y = train.y();
      double[] term = new double[sums.length];
      for (PartitionGradients.Draw draw : list) {
        Arrays.fill(term, 0);
        if (draw.rows() == null) {
          int k = draw.partition();
          PartitionGradients.addRows(at, x, y, parts.rows(), parts.start()[k], parts.start()[k + 1], draw.weight(),
              term);
        } else {
          PartitionGradients.addRows(at, x, y, draw.rows(), 0, draw.rows().length, draw.weight(), term);
        }
        PartitionGradients.addInOrder(term, sums);
      }
    }

    /** The default's {@link PartitionGradients#terms}: each draw's term summed from zero into its own array. */
    private double[][][] termsLocally(List<PartitionGradients.Point> at, List<List<PartitionGradients.Draw>> list) {
      double[] x = train.x();
      double[] y = train.y();
      double[][][] out = new double[at.size()][][];
      for (int j = 0; j < out.length; j++) {
        List<PartitionGradients.Draw> draws = list.get(j);
        out[j] = new double[draws.size()][];
        for (int k = 0; k < out[j].length; k++) {
          PartitionGradients.Draw draw = draws.get(k);
          double[] term = new double[at.get(j).accumulatorLength()];
          if (draw.rows() == null) {
            int q = draw.partition();
            PartitionGradients.addRows(at.get(j), x, y, parts.rows(), parts.start()[q], parts.start()[q + 1],
                draw.weight(), term);
          } else {
            PartitionGradients.addRows(at.get(j), x, y, draw.rows(), 0, draw.rows().length, draw.weight(), term);
          }
          out[j][k] = term;
        }
      }
      return out;
    }

    /** Index in η of M_ij (j ≤ i); for i = j it holds log M_ii. */
    private int triIndex(int i, int j) {
      return dim + i * (i + 1) / 2 + j;
    }

    private int diagIndex(int i) {
      return triIndex(i, i);
    }

    /** The current prior length-scales ℓ. */
    double[] lengthscales() {
      double[] ell = new double[d];
      for (int j = 0; j < d; j++) {
        ell[j] = Math.exp(eta[iEll + j]);
      }
      return ell;
    }

    /** Iterations done so far. */
    public int iteration() {
      return iteration;
    }

    /** Number of partitions p. */
    public int partitions() {
      return parts.count();
    }

    /**
     * One Adam ascent step along the stochastic gradient of Appendix G (eq. 22).
     *
     * @return the step's unbiased estimate of the data and prior terms of L plus the exact entropy of q
     * @throws IllegalStateException if the gradient or the bound is not finite (divergence)
     */
    public double step() {
      double elbo = stochasticGradient(rng, grad);
      for (double g : grad) {
        if (!Double.isFinite(g) || !Double.isFinite(elbo)) {
          throw new IllegalStateException("sVBSSGP diverged at iteration " + (iteration + 1)
              + " (non-finite gradient or bound); lower the learning rate");
        }
      }
      iteration++;
      // Per-coordinate step units (class comment): b_i and the entries M_ij of row i in units of M_ii; log M_ii,
      // log σ_n², log σ_s² absolute; log ℓ at 3 × the step.
      Arrays.fill(unit, 1);
      for (int i = 0; i < dim; i++) {
        double rowUnit = Math.exp(eta[diagIndex(i)]);
        unit[i] = rowUnit;
        int row = dim + i * (i + 1) / 2;
        for (int j = 0; j < i; j++) {
          unit[row + j] = rowUnit;
        }
      }
      for (int c = iEll; c < eta.length; c++) {
        unit[c] = LENGTHSCALE_STEP_FACTOR;
      }
      adam.ascend(eta, grad, unit);
      return elbo;
    }

    /** The current q(α) and hyperparameters as an immutable model. */
    public Svbssgp current() {
      return new Svbssgp(this);
    }

    /** A copy of η (layout in the class comment); for tests and checkpoints. */
    public double[] parameters() {
      return eta.clone();
    }

    /** Replaces η (same layout); Adam's moments are reset. */
    void setParameters(double[] values) {
      if (values.length != eta.length) {
        throw new IllegalArgumentException("need " + eta.length + " parameters");
      }
      System.arraycopy(values, 0, eta, 0, eta.length);
      adam = new Adam(eta.length, Adam.Settings.of(options.learningRate()));
      iteration = 0;
    }

    double[] unpackScale() {
      double[] s = new double[dim * dim];
      for (int i = 0; i < dim; i++) {
        for (int j = 0; j < i; j++) {
          s[i * dim + j] = eta[triIndex(i, j)];
        }
        s[i * dim + i] = Math.exp(eta[diagIndex(i)]);
      }
      return s;
    }

    /**
     * One stochastic gradient of L with respect to η at the current η, its draws from a generator seeded by
     * {@code seed} (not the run's own, so the run is not changed); for comparing strategies and for tests.
     *
     * @param out receives the gradient (length {@code parameters().length})
     * @return the matching estimate of L
     */
    public double gradientEstimate(long seed, double[] out) {
      if (out.length != eta.length) {
        throw new IllegalArgumentException("need " + eta.length + " gradient entries");
      }
      return stochasticGradient(RandomSource.XO_RO_SHI_RO_128_PP.create(new long[] {seed, 0x96adL}), out);
    }

    /**
     * The stochastic gradient of L with respect to η (Appendix G, eq. 22, with minibatch reweighting), written
     * to {@code out}; η is not changed. Draws from {@code random} only.
     *
     * @return the matching estimate of L (data and prior terms from the same draws, entropy exact)
     */
    double stochasticGradient(UniformRandomProvider random, double[] out) {
      ZigguratSampler.NormalizedGaussian gauss = random == rng ? normal : ZigguratSampler.NormalizedGaussian.of(random);
      Arrays.fill(out, 0);
      int p = parts.count();
      int a = options.partitionsPerIteration();
      int samples = options.gradientSamples();
      double noise = Math.exp(eta[iNoise]);
      double lambda = Math.exp(eta[iSignal]) / m;
      double logNorm = 0.5 * Math.log(TWO_PI * noise);
      int md = m * d;
      for (int c = 0; c < d; c++) {
        invEll[c] = Math.exp(-eta[iEll + c]);
      }
      Arrays.fill(acc, 0);
      int[] start = parts.start();
      // M's entries, diagonal exponentiated, packed like η
      int nTri = scratchM.length;
      System.arraycopy(eta, dim, scratchM, 0, nTri);
      for (int i = 0; i < dim; i++) {
        scratchM[i * (i + 1) / 2 + i] = Math.exp(eta[diagIndex(i)]);
      }
      double elbo = 0;
      double gNoise = 0;
      double gSignal = 0;
      // Every sample's z, α and draws first (the same order of random draws as one sample after the other), then
      // all samples' data terms in one call of the strategy (one Spark job per iteration), then the rest per sample.
      double[][] zs = new double[samples][];
      double[][] alphas = new double[samples][];
      List<PartitionGradients.Point> points = new ArrayList<>(samples);
      List<List<PartitionGradients.Draw>> drawn = new ArrayList<>(samples);
      boolean anyDraw = false;
      double[] ell = invEll.clone();
      for (int j = 0; j < samples; j++) {
        for (int k = 0; k < dim; k++) {
          z[k] = gauss.sample();
        }
        // α = M z + b (Lemma 1)
        for (int i = 0; i < dim; i++) {
          double s = eta[i];
          int row = i * (i + 1) / 2;
          for (int c = 0; c <= i; c++) {
            s += scratchM[row + c] * z[c];
          }
          alpha[i] = s;
        }
        // Data part: (p/a) Σ_k F_{i_k} (Theorem 1, eq. 22), rows subsampled with weight |X_i|/B; the draws are
        // made here, the terms summed by the strategy (PartitionGradients).
        draws.clear();
        for (int draw = 0; draw < a; draw++) {
          int part = random.nextInt(p);
          int lo = start[part];
          int size = start[part + 1] - lo;
          if (size == 0) {
            continue;
          }
          int take = options.minibatch() == 0 || options.minibatch() >= size ? size : options.minibatch();
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
        zs[j] = z.clone();
        alphas[j] = alpha.clone();
        points.add(new PartitionGradients.Point(m, d, alphas[j], ell, noise, logNorm, samples));
        drawn.add(List.copyOf(draws));
        anyDraw |= !draws.isEmpty();
      }
      double[][][] terms = anyDraw ? gradients.terms(points, drawn) : null;
      for (int j = 0; j < samples; j++) {
        System.arraycopy(zs[j], 0, z, 0, dim);
        System.arraycopy(alphas[j], 0, alpha, 0, dim);
        Arrays.fill(acc, 0, 2 + dim, 0); // data term and ∂/∂α per sample; ∂/∂ log σ_n², ∂/∂ log ℓ run on
        acc[1] = gNoise;
        if (terms != null) {
          if (terms[j].length != drawn.get(j).size()) {
            throw new IllegalStateException("the gradient strategy returned " + terms[j].length + " terms for "
                + drawn.get(j).size() + " draws of sample " + j);
          }
          for (double[] term : terms[j]) {
            PartitionGradients.addInOrder(term, acc);
          }
        }
        double dataTerm = acc[0];
        gNoise = acc[1];
        double[] gAlpha = this.gAlpha;
        System.arraycopy(acc, 2, gAlpha, 0, dim);
        // Prior part: ∇_α log p(α) = −blkdiag(I, Λ⁻¹) α (Appendix D, with p(ε) = N(0, I)). The log-density of θ
        // itself is that of ε minus Σ log(2π ℓ_c) per frequency (the Jacobian), which cancels against the same
        // term of q's entropy in θ-space, so L is the same in either coordinate system.
        double logPrior = 0;
        for (int k = 0; k < md; k++) {
          gAlpha[k] -= alpha[k];
          logPrior += -0.5 * alpha[k] * alpha[k] - 0.5 * LOG_2PI;
        }
        double ss = 0;
        for (int k = md; k < dim; k++) {
          gAlpha[k] -= alpha[k] / lambda;
          ss += alpha[k] * alpha[k];
        }
        logPrior += -0.5 * ss / lambda - m * Math.log(TWO_PI * lambda);
        gSignal += (0.5 * ss / lambda - m) / samples;
        elbo += (dataTerm + logPrior) / samples;
        // ∂/∂b = g_α, ∂/∂M_ic = g_α,i z_c (Appendix D and F chain rule), ∂/∂ log M_ii = M_ii g_α,i z_i
        for (int i = 0; i < dim; i++) {
          double gi = gAlpha[i] / samples;
          out[i] += gi;
          int row = dim + i * (i + 1) / 2;
          for (int c = 0; c < i; c++) {
            out[row + c] += gi * z[c];
          }
          out[row + i] += gi * z[i] * scratchM[i * (i + 1) / 2 + i];
        }
      }
      // Entropy H[q] = ½ D (1 + log 2π) + Σ log M_ii; its gradient ∂/∂ log M_ii = 1.
      double logDet = 0;
      for (int i = 0; i < dim; i++) {
        out[diagIndex(i)] += 1;
        logDet += eta[diagIndex(i)];
      }
      elbo += 0.5 * dim * (1 + LOG_2PI) + logDet;
      if (options.learnHyperparameters()) {
        out[iNoise] = gNoise;
        out[iSignal] = gSignal;
        System.arraycopy(acc, 2 + dim, out, iEll, d);
      }
      return elbo;
    }
  }

  /** Number of spectral frequencies m. */
  public int m() {
    return m;
  }

  /** Input dimension d. */
  public int d() {
    return d;
  }

  /** Dimension D = m·d + 2m of α = vec(θ, s). */
  public int dimension() {
    return dim;
  }

  /** Number of training partitions p. */
  public int partitions() {
    return parts.count();
  }

  /** Iterations that produced this model. */
  public int iterations() {
    return iterations;
  }

  /** The options of the fit. */
  public Options options() {
    return options;
  }

  /** b, the mean of q(α) (θ row-major m × d, then s). */
  public double[] mean() {
    return b.clone();
  }

  /** M (lower triangular), so that Cov_q(α) = M Mᵀ. */
  public Matrix scale() {
    return Matrix.wrap(dim, dim, scale.clone());
  }

  /** σ_n². */
  public double noiseVariance() {
    return noiseVariance;
  }

  /** σ_s². */
  public double signalVariance() {
    return signalVariance;
  }

  /** ℓ of the frequency prior Θ (learned when {@link Options#learnHyperparameters()}). */
  public double[] priorLengthscales() {
    return lengthscales.clone();
  }

  /**
   * r samples α_j = M z_j + b from q(α) (§4.2), z_j ~ N(0, I) from a generator seeded by {@code seed}; the
   * same samples that {@link #predict(RegressionData, int[], double, int, long)} uses for that seed.
   */
  public double[][] sampleAlphas(int r, long seed) {
    if (r < 1) {
      throw new IllegalArgumentException("need r >= 1 samples");
    }
    UniformRandomProvider random = RandomSource.XO_RO_SHI_RO_128_PP.create(new long[] {seed, 0x9dec7L});
    ZigguratSampler.NormalizedGaussian gauss = ZigguratSampler.NormalizedGaussian.of(random);
    double[][] out = new double[r][dim];
    double[] zz = new double[dim];
    for (int j = 0; j < r; j++) {
      for (int k = 0; k < dim; k++) {
        zz[k] = gauss.sample();
      }
      for (int i = 0; i < dim; i++) {
        double s = b[i];
        for (int c = 0; c <= i; c++) {
          s += scale[i * dim + c] * zz[c];
        }
        out[j][i] = s;
      }
    }
    return out;
  }

  /** Predictions with the options' γ, r and seed. */
  public RegressionPrediction predict(RegressionData test, int[] partitionOfTestRow) {
    return predict(test, partitionOfTestRow, options.gamma(), options.predictiveSamples(), options.seed());
  }

  /**
   * Predictive mean and variance of y* (Proposition 1 and §4.2). For each of r samples α_j = (θ_j, s_j) from
   * q(α) and a test input x* in partition k, the test conditional is N(μ_j, σ_j²) with
   * μ_j = γ φᵀ s_j + (1 − γ) φᵀ Γ_k⁻¹ Φ(X_k) y_k and σ_j² = (1 − γ²) σ_n² φᵀ Γ_k⁻¹ φ, φ = φ_{θ_j}(x*),
   * Γ_k = Φ(X_k) Φ(X_k)ᵀ + σ_n² Λ⁻¹ (Proposition 1; γ = 0 is the local SSGP on partition k's training rows,
   * γ = 1 the degenerate conditional N(φᵀ s_j, 0) of VSSGP, Remark 1). The mean is (1/r) Σ μ_j and the latent
   * variance follows the paper's law-of-total-variance estimate (1/r) Σ (σ_j² + μ_j²) − mean² (§4.2); the
   * returned variance adds σ_n² (the variance of y*, paper §5).
   *
   * @param partitionOfTestRow partition of each test row, in 0…p−1 (e.g. the nearest k-means centroid)
   */
  public RegressionPrediction predict(RegressionData test, int[] partitionOfTestRow, double gamma, int r, long seed) {
    checkGamma(gamma);
    if (test.d() != d) {
      throw new IllegalArgumentException("test rows have " + test.d() + " inputs, the model " + d);
    }
    if (partitionOfTestRow == null || partitionOfTestRow.length != test.n()) {
      throw new IllegalArgumentException("need one partition label per test row (" + test.n() + ")");
    }
    int p = parts.count();
    for (int label : partitionOfTestRow) {
      if (label < 0 || label >= p) {
        throw new IllegalArgumentException("test partition label " + label + " outside 0.." + (p - 1));
      }
    }
    int nt = test.n();
    double[][] alphas = sampleAlphas(r, seed);
    Partitioning testParts = Partitioning.of(partitionOfTestRow, p);
    double[] sumMu = new double[nt];
    double[] sumSq = new double[nt];
    int two = 2 * m;
    int md = m * d;
    double[] phi = new double[two];
    double[] xt = test.x();
    double[] xs = train.x();
    double[] ys = train.y();
    boolean local = gamma != 1;
    for (double[] a : alphas) {
      SpectralFeatures features = new SpectralFeatures(Arrays.copyOf(a, md), m, d);
      double lambda = signalVariance / m;
      for (int k = 0; k < p; k++) {
        int tlo = testParts.start()[k];
        int thi = testParts.start()[k + 1];
        if (tlo == thi) {
          continue;
        }
        Cholesky chol = null;
        double[] weights = null;
        if (local) {
          // Γ_k and Φ(X_k) y_k streamed over partition k's training rows (Proposition 1)
          Matrix gram = Matrix.zeros(two, two);
          double[] g = gram.data();
          double[] rhs = new double[two];
          for (int t = parts.start()[k]; t < parts.start()[k + 1]; t++) {
            int row = parts.rows()[t];
            features.features(xs, row * d, phi);
            for (int u = 0; u < two; u++) {
              rhs[u] += phi[u] * ys[row];
              double pu = phi[u];
              for (int v = 0; v <= u; v++) {
                g[u * two + v] += pu * phi[v];
              }
            }
          }
          for (int u = 0; u < two; u++) {
            g[u * two + u] += noiseVariance / lambda;
            for (int v = 0; v < u; v++) {
              g[v * two + u] = g[u * two + v];
            }
          }
          chol = Cholesky.factor(gram, JitterPolicy.standard());
          weights = chol.solve(rhs);
        }
        for (int t = tlo; t < thi; t++) {
          int row = testParts.rows()[t];
          features.features(xt, row * d, phi);
          double mu = 0;
          double var = 0;
          if (gamma != 0) {
            double fs = 0;
            for (int u = 0; u < two; u++) {
              fs += phi[u] * a[md + u];
            }
            mu += gamma * fs;
          }
          if (local) {
            double fw = 0;
            for (int u = 0; u < two; u++) {
              fw += phi[u] * weights[u];
            }
            mu += (1 - gamma) * fw;
            var = (1 - gamma * gamma) * noiseVariance * chol.quadForm(phi);
          }
          sumMu[row] += mu;
          sumSq[row] += var + mu * mu;
        }
      }
    }
    double[] mean = new double[nt];
    double[] variance = new double[nt];
    for (int i = 0; i < nt; i++) {
      mean[i] = sumMu[i] / r;
      variance[i] = Math.max(sumSq[i] / r - mean[i] * mean[i], 0) + noiseVariance;
    }
    return new RegressionPrediction(mean, variance);
  }

  @Override
  public String toString() {
    return "Svbssgp[m=" + m + ", d=" + d + ", p=" + parts.count() + ", iterations=" + iterations
        + ", noiseVariance=" + noiseVariance + ", signalVariance=" + signalVariance + "]";
  }
}
