package org.approxgp.cli;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.approxgp.inference.Problem;
import org.approxgp.reference.AnnealedImportanceSampling;
import org.approxgp.reference.Comparison;
import org.approxgp.reference.GaussianReference;
import org.approxgp.reference.SampledPosterior;
import org.approxgp.report.ComparisonViews;
import org.approxgp.report.Figures;
import org.approxgp.report.Tables;

/** The HTML report of {@code approxgp compare}: what the truth is and how sure, the verdict table, the figures. */
final class CompareReport {
  private CompareReport() {}

  static String html(
      Problem problem,
      GaussianReference q,
      SampledPosterior truth,
      AnnealedImportanceSampling ais,
      List<Comparison> rows,
      Map<String, double[]> variances,
      String train) {
    StringBuilder h = new StringBuilder(
            "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>approxgp compare: ")
        .append(escape(train))
        .append("</title></head><body>\n");
    h.append("<h1>Approximate posteriors against a sampled truth</h1>\n");
    h.append(p(String.format(
        Locale.ROOT,
        "Data %s: %d latents, likelihood %s, kernel %s at log-hyperparameters %s.",
        escape(train),
        problem.size(),
        problem.likelihood().name(),
        problem.kernel().getClass().getSimpleName(),
        java.util.Arrays.toString(problem.kernel().logHyperparameters()))));
    h.append("<h2>The truth</h2>\n");
    h.append(p(String.format(
        Locale.ROOT,
        "Elliptical slice sampling, %d chains, ellipses from %s (the target is the"
            + " exact posterior whatever the ellipses; they change only the mixing speed). %,d transitions per chain, the"
            + " last half kept (%,d states per chain after thinning). Rank-normalised split-R-hat max %.4f (target &le;"
            + " 1.01), bulk ESS min %.0f (target &ge; 1000), over every latent. %s Mean Monte-Carlo standard error of"
            + " the posterior means (RMS over latents): %.3g. Sampler wall time %.1f s.",
        truth.chains(),
        escape(q.name()),
        truth.transitionsPerChain(),
        truth.keptPerChain(),
        truth.rhatMax(),
        truth.essMin(),
        truth.capped()
            ? "<b>The cap on transitions stopped the sampler before these targets were met: differences"
                + " below the Monte-Carlo error are not resolved.</b>"
            : "Both targets are met.",
        Comparison.meanNoiseFloor(truth),
        truth.seconds())));
    h.append(
        p(
            escape(ais.toString())
                + ". The log evidence by annealed importance sampling (Neal 2001), annealing"
                + " from the same Gaussian to the posterior; standard error by the delta method over the runs."));
    h.append("<h2>Verdict</h2>\n");
    h.append(p(verdict(rows, truth)));
    h.append(Tables.toHtml(Tables.rounded(ComparisonViews.table(rows, truth)))).append('\n');
    h.append(p(
        "KL is KL(truth || method) per latent, the true marginal replaced by its moment-matched Gaussian (so it"
            + " scores the first two moments only), averaged over latents; W2 is between the same two Gaussians."
            + " log_evidence_error is the method's log Z (the ELBO for vb) minus AIS's. test_error is for labels only;"
            + " empty or NaN cells do not apply. rhat_max and ess_min describe the truth."));
    h.append("<h2>Figures</h2>\n");
    h.append(Figures.imgTag(ComparisonViews.evidenceErrors(rows, ais))).append('\n');
    double[] tv = truth.variance();
    for (Map.Entry<String, double[]> e : variances.entrySet()) {
      h.append(Figures.imgTag(ComparisonViews.variances(e.getKey(), tv, e.getValue())))
          .append('\n');
    }
    return h.append("</body></html>\n").toString();
  }

  private static String verdict(List<Comparison> rows, SampledPosterior truth) {
    return "Closest posterior means: " + best(rows, Comparison::meanRmse)
        + "; closest marginal variances: "
        + best(rows, Comparison::varianceRmse) + "; smallest mean KL: "
        + best(rows, Comparison::klMean)
        + "; smallest |log-evidence error|: " + best(rows, c -> Math.abs(c.logEvidenceError()))
        + String.format(
            Locale.ROOT,
            ". Mean RMSEs below %.3g (the truth's Monte-Carlo error) cannot be told apart.",
            Comparison.meanNoiseFloor(truth));
  }

  /** The method with the smallest score, with every method tied with it (within 1e-6 relative) joined by " = ". */
  private static String best(List<Comparison> rows, ToDoubleFunction<Comparison> score) {
    double min = rows.stream().mapToDouble(score).min().orElse(Double.NaN);
    return rows.stream()
        .filter(c -> Math.abs(score.applyAsDouble(c) - min) <= 1e-6 * Math.abs(min))
        .map(Comparison::method)
        .reduce((a, b) -> a + " = " + b)
        .orElse("none");
  }

  private static String p(String s) {
    return "<p>" + s + "</p>\n";
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
