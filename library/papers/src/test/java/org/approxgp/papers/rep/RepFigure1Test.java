package org.approxgp.papers.rep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.approxgp.experiment.ProjectPaths;
import org.approxgp.inference.Sites;
import org.junit.jupiter.api.Test;

class RepFigure1Test {

  /**
   * Brute force, independent of the closed forms: the midpoint rule in polar coordinates, 400 radii on
   * [0, 8] and 20,000 angles (the likelihood jumps only along rays, so the angular error is O(1/20,000)).
   */
  private static RepFigure1.WeightPosterior polarGrid(double eps) {
    int nr = 400;
    int nt = 20_000;
    double hr = 8.0 / nr;
    double ht = 2 * Math.PI / nt;
    double z = 0;
    double m0 = 0;
    double m1 = 0;
    double s00 = 0;
    double s01 = 0;
    double s11 = 0;
    for (int b = 0; b < nt; b++) {
      double c = Math.cos((b + 0.5) * ht);
      double s = Math.sin((b + 0.5) * ht);
      double lik = 1;
      for (int i = 0; i < RepFigure1.X.length; i++) {
        double f = RepFigure1.X[i][0] * c + RepFigure1.X[i][1] * s;
        lik *= RepFigure1.Y[i] * f >= 0 ? 1 - eps : eps;
      }
      for (int a = 0; a < nr; a++) {
        double r = (a + 0.5) * hr;
        double p = lik * Math.exp(-0.5 * r * r) * r; // density × Jacobian r
        double w0 = r * c;
        double w1 = r * s;
        z += p;
        m0 += p * w0;
        m1 += p * w1;
        s00 += p * w0 * w0;
        s01 += p * w0 * w1;
        s11 += p * w1 * w1;
      }
    }
    double[] m = {m0 / z, m1 / z};
    return new RepFigure1.WeightPosterior(m, new double[][] {
      {s00 / z - m[0] * m[0], s01 / z - m[0] * m[1]}, {s01 / z - m[0] * m[1], s11 / z - m[1] * m[1]}
    });
  }

  @Test
  void exactPosteriorAgreesWithBruteForceQuadrature() {
    for (double eps : new double[] {0.1, 0.2, 0.25}) {
      RepFigure1.WeightPosterior ex = RepFigure1.exact(eps);
      RepFigure1.WeightPosterior g = polarGrid(eps);
      // radial midpoint error O(h_r²) ≈ 1e-4 relative, angular O(1/n_θ): squared distances ≲ 1e-8
      assertTrue(ex.meanDistance(g) < 1e-7, "mean, eps " + eps + ": " + ex.meanDistance(g));
      assertTrue(
          ex.covarianceDistance(g) < 1e-7, "cov, eps " + eps + ": " + ex.covarianceDistance(g));
    }
  }

  @Test
  void exactPosteriorWithoutInformativeDataIsThePrior() {
    // ε = 0.5 is excluded by the likelihood, but the decomposition itself is defined: a flat
    // likelihood
    RepFigure1.WeightPosterior p = RepFigure1.exact(RepFigure1.X, RepFigure1.Y, 0.5, 2.0);
    assertEquals(0, p.mean()[0], 1e-14);
    assertEquals(0, p.mean()[1], 1e-14);
    assertEquals(2.0, p.covariance()[0][0], 1e-13);
    assertEquals(0, p.covariance()[0][1], 1e-13);
    assertEquals(2.0, p.covariance()[1][1], 1e-13);
  }

  @Test
  void importanceSamplingAgreesWithTheExactPosteriorWithinMonteCarloError() {
    RepFigure1.WeightPosterior ex = RepFigure1.exact(0.2);
    RepFigure1.WeightPosterior is = RepFigure1.importanceSampling(0.2, 400_000, 7);
    // posterior sd of w ≈ 0.7, effective sample size ≳ 1e5 here: the mean's error sd ≈ 2e-3 per
    // coordinate
    assertEquals(ex.mean()[0], is.mean()[0], 0.012);
    assertEquals(ex.mean()[1], is.mean()[1], 0.012);
    assertEquals(ex.covariance()[0][0], is.covariance()[0][0], 0.015);
    assertEquals(ex.covariance()[1][1], is.covariance()[1][1], 0.015);
    // deterministic for a seed
    assertEquals(is, is);
    assertEquals(
        RepFigure1.importanceSampling(0.2, 1000, 7).mean()[0],
        RepFigure1.importanceSampling(0.2, 1000, 7).mean()[0],
        0.0);
  }

  @Test
  void fromSitesIsBayesianLinearRegressionWithPseudoObservations() {
    // one site τ = 2, ν = 3 at x = (1, 0): Σ = diag(1/(1 + 2), 1), μ = Σ (3, 0)
    RepFigure1.WeightPosterior w = RepFigure1.fromSites(
        new double[][] {{1, 0}}, Sites.of(new double[] {2}, new double[] {3}), 1.0);
    assertEquals(1.0 / 3, w.covariance()[0][0], 1e-15);
    assertEquals(1.0, w.covariance()[1][1], 1e-15);
    assertEquals(1.0, w.mean()[0], 1e-15);
    assertEquals(0.0, w.mean()[1], 1e-15);
    // an indefinite precision (a strongly negative site) is reported, not inverted
    assertNull(RepFigure1.fromSites(
        new double[][] {{1, 0}}, Sites.of(new double[] {-2}, new double[] {0}), 1.0));
  }

  @Test
  void theFivePointsHaveOneMislabelledPointOnTheRight() {
    assertEquals(5, RepFigure1.X.length);
    RepFigure1.WeightPosterior ex = RepFigure1.exact(0.2);
    // the exact classifier puts every point but the mislabelled one on its labelled side
    for (int i = 0; i < 5; i++) {
      double f = ex.mean()[0] * RepFigure1.X[i][0] + ex.mean()[1] * RepFigure1.X[i][1];
      assertEquals(i != RepFigure1.MISLABELLED, RepFigure1.Y[i] * f > 0, "point " + i);
    }
    double maxX = 0;
    for (double[] x : RepFigure1.X) {
      maxX = Math.max(maxX, x[0]);
    }
    assertEquals(maxX, RepFigure1.X[RepFigure1.MISLABELLED][0]);
  }

  @Test
  void configsFollowTheModes() {
    RepFigure1.Config smoke = RepFigure1.Config.forMode(ProjectPaths.Mode.SMOKE);
    RepFigure1.Config full = RepFigure1.Config.forMode(ProjectPaths.Mode.FULL);
    assertEquals(0.2, smoke.epsilon());
    assertEquals(0.8, smoke.power());
    assertEquals(20, smoke.penalty());
    assertEquals(100_000_000L, full.importanceSamples());
    assertEquals(20, full.powers().size());
    assertEquals(1.0, full.powers().get(19), 1e-12);
    List<Double> quick = RepFigure1.Config.forMode(ProjectPaths.Mode.QUICK).powers();
    assertEquals(10, quick.size());
    for (int i = 0; i < 10; i++) {
      assertEquals(0.1 * (i + 1), quick.get(i), 1e-12);
    }
    assertEquals(1e5, full.penalties().get(full.penalties().size() - 1), 1e-6);
  }

  @Test
  void fractionBetterComparesEachGridPointWithEpAndSkipsUEqualOne() {
    tech.tablesaw.api.Table t = tech.tablesaw.api.Table.create(
        "s",
        tech.tablesaw.api.StringColumn.create(
            "method", "power-ep", "ep", "power-ep", "ep", "power-ep", "ep"),
        tech.tablesaw.api.DoubleColumn.create("parameter", 0.5, 0.5, 0.8, 0.8, 1.0, 1.0),
        tech.tablesaw.api.DoubleColumn.create("mean sq. dist", 0.1, 0.2, 0.3, 0.2, 0.0, 0.2),
        tech.tablesaw.api.DoubleColumn.create("cov sq. dist", 0.5, 0.2, Double.NaN, 0.2, 0.0, 0.2));
    double[] f = RepFigure1.fractionBetter(t, "power-ep", true);
    assertEquals(0.5, f[0]); // better at u = 0.5, worse at 0.8; u = 1 (EP itself) left out
    assertEquals(0.0, f[1]); // a failed (NaN) fit is not better
    assertEquals(0.0, f[2]); // not equal to EP at the last grid point used (u = 0.8)
    assertEquals(0.5, f[3]); // strictly worse in mean at u = 0.8 only
    assertEquals(
        0.5, f[4]); // worse in covariance at u = 0.5 (0.5 > 0.2); the NaN at 0.8 is not counted
    double[] r = RepFigure1.fractionBetter(t, "rep", true);
    assertEquals(2.0 / 3, r[0], 1e-15); // 0.1 < 0.2, 0.3 > 0.2, 0.0 < 0.2
    assertEquals(0.0, r[2]); // 0.0 vs 0.2 at the last point
  }
}
