package org.approxgp.sparse;

import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.approxgp.data.RegressionData;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.JitterPolicy;
import org.approxgp.linalg.Matrix;

/** The initial hyperparameters and q(α) of an sVBSSGP run (the {@link Svbssgp} class comment, "Initialisation"). */
final class SvbssgpInit {
  private static final double TWO_PI = 2 * Math.PI;
  /** Pairs of rows drawn for the median heuristic of the length-scales. */
  static final int MEDIAN_PAIRS = 2000;
  /** Initial precision of q(ε) (sd 0.1 in prior units, so the first features are the drawn ones). */
  static final double INITIAL_FREQUENCY_PRECISION = 100;

  private SvbssgpInit() {}

  static void initialise(
      SvbssgpTrainer t,
      RegressionData train,
      UniformRandomProvider rng,
      ZigguratSampler.NormalizedGaussian normal) {
    SvbssgpOptions options = t.options;
    int n = train.n();
    int d = t.d;
    int m = t.m;
    int md = m * d;
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
    double[] hyper = t.hyper;
    if (options.lengthscales().isPresent()) {
      double[] ell = options.lengthscales().get();
      if (ell.length != d) {
        throw new IllegalArgumentException(ell.length + " length-scales for " + d + " inputs");
      }
      for (int j = 0; j < d; j++) {
        hyper[2 + j] = Math.log(ell[j]);
      }
    } else {
      double[] sd = new double[d];
      for (int j = 0; j < d; j++) {
        double s = n > 1 ? Math.sqrt(m2[j] / (n - 1)) : 1;
        sd[j] = s > 0 ? s : 1;
      }
      double r = Math.sqrt(medianScaledSquaredDistance(x, n, d, sd, rng));
      for (int j = 0; j < d; j++) {
        hyper[2 + j] = Math.log(sd[j] * r);
      }
    }
    hyper[1] = Math.log(options.signalVariance().orElse(yVar));
    hyper[0] = Math.log(options.noiseVariance().orElse(0.1 * yVar));
    Matrix lam = t.precision();
    for (int k = 0; k < md; k++) {
      t.b[k] = normal.sample();
      lam.set(k, k, INITIAL_FREQUENCY_PRECISION);
    }
    initialiseWeights(t, rng, options.noiseVariance().isEmpty(), yVar);
  }

  /**
   * The median, over {@value #MEDIAN_PAIRS} random pairs of rows, of Σ_c ((x_c − x'_c)/sd_c)²: the squared distance
   * of inputs scaled to unit variance, so that ℓ_c = sd_c √median puts the SE kernel's typical pair at
   * exp(−½) (the median heuristic, per dimension; with d standardised inputs the median is about 2d, so ℓ grows
   * like √d and the prior features are not pure noise when d is large).
   */
  static double medianScaledSquaredDistance(
      double[] x, int n, int d, double[] sd, UniformRandomProvider rng) {
    if (n < 2) {
      return 1;
    }
    double[] dist = new double[MEDIAN_PAIRS];
    for (int k = 0; k < MEDIAN_PAIRS; k++) {
      int i = rng.nextInt(n);
      int j = rng.nextInt(n - 1);
      if (j >= i) {
        j++;
      }
      double s = 0;
      for (int c = 0; c < d; c++) {
        double e = (x[i * d + c] - x[j * d + c]) / sd[c];
        s += e * e;
      }
      dist[k] = s;
    }
    Arrays.sort(dist);
    double med = 0.5 * (dist[MEDIAN_PAIRS / 2 - 1] + dist[MEDIAN_PAIRS / 2]);
    return med > 0 ? med : 1;
  }

  /**
   * b_s and the s block of Λ from p(s | y_I, θ = b_θ) = N(Γ⁻¹ Φ y, σ_n² Γ⁻¹), Γ = w Φ Φᵀ + σ_n² Λ_s⁻¹ (the
   * posterior behind Proposition 1's μ and Σ, Appendix A), on the rows of min(p, 10a) partitions drawn uniformly
   * with replacement, the sums weighted by w = p / draws so that they estimate the full-data sums. When σ_n² has
   * no user value it starts at the weighted mean squared residual of that fit, kept within [0.01, 1] × var(y).
   */
  private static void initialiseWeights(
      SvbssgpTrainer t, UniformRandomProvider rng, boolean setNoise, double yVar) {
    RowBlocks parts = t.local;
    RegressionData train = t.grouped;
    int m = t.m;
    int d = t.d;
    int p = parts.count();
    int draws = Math.min(p, 10 * t.partitionsPerIteration());
    int two = 2 * m;
    int md = m * d;
    double[] hyper = t.hyper;
    double noise = Math.exp(hyper[0]);
    double lambda = Math.exp(hyper[1]) / m;
    double[] theta = Arrays.copyOf(t.b, md);
    for (int k = 0; k < md; k++) {
      theta[k] /= TWO_PI * Math.exp(hyper[2 + k % d]);
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
      for (int r = parts.start()[chosen[k]]; r < parts.start()[chosen[k] + 1]; r++) {
        int row = parts.rows()[r];
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
    }
    Matrix fit = gram.copy();
    fit.addDiagonal(noise / lambda);
    double[] mean = Cholesky.factor(fit, JitterPolicy.standard()).solve(rhs);
    if (setNoise && rows > 0) {
      double sse = 0;
      for (int k = 0; k < draws; k++) {
        for (int r = parts.start()[chosen[k]]; r < parts.start()[chosen[k] + 1]; r++) {
          int row = parts.rows()[r];
          features.features(train.x(), row * d, phi);
          double f = 0;
          for (int u = 0; u < two; u++) {
            f += phi[u] * mean[u];
          }
          double e = train.y()[row] - f;
          sse += e * e;
        }
      }
      noise = Math.min(Math.max(sse / rows, 0.01 * yVar), yVar);
      hyper[0] = Math.log(noise);
      fit = gram.copy();
      fit.addDiagonal(noise / lambda);
      mean = Cholesky.factor(fit, JitterPolicy.standard()).solve(rhs);
    }
    // precision of s: Γ / σ_n² = w Φ Φᵀ / σ_n² + Λ_s⁻¹
    Matrix lam = t.precision();
    for (int u = 0; u < two; u++) {
      t.b[md + u] = mean[u];
      for (int v = 0; v < two; v++) {
        lam.set(md + u, md + v, g[u * two + v] / noise + (u == v ? 1 / lambda : 0));
      }
    }
  }
}
