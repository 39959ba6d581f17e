package org.approxgp.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.approxgp.inference.Ep;
import org.approxgp.inference.Posterior;
import org.approxgp.inference.Problem;
import org.approxgp.inference.Qp;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.likelihood.Probit;
import org.junit.jupiter.api.Test;

/**
 * {@code Registry.inference("qp")} uses the implicit-differentiation gradient: same posterior and evidence as
 * {@link Qp#infer}, and the same gradient as the central-difference method {@link Methods.QpGradientKind#NUMERICAL}
 * (h = 1e-4 in log θ, second order: its truncation error is ~h² L‴/6 ≈ 1e-9 relative here, its round-off
 * ~1e-14/h ≈ 1e-10 at the QP tolerance 1e-11 used).
 */
class QpMethodGradientTest {

  static Problem problem() {
    double[][] x = new double[36][2];
    double[] y = new double[36];
    for (int i = 0; i < 36; i++) {
      x[i][0] = -2 + 4 * ((i * 7) % 36) / 35.0;
      x[i][1] = -2 + 4 * ((i * 11) % 36) / 35.0;
      y[i] = Math.sin(1.3 * x[i][0] + 0.7 * x[i][1]) + 0.4 * Math.cos(5.0 * i) >= 0 ? 1 : -1;
    }
    return Problem.of(SquaredExponential.ard(new double[] {0.8, 1.4}, 2.5), x, y, Probit.get());
  }

  @Test
  void byNameIsTheImplicitGradientAndAgreesWithCentralDifferences() {
    Problem p = problem();
    Posterior viaName = Registry.inference("qp").infer(p, null);
    Posterior plain = Qp.infer(p, Qp.options(), null);
    assertEquals("qp", Registry.inference("qp").name());
    assertEquals(plain.logEvidence(), viaName.logEvidence(), 0.0);
    Posterior implicit = Qp.inferWithImplicitGradient(p, Qp.options(), null);
    double[] gName = viaName.logEvidenceGradient();
    double[] gImplicit = implicit.logEvidenceGradient();
    for (int j = 0; j < gName.length; j++) {
      assertEquals(gImplicit[j], gName[j], 0.0, "byName(\"qp\") is the implicit gradient, θ" + j);
    }
    Ep.Options tight = Qp.options().withLoop(l -> l.withTolerance(1e-11));
    double[] gi =
        Methods.qp(tight, Methods.QpGradientKind.IMPLICIT).infer(p, null).logEvidenceGradient();
    double[] gn =
        Methods.qp(tight, Methods.QpGradientKind.NUMERICAL).infer(p, null).logEvidenceGradient();
    double[] g527 = Qp.infer(p, tight, null).logEvidenceGradient();
    double miss = 0;
    for (int j = 0; j < gi.length; j++) {
      double scale = Math.max(1, Math.abs(gn[j]));
      assertEquals(gn[j], gi[j], 1e-7 * scale, "θ" + j);
      miss = Math.max(miss, Math.abs(g527[j] - gn[j]) / scale);
    }
    // the comparison can tell the gradients apart: eq. 5.27 misses by far more than the tolerance
    assertEquals(true, miss > 1e-5, "eq. 5.27 within " + miss);
  }
}
