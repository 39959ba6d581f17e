package org.approxgp.inference;

import org.approxgp.projection.KlProjection;
import org.approxgp.projection.Projection;
import org.approxgp.projection.W2Projection;

/**
 * Quantile Propagation (Zhang, Walder, Bonilla, Rizoiu &amp; Xie, NeurIPS 2020): EP's site loop
 * ({@link SiteLoop}) with the L2-Wasserstein projection of the tilted distribution instead of moment
 * matching ({@link MomentMatching#qp}; Algorithm 1, line 10: same mean as EP, σ* of eq. 23 ≤ σ_EP,
 * Theorem 2). This class only chooses the projection; there is no second copy of the loop. Its
 * posteriors' diagnostics name the method "qp".
 *
 * <p><b>Hyperparameters.</b> The paper's outer loop (Algorithm 1, line 15; §6) optimises θ by L-BFGS-B
 * on the EP form of the log marginal likelihood, eq. 2/4, evaluated at QP's site parameters, starting
 * from the same initial values as EP (in their code, QP's inner loop starts from EP's solution). That is
 * what {@link Posterior#logEvidence()} of a QP posterior is: the EP energy at the W2 sites, with the
 * tilted normalisers Ẑᵢ. Its gradient {@link Posterior#logEvidenceGradient()} from {@link #infer} is R&amp;W
 * eq. 5.27, which is exact for EP only (at an EP fixed point the sites' implicit dependence on θ cancels);
 * at QP's fixed point it is not the gradient of that objective, and L-BFGS's line search rejects its first
 * step. {@link #inferWithImplicitGradient} returns the exact gradient, by implicit differentiation of QP's
 * fixed point ({@link QpGradient}); {@code Registry.inference("qp")} uses it (central differences,
 * {@code InferenceMethod.withNumericalGradient}, remain available for comparison). To reproduce the paper,
 * start the fit from EP's optimum (as {@code QpTable1} does). On Ionosphere it moves the
 * evidence by ~1e-6 from EP's optimum: QP's optimal hyperparameters are EP's to plotting accuracy.
 */
public final class Qp {
  private Qp() {}

  /** The default QP options: {@link Ep.Options#defaults()} with {@link #defaultProjection}. */
  public static Ep.Options options(Problem problem) {
    return Ep.Options.defaults().withProjection(defaultProjection(problem));
  }

  /**
   * The W2 projection for this problem ({@link W2Projection#forLikelihood}): table-backed where tables are shipped
   * for its likelihood (the probit's, exact off their grids), exact otherwise.
   */
  public static W2Projection defaultProjection(Problem problem) {
    return W2Projection.forLikelihood(problem.likelihood());
  }

  /** QP from the prior with default options. */
  public static Posterior infer(Problem problem) {
    return infer(problem, Ep.Options.defaults(), null);
  }

  /**
   * The site rule {@link #infer} runs: {@link MomentMatching#qp} with {@link #defaultProjection} when the
   * options carry the KL projection, else {@link MomentMatching#forProjection} of the given projection
   * (an exact or table-backed {@link W2Projection} → "qp", an {@link org.approxgp.projection.LpProjection}
   * → "lp(p=…)").
   */
  public static MomentMatching siteUpdate(Problem problem, Ep.Options options) {
    Projection p = options.projection();
    return p instanceof KlProjection
        ? MomentMatching.qp(defaultProjection(problem))
        : MomentMatching.forProjection(p);
  }

  /**
   * Runs QP: the site loop with the W2 projection.
   *
   * @param options EP options (schedule, damping, tolerance, sweep cap, …); if its projection is the KL
   *     projection it is replaced by {@link #defaultProjection}, any other projection (an exact or
   *     table-backed {@link W2Projection}, an {@link org.approxgp.projection.LpProjection}) is used as
   *     given
   * @param warmStart sites to start from (e.g. EP's, as in the paper, or the previous hyperparameters'),
   *     or null for the prior
   * @throws InferenceException on a numerical failure (e.g. a W2 integral that does not converge), with
   *     the diagnostics so far
   */
  public static Posterior infer(Problem problem, Ep.Options options, Sites warmStart) {
    return SiteLoop.run(problem, siteUpdate(problem, options), options.loop(), warmStart);
  }

  /**
   * {@link #infer} with the exact gradient of QP's objective (the EP energy at QP's sites) by implicit
   * differentiation of the fixed point ({@link QpGradient}) instead of R&amp;W eq. 5.27; the posterior, its
   * sites and its evidence are {@link #infer}'s, bit for bit. The loop's own eq. 5.27 gradient is skipped.
   */
  public static Posterior inferWithImplicitGradient(
      Problem problem, Ep.Options options, Sites warmStart) {
    MomentMatching rule = siteUpdate(problem, options);
    Posterior p = SiteLoop.run(problem, rule, options.loop().withGradient(false), warmStart);
    return options.loop().gradient()
        ? QpGradient.withGradient(p, rule.projection(), options.loop().negativeSites())
        : p;
  }
}
