package org.approxgp.sparse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.approxgp.data.RegressionData;
import org.junit.jupiter.api.Test;

class KMeansTest {

  /** 3 blobs (sd 0.5) centred 10 apart, 60 rows each, shuffled; returns rows and writes true labels. */
  private static RegressionData blobs(long seed, int[] labelsOut) {
    double[][] centres = {{0, 0}, {10, 0}, {0, 10}};
    SplittableRandom rng = new SplittableRandom(seed);
    int n = labelsOut.length;
    double[][] x = new double[n][2];
    for (int i = 0; i < n; i++) {
      int c = i % 3;
      labelsOut[i] = c;
      x[i][0] = centres[c][0] + 0.5 * rng.nextGaussian();
      x[i][1] = centres[c][1] + 0.5 * rng.nextGaussian();
    }
    return RegressionData.of(x, null);
  }

  @Test
  void recoversWellSeparatedClusters() {
    int[] truth = new int[180];
    RegressionData x = blobs(11, truth);
    KMeans km = KMeans.fit(x, 3, 5, 50);
    assertTrue(km.converged());
    int[] got = km.assign(x);
    // the labelling is a bijection of the true one
    int[] map = {-1, -1, -1};
    for (int i = 0; i < truth.length; i++) {
      if (map[truth[i]] < 0) {
        map[truth[i]] = got[i];
      }
      assertEquals(map[truth[i]], got[i], "row " + i);
    }
    assertNotEquals(map[0], map[1]);
    assertNotEquals(map[0], map[2]);
    assertNotEquals(map[1], map[2]);
    assertArrayEquals(new int[] {60, 60, 60}, km.sizes());
    double[][] centres = {{0, 0}, {10, 0}, {0, 10}};
    for (int c = 0; c < 3; c++) {
      double[] z = km.centroid(map[c]);
      // mean of 60 rows with sd 0.5: standard error 0.065 per coordinate
      assertEquals(centres[c][0], z[0], 0.3);
      assertEquals(centres[c][1], z[1], 0.3);
    }
  }

  @Test
  void sameSeedSameCentroidsDifferentSeedMayDiffer() {
    RegressionData x = DenseGp.synthetic(500, 0.1, 3);
    KMeans a = KMeans.fit(x, 12, 42, 30);
    KMeans b = KMeans.fit(x, 12, 42, 30);
    assertArrayEquals(a.centroids(), b.centroids(), 0.0);
    assertArrayEquals(a.assign(x), b.assign(x));
    assertEquals(a.iterations(), b.iterations());
  }

  @Test
  void assignIsTheNearestCentroid() {
    RegressionData x = DenseGp.synthetic(400, 0.1, 4);
    KMeans km = KMeans.fit(x, 9, 1, 20);
    RegressionData probe = DenseGp.synthetic(300, 0.1, 99);
    int[] got = km.assign(probe);
    double[] c = km.centroids();
    for (int i = 0; i < probe.n(); i++) {
      int best = -1;
      double bd = Double.POSITIVE_INFINITY;
      for (int q = 0; q < km.k(); q++) {
        double s = 0;
        for (int j = 0; j < 2; j++) {
          double t = probe.x(i, j) - c[q * 2 + j];
          s += t * t;
        }
        if (s < bd) {
          bd = s;
          best = q;
        }
      }
      assertEquals(best, got[i], "row " + i);
    }
    // after Lloyd convergence every fitting row is also assigned to the centroid it was averaged
    // into
    KMeans conv = KMeans.fit(x, 9, 1, 500);
    assertTrue(conv.converged());
    int[] lab = conv.assign(x);
    int[] count = new int[9];
    for (int l : lab) {
      count[l]++;
    }
    assertArrayEquals(conv.sizes(), count);
  }

  /**
   * The leaky variant clusters outputs: with inputs that carry no information about a bimodal output (±10),
   * two leaky clusters split exactly by the sign of y — including the test rows — while input-only clusters
   * cannot.
   */
  @Test
  void leakyVariantUsesTestOutputs() {
    SplittableRandom rng = new SplittableRandom(8);
    int n = 200;
    double[][] x = new double[n][1];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      x[i][0] = rng.nextDouble();
      y[i] = (rng.nextBoolean() ? 10 : -10) + 0.1 * rng.nextGaussian();
    }
    RegressionData all = RegressionData.of(x, y);
    int[] tr = new int[150];
    int[] te = new int[50];
    for (int i = 0; i < n; i++) {
      if (i < 150) {
        tr[i] = i;
      } else {
        te[i - 150] = i;
      }
    }
    RegressionData train = all.subset(tr);
    RegressionData test = all.subset(te);
    KMeans leaky = KMeans.fitLeaky(train, test, 2, 3, 50);
    assertTrue(leaky.usesOutputs());
    assertEquals(2, leaky.centroidInputs().d() + 1);
    int[] lt = leaky.assign(test);
    int pos = -1;
    for (int i = 0; i < test.n(); i++) {
      if (test.y()[i] > 0) {
        pos = lt[i];
      }
    }
    for (int i = 0; i < test.n(); i++) {
      assertEquals(test.y()[i] > 0, lt[i] == pos, "test row " + i);
    }
    // honest: clusters of inputs only; the test labels do not follow the sign of y
    KMeans honest = KMeans.fit(train, 2, 3, 50);
    int[] ht = honest.assign(test);
    int agree = 0;
    for (int i = 0; i < test.n(); i++) {
      agree += (test.y()[i] > 0) == (ht[i] == 0) ? 1 : 0;
    }
    assertTrue(
        agree > 5 && agree < 45, "input-only clusters should not separate outputs: " + agree);
    assertThrows(
        IllegalArgumentException.class,
        () -> leaky.assign(new RegressionData(new double[1], 1, 1, null)));
  }

  @Test
  void badArgumentsAreRejected() {
    RegressionData x = DenseGp.synthetic(10, 0.1, 1);
    assertThrows(IllegalArgumentException.class, () -> KMeans.fit(x, 0, 1, 5));
    assertThrows(IllegalArgumentException.class, () -> KMeans.fit(x, 11, 1, 5));
    assertThrows(IllegalArgumentException.class, () -> KMeans.fit(x, 3, 1, -1));
  }

  /** Fitting on a seeded subsample of the training rows: deterministic, and still finds the three blobs. */
  @Test
  void subsampleFit() {
    int[] truth = new int[3000];
    RegressionData x = blobs(12, truth);
    KMeans a = KMeans.fit(x, 3, 4, 50, 300);
    KMeans b = KMeans.fit(x, 3, 4, 50, 300);
    assertArrayEquals(a.centroids(), b.centroids(), 0.0);
    assertEquals(300, java.util.Arrays.stream(a.sizes()).sum());
    int[] got = a.assign(x);
    int[] map = {-1, -1, -1};
    for (int i = 0; i < truth.length; i++) {
      if (map[truth[i]] < 0) {
        map[truth[i]] = got[i];
      }
      assertEquals(map[truth[i]], got[i], "row " + i);
    }
    assertThrows(IllegalArgumentException.class, () -> KMeans.fit(x, 3, 4, 50, 2));
  }

  /**
   * Rows on a coarse grid (many exact ties between rows, and between centroids when duplicated) with a few
   * hundred clusters: the tree search and the parallel pass change nothing against the plain scan.
   */
  @Test
  void treeSearchAndParallelAssignmentEqualTheFullScan() {
    SplittableRandom rng = new SplittableRandom(8);
    int n = 20_000;
    int d = 4;
    double[] x = new double[n * d];
    for (int i = 0; i < x.length; i++) {
      x[i] = rng.nextInt(7) + (i % d == 0 ? 0.5 * rng.nextInt(3) : 0);
    }
    RegressionData rows = new RegressionData(x, n, d, null);
    KMeans km = KMeans.fit(rows, 300, 3, 5, 5_000);
    // duplicated centroids as well: ties must go to the lower index exactly as the scan does
    double[] c = java.util.Arrays.copyOf(km.centroids(), 2 * 300 * d);
    System.arraycopy(c, 0, c, 300 * d, 300 * d);
    CentroidSearch search = new CentroidSearch(c, 600, d);
    double[] got = new double[1];
    double[] want = new double[1];
    int ties = 0;
    for (int i = 0; i < n; i++) {
      double[] row = rows.row(i);
      int a = search.nearest(row, got);
      int b = KMeans.nearest(c, 600, d, row, want);
      assertEquals(b, a, "row " + i);
      assertEquals(want[0], got[0], 0.0, "row " + i);
      ties += b < 300 ? 1 : 0;
    }
    assertEquals(
        n, ties); // every nearest centroid has a duplicate at index + 300, and the lower index wins
    int[] parallel = km.assign(rows);
    int[] serial = km.assignSerially(rows);
    assertArrayEquals(serial, parallel);
    double[] cs = km.centroids();
    for (int i = 0; i < n; i++) {
      assertEquals(KMeans.nearest(cs, km.k(), d, rows.row(i), null), parallel[i], "row " + i);
    }
  }

  /**
   * The search started from any centroid (as each Lloyd iteration starts a row from its previous centroid) returns
   * what the full scan returns, ties included: centroids on a coarse grid, each duplicated, and a block of 40
   * coincident centroids (more than a leaf holds), with query rows on the same grid.
   */
  @Test
  void hintedSearchEqualsTheFullScanWhateverTheHint() {
    SplittableRandom rng = new SplittableRandom(31);
    int d = 3;
    int k = 400;
    double[] c = new double[k * d];
    for (int q = 0; q < 180; q++) {
      for (int j = 0; j < d; j++) {
        c[q * d + j] = rng.nextInt(5) - 2;
      }
    }
    System.arraycopy(c, 0, c, 180 * d, 180 * d); // duplicates 180..359 of 0..179
    for (int q = 360; q < k; q++) {
      for (int j = 0; j < d; j++) {
        c[q * d + j] = 0.5; // 40 coincident centroids
      }
    }
    CentroidSearch search = new CentroidSearch(c, k, d);
    double[] got = new double[1];
    double[] want = new double[1];
    for (int i = 0; i < 5000; i++) {
      double[] x = new double[d];
      for (int j = 0; j < d; j++) {
        x[j] = 0.5 * (rng.nextInt(9) - 4);
      }
      int expected = KMeans.nearest(c, k, d, x, want);
      for (int hint : new int[] {-1, rng.nextInt(k), expected, k - 1, 0}) {
        assertEquals(expected, search.nearest(x, hint, got), "row " + i + ", hint " + hint);
        assertEquals(want[0], got[0], 0.0, "row " + i + ", hint " + hint);
      }
    }
  }

  /** The sample is the seed's: the same seed gives the same sample and centroids, another seed another sample. */
  @Test
  void sampleIsDeterministicInTheSeed() {
    int[] truth = new int[5000];
    RegressionData x = blobs(21, truth);
    KMeans a = KMeans.fit(x, 40, 9, 20, 1000);
    KMeans b = KMeans.fit(x, 40, 9, 20, 1000);
    KMeans c = KMeans.fit(x, 40, 10, 20, 1000);
    assertArrayEquals(a.centroids(), b.centroids(), 0.0);
    assertArrayEquals(a.sizes(), b.sizes());
    assertNotEquals(
        java.util.Arrays.toString(a.centroids()), java.util.Arrays.toString(c.centroids()));
    assertEquals(1000, java.util.Arrays.stream(a.sizes()).sum());
  }
}
