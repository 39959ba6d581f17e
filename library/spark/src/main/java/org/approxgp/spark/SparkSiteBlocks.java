package org.approxgp.spark;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.approxgp.inference.Problem;
import org.approxgp.inference.SiteBlock;
import org.approxgp.inference.SiteBlocks;
import org.approxgp.inference.SiteBlocksProvider;

/**
 * The blocks of the sparse site loop's parallel schedule ({@link SiteBlock}: EP, QP and Power EP on inducing points,
 * Bui, Yan &amp; Turner 2017) as a cached RDD: the training rows, cut into the loop's fixed blocks of
 * {@link SiteBlock#ROWS} rows (whatever the Spark partitioning), are distributed once per training set; a run
 * broadcasts its {@link SiteBlock.Setup} (kernel, Z, L_uu, likelihood, site rule, options) and caches every block
 * with its rows aₙ and dₙ formed in the task that holds it; each sweep broadcasts q(v) and the sites, runs
 * {@link SiteBlock#apply} in every block (one job) and collects the answers sorted by block index, which the loop
 * adds in block order — the order of the in-JVM {@link SiteBlocks#local()}, so the fit has the same bits as the
 * single-machine one on the same JDK and BLAS (as {@link SparkPartitionGradients} argues for sVBSSGP; Math.exp and
 * the like may differ in the last bit between JVMs of a heterogeneous cluster).
 *
 * <p>The evidence gradient ({@link org.approxgp.inference.SiteLoopOptions#gradient()}, for learning θ and Z by
 * {@link org.approxgp.model.SparseGpModel}) is two more requests of the same kind. A run at new hyperparameters
 * keeps the distributed training rows (the same {@link Problem#x()} and {@link Problem#y()} arrays) and forms its
 * rows aₙ anew. Not thread-safe (one run at a time).
 */
public final class SparkSiteBlocks implements SiteBlocks, AutoCloseable {

  private final JavaSparkContext sc;
  private final int slices;
  private JavaRDD<SiteBlock.Data> data;
  private double[][] heldX;
  private double[] heldY;
  private long jobs;

  /** Blocks on {@code sc} in up to {@code slices} Spark partitions (consecutive blocks grouped). */
  public SparkSiteBlocks(JavaSparkContext sc, int slices) {
    this.sc = Objects.requireNonNull(sc, "sc");
    if (slices < 1) {
      throw new IllegalArgumentException("need at least one slice, got " + slices);
    }
    this.slices = slices;
  }

  /** Blocks on {@code sc} in its default parallelism's number of Spark partitions. */
  public SparkSiteBlocks(JavaSparkContext sc) {
    this(sc, sc.defaultParallelism());
  }

  /**
   * Spark jobs run so far: one per request of the loop (the start, each sweep, the evidence, and the gradient's two
   * when asked); a run's rows are formed within its first.
   */
  public long jobs() {
    return jobs;
  }

  /** Number of Spark partitions of the held blocks (0 before the first run). */
  public int partitions() {
    return data == null ? 0 : data.getNumPartitions();
  }

  @Override
  public Run open(Problem problem, SiteBlock.Setup setup) {
    if (data == null || heldX != problem.x() || heldY != problem.y()) {
      if (data != null) {
        data.unpersist(false);
      }
      List<SiteBlock.Data> list = Arrays.asList(SiteBlock.split(problem.x(), problem.y()));
      data = sc.parallelize(list, Math.min(slices, list.size())).cache();
      heldX = problem.x();
      heldY = problem.y();
    }
    Broadcast<SiteBlock.Setup> shared = sc.broadcast(setup);
    JavaRDD<SiteBlock.Prepared> prepared =
        data.map(d -> SiteBlock.prepare(d, shared.value())).cache();
    int count = SiteBlock.count(problem.size());
    return new Run() {
      @Override
      public List<SiteBlock.Result> apply(SiteBlock.Step step) {
        Broadcast<SiteBlock.Step> request = sc.broadcast(step);
        List<SiteBlock.Result> out;
        try {
          out = new ArrayList<>(prepared
              .map(p -> SiteBlock.apply(p, shared.value(), request.value()))
              .collect());
          jobs++;
        } finally {
          request.destroy();
        }
        if (out.size() != count) {
          throw new IllegalStateException(out.size() + " block answers for " + count + " blocks");
        }
        out.sort(Comparator.comparingInt(SiteBlock.Result::index));
        return out;
      }

      @Override
      public void close() {
        prepared.unpersist(false);
        shared.destroy();
      }
    };
  }

  /** Drops the held blocks. */
  @Override
  public void close() {
    if (data != null) {
      data.unpersist(false);
      data = null;
      heldX = null;
      heldY = null;
    }
  }

  @Override
  public String toString() {
    return "SparkSiteBlocks[slices=" + slices + ", partitions=" + partitions() + "]";
  }

  /**
   * The {@code spark} engine of {@link SiteBlocksProvider} ({@code approxgp fit --inducing M --engine spark}),
   * registered in {@code META-INF/services}: the active Spark context, or one created on {@code master} (null:
   * {@code spark-submit}'s, else embedded {@code local[*]}) that lives until the JVM exits.
   */
  public static final class Provider implements SiteBlocksProvider {

    @Override
    public String engine() {
      return "spark";
    }

    /** Starts the Spark context as {@link SparkTrialExecutor#start()} does: any failure to start is one line. */
    @Override
    public void start(String master) {
      SparkTrialExecutor.embedded(master).start();
    }

    @Override
    public SiteBlocks create(String master) {
      return SparkTrialExecutor.inModuleLoader(
          () -> new SparkSiteBlocks(JavaSparkContext.fromSparkContext(
              SparkContext.getOrCreate(SparkTrialExecutor.conf(master)))));
    }
  }
}
