package org.approxgp.sparse;

import java.util.Arrays;

/** Row indices grouped by partition: rows of partition k are {@code rows[start[k] … start[k+1])}. */
record RowPartitioning(int[] rows, int[] start) {

  static RowPartitioning of(int[] labels, int p) {
    int[] start = new int[p + 1];
    for (int label : labels) {
      start[label + 1]++;
    }
    for (int k = 0; k < p; k++) {
      start[k + 1] += start[k];
    }
    int[] fill = Arrays.copyOf(start, p);
    int[] rows = new int[labels.length];
    for (int i = 0; i < labels.length; i++) {
      rows[fill[labels[i]]++] = i;
    }
    return new RowPartitioning(rows, start);
  }

  int count() {
    return start.length - 1;
  }
}
