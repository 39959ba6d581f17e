package org.approxgp.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.approxgp.inference.Posterior;
import org.approxgp.inference.Problem;
import org.approxgp.reference.AnnealedImportanceSampling;
import org.approxgp.reference.Comparison;
import org.approxgp.reference.GaussianReference;
import org.approxgp.reference.Ranking;
import org.approxgp.reference.SampledPosterior;
import org.approxgp.report.ComparisonViews;
import org.approxgp.report.Figures;
import org.approxgp.report.HtmlPage;
import org.approxgp.report.Tables;

/**
 * The HTML report of {@code approxgp compare}: what the truth is and how sure, the verdicts (only where
 * significant), the table with each score's noise floor, the figures; styled as the exported notebooks
 * ({@link HtmlPage}).
 */
final class CompareReport {
  private CompareReport() {}

  /**
   * What the report shows.
   *
   * @param activeBounds hyperparameters that ended at a bound after --optimize (empty without it)
   * @param posteriors each method's posterior, for its diagnostics
   */
  record Inputs(
      Problem problem,
      GaussianReference q,
      SampledPosterior truth,
      AnnealedImportanceSampling ais,
      List<Comparison> rows,
      Ranking ranking,
      Map<String, double[]> variances,
      String train,
      List<String> activeBounds,
      Map<String, Posterior> posteriors) {}

  static String html(Inputs in) {
    Problem problem = in.problem();
    SampledPosterior truth = in.truth();
    StringBuilder h = new StringBuilder();
    h.append("<h1>Approximate posteriors against a sampled truth</h1>\n");
    h.append(p(String.format(
        Locale.ROOT,
        "Data %s: %d latents, likelihood %s, kernel %s at log-hyperparameters %s.",
        escape(in.train()),
        problem.size(),
        problem.likelihood().name(),
        problem.kernel().getClass().getSimpleName(),
        java.util.Arrays.toString(problem.kernel().logHyperparameters()))));
    if (!in.activeBounds().isEmpty()) {
      h.append(
          p("<b>Hyperparameters at a bound:</b> " + escape(String.join(", ", in.activeBounds()))
              + " ended at the optimiser's bound (the evidence would go further): the comparison is at that"
              + " bound, not at an optimum."));
    }
    h.append("<h2>The truth</h2>\n");
    h.append(p(String.format(
        Locale.ROOT,
        "%d chains, each transition an elliptical slice step with ellipses from %s followed by a sweep of"
            + " exact single-site updates (the target is the exact posterior whatever the ellipses; they change"
            + " only the mixing speed). %,d transitions per chain, the last half kept (%,d states per chain after"
            + " thinning). Rank-normalised split-R-hat max %.4f (target &le; 1.01), bulk ESS min %.0f (target &ge;"
            + " 1000), over every latent. The run also waits until the truth's Monte-Carlo error is at most %.2f"
            + " of every difference between methods it ranks. %s RMS Monte-Carlo standard error of the posterior"
            + " means: %.3g. Sampler wall time %.1f s.",
        truth.chains(),
        escape(in.q().name()),
        truth.transitionsPerChain(),
        truth.keptPerChain(),
        truth.rhatMax(),
        truth.essMin(),
        Ranking.FRACTION,
        truth.capped()
            ? "<b>The cap on transitions stopped the sampler before "
                + (truth.pending() == null
                    ? "these targets were met"
                    : "that (" + escape(truth.pending()) + ")")
                + ": rankings it could not separate are reported as undecided.</b>"
            : "All of this is met.",
        Comparison.meanNoiseFloor(truth),
        truth.seconds())));
    h.append(
        p(
            escape(in.ais().toString())
                + ". The log evidence by annealed importance sampling (Neal 2001), annealing"
                + " from the same Gaussian to the posterior; standard error by the delta method over the runs."));
    h.append("<h2>Verdict</h2>\n<ul>\n");
    for (Ranking.Score score : Ranking.Score.values()) {
      h.append("<li>").append(escape(in.ranking().verdict(score).text())).append("</li>\n");
    }
    h.append("</ul>\n");
    for (String note : identical(in)) {
      h.append(p(escape(note)));
    }
    h.append(Tables.toHtml(Tables.rounded(ComparisonViews.table(in.rows(), truth))))
        .append('\n');
    h.append(p("Scores have the truth's Monte-Carlo noise removed: mean_rmse and variance_rmse are"
        + " sqrt(mean squared error minus the truth's Monte-Carlo variance), 0 when the error is below the"
        + " noise; the _floor columns are what an exact method's raw error would read. KL is KL(truth ||"
        + " method) per latent, the true marginal replaced by its moment-matched Gaussian (so it scores the"
        + " first two moments only), averaged over latents, with its noise bias removed; W2 is between the"
        + " same two Gaussians. log_evidence_error is the method's log Z (the ELBO for vb) minus AIS's, with"
        + " AIS's standard error. test_error is for labels only; empty or NaN cells do not apply. rhat_max"
        + " and ess_min describe the truth."));
    h.append("<h2>Figures</h2>\n");
    h.append(Figures.imgTag(ComparisonViews.evidenceErrors(in.rows(), in.ais())))
        .append('\n');
    double[] tv = truth.variance();
    for (Map.Entry<String, double[]> e : in.variances().entrySet()) {
      h.append(Figures.imgTag(ComparisonViews.variances(e.getKey(), tv, e.getValue())))
          .append('\n');
    }
    return HtmlPage.of("approxgp compare: " + in.train(), h.toString());
  }

  /** A sentence per method whose marginals equal an earlier one's (Relaxed EP at a penalty too large to relax). */
  private static List<String> identical(Inputs in) {
    List<String> notes = new ArrayList<>();
    List<String> names = new ArrayList<>(in.posteriors().keySet());
    for (int b = 1; b < names.size(); b++) {
      for (int a = 0; a < b; a++) {
        Posterior pa = in.posteriors().get(names.get(a));
        Posterior pb = in.posteriors().get(names.get(b));
        if (same(pa.mean(), pb.mean()) && same(pa.variance(), pb.variance())) {
          notes.add(names.get(b) + "'s marginals equal " + names.get(a) + "'s (to 1e-12)"
              + (names.get(b).equals("rep")
                  ? ": at this penalty Relaxed EP relaxes no site and is EP; a smaller --penalty relaxes"
                  : "")
              + ".");
          break;
        }
      }
    }
    return notes;
  }

  private static boolean same(double[] x, double[] y) {
    for (int i = 0; i < x.length; i++) {
      if (Math.abs(x[i] - y[i]) > 1e-12 * Math.max(1, Math.max(Math.abs(x[i]), Math.abs(y[i])))) {
        return false;
      }
    }
    return true;
  }

  private static String p(String s) {
    return "<p>" + s + "</p>\n";
  }

  private static String escape(String s) {
    return HtmlPage.escape(s);
  }
}
