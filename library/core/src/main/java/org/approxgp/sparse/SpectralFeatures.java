package org.approxgp.sparse;

import java.util.random.RandomGenerator;

/**
 * The trigonometric basis of sparse-spectrum GPs (sVBSSGP paper §2, eq. 1–2; Lázaro-Gredilla et al.
 * 2010). The SE-ARD kernel σ² exp(−½ Σⱼ (xⱼ − x'ⱼ)²/ℓⱼ²) is E_{r∼p(r)}[σ² cos(2π rᵀ(x − x'))] with
 * p(r) = N(0, (4π²Δ)⁻¹), Δ = diag(ℓ²) (eq. 1); m frequencies r₁…r_m give the unbiased estimate
 * (σ²/m) Σᵢ cos(2π rᵢᵀ(x − x')) = φ(x)ᵀ Λ φ(x') with Λ = (σ²/m) I and the 2m basis functions
 * φ^{2i−1}(x) = cos(2π rᵢᵀx), φ^{2i}(x) = sin(2π rᵢᵀx) (eq. 2; here 0-based: φ[2i], φ[2i+1]).
 *
 * <p>The frequencies are θ = vec(r₁, …, r_m) of the paper, stored row-major (m rows of d). The amplitude
 * σ² is not part of the basis; callers apply Λ.
 *
 * @param frequencies θ, row-major m × d (owned by the record; not copied)
 * @param m number of spectral frequencies (2m basis functions)
 * @param d input dimension
 */
public record SpectralFeatures(double[] frequencies, int m, int d) {

  public SpectralFeatures {
    if (m < 1 || d < 1) {
      throw new IllegalArgumentException(
          "need m >= 1 frequencies and d >= 1 inputs, got m=" + m + ", d=" + d);
    }
    if (frequencies == null || frequencies.length != m * d) {
      throw new IllegalArgumentException("frequencies must have m·d = " + m * d + " values");
    }
    for (double r : frequencies) {
      if (!Double.isFinite(r)) {
        throw new IllegalArgumentException("non-finite spectral frequency " + r);
      }
    }
  }

  /**
   * m frequencies drawn from the SE-ARD kernel's spectral density, rᵢⱼ ∼ N(0, 1/(4π²ℓⱼ²)) (eq. 1).
   *
   * @param lengthscales ℓ, one per input (positive)
   */
  public static SpectralFeatures sample(int m, double[] lengthscales, RandomGenerator rng) {
    int d = lengthscales.length;
    double[] r = new double[m * d];
    for (int j = 0; j < d; j++) {
      if (!(lengthscales[j] > 0) || !Double.isFinite(lengthscales[j])) {
        throw new IllegalArgumentException(
            "length-scale " + j + " must be positive and finite, got " + lengthscales[j]);
      }
    }
    for (int i = 0; i < m; i++) {
      for (int j = 0; j < d; j++) {
        r[i * d + j] = rng.nextGaussian() / (2 * Math.PI * lengthscales[j]);
      }
    }
    return new SpectralFeatures(r, m, d);
  }

  /** Number of basis functions, 2m. */
  public int size() {
    return 2 * m;
  }

  /**
   * The 2m basis functions at the input stored at {@code x[offset … offset+d)} (e.g. a row of
   * {@link org.approxgp.data.RegressionData#x()}), written to {@code out[0 … 2m)}: out[2i] = cos(2π rᵢᵀx),
   * out[2i+1] = sin(2π rᵢᵀx).
   */
  public void features(double[] x, int offset, double[] out) {
    for (int i = 0; i < m; i++) {
      double a = 0;
      int base = i * d;
      for (int j = 0; j < d; j++) {
        a += frequencies[base + j] * x[offset + j];
      }
      a *= 2 * Math.PI;
      out[2 * i] = Math.cos(a);
      out[2 * i + 1] = Math.sin(a);
    }
  }

  /** The basis at one input x (length d). */
  public double[] features(double[] x) {
    if (x.length != d) {
      throw new IllegalArgumentException("input has " + x.length + " values, features expect " + d);
    }
    double[] out = new double[2 * m];
    features(x, 0, out);
    return out;
  }

  /**
   * The finite-feature kernel φ(x)ᵀ Λ φ(x') = (σ²/m) Σᵢ cos(2π rᵢᵀ(x − x')) (eq. 2).
   */
  public double kernel(double[] x, double[] x2, double signalVariance) {
    double s = 0;
    for (int i = 0; i < m; i++) {
      double a = 0;
      for (int j = 0; j < d; j++) {
        a += frequencies[i * d + j] * (x[j] - x2[j]);
      }
      s += Math.cos(2 * Math.PI * a);
    }
    return signalVariance * s / m;
  }
}
