package org.approxgp.sparse;

import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.approxgp.data.RegressionData;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.JitterPolicy;
import org.approxgp.linalg.Matrix;

/** The predictive of a fitted {@link Svbssgp} (Proposition 1 and §4.2; see {@link Svbssgp#predict}). */
final class SvbssgpPredictor {
  private SvbssgpPredictor() {}

  static RegressionPrediction predict(
      Svbssgp model,
      RegressionData train,
      RowBlocks parts,
      RegressionData test,
      int[] partitionOfTestRow,
      double gamma,
      int r,
      long seed) {
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
      for (int j = 0; j < r; j++) {
        double[] a = alphas[j];
        Cholesky chol = null;
        double[] weights = null;
        if (local) {
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
            var = (1 - gamma * gamma) * noiseVariance * chol.quadForm(phi);
          }
          sumMu[row] += mu;
          sumSq[row] += var + mu * mu;
        }
      }
    });
    double[] mean = new double[nt];
    double[] variance = new double[nt];
    for (int i = 0; i < nt; i++) {
      mean[i] = sumMu[i] / r;
      variance[i] = Math.max(sumSq[i] / r - mean[i] * mean[i], 0) + noiseVariance;
    }
    return new RegressionPrediction(mean, variance);
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
