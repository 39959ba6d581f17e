package org.approxgp.inference;

import java.util.function.UnaryOperator;
import org.approxgp.projection.KlProjection;
import org.approxgp.projection.Projection;

/**
 * Expectation propagation for latent GP models (Minka 2001; Rasmussen &amp; Williams 2006 §3.6,
 * Alg. 3.5): the {@link SiteLoop} with the {@link MomentMatching} site rule. With another
 * {@link Projection} in its options the same entry point runs the other members of the family; the
 * method is then the one the projection's type defines ({@link MomentMatching#forProjection}: W2 →
 * Quantile Propagation, named "qp"; Lp → "lp(p=…)"). There is no second copy of the loop.
 *
 * <p>Notation as in GPML's {@code infEP.m}: τ̃, ν̃ site natural parameters; τ₋, ν₋ cavity natural
 * parameters; μ̂, σ̂² the projected tilted moments. The negative-site-precision policy, the failure
 * contract and the evidence formula are documented in {@link SiteLoop}.
 */
public final class Ep {

  /**
   * EP options: the projection (the site rule) and the loop's settings.
   *
   * @param projection KL (EP), W2 (QP), Lp …
   * @param loop schedule, damping, tolerance, sweep cap, jitter, gradient, negative-site policy
   */
  public record Options(Projection projection, SiteLoopOptions loop) {

    public Options {
      if (projection == null || loop == null) {
        throw new IllegalArgumentException("projection and loop options must not be null");
      }
    }

    /** KL projection, sequential, no damping, tolerance 1e-6 (QP paper §6), 1000 sweeps, gradient on. */
    public static Options defaults() {
      return new Options(KlProjection.get(), SiteLoopOptions.defaults());
    }

    /** The site rule these options run ({@link MomentMatching#forProjection} of the projection). */
    public MomentMatching siteUpdate() {
      return MomentMatching.forProjection(projection);
    }

    public Options withProjection(Projection p) {
      return new Options(p, loop);
    }

    public Options withLoop(SiteLoopOptions l) {
      return new Options(projection, l);
    }

    /**
     * The options with the loop's settings changed, e.g. {@code withLoop(l -> l.withTolerance(1e-10))}; the loop's
     * settings are read as {@code options.loop().tolerance()}.
     */
    public Options withLoop(UnaryOperator<SiteLoopOptions> change) {
      return new Options(projection, change.apply(loop));
    }
  }

  private Ep() {}

  /** EP from the prior (all sites zero) with default options. */
  public static Posterior infer(Problem problem) {
    return infer(problem, Options.defaults(), null);
  }

  /**
   * Runs the site loop to convergence with the options' projection.
   *
   * @param warmStart sites to start from (e.g. the previous optimiser step's), or null for the prior
   * @throws InferenceException on a numerical failure (a failed projection, a non-finite value, B that
   *     cannot be factored), with the diagnostics so far
   */
  public static Posterior infer(Problem problem, Options options, Sites warmStart) {
    return SiteLoop.run(problem, options.siteUpdate(), options.loop(), warmStart);
  }
}
