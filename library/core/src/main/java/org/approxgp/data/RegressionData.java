package org.approxgp.data;

import java.util.Arrays;

/**
 * Regression data: n rows of d inputs, stored row-major in one array (3·10⁶ × 9 doubles is 216 MB; one
 * array per row would add ~50 MB of headers), and n real targets (may be null for test inputs).
 *
 * <p>The arrays are owned by the record (callers must not modify them after construction); accessors
 * return them without copying, for streaming over millions of rows.
 *
 * @param x row-major inputs, length n·d
 * @param n number of rows
 * @param d number of inputs per row
 * @param y targets, length n, or null when unknown
 */
public record RegressionData(double[] x, int n, int d, double[] y) {

  public RegressionData {
    if (n < 0 || d < 1) {
      throw new IllegalArgumentException(
          "need n >= 0 rows and d >= 1 inputs, got n=" + n + ", d=" + d);
    }
    if (x == null || x.length != (long) n * d) {
      throw new IllegalArgumentException("inputs must have n·d = " + ((long) n * d)
          + " values, got " + (x == null ? "null" : x.length));
    }
    if (y != null && y.length != n) {
      throw new IllegalArgumentException("targets must have n = " + n + " values, got " + y.length);
    }
    for (int i = 0; i < x.length; i++) {
      if (!Double.isFinite(x[i])) {
        throw new IllegalArgumentException(
            "input row " + i / d + ", column " + i % d + " is " + x[i]);
      }
    }
    if (y != null) {
      for (int i = 0; i < n; i++) {
        if (!Double.isFinite(y[i])) {
          throw new IllegalArgumentException("target row " + i + " is " + y[i]);
        }
      }
    }
  }

  /** Data from one array per row (copied). */
  public static RegressionData of(double[][] rows, double[] y) {
    int n = rows.length;
    if (n == 0) {
      throw new IllegalArgumentException("no rows");
    }
    int d = rows[0].length;
    double[] x = new double[n * d];
    for (int i = 0; i < n; i++) {
      if (rows[i].length != d) {
        throw new IllegalArgumentException(
            "row " + i + " has " + rows[i].length + " inputs, row 0 has " + d);
      }
      System.arraycopy(rows[i], 0, x, i * d, d);
    }
    return new RegressionData(x, n, d, y == null ? null : y.clone());
  }

  /** Input j of row i. */
  public double x(int i, int j) {
    return x[i * d + j];
  }

  /** A copy of row i's inputs. */
  public double[] row(int i) {
    return Arrays.copyOfRange(x, i * d, (i + 1) * d);
  }

  /** Copies of every row's inputs (n × d). */
  public double[][] rows() {
    double[][] rows = new double[n][];
    for (int i = 0; i < n; i++) {
      rows[i] = row(i);
    }
    return rows;
  }

  /** Whether targets are known. */
  public boolean hasTargets() {
    return y != null;
  }

  /** The rows with the given indices, in that order (copied). */
  public RegressionData subset(int[] rows) {
    double[] xs = new double[rows.length * d];
    double[] ys = y == null ? null : new double[rows.length];
    for (int k = 0; k < rows.length; k++) {
      int i = rows[k];
      if (i < 0 || i >= n) {
        throw new IndexOutOfBoundsException("row " + i + " of " + n);
      }
      System.arraycopy(x, i * d, xs, k * d, d);
      if (ys != null) {
        ys[k] = y[i];
      }
    }
    return new RegressionData(xs, rows.length, d, ys);
  }

  /** Rows {@code idx[from … to)} of these data gathered into a contiguous row-major array. */
  public double[] gatherX(int[] idx, int from, int to) {
    double[] out = new double[(to - from) * d];
    for (int k = from; k < to; k++) {
      System.arraycopy(x, idx[k] * d, out, (k - from) * d, d);
    }
    return out;
  }

  /** Targets {@code idx[from … to)} of these data. */
  public double[] gatherY(int[] idx, int from, int to) {
    double[] out = new double[to - from];
    for (int k = from; k < to; k++) {
      out[k - from] = y[idx[k]];
    }
    return out;
  }
}
