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
      RowPartitioning parts,
      RegressionData test,
      int[] partitionOfTestRow,
      double gamma,
      int r,
      long seed) {
    int d = model.d();
    int m = model.m();
    double noiseVariance = model.noiseVariance();
    double signalVariance = model.signalVariance();
    Svbssgp.checkGamma(gamma);
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
    RowPartitioning testParts = RowPartitioning.of(partitionOfTestRow, p);
    double[] sumMu = new double[nt];
    double[] sumSq = new double[nt];
    int two = 2 * m;
    int md = m * d;
    double[] xt = test.x();
    double[] xs = train.x();
    double[] ys = train.y();
    boolean local = gamma != 1;
    for (double[] a : alphas) {
      SpectralFeatures features = new SpectralFeatures(Arrays.copyOf(a, md), m, d);
      double lambda = signalVariance / m;
      // partitions in parallel: each writes only its own test rows, and the sums over the samples
      // α_j keep
      // their order (this loop), so the result does not depend on the threads
      java.util.stream.IntStream.range(0, p).parallel().forEach(k -> {
        int tlo = testParts.start()[k];
        int thi = testParts.start()[k + 1];
        if (tlo == thi) {
          return;
        }
        double[] phi = new double[two];
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
      });
    }
    double[] mean = new double[nt];
    double[] variance = new double[nt];
    for (int i = 0; i < nt; i++) {
      mean[i] = sumMu[i] / r;
      variance[i] = Math.max(sumSq[i] / r - mean[i] * mean[i], 0) + noiseVariance;
    }
    return new RegressionPrediction(mean, variance);
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
