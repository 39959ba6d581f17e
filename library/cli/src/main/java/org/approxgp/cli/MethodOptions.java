package org.approxgp.cli;

import org.approxgp.inference.SiteLoopOptions;
import org.approxgp.model.Methods;
import org.approxgp.model.Settings;
import picocli.CommandLine.Option;

/**
 * The inference methods' settings as flags, shared by {@code fit} and {@code compare}: each flag {@code --x} is the
 * {@link org.approxgp.model.Registry} setting {@code x}, validated there.
 */
final class MethodOptions {
  @Option(
      names = "--power",
      paramLabel = "U",
      description = "power-ep: the power u in (0, 1] (default " + Methods.DEFAULT_POWER + ")")
  Double power;

  @Option(
      names = "--power-ep-variant",
      paramLabel = "minka|appendix-c",
      description =
          "power-ep: minka (default; fractional cavity, Minka 2004) or appendix-c (Qi & Guo appendix C,"
              + " eq. 41-42: whole site removed, cavity tilted by t^u)")
  String powerEpVariant;

  @Option(
      names = "--penalty",
      paramLabel = "C",
      description = "rep: the l1 penalty c > 0 (default " + Methods.DEFAULT_PENALTY + ")")
  Double penalty;

  @Option(
      names = "--relaxation",
      paramLabel = "nonnegative|signed",
      description = "rep: relaxations b >= 0 only (eq. 11; default) or of either sign")
  String relaxation;

  @Option(
      names = "--site-reading",
      paramLabel = "a|b|c",
      description =
          "rep: the new site from the relaxed projection: a (eq. 16 as printed, site = t_b r), b (eq. 5/7,"
              + " site = t_b; default) or c (site = t_b / r)")
  String siteReading;

  @Option(
      names = "--relaxation-search",
      paramLabel = "local|global",
      description =
          "rep: b by the local minimum reached from b = 0 (default) or the minimiser over the whole"
              + " admissible range (scan + Brent)")
  String relaxationSearch;

  @Option(
      names = "--objective",
      paramLabel = "clean|unnormalised|eq36",
      description =
          "rep: the line search's objective Q(b): clean (default; the KL of the relaxed tilted distribution from"
              + " its projection, from eq. 5), unnormalised (eq. 4/5's KL of unnormalised densities) or eq36"
              + " (appendix B, eq. 36 as printed)")
  String objective;

  @Option(
      names = "--penalty-form",
      paramLabel = "eq35|eq4",
      description = "rep: penalty c|b| (eq. 35, default) or c|eta|_1 = c|b|(|m| + 1/2) (eq. 4)")
  String penaltyForm;

  @Option(
      names = "--negative-sites",
      paramLabel = "keep|clip",
      description =
          "EP family: keep negative site precisions or clip them to 0 (default clip for ep/qp, keep for"
              + " power-ep/rep)")
  String negativeSites;

  @Option(
      names = "--max-sweeps",
      paramLabel = "N",
      description = "ep, power-ep, rep: the site loop's sweep cap, a whole number >= 1 (default "
          + SiteLoopOptions.DEFAULT_MAX_SWEEPS
          + ")")
  Integer maxSweeps;

  @Option(
      names = "--gradient",
      paramLabel = "exact|numerical|none",
      description =
          "ep: exact (default; R&W eq. 5.27) or none; power-ep, rep: numerical (default; central"
              + " differences) or none. none computes no gradient, so the hyperparameters must stay fixed (not"
              + " optimised)")
  String gradient;

  @Option(
      names = "--evidence",
      paramLabel = "required|optional",
      description =
          "ep, power-ep, rep: required (default; an undefined log evidence fails the fit) or optional (a"
              + " proper posterior is kept and its log evidence reported as NaN; needs --gradient none)")
  String evidence;

  /**
   * Refuses {@code --gradient none} for a fit that learns hyperparameters ({@code learning}, named by {@code
   * option}), which needs the log-evidence gradient.
   */
  void checkGradientFor(boolean learning, String option) {
    if (learning && "none".equals(gradient == null ? null : gradient.strip())) {
      throw CliException.badInput("--gradient none computes no log-evidence gradient, which "
          + option + " needs to learn the hyperparameters");
    }
  }

  /** The flags given, as registry settings (flag {@code --x} = setting {@code x}). */
  Settings settings() {
    return Settings.none()
        .with("power", power)
        .with("power-ep-variant", powerEpVariant)
        .with("penalty", penalty)
        .with("relaxation", relaxation)
        .with("site-reading", siteReading)
        .with("relaxation-search", relaxationSearch)
        .with("penalty-form", penaltyForm)
        .with("objective", objective)
        .with("negative-sites", negativeSites)
        .with("max-sweeps", maxSweeps)
        .with("gradient", gradient)
        .with("evidence", evidence);
  }
}
