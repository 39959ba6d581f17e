package org.approxgp.sparse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import org.approxgp.data.RegressionData;
import org.approxgp.inference.PredictiveMoments;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.JitterPolicy;
import org.approxgp.linalg.Matrix;
import org.junit.jupiter.api.Test;

/**
 * The predictor's fast paths against the plain computation of Proposition 1: Γ_k and Φ_k y_k summed one training
 * row at a time, the samples α_j one after another in this thread, the partitions in label order.
 */
class SvbssgpPredictorTest {

  /** Γ_k + ridge·I and Φ_k y_k one row at a time, both triangles (the reference for the four-row pass). */
  private static Matrix rowByRow(
      RegressionData train,
      RowBlocks parts,
      int k,
      SpectralFeatures f,
      double ridge,
      double[] rhs) {
    int two = f.size();
    int d = train.d();
    double[] phi = new double[two];
    Matrix gram = Matrix.zeros(two, two);
    Arrays.fill(rhs, 0);
    for (int t = parts.start()[k]; t < parts.start()[k + 1]; t++) {
      int row = parts.rows()[t];
      f.features(train.x(), row * d, phi);
      for (int u = 0; u < two; u++) {
        rhs[u] += phi[u] * train.y()[row];
        for (int v = 0; v <= u; v++) {
          gram.data()[u * two + v] += phi[u] * phi[v];
        }
      }
    }
    for (int u = 0; u < two; u++) {
      gram.data()[u * two + u] += ridge;
      for (int v = 0; v < u; v++) {
        gram.data()[v * two + u] = gram.data()[u * two + v];
      }
    }
    return gram;
  }

  /**
   * Partitions of 0 to 11 rows (every remainder of the four-row pass) give Γ_k and Φ_k y_k bit for bit equal to
   * the one-row-at-a-time sums.
   */
  @Test
  void fourRowPassEqualsOneRowAtATime() {
    RegressionData train = SvbssgpTest.synthetic(66, 3, 0.2, 5);
    int[] labels = new int[train.n()];
    int row = 0;
    for (int k = 0; k < 12; k++) {
      for (int c = 0; c < k; c++) {
        labels[row++] = k;
      }
    }
    RowBlocks parts = RowBlocks.of(labels, 12);
    double[] theta = new double[5 * 3];
    for (int i = 0; i < theta.length; i++) {
      theta[i] = 0.37 * Math.sin(3.1 * i + 0.2) + 0.05 * i;
    }
    SpectralFeatures f = new SpectralFeatures(theta, 5, 3);
    for (int k = 0; k < 12; k++) {
      double[] want = new double[10];
      double[] got = new double[10];
      Arrays.fill(got, Double.NaN); // overwritten, not added to
      Matrix expected = rowByRow(train, parts, k, f, 0.3, want);
      Matrix actual = SvbssgpPredictor.localTerms(train, parts, k, f, 0.3, got);
      assertArrayEquals(expected.data(), actual.data(), 0.0, "Γ of partition " + k);
      assertArrayEquals(want, got, 0.0, "Φy of partition " + k);
    }
  }

  /**
   * The predictive (partitions in parallel, each partition's samples in order) equals the sequential computation:
   * every sample α_j in turn, every partition in turn, one test row at a time; at γ = 0, 0.4 and 1, with r = 3,
   * partitions of uneven sizes and one partition without test rows.
   */
  @Test
  void parallelPredictionEqualsTheSequentialOne() {
    RegressionData train = SvbssgpTest.synthetic(403, 2, 0.1, 61);
    RegressionData test = SvbssgpTest.synthetic(57, 2, 0.1, 62);
    int p = 6;
    int[] labels = SvbssgpTest.sortedBlocks(train, p);
    int[] testLabels = SvbssgpTest.blocksOnX1(test, p);
    for (int i = 0; i < testLabels.length; i++) {
      if (testLabels[i] == 2) {
        testLabels[i] = 3; // partition 2 has no test rows
      }
    }
    Svbssgp model = Svbssgp.fit(
        train,
        labels,
        SvbssgpOptions.defaults().withM(4).withIterations(15).withSeed(3),
        IterationListener.NONE);
    RowBlocks parts = RowBlocks.of(labels, p);
    for (double gamma : new double[] {0, 0.4, 1}) {
      int r = 3;
      long seed = 17;
      PredictiveMoments got = model.predict(test, testLabels, gamma, r, seed);
      // the sequential reference
      int m = model.m();
      int d = model.d();
      double noise = model.noiseVariance();
      double lambda = model.signalVariance() / m;
      double[] sumMu = new double[test.n()];
      double[] sumSq = new double[test.n()];
      double[] phi = new double[2 * m];
      double[] rhs = new double[2 * m];
      for (double[] a : model.sampleAlphas(r, seed)) {
        SpectralFeatures f = new SpectralFeatures(Arrays.copyOf(a, m * d), m, d);
        for (int k = 0; k < p; k++) {
          Cholesky chol = Cholesky.factor(
              rowByRow(train, parts, k, f, noise / lambda, rhs), JitterPolicy.standard());
          double[] w = chol.solve(rhs);
          for (int i = 0; i < test.n(); i++) {
            if (testLabels[i] != k) {
              continue;
            }
            f.features(test.x(), i * d, phi);
            double mu = 0;
            double var = 0;
            if (gamma != 0) {
              double fs = 0;
              for (int u = 0; u < 2 * m; u++) {
                fs += phi[u] * a[m * d + u];
              }
              mu += gamma * fs;
            }
            if (gamma != 1) {
              double fw = 0;
              for (int u = 0; u < 2 * m; u++) {
                fw += phi[u] * w[u];
              }
              mu += (1 - gamma) * fw;
              var = (1 - gamma * gamma) * noise * chol.quadForm(phi);
            }
            sumMu[i] += mu;
            sumSq[i] += var + mu * mu;
          }
        }
      }
      for (int i = 0; i < test.n(); i++) {
        double mean = sumMu[i] / r;
        double variance = Math.max(sumSq[i] / r - mean * mean, 0) + noise;
        assertEquals(mean, got.mean()[i], 0.0, "mean, row " + i + ", gamma " + gamma);
        assertEquals(variance, got.variance()[i], 0.0, "variance, row " + i + ", gamma " + gamma);
      }
    }
  }
}
