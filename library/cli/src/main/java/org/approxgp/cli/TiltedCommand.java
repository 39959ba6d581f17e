package org.approxgp.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.approxgp.likelihood.Likelihood;
import org.approxgp.likelihood.TiltedMoments;
import org.approxgp.projection.LpProjection;
import org.approxgp.projection.W2Projection;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code approxgp tilted}: moments of the tilted distribution q̃(f) ∝ N(f | m, v) p(y | f) and its
 * projections, as JSON on standard output.
 */
@Command(
    name = "tilted",
    mixinStandardHelpOptions = true,
    description = "Tilted-distribution log Z, mean, EP (KL) variance and QP (W2) variance as JSON.")
final class TiltedCommand implements Callable<Integer> {
  @picocli.CommandLine.Spec
  picocli.CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--likelihood",
      defaultValue = "probit",
      description = "probit (default), poisson-square or noisy-step (needs --epsilon)")
  String likelihood;

  @Option(
      names = "--epsilon",
      paramLabel = "E",
      description = "noisy-step: label-flip probability in (0, 0.5)")
  Double epsilon;

  @Option(
      names = "--y",
      required = true,
      description = "observation (probit, noisy-step: -1 or +1)")
  double y;

  @Option(
      names = "--power",
      paramLabel = "U",
      description =
          "moments of N(f | M, V) p(y | f)^U (Power EP), U in (0, 1]; default 1 (the tilted distribution)")
  Double power;

  @Option(names = "--cavity-mean", required = true, paramLabel = "M")
  double cavityMean;

  @Option(names = "--cavity-variance", required = true, paramLabel = "V")
  double cavityVariance;

  @Option(
      names = "--p",
      paramLabel = "P",
      description = "Lp-Wasserstein projection with this p in [1, 10] instead of p = 2")
  Double p;

  @Override
  public Integer call() {
    Likelihood lik = Flags.likelihood(
        likelihood,
        org.approxgp.model.Settings.of("epsilon", epsilon),
        FitCommand.FIT_LIKELIHOODS,
        "gaussian has closed-form moments");
    try {
      lik.validate(y);
    } catch (IllegalArgumentException e) {
      throw CliException.badInput("--y: " + e.getMessage());
    }
    if (!Double.isFinite(cavityMean)) {
      throw CliException.badInput("--cavity-mean must be finite, got " + cavityMean);
    }
    if (!(cavityVariance > 0) || !Double.isFinite(cavityVariance)) {
      throw CliException.badInput(
          "--cavity-variance must be positive and finite, got " + cavityVariance);
    }
    double maxP = org.approxgp.projection.LpProjection.MAX_P;
    if (p != null && !(p >= 1 && p <= maxP)) {
      throw CliException.badInput("--p must be in [1, " + (int) maxP + "], got " + p);
    }
    if (power != null && !(power > 0 && power <= 1)) {
      throw CliException.badInput("--power must be in (0, 1], got " + power);
    }
    if (power != null && power != 1.0 && p != null) {
      throw CliException.badInput(
          "--power and --p cannot be combined (the Lp projection is of the tilted"
              + " distribution, u = 1)");
    }
    try {
      return compute(lik);
    } catch (ArithmeticException e) {
      // a valid question the numerics cannot answer (e.g. cavity variance 1e308): one line, exit 1
      throw new CliException(
          "tilted: computation failed for --y " + y + " --cavity-mean " + cavityMean
              + " --cavity-variance " + cavityVariance + ": " + e.getMessage(),
          1);
    }
  }

  private Integer compute(Likelihood lik) {
    if (power != null && power != 1.0) {
      // Power EP (Minka 2004; REP appendix C, eq. 41 for the noisy step): moments of N p^u, no QP
      // projection
      TiltedMoments pw = lik.powerTilted(y, cavityMean, cavityVariance, power);
      Map<String, Object> out = new LinkedHashMap<>();
      out.put("power", power);
      out.put("log_z", pw.logZ());
      out.put("mean", pw.mean());
      out.put("variance_ep", pw.variance());
      spec.commandLine().getOut().print(Json.write(out));
      spec.commandLine().getOut().flush();
      return 0;
    }
    TiltedMoments ep = lik.tilted(y, cavityMean, cavityVariance);
    Map<String, Object> out = new LinkedHashMap<>();
    if (power != null) {
      out.put("power", power);
    }
    out.put("log_z", ep.logZ());
    out.put("mean", ep.mean());
    out.put("variance_ep", ep.variance());
    if (p == null || p == 2.0) {
      W2Projection.Sigma s =
          W2Projection.sigma(lik, y, cavityMean, cavityVariance, W2Projection.DEFAULT_REL_TOL);
      out.put("variance_qp", s.value() * s.value());
      // the shipped tables (the probit table, then the wide one) where one covers the cavity
      W2Projection tables = W2Projection.forLikelihood(lik);
      if (!tables.tables().isEmpty() && tables.covers(lik, y, cavityMean, cavityVariance)) {
        TiltedMoments t = tables.project(lik, y, cavityMean, cavityVariance);
        out.put("variance_qp_table", t.variance());
      }
    } else {
      LpProjection.Result r = LpProjection.of(p).minimise(lik, y, cavityMean, cavityVariance);
      out.put("p", p);
      out.put("mean_lp", r.mean());
      out.put("variance_qp", r.sd() * r.sd());
      out.put("converged", r.converged());
    }
    spec.commandLine().getOut().print(Json.write(out));
    spec.commandLine().getOut().flush();
    return 0;
  }
}
