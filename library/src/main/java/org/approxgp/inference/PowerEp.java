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
 * does not say so, see the implementation notes, §4):
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
 * this is EP's evidence, R&amp;W eq. 3.65.) {@link SiteLoop} evaluates the same expression with EP's
 * scales sᵢ(1) = Cᵢ(1) Ẑᵢ(1), its term {@link #logZ} being log Ẑᵢ; Power EP therefore returns
 * log sᵢ(u) − log Cᵢ(1) = (1/u) log Ẑᵢ(u) + [(1/u) log Cᵢ(u) − log Cᵢ(1)], independent of the sites'
 * normalisation convention (a constant factor k in t̃ᵢ changes both terms by −log k). Its gradient in θ is
 * not the R&amp;W eq. 5.27 form the loop computes (that form is exact only at an EP fixed point), so the
 * model layer learns hyperparameters with the central-difference wrapper
 * ({@code InferenceMethod.withNumericalGradient}).
 */
public final class PowerEp implements SiteUpdate<Void> {
  private final double u;

  private PowerEp(double u) {
    if (!(u > 0 && u <= 1)) {
      throw new IllegalArgumentException("Power EP needs a power u in (0, 1], got " + u);
    }
    this.u = u;
  }

  /** Power EP with power u ∈ (0, 1] (the paper's figures use 0.8). */
  public static PowerEp of(double u) {
    return new PowerEp(u);
  }

  public double power() {
    return u;
  }

  @Override
  public String name() {
    return "power-ep(u=" + (u == Math.rint(u) ? Long.toString((long) u) : Double.toString(u)) + ")";
  }

  @Override
  public Void start(Problem problem) {
    return null;
  }

  @Override
  public Cavity cavity(Void state, int i, double mean, double variance, double siteTau, double siteNu) {
    // fractional cavity: τ₋ = 1/Σᵢᵢ − u τ̃ᵢ,  ν₋ = μᵢ/Σᵢᵢ − u ν̃ᵢ  (Minka 2004 §3)
    if (u == 1) {
      return new Cavity(1.0 / variance - siteTau, mean / variance - siteNu);
    }
    return new Cavity(1.0 / variance - u * siteTau, mean / variance - u * siteNu);
  }

  private TiltedMoments tilted(Problem problem, int i, Cavity c) {
    double y = problem.y()[i];
    return u == 1 ? problem.likelihood().tilted(y, c.mean(), c.variance())
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

  @Override
  public double logZ(Void state, Problem problem, int i, double mean, double variance, double siteTau,
      double siteNu) {
    Cavity c = cavity(state, i, mean, variance, siteTau, siteNu);
    double logZu = tilted(problem, i, c).logZ();
    if (u == 1) {
      return logZu;
    }
    Cavity full = new Cavity(1.0 / variance - siteTau, mean / variance - siteNu);
    if (!(full.tau() > 0)) {
      throw new ArithmeticException("Power EP evidence: EP's cavity precision " + full.tau() + " at site " + i
          + " is not positive");
    }
    return logZu / u + (logC(mean, variance, c) / u - logC(mean, variance, full));
  }

  /** log ∫ N(f | μ, v) t̃(f)^{−w} df for the cavity (τ₋, ν₋) = (1/v − w τ̃, μ/v − w ν̃) (class comment). */
  private static double logC(double mean, double variance, Cavity c) {
    return -0.5 * Math.log(variance * c.tau()) + 0.5 * c.nu() * c.nu() / c.tau() - 0.5 * mean * mean / variance;
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "PowerEp[u=%s]", u);
  }
}
