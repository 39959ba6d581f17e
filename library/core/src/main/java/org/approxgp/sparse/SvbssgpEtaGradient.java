package org.approxgp.sparse;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * The paper's stochastic gradient of L with respect to η = vec(b, M) and the hyperparameters (Appendix G, eq. 22;
 * Theorem 1 for the data part; Appendix D for the prior and entropy), at a given η, with minibatch reweighting.
 * The steps of a run use the natural gradient instead (see {@link Svbssgp}); this estimator is kept as the
 * reference the tests check for unbiasedness against the closed-form bound, and for comparing
 * {@link PartitionGradients} strategies.
 */
final class SvbssgpEtaGradient {
  private static final double TWO_PI = 2 * Math.PI;
  private static final double LOG_2PI = Math.log(TWO_PI);

  private SvbssgpEtaGradient() {}

  /**
   * Writes ∂L̃/∂η (eq. 22) at {@code eta} (layout of {@link SvbssgpTrainer#eta()}) to {@code out}.
   *
   * @return the matching estimate of L (data and prior terms from the same draws, entropy exact)
   */
  static double compute(
      SvbssgpTrainer t, double[] eta, UniformRandomProvider random, double[] out) {
    if (out.length != eta.length) {
      throw new IllegalArgumentException("need " + eta.length + " gradient entries");
    }
    ZigguratSampler.NormalizedGaussian gauss = ZigguratSampler.NormalizedGaussian.of(random);
    int m = t.m;
    int d = t.d;
    int dim = t.dim;
    int md = m * d;
    int iNoise = t.iNoise();
    int iSignal = iNoise + 1;
    int iEll = iSignal + 1;
    Arrays.fill(out, 0);
    int samples = t.options.gradientSamples();
    double noise = Math.exp(eta[iNoise]);
    double lambda = Math.exp(eta[iSignal]) / m;
    double logNorm = 0.5 * Math.log(TWO_PI * noise);
    double[] invEll = new double[d];
    for (int c = 0; c < d; c++) {
      invEll[c] = Math.exp(-eta[iEll + c]);
    }
    // M's entries, diagonal exponentiated, packed like η
    int nTri = dim * (dim + 1) / 2;
    double[] mm = new double[nTri];
    System.arraycopy(eta, dim, mm, 0, nTri);
    for (int i = 0; i < dim; i++) {
      mm[i * (i + 1) / 2 + i] = Math.exp(eta[t.triIndex(i, i)]);
    }
    double[][] zs = new double[samples][];
    double[][] alphas = new double[samples][];
    List<PartitionGradients.Point> points = new ArrayList<>(samples);
    List<List<PartitionGradients.Draw>> drawn = new ArrayList<>(samples);
    boolean anyDraw = false;
    for (int j = 0; j < samples; j++) {
      double[] z = new double[dim];
      for (int k = 0; k < dim; k++) {
        z[k] = gauss.sample();
      }
      // α = M z + b (Lemma 1)
      double[] alpha = new double[dim];
      for (int i = 0; i < dim; i++) {
        double s = eta[i];
        int row = i * (i + 1) / 2;
        for (int c = 0; c <= i; c++) {
          s += mm[row + c] * z[c];
        }
        alpha[i] = s;
      }
      List<PartitionGradients.Draw> ds = t.drawFor(random);
      zs[j] = z;
      alphas[j] = alpha;
      points.add(new PartitionGradients.Point(m, d, alpha, invEll, noise, logNorm, samples));
      drawn.add(ds);
      anyDraw |= !ds.isEmpty();
    }
    double[][][] terms = anyDraw ? t.terms(points, drawn) : null;
    double elbo = 0;
    double gNoise = 0;
    double gSignal = 0;
    double[] acc = new double[2 + dim + d];
    for (int j = 0; j < samples; j++) {
      double[] z = zs[j];
      double[] alpha = alphas[j];
      Arrays.fill(
          acc, 0, 2 + dim, 0); // data term and ∂/∂α per sample; ∂/∂ log σ_n², ∂/∂ log ℓ run on
      acc[1] = gNoise;
      if (terms != null) {
        if (terms[j].length != drawn.get(j).size()) {
          throw new IllegalStateException("the gradient strategy returned " + terms[j].length
              + " terms for " + drawn.get(j).size() + " draws of sample " + j);
        }
        for (double[] term : terms[j]) {
          PartitionGradients.addInOrder(term, acc);
        }
      }
      double dataTerm = acc[0];
      gNoise = acc[1];
      double[] gAlpha = Arrays.copyOfRange(acc, 2, 2 + dim);
      // Prior part: ∇_α log p(α) = −blkdiag(I, Λ⁻¹) α (Appendix D, with p(ε) = N(0, I)).
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
      // ∂/∂b = g_α, ∂/∂M_ic = g_α,i z_c (Appendix D and F chain rule), ∂/∂ log M_ii = M_ii g_α,i
      // z_i
      for (int i = 0; i < dim; i++) {
        double gi = gAlpha[i] / samples;
        out[i] += gi;
        int row = dim + i * (i + 1) / 2;
        for (int c = 0; c < i; c++) {
          out[row + c] += gi * z[c];
        }
        out[row + i] += gi * z[i] * mm[i * (i + 1) / 2 + i];
      }
    }
    // Entropy H[q] = ½ D (1 + log 2π) + Σ log M_ii; its gradient ∂/∂ log M_ii = 1.
    double logDet = 0;
    for (int i = 0; i < dim; i++) {
      out[t.triIndex(i, i)] += 1;
      logDet += eta[t.triIndex(i, i)];
    }
    elbo += 0.5 * dim * (1 + LOG_2PI) + logDet;
    if (t.options.learnHyperparameters()) {
      out[iNoise] = gNoise;
      out[iSignal] = gSignal;
      System.arraycopy(acc, 2 + dim, out, iEll, d);
    }
    return elbo;
  }
}
