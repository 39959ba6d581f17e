package org.approxgp.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@link InputWarp}'s rule on columns whose quantiles are worked out by hand (definition 7: the order statistics
 * around (n − 1)p, interpolated), its offsets, and its warp with the tangent below 0.
 */
class InputWarpTest {

  /** n rows of the given columns, row by row. */
  private static double[] rows(double[]... columns) {
    int n = columns[0].length;
    int d = columns.length;
    double[] x = new double[n * d];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < d; j++) {
        x[i * d + j] = columns[j][i];
      }
    }
    return x;
  }

  /** k copies of a, then n − k of b, in an order that is not sorted. */
  private static double[] column(int n, int k, double a, double b) {
    double[] c = new double[n];
    for (int i = 0; i < n; i++) {
      c[(i * 37) % n] = i < k ? a : b; // 37 is prime to 100: a permutation
    }
    return c;
  }

  @Test
  void quantilesInterpolateTheOrderStatisticsAsNumpysDefault() {
    double[] s = {1, 2, 3, 4};
    // numpy.quantile([1, 2, 3, 4], [0.5, 0.99, 0.01]) = [2.5, 3.97, 1.03]
    assertEquals(2.5, InputWarp.quantile(s, 0, 4, 0.5), 1e-15);
    assertEquals(3.97, InputWarp.quantile(s, 0, 4, 0.99), 1e-15);
    assertEquals(1.03, InputWarp.quantile(s, 0, 4, 0.01), 1e-15);
    assertEquals(4, InputWarp.quantile(s, 0, 4, 1), 0);
    assertEquals(3.5, InputWarp.quantile(s, 2, 2, 0.5), 1e-15);
    assertEquals(7, InputWarp.quantile(new double[] {7}, 0, 1, 0.99), 0);
  }

  @Test
  void anInputIsWarpedWhenItsUpperTailReachesTenTimesItsMedian() {
    int n = 100;
    // sorted positions 98 and 99 (h = 99 · 0.99 = 98.01) decide the 99th percentile; 49 and 50 the
    // median
    double[] tail = column(n, 90, 1, 100); // median 1, 99th percentile 100: warped, c = 1
    double[] atLine = column(n, 90, 1, 10); // 99th percentile exactly 10 × the median: warped
    double[] belowLine = column(n, 90, 1, 9.99); // not warped
    double[] uniform = new double[n]; // 1..100: 99.01 / 50.5, not warped
    for (int i = 0; i < n; i++) {
      uniform[i] = (i * 37) % n + 1;
    }
    double[] negative = column(n, 90, 1, 100);
    negative[5] = -1e-9; // one value below 0: not warped
    double[] mostlyZero = column(n, 60, 0, 50); // median 0: not warped
    double[] zeros =
        new double[n]; // 10 zeros, 80 twos, 10 fifties: median 2, 99th percentile 50; c = 2
    for (int i = 0; i < n; i++) {
      zeros[(i * 37) % n] = i < 10 ? 0 : i < 90 ? 2 : 50;
    }
    InputWarp w =
        InputWarp.fit(rows(tail, atLine, belowLine, uniform, negative, mostlyZero, zeros), n, 7);
    assertArrayEquals(new int[] {0, 1, 6}, w.columns());
    assertArrayEquals(new double[] {1, 1, 2}, w.offsets(), 0);
  }

  @Test
  void theOffsetIsTheFirstPercentileOfThePositiveValues() {
    int n = 100;
    double[] c = new double[n];
    // 3 zeros, then 97 positive values 0.5, 1, 1.5, ..., 44 and a tail up to 1000
    for (int i = 0; i < n; i++) {
      c[i] = i < 3 ? 0 : i < 90 ? 0.5 * (i - 2) : 1000;
    }
    InputWarp w = InputWarp.fit(c, n, 1);
    assertArrayEquals(new int[] {0}, w.columns());
    // 97 positive values: h = 96 · 0.01 = 0.96 between 0.5 and 1
    assertEquals(0.5 + 0.96 * 0.5, w.offsets()[0], 1e-15);
  }

  @Test
  void theWarpIsLogOfTheShiftedValueAndItsTangentBelowZero() {
    double c = 2.5;
    assertEquals(Math.log(7.5), InputWarp.warp(5, c), 0);
    assertEquals(Math.log(c), InputWarp.warp(0, c), 0);
    assertEquals(Math.log(c) - 0.5 / c, InputWarp.warp(-0.5, c), 0);
    // continuous, with a continuous slope, at 0
    double h = 1e-7;
    double right = (InputWarp.warp(h, c) - InputWarp.warp(0, c)) / h;
    double left = (InputWarp.warp(0, c) - InputWarp.warp(-h, c)) / h;
    assertEquals(1 / c, right, 1e-7);
    assertEquals(1 / c, left, 1e-9);
    assertTrue(InputWarp.warp(-1e-3, c) < Math.log(c));
  }

  @Test
  void applyingChangesOnlyTheWarpedColumns() {
    int n = 100;
    double[] x = rows(column(n, 90, 1, 100), column(n, 50, 3, 4));
    InputWarp w = InputWarp.fit(x, n, 2);
    double[] test = {0, 7, 99, -8, -1, 5};
    w.applyInPlace(test, 2);
    assertArrayEquals(
        new double[] {Math.log(1), 7, Math.log(100), -8, Math.log(1) - 1, 5}, test, 0);
    double[] untouched = {1, 2};
    InputWarp.none().applyInPlace(untouched, 2);
    assertArrayEquals(new double[] {1, 2}, untouched, 0);
    assertTrue(InputWarp.fit(new double[0], 0, 3).isEmpty());
  }
}
