package org.approxgp.sparse;

import java.util.Arrays;

/**
 * Row indices grouped by partition label (a counting sort: O(n) ints, no per-row objects): the blocks D₁ … D_p of
 * PIC++ ({@link Pic}) and the partitions X₁ … X_p of sVBSSGP ({@link Svbssgp}). Partition c's rows are
 * {@code rows()[start()[c] … start()[c+1])}, ascending.
 */
public final class RowBlocks {
  private final int[] start; // count + 1
  private final int[] rows;

  private RowBlocks(int[] start, int[] rows) {
    this.start = start;
    this.rows = rows;
  }

  /** Groups rows 0 … n−1 by their labels, which must lie in [0, count). */
  public static RowBlocks of(int[] labels, int count) {
    int[] start = new int[count + 1];
    for (int l : labels) {
      if (l < 0 || l >= count) {
        throw new IllegalArgumentException("label " + l + " outside [0, " + count + ")");
      }
      start[l + 1]++;
    }
    for (int c = 0; c < count; c++) {
      start[c + 1] += start[c];
    }
    int[] fill = Arrays.copyOf(start, count);
    int[] rows = new int[labels.length];
    for (int i = 0; i < labels.length; i++) {
      rows[fill[labels[i]]++] = i;
    }
    return new RowBlocks(start, rows);
  }

  /**
   * The same partitions over the positions of the grouped rows: partition c holds positions
   * {@code start()[c] … start()[c+1]} (for data reordered by {@link #rows()}).
   */
  RowBlocks positions() {
    int[] positions = new int[rows.length];
    Arrays.setAll(positions, i -> i);
    return new RowBlocks(start, positions);
  }

  /** The largest label (−1 for none), rejecting negative ones. */
  static int max(int[] labels) {
    int m = -1;
    for (int l : labels) {
      if (l < 0) {
        throw new IllegalArgumentException("partition labels must be >= 0, got " + l);
      }
      m = Math.max(m, l);
    }
    return m;
  }

  /** Number of partitions (labels 0 … count−1). */
  public int count() {
    return start.length - 1;
  }

  /** Rows in partition c. */
  public int size(int c) {
    return start[c + 1] - start[c];
  }

  /** The row indices of partition c (a copy, ascending). */
  public int[] rows(int c) {
    return Arrays.copyOfRange(rows, start[c], start[c + 1]);
  }

  /** All row indices, partition after partition (not a copy: callers must not modify it). */
  int[] rows() {
    return rows;
  }

  /** Partition c's rows are {@code rows()[start()[c] … start()[c+1])} (not a copy: callers must not modify it). */
  int[] start() {
    return start;
  }

  /** The labels of the non-empty partitions, ascending. */
  int[] nonEmpty() {
    int ne = 0;
    for (int c = 0; c < count(); c++) {
      ne += size(c) > 0 ? 1 : 0;
    }
    int[] out = new int[ne];
    for (int c = 0, i = 0; c < count(); c++) {
      if (size(c) > 0) {
        out[i++] = c;
      }
    }
    return out;
  }
}
