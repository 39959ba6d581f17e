package org.approxgp.inference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.approxgp.anchors.GpmlIonosphere;
import org.approxgp.anchors.GpmlIonosphere.Entry;
import org.approxgp.likelihood.Probit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** EP against GPML 4.2's infEP on the Ionosphere anchor split at fixed hyperparameters. */
@Tag("rounding")
class EpGpmlAnchorTest {

  static List<Entry> epEntries() {
    return GpmlIonosphere.entries("ep");
  }

  static void assertAnchor(Entry e, Posterior post) {
    GpmlIonosphere.Split test = GpmlIonosphere.test();
    assertEquals(
        e.logEvidence(), post.logEvidence(), 1e-6 * Math.abs(e.logEvidence()), "log evidence");
    Prediction p = post.predict(test.x());
    double[] ll = post.logPredictive(test.x(), test.y());
    for (int j = 0; j < test.y().length; j++) {
      assertEquals(e.latentMean()[j], p.latentMean()[j], 1e-5, "latent mean " + j);
      assertEquals(e.latentVariance()[j], p.latentVariance()[j], 1e-5, "latent variance " + j);
      assertEquals(e.logLik()[j], ll[j], 1e-5, "log lik " + j);
    }
  }

  @ParameterizedTest(name = "{0} sequential")
  @MethodSource("epEntries")
  void sequentialEpMatchesGpml(Entry e) {
    GpmlIonosphere.Split train = GpmlIonosphere.train();
    Problem problem = Problem.of(e.kernelObject(), train.x(), train.y(), Probit.get());
    Posterior post =
        Ep.infer(problem, Ep.Options.defaults().withLoop(l -> l.withTolerance(1e-10)), null);
    assertTrue(post.diagnostics().converged(), post.diagnostics().toString());
    assertAnchor(e, post);
  }

  @ParameterizedTest(name = "{0} parallel")
  @MethodSource("epEntries")
  void parallelEpMatchesGpml(Entry e) {
    GpmlIonosphere.Split train = GpmlIonosphere.train();
    Problem problem = Problem.of(e.kernelObject(), train.x(), train.y(), Probit.get());
    Posterior post = Ep.infer(
        problem,
        Ep.Options.defaults()
            .withLoop(l -> l.withSchedule(SiteLoop.Schedule.PARALLEL)
                .withTolerance(1e-10)
                .withMaxSweeps(5000)),
        null);
    assertTrue(post.diagnostics().converged(), post.diagnostics().toString());
    assertAnchor(e, post);
  }

  /** Default tolerance (RMS site change 1e-6, the QP paper's) already meets the anchor budget. */
  @ParameterizedTest(name = "{0} default tolerance")
  @MethodSource("epEntries")
  void defaultToleranceMeetsBudget(Entry e) {
    GpmlIonosphere.Split train = GpmlIonosphere.train();
    Posterior post = Ep.infer(Problem.of(e.kernelObject(), train.x(), train.y(), Probit.get()));
    assertAnchor(e, post);
  }
}
