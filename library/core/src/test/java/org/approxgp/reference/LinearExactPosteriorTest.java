package org.approxgp.reference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.approxgp.likelihood.NoisyStep;
import org.approxgp.likelihood.Probit;
import org.approxgp.special.Normal;
import org.junit.jupiter.api.Test;

/**
 * {@link LinearExactPosterior}: the nested quadrature against an independent closed form (noisy step) and an
 * analytic one-point case (probit), and importance sampling against the quadrature within its standard errors.
 */
class LinearExactPosteriorTest {

  /** Five 2-D points in two classes, the last one mislabelled (on the +1 side, labelled −1), as in REP Fig. 1. */
  static final double[][] X = {{1.0, 0.5}, {0.8, 1.2}, {-1.0, -0.3}, {-0.6, -1.1}, {1.2, -0.4}};

  static final double[] Y = {1, 1, -1, -1, -1};

  /**
   * For the noisy step the likelihood is constant on each arc of angles between consecutive lines wᵀxᵢ = 0,
   * L(θ) = Πᵢ (ε + (1 − 2ε) H(yᵢ xᵢᵀu(θ))), and the radial integrals are Gaussian moments:
   * ∫₀^∞ r^{k+1} e^{−r²/(2σ²)} dr/(2πσ²) = 1/(2π), σ√(π/2)/(2π), σ²/π for k = 0, 1, 2. So
   * Z = (1/2π) Σ L_arc Δθ, Z E[w] = σ√(π/2)/(2π) Σ L_arc ∫u dθ, Z E[wwᵀ] = (σ²/π) Σ L_arc ∫uuᵀ dθ with the arc
   * integrals of cos, sin, cos², sin cos, sin² in closed form. An exact value computed without any quadrature.
   *
   * @return {log Z, m1, m2, c11, c12, c22}
   */
  static double[] closedFormNoisyStep(double eps, double sigma2) {
    LinearExactPosterior p = LinearExactPosterior.of(X, Y, sigma2, NoisyStep.of(eps));
    double[] cuts = p.angularBreakpoints();
    double[] t = Arrays.copyOf(cuts, cuts.length + 2);
    t[cuts.length] = 0;
    t[cuts.length + 1] = 2 * Math.PI;
    Arrays.sort(t);
    double sigma = Math.sqrt(sigma2);
    double z = 0;
    double[] m = new double[2];
    double[] s = new double[3];
    for (int k = 0; k + 1 < t.length; k++) {
      double a = t[k];
      double b = t[k + 1];
      if (b <= a) {
        continue;
      }
      double mid = 0.5 * (a + b);
      double l = 1;
      for (int i = 0; i < X.length; i++) {
        double c = X[i][0] * Math.cos(mid) + X[i][1] * Math.sin(mid);
        l *= Y[i] * c > 0 ? 1 - eps : eps;
      }
      z += l * (b - a) / (2 * Math.PI);
      double r1 = sigma * Math.sqrt(Math.PI / 2) / (2 * Math.PI);
      m[0] += l * r1 * (Math.sin(b) - Math.sin(a));
      m[1] += l * r1 * (Math.cos(a) - Math.cos(b));
      double r2 = sigma2 / Math.PI;
      s[0] += l * r2 * ((b - a) / 2 + (Math.sin(2 * b) - Math.sin(2 * a)) / 4);
      s[1] += l * r2 * (Math.sin(b) * Math.sin(b) - Math.sin(a) * Math.sin(a)) / 2;
      s[2] += l * r2 * ((b - a) / 2 - (Math.sin(2 * b) - Math.sin(2 * a)) / 4);
    }
    double m1 = m[0] / z;
    double m2 = m[1] / z;
    return new double[] {
      Math.log(z), m1, m2, s[0] / z - m1 * m1, s[1] / z - m1 * m2, s[2] / z - m2 * m2
    };
  }

  static double[] flat(LinearExactPosterior.Estimate e) {
    double[][] c = e.covariance();
    return new double[] {e.logEvidence(), e.mean()[0], e.mean()[1], c[0][0], c[0][1], c[1][1]};
  }

  /** The nested quadrature (tolerance 1e-11) equals the arc closed form to 1e-9 (relative to the scale 1). */
  @Test
  void quadratureEqualsArcClosedFormForTheNoisyStep() {
    for (double eps : new double[] {0.05, 0.2, 0.4}) {
      for (double sigma2 : new double[] {0.5, 1, 4}) {
        double[] exact = closedFormNoisyStep(eps, sigma2);
        LinearExactPosterior.Estimate q =
            LinearExactPosterior.of(X, Y, sigma2, NoisyStep.of(eps)).quadrature();
        double[] got = flat(q);
        for (int k = 0; k < 6; k++) {
          assertEquals(
              exact[k],
              got[k],
              1e-9 * Math.max(1, Math.abs(exact[k])),
              "eps=" + eps + " s2=" + sigma2 + " k=" + k + " " + q);
        }
        assertTrue(q.meanError()[0] < 1e-8 && q.logEvidenceError() < 1e-8, q.toString());
      }
    }
  }

  /**
   * Probit, one point x = (a, b), y: f = wᵀx ~ N(0, σ²|x|²) a priori, so Z = Φ(0) = ½ and (R&amp;W eq. 3.58 with
   * m = 0) E[f] = y σ²|x|² φ(0)/(Φ(0)√(1 + σ²|x|²)); w's mean is E[f] x/|x|² and its covariance
   * σ²I + (Var[f] − σ²|x|²) x xᵀ/|x|⁴ with Var[f] = v − v² φ(0)²/(Φ(0)²(1 + v)), v = σ²|x|².
   */
  @Test
  void quadratureEqualsAnalyticProbitOnePoint() {
    double[][] x = {{0.6, -1.3}};
    double sigma2 = 1.7;
    double n2 = 0.36 + 1.69;
    double v = sigma2 * n2;
    double r = Normal.pdf(0) / 0.5;
    double ef = -v * r / Math.sqrt(1 + v);
    double vf = v - v * v * r * r / (1 + v);
    LinearExactPosterior.Estimate q =
        LinearExactPosterior.of(x, new double[] {-1}, sigma2, Probit.get()).quadrature();
    assertEquals(Math.log(0.5), q.logEvidence(), 1e-10);
    assertEquals(ef * 0.6 / n2, q.mean()[0], 1e-10);
    assertEquals(ef * -1.3 / n2, q.mean()[1], 1e-10);
    double[][] c = q.covariance();
    assertEquals(sigma2 + (vf - v) * 0.36 / (n2 * n2), c[0][0], 1e-10);
    assertEquals((vf - v) * 0.6 * -1.3 / (n2 * n2), c[0][1], 1e-10);
    assertEquals(sigma2 + (vf - v) * 1.69 / (n2 * n2), c[1][1], 1e-10);
  }

  /**
   * Importance sampling (prior proposal, 10⁶ samples, seed 20261123) agrees with the quadrature within 4.5
   * standard errors in every one of the six quantities, for the noisy step (the paper's Fig. 1 setting, ε = 0.2)
   * and for the probit; the same seed reproduces an estimate bit for bit.
   */
  @Test
  void importanceSamplingAgreesWithQuadrature() {
    for (var lik : new org.approxgp.likelihood.Likelihood[] {NoisyStep.of(0.2), Probit.get()}) {
      LinearExactPosterior p = LinearExactPosterior.of(X, Y, 1.0, lik);
      double[] q = flat(p.quadrature());
      LinearExactPosterior.Estimate is = p.importanceSampling(1_000_000, 20261123L);
      double[] e = flat(is);
      double[] se = {
        is.logEvidenceError(),
        is.meanError()[0],
        is.meanError()[1],
        is.covarianceError()[0][0],
        is.covarianceError()[0][1],
        is.covarianceError()[1][1]
      };
      double worst = 0;
      for (int k = 0; k < 6; k++) {
        assertTrue(se[k] > 0 && se[k] < 0.01, "standard error " + k + ": " + se[k]);
        worst = Math.max(worst, Math.abs(e[k] - q[k]) / se[k]);
      }
      System.out.printf(
          "linear exact posterior, %s: quadrature %s; IS %s, ESS %.0f, worst |IS - quad|/se %.2f%n",
          lik.name(), Arrays.toString(q), Arrays.toString(e), is.effectiveSampleSize(), worst);
      assertTrue(worst < 4.5, "IS vs quadrature: " + worst + " standard errors");
      assertArrayEquals(
          flat(p.importanceSampling(1000, 7)), flat(p.importanceSampling(1000, 7)), 0.0);
    }
  }

  @Test
  void rejectsBadProblems() {
    assertThrows(
        IllegalArgumentException.class,
        () -> LinearExactPosterior.of(X, new double[] {1}, 1, Probit.get()));
    assertThrows(
        IllegalArgumentException.class, () -> LinearExactPosterior.of(X, Y, 0, Probit.get()));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            LinearExactPosterior.of(new double[][] {{1, 2, 3}}, new double[] {1}, 1, Probit.get()));
    assertThrows(
        IllegalArgumentException.class,
        () -> LinearExactPosterior.of(new double[][] {{1, 2}}, new double[] {0}, 1, Probit.get()));
  }
}
