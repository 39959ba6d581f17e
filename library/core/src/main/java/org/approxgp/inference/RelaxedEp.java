package org.approxgp.inference;

import java.util.Arrays;
import java.util.Locale;
import org.approxgp.likelihood.Likelihood;
import org.approxgp.likelihood.NoisyStep;
import org.approxgp.likelihood.Probit;
import org.approxgp.likelihood.TiltedMoments;

/**
 * Relaxed EP (Qi &amp; Guo, "Message passing with relaxed moment matching", §3–5, Algorithm 1, eq. 5,
 * 11–17, appendix B eq. 35–40), run in the one {@link SiteLoop}. Each site i carries a relaxation
 * factor rᵢ(f) = exp(−bᵢ (f − mᵢ)²/2) (eq. 11; bᵢ a PRECISION, mᵢ the current site mean), chosen per
 * update by a line search minimising the l1-penalised relaxed KL Q(bᵢ) + c|bᵢ| (eq. 5, 35). The bᵢ live
 * in the per-run {@link State} ({@link #start}: all 0, i.e. EP). c → ∞ forces bᵢ = 0: EP exactly.
 *
 * <p><b>One update</b> (notation: EP cavity τ₋ = 1/λ, ν₋ = h/λ from {@link #cavity}, as eq. 12; old site
 * (τ̃ᵢ, ν̃ᵢ) with mean mᵢ = ν̃ᵢ/τ̃ᵢ, or 0 while τ̃ᵢ = 0, the paper's initialisation):
 * <ol>
 * <li>relaxed cavity q^{\i} rᵢ, eq. 13: precision τ₋ + b, natural mean ν₋ + b mᵢ
 *     (λ̃ = 1/(1/λ + b), h̃ = h − λ̃ b (h − mᵢ));</li>
 * <li>tilted moments at the relaxed cavity, eq. 14 (y-general: ĥ, σ̂², log Ẑ from
 *     {@link Likelihood#tilted} at (h̃, λ̃) — closed form where the likelihood has one);</li>
 * <li>the site from t̃_{i,b} of eq. 15 (τ_{i,b} = 1/σ̂² − (τ₋ + b), ν_{i,b} = ĥ/σ̂² − (ν₋ + b mᵢ)) by the
 *     {@link SiteReading}: B (default, eq. 5/7) t̃ᵢ = t̃_{i,b}; A (eq. 16 as printed) t̃_{i,b} rᵢ; C (after eq. 11)
 *     t̃_{i,b} / rᵢ. For b = 0 all three are EP. The new q must be proper: b &lt; 1/σ̂² (B), b &lt; 1/(2σ̂²) (C)
 *     bounds the search's admissible range ({@code docs/derivations/relaxed-ep-readings.md} §6.1).</li>
 * </ol>
 *
 * <p><b>The objective Q(b)</b> ({@link Objective}); p̂ ∝ tᵢ q^{\i} rᵢ the relaxed tilted distribution,
 * E₁ = E_p̂[log tᵢ] the likelihood's {@link Likelihood#tiltedExpectedLogDensity} ({@link NoisyStep}: eq. 36's first
 * term in closed form; {@link Probit}: log-concave quadrature):
 * <ul>
 * <li>{@code CLEAN} (the notes' derivation from eq. 5): min over q of the normalised KL(p̂ ‖ q rᵢ), i.e. the
 *     KL of p̂ from its Gaussian projection: E₁ − log Ẑ + ½ log(σ̂²/λ̃) + ½ − (σ̂² + (ĥ − h̃)²)/(2λ̃).</li>
 * <li>{@code CLEAN_UNNORMALISED}: the same times the mass Ẑ_r = Ẑ (1 + bλ)^{−1/2}
 *     exp(−b (h − mᵢ)²/(2(1 + bλ))) of tᵢ rᵢ q^{\i} (KL_r of eq. 5 for unnormalised densities, rᵢ(mᵢ) = 1).</li>
 * <li>{@code EQ36}: eq. 36 as printed, with eq. 37–40 (δ, a_ii^new, ã_ii^new, F) reduced by algebra that
 *     holds exactly (a_ii^new = 1/(τ₋ + τ_{i,b}), ã_ii^new = σ̂², F = σ̂² + ĥ², 1 + (b + 1/v_{i,b})λ = λ/σ̂²;
 *     τ_{i,b}, ν_{i,b} the relaxed-cavity site of eq. 15), and ½ (mᵢ − h)²/(λ + 1/b) written as
 *     ½ b (mᵢ − h)²/(1 + bλ) so that b = 0 is admissible:
 *     E₁ − log Ẑ + ½(F τ_{i,b} − ĥ ν_{i,b}) + ½ log(σ̂²/λ) + ½ log(1 + bλ) − ½ b (mᵢ² − 2mᵢĥ + F)
 *     + ½ b (mᵢ − h)²/(1 + bλ). It does not reconcile with a KL (notes §3); offered to test which
 *     reading reproduces the figures.</li>
 * </ul>
 * Eq. 36's printed closed forms are the noisy step's; for other likelihoods only the clean form has a derivation.
 *
 * <p><b>Line search</b> (the paper specifies none): G(b) = Q(b) + c|b| is minimised by {@link RelaxationSearch}
 * over the admissible b (relaxed cavity proper, b &gt; −1/λ; new q proper, see the readings) within the
 * {@link Relaxation}'s bracket; a non-finite G is +∞ and b = 0 (EP) is kept unless strictly beaten.
 *
 * <p><b>Scale of c.</b> bᵢ is a precision, so the penalty c|bᵢ| (eq. 35) has the units of a variance of f: for a
 * likelihood that sees f only through its sign (the noisy step), REP with penalty c on the prior s K is REP with c/s
 * on K. The paper does not state its kernel amplitude, so its c = 10, 20 fix no scale here (eq. 4–5's form of the
 * penalty: {@link PenaltyForm#EQ4}). At EP's fixed point a site relaxes only if c &lt; |Q'(0)|
 * (one-sided slopes), see {@code docs/derivations/relaxed-ep-readings.md} §7.4.
 *
 * <p><b>Evidence.</b> {@link #logZ} is EP's tilted normaliser at the unrelaxed cavity: the evidence of a
 * REP posterior is the EP-form evidence at its sites (as QP's is); its gradient is not EP's, so the model
 * layer uses central differences ({@code InferenceMethod.withNumericalGradient}).
 */
public final class RelaxedEp implements SiteUpdate<RelaxedEp.State> {

  /** The line-search objective Q(b) (class comment). */
  public enum Objective {
    CLEAN,
    CLEAN_UNNORMALISED,
    EQ36
  }

  /** What the new site does with rᵢ, given t̃_{i,b} of eq. 15 (class comment; implementation notes §6.1). */
  public enum SiteReading {
    /**
     * t̃ᵢ = t̃_{i,b}: the site is the projection over the relaxed cavity, so q = proj / rᵢ (eq. 5 and 7: moments
     * matched between p̂ rᵢ and q rᵢ; step 3(c) t̃ᵢ ∝ q / q^{\i}). New marginal precision 1/σ̂² − b. Default.
     */
    B,
    /**
     * t̃ᵢ = t̃_{i,b} rᵢ: eq. 16 as printed, vᵢ = 1/(1/v_{i,b} + bᵢ), mᵢ = vᵢ (m_{i,b}/v_{i,b} + mᵢ^{old} bᵢ), i.e.
     * τ̃ = τ_{i,b} + b = 1/σ̂² − τ₋, ν̃ = ν_{i,b} + b mᵢ = ĥ/σ̂² − ν₋: q = proj. New marginal precision 1/σ̂².
     */
    A,
    /**
     * t̃ᵢ = t̃_{i,b} / rᵢ: the definition t̃_{i,b} ∝ rᵢ t̃ᵢ after eq. 11, read as step (e)'s words "remove rᵢ from
     * t̃_{i,b}": τ̃ = τ_{i,b} − b = 1/σ̂² − τ₋ − 2b, ν̃ = ν_{i,b} − b mᵢ = ĥ/σ̂² − ν₋ − 2b mᵢ. New marginal precision
     * 1/σ̂² − 2b.
     */
    C
  }

  /** How the line search looks for bᵢ ({@link RelaxationSearch}). */
  public enum Search {
    /** The local minimum reached from b = 0 (probes at ±δ, then Brent on a descending side). Default. */
    LOCAL,
    /** The minimiser over the whole admissible range: a scan of it, then Brent on the scan's best bracket. */
    GLOBAL
  }

  /**
   * Which bᵢ the line search may choose: bᵢ ≥ 0 as eq. 11 (rᵢ ∝ N(fᵢ | mᵢ, 1/bᵢ), a Gaussian), or also bᵢ &lt; 0
   * (rᵢ widens the relaxed cavity, admissible while it stays proper).
   */
  public enum Relaxation {
    /** bᵢ ∈ [0, 100/λ] (eq. 11). */
    NONNEGATIVE,
    /** bᵢ ∈ [−0.9/λ, 100/λ]. */
    SIGNED
  }

  /** The penalty of the relaxation in the line search. */
  public enum PenaltyForm {
    /** c |bᵢ| (appendix B, eq. 35). Default. */
    EQ35,
    /**
     * c |ηᵢ|₁ (eq. 4–5), ηᵢ = (bᵢ mᵢ, −bᵢ/2) the natural parameters of rᵢ(f) ∝ exp(−½ bᵢ f² + bᵢ mᵢ f):
     * c |bᵢ| (|mᵢ| + ½).
     */
    EQ4
  }

  /** The default {@link Relaxation}: {@link Relaxation#NONNEGATIVE}, as eq. 11 (rᵢ a Gaussian, bᵢ ≥ 0). */
  public static final Relaxation DEFAULT_RELAXATION = Relaxation.NONNEGATIVE;

  /** Lower end of the bracket, in units of the cavity precision (b ≥ −0.9/λ). */
  public static final double MIN_RELATIVE_B = -0.9;
  /** Upper end of the bracket, in units of the cavity precision (b ≤ 100/λ). */
  public static final double MAX_RELATIVE_B = 100;

  /**
   * Per-run state: the current bᵢ, whether site i's last update relaxed (bᵢ ≠ 0), and the old site of
   * the update in progress (set by {@link #cavity}, read by {@link #propose}).
   */
  public static final class State {
    final double[] b;
    final boolean[] relaxed;
    final double[] oldTau;
    final double[] oldNu;

    State(int n) {
      b = new double[n];
      relaxed = new boolean[n];
      oldTau = new double[n];
      oldNu = new double[n];
    }

    /** A copy of the current bᵢ. */
    public double[] relaxation() {
      return b.clone();
    }
  }

  private final double c;
  private final Objective objective;
  private final SiteReading reading;
  private final Relaxation relaxation;
  private final PenaltyForm penaltyForm;
  private final Search search;

  private RelaxedEp(
      double c,
      Objective objective,
      SiteReading reading,
      Relaxation relaxation,
      PenaltyForm penaltyForm,
      Search search) {
    if (Arrays.asList(objective, reading, relaxation, penaltyForm, search).contains(null)) {
      throw new IllegalArgumentException(
          "objective, reading, relaxation, penalty form and search must not be null");
    }
    this.c = c;
    this.objective = objective;
    this.reading = reading;
    this.relaxation = relaxation;
    this.penaltyForm = penaltyForm;
    this.search = search;
  }

  /** Relaxed EP with penalty c, the clean objective and reading B. */
  public static RelaxedEp of(double c) {
    return of(c, Objective.CLEAN, SiteReading.B);
  }

  /** Relaxed EP with the default relaxation ({@link #DEFAULT_RELAXATION}) and penalty (eq. 35). */
  public static RelaxedEp of(double c, Objective objective, SiteReading reading) {
    return of(c, objective, reading, DEFAULT_RELAXATION, PenaltyForm.EQ35);
  }

  /**
   * Relaxed EP with every reading chosen.
   *
   * @throws IllegalArgumentException unless 0 &lt; c &lt; ∞: without the penalty eq. 5's Q(b) falls towards 0 as
   *     b grows and has no minimiser, so the search would end wherever its bracket does
   *     ({@code RelaxedEpZeroPenaltyTest})
   */
  public static RelaxedEp of(
      double c,
      Objective objective,
      SiteReading reading,
      Relaxation relaxation,
      PenaltyForm penaltyForm) {
    return of(c, objective, reading, relaxation, penaltyForm, Search.LOCAL);
  }

  /**
   * Relaxed EP with every reading and the search chosen.
   *
   * @throws IllegalArgumentException unless 0 &lt; c &lt; ∞ (see {@link #of(double, Objective, SiteReading,
   *     Relaxation, PenaltyForm)})
   */
  public static RelaxedEp of(
      double c,
      Objective objective,
      SiteReading reading,
      Relaxation relaxation,
      PenaltyForm penaltyForm,
      Search search) {
    try {
      checkPenalty(c);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Relaxed EP's penalty " + e.getMessage(), e);
    }
    return new RelaxedEp(c, objective, reading, relaxation, penaltyForm, search);
  }

  /**
   * The penalty c, checked: the one validation of c in the project (the registry and the readings call it).
   *
   * @throws IllegalArgumentException unless 0 &lt; c &lt; ∞
   */
  public static double checkPenalty(double c) {
    if (!(c > 0 && c < Double.POSITIVE_INFINITY)) {
      throw new IllegalArgumentException("must be a finite c > 0, got " + c
          + " (without the penalty, eq. 5's Q(b) tends to 0 as b grows and has no minimiser)");
    }
    return c;
  }

  public Relaxation relaxation() {
    return relaxation;
  }

  public PenaltyForm penaltyForm() {
    return penaltyForm;
  }

  public Search search() {
    return search;
  }

  /**
   * The objective Q(b) alone, c = 0, with the signed local search: for studying Q (tests, benchmarks), not for
   * running Relaxed EP.
   */
  static RelaxedEp unpenalised(Objective objective) {
    return new RelaxedEp(
        0, objective, SiteReading.B, Relaxation.SIGNED, PenaltyForm.EQ35, Search.LOCAL);
  }

  public double penalty() {
    return c;
  }

  public Objective objective() {
    return objective;
  }

  public SiteReading reading() {
    return reading;
  }

  @Override
  public String name() {
    String cs =
        c == Math.rint(c) && Math.abs(c) < 1e15 ? Long.toString((long) c) : Double.toString(c);
    return "rep(c=" + cs + suffix(objective, Objective.CLEAN)
        + (reading == SiteReading.B ? "" : ", reading " + reading)
        + suffix(relaxation, DEFAULT_RELAXATION)
        + suffix(penaltyForm, PenaltyForm.EQ35) + suffix(search, Search.LOCAL) + ")";
  }

  /** ", value" in lower case, or nothing for the default. */
  private static String suffix(Enum<?> value, Enum<?> byDefault) {
    return value == byDefault ? "" : ", " + value.name().toLowerCase(Locale.ROOT);
  }

  @Override
  public State start(Problem problem) {
    return new State(problem.size());
  }

  @Override
  public Cavity cavity(
      State state, int i, double mean, double variance, double siteTau, double siteNu) {
    state.oldTau[i] = siteTau;
    state.oldNu[i] = siteNu;
    // EP's cavity, eq. 12: λ = (1/A_ii − 1/v_i)⁻¹, h = λ(h_i/A_ii − m_i/v_i)
    return Cavity.ep(mean, variance, siteTau, siteNu);
  }

  @Override
  public Site propose(State state, Problem problem, int i, Cavity cavity) {
    double tauOld = state.oldTau[i];
    double siteMean = tauOld != 0 ? state.oldNu[i] / tauOld : 0;
    double y = problem.y()[i];
    Likelihood lik = problem.likelihood();
    double b = Double.isFinite(siteMean) ? lineSearch(lik, y, cavity, siteMean) : 0;
    state.b[i] = b;
    state.relaxed[i] = b != 0;
    double tr = cavity.tau() + b;
    double nr = b == 0 ? cavity.nu() : cavity.nu() + b * siteMean;
    TiltedMoments t = lik.tilted(y, nr / tr, 1.0 / tr);
    // eq. 15: t̃_{i,b}, the site relative to the relaxed cavity (τ₋ + b, ν₋ + b mᵢ)
    double tauB = 1.0 / t.variance() - tr;
    double nuB = t.mean() / t.variance() - nr;
    double rNu = b == 0 ? 0 : b * siteMean; // rᵢ's natural mean b mᵢ (precision b)
    return switch (reading) {
      case B -> new Site(tauB, nuB); // t̃ᵢ = t̃_{i,b}
      // eq. 16 as printed: t̃ᵢ = t̃_{i,b} rᵢ = proj / q^{\i} (written so, as the projection over
      // the EP cavity)
      case A -> new Site(1.0 / t.variance() - cavity.tau(), t.mean() / t.variance() - cavity.nu());
      case C -> new Site(tauB - b, nuB - rNu); // t̃ᵢ = t̃_{i,b} / rᵢ
    };
  }

  /** argmin over the {@link Relaxation}'s bracket of G(b) = Q(b) + penalty, by {@link RelaxationSearch}. */
  double lineSearch(Likelihood lik, double y, Cavity cav, double siteMean) {
    return RelaxationSearch.minimise(
        search, relaxation, b -> objective(lik, y, cav, siteMean, b), cav.variance());
  }

  /** G(b) = Q(b) + c|b|, +∞ where not finite or not admissible. */
  double objective(Likelihood lik, double y, Cavity cav, double siteMean, double b) {
    double tr = cav.tau() + b;
    if (!(tr > 0)) {
      return Double.POSITIVE_INFINITY;
    }
    double nr = b == 0 ? cav.nu() : cav.nu() + b * siteMean;
    double lt = 1.0 / tr;
    double ht = nr / tr;
    double q;
    try {
      TiltedMoments t = lik.tilted(y, ht, lt);
      double s2 = t.variance();
      double hh = t.mean();
      // the new q must stay proper: 1/σ̂² − b (reading B), 1/σ̂² − 2b (C) must be positive; A's
      // 1/σ̂² is
      double removed = reading == SiteReading.B ? b : reading == SiteReading.C ? 2 * b : 0;
      if (!(1.0 / s2 - removed > 0)) {
        return Double.POSITIVE_INFINITY;
      }
      double e1 = expectedLogLikelihood(lik, y, ht, lt);
      double lambda = cav.variance();
      double h = cav.mean();
      switch (objective) {
        case CLEAN, CLEAN_UNNORMALISED -> {
          double d = hh - ht;
          q = e1 - t.logZ() + 0.5 * Math.log(s2 / lt) + 0.5 - (s2 + d * d) / (2 * lt);
          // a KL is ≥ 0; E₁'s rounding can leave a tiny negative value, which Ẑ_r (exponentially
          // large as b → −1/λ) must not turn into a large negative objective
          q = Math.max(q, 0);
          if (objective == Objective.CLEAN_UNNORMALISED) {
            double bl = 1 + b * lambda;
            double dm = h - siteMean;
            q *= Math.exp(t.logZ() - 0.5 * Math.log(bl) - b * dm * dm / (2 * bl));
          }
        }
        case EQ36 -> {
          double tib = 1.0 / s2 - tr; // 1/v_{i,b}
          double nib = hh / s2 - nr; // m_{i,b}/v_{i,b}
          double f = s2 + hh * hh; // F_{i,b} = ã_ii^new + ĥ²
          double bl = 1 + b * lambda;
          double dm = siteMean - h;
          q = e1
              - t.logZ()
              + 0.5 * (f * tib - hh * nib)
              + 0.5 * Math.log(s2 / lambda)
              + 0.5 * Math.log(bl)
              - 0.5 * b * (siteMean * siteMean - 2 * siteMean * hh + f)
              + 0.5 * b * dm * dm / bl;
        }
        default -> throw new IllegalStateException("unknown objective " + objective);
      }
    } catch (ArithmeticException e) {
      return Double.POSITIVE_INFINITY;
    }
    double g = q
        + (penaltyForm == PenaltyForm.EQ35
            ? c * Math.abs(b)
            : c * Math.abs(b) * (Math.abs(siteMean) + 0.5));
    return Double.isFinite(g) ? g : Double.POSITIVE_INFINITY;
  }

  /** E₁ = E_p̂[log p(y | f)] for p̂ ∝ N(f | m, v) p(y | f): {@link Likelihood#tiltedExpectedLogDensity}. */
  static double expectedLogLikelihood(Likelihood lik, double y, double m, double v) {
    return lik.tiltedExpectedLogDensity(y, m, v);
  }

  @Override
  public double logZ(
      State state,
      Problem problem,
      int i,
      double mean,
      double variance,
      double siteTau,
      double siteNu) {
    // EP-form evidence at REP's sites: the tilted normaliser at EP's (unrelaxed) cavity
    return MomentMatching.tiltedLogZ(problem, i, Cavity.ep(mean, variance, siteTau, siteNu));
  }

  @Override
  public int relaxedSites(State state) {
    int k = 0;
    for (boolean r : state.relaxed) {
      k += r ? 1 : 0;
    }
    return k;
  }

  @Override
  public String toString() {
    return name();
  }
}
