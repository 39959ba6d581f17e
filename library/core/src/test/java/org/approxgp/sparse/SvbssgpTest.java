package org.approxgp.sparse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.approxgp.data.RegressionData;
import org.approxgp.inference.PredictiveMoments;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.Matrix;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class SvbssgpTest {

  /** y = sin(2x₁) + ½ cos(3x₂) + noise, x uniform on [−1, 1]^d (extra inputs are irrelevant). */
  static RegressionData synthetic(int n, int d, double noiseSd, long seed) {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(rng);
    double[] x = new double[n * d];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < d; j++) {
        x[i * d + j] = 2 * rng.nextDouble() - 1;
      }
      y[i] = Math.sin(2 * x[i * d]) + 0.5 * Math.cos(3 * x[i * d + 1]) + noiseSd * g.sample();
    }
    return new RegressionData(x, n, d, y);
  }

  /** Deterministic partition: p blocks of x₁ of equal width on [−1, 1]. */
  static int[] blocksOnX1(RegressionData data, int p) {
    int[] labels = new int[data.n()];
    for (int i = 0; i < data.n(); i++) {
      int k = (int) Math.floor((data.x(i, 0) + 1) / 2 * p);
      labels[i] = Math.min(p - 1, Math.max(0, k));
    }
    return labels;
  }

  /** Deterministic partition: sort rows on x₁ and cut into p blocks of (nearly) equal size. */
  static int[] sortedBlocks(RegressionData data, int p) {
    Integer[] idx = new Integer[data.n()];
    for (int i = 0; i < idx.length; i++) {
      idx[i] = i;
    }
    Arrays.sort(idx, (a, c) -> Double.compare(data.x(a, 0), data.x(c, 0)));
    int[] labels = new int[data.n()];
    for (int r = 0; r < idx.length; r++) {
      labels[idx[r]] = (int) ((long) r * p / idx.length);
    }
    return labels;
  }

  private static RegressionData rowsOutside(RegressionData data, int[] labels, int excluded) {
    int[] keep = java.util.stream.IntStream.range(0, data.n())
        .filter(i -> labels[i] != excluded)
        .toArray();
    return data.subset(keep);
  }

  /**
   * Test (1): the partition-sampled stochastic gradient (Appendix G eq. 22, with minibatch reweighting) is
   * unbiased. The reference is the gradient of the closed-form bound ({@link SvbssgpExactBound}, derived
   * independently: Gaussian characteristic functions, no sampling), by central differences, over all rows;
   * it covers b, every entry of M (log-diagonal), log σ_n², log σ_s² and the learned prior length-scales log ℓ
   * (their gradient is thus checked against finite differences of the exact bound), at a generic point with a full
   * lower-triangular M. Each of the 40 000 seeded gradients uses 2 of the 5 partitions, 10 of their 40 rows
   * and one z. The bound's estimate is checked the same way. As a control of the test's power, the gradient
   * of the bound on the data without one partition must be rejected.
   */
  @Test
  void stochasticGradientIsUnbiased() {
    assertUnbiased(1, 40_000);
  }

  /**
   * The same with b = 3 samples of z per gradient (Appendix G: the average of b single-sample estimates, each
   * unbiased): the mean of 15 000 gradients equals the exact bound's gradient, and the control is still rejected.
   */
  @Test
  void stochasticGradientWithSeveralZSamplesIsUnbiased() {
    assertUnbiased(3, 15_000);
  }

  private static void assertUnbiased(int zSamples, int draws) {
    RegressionData data = synthetic(200, 2, 0.1, 11);
    int[] labels = sortedBlocks(data, 5);
    SvbssgpOptions o = SvbssgpOptions.defaults()
        .withM(3)
        .withPartitionsPerIteration(2)
        .withMinibatch(10)
        .withGradientSamples(zSamples)
        .withLengthscales(0.6, 0.8)
        .withNoiseVariance(0.05)
        .withSignalVariance(0.7)
        .withSeed(3);
    SvbssgpTraining t = Svbssgp.start(data, labels, o);
    double[] eta = t.parameters();
    int dim = 3 * 2 + 6;
    UniformRandomProvider r0 = RandomSource.XO_RO_SHI_RO_128_PP.create(77L);
    ZigguratSampler.NormalizedGaussian g0 = ZigguratSampler.NormalizedGaussian.of(r0);
    for (int i = 0; i < dim; i++) {
      if (i >= 6) {
        eta[i] = 0.4 * g0.sample(); // s block of b
      }
      for (int j = 0; j <= i; j++) {
        int idx = dim + i * (i + 1) / 2 + j;
        eta[idx] = j == i ? Math.log(0.05 + 0.05 * r0.nextDouble()) : 0.03 * g0.sample();
      }
    }
    t.setParameters(eta);
    int k = eta.length;
    assertEquals(dim + dim * (dim + 1) / 2 + 2 + 2, k); // … log σ_n², log σ_s², log ℓ (d = 2)

    double[] exact = new double[k];
    double[] wrong = new double[k];
    RegressionData without = rowsOutside(data, labels, 4);
    double h = 1e-5;
    for (int c = 0; c < k; c++) {
      double[] e = eta.clone();
      e[c] += h;
      t.setParameters(e);
      Svbssgp plus = t.current();
      e[c] -= 2 * h;
      t.setParameters(e);
      Svbssgp minus = t.current();
      exact[c] =
          (SvbssgpExactBound.elbo(plus, data) - SvbssgpExactBound.elbo(minus, data)) / (2 * h);
      wrong[c] = (SvbssgpExactBound.elbo(plus, without) - SvbssgpExactBound.elbo(minus, without))
          / (2 * h);
    }
    t.setParameters(eta);
    double exactElbo = SvbssgpExactBound.elbo(t.current(), data);

    double[] sum = new double[k];
    double[] sumSq = new double[k];
    double elboSum = 0;
    double elboSq = 0;
    double[] g = new double[k];
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(2024L);
    for (int it = 0; it < draws; it++) {
      double l = t.stochasticGradient(rng, g);
      elboSum += l;
      elboSq += l * l;
      for (int c = 0; c < k; c++) {
        sum[c] += g[c];
        sumSq[c] += g[c] * g[c];
      }
    }
    int rejectedWrong = 0;
    for (int c = 0; c < k; c++) {
      double mean = sum[c] / draws;
      double se = Math.sqrt(Math.max(sumSq[c] / draws - mean * mean, 0) / (draws - 1));
      assertTrue(se > 0, "coordinate " + c + " has no sampling variance");
      assertTrue(
          Math.abs(mean - exact[c]) <= 4 * se,
          "coordinate " + c + ": mean " + mean + " vs exact " + exact[c] + " (se " + se + ")");
      if (Math.abs(mean - wrong[c]) > 4 * se) {
        rejectedWrong++;
      }
    }
    double elboMean = elboSum / draws;
    double elboSe = Math.sqrt((elboSq / draws - elboMean * elboMean) / (draws - 1));
    assertTrue(
        Math.abs(elboMean - exactElbo) <= 4 * elboSe,
        "bound estimate " + elboMean + " vs exact " + exactElbo + " (se " + elboSe + ")");
    assertTrue(
        rejectedWrong >= k / 4,
        "the test lacks power: only " + rejectedWrong + " of " + k
            + " coordinates reject the gradient without one partition");
  }

  /** The closed-form bound agrees with a plain Monte Carlo average of its integrand (checks the oracle). */
  @Test
  void exactBoundMatchesMonteCarlo() {
    RegressionData data = synthetic(60, 2, 0.1, 5);
    int[] labels = sortedBlocks(data, 3);
    SvbssgpOptions o =
        SvbssgpOptions.defaults().withM(2).withLengthscales(0.5, 0.7).withSeed(9);
    SvbssgpTraining t = Svbssgp.start(data, labels, o);
    double[] eta = t.parameters();
    int dim = 2 * 2 + 4;
    UniformRandomProvider r0 = RandomSource.XO_RO_SHI_RO_128_PP.create(8L);
    for (int i = 0; i < dim; i++) {
      eta[i] += 0.3 * (r0.nextDouble() - 0.5);
      for (int j = 0; j < i; j++) {
        eta[dim + i * (i + 1) / 2 + j] = 0.1 * (r0.nextDouble() - 0.5);
      }
      eta[dim + i * (i + 1) / 2 + i] = Math.log(0.2);
    }
    t.setParameters(eta);
    Svbssgp model = t.current();
    double exact = SvbssgpExactBound.elbo(model, data);
    // Monte Carlo: E_q[log p(y|α) + log p(α)] + H[q], α from the model's own sampler
    int r = 100_000;
    double[][] alphas = model.sampleAlphas(r, 4);
    double noise = model.noiseVariance();
    double lambda = model.signalVariance() / 2;
    double[] ell = model.priorLengthscales();
    double s = 0;
    double sq = 0;
    for (double[] a : alphas) {
      SpectralFeatures f = new SpectralFeatures(Arrays.copyOf(a, 4), 2, 2);
      double v = 0;
      for (int i = 0; i < data.n(); i++) {
        double[] phi = f.features(data.row(i));
        double fx = 0;
        for (int u = 0; u < 4; u++) {
          fx += phi[u] * a[4 + u];
        }
        double e = data.y()[i] - fx;
        v += -0.5 * e * e / noise - 0.5 * Math.log(2 * Math.PI * noise);
      }
      for (int c = 0; c < dim; c++) {
        double var = c < 4 ? 1 / (4 * Math.PI * Math.PI * ell[c % 2] * ell[c % 2]) : lambda;
        v += -0.5 * a[c] * a[c] / var - 0.5 * Math.log(2 * Math.PI * var);
      }
      s += v;
      sq += v * v;
    }
    double logDet = 0;
    for (int i = 0; i < dim; i++) {
      logDet += Math.log(model.scale().get(i, i));
    }
    double mean = s / r + 0.5 * dim * (1 + Math.log(2 * Math.PI)) + logDet;
    double se = Math.sqrt((sq / r - (s / r) * (s / r)) / (r - 1));
    assertTrue(
        Math.abs(mean - exact) <= 4 * se, "MC " + mean + " vs exact " + exact + " (se " + se + ")");
  }

  /**
   * Test (2): on a synthetic problem whose frequency prior is mis-specified (length-scales 3 where the function
   * varies on a scale of about 0.5, so the prior's random features are too smooth) the bound's estimate rises
   * and the test RMSE of the γ = 0 predictive falls over the iterations as q(θ) moves to higher frequencies.
   */
  @Test
  void boundRisesAndRmseFalls() {
    RegressionData train = synthetic(3000, 2, 0.1, 21);
    RegressionData test = synthetic(300, 2, 0.1, 22);
    int p = 30;
    int[] labels = blocksOnX1(train, p);
    int[] testLabels = blocksOnX1(test, p);
    SvbssgpOptions o = SvbssgpOptions.defaults()
        .withM(10)
        .withPartitionsPerIteration(5)
        .withIterations(300)
        .withLengthscales(3, 3)
        .withLearningRate(0.05)
        .withSeed(5);
    SvbssgpTraining t = Svbssgp.start(train, labels, o);
    List<Double> elbo = new ArrayList<>();
    double[] rmse = new double[3];
    rmse[0] = t.current().predict(test, testLabels, 0, 5, 1).rmse(test.y());
    for (int it = 1; it <= o.schedule().iterations(); it++) {
      elbo.add(t.step());
      if (it % 150 == 0) {
        rmse[it / 150] = t.current().predict(test, testLabels, 0, 5, 1).rmse(test.y());
      }
    }
    double first =
        elbo.subList(0, 30).stream().mapToDouble(Double::doubleValue).average().orElseThrow();
    double last = elbo.subList(elbo.size() - 30, elbo.size()).stream()
        .mapToDouble(Double::doubleValue)
        .average()
        .orElseThrow();
    String msg = "bound " + first + " -> " + last + "; rmse at 0, 150, 300: "
        + Arrays.toString(rmse) + "; " + t.current();
    assertTrue(last > first, msg);
    assertTrue(rmse[1] < rmse[0] && rmse[2] < rmse[1], msg);
    assertTrue(rmse[2] < 0.8 * rmse[0], msg);
  }

  /**
   * The prior length-scales are learned by the bound (class comment): on y = sin(2x₁) + ½ cos(3x₂) + noise with an
   * irrelevant third input, all starting at ℓ = 1, the irrelevant input's ℓ₃ grows and ends above ℓ₁ and ℓ₂
   * (automatic relevance determination, as in SSGP); with learning off, ℓ stays at its initial value.
   */
  @Test
  void lengthscalesAreLearnedAndTheIrrelevantInputsGrows() {
    RegressionData train = synthetic(2000, 3, 0.1, 31);
    int[] labels = blocksOnX1(train, 20);
    SvbssgpOptions o = SvbssgpOptions.defaults()
        .withM(10)
        .withPartitionsPerIteration(5)
        .withIterations(200)
        .withLengthscales(1, 1, 1)
        .withSeed(8);
    double[] ell = Svbssgp.fit(train, labels, o, IterationListener.NONE).priorLengthscales();
    String msg = Arrays.toString(ell);
    assertTrue(ell[2] > 1.2, msg);
    assertTrue(ell[2] > ell[0] && ell[2] > ell[1], msg);
    double[] fixed = Svbssgp.fit(
            train, labels, o.withLearnHyperparameters(false), IterationListener.NONE)
        .priorLengthscales();
    assertArrayEquals(new double[] {1, 1, 1}, fixed, 1e-12);
  }

  /**
   * Test (3): γ = 1 is the degenerate conditional N(φ_θ(x*)ᵀ s, 0) (Remark 1): the mean is the average over
   * the samples of φ_{θ_j}(x*)ᵀ s_j, the variance σ_n² plus their sample variance, and the local data (the
   * test rows' partition labels) play no part.
   */
  @Test
  void gammaOneIsTheDegenerateConditional() {
    RegressionData train = synthetic(400, 2, 0.1, 31);
    RegressionData test = synthetic(25, 2, 0.1, 32);
    int[] labels = blocksOnX1(train, 4);
    Svbssgp model = Svbssgp.fit(
        train,
        labels,
        SvbssgpOptions.defaults().withM(4).withIterations(20).withSeed(2),
        IterationListener.NONE);
    int r = 7;
    PredictiveMoments pred = model.predict(test, blocksOnX1(test, 4), 1.0, r, 99);
    int[] otherLabels = new int[test.n()];
    PredictiveMoments pred2 = model.predict(test, otherLabels, 1.0, r, 99);
    assertArrayEquals(pred.mean(), pred2.mean(), 0);
    assertArrayEquals(pred.variance(), pred2.variance(), 0);
    double[][] alphas = model.sampleAlphas(r, 99);
    for (int i = 0; i < test.n(); i++) {
      double s = 0;
      double sq = 0;
      for (double[] a : alphas) {
        SpectralFeatures f = new SpectralFeatures(Arrays.copyOf(a, 8), 4, 2);
        double[] phi = f.features(test.row(i));
        double mu = 0;
        for (int u = 0; u < 8; u++) {
          mu += phi[u] * a[8 + u];
        }
        s += mu;
        sq += mu * mu;
      }
      double mean = s / r;
      assertEquals(mean, pred.mean()[i], 1e-12);
      assertEquals(sq / r - mean * mean + model.noiseVariance(), pred.variance()[i], 1e-12);
    }
  }

  /**
   * γ = 0 with one sample is the exact GP on the test point's partition with the finite-feature kernel
   * K = Φᵀ Λ Φ of the sampled θ (Appendix A eq. 8: mean K(x*, X_k) Ξ_k y_k, variance
   * k(x*, x*) − K(x*, X_k) Ξ_k K(X_k, x*), Ξ_k = (K(X_k, X_k) + σ_n² I)⁻¹), plus σ_n² for y*.
   */
  @Test
  void gammaZeroIsTheLocalGp() {
    RegressionData train = synthetic(240, 2, 0.1, 41);
    RegressionData test = synthetic(20, 2, 0.1, 42);
    int[] labels = blocksOnX1(train, 4);
    int[] testLabels = blocksOnX1(test, 4);
    Svbssgp model = Svbssgp.fit(
        train,
        labels,
        SvbssgpOptions.defaults().withM(5).withIterations(10).withSeed(4),
        IterationListener.NONE);
    PredictiveMoments pred = model.predict(test, testLabels, 0.0, 1, 123);
    double[] alpha = model.sampleAlphas(1, 123)[0];
    SpectralFeatures f = new SpectralFeatures(Arrays.copyOf(alpha, 10), 5, 2);
    double s2 = model.signalVariance();
    double noise = model.noiseVariance();
    for (int i = 0; i < test.n(); i++) {
      int k = testLabels[i];
      int[] rows = java.util.stream.IntStream.range(0, train.n())
          .filter(j -> labels[j] == k)
          .toArray();
      int nk = rows.length;
      Matrix kk = Matrix.zeros(nk, nk);
      double[] ks = new double[nk];
      double[] yk = new double[nk];
      for (int a = 0; a < nk; a++) {
        for (int c = 0; c < nk; c++) {
          kk.set(a, c, f.kernel(train.row(rows[a]), train.row(rows[c]), s2));
        }
        kk.set(a, a, kk.get(a, a) + noise);
        ks[a] = f.kernel(test.row(i), train.row(rows[a]), s2);
        yk[a] = train.y()[rows[a]];
      }
      Cholesky chol = Cholesky.factor(kk);
      double[] xiY = chol.solve(yk);
      double mean = 0;
      for (int a = 0; a < nk; a++) {
        mean += ks[a] * xiY[a];
      }
      double var = s2 - chol.quadForm(ks) + noise;
      assertEquals(mean, pred.mean()[i], 1e-9 * (1 + Math.abs(mean)));
      assertEquals(var, pred.variance()[i], 1e-9 * var);
    }
  }

  /**
   * An intermediate γ (Proposition 1): for one sample α = (θ, s) the test conditional has mean
   * γ φᵀs + (1 − γ) φᵀΓ_k⁻¹Φ_k y_k and variance (1 − γ²) σ_n² φᵀΓ_k⁻¹φ, so with r = 1 the predictive at γ is the
   * γ-weighted mix of the γ = 1 mean (checked above against the degenerate conditional) and the γ = 0 mean
   * (checked above against the local GP), and its latent variance is (1 − γ²) times the γ = 0 one — at γ = 0.3,
   * 0.7 and −0.5 (|γ| ≤ 1).
   */
  @Test
  void intermediateGammaMixesTheLocalGpAndTheDegenerateConditional() {
    RegressionData train = synthetic(240, 2, 0.1, 51);
    RegressionData test = synthetic(15, 2, 0.1, 52);
    int[] labels = blocksOnX1(train, 4);
    int[] testLabels = blocksOnX1(test, 4);
    Svbssgp model = Svbssgp.fit(
        train,
        labels,
        SvbssgpOptions.defaults().withM(4).withIterations(10).withSeed(6),
        IterationListener.NONE);
    PredictiveMoments local = model.predict(test, testLabels, 0.0, 1, 321);
    PredictiveMoments degenerate = model.predict(test, testLabels, 1.0, 1, 321);
    double noise = model.noiseVariance();
    for (double gamma : new double[] {0.3, 0.7, -0.5}) {
      PredictiveMoments mixed = model.predict(test, testLabels, gamma, 1, 321);
      for (int i = 0; i < test.n(); i++) {
        double mean = gamma * degenerate.mean()[i] + (1 - gamma) * local.mean()[i];
        double latent = (1 - gamma * gamma) * (local.variance()[i] - noise);
        assertEquals(mean, mixed.mean()[i], 1e-12 * (1 + Math.abs(mean)), "mean at gamma " + gamma);
        assertEquals(
            latent + noise,
            mixed.variance()[i],
            1e-12 * (latent + noise),
            "variance at gamma " + gamma);
      }
    }
    // the mix is not the γ = 0 predictive: γ matters
    assertTrue(
        Math.abs(model.predict(test, testLabels, 0.7, 1, 321).mean()[0] - local.mean()[0]) > 1e-6);
  }

  /** Test (4): the same seed gives bit-identical fits and predictions; another seed does not. */
  /**
   * Without a stopping rule the fit runs to its cap and reports no convergence and no slope test, although the
   * default rule, watching the same estimates, would have stopped it (it stops the same fit with the rule).
   */
  @Test
  void withoutAStoppingRuleTheFitNeitherStopsNorReportsConvergence() {
    RegressionData train = synthetic(400, 2, 0.1, 3);
    int[] labels = new int[train.n()];
    Arrays.setAll(labels, i -> i % 8);
    SvbssgpOptions o = SvbssgpOptions.defaults().withM(6).withIterations(1500);
    Svbssgp ruled = Svbssgp.fit(train, labels, o, (it, b, s) -> {});
    assertEquals(BoundMonitor.StopReason.CONVERGED, ruled.stopReason());
    assertTrue(ruled.converged() && ruled.iterations() < 1500 && ruled.lastSlopeTest() != null);
    Svbssgp none = Svbssgp.fit(train, labels, o.withoutStopping(), (it, b, s) -> {});
    assertEquals(BoundMonitor.StopReason.ITERATION_CAP, none.stopReason());
    assertEquals(1500, none.iterations());
    assertEquals(1500, none.boundTrace().length);
    assertFalse(none.converged());
    assertEquals(null, none.lastSlopeTest());
  }

  @Test
  void deterministicForASeed() {
    RegressionData train = synthetic(500, 3, 0.1, 51);
    RegressionData test = synthetic(30, 3, 0.1, 52);
    int[] labels = sortedBlocks(train, 5);
    int[] testLabels = blocksOnX1(test, 5);
    SvbssgpOptions o = SvbssgpOptions.defaults()
        .withM(4)
        .withIterations(40)
        .withMinibatch(30)
        .withPartitionsPerIteration(2)
        .withGradientSamples(2)
        .withSeed(8);
    List<Double> trace1 = new ArrayList<>();
    List<Double> trace2 = new ArrayList<>();
    Svbssgp a = Svbssgp.fit(train, labels, o, (i, l, s) -> trace1.add(l));
    Svbssgp b = Svbssgp.fit(train, labels, o, (i, l, s) -> trace2.add(l));
    Svbssgp c = Svbssgp.fit(train, labels, o.withSeed(9), IterationListener.NONE);
    assertEquals(trace1, trace2);
    assertEquals(40, trace1.size());
    assertArrayEquals(a.mean(), b.mean(), 0);
    assertArrayEquals(a.scale().data(), b.scale().data(), 0);
    assertEquals(a.noiseVariance(), b.noiseVariance(), 0);
    PredictiveMoments pa = a.predict(test, testLabels);
    PredictiveMoments pb = b.predict(test, testLabels);
    assertArrayEquals(pa.mean(), pb.mean(), 0);
    assertArrayEquals(pa.variance(), pb.variance(), 0);
    assertFalse(Arrays.equals(a.mean(), c.mean()));
  }

  /**
   * Test (5): memory. Training streams the sampled rows and computes their features on the fly, so an
   * iteration allocates nothing that grows with n: the bytes this thread allocates over 20 iterations are
   * below 256 KiB at n = 20 000 and at n = 200 000, where one n × 2m feature matrix would take 3.2 MB and
   * 32 MB. (Measured with the JVM's per-thread allocation counter; skipped where it is unavailable.)
   */
  @Test
  void iterationsAllocateNothingThatGrowsWithN() {
    java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
    Assumptions.assumeTrue(
        bean instanceof com.sun.management.ThreadMXBean, "no allocation counter");
    com.sun.management.ThreadMXBean sun = (com.sun.management.ThreadMXBean) bean;
    Assumptions.assumeTrue(
        sun.isThreadAllocatedMemorySupported() && sun.isThreadAllocatedMemoryEnabled(),
        "allocation counter disabled");
    long tid = Thread.currentThread().getId();
    for (int n : new int[] {20_000, 200_000}) {
      RegressionData train = synthetic(n, 2, 0.1, 61);
      int[] labels = blocksOnX1(train, 100);
      SvbssgpTraining t = Svbssgp.start(
          train,
          labels,
          SvbssgpOptions.defaults()
              .withM(10)
              .withPartitionsPerIteration(5)
              .withMinibatch(50)
              .withSeed(1));
      t.step();
      long before = sun.getThreadAllocatedBytes(tid);
      for (int it = 0; it < 20; it++) {
        t.step();
      }
      long allocated = sun.getThreadAllocatedBytes(tid) - before;
      assertTrue(
          allocated < 256 * 1024, "n=" + n + ": 20 iterations allocated " + allocated + " bytes");
    }
  }

  @Test
  void rejectsBadInput() {
    RegressionData train = synthetic(50, 2, 0.1, 71);
    int[] labels = blocksOnX1(train, 3);
    SvbssgpOptions o = SvbssgpOptions.defaults().withM(2).withIterations(2);
    assertThrows(IllegalArgumentException.class, () -> SvbssgpOptions.defaults().withGamma(1.5));
    assertThrows(IllegalArgumentException.class, () -> Svbssgp.start(train, new int[3], o));
    int[] negative = labels.clone();
    negative[0] = -1;
    assertThrows(IllegalArgumentException.class, () -> Svbssgp.start(train, negative, o));
    Svbssgp model = Svbssgp.fit(train, labels, o, IterationListener.NONE);
    RegressionData test = synthetic(5, 2, 0.1, 72);
    assertThrows(
        IllegalArgumentException.class, () -> model.predict(test, new int[] {0, 1, 2, 3, 0}));
    assertThrows(
        IllegalArgumentException.class, () -> model.predict(synthetic(5, 3, 0.1, 1), new int[5]));
  }
}
