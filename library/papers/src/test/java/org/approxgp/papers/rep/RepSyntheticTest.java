package org.approxgp.papers.rep;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.approxgp.experiment.ProjectPaths;
import org.junit.jupiter.api.Test;

class RepSyntheticTest {

  @Test
  void generatorIsSeededAndFlipsExactlyTheStatedFraction() {
    RepSynthetic.Sample a = RepSynthetic.generate(200, 0.2, 3);
    RepSynthetic.Sample b = RepSynthetic.generate(200, 0.2, 3);
    assertEquals(400, a.x().length);
    for (int i = 0; i < 400; i++) {
      assertArrayEquals(a.x()[i], b.x()[i], 0.0);
    }
    assertArrayEquals(a.y(), b.y(), 0.0);
    assertNotEquals(a.x()[0][0], RepSynthetic.generate(200, 0.2, 4).x()[0][0]);
    int flipped = 0;
    for (int i = 0; i < 400; i++) {
      assertEquals(i < 200 ? 1.0 : -1.0, a.clean()[i]);
      flipped += a.y()[i] != a.clean()[i] ? 1 : 0;
    }
    assertEquals(80, flipped);
    RepSynthetic.Sample clean = RepSynthetic.generate(50, 0, 3);
    assertArrayEquals(clean.clean(), clean.y(), 0.0);
  }

  @Test
  void classesFollowTheStatedDistributions() {
    RepSynthetic.Sample s = RepSynthetic.generate(20_000, 0, 11);
    double m0 = 0;
    double m1 = 0;
    double c01 = 0;
    double v0 = 0;
    int n = 20_000;
    for (int i = 0; i < n; i++) {
      m0 += s.x()[i][0] / n;
      m1 += s.x()[i][1] / n;
    }
    for (int i = 0; i < n; i++) {
      v0 += (s.x()[i][0] - m0) * (s.x()[i][0] - m0) / n;
      c01 += (s.x()[i][0] - m0) * (s.x()[i][1] - m1) / n;
    }
    // standard errors ≈ 0.007 (means) and ≈ 0.01 (second moments): 5 sd tolerances
    assertEquals(0, m0, 0.035);
    assertEquals(0, m1, 0.035);
    assertEquals(1.0, v0, 0.05);
    assertEquals(0.5, c01, 0.05);
    // class −1: half its points near each component (the line x1 = x2 separates the two means)
    int upperLeft = 0;
    for (int i = n; i < 2 * n; i++) {
      upperLeft += s.x()[i][1] > s.x()[i][0] ? 1 : 0;
    }
    assertEquals(0.5, (double) upperLeft / n, 0.02);
  }

  @Test
  void flipIsSeededAndExact() {
    double[] y = new double[101];
    java.util.Arrays.fill(y, 1.0);
    double[] f = RepCv.flip(y, 0.1, 5);
    assertArrayEquals(f, RepCv.flip(y, 0.1, 5), 0.0);
    assertEquals(10, java.util.Arrays.stream(f).filter(v -> v < 0).count());
    assertEquals(101, java.util.Arrays.stream(y).filter(v -> v > 0).count()); // input untouched
    assertArrayEquals(y, RepCv.flip(y, 0, 5), 0.0);
    assertThrows(IllegalArgumentException.class, () -> RepCv.flip(y, 1.5, 5));
  }

  @Test
  void gridCoversTheWindowRowMajor() {
    double[][] g = RepSynthetic.grid(5);
    assertEquals(25, g.length);
    assertArrayEquals(new double[] {-4.5, -4.5}, g[0], 0.0);
    assertArrayEquals(new double[] {-4.5, -2.25}, g[1], 1e-15);
    assertArrayEquals(new double[] {4.5, 4.5}, g[24], 1e-15);
  }

  @Test
  void configsFollowTheModes() {
    RepSynthetic.Config full = RepSynthetic.Config.forMode(ProjectPaths.Mode.FULL, "keep");
    assertEquals(List.of(10, 20), full.flipPercents());
    assertEquals(10, full.repetitions());
    assertEquals(200, full.trainPerClass());
    assertEquals(19_800, full.testPerClass()); // 39,600 test points
    RepSynthetic.Config smoke = RepSynthetic.Config.forMode(ProjectPaths.Mode.SMOKE, "clip");
    assertEquals(4, RepSynthetic.experiment(smoke).trials().size());
    assertEquals(
        2 * 2 * 4,
        RepSynthetic.experiment(RepSynthetic.Config.forMode(ProjectPaths.Mode.QUICK, "keep"))
            .trials()
            .size());
    assertEquals(2 * 10 * 4, RepSynthetic.experiment(full).trials().size());
    // full keeps the paper's data and takes every other grid point of paper()'s, by 3-fold CV
    RepSynthetic.Config paper = RepSynthetic.Config.paper("keep");
    assertEquals(
        List.of(
            paper.flipPercents(), paper.repetitions(), paper.trainPerClass(), paper.testPerClass()),
        List.of(
            full.flipPercents(), full.repetitions(), full.trainPerClass(), full.testPerClass()));
    assertEquals(
        List.of(5, 5, 5, 5),
        List.of(
            paper.lengthscales().size(),
            paper.powers().size(),
            paper.penalties().size(),
            paper.cvFolds()));
    assertEquals(List.of(0.25, 1.0, 4.0), full.lengthscales());
    assertEquals(3, full.cvFolds());
    assertThrows(
        IllegalArgumentException.class,
        () -> RepSynthetic.Config.forMode(ProjectPaths.Mode.SMOKE, "x"));
  }

  @Test
  void sweepsToCountsTheFirstSweepBelowTheThreshold() {
    assertEquals(3, RepMethods.sweepsTo(new double[] {1, 0.1, 1e-4, 1}, 1e-3));
    assertEquals(4, RepMethods.sweepsTo(new double[] {1, 0.1, 1e-2}, 1e-3));
  }

  @Test
  void aSmokeTrialRunsAndReportsEveryColumn() {
    RepSynthetic.Config c = RepSynthetic.Config.forMode(ProjectPaths.Mode.SMOKE, "keep");
    var row = RepSynthetic.trial(c, new RepSynthetic.Key(20, 0, "ep"));
    double te = row.getDouble("test_error");
    assertTrue(te >= 0 && te < 0.5, "test error " + te);
    assertTrue(row.getDouble("sweeps") >= 1);
    assertEquals(1.0, row.getDouble("lengthscale"));
  }

  /**
   * The appendix C Power EP joined the experiments beside the three methods whose rows are stored: a trial of EP,
   * Minka's PEP or REP needs exactly the grids it needed before (so its row is unchanged), and the appendix C trial
   * is fitted at the same shared length-scale, chosen from those three grids.
   */
  @Test
  void theAppendixCTrialJoinsWithoutChangingTheOthers() {
    List<String> shared = List.of("ep", "power-ep", "rep");
    assertEquals(shared, RepMethods.SHARED_LENGTHSCALE);
    for (String m : shared) {
      assertEquals(shared, RepCv.gridMethods(m), m);
    }
    assertEquals(List.of("ep", "power-ep", "rep", "power-ep-c"), RepCv.gridMethods("power-ep-c"));
    assertEquals(List.of("ep", "power-ep-c", "power-ep", "rep"), RepMethods.METHODS);
    assertEquals(List.of("ep", "power-ep-c", "rep"), RepMethods.PAPER);
    RepSynthetic.Config c = new RepSynthetic.Config(
        List.of(20),
        1,
        30,
        200,
        List.of(0.5, 1.0, 2.0),
        List.of(0.6, 0.8),
        List.of(1.0, 10.0),
        2,
        30,
        "keep",
        10,
        null);
    var ep = RepSynthetic.trial(c, new RepSynthetic.Key(20, 0, "ep"));
    var appC = RepSynthetic.trial(c, new RepSynthetic.Key(20, 0, "power-ep-c"));
    var minka = RepSynthetic.trial(c, new RepSynthetic.Key(20, 0, "power-ep"));
    assertEquals(ep.getDouble("shared_lengthscale"), appC.getDouble("shared_lengthscale"));
    assertEquals(ep.getDouble("shared_lengthscale"), minka.getDouble("shared_lengthscale"));
    assertTrue(List.of(0.6, 0.8).contains(appC.getDouble("parameter")), "u by CV");
  }
}
