package org.approxgp.inference;

import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.approxgp.likelihood.Likelihood;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.JitterPolicy;
import org.approxgp.linalg.Matrix;

/**
 * A reference posterior by MCMC: elliptical slice sampling (I. Murray, R. P. Adams &amp; D. J. C. MacKay,
 * "Elliptical slice sampling", AISTATS 2010, the algorithm of Fig. 2) for a latent GP f ~ N(0, K) with any
 * factorising {@link Likelihood}, L(f) = Σᵢ log p(yᵢ | fᵢ). One transition from f:
 * <pre>
 *   ν ~ N(0, K);  log h = L(f) + log u, u ~ U(0, 1);  θ ~ U[0, 2π], [θ_min, θ_max] = [θ − 2π, θ];
 *   loop: f' = f cos θ + ν sin θ; if L(f') &gt; log h return f';
 *         else shrink: θ &lt; 0 ? θ_min = θ : θ_max = θ; θ ~ U[θ_min, θ_max].
 * </pre>
 * It has no tuning parameter and needs only L, so it works for non-log-concave, discontinuous likelihoods such
 * as the noisy step. ν = L_K z with the Cholesky factor of K ({@link JitterPolicy#standard()} jitter, reported).
 *
 * <p>Seeded (commons-rng XO_RO_SHI_RO_128_PP, Ziggurat normals, one stream): the same options give
 * bit-identical results. After {@code burnIn} transitions, every {@code thin}-th state is kept; the kept
 * chain is stored (n × samples doubles) for the effective-sample-size report. Mean and covariance are the
 * sample moments of the kept states; ESS per coordinate by Geyer's initial monotone sequence estimator
 * ({@link #effectiveSampleSize}), and the Monte-Carlo standard error of each mean coordinate is sd/√ESS.
 */
public final class EllipticalSliceSampler {
  private final double[][] k;
  private final double[] y;
  private final Likelihood likelihood;
  private long seed;
  private int burnIn = 1000;
  private int thin = 1;
  private int samples = 10_000;
  private double[] initial;

  private EllipticalSliceSampler(double[][] k, double[] y, Likelihood likelihood) {
    int n = y.length;
    if (k.length != n) {
      throw new IllegalArgumentException("K is " + k.length + " x ... but there are " + n + " observations");
    }
    this.k = new double[n][];
    for (int i = 0; i < n; i++) {
      if (k[i].length != n) {
        throw new IllegalArgumentException("K must be square (" + n + " x " + n + "), row " + i + " has "
            + k[i].length + " entries");
      }
      this.k[i] = k[i].clone();
      likelihood.validate(y[i]);
    }
    this.y = y.clone();
    this.likelihood = likelihood;
  }

  /**
   * A sampler for p(f | y) ∝ N(f | 0, K) Πᵢ p(yᵢ | fᵢ) with defaults seed 0, burn-in 1000, thinning 1,
   * 10,000 kept samples, initial state f = 0. The setters return this sampler (a small builder); {@link #run}
   * does not change it.
   */
  public static EllipticalSliceSampler of(double[][] k, double[] y, Likelihood likelihood) {
    return new EllipticalSliceSampler(k, y, likelihood);
  }

  /** The seed of the random stream. */
  public EllipticalSliceSampler seed(long s) {
    this.seed = s;
    return this;
  }

  /** Transitions discarded before the first kept state (≥ 0). */
  public EllipticalSliceSampler burnIn(int b) {
    if (b < 0) {
      throw new IllegalArgumentException("burn-in must be >= 0, got " + b);
    }
    this.burnIn = b;
    return this;
  }

  /** Keep every t-th state (t ≥ 1). */
  public EllipticalSliceSampler thin(int t) {
    if (t < 1) {
      throw new IllegalArgumentException("thinning must be >= 1, got " + t);
    }
    this.thin = t;
    return this;
  }

  /** Number of kept states (≥ 4, so that the ESS estimator has lags to work with). */
  public EllipticalSliceSampler samples(int s) {
    if (s < 4) {
      throw new IllegalArgumentException("need at least 4 kept samples, got " + s);
    }
    this.samples = s;
    return this;
  }

  /** The initial state (default 0); L must be finite there. */
  public EllipticalSliceSampler initial(double[] f0) {
    if (f0.length != y.length) {
      throw new IllegalArgumentException("initial state has " + f0.length + " entries, need " + y.length);
    }
    this.initial = f0.clone();
    return this;
  }

  /**
   * Effective sample sizes over coordinates.
   *
   * @param min smallest ESS over the coordinates
   * @param median median ESS over the coordinates
   * @param perCoordinate ESS of each coordinate of f
   */
  public record EssReport(double min, double median, double[] perCoordinate) {
    public EssReport {
      perCoordinate = perCoordinate.clone();
    }

    @Override
    public double[] perCoordinate() {
      return perCoordinate.clone();
    }

    @Override
    public String toString() {
      return String.format(java.util.Locale.ROOT, "ESS min %.0f, median %.0f over %d coordinates", min, median,
          perCoordinate.length);
    }
  }

  /**
   * The sampler's output.
   *
   * @param mean posterior mean of f (sample mean of the kept states)
   * @param covariance posterior covariance of f (sample covariance, divisor S − 1)
   * @param meanStdError Monte-Carlo standard error of each mean coordinate, sd/√ESS
   * @param ess the effective-sample-size report
   * @param samples kept states S
   * @param burnIn discarded transitions
   * @param thin thinning interval
   * @param seed the seed
   * @param likelihoodEvaluations evaluations of L (all transitions, including burn-in)
   * @param jitter jitter added to K's diagonal for its Cholesky factor
   * @param chain the kept states, chain[s][i] = f_i at kept sample s
   */
  public record Result(double[] mean, double[][] covariance, double[] meanStdError, EssReport ess, int samples,
      int burnIn, int thin, long seed, long likelihoodEvaluations, double jitter, double[][] chain) {
    public Result {
      mean = mean.clone();
      meanStdError = meanStdError.clone();
      covariance = deepCopy(covariance);
    }

    @Override
    public double[] mean() {
      return mean.clone();
    }

    @Override
    public double[] meanStdError() {
      return meanStdError.clone();
    }

    @Override
    public double[][] covariance() {
      return deepCopy(covariance);
    }

    /** The kept states (a copy; chain[s][i] = f_i at kept sample s). */
    @Override
    public double[][] chain() {
      return deepCopy(chain);
    }

    private static double[][] deepCopy(double[][] a) {
      double[][] c = new double[a.length][];
      for (int i = 0; i < a.length; i++) {
        c[i] = a[i].clone();
      }
      return c;
    }

    @Override
    public String toString() {
      return String.format(java.util.Locale.ROOT,
          "EllipticalSliceSampler(seed=%d, burnIn=%d, thin=%d, samples=%d): %s, %.2f likelihood evaluations per "
              + "transition", seed, burnIn, thin, samples, ess, likelihoodEvaluations
              / (double) (burnIn + (long) samples * thin));
    }
  }

  /** Runs the chain (see the class comment). */
  public Result run() {
    int n = y.length;
    Cholesky chol = Cholesky.factor(Matrix.of(k), JitterPolicy.standard());
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    ZigguratSampler.NormalizedGaussian gauss = ZigguratSampler.NormalizedGaussian.of(rng);
    double[] f = initial == null ? new double[n] : initial.clone();
    double logL = logLikelihood(f);
    if (!Double.isFinite(logL)) {
      throw new IllegalArgumentException("log likelihood at the initial state is " + logL);
    }
    long evaluations = 1;
    double[][] chain = new double[samples][];
    double[] nu = new double[n];
    double[] z = new double[n];
    double[] prop = new double[n];
    long total = burnIn + (long) samples * thin;
    int kept = 0;
    for (long t = 1; t <= total; t++) {
      // ν = L_K z ~ N(0, K)
      for (int i = 0; i < n; i++) {
        z[i] = gauss.sample();
      }
      for (int i = 0; i < n; i++) {
        double s = 0;
        for (int j = 0; j <= i; j++) {
          s += chol.lowerAt(i, j) * z[j];
        }
        nu[i] = s;
      }
      double logH = logL + Math.log(rng.nextDouble());
      double theta = 2 * Math.PI * rng.nextDouble();
      double lo = theta - 2 * Math.PI;
      double hi = theta;
      while (true) {
        double c = Math.cos(theta);
        double s = Math.sin(theta);
        for (int i = 0; i < n; i++) {
          prop[i] = f[i] * c + nu[i] * s;
        }
        double lp = logLikelihood(prop);
        evaluations++;
        if (lp > logH) {
          double[] tmp = f;
          f = prop;
          prop = tmp;
          logL = lp;
          break;
        }
        // the bracket shrinks towards θ = 0 (the current state, which is always acceptable)
        if (theta < 0) {
          lo = theta;
        } else {
          hi = theta;
        }
        if (!(hi - lo > 1e-300)) {
          break; // bracket collapsed onto the current state: stay (only possible through rounding)
        }
        theta = lo + (hi - lo) * rng.nextDouble();
      }
      if (t > burnIn && (t - burnIn) % thin == 0) {
        chain[kept++] = f.clone();
      }
    }
    return summarise(chain, evaluations, chol.jitter());
  }

  private Result summarise(double[][] chain, long evaluations, double jitter) {
    int n = y.length;
    int s = chain.length;
    double[] mean = new double[n];
    for (double[] f : chain) {
      for (int i = 0; i < n; i++) {
        mean[i] += f[i];
      }
    }
    for (int i = 0; i < n; i++) {
      mean[i] /= s;
    }
    double[][] cov = new double[n][n];
    for (double[] f : chain) {
      for (int i = 0; i < n; i++) {
        double di = f[i] - mean[i];
        for (int j = 0; j <= i; j++) {
          cov[i][j] += di * (f[j] - mean[j]);
        }
      }
    }
    for (int i = 0; i < n; i++) {
      for (int j = 0; j <= i; j++) {
        cov[i][j] /= s - 1;
        cov[j][i] = cov[i][j];
      }
    }
    double[] ess = new double[n];
    double[] se = new double[n];
    double[] col = new double[s];
    for (int i = 0; i < n; i++) {
      for (int t = 0; t < s; t++) {
        col[t] = chain[t][i];
      }
      ess[i] = effectiveSampleSize(col);
      se[i] = Math.sqrt(cov[i][i] / ess[i]);
    }
    double[] sorted = ess.clone();
    Arrays.sort(sorted);
    double median = n % 2 == 1 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    return new Result(mean, cov, se, new EssReport(sorted[0], median, ess), s, burnIn, thin, seed, evaluations,
        jitter, chain);
  }

  private double logLikelihood(double[] f) {
    double s = 0;
    for (int i = 0; i < f.length; i++) {
      s += likelihood.logDensity(y[i], f[i]).value();
    }
    return s;
  }

  /**
   * The effective sample size N/τ of a chain by Geyer's initial monotone sequence estimator (C. J. Geyer,
   * "Practical Markov chain Monte Carlo", Statistical Science 7(4), 1992, §3.3): with autocovariances
   * γ_k = (1/N) Σ_t (x_t − x̄)(x_{t+k} − x̄) and pair sums Γ_m = γ_{2m} + γ_{2m+1}, sum while Γ_m &gt; 0, each
   * Γ_m replaced by min(Γ_m, Γ_{m−1}) (monotone), τ = (−γ₀ + 2 Σ Γ_m)/γ₀. Costs O(N · lags) (few lags for a
   * well-mixing chain). A constant chain (γ₀ = 0) returns N rather than NaN.
   *
   * @param x the chain (length ≥ 4)
   * @return N/τ (not capped at N: an antithetic chain can exceed it)
   */
  public static double effectiveSampleSize(double[] x) {
    int n = x.length;
    if (n < 4) {
      throw new IllegalArgumentException("need at least 4 states, got " + n);
    }
    double mean = 0;
    for (double v : x) {
      mean += v;
    }
    mean /= n;
    double[] d = new double[n];
    for (int t = 0; t < n; t++) {
      d[t] = x[t] - mean;
    }
    double g0 = autocov(d, 0);
    if (!(g0 > 0)) {
      return n;
    }
    double sum = 0;
    double prev = Double.POSITIVE_INFINITY;
    for (int m = 0; 2 * m + 1 < n; m++) {
      double pair = autocov(d, 2 * m) + autocov(d, 2 * m + 1);
      if (!(pair > 0)) {
        break;
      }
      pair = Math.min(pair, prev);
      sum += pair;
      prev = pair;
    }
    double tau = (-g0 + 2 * sum) / g0;
    return n / tau;
  }

  private static double autocov(double[] d, int lag) {
    double s = 0;
    for (int t = 0; t + lag < d.length; t++) {
      s += d[t] * d[t + lag];
    }
    return s / d.length;
  }
}
