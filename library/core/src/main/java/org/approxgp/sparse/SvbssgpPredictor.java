package org.approxgp.sparse;

import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.approxgp.data.RegressionData;
import org.approxgp.inference.PredictiveMoments;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.JitterPolicy;
import org.approxgp.linalg.Matrix;
import org.approxgp.optimize.Brent;

/** The predictive of a fitted {@link Svbssgp} (Proposition 1 and §4.2; see {@link Svbssgp#predict}). */
final class SvbssgpPredictor {
  private SvbssgpPredictor() {}

  /** Absolute tolerance of the local noise's Brent search, in log σ_k². */
  private static final double LOG_NOISE_TOLERANCE = 1e-4;

  /**
   * The predictive; {@code noise} says which noise variance the local terms (γ &lt; 1) use: the model's σ_n²
   * (Proposition 1 as written) or each partition's own ({@link #localNoise}).
   */
  static PredictiveMoments predict(
      Svbssgp model,
      RegressionData train,
      RowBlocks parts,
      RegressionData test,
      int[] partitionOfTestRow,
      double gamma,
      int r,
      long seed,
      SparseRegression.PredictiveNoise noise) {
    int d = model.d();
    int m = model.m();
    double noiseVariance = model.noiseVariance();
    double signalVariance = model.signalVariance();
    SvbssgpOptions.checkGamma(gamma);
    if (test.d() != d) {
      throw new IllegalArgumentException("test rows have " + test.d() + " inputs, the model " + d);
    }
    if (partitionOfTestRow == null || partitionOfTestRow.length != test.n()) {
      throw new IllegalArgumentException(
          "need one partition label per test row (" + test.n() + ")");
    }
    int p = parts.count();
    for (int label : partitionOfTestRow) {
      if (label < 0 || label >= p) {
        throw new IllegalArgumentException(
            "test partition label " + label + " outside 0.." + (p - 1));
      }
    }
    int nt = test.n();
    double[][] alphas = model.sampleAlphas(r, seed);
    RowBlocks testParts = RowBlocks.of(partitionOfTestRow, p);
    double[] sumMu = new double[nt];
    double[] sumSq = new double[nt];
    boolean ownNoise = noise == SparseRegression.PredictiveNoise.LOCAL && gamma != 1;
    double[] sumNoise = ownNoise ? new double[nt] : null;
    int md = m * d;
    SpectralFeatures[] features = new SpectralFeatures[r];
    for (int j = 0; j < r; j++) {
      features[j] = new SpectralFeatures(Arrays.copyOf(alphas[j], md), m, d);
    }
    boolean local = gamma != 1;
    double lambda = signalVariance / m;
    // partitions in parallel: each writes only its own test rows, and every test row sums over the
    // samples α_j in
    // their order, so the result does not depend on the threads
    java.util.stream.IntStream.range(0, p).parallel().forEach(k -> {
      int tlo = testParts.start()[k];
      int thi = testParts.start()[k + 1];
      if (tlo == thi) {
        return;
      }
      double[] phi = new double[2 * m];
      double[] rhs = new double[2 * m];
      double[] scratch = new double[2 * m];
      double yy = ownNoise ? sumOfSquares(train, parts, k) : 0;
      int nk = parts.start()[k + 1] - parts.start()[k];
      for (int j = 0; j < r; j++) {
        double[] a = alphas[j];
        Cholesky chol = null;
        double[] weights = null;
        double noiseK = noiseVariance;
        if (ownNoise) {
          Matrix gram = localTerms(train, parts, k, features[j], 0, rhs);
          noiseK = localNoise(gram, rhs, yy, nk, lambda, noiseVariance);
          chol = Cholesky.factor(withRidge(gram, noiseK / lambda), JitterPolicy.standard());
          weights = chol.solve(rhs);
        } else if (local) {
          Matrix gram = localTerms(train, parts, k, features[j], noiseVariance / lambda, rhs);
          chol = Cholesky.factor(gram, JitterPolicy.standard());
          weights = chol.solve(rhs);
        }
        for (int t = tlo; t < thi; t++) {
          int row = testParts.rows()[t];
          features[j].features(test.x(), row * d, phi);
          double mu = 0;
          double var = 0;
          if (gamma != 0) {
            double fs = 0;
            for (int u = 0; u < 2 * m; u++) {
              fs += phi[u] * a[md + u];
            }
            mu += gamma * fs;
          }
          if (local) {
            double fw = 0;
            for (int u = 0; u < 2 * m; u++) {
              fw += phi[u] * weights[u];
            }
            mu += (1 - gamma) * fw;
            var = (1 - gamma * gamma) * noiseK * chol.quadForm(phi, scratch);
          }
          sumMu[row] += mu;
          sumSq[row] += var + mu * mu;
          if (ownNoise) {
            sumNoise[row] += noiseK;
          }
        }
      }
    });
    double[] mean = new double[nt];
    double[] variance = new double[nt];
    for (int i = 0; i < nt; i++) {
      mean[i] = sumMu[i] / r;
      variance[i] = Math.max(sumSq[i] / r - mean[i] * mean[i], 0)
          + (ownNoise ? sumNoise[i] / r : noiseVariance);
    }
    return new PredictiveMoments(mean, variance);
  }

  /**
   * The leave-one-out mean negative log predictive density of the training rows at each γ of {@code gammas}, with
   * the predictive of {@link #predict} (r samples, the same seed): for training row i of partition k and sample j,
   * the local term is the local SSGP of partition k without row i, in closed form from the fit on all of its rows
   * (ridge regression's leave-one-out identities: with h = φᵢᵀ Γ_k⁻¹ φᵢ, the mean (φᵢᵀ w − h yᵢ)/(1 − h) and
   * φᵢᵀ Γ_{k,−i}⁻¹ φᵢ = h/(1 − h), Sherman–Morrison on Γ_k − φᵢφᵢᵀ), and the global term φᵢᵀ s_j is the model's.
   * The global weights and each partition's own noise (the local noise's maximiser, {@link #localNoise}) are not
   * refitted without row i: the 2m weights are shared by all n rows, the noise by the partition's. Rows whose
   * leverage h exceeds 1 − 1e-9 in some sample (a partition with no more rows than basis functions) have no local
   * leave-one-out term and are left out; returns NaN for every γ when no row is left.
   *
   * @return one mean negative log density per γ, in the order given
   */
  static double[] leaveOneOutMnlp(
      Svbssgp model,
      RegressionData train,
      RowBlocks parts,
      double[] gammas,
      int r,
      long seed,
      SparseRegression.PredictiveNoise noise) {
    int d = model.d();
    int m = model.m();
    int md = m * d;
    int two = 2 * m;
    int p = parts.count();
    int g = gammas.length;
    for (double gamma : gammas) {
      SvbssgpOptions.checkGamma(gamma);
    }
    double noiseVariance = model.noiseVariance();
    double lambda = model.signalVariance() / m;
    double[][] alphas = model.sampleAlphas(r, seed);
    SpectralFeatures[] features = new SpectralFeatures[r];
    for (int j = 0; j < r; j++) {
      features[j] = new SpectralFeatures(Arrays.copyOf(alphas[j], md), m, d);
    }
    boolean ownNoise = noise == SparseRegression.PredictiveNoise.LOCAL;
    double[][] sums =
        new double[p][g + 1]; // per partition: Σ −log density per γ, then the rows counted
    java.util.stream.IntStream.range(0, p).parallel().forEach(k -> {
      int lo = parts.start()[k];
      int hi = parts.start()[k + 1];
      int nk = hi - lo;
      if (nk == 0) {
        return;
      }
      double[][] global = new double[nk][r];
      double[][] local = new double[nk][r];
      double[][] localVar = new double[nk][r];
      double[] noiseOf = new double[r];
      boolean[] skip = new boolean[nk];
      double[] phi = new double[two];
      double[] rhs = new double[two];
      double[] scratch = new double[two];
      double yy = ownNoise ? sumOfSquares(train, parts, k) : 0;
      for (int j = 0; j < r; j++) {
        double[] a = alphas[j];
        double noiseK = noiseVariance;
        Cholesky chol;
        if (ownNoise) {
          Matrix gram = localTerms(train, parts, k, features[j], 0, rhs);
          noiseK = localNoise(gram, rhs, yy, nk, lambda, noiseVariance);
          chol = Cholesky.factor(withRidge(gram, noiseK / lambda), JitterPolicy.standard());
        } else {
          chol = Cholesky.factor(
              localTerms(train, parts, k, features[j], noiseVariance / lambda, rhs),
              JitterPolicy.standard());
        }
        noiseOf[j] = noiseK;
        double[] w = chol.solve(rhs);
        for (int t = lo; t < hi; t++) {
          int row = parts.rows()[t];
          features[j].features(train.x(), row * d, phi);
          double fs = 0;
          double fw = 0;
          for (int u = 0; u < two; u++) {
            fs += phi[u] * a[md + u];
            fw += phi[u] * w[u];
          }
          double h = chol.quadForm(phi, scratch);
          int i = t - lo;
          if (!(h < 1 - 1e-9)) {
            skip[i] = true;
            continue;
          }
          global[i][j] = fs;
          local[i][j] = (fw - h * train.y()[row]) / (1 - h);
          localVar[i][j] = noiseK * h / (1 - h);
        }
      }
      double meanNoise = 0;
      for (int j = 0; j < r; j++) {
        meanNoise += noiseOf[j] / r;
      }
      for (int i = 0; i < nk; i++) {
        if (skip[i]) {
          continue;
        }
        double y = train.y()[parts.rows()[lo + i]];
        for (int c = 0; c < g; c++) {
          double gamma = gammas[c];
          double mean = 0;
          double second = 0;
          for (int j = 0; j < r; j++) {
            double mu = gamma * global[i][j] + (1 - gamma) * local[i][j];
            mean += mu / r;
            second += ((1 - gamma * gamma) * localVar[i][j] + mu * mu) / r;
          }
          // as predict: each partition's own noise unless γ = 1, where only the model's enters
          double obs = ownNoise && gamma != 1 ? meanNoise : noiseVariance;
          double var = Math.max(second - mean * mean, 0) + obs;
          double e = y - mean;
          sums[k][c] += 0.5 * (Math.log(2 * Math.PI * var) + e * e / var);
        }
        sums[k][g] += 1;
      }
    });
    double[] out = new double[g];
    double rows = 0;
    for (int k = 0; k < p; k++) { // in partition order: the same sums whatever the threads
      for (int c = 0; c < g; c++) {
        out[c] += sums[k][c];
      }
      rows += sums[k][g];
    }
    for (int c = 0; c < g; c++) {
      out[c] = rows > 0 ? out[c] / rows : Double.NaN;
    }
    return out;
  }

  /**
   * Partition k's own noise variance σ_k² for one sample of the frequencies: the maximiser of the local SSGP's
   * log marginal likelihood of y_k (Lázaro-Gredilla et al. 2010, eq. 8, on partition k's rows alone, the model
   * Remark 1 says γ = 0 reduces to), with the weights' prior variance λ = σ²/m kept at the model's. With
   * C = σ_k² I + λ Φ_kᵀ Φ_k, Γ = Φ_k Φ_kᵀ + (σ_k²/λ) I and b = Φ_k y_k, Woodbury's identity gives
   * y_kᵀ C⁻¹ y_k = (y_kᵀ y_k − bᵀ Γ⁻¹ b)/σ_k² and log|C| = (n_k − 2m) log σ_k² + 2m log λ + log|Γ|, so
   * −log p(y_k) = ½[(y_kᵀ y_k − bᵀ Γ⁻¹ b)/σ_k² + (n_k − 2m) log σ_k² + log|Γ|] + const, minimised over log σ_k²
   * by Brent's method between 10⁻⁶ and 2 times y_kᵀ y_k / n_k.
   *
   * <p>Why: the model's σ_n² is learned by the global bound, where one set of 2m weights s must explain every
   * partition, so σ_n² absorbs what those shared features cannot represent; the local conditional refits the
   * weights on partition k's rows and its residuals can be far smaller (on a rough 2-input surface, 11 times
   * smaller in variance), so predicting with σ_n² makes every interval too wide. A partition with no more rows
   * than basis functions (n_k &le; 2m) cannot separate noise from signal and keeps the model's σ_n².
   *
   * @param gram Φ_k Φ_kᵀ without a ridge (not modified)
   * @param b Φ_k y_k
   */
  static double localNoise(
      Matrix gram, double[] b, double yy, int nk, double lambda, double modelNoise) {
    int two = b.length;
    if (nk <= two || !(yy > 0)) {
      return modelNoise;
    }
    double scale = yy / nk;
    // One factor's storage and one vector serve every evaluation: allocating them per evaluation
    // (partitions × r samples × Brent's evaluations) made ~1 GB/s of garbage at 3e6 rows. A Γ that
    // does not factor without jitter takes the allocating path with the standard jitter policy.
    Matrix work = Matrix.zeros(two, two);
    double[] v = new double[two];
    double[] best = Brent.minimize(
        t -> {
          double s2 = Math.exp(t);
          double ridge = s2 / lambda;
          double[] w = withRidge(gram, ridge, work).data();
          double quad;
          double logDet;
          if (Cholesky.factorInPlace(work)) {
            System.arraycopy(b, 0, v, 0, two);
            Cholesky.solveLowerInPlace(work, v);
            quad = 0;
            logDet = 0;
            for (int u = 0; u < two; u++) {
              quad += v[u] * v[u];
              logDet += Math.log(w[u * two + u]);
            }
            logDet *= 2;
          } else {
            Cholesky c = Cholesky.factor(withRidge(gram, ridge), JitterPolicy.standard());
            quad = c.quadForm(b);
            logDet = c.logDet();
          }
          return 0.5 * ((yy - quad) / s2 + (nk - two) * t + logDet);
        },
        Math.log(1e-6 * scale),
        Math.log(2 * scale),
        LOG_NOISE_TOLERANCE);
    return Math.exp(best[0]);
  }

  /** A copy of {@code gram} with {@code ridge} added to its diagonal. */
  private static Matrix withRidge(Matrix gram, double ridge) {
    return withRidge(gram, ridge, Matrix.zeros(gram.rows(), gram.rows()));
  }

  /** {@code gram} with {@code ridge} added to its diagonal, written into {@code out} (same shape); returns it. */
  private static Matrix withRidge(Matrix gram, double ridge, Matrix out) {
    int two = gram.rows();
    double[] o = out.data();
    System.arraycopy(gram.data(), 0, o, 0, o.length);
    for (int u = 0; u < two; u++) {
      o[u * two + u] += ridge;
    }
    return out;
  }

  /** y_kᵀ y_k over partition k's training rows. */
  private static double sumOfSquares(RegressionData train, RowBlocks parts, int k) {
    double s = 0;
    for (int t = parts.start()[k]; t < parts.start()[k + 1]; t++) {
      double y = train.y()[parts.rows()[t]];
      s += y * y;
    }
    return s;
  }

  /**
   * Proposition 1's local terms of partition k: returns Γ_k = Φ(X_k) Φ(X_k)ᵀ + ridge·I (ridge = σ_n²/λ, λ = σ²/m
   * the prior variance of each weight) and writes Φ(X_k) y_k into {@code rhs}, streamed over the partition's
   * training rows. Each entry is summed over the rows in their order, four rows per pass over the lower triangle:
   * the same additions in the same order as one row at a time, hence the same bits, with a quarter of the loads
   * and stores of Γ. The lower triangle is summed, then mirrored.
   */
  static Matrix localTerms(
      RegressionData train,
      RowBlocks parts,
      int k,
      SpectralFeatures features,
      double ridge,
      double[] rhs) {
    int two = features.size();
    int d = train.d();
    double[] xs = train.x();
    double[] ys = train.y();
    int[] rows = parts.rows();
    Matrix gram = Matrix.zeros(two, two);
    double[] g = gram.data();
    double[] b = rhs;
    Arrays.fill(b, 0.0);
    double[] f0 = new double[two];
    double[] f1 = new double[two];
    double[] f2 = new double[two];
    double[] f3 = new double[two];
    int t = parts.start()[k];
    int end = parts.start()[k + 1];
    for (; t + 4 <= end; t += 4) {
      features.features(xs, rows[t] * d, f0);
      features.features(xs, rows[t + 1] * d, f1);
      features.features(xs, rows[t + 2] * d, f2);
      features.features(xs, rows[t + 3] * d, f3);
      double y0 = ys[rows[t]];
      double y1 = ys[rows[t + 1]];
      double y2 = ys[rows[t + 2]];
      double y3 = ys[rows[t + 3]];
      for (int u = 0; u < two; u++) {
        double s = b[u];
        s += f0[u] * y0;
        s += f1[u] * y1;
        s += f2[u] * y2;
        s += f3[u] * y3;
        b[u] = s;
        double a0 = f0[u];
        double a1 = f1[u];
        double a2 = f2[u];
        double a3 = f3[u];
        int o = u * two;
        for (int v = 0; v <= u; v++) {
          double e = g[o + v];
          e += a0 * f0[v];
          e += a1 * f1[v];
          e += a2 * f2[v];
          e += a3 * f3[v];
          g[o + v] = e;
        }
      }
    }
    for (; t < end; t++) {
      features.features(xs, rows[t] * d, f0);
      double y0 = ys[rows[t]];
      for (int u = 0; u < two; u++) {
        b[u] += f0[u] * y0;
        double a0 = f0[u];
        int o = u * two;
        for (int v = 0; v <= u; v++) {
          g[o + v] += a0 * f0[v];
        }
      }
    }
    for (int u = 0; u < two; u++) {
      g[u * two + u] += ridge;
      for (int v = 0; v < u; v++) {
        g[v * two + u] = g[u * two + v];
      }
    }
    return gram;
  }

  /** r samples α_j = M z_j + b (see {@link Svbssgp#sampleAlphas}). */
  static double[][] sampleAlphas(double[] b, double[] scale, int dim, int r, long seed) {
    if (r < 1) {
      throw new IllegalArgumentException("need r >= 1 samples");
    }
    UniformRandomProvider random =
        RandomSource.XO_RO_SHI_RO_128_PP.create(new long[] {seed, 0x9dec7L});
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
}
