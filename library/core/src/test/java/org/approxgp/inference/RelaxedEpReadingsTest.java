package org.approxgp.inference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.approxgp.likelihood.NoisyStep;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Relaxed EP's {@link RelaxedEp.Relaxation} and {@link RelaxedEp.PenaltyForm}: the default is nonnegative b (eq. 11)
 * with eq. 35's c|b|, bit for bit; nonnegative never chooses b &lt; 0 where the signed search does; eq. 4's penalty
 * is c|b|(|mᵢ| + ½).
 */
@Tag("rounding")
class RelaxedEpReadingsTest {

  /** A cavity of the noisy step (y = +1, cavity on the wrong side) where today's search picks b &lt; 0. */
  private static final SiteUpdate.Cavity CAV =
      new SiteUpdate.Cavity(1 / 1.893592372136488, -0.3004089243133073 / 1.893592372136488);

  private static final double SITE_MEAN = -1.9460554688414937;

  @Test
  void defaultIsNonnegativeAndEq35() {
    RelaxedEp rep = RelaxedEp.of(0.01);
    assertEquals(RelaxedEp.Relaxation.NONNEGATIVE, rep.relaxation());
    assertEquals(RelaxedEp.PenaltyForm.EQ35, rep.penaltyForm());
    assertEquals(RelaxedEp.Search.LOCAL, rep.search());
    assertEquals("rep(c=0.01)", rep.name());
    assertEquals(
        "rep(c=0.01, reading C, signed, eq4, global)",
        RelaxedEp.of(
                0.01,
                RelaxedEp.Objective.CLEAN,
                RelaxedEp.SiteReading.C,
                RelaxedEp.Relaxation.SIGNED,
                RelaxedEp.PenaltyForm.EQ4,
                RelaxedEp.Search.GLOBAL)
            .name());
  }

  @Test
  void nonnegativeNeverRelaxesBelowZero() {
    NoisyStep lik = NoisyStep.of(0.1);
    RelaxedEp signed = RelaxedEp.of(
        0.01,
        RelaxedEp.Objective.CLEAN,
        RelaxedEp.SiteReading.B,
        RelaxedEp.Relaxation.SIGNED,
        RelaxedEp.PenaltyForm.EQ35);
    RelaxedEp nonneg = RelaxedEp.of(
        0.01,
        RelaxedEp.Objective.CLEAN,
        RelaxedEp.SiteReading.B,
        RelaxedEp.Relaxation.NONNEGATIVE,
        RelaxedEp.PenaltyForm.EQ35);
    double bs = signed.lineSearch(lik, 1, CAV, SITE_MEAN);
    double bn = nonneg.lineSearch(lik, 1, CAV, SITE_MEAN);
    assertTrue(bs < -0.1, "signed search picks b = " + bs);
    assertTrue(bn >= 0, "nonnegative search picks b = " + bn);
    assertEquals(
        bn, RelaxedEp.of(0.01).lineSearch(lik, 1, CAV, SITE_MEAN), 0.0, "default = nonnegative");
  }

  @Test
  void eq4PenaltyIsTheL1NormOfTheNaturalParameters() {
    NoisyStep lik = NoisyStep.of(0.1);
    double c = 0.7;
    RelaxedEp eq35 = RelaxedEp.of(c);
    RelaxedEp eq4 = RelaxedEp.of(
        c,
        RelaxedEp.Objective.CLEAN,
        RelaxedEp.SiteReading.B,
        RelaxedEp.DEFAULT_RELAXATION,
        RelaxedEp.PenaltyForm.EQ4);
    for (double b : new double[] {-0.3, 0, 0.2, 1.5}) {
      // η = (b m, −b/2): |η|₁ = |b| |m| + |b|/2
      double extra = c * Math.abs(b) * (Math.abs(SITE_MEAN) + 0.5) - c * Math.abs(b);
      assertEquals(
          eq35.objective(lik, 1, CAV, SITE_MEAN, b) + extra,
          eq4.objective(lik, 1, CAV, SITE_MEAN, b),
          1e-14,
          "b = " + b);
    }
  }

  /** A whole run: nonnegative is the default run bit for bit and converges with every bᵢ ≥ 0. */
  @Test
  void runsOnANoisyProblem() {
    double[][] x = SmallProblems.inputs(11, 30, 2);
    double[] y = SmallProblems.labels(12, x);
    for (int i = 0; i < y.length; i += 5) {
      y[i] = -y[i]; // outliers
    }
    Problem p = Problem.of(SmallProblems.iso(), x, y, NoisyStep.of(0.15));
    SiteLoopOptions o =
        SiteLoopOptions.defaults().withNegativeSites(SiteLoop.NegativeSitePrecision.KEEP);
    Posterior def = SiteLoop.run(p, RelaxedEp.of(0.05), o, null);
    Posterior explicit = SiteLoop.run(
        p,
        RelaxedEp.of(
            0.05,
            RelaxedEp.Objective.CLEAN,
            RelaxedEp.SiteReading.B,
            RelaxedEp.Relaxation.NONNEGATIVE,
            RelaxedEp.PenaltyForm.EQ35),
        o,
        null);
    for (int i = 0; i < y.length; i++) {
      assertEquals(def.sites().tau()[i], explicit.sites().tau()[i], 0.0);
      assertEquals(def.sites().nu()[i], explicit.sites().nu()[i], 0.0);
    }
    RelaxedEp nonneg = RelaxedEp.of(
        0.05,
        RelaxedEp.Objective.CLEAN,
        RelaxedEp.SiteReading.B,
        RelaxedEp.Relaxation.NONNEGATIVE,
        RelaxedEp.PenaltyForm.EQ35);
    RelaxedEp.State st = nonneg.start(p);
    Posterior post = SiteLoop.run(
        p,
        new SiteUpdate<RelaxedEp.State>() {
          @Override
          public String name() {
            return nonneg.name();
          }

          @Override
          public RelaxedEp.State start(Problem problem) {
            return st;
          }

          @Override
          public Cavity cavity(
              RelaxedEp.State s, int i, double mean, double variance, double tau, double nu) {
            return nonneg.cavity(s, i, mean, variance, tau, nu);
          }

          @Override
          public Site propose(RelaxedEp.State s, Problem problem, int i, Cavity cavity) {
            return nonneg.propose(s, problem, i, cavity);
          }

          @Override
          public double logZ(
              RelaxedEp.State s,
              Problem problem,
              int i,
              double mean,
              double variance,
              double tau,
              double nu) {
            return nonneg.logZ(s, problem, i, mean, variance, tau, nu);
          }
        },
        o,
        null);
    assertTrue(Double.isFinite(post.logEvidence()));
    for (double b : st.relaxation()) {
      assertTrue(b >= 0, "b = " + b);
    }
  }

  /**
   * The new q must stay proper: its marginal precision is 1/σ̂² − b in reading B and 1/σ̂² − 2b in reading C (1/σ̂² in
   * A), σ̂² the tilted variance at the relaxed cavity; beyond that bound G(b) is +∞ so no search can choose it.
   */
  @Test
  void theNewPosteriorStaysProper() {
    NoisyStep lik = NoisyStep.of(0.1);
    for (RelaxedEp.SiteReading r : RelaxedEp.SiteReading.values()) {
      RelaxedEp rep = RelaxedEp.of(
          0.01,
          RelaxedEp.Objective.CLEAN,
          r,
          RelaxedEp.Relaxation.NONNEGATIVE,
          RelaxedEp.PenaltyForm.EQ35);
      int removed = r == RelaxedEp.SiteReading.A ? 0 : r == RelaxedEp.SiteReading.B ? 1 : 2;
      int finite = 0;
      int points = 0;
      for (double b = 0.05; b < 20; b *= 1.3) {
        points++;
        double tr = CAV.tau() + b;
        double s2 = lik.tilted(1, (CAV.nu() + b * SITE_MEAN) / tr, 1 / tr).variance();
        double g = rep.objective(lik, 1, CAV, SITE_MEAN, b);
        boolean proper = 1 / s2 - removed * b > 0;
        assertEquals(
            proper, Double.isFinite(g), r + " at b = " + b + ": G = " + g + ", σ̂² = " + s2);
        finite += proper ? 1 : 0;
      }
      assertTrue(finite > 0, r + ": some b is admissible");
      if (r != RelaxedEp.SiteReading.A) {
        assertTrue(finite < points, r + ": the bound must bind somewhere on the scan");
      }
    }
  }
}
