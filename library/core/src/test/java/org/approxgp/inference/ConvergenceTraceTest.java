package org.approxgp.inference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.approxgp.likelihood.Probit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The per-sweep α trace R(iter) = ‖α_iter − α_{iter−1}‖₂ (Qi &amp; Guo Fig. 3) and the divergence verdict. */
@Tag("rounding")
class ConvergenceTraceTest {

  private static Problem probit() {
    double[][] x = SmallProblems.inputs(5, 30, 3);
    return Problem.of(SmallProblems.iso(), x, SmallProblems.labels(6, x), Probit.get());
  }

  @Test
  void alphaTraceIsTheChangeOfAlphaBetweenSweeps() {
    Problem p = probit();
    SiteLoopOptions o = SiteLoopOptions.defaults().withGradient(false);
    Posterior full = SiteLoop.run(p, MomentMatching.ep(), o, null);
    Diagnostics d = full.diagnostics();
    assertTrue(d.converged() && !d.diverged(), d.toString());
    assertEquals("", d.message());
    assertEquals(d.iterations(), d.alphaTrace().size());
    // independent: runs capped at s sweeps give α_s; α_0 = 0 (the prior's sites)
    double[] prev = new double[p.size()];
    for (int s = 1; s <= 4; s++) {
      Posterior capped = SiteLoop.run(p, MomentMatching.ep(), o.withMaxSweeps(s), null);
      double[] a = capped.alpha();
      assertEquals(LoopRun.distance(a, prev), d.alphaTrace().get(s - 1), 1e-12, "R(" + s + ")");
      assertTrue(capped.diagnostics().diverged(), "capped run is a divergence verdict");
      assertTrue(
          capped.diagnostics().message().contains("sweep cap " + s),
          capped.diagnostics().message());
      prev = a;
    }
    assertTrue(
        d.alphaTrace().get(d.iterations() - 1) < 1e-3, "R at convergence: " + d.alphaTrace());
  }

  @Test
  void oscillationRule() {
    // a converging sequence keeps setting new minima, however slowly
    List<Double> slow = new ArrayList<>();
    for (int s = 0; s < 300; s++) {
      slow.add(Math.pow(0.999, s));
      assertFalse(LoopRun.oscillating(slow, 50));
    }
    // a 2-cycle: after its first low (0.4 at sweep 3) it never sets a new minimum; flagged once
    // that low
    // has left the window of the last 50 sweeps, i.e. after sweep 53
    List<Double> cycle = new ArrayList<>(List.of(5.0, 3.0));
    for (int s = 3; s <= 53; s++) {
      cycle.add(s % 2 == 1 ? 0.4 : 0.7);
      assertEquals(s == 53, LoopRun.oscillating(cycle, 50), "sweep " + s);
    }
    assertFalse(LoopRun.oscillating(cycle, 0), "window 0 is off");
  }
}
