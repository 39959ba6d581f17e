package org.approxgp.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;

/** The sVBSSGP paper's five 95 % / 5 % splits and training-only standardisation. */
class RegressionSplitsTest {

  @Test
  void fiveSplitsOfNinetyFiveFivePartitionTheRowsAndDiffer() {
    int n = 1001;
    List<Split> splits = RegressionSplits.paper(n, 42);
    assertEquals(5, splits.size());
    Set<List<Integer>> tests = new HashSet<>();
    for (Split s : splits) {
      assertEquals(50, s.test().length); // round(0.05 · 1001) = 50
      assertEquals(951, s.train().length);
      boolean[] seen = new boolean[n];
      for (int i : s.train()) {
        seen[i] = true;
      }
      for (int i : s.test()) {
        assertTrue(!seen[i], "row " + i + " in both parts");
        seen[i] = true;
      }
      for (boolean b : seen) {
        assertTrue(b);
      }
      tests.add(Arrays.stream(s.test()).boxed().toList());
    }
    assertEquals(5, tests.size(), "five different test sets");
    assertEquals(splits, RegressionSplits.paper(n, 42), "same seed, same splits");
    assertNotEquals(splits, RegressionSplits.paper(n, 43));
    assertEquals(Splits.random(n, 0.05, 44), splits.get(2), "split i uses seed + i");
  }

  private static RegressionData data(int n, long seed) {
    UniformRandomProvider r = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    double[] x = new double[n * 3];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      x[3 * i] = 100 + 20 * r.nextDouble();
      x[3 * i + 1] = 7; // constant column
      x[3 * i + 2] = -1e6 * r.nextDouble();
      y[i] = 50 + 30 * r.nextDouble();
    }
    return new RegressionData(x, n, 3, y);
  }

  @Test
  void trainingPartHasMeanZeroAndUnitPopulationSdTestUsesTrainingStatistics() {
    RegressionData all = data(400, 1);
    double[] before = all.x().clone();
    Split split = RegressionSplits.paper(400, 9).get(0);
    RegressionSplits.Standardized s = RegressionSplits.standardize(all, split, true);
    assertArrayEquals(before, all.x(), "input data untouched");
    RegressionData tr = s.train();
    assertEquals(380, tr.n());
    assertEquals(20, s.test().n());
    for (int j : new int[] {0, 2}) {
      double m = 0;
      double v = 0;
      for (int i = 0; i < tr.n(); i++) {
        m += tr.x(i, j);
      }
      m /= tr.n();
      for (int i = 0; i < tr.n(); i++) {
        v += (tr.x(i, j) - m) * (tr.x(i, j) - m);
      }
      assertEquals(0.0, m, 1e-12);
      assertEquals(1.0, v / tr.n(), 1e-12);
    }
    for (int i = 0; i < tr.n(); i++) {
      assertEquals(0.0, tr.x(i, 1), "constant column -> 0 with scale 1");
    }
    assertEquals(1.0, s.xScale()[1]);
    // the training statistics, recomputed directly from the training rows
    int[] trainRows = split.train();
    double mean0 =
        Arrays.stream(trainRows).mapToDouble(i -> all.x(i, 0)).average().orElseThrow();
    double sd0 = Math.sqrt(Arrays.stream(trainRows)
            .mapToDouble(i -> (all.x(i, 0) - mean0) * (all.x(i, 0) - mean0))
            .sum()
        / trainRows.length);
    assertEquals(mean0, s.xMean()[0], 1e-12 * Math.abs(mean0));
    assertEquals(sd0, s.xScale()[0], 1e-12 * sd0);
    int t0 = split.test()[0];
    assertEquals((all.x(t0, 0) - mean0) / sd0, s.test().x(0, 0), 1e-12);
    double ym = Arrays.stream(trainRows).mapToDouble(i -> all.y()[i]).average().orElseThrow();
    assertEquals(ym, s.yMean(), 1e-12 * ym);
    assertEquals(all.y()[t0], s.mean(s.test().y()[0]), 1e-10);
    assertEquals(s.yScale() * s.yScale() * 2.0, s.variance(2.0), 1e-12);
  }

  @Test
  void targetLeftAloneWhenNotStandardised() {
    RegressionData all = data(100, 2);
    Split split = RegressionSplits.paper(100, 3).get(4);
    RegressionSplits.Standardized s = RegressionSplits.standardize(all, split, false);
    assertEquals(0.0, s.yMean());
    assertEquals(1.0, s.yScale());
    assertEquals(all.y()[split.train()[0]], s.train().y()[0]);
    assertEquals(all.y()[split.test()[0]], s.test().y()[0]);
    assertThrows(
        IllegalArgumentException.class,
        () -> RegressionSplits.standardize(
            new RegressionData(new double[2], 2, 1, null), split, true));
  }

  @Test
  void samplesAreDistinctSortedAndSeeded() {
    RegressionData all = data(1000, 4);
    RegressionSet set =
        new RegressionSet("t", List.of("a", "b", "c"), "y", all, new Provenance("gen", ""));
    RegressionSet a = RegressionDatasets.sample(set, 300, 7, "t-300");
    RegressionSet b = RegressionDatasets.sample(set, 300, 7, "t-300");
    assertArrayEquals(a.data().x(), b.data().x());
    assertEquals(300, a.size());
    assertTrue(a.provenance().detail().contains("seed 7"));
    // every sampled row is a distinct row of the data, in the data's order (x[2] is distinct per
    // row)
    int last = -1;
    Set<Double> keys = new HashSet<>();
    for (int k = 0; k < a.size(); k++) {
      int i = indexOf(all, a.data().x(k, 2));
      assertTrue(i > last, "ascending row order");
      last = i;
      assertTrue(keys.add(a.data().x(k, 2)));
      assertEquals(all.y()[i], a.data().y()[k]);
    }
    assertNotEquals(
        Arrays.toString(a.data().y()),
        Arrays.toString(RegressionDatasets.sample(set, 300, 8, "x").data().y()));
    assertEquals(1000, RegressionDatasets.sample(set, 1000, 1, "all").size());
    assertThrows(
        IllegalArgumentException.class, () -> RegressionDatasets.sample(set, 1001, 1, "x"));
  }

  private static int indexOf(RegressionData d, double key) {
    for (int i = 0; i < d.n(); i++) {
      if (d.x(i, 2) == key) {
        return i;
      }
    }
    throw new AssertionError("not found " + key);
  }
}
