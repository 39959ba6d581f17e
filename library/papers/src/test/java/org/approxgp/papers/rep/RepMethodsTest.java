package org.approxgp.papers.rep;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.approxgp.experiment.ProjectPaths;
import org.approxgp.experiment.ResultRow;
import org.approxgp.inference.Ep;
import org.approxgp.inference.InferenceException;
import org.approxgp.inference.Posterior;
import org.approxgp.inference.PowerEp;
import org.approxgp.inference.Problem;
import org.approxgp.inference.SiteLoop;
import org.approxgp.inference.SiteLoopOptions;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.model.InferenceMethod;
import org.approxgp.model.Methods;
import org.approxgp.model.SettingException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The REP experiments build EP, Power EP and Relaxed EP by name through the registry; each is the method the typed
 * constructors give in the site loop (same options, no gradient), bit for bit.
 */
@Tag("rounding")
class RepMethodsTest {

  /** Twenty noisy-step points with flipped labels: sites go negative and Relaxed EP relaxes some at small c. */
  private static Problem problem() {
    RepSynthetic.Sample s = RepSynthetic.generate(10, 0.2, 3);
    return Problem.of(SquaredExponential.iso(1.0, 1.0), s.x(), s.y(), RepMethods.likelihood(0.2));
  }

  private static SiteLoopOptions loop(SiteLoop.NegativeSitePrecision p, int sweeps) {
    return SiteLoopOptions.defaults()
        .withMaxSweeps(sweeps)
        .withGradient(false)
        .withNegativeSites(p)
        .withRequireEvidence(false);
  }

  /** Runs both; they must fail with the same message or give the same posterior. */
  private static void assertSame(
      InferenceMethod typed, InferenceMethod named, Problem p, String what) {
    Posterior a;
    try {
      a = typed.infer(p, null);
    } catch (InferenceException e) {
      InferenceException f =
          assertThrows(InferenceException.class, () -> named.infer(p, null), what);
      assertEquals(
          e.getMessage().replaceAll("[0-9.]+ s,", ""),
          f.getMessage().replaceAll("[0-9.]+ s,", ""),
          what);
      return;
    }
    assertSame(a, named.infer(p, null), what);
  }

  private static void assertSame(Posterior typed, Posterior named, String what) {
    assertArrayEquals(typed.sites().tau(), named.sites().tau(), 0.0, what);
    assertArrayEquals(typed.sites().nu(), named.sites().nu(), 0.0, what);
    assertArrayEquals(typed.alpha(), named.alpha(), 0.0, what);
    assertEquals(typed.logEvidence(), named.logEvidence(), 0.0, what);
    assertEquals(typed.diagnostics().alphaTrace(), named.diagnostics().alphaTrace(), what);
    assertEquals(typed.diagnostics().relaxedSites(), named.diagnostics().relaxedSites(), what);
    assertNull(named.logEvidenceGradient(), what + ": fixed hyperparameters, no gradient");
  }

  @Test
  void namedMethodsAreTheTypedOnes() {
    Problem p = problem();
    for (SiteLoop.NegativeSitePrecision policy : SiteLoop.NegativeSitePrecision.values()) {
      String word = policy == SiteLoop.NegativeSitePrecision.KEEP ? "keep" : "clip";
      SiteLoopOptions o = loop(policy, 40);
      assertSame(
          InferenceMethod.ep(Ep.Options.defaults().withLoop(o)),
          RepMethods.method("ep", Double.NaN, word, 40),
          p,
          "ep " + word);
      assertSame(
          InferenceMethod.siteLoop(PowerEp.of(0.6), o),
          RepMethods.method("power-ep", 0.6, word, 40),
          p,
          "power-ep " + word);
      assertSame(
          InferenceMethod.siteLoop(PowerEp.of(0.6, PowerEp.Variant.APPENDIX_C), o),
          RepMethods.method(RepMethods.POWER_EP_APPENDIX_C, 0.6, word, 40),
          p,
          "power-ep appendix C " + word);
      for (String label : List.of("a", "b", "c", "c/global")) {
        Methods.RepReading r = RepReadings.reading(label);
        for (double c : List.of(0.01, 10.0)) {
          assertSame(
              InferenceMethod.siteLoop(r.rule(c), o),
              RepMethods.method("rep", c, word, 40, r),
              p,
              "rep " + label + " c=" + c + " " + word);
        }
      }
    }
    assertSame(
        InferenceMethod.siteLoop(
            Methods.RepReading.DEFAULT.rule(0.05), loop(SiteLoop.NegativeSitePrecision.KEEP, 7)),
        RepMethods.method("rep", 0.05, "keep", 7),
        p,
        "default reading, sweep cap 7");
  }

  @Test
  void badInputIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> RepMethods.method("vb", 1, "keep", 10));
    assertThrows(IllegalArgumentException.class, () -> RepMethods.method("ep", 1, "drop", 10));
    SettingException e =
        assertThrows(SettingException.class, () -> RepMethods.method("power-ep", 1.5, "keep", 10));
    assertEquals("power", e.setting());
    assertEquals(
        "max-sweeps",
        assertThrows(SettingException.class, () -> RepMethods.method("ep", 1, "keep", 0))
            .setting());
  }

  /**
   * A fit whose posterior is proper but whose EP-form evidence is undefined (an improper cavity under kept negative
   * sites) is a fit for these experiments, which score predictions only; with the evidence required it fails. The
   * case is a quick-mode rep-readings trial (synthetic, 10 % flips, seed 0, reading c, c = 1) that used to be stored
   * as failed.
   */
  @Test
  void anUndefinedEvidenceIsNotAFailedFit() {
    // Whether one given run ends improper can turn on the last bit of a sum (a BLAS kernel chosen
    // by
    // OPENBLAS_CORETYPE decided it for the one sample this test once pinned), so it pins none: it
    // takes the first
    // of forty seeded samples whose run with the evidence required is refused as improper (reading
    // c at c = 0.1
    // and 10 % flips leaves about a third of them improper: 13 of 40 on an AVX-512 EPYC with the
    // Haswell kernel),
    // then holds the same run without that requirement to a NaN evidence and a usable posterior.
    // Both runs compute
    // the same sums on whatever machine runs the test.
    RepReadings.Config quick = RepReadings.Config.forMode(ProjectPaths.Mode.QUICK);
    Methods.RepReading b = RepReadings.reading("c");
    SiteLoopOptions keep = loop(SiteLoop.NegativeSitePrecision.KEEP, quick.maxSweeps());
    Problem p = null;
    for (int seed = 0; seed < 40 && p == null; seed++) {
      RepSynthetic.Sample s = RepSynthetic.generate(quick.trainPerClass(), 0.1, seed);
      Problem candidate =
          Problem.of(SquaredExponential.iso(1.0, 1.0), s.x(), s.y(), RepMethods.likelihood(0.1));
      try {
        InferenceMethod.siteLoop(b.rule(0.1), keep.withRequireEvidence(true))
            .infer(candidate, null);
      } catch (InferenceException e) {
        assertTrue(
            e.getMessage().contains("improper: the log evidence is undefined"), e.getMessage());
        p = candidate;
      }
    }
    assertNotNull(p, "none of forty runs of reading c at c = 0.1 ended improper");
    Posterior fit = RepMethods.method("rep", 0.1, "keep", quick.maxSweeps(), b).infer(p, null);
    assertTrue(Double.isNaN(fit.logEvidence()));
    assertTrue(fit.alpha().length == p.size());
    ResultRow row = RepReadings.trial(
        quick, new RepReadings.Key("synthetic", "synthetic", 10, 0, "rep", "c", "1.0"));
    assertEquals(false, row.get("failed"));
    double te = ((Number) row.get("test_error")).doubleValue();
    assertTrue(te >= 0 && te <= 1, "test error " + te);
  }
}
