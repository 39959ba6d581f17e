package org.approxgp.papers.rep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.approxgp.data.Dataset;
import org.approxgp.data.Split;
import org.approxgp.experiment.ProjectPaths;
import org.junit.jupiter.api.Test;

class RepUciTest {

  @Test
  void dataSetsHaveThePapersSizesAndPlusMinusOneLabels() {
    for (String name : new String[] {"heart", "pima", "diabetes", "spam"}) {
      Dataset d = RepUci.dataset(name);
      RepUci.Protocol p = RepUci.PROTOCOLS.get(name);
      assertEquals(p.nTrain() + p.nTest(), d.size(), name);
      assertTrue(Arrays.stream(d.target()).allMatch(v -> v == 1 || v == -1), name);
      assertTrue(Arrays.stream(d.target()).anyMatch(v -> v == 1)
          && Arrays.stream(d.target()).anyMatch(v -> v == -1));
    }
    assertEquals(13, RepUci.dataset("heart").dimension());
    assertEquals(8, RepUci.dataset("diabetes").dimension());
    assertEquals(
        268,
        Arrays.stream(RepUci.dataset("diabetes").target()).filter(v -> v > 0).count());
    assertEquals(
        1813, Arrays.stream(RepUci.dataset("spam").target()).filter(v -> v > 0).count());
  }

  @Test
  void habermanStandsInFromRotterdam() {
    assertTrue(RepUci.available("haberman"));
    Dataset d = RepUci.dataset("haberman");
    assertEquals(2837, d.size());
    assertEquals(3, d.dimension());
    Split s = RepUci.split("haberman", d.size(), 5);
    assertEquals(183, s.train().length);
    assertEquals(123, s.test().length);
    Set<Integer> all = new HashSet<>();
    Arrays.stream(s.train()).forEach(all::add);
    Arrays.stream(s.test()).forEach(all::add);
    assertEquals(306, all.size());
    assertTrue(all.stream().allMatch(i -> i >= 0 && i < 2837));
    assertEquals(s, RepUci.split("haberman", d.size(), 5));
    assertFalse(s.equals(RepUci.split("haberman", d.size(), 6)));
    RepUci.Config c = RepUci.Config.forMode(ProjectPaths.Mode.QUICK, "keep");
    assertEquals(
        2 * 4,
        RepUci.experiment(c).trials().stream()
            .filter(k -> k.dataset().equals("haberman"))
            .count());
  }

  @Test
  void splitsHaveThePapersSizesAndAreSeeded() {
    for (String name : new String[] {"heart", "pima", "diabetes", "spam"}) {
      RepUci.Protocol p = RepUci.PROTOCOLS.get(name);
      int n = p.nTrain() + p.nTest();
      Split s = RepUci.split(name, n, 3);
      assertEquals(p.nTrain(), s.train().length, name);
      assertEquals(p.nTest(), s.test().length, name);
      Set<Integer> all = new HashSet<>();
      Arrays.stream(s.train()).forEach(all::add);
      Arrays.stream(s.test()).forEach(all::add);
      assertEquals(n, all.size());
      assertEquals(s, RepUci.split(name, n, 3));
      assertFalse(s.equals(RepUci.split(name, n, 4)));
    }
    assertThrows(IllegalArgumentException.class, () -> RepUci.split("heart", 200, 0));
  }

  @Test
  void configsFollowTheModes() {
    RepUci.Config paper = RepUci.Config.paper("keep");
    // heart 20 + pima 20 + diabetes 100 + haberman (stand-in) 100 splits, spam 100 × 5 flip rates;
    // four methods: EP, PEP (appendix C), PEP (Minka), REP
    assertEquals(
        4 * (20 + 20 + 100 + 100 + 100 * 5), RepUci.experiment(paper).trials().size());
    assertEquals(5, paper.lengthscales().size());
    assertEquals(5, paper.cvFolds());
    // full: every data set and flip rate, 20 splits of each, every other grid point of paper()'s
    RepUci.Config full = RepUci.Config.forMode(ProjectPaths.Mode.FULL, "keep");
    assertEquals(4 * (20 * 4 + 20 * 5), RepUci.experiment(full).trials().size());
    assertEquals(paper.spamFlipPercents(), full.spamFlipPercents());
    for (int k = 0; k < 3; k++) {
      assertEquals(paper.lengthscales().get(2 * k), full.lengthscales().get(k));
      assertEquals(paper.powers().get(2 * k), full.powers().get(k));
      assertEquals(paper.penalties().get(2 * k), full.penalties().get(k));
    }
    RepUci.Config smoke = RepUci.Config.forMode(ProjectPaths.Mode.SMOKE, "clip");
    assertEquals(4, RepUci.experiment(smoke).trials().size());
    assertEquals(1, smoke.lengthscales().size());
  }
}
