package org.approxgp.special;

/**
 * Autocovariances of a series by the fast Fourier transform (Wiener–Khinchin: the autocorrelation of a series is
 * the inverse transform of its power spectrum). The series is centred and zero-padded to a power of two at least
 * 2N, so the circular correlation equals the linear one; γ_k = (1/N) Σ_{t&lt;N−k} (x_t − x̄)(x_{t+k} − x̄), the
 * biased estimator MCMC diagnostics use (C. J. Geyer, "Practical Markov chain Monte Carlo", Statist. Sci. 7(4),
 * 1992). O(N log N) instead of O(N · lags). Radix-2 Cooley–Tukey, iterative, in place.
 */
public final class Autocovariance {
  private Autocovariance() {}

  /**
   * γ_0 … γ_{N−1} of {@code x} (not modified).
   *
   * @throws IllegalArgumentException for fewer than 2 values
   */
  public static double[] of(double[] x) {
    int n = x.length;
    if (n < 2) {
      throw new IllegalArgumentException("need at least 2 values, got " + n);
    }
    double mean = 0;
    for (double v : x) {
      mean += v;
    }
    mean /= n;
    int m = Integer.highestOneBit(2 * n - 1) << 1;
    double[] re = new double[m];
    double[] im = new double[m];
    for (int t = 0; t < n; t++) {
      re[t] = x[t] - mean;
    }
    transform(re, im, false);
    for (int k = 0; k < m; k++) {
      re[k] = re[k] * re[k] + im[k] * im[k];
      im[k] = 0;
    }
    transform(re, im, true);
    double[] g = new double[n];
    for (int k = 0; k < n; k++) {
      // the inverse transform's 1/m, then the estimator's 1/N
      g[k] = re[k] / m / n;
    }
    return g;
  }

  /** In-place discrete Fourier transform of length 2^p, e^{∓2πi kt/m} (inverse without the 1/m factor). */
  private static void transform(double[] re, double[] im, boolean inverse) {
    int m = re.length;
    for (int i = 1, j = 0; i < m; i++) {
      int bit = m >> 1;
      for (; (j & bit) != 0; bit >>= 1) {
        j ^= bit;
      }
      j ^= bit;
      if (i < j) {
        double t = re[i];
        re[i] = re[j];
        re[j] = t;
        t = im[i];
        im[i] = im[j];
        im[j] = t;
      }
    }
    // twiddle factors e^{∓2πik/m}, k < m/2, computed directly (not by recurrence) so rounding does
    // not accumulate
    int h = m >> 1;
    double[] cos = new double[h];
    double[] sin = new double[h];
    for (int k = 0; k < h; k++) {
      cos[k] = Math.cos(2 * Math.PI * k / m);
      sin[k] = (inverse ? 1 : -1) * Math.sin(2 * Math.PI * k / m);
    }
    for (int len = 2; len <= m; len <<= 1) {
      int half = len >> 1;
      int step = m / len;
      for (int k = 0; k < half; k++) {
        double wr = cos[k * step];
        double wi = sin[k * step];
        for (int i = k; i < m; i += len) {
          int j = i + half;
          double xr = re[j] * wr - im[j] * wi;
          double xi = re[j] * wi + im[j] * wr;
          re[j] = re[i] - xr;
          im[j] = im[i] - xi;
          re[i] += xr;
          im[i] += xi;
        }
      }
    }
  }
}
