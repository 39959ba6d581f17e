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

  /**
   * The default QP options: {@link Ep.Options#defaults()} (schedule, tolerance, sweep cap, …) with
   * {@link W2Projection#shipped}: the W2 projection read from the shipped tables where one covers a site (the
   * probit's), exact elsewhere.
   */
  public static Ep.Options options() {
    return Ep.Options.defaults().withProjection(W2Projection.shipped());
  }

  /** QP from the prior with {@link #options()}. */
  public static Posterior infer(Problem problem) {
    return infer(problem, options(), null);
  }

  /**
   * The site rule {@link #infer} runs: {@link MomentMatching#forProjection} of the options' projection (an exact
   * or table-backed {@link W2Projection} → "qp", an {@link org.approxgp.projection.LpProjection} → "lp(p=…)").
   *
   * @throws IllegalArgumentException if the options carry the KL projection: that is EP ({@link Ep#infer}), not QP
   */
  public static MomentMatching siteUpdate(Ep.Options options) {
    Projection p = options.projection();
    if (p instanceof KlProjection) {
      throw new IllegalArgumentException(
          "QP's options carry the KL projection, which is EP's; give QP a W2"
              + " projection (Qp.options(), or withProjection(W2Projection.exact()/shipped()))");
    }
    return MomentMatching.forProjection(p);
  }

  /**
   * Runs QP: the site loop with the W2 projection.
   *
   * @param options the loop's settings and the projection ({@link #options()}: the shipped W2 tables, exact
   *     elsewhere; or an exact {@link W2Projection}, an {@link org.approxgp.projection.LpProjection}); not KL
   * @param warmStart sites to start from (e.g. EP's, as in the paper, or the previous hyperparameters'),
   *     or null for the prior
   * @throws InferenceException on a numerical failure (e.g. a W2 integral that does not converge), with
   *     the diagnostics so far
   */
  public static Posterior infer(Problem problem, Ep.Options options, Sites warmStart) {
    return SiteLoop.run(problem, siteUpdate(options), options.loop(), warmStart);
  }

  /**
   * {@link #infer} with the exact gradient of QP's objective (the EP energy at QP's sites) by implicit
   * differentiation of the fixed point ({@link QpGradient}) instead of R&amp;W eq. 5.27; the posterior, its
   * sites and its evidence are {@link #infer}'s, bit for bit. The loop's own eq. 5.27 gradient is skipped.
   */
  public static Posterior inferWithImplicitGradient(
      Problem problem, Ep.Options options, Sites warmStart) {
    MomentMatching rule = siteUpdate(options);
    Posterior p = SiteLoop.run(problem, rule, options.loop().withGradient(false), warmStart);
    return options.loop().gradient()
        ? QpGradient.withGradient(p, rule.projection(), options.loop().negativeSites())
        : p;
  }
}
