package org.approxgp.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.junit.jupiter.api.Test;

/**
 * The noise-removed scores and the significance of rankings against a truth whose Monte-Carlo error is simulated:
 * the true moments (m*, v*) are known, the "sampled" truth is them plus seeded Gaussian noise of the stated
 * standard errors, and each method is the true moments plus a known offset. The corrected scores must find the
 * offset, not the offset plus the noise; the verdict must name a method only when its offset is smaller beyond
 * the noise.
 */
class RankingTest {
  private static final int N = 4000;

  /** A truth of N latents: m* = sin(i), v* = 1 + i mod 3, sampled with errors se (means) and seVar (variances). */
  private static SampledPosterior truth(double se, double seVar, long seed) {
    UniformRandomProvider rng = Streams.of(seed, 7);
    ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(rng);
    double[] m = new double[N];
    double[] v = new double[N];
    double[] em = new double[N];
    double[] ev = new double[N];
    double[] ones = new double[N];
    for (int i = 0; i < N; i++) {
      m[i] = Math.sin(i) + se * g.sample();
      v[i] = 1 + i % 3 + seVar * g.sample();
      em[i] = se;
      ev[i] = seVar;
      ones[i] = 1;
    }
    return new SampledPosterior(
        m,
        v,
        em,
        ev,
        ones,
        ones,
        4,
        1000,
        500,
        false,
        null,
        SampledPosterior.Moves.ELLIPSE_AND_SITES,
        0,
        0,
        0);
  }

  /** The true moments shifted by dm (means) and dv (variances). */
  private static Ranking.Marginals method(String name, double dm, double dv) {
    return method(name, dm, dv, 0);
  }

  /**
   * The true moments shifted by ±dm and ±dv, the sign of latent i from sin(k i) (k = 0: all +): for k ≠ 0 the same
   * true errors as k = 0, spread differently over the latents.
   */
  private static Ranking.Marginals method(String name, double dm, double dv, int k) {
    double[] m = new double[N];
    double[] v = new double[N];
    for (int i = 0; i < N; i++) {
      double sign = k == 0 || Math.sin(k * i) >= 0 ? 1 : -1;
      m[i] = Math.sin(i) + sign * dm;
      v[i] = 1 + i % 3 + sign * dv;
    }
    return new Ranking.Marginals(name, m, v);
  }

  private static final AnnealedImportanceSampling AIS =
      new AnnealedImportanceSampling(0, 0.1, new double[] {0, 0}, 2, 0);

  @Test
  void correctedErrorsFindTheOffsetAndTheFloorsTheNoise() {
    SampledPosterior t = truth(0.05, 0.08, 1);
    Ranking.Marginals a = method("a", 0.02, 0.03);
    Comparison c = Comparison.of("a", a.mean(), a.variance(), 0, t, AIS, Double.NaN, Double.NaN, 0);
    // raw RMSE would be √(0.02² + 0.05²) = 0.054; corrected, 0.02 within the sampling error of
    // the correction (±√(2/N)·0.05²/(2·0.02) ≈ 0.0014 at one standard error)
    assertEquals(0.02, c.meanRmse(), 0.006, "corrected mean RMSE: " + c);
    assertEquals(0.05, c.meanRmseFloor(), 1e-12, "mean floor: " + c);
    assertEquals(0.03, c.varianceRmse(), 0.01, "corrected variance RMSE: " + c);
    assertEquals(0.08, c.varianceRmseFloor(), 1e-12, "variance floor: " + c);
    Ranking.Marginals exact = method("exact", 0, 0);
    Comparison e = Comparison.of(
        "exact", exact.mean(), exact.variance(), 0, t, AIS, Double.NaN, Double.NaN, 0);
    assertEquals(0, e.meanRmse(), 0.006, "an exact method's corrected mean RMSE: " + e);
    assertTrue(
        Math.abs(e.klMean()) < 0.1 * e.klFloor(),
        "an exact method's corrected KL is far below its floor: " + e);
  }

  @Test
  void aClearlyCloserMethodIsNamedAndACloseCallIsUndecided() {
    SampledPosterior t = truth(0.05, 0.08, 2);
    Ranking.Marginals near = method("near", 0.01, 0.01);
    Ranking.Marginals far = method("far", 0.3, 0.5);
    Ranking.Marginals twin = method("twin", 0.01, 0.01, 7);
    Ranking clear = new Ranking(t, List.of(far, near));
    for (Ranking.Score s : Ranking.Score.values()) {
      Ranking.Verdict v = clear.verdict(s);
      assertTrue(v.decided(), v.text());
      assertEquals("near", v.closest().get(0), v.text());
    }
    Ranking close = new Ranking(t, List.of(near, twin, far));
    Ranking.Verdict v = close.verdict(Ranking.Score.MEAN);
    assertFalse(v.decided(), "equal true errors spread differently: " + v.text());
    assertTrue(v.text().contains("undecided"), v.text());
    assertEquals(List.of("near", "twin"), v.closest().stream().sorted().toList(), v.text());
  }

  @Test
  void identicalMethodsAreReportedAsSuchNotRanked() {
    SampledPosterior t = truth(0.05, 0.08, 3);
    Ranking r = new Ranking(
        t, List.of(method("ep", 0.02, 0.02), method("rep", 0.02, 0.02), method("vb", 0.5, 0.5)));
    Ranking.Verdict v = r.verdict(Ranking.Score.VARIANCE);
    assertTrue(v.text().contains("identical to it: rep"), v.text());
    assertTrue(v.closest().containsAll(List.of("ep", "rep")), v.text());
    assertNull(
        new Ranking(t, List.of(method("ep", 0.02, 0.02), method("rep", 0.02, 0.02))).pending(),
        "identical methods need no more draws");
  }

  @Test
  void theStopRuleWaitsWhileTheTruthsNoiseIsLargeBesideADifference() {
    Ranking.Marginals a = method("a", 0.05, 0.05);
    Ranking.Marginals b = method("b", 0.06, 0.06);
    // the truth's part of the difference's error, (2/n) √(Σ (μ_a − μ_b)² ε²) = 2 · 0.01 · ε / √n,
    // against 1/4 of the difference 0.06² − 0.05² of the mean scores: pending for ε = 5, not for
    // 0.05
    String p = new Ranking(truth(5, 0.01, 4), List.of(a, b)).pending();
    assertNotNull(p);
    assertTrue(p.startsWith("mean a vs b"), p);
    assertNull(new Ranking(truth(0.05, 0.01, 4), List.of(a, b)).pending());
  }
}
