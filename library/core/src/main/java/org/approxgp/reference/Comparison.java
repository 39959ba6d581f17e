package org.approxgp.reference;

import java.util.List;
import java.util.Locale;
import org.approxgp.metrics.Metrics;

/**
 * One approximate posterior's marginals against the sampled truth ({@link SampledPosterior}) and its log evidence
 * against annealed importance sampling's ({@link AnnealedImportanceSampling}), each score with the Monte-Carlo noise
 * of the truth removed.
 *
 * <p>Per latent i, with (mᵢ, sᵢ²) the truth's sample mean and variance, (εᵢ, ηᵢ) their Monte-Carlo standard errors
 * and (μᵢ, σᵢ²) the method's. The sampled mᵢ = mᵢ* + e with E e = 0 and E e² = εᵢ², so E (μᵢ − mᵢ)² = (μᵢ − mᵢ*)² +
 * εᵢ²: a raw squared error is biased up by the truth's own variance, and a perfect method scores √(mean εᵢ²), not 0.
 * Each score is therefore reported twice:
 * <ul>
 *   <li>mean RMSE = √max(0, mean [(μᵢ − mᵢ)² − εᵢ²]), its floor √(mean εᵢ²) (what the raw RMSE of an exact method
 *       would read); variance RMSE likewise with (σᵢ² − sᵢ²)² and ηᵢ²;</li>
 *   <li>KL(p̂ᵢ ‖ qᵢ), truth first, p̂ᵢ = N(mᵢ, sᵢ²) the true marginal's moment-matched Gaussian (so the first two
 *       moments only): KL = ½ [log(σᵢ²/sᵢ²) + (sᵢ² + (mᵢ − μᵢ)²)/σᵢ² − 1]. To second order in the noise its bias is
 *       εᵢ²/(2σᵢ²) (the squared mean error) + ηᵢ²/(4sᵢ⁴) (the convexity of −log sᵢ²); the corrected mean KL subtracts
 *       it, and the floor is its mean;</li>
 *   <li>W2(p̂ᵢ, qᵢ) = √((mᵢ − μᵢ)² + (sᵢ − σᵢ)²) ({@link Metrics#wasserstein2Gaussian}) with the squares corrected
 *       by εᵢ² and (ηᵢ/(2sᵢ))² (the delta method for sᵢ) before the root, floor √(εᵢ² + (ηᵢ/(2sᵢ))²), averaged;</li>
 *   <li>max |μᵢ − mᵢ| raw (a maximum has no simple correction);</li>
 *   <li>log-evidence error: the method's log Z (the ELBO for VB) minus AIS's log Ẑ, with AIS's standard error.</li>
 * </ul>
 * Whether one method is closer than another is {@link Ranking}'s question.
 *
 * @param method the method's name
 * @param meanRmse RMSE of the posterior means, noise removed
 * @param meanRmseFloor the truth's RMS Monte-Carlo error of the means
 * @param meanMaxError largest absolute error of a posterior mean (raw)
 * @param varianceRmse RMSE of the marginal variances, noise removed
 * @param varianceRmseFloor the truth's RMS Monte-Carlo error of the variances
 * @param klMean mean KL(truth moment-matched ‖ method), noise removed
 * @param klFloor the noise's mean contribution to the raw KL
 * @param w2Mean mean W2 between the same Gaussians, noise removed
 * @param w2Floor mean W2 an exact method would read
 * @param logEvidenceError method's log Z − AIS log Ẑ
 * @param logEvidenceStdError AIS's standard error of log Ẑ
 * @param testNll mean negative log predictive density on the test set, NaN when there is none
 * @param testError test misclassification rate, NaN when there is no test set or the targets are not labels
 * @param seconds the method's wall time
 */
public record Comparison(
    String method,
    double meanRmse,
    double meanRmseFloor,
    double meanMaxError,
    double varianceRmse,
    double varianceRmseFloor,
    double klMean,
    double klFloor,
    double w2Mean,
    double w2Floor,
    double logEvidenceError,
    double logEvidenceStdError,
    double testNll,
    double testError,
    double seconds) {

  /** The columns of {@link #csv}, in order. */
  public static final List<String> COLUMNS = List.of(
      "method",
      "mean_rmse",
      "mean_rmse_floor",
      "mean_max_error",
      "variance_rmse",
      "variance_rmse_floor",
      "kl_mean",
      "kl_floor",
      "w2_mean",
      "w2_floor",
      "log_evidence_error",
      "log_evidence_se",
      "test_nll",
      "test_error",
      "seconds",
      "rhat_max",
      "ess_min");

  /**
   * Scores a method's marginals {@code mean}, {@code variance} and log evidence against the truth; the test
   * metrics (NaN when not applicable) and time are the caller's.
   */
  public static Comparison of(
      String method,
      double[] mean,
      double[] variance,
      double logEvidence,
      SampledPosterior truth,
      AnnealedImportanceSampling ais,
      double testNll,
      double testError,
      double seconds) {
    double[] tm = truth.mean();
    double[] tv = truth.variance();
    double[] em = truth.meanStdError();
    double[] ev = truth.varianceStdError();
    int n = tm.length;
    if (mean.length != n || variance.length != n) {
      throw new IllegalArgumentException(
          "the method has " + mean.length + " marginals, the truth " + n);
    }
    double se = 0;
    double seFloor = 0;
    double max = 0;
    double sv = 0;
    double svFloor = 0;
    double kl = 0;
    double klFloor = 0;
    double w2 = 0;
    double w2Floor = 0;
    for (int i = 0; i < n; i++) {
      double d = mean[i] - tm[i];
      se += d * d - em[i] * em[i];
      seFloor += em[i] * em[i];
      max = Math.max(max, Math.abs(d));
      double dv = variance[i] - tv[i];
      sv += dv * dv - ev[i] * ev[i];
      svFloor += ev[i] * ev[i];
      double klBias = em[i] * em[i] / (2 * variance[i]) + ev[i] * ev[i] / (4 * tv[i] * tv[i]);
      kl += 0.5 * (Math.log(variance[i] / tv[i]) + (tv[i] + d * d) / variance[i] - 1) - klBias;
      klFloor += klBias;
      double sd = Math.sqrt(tv[i]);
      double esd = ev[i] / (2 * sd);
      double dsd = Math.sqrt(variance[i]) - sd;
      w2 += Math.sqrt(Math.max(0, d * d - em[i] * em[i] + dsd * dsd - esd * esd));
      w2Floor += Math.sqrt(em[i] * em[i] + esd * esd);
    }
    return new Comparison(
        method,
        Math.sqrt(Math.max(0, se / n)),
        Math.sqrt(seFloor / n),
        max,
        Math.sqrt(Math.max(0, sv / n)),
        Math.sqrt(svFloor / n),
        kl / n,
        klFloor / n,
        w2 / n,
        w2Floor / n,
        logEvidence - ais.logEvidence(),
        ais.standardError(),
        testNll,
        testError,
        seconds);
  }

  /** RMS over the latents of the truth's Monte-Carlo standard error of the mean. */
  public static double meanNoiseFloor(SampledPosterior truth) {
    double s = 0;
    double[] se = truth.meanStdError();
    for (double v : se) {
      s += v * v;
    }
    return Math.sqrt(s / se.length);
  }

  /** This row's values in the order of {@link #COLUMNS} (after "method"); rhat_max and ess_min from the truth. */
  public double[] values(SampledPosterior truth) {
    return new double[] {
      meanRmse,
      meanRmseFloor,
      meanMaxError,
      varianceRmse,
      varianceRmseFloor,
      klMean,
      klFloor,
      w2Mean,
      w2Floor,
      logEvidenceError,
      logEvidenceStdError,
      testNll,
      testError,
      seconds,
      truth.rhatMax(),
      truth.essMin()
    };
  }

  /**
   * The summary CSV: a header of {@link #COLUMNS}, one row per comparison; rhat_max and ess_min describe the truth
   * (the same on every row). A value that does not apply (NaN) is an empty cell; numbers are written in full
   * precision.
   */
  public static String csv(List<Comparison> rows, SampledPosterior truth) {
    StringBuilder sb = new StringBuilder(String.join(",", COLUMNS)).append('\n');
    for (Comparison c : rows) {
      if (c.method.contains(",") || c.method.contains("\"")) {
        throw new IllegalArgumentException("method name not CSV-safe: " + c.method);
      }
      sb.append(c.method);
      for (double v : c.values(truth)) {
        sb.append(',');
        if (!Double.isNaN(v)) {
          if (Double.isInfinite(v)) {
            throw new IllegalArgumentException(c.method + ": an infinite score");
          }
          sb.append(v);
        }
      }
      sb.append('\n');
    }
    return sb.toString();
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "%s: mean RMSE %.4g (floor %.2g, max %.4g), variance RMSE %.4g (floor %.2g), KL %.4g, W2 %.4g, "
            + "log-evidence error %.4g +- %.2g, %.2f s",
        method,
        meanRmse,
        meanRmseFloor,
        meanMaxError,
        varianceRmse,
        varianceRmseFloor,
        klMean,
        w2Mean,
        logEvidenceError,
        logEvidenceStdError,
        seconds);
  }
}
