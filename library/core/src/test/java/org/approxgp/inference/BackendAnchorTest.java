package org.approxgp.inference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.approxgp.anchors.GpmlIonosphere;
import org.approxgp.anchors.GpmlIonosphere.Entry;
import org.approxgp.likelihood.Probit;
import org.approxgp.linalg.Linalg;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The GPML Ionosphere anchors (EP and Laplace, {@code src/test/resources/anchors/gpml-ionosphere-references.txt})
 * on each dense backend of {@code linalg}, and EP's log Z and its gradient agreeing between the backends to
 * 1e-12 relative. (The other anchor tests run on the process default backend;
 * {@code -Dapproxgp.linalg=ejml|native} on the Maven command line selects it for them.)
 */
@Tag("rounding")
class BackendAnchorTest {

  static void assumeAvailable(String backend) {
    if (backend.equals("native")) {
      Assumptions.assumeTrue(
          Linalg.nativeAvailable(),
          () -> "native OpenBLAS backend cannot load here: " + Linalg.nativeUnavailableReason());
    }
  }

  static Stream<Arguments> epByBackend() {
    List<Arguments> out = new ArrayList<>();
    for (String b : Linalg.backendNames()) {
      for (Entry e : GpmlIonosphere.entries("ep")) {
        out.add(Arguments.of(b, e));
      }
    }
    return out.stream();
  }

  static Stream<Arguments> laplaceByBackend() {
    List<Arguments> out = new ArrayList<>();
    for (String b : Linalg.backendNames()) {
      for (Entry e : GpmlIonosphere.entries("laplace")) {
        out.add(Arguments.of(b, e));
      }
    }
    return out.stream();
  }

  static Problem problem(Entry e) {
    GpmlIonosphere.Split train = GpmlIonosphere.train();
    return Problem.of(e.kernelObject(), train.x(), train.y(), Probit.get());
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("epByBackend")
  void epMatchesGpml(String backend, Entry e) {
    assumeAvailable(backend);
    Posterior post = Linalg.withBackend(
        backend,
        () -> Ep.infer(
            problem(e), Ep.Options.defaults().withLoop(l -> l.withTolerance(1e-10)), null));
    assertTrue(post.diagnostics().converged(), post.diagnostics().toString());
    EpGpmlAnchorTest.assertAnchor(e, post);
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("laplaceByBackend")
  void laplaceMatchesGpml(String backend, Entry e) {
    assumeAvailable(backend);
    Posterior post = Linalg.withBackend(backend, () -> Laplace.infer(problem(e)));
    assertTrue(post.diagnostics().converged(), post.diagnostics().toString());
    EpGpmlAnchorTest.assertAnchor(e, post);
  }

  /**
   * EP at the default tolerance on both backends: log Z to 1e-12 relative, each gradient component to
   * 1e-12 relative to the gradient's largest component (a component near zero has no relative scale of
   * its own), and the same number of sweeps.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("epEntries")
  void epLogZAndGradientAgreeBetweenBackends(Entry e) {
    assumeAvailable("native");
    Problem p = problem(e);
    Posterior a = Linalg.withBackend("ejml", () -> Ep.infer(p));
    Posterior b = Linalg.withBackend("native", () -> Ep.infer(p));
    assertEquals(a.diagnostics().iterations(), b.diagnostics().iterations(), "sweeps");
    assertEquals(a.logEvidence(), b.logEvidence(), 1e-12 * Math.abs(a.logEvidence()), "log Z");
    double[] ga = a.logEvidenceGradient();
    double[] gb = b.logEvidenceGradient();
    assertEquals(ga.length, gb.length);
    double scale = 0;
    for (double g : ga) {
      scale = Math.max(scale, Math.abs(g));
    }
    double worst = 0;
    for (int i = 0; i < ga.length; i++) {
      worst = Math.max(worst, Math.abs(ga[i] - gb[i]) / scale);
    }
    System.out.printf(
        "backends %s: log Z rel diff %.1e, gradient max diff / max |g| %.1e, %d sweeps%n",
        e,
        Math.abs(a.logEvidence() - b.logEvidence()) / Math.abs(a.logEvidence()),
        worst,
        a.diagnostics().iterations());
    for (int i = 0; i < ga.length; i++) {
      assertEquals(ga[i], gb[i], 1e-12 * scale, "gradient component " + i);
    }
  }

  static List<Entry> epEntries() {
    return GpmlIonosphere.entries("ep");
  }
}
