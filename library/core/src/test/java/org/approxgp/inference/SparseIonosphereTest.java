package org.approxgp.inference;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.approxgp.anchors.GpmlIonosphere;
import org.approxgp.data.RegressionData;
import org.approxgp.likelihood.Probit;
import org.approxgp.metrics.Metrics;
import org.approxgp.projection.W2Projection;
import org.approxgp.sparse.KMeans;
import org.junit.jupiter.api.Test;

/**
 * Sparse EP, QP and Power EP on real data with M &lt; n: Ionosphere's GPML anchor split (316 training rows, 70 test
 * rows, 33 inputs) at the anchors' hyperparameters, inducing inputs at k-means centroids of the training inputs.
 */
class SparseIonosphereTest {

  private static final SiteLoopOptions OPT = SiteLoopOptions.defaults().withGradient(false);

  private static double[][] centroids(double[][] x, double[] y, int m) {
    KMeans km = KMeans.fit(RegressionData.of(x, y), m, 5, 100);
    double[][] z = new double[m][];
    for (int c = 0; c < m; c++) {
      z[c] = km.centroid(c);
    }
    return z;
  }

  private static double testError(FittedModel f, GpmlIonosphere.Split test) {
    double[] positive = new double[test.y().length];
    Arrays.fill(positive, 1.0);
    double[] lp = f instanceof Posterior p
        ? p.logPredictive(test.x(), positive)
        : ((SparsePosterior) f).logPredictive(test.x(), positive);
    double[] prob = new double[lp.length];
    for (int j = 0; j < lp.length; j++) {
      prob[j] = Math.exp(lp[j]);
    }
    return Metrics.testError(prob, test.y());
  }

  @Test
  void inducingInputsAtTheTrainingInputsGiveExactEp() {
    GpmlIonosphere.Split train = GpmlIonosphere.train();
    GpmlIonosphere.Entry e = GpmlIonosphere.entries("ep").get(1);
    Problem p = Problem.of(e.kernelObject(), train.x(), train.y(), Probit.get());
    SiteLoopOptions tight = OPT.withTolerance(1e-10);
    Posterior ep = SiteLoop.run(p, MomentMatching.ep(), tight, null);
    SparsePosterior s =
        SparseSiteLoop.run(new SparseProblem(p, train.x()), MomentMatching.ep(), tight, null);
    double worst = 0;
    for (int i = 0; i < p.size(); i++) {
      worst = Math.max(worst, Math.abs(ep.mean()[i] - s.mean()[i]));
      worst = Math.max(worst, Math.abs(ep.variance()[i] - s.variance()[i]));
    }
    double evidence = Math.abs(ep.logEvidence() - s.logEvidence());
    System.out.printf(
        "%s, Z = X (n = M = %d): moments %.2e, log evidence %.2e; K_uu jitter %.1e%n",
        e, p.size(), worst, evidence, s.diagnostics().jitter());
    assertTrue(worst < 1e-8, "posterior moments differ by " + worst);
    assertTrue(evidence < 1e-8 * Math.abs(ep.logEvidence()), "log evidence differs by " + evidence);
  }

  /**
   * At every anchor setting and M = 40, 80, 160 k-means centroids: each method converges with a finite evidence;
   * sparse EP's and QP's evidence approaches exact EP's as M grows (the gap shrinks at each doubling); at M = 160
   * sparse EP's test error is within two of the 70 test points of exact EP's.
   */
  @Test
  void fewInducingPointsConvergeAndApproachExactEp() {
    GpmlIonosphere.Split train = GpmlIonosphere.train();
    GpmlIonosphere.Split test = GpmlIonosphere.test();
    int[] sizes = {40, 80, 160};
    for (GpmlIonosphere.Entry e : GpmlIonosphere.entries("ep")) {
      Problem p = Problem.of(e.kernelObject(), train.x(), train.y(), Probit.get());
      Posterior ep = SiteLoop.run(p, MomentMatching.ep(), OPT, null);
      double exactError = testError(ep, test);
      System.out.printf(
          "%s exact EP: log Z %.6f, test error %.4f%n", e, ep.logEvidence(), exactError);
      double[] gapEp = new double[sizes.length];
      double[] gapQp = new double[sizes.length];
      double errorEp = Double.NaN;
      for (int k = 0; k < sizes.length; k++) {
        int m = sizes[k];
        double[][] z = centroids(train.x(), train.y(), m);
        for (SiteUpdate<Void> rule : List.of(
            MomentMatching.ep(), MomentMatching.qp(W2Projection.shipped()), PowerEp.of(0.5))) {
          SparsePosterior s = SparseSiteLoop.run(new SparseProblem(p, z), rule, OPT, null);
          double err = testError(s, test);
          System.out.printf(
              "  M=%d %s: log Z %.6f, test error %.4f; %s%n",
              m, rule.name(), s.logEvidence(), err, s.diagnostics());
          assertTrue(s.diagnostics().converged(), e + " M=" + m + " " + s.diagnostics());
          assertTrue(
              Double.isFinite(s.logEvidence()), e + " M=" + m + " log evidence " + s.logEvidence());
          double gap = Math.abs(s.logEvidence() - ep.logEvidence());
          if (rule.name().equals("ep")) {
            gapEp[k] = gap;
            errorEp = err;
          } else if (rule.name().equals("qp")) {
            gapQp[k] = gap;
          }
        }
      }
      for (int k = 1; k < sizes.length; k++) {
        assertTrue(
            gapEp[k] < gapEp[k - 1], e + ": sparse EP's evidence gap " + Arrays.toString(gapEp));
        assertTrue(
            gapQp[k] < gapQp[k - 1], e + ": sparse QP's evidence gap " + Arrays.toString(gapQp));
      }
      assertTrue(
          errorEp <= exactError + 2.0 / 70 + 1e-12,
          e + ": sparse EP test error " + errorEp + " at M = 160, exact EP " + exactError);
    }
  }
}
