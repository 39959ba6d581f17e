package org.approxgp.inference;

/**
 * The per-site rule of an EP-family method, driven by {@link SiteLoop}: from the current marginal
 * q(fᵢ) = N(μᵢ, Σᵢᵢ) and the old site (τ̃ᵢ, ν̃ᵢ), (1) the cavity, (2) the proposed new site from the
 * tilted distribution, and (3) the site's term in the log evidence. The loop owns everything else:
 * sweeps and their schedule, damping, the negative-site-precision policy, rank-one updates of Σ, the
 * recompute of the posterior from the sites, the stopping rule and the Gaussian part of the evidence.
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
 * <p><b>The evidence term.</b> {@link SiteLoop} evaluates log Z = log ∫ p Πᵢ t̃ᵢ + Σᵢ log sᵢ (R&amp;W eq. 3.65;
 * the stable form of eq. 3.73–3.74): the Gaussian part is the loop's, and {@link #logScale} supplies each
 * site's scale. By default that is moment matching's scale at EP's full cavity, from {@link #logZ} = log Ẑᵢ,
 * the normaliser the site's scale is matched to; for EP and QP the tilted normaliser
 * log ∫ N(f | cavity) p(yᵢ | f) df (QP paper eq. 2). A method whose site scale is matched at another cavity
 * (Power EP: at the u-cavity, Minka 2004 §3) overrides {@link #logScale}, so its evidence never needs EP's
 * cavity to be proper.
 *
 * @param <S> the per-call state (e.g. {@link Void})
 */
public interface SiteUpdate<S> {

  /** Cavity natural parameters τ₋ (precision) and ν₋ (precision × mean). */
  record Cavity(double tau, double nu) {

    /** EP's cavity from the marginal N(mean, variance) and the site: τ₋ = 1/Σᵢᵢ − τ̃ᵢ, ν₋ = μᵢ/Σᵢᵢ − ν̃ᵢ (R&amp;W eq. 3.56). */
    static Cavity ep(double mean, double variance, double siteTau, double siteNu) {
      return new Cavity(1.0 / variance - siteTau, mean / variance - siteNu);
    }

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
   * (siteTau, siteNu): the normaliser the default {@link #logScale} matches the site's scale to; see the
   * class comment.
   */
  double logZ(
      S state, Problem problem, int i, double mean, double variance, double siteTau, double siteNu);

  /**
   * The site's whole term in the log evidence, log sᵢ: the log of the scale that makes
   * p(f) Πᵢ sᵢ t̃ᵢ(fᵢ) the method's unnormalised approximation, with the site written about the prior mean m₀,
   * t̃ᵢ(f) = exp(−½ τ̃ᵢ (f − m₀)² + (ν̃ᵢ − τ̃ᵢ m₀)(f − m₀)). {@link SiteLoop} adds the Gaussian part
   * log ∫ p Πᵢ t̃ᵢ. The default is moment matching's scale at EP's full cavity τ₋ = 1/Σᵢᵢ − τ̃ᵢ
   * (R&amp;W eq. 3.73–3.74): log Ẑᵢ + log Cᵢ with
   * log Cᵢ = log ∫ N(f | μᵢ, Σᵢᵢ) t̃ᵢ(f)⁻¹ df = ½ log(1 + τ̃ᵢ/τ₋) + ½ [ν₋² τ̃ᵢ/(τ₋(τ₋ + τ̃ᵢ)) − (2ν₋ν̃ᵢ + ν̃ᵢ²)/(τ₋ + τ̃ᵢ)]
   * (natural parameters about m₀), which needs τ₋ &gt; 0. A method whose site scale is matched at another
   * cavity ({@link PowerEp}) overrides this.
   *
   * @throws ArithmeticException when the scale is undefined (an improper cavity)
   */
  default double logScale(
      S state,
      Problem problem,
      int i,
      double mean,
      double variance,
      double siteTau,
      double siteNu) {
    double tc = 1.0 / variance - siteTau;
    double ncRaw = mean / variance - siteNu;
    if (!(tc > 0) || !Double.isFinite(tc) || !Double.isFinite(ncRaw)) {
      throw new ArithmeticException("cavity (τ₋, ν₋) = (" + tc + ", " + ncRaw
          + ") at the final posterior is" + " improper: the log evidence is undefined");
    }
    double m0 = problem.priorMean();
    double nc = ncRaw - tc * m0;
    double nt = siteNu - siteTau * m0;
    return logZ(state, problem, i, mean, variance, siteTau, siteNu)
        + 0.5 * Math.log1p(siteTau / tc)
        + 0.5
            * (nc * nc * siteTau / (tc * (tc + siteTau))
                - (2 * nc * nt + nt * nt) / (tc + siteTau));
  }

  /**
   * How many sites the run relaxed (Relaxed EP: last update with bᵢ ≠ 0), read once at the end of the
   * run for {@link Diagnostics#relaxedSites()}. Default 0.
   */
  default int relaxedSites(S state) {
    return 0;
  }
}
