package org.approxgp.spark;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.broadcast.Broadcast;
import org.approxgp.data.RegressionData;
import org.approxgp.sparse.PartitionGradients;
import org.approxgp.sparse.PartitionGradientsProvider;
import org.approxgp.sparse.Svbssgp;
import org.approxgp.sparse.SvbssgpOptions;

/**
 * sVBSSGP's data terms (Hoang, Hoang &amp; Low, AAAI 2017, Theorem 1 and Appendix G eq. 22) computed as a Spark job:
 * the training rows, grouped by sVBSSGP partition, are a cached RDD of blocks (one block per non-empty partition,
 * consecutive partitions grouped into Spark partitions); per iteration the driver broadcasts every gradient sample's
 * point of evaluation (α, 1/ℓ, σ_n²) and draws, one job sums each drawn partition's term F_i in the task that holds
 * its block ({@link PartitionGradients#addRows}, the same per-row operations as the in-JVM path), and the run adds
 * the per-draw sums to the accumulator in draw order ({@link PartitionGradients#addInOrder}) — the grouping of the
 * in-JVM default, so the estimate has the same bits as the single-machine one on the same JDK (Math.sin and
 * Math.cos may differ in the last bit between JVMs of a heterogeneous cluster).
 *
 * <p>Use with {@link Svbssgp#start(RegressionData, int[], SvbssgpOptions, PartitionGradients)} or
 * {@link Svbssgp#fit(RegressionData, int[], SvbssgpOptions, org.approxgp.sparse.IterationListener,
 * PartitionGradients)} with the same rows and labels. Not thread-safe (one training run at a time).
 */
public final class SparkPartitionGradients implements PartitionGradients, AutoCloseable {

  private final JavaSparkContext sc;
  private final JavaRDD<Block> blocks;
  private final int partitions;
  private final int rows;
  private long jobs;

  /** The rows of one sVBSSGP partition: global row indices (increasing), inputs row-major, targets. */
  record Block(int partition, int[] rows, double[] x, double[] y) implements Serializable {
    private static final long serialVersionUID = 1L;
  }

  /** One draw's term from a task: its sample, its index in the sample's draws, and the term. */
  record DrawSum(int sample, int index, double[] sums) implements Serializable {
    private static final long serialVersionUID = 1L;
  }

  private SparkPartitionGradients(
      JavaSparkContext sc, JavaRDD<Block> blocks, int partitions, int rows) {
    this.sc = sc;
    this.blocks = blocks;
    this.partitions = partitions;
    this.rows = rows;
  }

  /** {@link #of(JavaSparkContext, RegressionData, int[], int)} with sc's default parallelism as the slice count. */
  public static SparkPartitionGradients of(
      JavaSparkContext sc, RegressionData train, int[] partitionOfRow) {
    return of(sc, train, partitionOfRow, sc.defaultParallelism());
  }

  /**
   * Distributes {@code train}, grouped by {@code partitionOfRow} (labels 0…p−1, as for sVBSSGP), into
   * min(slices, non-empty partitions) Spark partitions of consecutive sVBSSGP partitions, cached.
   */
  public static SparkPartitionGradients of(
      JavaSparkContext sc, RegressionData train, int[] partitionOfRow, int slices) {
    Objects.requireNonNull(sc, "sc");
    if (!train.hasTargets() || partitionOfRow == null || partitionOfRow.length != train.n()) {
      throw new IllegalArgumentException(
          "need training rows with targets and one partition label per row");
    }
    if (slices < 1) {
      throw new IllegalArgumentException("need at least one slice, got " + slices);
    }
    int p = 0;
    for (int label : partitionOfRow) {
      if (label < 0) {
        throw new IllegalArgumentException("partition labels must be >= 0, got " + label);
      }
      p = Math.max(p, label + 1);
    }
    int d = train.d();
    int[] count = new int[p];
    for (int label : partitionOfRow) {
      count[label]++;
    }
    int[][] members = new int[p][];
    for (int k = 0; k < p; k++) {
      members[k] = new int[count[k]];
    }
    int[] fill = new int[p];
    for (int i = 0; i < partitionOfRow.length; i++) {
      members[partitionOfRow[i]][fill[partitionOfRow[i]]++] = i;
    }
    double[] x = train.x();
    double[] y = train.y();
    List<Block> list = new ArrayList<>();
    for (int k = 0; k < p; k++) {
      int[] r = members[k];
      if (r.length == 0) {
        continue;
      }
      double[] bx = new double[r.length * d];
      double[] by = new double[r.length];
      for (int t = 0; t < r.length; t++) {
        System.arraycopy(x, r[t] * d, bx, t * d, d);
        by[t] = y[r[t]];
      }
      list.add(new Block(k, r, bx, by));
    }
    JavaRDD<Block> rdd = sc.parallelize(list, Math.min(slices, list.size())).cache();
    return new SparkPartitionGradients(sc, rdd, p, train.n());
  }

  /**
   * The training rows read by Spark from the flights parquet file ({@link FlightsParquet}) rather than sent from
   * the driver: training row {@code i} is source row {@code sourceRows[i]} of the file (= row of
   * {@link org.approxgp.data.Flights#load()}), standardised as {@link org.approxgp.data.RegressionSplits#standardize}
   * does, (x_c − xMean_c) / xScale_c and (y − yMean) / yScale, and grouped by {@code partitionOfRow}. The
   * executors derive, standardise and group the rows; the driver sends only the row numbers, the statistics and
   * the labels. The blocks are those {@link #of(JavaSparkContext, RegressionData, int[], int)} makes of the
   * driver's copy of the same rows, so the gradient has the same bits.
   *
   * @param slices Spark partitions of the cached blocks
   * @throws IllegalArgumentException if the arrays disagree in length, a source row repeats or lies outside the
   *     file, or a label is negative
   */
  public static SparkPartitionGradients ofFlights(
      org.apache.spark.sql.SparkSession spark,
      java.nio.file.Path parquet,
      java.nio.file.Path airportsCsv,
      int[] sourceRows,
      double[] xMean,
      double[] xScale,
      double yMean,
      double yScale,
      int[] partitionOfRow,
      int slices) {
    int n = sourceRows.length;
    int d = org.approxgp.data.Flights.FEATURES.size();
    if (partitionOfRow.length != n
        || xMean.length != d
        || xScale.length != d
        || n == 0
        || slices < 1) {
      throw new IllegalArgumentException("need one partition label per source row (" + n + " rows, "
          + partitionOfRow.length + " labels), " + d + " means and scales, at least one slice");
    }
    int maxRow = 0;
    int p = 0;
    for (int i = 0; i < n; i++) {
      if (sourceRows[i] < 0 || partitionOfRow[i] < 0) {
        throw new IllegalArgumentException(
            "row " + i + ": source row " + sourceRows[i] + ", label " + partitionOfRow[i]);
      }
      maxRow = Math.max(maxRow, sourceRows[i]);
      p = Math.max(p, partitionOfRow[i] + 1);
    }
    // source row -> training row (−1: not used), sent once to every executor
    int[] trainingRow = new int[maxRow + 1];
    Arrays.fill(trainingRow, -1);
    for (int i = 0; i < n; i++) {
      if (trainingRow[sourceRows[i]] >= 0) {
        throw new IllegalArgumentException("source row " + sourceRows[i] + " given twice");
      }
      trainingRow[sourceRows[i]] = i;
    }
    JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    Broadcast<int[]> index = sc.broadcast(trainingRow);
    Broadcast<int[]> labels = sc.broadcast(partitionOfRow.clone());
    double[] mean = xMean.clone();
    double[] scale = xScale.clone();
    JavaRDD<Block> blocks = FlightsParquet.read(spark, parquet, airportsCsv)
        .filter(s -> s.row() < index.value().length && index.value()[(int) s.row()] >= 0)
        .mapToPair(s -> {
          int i = index.value()[(int) s.row()];
          double[] x = s.x();
          for (int c = 0; c < x.length; c++) {
            x[c] = (x[c] - mean[c]) / scale[c];
          }
          return new scala.Tuple2<>(labels.value()[i], new Member(i, x, (s.y() - yMean) / yScale));
        })
        .groupByKey(new org.apache.spark.HashPartitioner(slices))
        .map(g -> block(g._1(), g._2(), d))
        .cache();
    long rowsRead = blocks.map(b -> (long) b.rows().length).fold(0L, Long::sum);
    if (rowsRead != n) {
      blocks.unpersist(false);
      throw new IllegalArgumentException(
          n + " source rows asked for, " + rowsRead + " found in " + parquet);
    }
    return new SparkPartitionGradients(sc, blocks, p, n);
  }

  /** One training row on its way into a block. */
  record Member(int row, double[] x, double y) implements Serializable {
    private static final long serialVersionUID = 1L;
  }

  /** The block of partition {@code k}: its rows in increasing training-row order, as {@link #of} makes it. */
  private static Block block(int k, Iterable<Member> members, int d) {
    List<Member> list = new ArrayList<>();
    members.forEach(list::add);
    list.sort(Comparator.comparingInt(Member::row));
    int[] r = new int[list.size()];
    double[] bx = new double[r.length * d];
    double[] by = new double[r.length];
    for (int t = 0; t < r.length; t++) {
      Member m = list.get(t);
      r[t] = m.row();
      System.arraycopy(m.x(), 0, bx, t * d, d);
      by[t] = m.y();
    }
    return new Block(k, r, bx, by);
  }

  /** The cached blocks, by partition (for tests). */
  List<Block> blocks() {
    List<Block> all = new ArrayList<>(blocks.collect());
    all.sort(Comparator.comparingInt(Block::partition));
    return all;
  }

  /** Number of sVBSSGP partitions p of the distributed data. */
  public int partitions() {
    return partitions;
  }

  /** Number of training rows held. */
  public int rows() {
    return rows;
  }

  /** Number of Spark partitions of the cached block RDD. */
  public int slices() {
    return blocks.getNumPartitions();
  }

  /** Spark jobs run so far (one per call of {@link #terms}, i.e. per gradient estimate of a training run). */
  public long jobs() {
    return jobs;
  }

  /** The terms of one sample's draws, added to {@code acc} in draw order: {@link #terms} of one sample. */
  @Override
  public void add(Point at, List<Draw> draws, double[] acc) {
    if (acc.length != at.accumulatorLength()) {
      throw new IllegalArgumentException(
          "accumulator of length " + acc.length + ", need " + at.accumulatorLength());
    }
    for (double[] term : terms(List.of(at), List.of(draws))[0]) {
      PartitionGradients.addInOrder(term, acc);
    }
  }

  /**
   * All samples' terms in one Spark job: the points and draws are broadcast, the task holding a drawn partition's
   * block sums that draw's term ({@link PartitionGradients#addRows}, from zero), and the driver places each term by
   * (sample, draw).
   */
  @Override
  public double[][][] terms(List<Point> at, List<List<Draw>> draws) {
    if (at.size() != draws.size()) {
      throw new IllegalArgumentException(
          at.size() + " points for " + draws.size() + " lists of draws");
    }
    double[][][] out = new double[at.size()][][];
    int expected = 0;
    ArrayList<ArrayList<Draw>> lists = new ArrayList<>();
    for (int j = 0; j < out.length; j++) {
      for (Draw draw : draws.get(j)) {
        if (draw.partition() < 0 || draw.partition() >= partitions) {
          throw new IllegalArgumentException(
              "drawn partition " + draw.partition() + " outside 0.." + (partitions - 1));
        }
      }
      out[j] = new double[draws.get(j).size()][];
      expected += out[j].length;
      lists.add(new ArrayList<>(draws.get(j)));
    }
    if (expected == 0) {
      return out;
    }
    Broadcast<ArrayList<Point>> points = sc.broadcast(new ArrayList<>(at));
    Broadcast<ArrayList<ArrayList<Draw>>> drawn = sc.broadcast(lists);
    List<DrawSum> sums;
    try {
      sums = blocks.mapPartitions(termsOf(points, drawn)).collect();
      jobs++;
    } finally {
      points.destroy();
      drawn.destroy();
    }
    if (sums.size() != expected) {
      throw new IllegalStateException(sums.size() + " partition terms for " + expected
          + " draws: the distributed data does not match the training run's partitions");
    }
    for (DrawSum s : sums) {
      out[s.sample()][s.index()] = s.sums();
    }
    return out;
  }

  /** The task: for every block, the term of every draw of its partition in every sample (Theorem 1's F_i). */
  private static FlatMapFunction<java.util.Iterator<Block>, DrawSum> termsOf(
      Broadcast<ArrayList<Point>> points, Broadcast<ArrayList<ArrayList<Draw>>> drawn) {
    return it -> {
      List<Point> at = points.value();
      List<ArrayList<Draw>> lists = drawn.value();
      List<DrawSum> out = new ArrayList<>();
      while (it.hasNext()) {
        Block b = it.next();
        int[] all = null;
        for (int j = 0; j < lists.size(); j++) {
          List<Draw> list = lists.get(j);
          for (int i = 0; i < list.size(); i++) {
            Draw draw = list.get(i);
            if (draw.partition() != b.partition()) {
              continue;
            }
            double[] sums = new double[at.get(j).accumulatorLength()];
            int[] local;
            if (draw.rows() == null) {
              if (all == null) {
                all = new int[b.rows().length];
                Arrays.setAll(all, t -> t);
              }
              local = all;
            } else {
              local = new int[draw.rows().length];
              for (int t = 0; t < local.length; t++) {
                local[t] = Arrays.binarySearch(b.rows(), draw.rows()[t]);
                if (local[t] < 0) {
                  throw new IllegalStateException(
                      "row " + draw.rows()[t] + " is not in partition " + b.partition());
                }
              }
            }
            PartitionGradients.addRows(
                at.get(j), b.x(), b.y(), local, 0, local.length, draw.weight(), sums);
            out.add(new DrawSum(j, i, sums));
          }
        }
      }
      return out.iterator();
    };
  }

  /**
   * The {@code spark} engine of {@link PartitionGradientsProvider} ({@code approxgp regress --model svbssgp
   * --engine spark}), registered in {@code META-INF/services}: the active Spark context, or one created on
   * {@code master} (null: {@code spark-submit}'s, else embedded {@code local[*]}) that lives until the JVM exits.
   */
  public static final class Provider implements PartitionGradientsProvider {

    @Override
    public String engine() {
      return "spark";
    }

    /**
     * Starts the Spark context as {@link SparkTrialExecutor#start()} does for {@code approxgp run}: a
     * {@code spark://} master is probed first, and any failure to start is one line.
     */
    @Override
    public void start(String master) {
      SparkTrialExecutor.embedded(master).start();
    }

    @Override
    public PartitionGradients create(RegressionData train, int[] partitionOfRow, String master) {
      return SparkTrialExecutor.inModuleLoader(() -> of(
          JavaSparkContext.fromSparkContext(
              SparkContext.getOrCreate(SparkTrialExecutor.conf(master))),
          train,
          partitionOfRow));
    }
  }

  /** Drops the cached blocks. */
  @Override
  public void close() {
    blocks.unpersist(false);
  }

  @Override
  public String toString() {
    return "SparkPartitionGradients[p=" + partitions + ", rows=" + rows + ", slices=" + slices()
        + "]";
  }
}
