package org.approxgp.inference;

import java.util.Locale;
import org.approxgp.likelihood.TiltedMoments;

/**
 * Power EP with power u ∈ (0, 1] (Minka 2004, "Power EP", MSR-TR-2004-149; Qi &amp; Guo, "Message passing
 * with relaxed moment matching", §5 and appendix C, eq. 41–42): the site rule of the α-family, run in
 * the one {@link SiteLoop}. Stateless and immutable; u = 1 is EP exactly (the same arithmetic as
 * {@link MomentMatching#ep()}).
 *
 * <p><b>Site update.</b> The fractional cavity removes only u·site (Minka 2004 §3; the paper's appendix C
 * does not say so, see {@code docs/derivations/relaxed-ep-readings.md} §4):
 * τ₋ = 1/Σᵢᵢ − u τ̃ᵢ, ν₋ = μᵢ/Σᵢᵢ − u ν̃ᵢ. The power-tilted distribution N(f | ν₋/τ₋, 1/τ₋) p(yᵢ | f)^u
 * ({@link org.approxgp.likelihood.Likelihood#powerTilted}; eq. 41 for the noisy step) is projected to its
 * moments (μ̂, σ̂²), and the new site is (projection / cavity)^{1/u}:
 * τ̃ = (1/σ̂² − τ₋)/u, ν̃ = (μ̂/σ̂² − ν₋)/u (eq. 42: the site precision scaled by 1/u, mean unchanged).
 *
 * <p><b>Log evidence.</b> Write the unnormalised approximation as p(f) Πᵢ sᵢ t̃ᵢ(fᵢ) with Gaussian-shaped
 * sites t̃ᵢ(f) = exp(−½ τ̃ᵢ f² + ν̃ᵢ f) and scales sᵢ. Power EP fixes each scale by matching the zeroth
 * moment of the power-tilted distribution (Minka 2004, §3: the scale update of a fractional site):
 * ∫ q̂^{\i} tᵢ^u = ∫ q̂^{\i} (sᵢ t̃ᵢ)^u with q̂^{\i} = p Πⱼ sⱼt̃ⱼ / (sᵢt̃ᵢ)^u; on the marginal q(fᵢ) = N(μᵢ, Σᵢᵢ)
 * this gives sᵢ^u = Cᵢ(u) Ẑᵢ(u), where
 * <pre>
 * Cᵢ(u) = ∫ N(f | μᵢ, Σᵢᵢ) t̃ᵢ(f)^{−u} df,  log Cᵢ(u) = −½ log(Σᵢᵢ τ₋) + ½ ν₋²/τ₋ − ½ μᵢ²/Σᵢᵢ  (u-cavity τ₋, ν₋),
 * Ẑᵢ(u) = ∫ N(f | ν₋/τ₋, 1/τ₋) p(yᵢ | f)^u df,
 * </pre>
 * and log Z_PEP = log ∫ p Πᵢ t̃ᵢ + Σᵢ log sᵢ = log ∫ p Πᵢ t̃ᵢ + Σᵢ (1/u)(log Cᵢ(u) + log Ẑᵢ(u)). (For u = 1
 * this is EP's evidence, R&amp;W eq. 3.65.) {@link SiteLoop} evaluates the Gaussian part and
 * {@link #logScale} returns log sᵢ, which needs only the u-cavity to be proper: EP's full cavity
 * 1/Σᵢᵢ − τ̃ᵢ may be improper at a Power EP fixed point (a large τ̃ᵢ, u &lt; 1) while the evidence is
 * defined. Its gradient in θ is
 * not the R&amp;W eq. 5.27 form the loop computes (that form is exact only at an EP fixed point), so the
 * model layer learns hyperparameters with the central-difference wrapper
 * ({@code InferenceMethod.withNumericalGradient}).
 *
 * <p><b>Variants</b> ({@link Variant}). {@link Variant#MINKA} (default) is the rule above, Minka's fractional
 * cavity. {@link Variant#APPENDIX_C} follows Qi &amp; Guo's appendix C as printed: Minka's (2001) EP updates
 * (5.64)–(5.74) with (5.67) replaced by eq. 41 and v_i ← u v_i after (5.70) (eq. 42). Those updates remove the
 * WHOLE site ((5.64): τ₋ = 1/Σᵢᵢ − τ̃ᵢ, ν₋ = μᵢ/Σᵢᵢ − ν̃ᵢ, EP's cavity), tilt it by tᵢ^u (eq. 41 is α of
 * N(f | cavity) p(yᵢ | f)^u), match moments ((5.68)–(5.70) give the site of the power-tilted projection over the
 * cavity: v = λ(1/(α h) − 1) is 1/(1/σ̂² − τ₋)) and scale the site variance by u with its mean kept (eq. 42),
 * i.e. the site is (projection / cavity)^{1/u}: τ̃ = (1/σ̂² − τ₋)/u, ν̃ = (μ̂/σ̂² − ν₋)/u with the FULL cavity.
 * Its site scale follows the same zeroth-moment match at that cavity q^{\i}: ∫ q^{\i} tᵢ^u = ∫ q^{\i} (sᵢ t̃ᵢ)^u,
 * sᵢ^u = Ẑᵢ(u)/Dᵢ(u) with Dᵢ(w) = ∫ N(f | EP cavity) t̃ᵢ(f)^w df, and {@link #logScale} returns
 * log sᵢ = (1/u)(log Ẑᵢ(u) − log Dᵢ(u)). For u = 1 both variants are EP.
 */
public final class PowerEp implements SiteUpdate<Void>, java.io.Serializable {
  private static final long serialVersionUID = 1L;

  /** Which cavity the power-tilted projection starts from (class comment). */
  public enum Variant {
    /** Minka (2004) §3: the fractional cavity q / t̃ᵢ^u. Default. */
    MINKA,
    /** Qi &amp; Guo appendix C, eq. 41–42: the whole site removed, q / t̃ᵢ, then tilted by tᵢ^u. */
    APPENDIX_C
  }

  private final double u;
  private final Variant variant;

  private PowerEp(double u, Variant variant) {
    if (!(u > 0 && u <= 1)) {
      throw new IllegalArgumentException("Power EP needs a power u in (0, 1], got " + u);
    }
    if (variant == null) {
      throw new IllegalArgumentException("Power EP variant must not be null");
    }
    this.u = u;
    this.variant = variant;
  }

  /** Power EP with power u ∈ (0, 1] (the paper's figures use 0.8), Minka's variant. */
  public static PowerEp of(double u) {
    return new PowerEp(u, Variant.MINKA);
  }

  /** Power EP with power u ∈ (0, 1] and the given variant. */
  public static PowerEp of(double u, Variant variant) {
    return new PowerEp(u, variant);
  }

  public double power() {
    return u;
  }

  public Variant variant() {
    return variant;
  }

  @Override
  public String name() {
    return "power-ep(u=" + (u == Math.rint(u) ? Long.toString((long) u) : Double.toString(u))
        + (variant == Variant.MINKA ? "" : ", appendix-c") + ")";
  }

  @Override
  public Void start(Problem problem) {
    return null;
  }

  @Override
  public Cavity cavity(
      Void state, int i, double mean, double variance, double siteTau, double siteNu) {
    // fractional cavity: τ₋ = 1/Σᵢᵢ − u τ̃ᵢ,  ν₋ = μᵢ/Σᵢᵢ − u ν̃ᵢ  (Minka 2004 §3);
    // appendix C: the whole site, τ₋ = 1/Σᵢᵢ − τ̃ᵢ (Minka 2001 eq. 5.64)
    if (u == 1 || variant == Variant.APPENDIX_C) {
      return new Cavity(1.0 / variance - siteTau, mean / variance - siteNu);
    }
    return new Cavity(1.0 / variance - u * siteTau, mean / variance - u * siteNu);
  }

  private TiltedMoments tilted(Problem problem, int i, Cavity c) {
    double y = problem.y()[i];
    return u == 1
        ? problem.likelihood().tilted(y, c.mean(), c.variance())
        : problem.likelihood().powerTilted(y, c.mean(), c.variance(), u);
  }

  @Override
  public Site propose(Void state, Problem problem, int i, Cavity cavity) {
    TiltedMoments t = tilted(problem, i, cavity);
    // site = (projection / cavity)^{1/u}: τ̃ = (1/σ̂² − τ₋)/u, ν̃ = (μ̂/σ̂² − ν₋)/u  (paper eq. 42)
    double tau = 1.0 / t.variance() - cavity.tau();
    double nu = t.mean() / t.variance() - cavity.nu();
    return u == 1 ? new Site(tau, nu) : new Site(tau / u, nu / u);
  }

  /** log Ẑᵢ(u) = log ∫ N(f | ν₋/τ₋, 1/τ₋) p(yᵢ | f)^u df at this variant's cavity (EP's log Ẑᵢ for u = 1). */
  @Override
  public double logZ(
      Void state,
      Problem problem,
      int i,
      double mean,
      double variance,
      double siteTau,
      double siteNu) {
    return tilted(problem, i, cavity(state, i, mean, variance, siteTau, siteNu)).logZ();
  }

  /**
   * log sᵢ (class comment), with the site and the cavity written about the prior mean m₀ as
   * {@link SiteUpdate#logScale} requires: Minka's variant (1/u)(log Cᵢ(u) + log Ẑᵢ(u)), which needs only its
   * own cavity to be proper; appendix C (1/u)(log Ẑᵢ(u) − log Dᵢ(u)) at EP's cavity. u = 1 is EP's.
   */
  @Override
  public double logScale(
      Void state,
      Problem problem,
      int i,
      double mean,
      double variance,
      double siteTau,
      double siteNu) {
    if (u == 1) {
      return SiteUpdate.super.logScale(state, problem, i, mean, variance, siteTau, siteNu);
    }
    Cavity c = cavity(state, i, mean, variance, siteTau, siteNu);
    if (!(c.tau() > 0) || !Double.isFinite(c.tau()) || !Double.isFinite(c.nu())) {
      throw new ArithmeticException("Power EP evidence: cavity (τ₋, ν₋) = (" + c.tau() + ", "
          + c.nu() + ") at the final posterior is improper");
    }
    double logZu = tilted(problem, i, c).logZ();
    double m0 = problem.priorMean();
    Cavity about = new Cavity(c.tau(), c.nu() - c.tau() * m0);
    if (variant == Variant.APPENDIX_C) {
      return (logZu - logD(about, siteTau, siteNu - siteTau * m0, u)) / u;
    }
    return (logC(mean - m0, variance, about) + logZu) / u;
  }

  /**
   * log ∫ N(f | ν₋/τ₋, 1/τ₋) exp(w(−½ τ̃ f² + ν̃ f)) df = ½ log(τ₋/(τ₋ + w τ̃)) + ½ (ν₋ + w ν̃)²/(τ₋ + w τ̃)
   * − ½ ν₋²/τ₋ (needs τ₋ + w τ̃ &gt; 0).
   */
  private static double logD(Cavity c, double siteTau, double siteNu, double w) {
    double t = c.tau() + w * siteTau;
    if (!(t > 0)) {
      throw new ArithmeticException("Power EP evidence: cavity precision + " + w
          + " x site precision = " + t + " is not positive");
    }
    double n = c.nu() + w * siteNu;
    return -0.5 * Math.log1p(w * siteTau / c.tau())
        + 0.5 * n * n / t
        - 0.5 * c.nu() * c.nu() / c.tau();
  }

  /** log ∫ N(f | μ, v) t̃(f)^{−w} df for the cavity (τ₋, ν₋) = (1/v − w τ̃, μ/v − w ν̃) (class comment). */
  private static double logC(double mean, double variance, Cavity c) {
    return -0.5 * Math.log(variance * c.tau())
        + 0.5 * c.nu() * c.nu() / c.tau()
        - 0.5 * mean * mean / variance;
  }

  @Override
  public String toString() {
    return variant == Variant.MINKA
        ? String.format(Locale.ROOT, "PowerEp[u=%s]", u)
        : String.format(Locale.ROOT, "PowerEp[u=%s, %s]", u, variant);
  }
}
