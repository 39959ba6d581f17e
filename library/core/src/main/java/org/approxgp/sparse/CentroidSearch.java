package org.approxgp.sparse;

import java.util.Arrays;

/**
 * The nearest centroid by a k-d tree over the centroids (Friedman, Bentley &amp; Finkel 1977): each node splits
 * its centroids at the median of the coordinate along which they spread most and keeps the bounding box of its
 * centroids; a query visits the child whose box is nearer first and the other one only while the squared
 * distance from the query to that box, Σ_j g_j² with g_j = max(lo_j − x_j, x_j − hi_j, 0), is at most the best
 * squared distance so far (the box of the node's centroids lies inside the node's cell, so it prunes more than
 * the distance to the cell; the leaves are scanned whole).
 *
 * <p><b>Exact, ties included.</b> A centroid c in a box has |c_j − x_j| ≥ g_j in every coordinate, and the
 * floating-point difference, square and running sum are monotone in their arguments; so c's distance, summed
 * over the coordinates in the same order as {@link KMeans#nearest(double[], int, int, double[], double[]) the
 * full scan} (j = 0 … d−1), is at least the box distance summed the same way. A box is skipped only when that
 * bound exceeds the best distance strictly, hence no centroid at the best distance, whatever its index, is
 * skipped, and the search returns exactly what the full scan returns (the lowest index among equal distances).
 * A hint (e.g. a row's previous centroid in a Lloyd iteration) only sets the first best distance: the same
 * argument makes the answer independent of it.
 */
final class CentroidSearch {
  private static final int LEAF = 16;
  private final double[] c;
  private final int dim;
  private final int[] order;
  // node arrays: the centroids order[from[v] .. to[v]); leaves have splitDim −1
  private final int[] from;
  private final int[] to;
  private final int[] splitDim;
  private final int[] left;
  private final int[] right;
  // node v's bounding box: lo[v·dim + j] ≤ c_j ≤ hi[v·dim + j] for its centroids
  private final double[] lo;
  private final double[] hi;
  // leaf v's centroids, coordinate j of its t-th: packed[from[v]·dim + j·(to[v] − from[v]) + t]
  private final double[] packed;
  private final int widestLeaf;
  private int nodes;

  CentroidSearch(double[] c, int k, int dim) {
    this.c = c;
    this.dim = dim;
    this.order = new int[k];
    for (int q = 0; q < k; q++) {
      order[q] = q;
    }
    int cap = 2 * k + 1; // a split needs more than LEAF centroids, so there are fewer nodes than k
    from = new int[cap];
    to = new int[cap];
    splitDim = new int[cap];
    left = new int[cap];
    right = new int[cap];
    lo = new double[cap * dim];
    hi = new double[cap * dim];
    build(0, k);
    // each leaf's centroids coordinate-major (c_j of its centroids side by side), leaves in tree
    // order
    packed = new double[k * dim];
    int widest = 0;
    for (int v = 0; v < nodes; v++) {
      if (splitDim[v] < 0) {
        int count = to[v] - from[v];
        widest = Math.max(widest, count);
        for (int t = 0; t < count; t++) {
          for (int j = 0; j < dim; j++) {
            packed[from[v] * dim + j * count + t] = c[order[from[v] + t] * dim + j];
          }
        }
      }
    }
    this.widestLeaf = widest;
  }

  private int build(int first, int end) {
    int v = nodes++;
    from[v] = first;
    to[v] = end;
    splitDim[v] = -1;
    int best = 0;
    double spread = -1;
    for (int j = 0; j < dim; j++) {
      double min = Double.POSITIVE_INFINITY;
      double max = Double.NEGATIVE_INFINITY;
      for (int t = first; t < end; t++) {
        double x = c[order[t] * dim + j];
        min = Math.min(min, x);
        max = Math.max(max, x);
      }
      lo[v * dim + j] = min;
      hi[v * dim + j] = max;
      if (max - min > spread) {
        spread = max - min;
        best = j;
      }
    }
    if (end - first <= LEAF) {
      return v;
    }
    if (!(spread > 0)) {
      return v; // coincident centroids: one leaf
    }
    int j = best;
    // order[first, end) by (c_j, index)
    Integer[] byValue = new Integer[end - first];
    for (int t = first; t < end; t++) {
      byValue[t - first] = order[t];
    }
    Arrays.sort(byValue, (u, w) -> {
      int cmp = Double.compare(c[u * dim + j], c[w * dim + j]);
      return cmp != 0 ? cmp : Integer.compare(u, w);
    });
    for (int t = first; t < end; t++) {
      order[t] = byValue[t - first];
    }
    int mid = (first + end) >>> 1;
    splitDim[v] = j;
    left[v] = build(first, mid);
    right[v] = build(mid, end);
    return v;
  }

  /** The nearest centroid to x (its squared distance into bestOut[0] unless null). */
  int nearest(double[] x, double[] bestOut) {
    return nearest(x, -1, bestOut);
  }

  /**
   * The nearest centroid to x, the search started from centroid {@code hint} (−1: none); the answer does not
   * depend on the hint, only the work does.
   */
  int nearest(double[] x, int hint, double[] bestOut) {
    Query q = new Query(dim);
    int l = q.nearest(x, hint);
    if (bestOut != null) {
      bestOut[0] = q.bestDist;
    }
    return l;
  }

  /** One thread's search state: the best so far and a leaf's distances (reused from row to row). */
  final class Query {
    private final double[] leafDist;
    double bestDist;

    private int bestIndex;

    Query(int dim) {
      this.leafDist = new double[widestLeaf];
    }

    int nearest(double[] x, int hint) {
      bestDist = Double.POSITIVE_INFINITY;
      bestIndex = -1;
      if (hint >= 0) {
        int o = hint * dim;
        double s = 0;
        for (int i = 0; i < dim; i++) {
          double e = c[o + i] - x[i];
          s += e * e;
        }
        bestDist = s;
        bestIndex = hint;
      }
      if (boxDistance(0, x) <= bestDist) {
        visit(0, x);
      }
      return bestIndex;
    }

    /** Σ_j g_j², g_j the gap from x_j to node v's box in coordinate j (0 inside), summed j = 0 … d−1. */
    private double boxDistance(int v, double[] x) {
      int o = v * dim;
      double s = 0;
      for (int i = 0; i < dim; i++) {
        double xi = x[i];
        double g = Math.max(Math.max(lo[o + i] - xi, xi - hi[o + i]), 0.0);
        s += g * g;
      }
      return s;
    }

    private void visit(int v, double[] x) {
      if (splitDim[v] < 0) {
        // every distance of the leaf, summed over j = 0 … d−1 as the full scan does (no early
        // exit:
        // the coordinate-major loop runs across centroids without branches)
        int first = from[v];
        int count = to[v] - first;
        double[] s = leafDist;
        Arrays.fill(s, 0, count, 0.0);
        for (int i = 0, o = first * dim; i < dim; i++, o += count) {
          double xi = x[i];
          for (int t = 0; t < count; t++) {
            double e = packed[o + t] - xi;
            s[t] += e * e;
          }
        }
        for (int t = 0; t < count; t++) {
          int q = order[first + t];
          if (s[t] < bestDist || (s[t] == bestDist && q < bestIndex)) {
            bestDist = s[t];
            bestIndex = q;
          }
        }
        return;
      }
      int l = left[v];
      int r = right[v];
      double dl = boxDistance(l, x);
      double dr = boxDistance(r, x);
      int near = dl <= dr ? l : r;
      int far = dl <= dr ? r : l;
      double farDistance = Math.max(dl, dr);
      // a skipped box holds no centroid at the best distance (see above): its distance bounds
      // theirs
      if (Math.min(dl, dr) <= bestDist) {
        visit(near, x);
      }
      if (farDistance <= bestDist) {
        visit(far, x);
      }
    }
  }
}
