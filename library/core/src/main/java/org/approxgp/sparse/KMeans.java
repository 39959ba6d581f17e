package org.approxgp.sparse;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.approxgp.data.RegressionData;

/**
 * k-means partitions of the input space (the sVBSSGP paper §5: "partitioned into p disjoint subsets using
 * k-means"; inducing inputs of DTC++/PIC++ are initialised the same way). Seeding by k-means++ (Arthur &amp;
 * Vassilvitskii 2007: the first centre uniformly, each further centre with probability ∝ D(x)², the squared
 * distance to the nearest centre chosen so far), then Lloyd iterations (assign every row to its nearest
 * centroid, move every centroid to the mean of its rows) until no assignment changes or the iteration cap.
 *
 * <p>Streaming-friendly: each pass costs O(n k d) time and holds only the k × d centroids, one int label and
 * one double per row; no n × k matrix is formed.
 *
 * <p><b>Not balanced.</b> The paper says AIMPEAK and BLOG are "evenly partitioned ... using k-means" but
 * AIRLINE only "partitioned ... using k-means", and the authors' partitioning code (RVGP {@code kmean.cpp},
 * used for their PIC++ runs) is plain Lloyd k-means with no size constraint. We read "evenly" as "into
 * disjoint subsets covering the data" and do the same; {@link #sizes} shows how uneven the clusters are.
 *
 * <p>Two variants:
 * <ul>
 *   <li>{@link #fit} clusters the <i>inputs</i> of the <i>training rows only</i> — the honest protocol; test
 *       rows are then {@link #assign assigned} to the nearest centroid.
 *   <li>{@link #fitLeaky} reproduces the authors' code, which clusters the raw rows (inputs <i>and</i> output)
 *       of the whole data set, test rows included, before splitting. That leaks test outputs into the
 *       partition of the training data (a test row's block is chosen knowing its target); it is provided only
 *       to show the difference.
 * </ul>
 *
 * <p>Empty clusters in a Lloyd step are re-seeded at the row farthest from its centroid (deterministic).
 * Ties in the nearest-centroid search go to the lower index. Same data and seed give bit-identical results.
 *
 * <p><b>Parallel.</b> The O(n k d) passes — each row's nearest centroid (Lloyd's assignment step and
 * {@link #assign}) and each row's distance to the newest k-means++ centre — run over blocks of
 * {@value #CHUNK} rows in the common fork-join pool. Each row's result depends on that row and the centroids
 * only, and every sum over rows (the D² total, the centroid means, the count of changed labels) is taken in
 * row order afterwards, so the results are bit-identical to a serial run whatever the number of threads.
 */
public final class KMeans {
  /** Rows per parallel block. */
  static final int CHUNK = 4096;

  private final double[] centroids; // k × dim, row-major
  private final int k;
  private final int dim;
  private final boolean usesOutputs;
  private final int iterations;
  private final boolean converged;
  private final int[] sizes;

  private KMeans(
      double[] centroids,
      int k,
      int dim,
      boolean usesOutputs,
      int iterations,
      boolean converged,
      int[] sizes) {
    this.centroids = centroids;
    this.k = k;
    this.dim = dim;
    this.usesOutputs = usesOutputs;
    this.iterations = iterations;
    this.converged = converged;
    this.sizes = sizes;
  }

  /**
   * The k centroids of rows {@code x} ({@link #fit(RegressionData, int, long, int)} on the inputs alone), one row
   * each: the inducing inputs of the sparse classifiers.
   */
  public static double[][] centroidRows(double[][] x, int k, long seed, int maxIterations) {
    KMeans km = fit(RegressionData.of(x, new double[x.length]), k, seed, maxIterations);
    double[][] z = new double[k][];
    for (int c = 0; c < k; c++) {
      z[c] = km.centroid(c);
    }
    return z;
  }

  /**
   * k-means on the inputs of the training rows (targets, if any, are ignored).
   *
   * @param x training rows
   * @param k number of clusters, 1 ≤ k ≤ n
   * @param seed seed of the k-means++ draws
   * @param maxIterations cap on Lloyd iterations (≥ 0; 0 returns the k-means++ centres)
   */
  public static KMeans fit(RegressionData x, int k, long seed, int maxIterations) {
    return run(new Rows(x.x(), null, x.n(), x.d(), null, null), k, seed, maxIterations, false);
  }

  /**
   * k-means on the inputs of a seeded uniform subsample of {@code sampleSize} training rows (all rows when
   * sampleSize ≥ n): the usual way to partition millions of rows (each pass costs O(sampleSize · k · d));
   * every row is then {@link #assign assigned} to its nearest centroid.
   */
  public static KMeans fit(RegressionData x, int k, long seed, int maxIterations, int sampleSize) {
    if (sampleSize >= x.n()) {
      return fit(x, k, seed, maxIterations);
    }
    if (sampleSize < k) {
      throw new IllegalArgumentException(
          "sample of " + sampleSize + " rows is smaller than k = " + k);
    }
    // Floyd's algorithm: sampleSize distinct rows, then ascending order (deterministic for a seed)
    SplittableRandom rng = new SplittableRandom(seed ^ 0x9E3779B97F4A7C15L);
    java.util.BitSet chosen = new java.util.BitSet(x.n());
    for (int j = x.n() - sampleSize; j < x.n(); j++) {
      int t = rng.nextInt(j + 1);
      chosen.set(chosen.get(t) ? j : t);
    }
    int[] idx = chosen.stream().toArray();
    return fit(x.subset(idx), k, seed, maxIterations);
  }

  /**
   * <b>Leaky variant</b> (the sVBSSGP/PIC++ authors' code): k-means on (inputs, output) of the training
   * <i>and</i> test rows together, so test targets influence the partition. Both data sets must have targets.
   * The centroids have d + 1 coordinates (inputs, then output); {@link #assign} of this model needs rows with
   * targets. Use only to show the effect of the leak.
   */
  public static KMeans fitLeaky(
      RegressionData train, RegressionData test, int k, long seed, int maxIterations) {
    if (!train.hasTargets() || !test.hasTargets()) {
      throw new IllegalArgumentException(
          "the leaky variant clusters outputs too: both sets need targets");
    }
    if (train.d() != test.d()) {
      throw new IllegalArgumentException("train has " + train.d() + " inputs, test " + test.d());
    }
    Rows rows = new Rows(train.x(), train.y(), train.n(), train.d(), test.x(), test.y());
    return run(rows, k, seed, maxIterations, true);
  }

  /** Number of clusters. */
  public int k() {
    return k;
  }

  /** Whether centroids include the output coordinate ({@link #fitLeaky}). */
  public boolean usesOutputs() {
    return usesOutputs;
  }

  /** Lloyd iterations run. */
  public int iterations() {
    return iterations;
  }

  /** Whether the last Lloyd iteration changed no assignment (false when the cap was hit). */
  public boolean converged() {
    return converged;
  }

  /** Cluster sizes on the fitting rows (a copy). */
  public int[] sizes() {
    return sizes.clone();
  }

  /** The centroids, k × d row-major (k × (d+1) for the leaky variant), as a copy. */
  public double[] centroids() {
    return centroids.clone();
  }

  /** Centroid c's coordinates (a copy). */
  public double[] centroid(int c) {
    return Arrays.copyOfRange(centroids, c * dim, (c + 1) * dim);
  }

  /** The inputs of the centroids as regression rows (k × d, no targets): inducing inputs for DTC/PIC. */
  public RegressionData centroidInputs() {
    int d = usesOutputs ? dim - 1 : dim;
    double[] z = new double[k * d];
    for (int c = 0; c < k; c++) {
      System.arraycopy(centroids, c * dim, z, c * d, d);
    }
    return new RegressionData(z, k, d, null);
  }

  /** The nearest centroid (squared Euclidean distance; ties to the lower index) of every row. */
  public int[] assign(RegressionData rows) {
    int d = usesOutputs ? dim - 1 : dim;
    if (rows.d() != d) {
      throw new IllegalArgumentException("rows have " + rows.d() + " inputs, the centroids " + d);
    }
    if (usesOutputs && !rows.hasTargets()) {
      throw new IllegalArgumentException(
          "this (leaky) model clusters outputs too: rows need targets");
    }
    Rows r = new Rows(rows.x(), usesOutputs ? rows.y() : null, rows.n(), rows.d(), null, null);
    int[] out = new int[rows.n()];
    assignInto(r, centroids, k, out, null, true, false);
    return out;
  }

  /** As {@link #assign}, one row after another in this thread (the reference for the parallel pass). */
  int[] assignSerially(RegressionData rows) {
    int[] out = new int[rows.n()];
    Rows r = new Rows(rows.x(), usesOutputs ? rows.y() : null, rows.n(), rows.d(), null, null);
    assignInto(r, centroids, k, out, null, false, false);
    return out;
  }

  /**
   * Every row's nearest centroid into {@code label} (and its squared distance into {@code dist} unless null),
   * over blocks of {@value #CHUNK} rows, in parallel when asked; {@code hinted}: each row's search starts from
   * its current label (the same answer, see {@link CentroidSearch}).
   *
   * @return how many labels changed
   */
  private static int assignInto(
      Rows rows, double[] c, int k, int[] label, double[] dist, boolean parallel, boolean hinted) {
    int n = rows.n();
    int dim = rows.dim();
    int blocks = (n + CHUNK - 1) / CHUNK;
    IntStream range = IntStream.range(0, blocks);
    CentroidSearch search = new CentroidSearch(c, k, dim);
    return (parallel && blocks > 1 ? range.parallel() : range)
        .map(blk -> {
          double[] buf = new double[dim];
          CentroidSearch.Query query = search.new Query(dim);
          int changed = 0;
          for (int i = blk * CHUNK, end = Math.min(n, i + CHUNK); i < end; i++) {
            rows.row(i, buf);
            int l = query.nearest(buf, hinted ? label[i] : -1);
            if (dist != null) {
              dist[i] = query.bestDist;
            }
            if (l != label[i]) {
              changed++;
              label[i] = l;
            }
          }
          return changed;
        })
        .sum();
  }

  private static KMeans run(Rows rows, int k, long seed, int maxIterations, boolean leaky) {
    int n = rows.n();
    int dim = rows.dim();
    if (k < 1 || k > n) {
      throw new IllegalArgumentException("need 1 <= k <= n = " + n + ", got k = " + k);
    }
    if (maxIterations < 0) {
      throw new IllegalArgumentException("maxIterations must be >= 0, got " + maxIterations);
    }
    double[] c = seedPlusPlus(rows, k, new SplittableRandom(seed));
    int[] label = new int[n];
    double[] dist = new double[n];
    double[] buf = new double[dim];
    assignInto(rows, c, k, label, dist, true, false);
    int it = 0;
    boolean converged = false;
    while (it < maxIterations) {
      it++;
      // Update step: each centroid moves to the mean of its rows; empty ones to the farthest rows.
      double[] sum = new double[k * dim];
      int[] count = new int[k];
      for (int i = 0; i < n; i++) {
        rows.row(i, buf);
        int o = label[i] * dim;
        for (int j = 0; j < dim; j++) {
          sum[o + j] += buf[j];
        }
        count[label[i]]++;
      }
      boolean[] taken = null;
      for (int q = 0; q < k; q++) {
        if (count[q] > 0) {
          for (int j = 0; j < dim; j++) {
            c[q * dim + j] = sum[q * dim + j] / count[q];
          }
        } else {
          if (taken == null) {
            taken = new boolean[n];
          }
          int far = -1;
          for (int i = 0; i < n; i++) {
            if (!taken[i] && (far < 0 || dist[i] > dist[far])) {
              far = i;
            }
          }
          taken[far] = true;
          rows.row(far, buf);
          System.arraycopy(buf, 0, c, q * dim, dim);
        }
      }
      // Assignment step: each row's search starts from its previous centroid (the same answer, less
      // work)
      int changed = assignInto(rows, c, k, label, dist, true, true);
      if (changed == 0) {
        converged = true;
        break;
      }
    }
    int[] sizes = new int[k];
    for (int i = 0; i < n; i++) {
      sizes[label[i]]++;
    }
    return new KMeans(c, k, dim, leaky, it, converged, sizes);
  }

  /** k-means++ seeding (Arthur &amp; Vassilvitskii 2007, §2.2): D² sampling, O(n k d), one double per row. */
  private static double[] seedPlusPlus(Rows rows, int k, SplittableRandom rng) {
    int n = rows.n();
    int dim = rows.dim();
    double[] c = new double[k * dim];
    double[] cur = new double[dim];
    rows.row(rng.nextInt(n), cur);
    System.arraycopy(cur, 0, c, 0, dim);
    double[] d2 = new double[n];
    Arrays.fill(d2, Double.POSITIVE_INFINITY);
    int blocks = (n + CHUNK - 1) / CHUNK;
    for (int q = 1; q < k; q++) {
      double[] centre = cur.clone();
      IntStream range = IntStream.range(0, blocks);
      (blocks > 1 ? range.parallel() : range).forEach(blk -> {
        for (int i = blk * CHUNK, end = Math.min(n, i + CHUNK); i < end; i++) {
          double s = rows.sqDist(i, centre);
          if (s < d2[i]) {
            d2[i] = s;
          }
        }
      });
      double total = 0;
      for (int i = 0; i < n; i++) {
        total += d2[i];
      }
      int pick;
      if (!(total > 0)) {
        // every row coincides with a chosen centre (fewer distinct rows than k): take any row
        pick = rng.nextInt(n);
      } else {
        double u = rng.nextDouble() * total;
        pick = n - 1;
        double acc = 0;
        for (int i = 0; i < n; i++) {
          acc += d2[i];
          if (acc > u && d2[i] > 0) {
            pick = i;
            break;
          }
        }
      }
      rows.row(pick, cur);
      System.arraycopy(cur, 0, c, q * dim, dim);
    }
    return c;
  }

  /** The nearest centroid by a full scan (ties to the lower index): the reference {@link CentroidSearch} must match. */
  static int nearest(double[] c, int k, int dim, double[] x, double[] bestOut) {
    int arg = 0;
    double best = Double.POSITIVE_INFINITY;
    for (int q = 0; q < k; q++) {
      // partial distance: stop as soon as the running sum cannot beat the best (exact: same argmin)
      double s = 0;
      int o = q * dim;
      for (int j = 0; j < dim && s < best; j++) {
        double t = c[o + j] - x[j];
        s += t * t;
      }
      if (s < best) {
        best = s;
        arg = q;
      }
    }
    if (bestOut != null) {
      bestOut[0] = best;
    }
    return arg;
  }

  /**
   * The rows being clustered: inputs (and, for the leaky variant, the output as a last coordinate) of a first
   * set followed by an optional second set, without copying.
   */
  private record Rows(double[] x1, double[] y1, int n1, int d, double[] x2, double[] y2) {
    int n() {
      return n1 + (x2 == null ? 0 : x2.length / d);
    }

    int dim() {
      return y1 == null ? d : d + 1;
    }

    void row(int i, double[] out) {
      double[] x = x1;
      double[] y = y1;
      int r = i;
      if (i >= n1) {
        x = x2;
        y = y2;
        r = i - n1;
      }
      System.arraycopy(x, r * d, out, 0, d);
      if (y1 != null) {
        out[d] = y[r];
      }
    }

    /** Squared distance of row i to the point c (length dim), without copying the row. */
    double sqDist(int i, double[] c) {
      double[] x = x1;
      double[] y = y1;
      int r = i;
      if (i >= n1) {
        x = x2;
        y = y2;
        r = i - n1;
      }
      int o = r * d;
      double s = 0;
      for (int j = 0; j < d; j++) {
        double t = x[o + j] - c[j];
        s += t * t;
      }
      if (y1 != null) {
        double t = y[r] - c[d];
        s += t * t;
      }
      return s;
    }
  }
}
