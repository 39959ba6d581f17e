package org.approxgp.inference;

/**
 * An exact method's site rule carried to inducing points: the {@link SiteUpdate} of {@link SparseSiteLoop}, on the
 * variable gₙ = E[fₙ | u] = m₀ + kₙᵤ K_uu⁻¹ (u − m₀) that the site tₙ(u) depends on, built per run from the exact
 * rule (EP, QP, Lp: {@link MomentMatching}; Power EP: {@link PowerEp}, Minka's variant), its power α and the FITC
 * conditional variances dₙ = kₙₙ − kₙᵤ K_uu⁻¹ kᵤₙ. Derivation: {@code docs/derivations/sparse-power-ep.md}.
 *
 * <p><b>Cavity</b> in g: the exact rule's, from the marginal q(gₙ) = N(m_g, V_g) and the site (τ̃ₙ, ν̃ₙ):
 * τ₋ = 1/V_g − α τ̃ₙ, ν₋ = m_g/V_g − α ν̃ₙ (Bui et al. 2017, §3, the fractional cavity q/tₙ^α).
 *
 * <p><b>Tilted and projection.</b> The tilted distribution q^{\n}(u) p(fₙ | u) p(yₙ | fₙ)^α with p(fₙ | u) =
 * N(fₙ | gₙ, dₙ) has the fₙ-marginal N(fₙ | ν₋/τ₋, 1/τ₋ + dₙ) p(yₙ | fₙ)^α: the exact method's tilted distribution
 * at the cavity inflated by dₙ, natural parameters τ_f = τ₋/(1 + dₙτ₋), ν_f = ν₋/(1 + dₙτ₋). The exact rule projects
 * it and returns the fₙ-site (a, b) = ((1/σ̂² − τ_f)/α, (μ̂/σ̂² − ν_f)/α). Carried back through p(fₙ | u), the
 * Gaussian factor exp(−½ α a f² + α b f) in fₙ is exp(−½ τ g² + ν g) in gₙ with τ = αa/(1 + dₙαa),
 * ν = αb/(1 + dₙαa) (its variance plus dₙ), and the site (q_new/q^{\n})^{1/α} is
 * <pre>
 * τ̃ₙ = a/(1 + dₙ α a),  ν̃ₙ = b/(1 + dₙ α a).
 * </pre>
 * For the KL projection this is exactly the moment matching of the M-dimensional tilted distribution of u (u given
 * fₙ is the same Gaussian under the tilted distribution and under the projection, so their moments of u agree when
 * those of fₙ do). For the W2 projection (QP) it is the projection of the fₙ-marginal, the same local projection
 * the exact QP makes; it is not the W2 projection of the tilted distribution of u. With dₙ = 0 (Z = X) every line
 * is the exact rule's.
 *
 * <p><b>Evidence term.</b> log sₙ = (1/α)(log Cₙ(α) + log Ẑₙ(α)) as in {@link PowerEp} (Minka 2004 §3), with
 * Cₙ(α) = ∫ N(g | m_g, V_g) t̃ₙ(g)^{−α} dg in g and Ẑₙ(α) = ∫ N(f | ν₋/τ₋, 1/τ₋ + dₙ) p(yₙ | f)^α df the exact rule's
 * tilted normaliser at the inflated cavity; summed with the Gaussian part this is Bui et al.'s Power-EP energy
 * (§3): φ(q) − φ(p) + (1/α) Σₙ [log Ẑₙ + φ(q^{\n}) − φ(q)], φ the log-partition of a Gaussian.
 */
final class SparseSiteUpdate<S> implements SiteUpdate<S> {

  private final SiteUpdate<S> rule;
  private final double power;
  private final double[] d;

  private SparseSiteUpdate(SiteUpdate<S> rule, double power, double[] d) {
    this.rule = rule;
    this.power = power;
    this.d = d;
  }

  /**
   * The rule on inducing points with conditional variances {@code d} (not copied; the loop's own array).
   *
   * @throws IllegalArgumentException for a rule whose power the sparse loop does not know (see {@link #powerOf})
   */
  static <S> SparseSiteUpdate<S> of(SiteUpdate<S> rule, double[] d) {
    return new SparseSiteUpdate<>(rule, powerOf(rule), d);
  }

  /**
   * The power α a rule's cavity removes: 1 for {@link MomentMatching} (EP, QP, Lp), u for {@link PowerEp} with
   * Minka's fractional cavity. Other rules (Relaxed EP, Power EP's appendix-C variant, whose cavity removes the
   * whole site while the site is powered) are refused: their sparse forms are not derived here.
   */
  static double powerOf(SiteUpdate<?> rule) {
    if (rule instanceof MomentMatching) {
      return 1.0;
    }
    if (rule instanceof PowerEp p && p.variant() == PowerEp.Variant.MINKA) {
      return p.power();
    }
    throw new IllegalArgumentException(
        "the sparse site loop takes EP, QP or Lp (moment matching under a"
            + " projection) or Power EP with Minka's fractional cavity; got "
            + (rule == null ? "null" : rule.name()));
  }

  double power() {
    return power;
  }

  @Override
  public String name() {
    return "sparse-" + rule.name();
  }

  @Override
  public S start(Problem problem) {
    return rule.start(problem);
  }

  @Override
  public Cavity cavity(
      S state, int i, double mean, double variance, double siteTau, double siteNu) {
    return rule.cavity(state, i, mean, variance, siteTau, siteNu);
  }

  /** The cavity of fₙ: the cavity of gₙ with dₙ added to its variance. */
  private Cavity inflated(int i, Cavity g) {
    double k = 1 + d[i] * g.tau();
    return new Cavity(g.tau() / k, g.nu() / k);
  }

  @Override
  public Site propose(S state, Problem problem, int i, Cavity cavity) {
    Site f = rule.propose(state, problem, i, inflated(i, cavity));
    // τ̃ = a/(1 + dαa), ν̃ = b/(1 + dαa): the fₙ-site carried through p(fₙ | u) (class comment)
    double k = 1 + d[i] * power * f.tau();
    if (!(k > 0)) {
      throw new ArithmeticException("the site on f" + i + " has precision " + power * f.tau()
          + " below -1/d = " + (-1 / d[i]) + ": it has no Gaussian image on u");
    }
    return new Site(f.tau() / k, f.nu() / k);
  }

  /**
   * log Ẑₙ(α) at the inflated cavity: the exact rule's {@code logZ} at a zero site, whose cavity is then the
   * marginal it is given (τ₋ = 1/v − α·0).
   */
  @Override
  public double logZ(
      S state,
      Problem problem,
      int i,
      double mean,
      double variance,
      double siteTau,
      double siteNu) {
    Cavity f = inflated(i, cavity(state, i, mean, variance, siteTau, siteNu));
    return rule.logZ(state, problem, i, f.mean(), f.variance(), 0, 0);
  }

  /**
   * log sₙ = (1/α)(log Cₙ(α) + log Ẑₙ(α)) with the site and cavity about m₀,
   * log Cₙ(α) = −½ log(V_g τ₋) + ½ ν₋²/τ₋ − ½ (m_g − m₀)²/V_g (class comment; {@link PowerEp}'s, here also for
   * α = 1, where it equals {@link SiteUpdate#logScale}'s form).
   */
  @Override
  public double logScale(
      S state,
      Problem problem,
      int i,
      double mean,
      double variance,
      double siteTau,
      double siteNu) {
    Cavity c = cavity(state, i, mean, variance, siteTau, siteNu);
    if (!(c.tau() > 0) || !Double.isFinite(c.tau()) || !Double.isFinite(c.nu())) {
      throw new ArithmeticException("cavity (τ₋, ν₋) = (" + c.tau() + ", " + c.nu()
          + ") at the final posterior is improper: the log evidence is undefined");
    }
    double m0 = problem.priorMean();
    double mc = mean - m0;
    // −½ log(V τ₋) + ½ ν₋c²/τ₋ − ½ mc²/V with ν₋c = mc/V − α ν̃c (about m₀, ν̃c = ν̃ − τ̃ m₀), τ₋ =
    // 1/(rV),
    // r = 1/(1 − α τ̃ V): the 1/V terms cancel, leaving ½ log r + ½ r α (τ̃ mc² − 2 ν̃c mc + α ν̃c²
    // V), finite as
    // V → 0 (a row far from every inducing input, where ν₋² overflowed)
    double nuc = siteNu - siteTau * m0;
    double r = 1 / (1 - power * siteTau * variance);
    double logC = 0.5 * Math.log(r)
        + 0.5 * r * power * (siteTau * mc * mc - 2 * nuc * mc + power * nuc * nuc * variance);
    Cavity f = inflated(i, c);
    double logZ = rule.logZ(state, problem, i, f.mean(), f.variance(), 0, 0);
    return (logC + logZ) / power;
  }

  @Override
  public int relaxedSites(S state) {
    return rule.relaxedSites(state);
  }
}
