package org.approxgp.inference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.likelihood.Likelihood;
import org.approxgp.likelihood.NoisyStep;
import org.approxgp.likelihood.Probit;
import org.junit.jupiter.api.Test;

/**
 * Every EP-family rule (EP, Power EP u ∈ {0.5, 0.8}, Relaxed EP with each objective at c ∈ {0.1, 20}) under
 * both negative-site policies, on 8 seeded random draws of the hyperparameters (log ℓ ∈ [−1.5, 1.5],
 * log σ² ∈ [−2, 3], noisy step ε ∈ [0.05, 0.25] or probit; n = 24, 20 % flipped labels): every run ends
 * with finite mean, variances, α trace and log evidence and a verdict (converged xor diverged), or
 * with an {@link InferenceException} carrying diagnostics (a posterior that is not positive definite,
 * an improper cavity at the end). Never a NaN, never another exception.
 */
class EpFamilyRandomizedTest {

  @Test
  void everyRuleIsFiniteOrFailsTyped() {
    List<SiteUpdate<?>> rules =
        new ArrayList<>(List.of(MomentMatching.ep(), PowerEp.of(0.5), PowerEp.of(0.8)));
    for (RelaxedEp.Objective o : RelaxedEp.Objective.values()) {
      rules.add(RelaxedEp.of(0.1, o, RelaxedEp.SiteReading.B));
      rules.add(RelaxedEp.of(20, o, RelaxedEp.SiteReading.B));
    }
    rules.add(RelaxedEp.of(0.1, RelaxedEp.Objective.CLEAN, RelaxedEp.SiteReading.A));
    UniformRandomProvider rng = RandomSource.SPLIT_MIX_64.create(20261123L);
    int runs = 0;
    int converged = 0;
    int diverged = 0;
    int failed = 0;
    for (int draw = 0; draw < 8; draw++) {
      double ell = Math.exp(-1.5 + 3 * rng.nextDouble());
      double sf2 = Math.exp(-2 + 5 * rng.nextDouble());
      Likelihood lik = draw % 4 == 3 ? Probit.get() : NoisyStep.of(0.05 + 0.2 * rng.nextDouble());
      NoisyData d = NoisyData.of(100 + draw, 24, 0.2);
      Problem p = Problem.of(SquaredExponential.iso(ell, sf2), d.x, d.y, lik);
      for (SiteLoop.NegativeSitePrecision pol : SiteLoop.NegativeSitePrecision.values()) {
        SiteLoopOptions opt = SiteLoopOptions.defaults().withMaxSweeps(60).withNegativeSites(pol);
        for (SiteUpdate<?> rule : rules) {
          runs++;
          String what = rule.name() + " " + pol + " on " + lik + ", ell=" + ell + ", sf2=" + sf2;
          Posterior post;
          try {
            post = SiteLoop.run(p, rule, opt, null);
          } catch (InferenceException e) {
            assertNotNull(e.diagnostics(), what);
            failed++;
            continue;
          }
          Diagnostics dg = post.diagnostics();
          assertTrue(dg.converged() != dg.diverged(), what + ": " + dg);
          converged += dg.converged() ? 1 : 0;
          diverged += dg.diverged() ? 1 : 0;
          assertEquals(dg.iterations(), dg.alphaTrace().size(), what);
          assertTrue(Double.isFinite(post.logEvidence()), what);
          for (double v : dg.alphaTrace()) {
            assertTrue(Double.isFinite(v), what);
          }
          for (int i = 0; i < p.size(); i++) {
            assertTrue(Double.isFinite(post.mean()[i]), what);
            assertTrue(post.variance()[i] > 0 && Double.isFinite(post.variance()[i]), what);
          }
          for (double g : post.logEvidenceGradient()) {
            assertTrue(Double.isFinite(g), what);
          }
        }
      }
    }
    System.out.printf(
        "EP family randomized: %d runs, %d converged, %d diverged, %d typed failures%n",
        runs, converged, diverged, failed);
    assertTrue(converged > runs / 2, converged + " of " + runs + " converged");
  }
}
