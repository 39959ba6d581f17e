package org.approxgp.inference;

/**
 * The per-site rule of an EP-family method, driven by {@link SiteLoop}: from the current marginal
 * q(fᵢ) = N(μᵢ, Σᵢᵢ) and the old site (τ̃ᵢ, ν̃ᵢ), (1) the cavity, (2) the proposed new site from the
 * tilted distribution, and (3) the site's term in the log evidence. The loop owns everything else:
 * sweeps and their schedule, damping, the negative-site-precision policy, rank-one updates of Σ, the
 * recompute after each sweep, the stopping rule and the Gaussian part of the evidence.
 *
 * <p>Notation (Minka 2001; R&amp;W §3.6; GPML's {@code infEP.m}): sites t̃ᵢ(fᵢ) ∝ exp(−½ τ̃ᵢ fᵢ² + ν̃ᵢ fᵢ),
 * cavity natural parameters (τ₋, ν₋), tilted distribution p̂ᵢ(f) ∝ N(f | ν₋/τ₋, 1/τ₋) p(yᵢ | f).
 *
 * <p><b>Per-call state.</b> {@link #start} is called once per inference run and returns an object the
 * loop passes back to every other call of that run and never shares with another run (two concurrent
 * runs of one {@code SiteUpdate} get two states). An implementation itself should be immutable; whatever
 * a method adapts during a run (Relaxed EP's per-site parameters bᵢ, counters, caches) lives in the state.
 * Methods without state use {@link Void} and return null.
 *
 * <p><b>Power EP and Relaxed EP.</b> {@link PowerEp} (Minka 2004) removes only u·site: its
 * {@link #cavity} returns τ₋ = 1/Σᵢᵢ − u τ̃ᵢ, ν₋ = μᵢ/Σᵢᵢ − u ν̃ᵢ; its {@link #propose} projects the
 * u-powered tilted distribution N(f | ν₋/τ₋, 1/τ₋) p(yᵢ | f)^u to moments (μ̂, σ̂²) and returns the site
 * (projection / cavity)^{1/u}, i.e. τ̃ = (1/σ̂² − τ₋)/u, ν̃ = (μ̂/σ̂² − ν₋)/u; u = 1 is EP. {@link RelaxedEp}
 * keeps its bᵢ in the state created by {@link #start}, chooses and records them in {@link #propose}, and
 * reports them through {@link #relaxedSites}. Neither needed a change in {@link SiteLoop}: damping, the
 * negative-site policy and the rank-one updates act on the returned site whatever rule produced it.
 *
 * <p><b>The evidence term.</b> {@link SiteLoop} evaluates R&amp;W eq. 3.65 in the stable form of
 * eq. 3.73–3.74 with EP's full cavity τ₋ = 1/Σᵢᵢ − τ̃ᵢ: every Gaussian term is the loop's, and
 * {@link #logZ} supplies log Ẑᵢ, the log of the normaliser the site's scale is matched to. For moment
 * matching (EP, QP) that is the tilted normaliser log ∫ N(f | cavity) p(yᵢ | f) df (QP paper eq. 2). A
 * method whose site scale is matched differently (Power EP: (1/u) log ∫ N(f | u-cavity) p(yᵢ | f)^u df
 * plus the difference of the Gaussian normalisers at its own and at EP's cavity) returns the
 * corresponding value so that the same Gaussian part applies.
 *
 * @param <S> the per-call state (e.g. {@link Void})
 */
public interface SiteUpdate<S> {

  /** Cavity natural parameters τ₋ (precision) and ν₋ (precision × mean). */
  record Cavity(double tau, double nu) {

    /** ν₋/τ₋. */
    public double mean() {
      return nu / tau;
    }

    /** 1/τ₋. */
    public double variance() {
      return 1.0 / tau;
    }
  }

  /** Site natural parameters τ̃ (precision) and ν̃ (precision × mean). */
  record Site(double tau, double nu) {}

  /** The method's name, for diagnostics and reports ("ep", "qp", "lp(p=1.5)", …). */
  String name();

  /** A fresh per-call state for one inference run on {@code problem} (null for stateless rules). */
  S start(Problem problem);

  /**
   * The cavity of site i from its current marginal N(mean, variance) and its old site parameters.
   * The loop skips the site (and counts it) when the returned precision is not positive.
   */
  Cavity cavity(S state, int i, double mean, double variance, double siteTau, double siteNu);

  /**
   * The proposed new site i from the tilted distribution at {@code cavity} (τ₋ &gt; 0, finite mean and
   * variance), before damping and the negative-precision policy, which the loop applies.
   */
  Site propose(S state, Problem problem, int i, Cavity cavity);

  /**
   * log Ẑᵢ for the evidence at the final posterior, with site i's marginal N(mean, variance) and site
   * (siteTau, siteNu); see the class comment.
   */
  double logZ(S state, Problem problem, int i, double mean, double variance, double siteTau, double siteNu);

  /**
   * How many sites the run relaxed (Relaxed EP: last update with bᵢ ≠ 0), read once at the end of the
   * run for {@link Diagnostics#relaxedSites()}. Default 0.
   */
  default int relaxedSites(S state) {
    return 0;
  }
}
