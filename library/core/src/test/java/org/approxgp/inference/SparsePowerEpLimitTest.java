package org.approxgp.inference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.approxgp.likelihood.Probit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The α → 0 limit of sparse Power EP for probit classification (Bui, Yan &amp; Turner 2017, §3): its energy tends to
 * the variational bound at its optimum over q(u), linearly in α. The bound is computed by an independent
 * implementation ({@link SvgpProbitOracle}: L-BFGS on q(u) with Gauss–Hermite expectations, no sites); with Z = X
 * the oracle is also the exact {@link Vb}'s ELBO.
 *
 * <p>Measured (n = 40, two inputs): F(α) − L* = c α with c = 0.0159 (Z = X) and 4.22 (M = 10) constant to 3 digits
 * from α = 0.1 to 1e-4. Below α ≈ 1e-5 the site update (1/σ̂² − τ₋)/α divides quadrature rounding by α and the
 * site iteration stalls near 1e-10, so the limit is taken by Richardson extrapolation from α = 1e-3 and 1e-4
 * (remainder O(α₁α₂), measured 1.2e-7 at M = 10).
 */
class SparsePowerEpLimitTest {

  private static final SiteLoopOptions OPT =
      SiteLoopOptions.defaults().withTolerance(1e-11).withGradient(false);

  @ParameterizedTest(name = "M={0}")
  @ValueSource(ints = {10, 40})
  void smallPowerApproachesTheVariationalBound(int m) {
    double[][] x = SmallProblems.inputs(31, 40, 2);
    double[] y = SmallProblems.labels(32, x);
    Problem p = Problem.of(SmallProblems.ard(2), x, y, Probit.get());
    double[][] z = m == x.length ? x : Arrays.copyOf(SmallProblems.inputs(33, m, 2), m);
    double bound = SvgpProbitOracle.optimum(p.kernel(), x, y, z, 0.0);
    if (m == x.length) {
      Posterior vb =
          Vb.infer(p, VbOptions.defaults().withTolerance(1e-11).withGradient(false), null);
      assertTrue(vb.diagnostics().converged(), vb.diagnostics().toString());
      assertEquals(vb.logEvidence(), bound, 1e-9, "the oracle against Vb's ELBO at Z = X");
    }
    double a1 = 1e-3;
    double a2 = 1e-4;
    SparsePosterior q1 = SparseSiteLoop.run(new SparseProblem(p, z), PowerEp.of(a1), OPT, null);
    SparsePosterior q2 = SparseSiteLoop.run(new SparseProblem(p, z), PowerEp.of(a2), OPT, null);
    assertTrue(q1.diagnostics().converged(), q1.diagnostics().toString());
    assertTrue(q2.diagnostics().converged(), q2.diagnostics().toString());
    double slope1 = (q1.logEvidence() - bound) / a1;
    double slope2 = (q2.logEvidence() - bound) / a2;
    double limit = (a1 * q2.logEvidence() - a2 * q1.logEvidence()) / (a1 - a2);
    System.out.printf(
        "M=%d: bound %.10f, F(%.0e) %.10f, F(%.0e) %.10f, (F - L*)/alpha %.5f %.5f, extrapolated %.10f"
            + " (%.2e)%n",
        m, bound, a1, q1.logEvidence(), a2, q2.logEvidence(), slope1, slope2, limit, limit - bound);
    // linear in α towards L*: an offset δ in the limit would change the ratio by δ (1/α₂ − 1/α₁)
    assertEquals(
        slope1, slope2, 1e-2 * Math.max(1.0, Math.abs(slope1)), "(F(α) − L*)/α at 1e-3 and 1e-4");
    assertEquals(bound, limit, 1e-6, "Richardson limit of F(α) as α → 0");
  }
}
