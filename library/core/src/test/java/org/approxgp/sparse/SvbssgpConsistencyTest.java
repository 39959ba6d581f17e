package org.approxgp.sparse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.stream.IntStream;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.approxgp.data.RegressionData;
import org.approxgp.inference.PredictiveMoments;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.Matrix;
import org.junit.jupiter.api.Test;

/**
 * The consistency of Proposition 1 (sVBSSGP paper, Appendix A eq. 9), exercised through {@link Svbssgp#predict}:
 * for θ given and every |γ| ≤ 1, integrating the test conditional N(γ φᵀs + (1 − γ) φᵀΓ_k⁻¹Φ_k y_k,
 * (1 − γ²) σ_n² φᵀΓ_k⁻¹φ) over s ~ p(s | y_k, θ) = N(μ, Σ) gives the local SSGP predictive p(f* | y_k, θ) of eq. 8.
 * The model's q(α) is set, through the trainer's η view, to a point mass at θ (standard deviation e⁻²⁰ in prior
 * units) times q(s) = p(s | y_k, θ) of the test rows' partition k, with μ = ΛΦ_kΞ_k y_k and Σ = Λ − ΛΦ_kΞ_kΦ_kᵀΛ
 * written here from Appendix A in the kernel form (Ξ_k = (Φ_kᵀΛΦ_k + σ_n² I)⁻¹), not in the Γ_k form the
 * predictor uses. The reference is eq. 8 with the finite-feature kernel K = ΦᵀΛΦ.
 */
class SvbssgpConsistencyTest {

  private static final int M = 4;
  private static final int D = 2;
  private static final double[] ELL = {0.7, 0.9};
  private static final double SIGNAL = 1.3;
  private static final double NOISE = 0.04;
  private static final int P = 3;
  private static final int K = 1; // the test rows' partition

  @Test
  void integratingOutSGivesTheLocalSsgpForEveryGamma() {
    RegressionData train = SvbssgpTest.synthetic(240, D, 0.1, 61);
    int[] labels = SvbssgpTest.blocksOnX1(train, P);
    RegressionData test = middleBlockRows(10);
    int[] testLabels = SvbssgpTest.blocksOnX1(test, P);
    assertTrue(Arrays.stream(testLabels).allMatch(l -> l == K));
    int md = M * D;
    // θ: a draw from the prior N(0, (4π²Δ)⁻¹), held as ε = 2πℓθ ~ N(0, I)
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(71L);
    ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(rng);
    double[] eps = new double[md];
    double[] theta = new double[md];
    for (int i = 0; i < md; i++) {
      eps[i] = g.sample();
      theta[i] = eps[i] / (2 * Math.PI * ELL[i % D]);
    }
    SpectralFeatures f = new SpectralFeatures(theta, M, D);
    int[] local = IntStream.range(0, train.n()).filter(i -> labels[i] == K).toArray();
    int[] all = IntStream.range(0, train.n()).toArray();

    Svbssgp model = modelWith(train, labels, eps, posterior(train, local, f));
    for (double gamma : new double[] {0, 0.5, 1, -0.6}) {
      int r = 40_000;
      PredictiveMoments pred = model.predict(test, testLabels, gamma, r, 17);
      for (int i = 0; i < test.n(); i++) {
        double[] ref = localGp(train, local, f, test.row(i));
        double latent = pred.variance()[i] - NOISE;
        if (gamma == 0) { // no s in the conditional: exact up to the e⁻²⁰ spread of θ
          assertEquals(ref[0], pred.mean()[i], 1e-7 * (1 + Math.abs(ref[0])), "mean, row " + i);
          assertEquals(ref[1], latent, 1e-7 * ref[1], "variance, row " + i);
        } else { // Monte Carlo over r samples of s: 5 standard errors
          double seMean = Math.abs(gamma) * Math.sqrt(ref[1] / r);
          double seVar = gamma * gamma * ref[1] * Math.sqrt(2.0 / r);
          assertEquals(ref[0], pred.mean()[i], 5 * seMean, "mean at gamma " + gamma + ", row " + i);
          assertEquals(ref[1], latent, 5 * seVar, "variance at gamma " + gamma + ", row " + i);
        }
      }
    }

    // power: with q(s) the posterior given every partition's rows instead of the test rows'
    // partition, the
    // γ = 1 predictive is no longer the local SSGP, by far more than the tolerance above
    Svbssgp global = modelWith(train, labels, eps, posterior(train, all, f));
    int r = 40_000;
    PredictiveMoments wrong = global.predict(test, testLabels, 1, r, 17);
    double worst = 0;
    for (int i = 0; i < test.n(); i++) {
      double[] ref = localGp(train, local, f, test.row(i));
      worst = Math.max(worst, Math.abs(wrong.mean()[i] - ref[0]) / Math.sqrt(ref[1] / r));
    }
    assertTrue(worst > 50, "largest deviation " + worst + " standard errors");
  }

  /** n test rows in the middle third of x₁ (partition K of {@link SvbssgpTest#blocksOnX1} with P blocks). */
  private static RegressionData middleBlockRows(int n) {
    double[][] x = new double[n][];
    for (int i = 0; i < n; i++) {
      x[i] = new double[] {-0.3 + 0.6 * (i + 0.5) / n, -0.9 + 1.8 * i / (n - 1)};
    }
    return RegressionData.of(x, null);
  }

  /** Φ of the rows (2m × rows) at θ. */
  private static Matrix phi(RegressionData train, int[] rows, SpectralFeatures f) {
    Matrix out = Matrix.zeros(2 * M, rows.length);
    for (int c = 0; c < rows.length; c++) {
      double[] v = f.features(train.row(rows[c]));
      for (int u = 0; u < 2 * M; u++) {
        out.set(u, c, v[u]);
      }
    }
    return out;
  }

  /** Ξ = (ΦᵀΛΦ + σ_n² I)⁻¹'s Cholesky factor (Appendix A). */
  private static Cholesky xi(Matrix ph) {
    double lambda = SIGNAL / M;
    int nk = ph.cols();
    Matrix kk = Matrix.zeros(nk, nk);
    for (int a = 0; a < nk; a++) {
      for (int c = 0; c < nk; c++) {
        double s = 0;
        for (int u = 0; u < 2 * M; u++) {
          s += ph.get(u, a) * ph.get(u, c);
        }
        kk.set(a, c, lambda * s + (a == c ? NOISE : 0));
      }
    }
    return Cholesky.factor(kk);
  }

  /** p(s | y_rows, θ) = N(μ, Σ): {μ, Σ row-major} with μ = ΛΦΞy, Σ = Λ − ΛΦΞΦᵀΛ (Appendix A). */
  private static double[][] posterior(RegressionData train, int[] rows, SpectralFeatures f) {
    Matrix ph = phi(train, rows, f);
    Cholesky xi = xi(ph);
    double lambda = SIGNAL / M;
    double[] y = Arrays.stream(rows).mapToDouble(i -> train.y()[i]).toArray();
    double[] xiY = xi.solve(y);
    int k = 2 * M;
    double[] mu = new double[k];
    double[][] xiPhiT = new double[k][];
    for (int u = 0; u < k; u++) {
      double[] row = new double[rows.length];
      for (int c = 0; c < rows.length; c++) {
        row[c] = ph.get(u, c);
        mu[u] += lambda * row[c] * xiY[c];
      }
      xiPhiT[u] = xi.solve(row);
    }
    double[] sigma = new double[k * k];
    for (int u = 0; u < k; u++) {
      for (int v = 0; v < k; v++) {
        double s = 0;
        for (int c = 0; c < rows.length; c++) {
          s += ph.get(u, c) * xiPhiT[v][c];
        }
        sigma[u * k + v] = (u == v ? lambda : 0) - lambda * lambda * s;
      }
    }
    return new double[][] {mu, sigma};
  }

  /** Eq. 8 with K = ΦᵀΛΦ on the rows: {mean, latent variance} at x*. */
  private static double[] localGp(
      RegressionData train, int[] rows, SpectralFeatures f, double[] xStar) {
    Cholesky xi = xi(phi(train, rows, f));
    double[] ks = new double[rows.length];
    double[] y = new double[rows.length];
    for (int c = 0; c < rows.length; c++) {
      ks[c] = f.kernel(xStar, train.row(rows[c]), SIGNAL);
      y[c] = train.y()[rows[c]];
    }
    double[] xiY = xi.solve(y);
    double mean = 0;
    for (int c = 0; c < rows.length; c++) {
      mean += ks[c] * xiY[c];
    }
    return new double[] {mean, f.kernel(xStar, xStar, SIGNAL) - xi.quadForm(ks)};
  }

  /**
   * The fitted-model view of q(α) = N(b, M Mᵀ) with b = (ε, μ) and M = blkdiag(e⁻²⁰ I, chol Σ), set through the
   * trainer's η view ([b, M lower with log diagonal, log σ_n², log σ_s², log ℓ]); no step is taken.
   */
  private static Svbssgp modelWith(
      RegressionData train, int[] labels, double[] eps, double[][] sPosterior) {
    SvbssgpOptions o = SvbssgpOptions.defaults()
        .withM(M)
        .withLengthscales(ELL)
        .withNoiseVariance(NOISE)
        .withSignalVariance(SIGNAL)
        .withSeed(3);
    SvbssgpTrainer t = new SvbssgpTrainer(train, labels, o, null);
    int md = M * D;
    int dim = md + 2 * M;
    double[] eta = new double[t.eta().length];
    System.arraycopy(eps, 0, eta, 0, md);
    System.arraycopy(sPosterior[0], 0, eta, md, 2 * M);
    Cholesky s = Cholesky.factor(Matrix.wrap(2 * M, 2 * M, sPosterior[1]));
    for (int i = 0; i < dim; i++) {
      eta[t.triIndex(i, i)] = i < md ? -20 : Math.log(s.lowerAt(i - md, i - md));
      for (int j = md; j < i && i >= md; j++) {
        eta[t.triIndex(i, j)] = s.lowerAt(i - md, j - md);
      }
    }
    eta[t.iNoise()] = Math.log(NOISE);
    eta[t.iNoise() + 1] = Math.log(SIGNAL);
    for (int j = 0; j < D; j++) {
      eta[t.iNoise() + 2 + j] = Math.log(ELL[j]);
    }
    t.setEta(eta);
    Svbssgp model = new SvbssgpTraining(t).current();
    assertEquals(NOISE, model.noiseVariance(), 1e-15);
    assertEquals(SIGNAL, model.signalVariance(), 1e-15);
    return model;
  }
}
