package org.approxgp.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class StandardizerTest {
  @Test
  void fitsOnTrainingRowsOnlyWithDdofZero() {
    double[][] train = {{1, 10}, {3, 10}, {5, 10}};
    Standardizer s = Standardizer.fit(train);
    assertArrayEquals(new double[] {3, 10}, s.mean(), 0);
    assertArrayEquals(new double[] {Math.sqrt(8.0 / 3.0), 1.0}, s.scale(), 1e-15);
    double[][] z = s.apply(train);
    double sum = 0;
    double sq = 0;
    for (double[] r : z) {
      sum += r[0];
      sq += r[0] * r[0];
      assertEquals(0.0, r[1]); // constant column -> 0 (scale 1)
    }
    assertEquals(0.0, sum, 1e-14);
    assertEquals(3.0, sq, 1e-14); // ddof 0: mean of squares is 1
    // test rows use the training mean/scale, not their own
    double[][] test = {{7, 12}};
    double[][] zt = s.apply(test);
    assertEquals(4 / Math.sqrt(8.0 / 3.0), zt[0][0], 1e-14);
    assertEquals(2.0, zt[0][1], 0);
    assertEquals(7.0, test[0][0]); // input not modified
  }

  @Test
  void constantColumnWithInexactMeanStillGetsScaleOne() {
    double[][] train = {{0.1}, {0.1}, {0.1}};
    Standardizer s = Standardizer.fit(train);
    assertEquals(1.0, s.scale()[0]);
  }

  @Test
  void returnsCopiesAndRejectsBadInput() {
    Standardizer s = Standardizer.fit(new double[][] {{1}, {2}});
    s.mean()[0] = 99;
    assertEquals(1.5, s.mean()[0]);
    assertThrows(IllegalArgumentException.class, () -> Standardizer.fit(new double[0][]));
    assertThrows(
        IllegalArgumentException.class, () -> Standardizer.fit(new double[][] {{1}, {1, 2}}));
    assertThrows(
        IllegalArgumentException.class, () -> Standardizer.fit(new double[][] {{Double.NaN}}));
    assertThrows(IllegalArgumentException.class, () -> s.apply(new double[][] {{1, 2}}));
  }
}
