package org.approxgp.inference;

import org.approxgp.likelihood.TiltedMoments;
import org.approxgp.projection.KlProjection;
import org.approxgp.projection.LpProjection;
import org.approxgp.projection.Projection;
import org.approxgp.projection.W2Projection;

/**
 * The site rule of EP and its projection variants: remove the whole site (cavity τ₋ = 1/Σᵢᵢ − τ̃ᵢ,
 * ν₋ = μᵢ/Σᵢᵢ − ν̃ᵢ, R&amp;W eq. 3.56), project the tilted distribution onto a Gaussian N(μ̂, σ̂²) with a
 * {@link Projection}, and divide the cavity out: τ̃ = 1/σ̂² − τ₋, ν̃ = μ̂/σ̂² − ν₋ (R&amp;W eq. 3.59). The
 * KL projection (moment matching, Minka 2001) gives EP; the W2 projection gives Quantile Propagation
 * (Zhang et al. 2020, Algorithm 1); the Lp projection its Lp generalisation (appendix B). The evidence
 * term is the tilted normaliser log Ẑᵢ whatever the projection (QP paper eq. 2). Stateless and immutable.
 *
 * <p>The name is set by the factory that builds the rule, never derived from the projection's name:
 * {@link #ep()} is "ep", {@link #qp} is "qp", {@link #lp} is "lp(p=…)"; {@link #named} takes any name.
 */
public final class MomentMatching implements SiteUpdate<Void>, java.io.Serializable {
  private static final long serialVersionUID = 1L;

  private static final MomentMatching EP = new MomentMatching("ep", KlProjection.get());

  private final String name;
  private final Projection projection;

  private MomentMatching(String name, Projection projection) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("a site rule needs a name");
    }
    if (projection == null) {
      throw new IllegalArgumentException("projection must not be null");
    }
    this.name = name;
    this.projection = projection;
  }

  /** Expectation propagation: the KL projection (moment matching). */
  public static MomentMatching ep() {
    return EP;
  }

  /** Quantile Propagation with the given W2 projection (exact or table-backed). */
  public static MomentMatching qp(W2Projection projection) {
    return new MomentMatching("qp", projection);
  }

  /** The Lp-Wasserstein projection with step tolerance 1e-10 ({@link LpProjection#of(double)}). */
  public static MomentMatching lp(double p) {
    return lp(LpProjection.of(p));
  }

  /** The given Lp-Wasserstein projection, named "lp(p=…)". */
  public static MomentMatching lp(LpProjection projection) {
    double p = projection.p();
    return new MomentMatching(
        "lp(p=" + (p == Math.rint(p) ? Long.toString((long) p) : Double.toString(p)) + ")",
        projection);
  }

  /** Moment matching under any projection, with the caller's name for the method. */
  public static MomentMatching named(String name, Projection projection) {
    return new MomentMatching(name, projection);
  }

  /**
   * The method a projection of a library type defines: {@link KlProjection} → {@link #ep()},
   * {@link W2Projection} → {@link #qp}, {@link LpProjection} → {@link #lp(LpProjection)}; a projection of
   * any other type → EP with that projection, named "ep[" + its name + "]". Used by the
   * {@link Ep.Options}-based entry points, which carry a projection rather than a rule.
   */
  public static MomentMatching forProjection(Projection projection) {
    if (projection instanceof KlProjection) {
      return EP;
    }
    if (projection instanceof W2Projection w2) {
      return qp(w2);
    }
    if (projection instanceof LpProjection lp) {
      return lp(lp);
    }
    if (projection == null) {
      throw new IllegalArgumentException("projection must not be null");
    }
    return new MomentMatching("ep[" + projection.name() + "]", projection);
  }

  public Projection projection() {
    return projection;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Void start(Problem problem) {
    return null;
  }

  @Override
  public Cavity cavity(
      Void state, int i, double mean, double variance, double siteTau, double siteNu) {
    return Cavity.ep(mean, variance, siteTau, siteNu);
  }

  @Override
  public Site propose(Void state, Problem problem, int i, Cavity cavity) {
    TiltedMoments t =
        projection.project(problem.likelihood(), problem.y()[i], cavity.mean(), cavity.variance());
    // site = projection / cavity in natural parameters: τ̃ = 1/σ̂² − τ₋, ν̃ = μ̂/σ̂² − ν₋
    return new Site(1.0 / t.variance() - cavity.tau(), t.mean() / t.variance() - cavity.nu());
  }

  @Override
  public double logZ(
      Void state,
      Problem problem,
      int i,
      double mean,
      double variance,
      double siteTau,
      double siteNu) {
    return tiltedLogZ(problem, i, cavity(state, i, mean, variance, siteTau, siteNu));
  }

  /**
   * log Ẑᵢ = log ∫ N(f | ν₋/τ₋, 1/τ₋) p(yᵢ | f) df, the tilted normaliser at the cavity c (the projection's own
   * moments are not needed here: an exact W2 variance would cost an integral per site).
   */
  static double tiltedLogZ(Problem problem, int i, Cavity c) {
    return problem.likelihood().tilted(problem.y()[i], c.mean(), c.variance()).logZ();
  }

  @Override
  public String toString() {
    return name + "[" + projection.name() + "]";
  }
}
