package org.approxgp.reference;

import java.util.List;
import java.util.Locale;
import org.approxgp.metrics.Metrics;

/**
 * One approximate posterior's marginals against the sampled truth ({@link SampledPosterior}) and its log evidence
 * against annealed importance sampling's ({@link AnnealedImportanceSampling}).
 *
 * <p>Per latent i, with (mᵢ, sᵢ²) the truth's sample mean and variance and (μᵢ, σᵢ²) the method's:
 * <ul>
 *   <li>mean RMSE √(mean (μᵢ − mᵢ)²) and max |μᵢ − mᵢ|; variance RMSE √(mean (σᵢ² − sᵢ²)²);</li>
 *   <li>KL(p̂ᵢ ‖ qᵢ), direction: truth first. The true marginal is not Gaussian; p̂ᵢ = N(mᵢ, sᵢ²) is its moment-matched
 *       Gaussian, so this KL measures the method's first two moments only, and is zero exactly when they are
 *       right: KL = ½ [log(σᵢ²/sᵢ²) + (sᵢ² + (mᵢ − μᵢ)²)/σᵢ² − 1] (averaged over i);</li>
 *   <li>W2(p̂ᵢ, qᵢ) = √((mᵢ − μᵢ)² + (sᵢ − σᵢ)²) between the same Gaussians ({@link Metrics#wasserstein2Gaussian};
 *       averaged over i);</li>
 *   <li>log-evidence error: the method's log Z (the ELBO for VB) minus AIS's log Ẑ.</li>
 * </ul>
 * The truth's own Monte-Carlo error sets a floor under every number: {@link #meanNoiseFloor} is the RMS of its
 * mean standard errors, below which a mean RMSE is indistinguishable from zero.
 *
 * @param method the method's name
 * @param meanRmse RMSE of the posterior means
 * @param meanMaxError largest absolute error of a posterior mean
 * @param varianceRmse RMSE of the marginal variances
 * @param klMean mean KL(truth moment-matched ‖ method) over the latents
 * @param w2Mean mean W2 between the same Gaussians
 * @param logEvidenceError method's log Z − AIS log Ẑ
 * @param testNll mean negative log predictive density on the test set, NaN when there is none
 * @param testError test misclassification rate, NaN when there is no test set or the targets are not labels
 * @param seconds the method's wall time
 */
public record Comparison(
    String method,
    double meanRmse,
    double meanMaxError,
    double varianceRmse,
    double klMean,
    double w2Mean,
    double logEvidenceError,
    double testNll,
    double testError,
    double seconds) {

  /** The columns of {@link #csv}, in order. */
  public static final List<String> COLUMNS = List.of(
      "method",
      "mean_rmse",
      "mean_max_error",
      "variance_rmse",
      "kl_mean",
      "w2_mean",
      "log_evidence_error",
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
    int n = tm.length;
    if (mean.length != n || variance.length != n) {
      throw new IllegalArgumentException(
          "the method has " + mean.length + " marginals, the truth " + n);
    }
    double se = 0;
    double max = 0;
    double sv = 0;
    double kl = 0;
    double w2 = 0;
    for (int i = 0; i < n; i++) {
      double d = mean[i] - tm[i];
      se += d * d;
      max = Math.max(max, Math.abs(d));
      double dv = variance[i] - tv[i];
      sv += dv * dv;
      kl += 0.5 * (Math.log(variance[i] / tv[i]) + (tv[i] + d * d) / variance[i] - 1);
      w2 += Metrics.wasserstein2Gaussian(tm[i], tv[i], mean[i], variance[i]);
    }
    return new Comparison(
        method,
        Math.sqrt(se / n),
        max,
        Math.sqrt(sv / n),
        kl / n,
        w2 / n,
        logEvidence - ais.logEvidence(),
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
      for (double v : new double[] {
        c.meanRmse,
        c.meanMaxError,
        c.varianceRmse,
        c.klMean,
        c.w2Mean,
        c.logEvidenceError,
        c.testNll,
        c.testError,
        c.seconds,
        truth.rhatMax(),
        truth.essMin()
      }) {
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
        "%s: mean RMSE %.4g (max %.4g), variance RMSE %.4g, KL %.4g, W2 %.4g, "
            + "log-evidence error %.4g, %.2f s",
        method,
        meanRmse,
        meanMaxError,
        varianceRmse,
        klMean,
        w2Mean,
        logEvidenceError,
        seconds);
  }
}
