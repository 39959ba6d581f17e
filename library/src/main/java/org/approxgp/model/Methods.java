package org.approxgp.model;

import java.util.List;
import org.approxgp.inference.Ep;
import org.approxgp.inference.PowerEp;
import org.approxgp.inference.Qp;
import org.approxgp.inference.RelaxedEp;
import org.approxgp.inference.SiteLoop;
import org.approxgp.projection.KlProjection;

/** Inference methods by name, as the command line and notebooks select them. */
public final class Methods {
  private Methods() {}

  /** Power EP's default power, u = 0.8 (Qi &amp; Guo, Fig. 1 and 2). */
  public static final double DEFAULT_POWER = 0.8;

  /**
   * Relaxed EP's default penalty, c = 20 (Qi &amp; Guo, Fig. 1a; Fig. 2 uses 10). The paper's c multiplies
   * its own objective (eq. 35–36), whose scale is not the clean KL's; see {@link RelaxedEp}.
   */
  public static final double DEFAULT_PENALTY = 20;

  /** Names accepted by {@link #byName}. */
  public static List<String> names() {
    return List.of("ep", "qp", "laplace", "vb", "power-ep", "rep");
  }

  /**
   * The method called {@code name} with its default options. "power-ep" is {@link #powerEp(double)}
   * with u = {@value #DEFAULT_POWER}, "rep" is {@link #relaxedEp(double)} with c = {@value #DEFAULT_PENALTY};
   * both keep negative site precisions (Minka's EP, as the paper), ep and qp clip them (GPML).
   *
   * @throws IllegalArgumentException for an unknown name (the message lists the known ones)
   */
  public static InferenceMethod byName(String name) {
    return switch (name) {
      case "ep" -> InferenceMethod.ep(Ep.Options.defaults());
      // QP's EP-form gradient (R&W 5.27) is not the gradient of its objective; the implicit-differentiation
      // gradient of QpGradient is (and costs one 2n × 2n solve instead of 2·dim θ inferences)
      case "qp" -> qp(Ep.Options.defaults(), QpGradientKind.IMPLICIT);
      case "laplace" -> InferenceMethod.laplace(org.approxgp.inference.Laplace.Options.defaults());
      case "vb" -> InferenceMethod.vb(org.approxgp.inference.Vb.Options.defaults());
      case "power-ep" -> powerEp(DEFAULT_POWER);
      case "rep" -> relaxedEp(DEFAULT_PENALTY);
      default -> throw new IllegalArgumentException("unknown inference method '" + name + "'; known: " + names());
    };
  }

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
   * QP with {@code options} (its projection replaced by QP's default W2 projection when it is the KL one,
   * {@link org.approxgp.inference.Qp#siteUpdate}), named as {@link InferenceMethod#qp} names it ("qp" for the
   * KL or a W2 projection), with the chosen gradient of its objective.
   */
  public static InferenceMethod qp(Ep.Options options, QpGradientKind gradient) {
    String name = options.projection() instanceof KlProjection ? "qp" : options.siteUpdate().name();
    return switch (gradient) {
      case IMPLICIT -> InferenceMethod.of(name, (pr, w) -> Qp.inferWithImplicitGradient(pr, options, w));
      case NUMERICAL -> InferenceMethod.withNumericalGradient(InferenceMethod.qp(options), 1e-4);
    };
  }

  /** The loop options Power EP and Relaxed EP use by default: EP's, with negative site precisions kept. */
  public static SiteLoop.Options keepOptions() {
    return SiteLoop.Options.defaults().withNegativeSites(SiteLoop.NegativeSitePrecision.KEEP);
  }

  /** Power EP with power u and {@link #keepOptions()}; named "power-ep". */
  public static InferenceMethod powerEp(double u) {
    return powerEp(u, keepOptions());
  }

  /**
   * Power EP with power u in the site loop with {@code options} (e.g. CLIP via
   * {@link SiteLoop.Options#withNegativeSites}), named "power-ep". Its evidence gradient is by central
   * differences (h = 1e-4 in log θ): the loop's R&amp;W eq. 5.27 form holds only at an EP fixed point.
   */
  public static InferenceMethod powerEp(double u, SiteLoop.Options options) {
    return powerEp(u, PowerEp.Variant.MINKA, options);
  }

  /** Power EP with power u and the given variant ({@link PowerEp.Variant}) in the site loop, named "power-ep". */
  public static InferenceMethod powerEp(double u, PowerEp.Variant variant, SiteLoop.Options options) {
    PowerEp rule = PowerEp.of(u, variant);
    SiteLoop.Options o = options.withGradient(false);
    return InferenceMethod.withNumericalGradient(
        InferenceMethod.of("power-ep", (pr, w) -> SiteLoop.run(pr, rule, o, w)), 1e-4);
  }

  /** Relaxed EP with penalty c (clean objective, reading B) and {@link #keepOptions()}; named "rep". */
  public static InferenceMethod relaxedEp(double c) {
    return relaxedEp(RelaxedEp.of(c), keepOptions());
  }

  /**
   * The given Relaxed EP rule (objective, site reading) in the site loop with {@code options}, named "rep",
   * with a central-difference evidence gradient (h = 1e-4 in log θ).
   */
  public static InferenceMethod relaxedEp(RelaxedEp rule, SiteLoop.Options options) {
    SiteLoop.Options o = options.withGradient(false);
    return InferenceMethod.withNumericalGradient(
        InferenceMethod.of("rep", (pr, w) -> SiteLoop.run(pr, rule, o, w)), 1e-4);
  }

  /**
   * The method called {@code name} with the command line's settings (null = the method's default):
   * {@code power} u ∈ (0, 1] for "power-ep" only, {@code penalty} c > 0 (finite) for "rep" only,
   * {@code negativeSites} "keep" or "clip" for the EP family (ep, qp, power-ep, rep; default clip for
   * ep/qp, keep for power-ep/rep).
   *
   * @throws IllegalArgumentException naming the option, for an unknown name, an out-of-range value or a
   *     setting the method does not take
   */
  public static InferenceMethod configured(String name, Double power, Double penalty, String negativeSites) {
    return configured(name, power, penalty, negativeSites, null);
  }

  /**
   * {@link #configured(String, Double, Double, String)} with {@code powerEpVariant} "minka" (default) or
   * "appendix-c" for "power-ep" only ({@link PowerEp.Variant}: Minka's fractional cavity, or Qi &amp; Guo
   * appendix C eq. 41–42).
   */
  public static InferenceMethod configured(String name, Double power, Double penalty, String negativeSites,
      String powerEpVariant) {
    return configured(name, power, penalty, negativeSites, powerEpVariant, RepReading.DEFAULT);
  }

  /**
   * {@link #configured(String, Double, Double, String, String)} with Relaxed EP's {@code relaxation} and
   * {@code penaltyForm} for "rep" only (see {@link RepReading}).
   */
  public static InferenceMethod configured(String name, Double power, Double penalty, String negativeSites,
      String powerEpVariant, String relaxation, String penaltyForm) {
    return configured(name, power, penalty, negativeSites, powerEpVariant,
        new RepReading(null, relaxation, penaltyForm, null));
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
  public record RepReading(String siteReading, String relaxation, String penaltyForm, String search) {

    /** Every setting at its default. */
    public static final RepReading DEFAULT = new RepReading(null, null, null, null);

    /** Whether any setting is given. */
    public boolean isSet() {
      return siteReading != null || relaxation != null || penaltyForm != null || search != null;
    }

    /** The flag of the first setting given, for "applies to rep only" messages. */
    String firstFlag() {
      return siteReading != null ? "--site-reading" : relaxation != null ? "--relaxation"
          : penaltyForm != null ? "--penalty-form" : "--relaxation-search";
    }

    /**
     * The Relaxed EP rule with penalty c (clean objective) in this reading.
     *
     * @throws IllegalArgumentException naming the option, for an unknown value or c outside (0, ∞)
     */
    public RelaxedEp rule(double c) {
      RelaxedEp.SiteReading site = siteReading == null ? RelaxedEp.SiteReading.B : switch (siteReading) {
        case "a" -> RelaxedEp.SiteReading.A;
        case "b" -> RelaxedEp.SiteReading.B;
        case "c" -> RelaxedEp.SiteReading.C;
        default -> throw new IllegalArgumentException("--site-reading must be a, b or c, got '" + siteReading + "'");
      };
      RelaxedEp.Relaxation rel = relaxation == null ? RelaxedEp.DEFAULT_RELAXATION : switch (relaxation) {
        case "nonnegative" -> RelaxedEp.Relaxation.NONNEGATIVE;
        case "signed" -> RelaxedEp.Relaxation.SIGNED;
        default -> throw new IllegalArgumentException("--relaxation must be nonnegative or signed, got '"
            + relaxation + "'");
      };
      RelaxedEp.PenaltyForm form = penaltyForm == null ? RelaxedEp.PenaltyForm.EQ35 : switch (penaltyForm) {
        case "eq35" -> RelaxedEp.PenaltyForm.EQ35;
        case "eq4" -> RelaxedEp.PenaltyForm.EQ4;
        default -> throw new IllegalArgumentException("--penalty-form must be eq35 or eq4, got '" + penaltyForm
            + "'");
      };
      RelaxedEp.Search how = search == null ? RelaxedEp.Search.LOCAL : switch (search) {
        case "local" -> RelaxedEp.Search.LOCAL;
        case "global" -> RelaxedEp.Search.GLOBAL;
        default -> throw new IllegalArgumentException("--relaxation-search must be local or global, got '" + search
            + "'");
      };
      if (!(c > 0 && Double.isFinite(c))) {
        throw new IllegalArgumentException("--penalty must be finite and > 0, got " + c);
      }
      return RelaxedEp.of(c, RelaxedEp.Objective.CLEAN, site, rel, form, how);
    }
  }

  /**
   * {@link #configured(String, Double, Double, String, String)} with Relaxed EP's {@code reading}
   * ({@link RepReading}; every setting null = the defaults), for "rep" only.
   *
   * @throws IllegalArgumentException naming the option, for an unknown name, an out-of-range value or a
   *     setting the method does not take
   */
  public static InferenceMethod configured(String name, Double power, Double penalty, String negativeSites,
      String powerEpVariant, RepReading reading) {
    if (reading != null && reading.isSet()) {
      if (!name.equals("rep")) {
        throw new IllegalArgumentException(reading.firstFlag() + " applies to --inference rep only, not to " + name);
      }
      configured(name, power, penalty, negativeSites, powerEpVariant, null); // validates the other settings
      SiteLoop.NegativeSitePrecision policy = negativeSites == null || negativeSites.equals("keep")
          ? SiteLoop.NegativeSitePrecision.KEEP : SiteLoop.NegativeSitePrecision.CLIP;
      return relaxedEp(reading.rule(penalty == null ? DEFAULT_PENALTY : penalty),
          SiteLoop.Options.defaults().withNegativeSites(policy));
    }
    PowerEp.Variant variant = PowerEp.Variant.MINKA;
    if (powerEpVariant != null) {
      if (!name.equals("power-ep")) {
        throw new IllegalArgumentException("--power-ep-variant applies to --inference power-ep only, not to " + name);
      }
      variant = switch (powerEpVariant) {
        case "minka" -> PowerEp.Variant.MINKA;
        case "appendix-c" -> PowerEp.Variant.APPENDIX_C;
        default -> throw new IllegalArgumentException("--power-ep-variant must be minka or appendix-c, got '"
            + powerEpVariant + "'");
      };
    }
    if (variant != PowerEp.Variant.MINKA) {
      configured(name, power, penalty, negativeSites, null, null); // validates the other settings
      SiteLoop.NegativeSitePrecision policy = negativeSites == null || negativeSites.equals("keep")
          ? SiteLoop.NegativeSitePrecision.KEEP : SiteLoop.NegativeSitePrecision.CLIP;
      return powerEp(power == null ? DEFAULT_POWER : power, variant,
          SiteLoop.Options.defaults().withNegativeSites(policy));
    }
    if (!names().contains(name)) {
      throw new IllegalArgumentException("--inference: unknown inference method '" + name + "'; known: " + names());
    }
    if (power != null && !name.equals("power-ep")) {
      throw new IllegalArgumentException("--power applies to --inference power-ep only, not to " + name);
    }
    if (penalty != null && !name.equals("rep")) {
      throw new IllegalArgumentException("--penalty applies to --inference rep only, not to " + name);
    }
    if (power != null && !(power > 0 && power <= 1)) {
      throw new IllegalArgumentException("--power must be in (0, 1], got " + power);
    }
    if (penalty != null && !(penalty > 0 && Double.isFinite(penalty))) {
      throw new IllegalArgumentException("--penalty must be finite and > 0, got " + penalty + " (at c = 0 the"
          + " relaxed KL of eq. 5 tends to 0 as the relaxation grows and has no minimiser)");
    }
    boolean epFamily = List.of("ep", "qp", "power-ep", "rep").contains(name);
    SiteLoop.NegativeSitePrecision policy = null;
    if (negativeSites != null) {
      if (!epFamily) {
        throw new IllegalArgumentException("--negative-sites applies to ep, qp, power-ep and rep, not to " + name);
      }
      policy = switch (negativeSites) {
        case "keep" -> SiteLoop.NegativeSitePrecision.KEEP;
        case "clip" -> SiteLoop.NegativeSitePrecision.CLIP;
        default -> throw new IllegalArgumentException("--negative-sites must be keep or clip, got '" + negativeSites
            + "'");
      };
    }
    if (policy == null) {
      if (name.equals("power-ep") && power != null) {
        return powerEp(power);
      }
      if (name.equals("rep") && penalty != null) {
        return relaxedEp(penalty);
      }
      return byName(name);
    }
    return switch (name) {
      case "ep" -> InferenceMethod.ep(Ep.Options.defaults().withNegativeSites(policy));
      case "qp" -> qp(Ep.Options.defaults().withNegativeSites(policy), QpGradientKind.IMPLICIT);
      case "power-ep" -> powerEp(power == null ? DEFAULT_POWER : power,
          SiteLoop.Options.defaults().withNegativeSites(policy));
      default -> relaxedEp(RelaxedEp.of(penalty == null ? DEFAULT_PENALTY : penalty),
          SiteLoop.Options.defaults().withNegativeSites(policy));
    };
  }
}
