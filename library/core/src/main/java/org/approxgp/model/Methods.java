package org.approxgp.model;

import org.approxgp.inference.Ep;
import org.approxgp.inference.PowerEp;
import org.approxgp.inference.Qp;
import org.approxgp.inference.RelaxedEp;
import org.approxgp.inference.SiteLoop;
import org.approxgp.inference.SiteLoopOptions;

/**
 * Typed constructors of the inference methods whose settings go beyond a name: QP with a chosen gradient, Power EP
 * and Relaxed EP with their loop options and readings. Names map to these in {@link Registry}, the one entry point
 * by name.
 */
public final class Methods {
  private Methods() {}

  /** Power EP's default power, u = 0.8 (Qi &amp; Guo, Fig. 1 and 2). */
  public static final double DEFAULT_POWER = 0.8;

  /**
   * Relaxed EP's default penalty, c = 20 (Qi &amp; Guo, Fig. 1a; Fig. 2 uses 10). The paper's c multiplies
   * its own objective (eq. 35–36), whose scale is not the clean KL's; see {@link RelaxedEp}.
   */
  public static final double DEFAULT_PENALTY = 20;

  /** How QP's hyperparameter gradient (of the EP energy at QP's sites, QP paper eq. 2) is computed. */
  public enum QpGradientKind {
    /**
     * Implicit differentiation of QP's fixed point ({@link org.approxgp.inference.QpGradient}): exact, one
     * dense 2n × 2n solve per gradient. The default.
     */
    IMPLICIT,
    /**
     * Central differences in the log-hyperparameters, h = 1e-4 ({@link InferenceMethod#withNumericalGradient}):
     * 2·dim θ extra warm-started inferences per gradient; kept for comparison.
     */
    NUMERICAL
  }

  /**
   * QP with {@code options} (a W2 or Lp projection, {@link org.approxgp.inference.Qp#options()} by default; the
   * KL projection is refused, {@link org.approxgp.inference.Qp#siteUpdate}), named as {@link InferenceMethod#qp}
   * names it ("qp" for a W2 projection), with the chosen gradient of its objective.
   */
  public static InferenceMethod qp(Ep.Options options, QpGradientKind gradient) {
    String name = InferenceMethod.qp(options).name();
    return switch (gradient) {
      case IMPLICIT ->
        InferenceMethod.of(name, (pr, w) -> Qp.inferWithImplicitGradient(pr, options, w));
      case NUMERICAL -> InferenceMethod.withNumericalGradient(InferenceMethod.qp(options), 1e-4);
    };
  }

  /** The loop options Power EP and Relaxed EP use by default: EP's, with negative site precisions kept. */
  public static SiteLoopOptions keepOptions() {
    return SiteLoopOptions.defaults().withNegativeSites(SiteLoop.NegativeSitePrecision.KEEP);
  }

  /** Power EP with power u and {@link #keepOptions()}; named "power-ep". */
  public static InferenceMethod powerEp(double u) {
    return powerEp(u, keepOptions());
  }

  /**
   * Power EP with power u in the site loop with {@code options} (e.g. CLIP via
   * {@link SiteLoopOptions#withNegativeSites}), named "power-ep". Its evidence gradient is by central
   * differences (h = 1e-4 in log θ): the loop's R&amp;W eq. 5.27 form holds only at an EP fixed point.
   */
  public static InferenceMethod powerEp(double u, SiteLoopOptions options) {
    return powerEp(u, PowerEp.Variant.MINKA, options);
  }

  /** Power EP with power u and the given variant ({@link PowerEp.Variant}) in the site loop, named "power-ep". */
  public static InferenceMethod powerEp(
      double u, PowerEp.Variant variant, SiteLoopOptions options) {
    return powerEp(u, variant, options, true);
  }

  /**
   * {@link #powerEp(double, PowerEp.Variant, SiteLoopOptions)}, with its central-difference evidence gradient
   * when {@code numericalGradient}, else with none (fixed hyperparameters: one site-loop run per inference).
   */
  public static InferenceMethod powerEp(
      double u, PowerEp.Variant variant, SiteLoopOptions options, boolean numericalGradient) {
    return inLoop("power-ep", PowerEp.of(u, variant), options, numericalGradient);
  }

  /** Relaxed EP with penalty c (clean objective, reading B) and {@link #keepOptions()}; named "rep". */
  public static InferenceMethod relaxedEp(double c) {
    return relaxedEp(RelaxedEp.of(c), keepOptions());
  }

  /**
   * The given Relaxed EP rule (objective, site reading) in the site loop with {@code options}, named "rep",
   * with a central-difference evidence gradient (h = 1e-4 in log θ).
   */
  public static InferenceMethod relaxedEp(RelaxedEp rule, SiteLoopOptions options) {
    return relaxedEp(rule, options, true);
  }

  /**
   * {@link #relaxedEp(RelaxedEp, SiteLoopOptions)}, with its central-difference evidence gradient when
   * {@code numericalGradient}, else with none.
   */
  public static InferenceMethod relaxedEp(
      RelaxedEp rule, SiteLoopOptions options, boolean numericalGradient) {
    return inLoop("rep", rule, options, numericalGradient);
  }

  /**
   * {@code rule} in the site loop without the loop's EP-form gradient (R&amp;W eq. 5.27 holds only at an EP fixed
   * point), named {@code name}; with central differences (h = 1e-4 in log θ) when {@code numericalGradient}.
   */
  private static InferenceMethod inLoop(
      String name,
      org.approxgp.inference.SiteUpdate<?> rule,
      SiteLoopOptions options,
      boolean numericalGradient) {
    SiteLoopOptions o = options.withGradient(false);
    InferenceMethod m = InferenceMethod.of(name, (pr, w) -> SiteLoop.run(pr, rule, o, w));
    return numericalGradient ? InferenceMethod.withNumericalGradient(m, 1e-4) : m;
  }

  /**
   * Relaxed EP's reading of the paper, by the names the command line, the notebooks and the REP experiments use;
   * null = the default ({@link RelaxedEp}'s class comment has the equations):
   *
   * @param siteReading "a" (eq. 16 as printed, t̃ᵢ = t̃_{i,b} rᵢ), "b" (eq. 5/7, t̃ᵢ = t̃_{i,b}; default) or "c"
   *     (t̃ᵢ = t̃_{i,b} / rᵢ)
   * @param relaxation "nonnegative" (bᵢ ≥ 0, eq. 11; default) or "signed"
   * @param penaltyForm "eq35" (c|bᵢ|, default) or "eq4" (c|ηᵢ|₁ = c|bᵢ|(|mᵢ| + ½))
   * @param search "local" (the minimum reached from b = 0; default) or "global" (over the admissible range)
   */
  public record RepReading(
      String siteReading, String relaxation, String penaltyForm, String search) {

    /** Every setting at its default. */
    public static final RepReading DEFAULT = new RepReading(null, null, null, null);

    /**
     * The Relaxed EP rule with penalty c (clean objective) in this reading.
     *
     * @throws SettingException naming the setting, for an unknown value or c outside (0, ∞)
     */
    public RelaxedEp rule(double c) {
      return rule(c, RelaxedEp.Objective.CLEAN);
    }

    /**
     * The Relaxed EP rule with penalty c in this reading, its line search minimising {@code objective}
     * ({@link RelaxedEp.Objective}: the clean KL derived from eq. 5, the unnormalised KL of eq. 4/5, or eq. 36 as
     * printed). The objective is not a component of the reading, so configs that carry a reading keep their stores.
     *
     * @throws SettingException naming the setting, for an unknown value or c outside (0, ∞)
     */
    public RelaxedEp rule(double c, RelaxedEp.Objective objective) {
      return RelaxedEp.of(
          checkedPenalty(c),
          java.util.Objects.requireNonNull(objective, "objective"),
          Registry.siteReading(siteReading),
          Registry.relaxation(relaxation),
          Registry.penaltyForm(penaltyForm),
          Registry.search(search));
    }
  }

  /** {@link RelaxedEp#checkPenalty}, its refusal as a {@link SettingException} naming the setting "penalty". */
  static double checkedPenalty(double c) {
    try {
      return RelaxedEp.checkPenalty(c);
    } catch (IllegalArgumentException e) {
      throw new SettingException("penalty", e.getMessage());
    }
  }
}
