package org.approxgp.inference;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.approxgp.kernel.Kernel;
import org.approxgp.likelihood.Probit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The θ-gradient {@link Vb#infer} returns is computed from the final state's factors in the form
 * M = sym(g_m αᵀ) − ½ααᵀ − ½R + A diag(g_v + ½λ) Aᵀ (identity AΛAᵀ + RKR = R, see {@code Vb.thetaGradient}).
 * At arbitrary sites — away from the optimum, where g_v + ½λ ≠ 0 and g_m ≠ α, so every term counts — it must
 * equal the direct formula M = sym(g_m αᵀ) + A diag(g_v) Aᵀ − ½ααᵀ − ½RKR of {@link VbElbo#of} (itself checked
 * against central differences in {@code EvidenceGradientTest}). Seeded random sites (including zero
 * precisions), iso and ARD kernels, a non-zero prior mean.
 */
class VbGradientFormTest {

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3})
  void stateFormEqualsTheDirectFormulaOffTheOptimum(long seed) {
    for (Kernel k : new Kernel[] {SmallProblems.iso(), SmallProblems.ard(3)}) {
      double[][] x = SmallProblems.inputs(5, 24, 3);
      Problem p = new Problem(k, x, SmallProblems.labels(5, x), Probit.get(), 0.2);
      int n = p.size();
      UniformRandomProvider rng = RandomSource.SPLIT_MIX_64.create(seed);
      double[] tau = new double[n];
      double[] nu = new double[n];
      for (int i = 0; i < n; i++) {
        // a few sites at zero precision (clipped or cold), the rest in (0.05, 2.05)
        tau[i] = i % 7 == 3 ? 0 : 0.05 + 2 * rng.nextDouble();
        nu[i] = 2 * rng.nextDouble() - 1;
      }
      Vb.SiteGradient fast = Vb.thetaGradientAt(p, tau, nu);
      VbElbo.Evaluation direct = VbElbo.of(p, fast.alpha(), tau, true);
      for (int j = 0; j < direct.gradTheta.length; j++) {
        assertEquals(
            direct.gradTheta[j],
            fast.gradTheta()[j],
            1e-10 * (1 + Math.abs(direct.gradTheta[j])),
            k.name() + " θ" + j);
      }
    }
  }
}
