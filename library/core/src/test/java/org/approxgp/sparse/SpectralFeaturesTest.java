package org.approxgp.sparse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.approxgp.data.RegressionData;
import org.approxgp.inference.PredictiveMoments;
import org.junit.jupiter.api.Test;

class SpectralFeaturesTest {

  private static double seArd(double[] x, double[] z, double[] ell, double s2) {
    double q = 0;
    for (int j = 0; j < x.length; j++) {
      double u = (x[j] - z[j]) / ell[j];
      q += u * u;
    }
    return s2 * Math.exp(-0.5 * q);
  }

  /** φ(x)ᵀΛφ(x') equals the cosine sum of eq. 2 (cos a cos b + sin a sin b = cos(a − b)). */
  @Test
  void featureInnerProductIsTheCosineKernel() {
    double[] ell = {0.7, 2.0, 1.3};
    SpectralFeatures f = SpectralFeatures.sample(25, ell, new SplittableRandom(3));
    double[] x = {0.3, -1.2, 0.8};
    double[] z = {-0.4, 0.5, 1.1};
    double[] px = f.features(x);
    double[] pz = f.features(z);
    double dot = 0;
    for (int k = 0; k < px.length; k++) {
      dot += px[k] * pz[k];
    }
    assertEquals(f.kernel(x, z, 1.7), 1.7 / 25 * dot, 1e-13);
    assertEquals(1.7, f.kernel(x, x, 1.7), 1e-15);
  }

  /**
   * The feature kernel is an unbiased Monte Carlo estimate of SE-ARD (eq. 1–2): its RMS error over pairs and
   * seeds falls like m^−½ — quadrupling m halves it (ratio within 20 %), and the mean error is within four
   * standard errors of zero.
   */
  @Test
  void featureKernelConvergesToSeArdAtTheMonteCarloRate() {
    double[] ell = {0.8, 1.5};
    double[][] pts = {{0, 0}, {0.5, -0.3}, {1.2, 0.7}, {-0.9, 1.1}, {0.1, 2.0}};
    double[] rms = new double[3];
    int[] ms = {16, 64, 256};
    for (int a = 0; a < ms.length; a++) {
      double sq = 0;
      double sum = 0;
      int count = 0;
      for (int seed = 0; seed < 400; seed++) {
        SpectralFeatures f =
            SpectralFeatures.sample(ms[a], ell, new SplittableRandom(1000L * a + seed));
        for (int i = 0; i < pts.length; i++) {
          for (int j = i + 1; j < pts.length; j++) {
            double e = f.kernel(pts[i], pts[j], 1.0) - seArd(pts[i], pts[j], ell, 1.0);
            sq += e * e;
            sum += e;
            count++;
          }
        }
      }
      rms[a] = Math.sqrt(sq / count);
      double mean = sum / count;
      assertTrue(
          Math.abs(mean) < 4 * rms[a] / Math.sqrt(count), "m=" + ms[a] + ": mean error " + mean);
    }
    assertEquals(2.0, rms[0] / rms[1], 0.4, "rms errors " + java.util.Arrays.toString(rms));
    assertEquals(2.0, rms[1] / rms[2], 0.4, "rms errors " + java.util.Arrays.toString(rms));
  }

  @Test
  void rejectsBadInput() {
    assertThrows(
        IllegalArgumentException.class,
        () -> SpectralFeatures.sample(3, new double[] {1, -1}, new SplittableRandom(1)));
    assertThrows(IllegalArgumentException.class, () -> new SpectralFeatures(new double[5], 3, 2));
    assertThrows(
        IllegalArgumentException.class,
        () -> RegressionData.of(new double[][] {{1, 2}, {3}}, null));
    assertThrows(
        IllegalArgumentException.class,
        () -> new RegressionData(new double[] {1, Double.NaN}, 2, 1, null));
  }

  @Test
  void rmseAndMnlp() {
    PredictiveMoments p = new PredictiveMoments(new double[] {0, 1}, new double[] {1, 4});
    double[] y = {1, 1};
    assertEquals(Math.sqrt(0.5), p.rmse(y), 1e-15);
    double expected = 0.5 * (0.5 * (Math.log(2 * Math.PI) + 1) + 0.5 * Math.log(2 * Math.PI * 4));
    assertEquals(expected, p.mnlp(y), 1e-15);
  }
}
