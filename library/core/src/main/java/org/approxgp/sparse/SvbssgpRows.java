package org.approxgp.sparse;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.approxgp.data.RegressionData;

/**
 * The training rows of an sVBSSGP run grouped by partition, and the strategy that sums their data terms
 * (Theorem 1) — the plumbing of {@link SvbssgpTrainer}. Partition k's rows lie at positions
 * {@code start[k] … start[k+1]} of {@link #grouped}, in increasing row order, so that the rows an iteration reads
 * lie together in memory whatever n.
 */
final class SvbssgpRows {
  /** The training rows grouped by partition. */
  final RegressionData grouped;
  /** The partitions of {@link #grouped}: position t holds row {@code parts.rows()[t]}. */
  final RowBlocks local;
  /** The partitions of the caller's rows (global row indices, what a {@link PartitionGradients} strategy sees). */
  final RowBlocks parts;

  private final PartitionGradients gradients;
  private final boolean external; // a caller's strategy: its draws name global rows

  /**
   * Validates and groups {@code train} by {@code partitionOfRow} (p = largest label + 1).
   *
   * @param gradients the caller's strategy (given global rows), or null to sum in this JVM
   */
  SvbssgpRows(RegressionData train, int[] partitionOfRow, PartitionGradients gradients) {
    Objects.requireNonNull(train, "train");
    if (!train.hasTargets() || train.n() == 0) {
      throw new IllegalArgumentException("sVBSSGP needs training rows with targets");
    }
    if (partitionOfRow == null || partitionOfRow.length != train.n()) {
      throw new IllegalArgumentException(
          "need one partition label per training row (" + train.n() + ")");
    }
    int p = 0;
    for (int label : partitionOfRow) {
      if (label < 0) {
        throw new IllegalArgumentException("partition labels must be >= 0, got " + label);
      }
      p = Math.max(p, label + 1);
    }
    this.parts = RowBlocks.of(partitionOfRow, p);
    this.grouped = train.subset(parts.rows());
    this.local = parts.positions();
    this.gradients = gradients != null ? gradients : new LocalGradients(grouped, local);
    this.external = gradients != null;
  }

  /** Rows in the largest partition. */
  int largestPartition() {
    int largest = 0;
    for (int k = 0; k < parts.count(); k++) {
      largest = Math.max(largest, parts.size(k));
    }
    return largest;
  }

  /**
   * The strategy's terms of the drawn partitions ({@link PartitionGradients#terms}); the draws hold positions in
   * {@link #grouped}, which a caller's strategy receives as the rows they are.
   */
  double[][][] terms(
      List<PartitionGradients.Point> points, List<List<PartitionGradients.Draw>> drawn) {
    double[][][] terms =
        external ? gradients.terms(points, global(drawn)) : gradients.terms(points, drawn);
    for (int j = 0; j < terms.length; j++) {
      checkTerms(terms[j], drawn.get(j), j);
    }
    return terms;
  }

  /** The draws with their rows' positions in {@link #grouped} replaced by the caller's row indices. */
  private List<List<PartitionGradients.Draw>> global(List<List<PartitionGradients.Draw>> drawn) {
    List<List<PartitionGradients.Draw>> global = new ArrayList<>(drawn.size());
    for (List<PartitionGradients.Draw> ds : drawn) {
      List<PartitionGradients.Draw> g = new ArrayList<>(ds.size());
      for (PartitionGradients.Draw draw : ds) {
        int[] rows = null;
        if (draw.rows() != null) {
          rows = new int[draw.rows().length];
          for (int i = 0; i < rows.length; i++) {
            rows[i] = parts.rows()[draw.rows()[i]];
          }
        }
        g.add(new PartitionGradients.Draw(draw.partition(), rows, draw.weight()));
      }
      global.add(g);
    }
    return global;
  }

  private static void checkTerms(double[][] terms, List<PartitionGradients.Draw> drawn, int j) {
    if (terms.length != drawn.size()) {
      throw new IllegalStateException("the gradient strategy returned " + terms.length
          + " terms for " + drawn.size() + " draws of sample " + j);
    }
  }

  /**
   * The default {@link PartitionGradients}: in this JVM, each draw summed on its own, added in draw order. The
   * arrays {@link #terms} returns, and the row scratch, are reused from call to call (the run adds each result up
   * before it asks again), so that an iteration allocates next to nothing: fresh allocations would touch new heap
   * pages every iteration, a page fault each once the heap has grown with n.
   */
  private static final class LocalGradients implements PartitionGradients {
    private final RegressionData train;
    private final RowBlocks parts;
    private double[][][] out = new double[0][][];
    private double[] cos = new double[0];
    private double[] sin = new double[0];

    LocalGradients(RegressionData train, RowBlocks parts) {
      this.train = train;
      this.parts = parts;
    }

    @Override
    public void add(
        PartitionGradients.Point at, List<PartitionGradients.Draw> list, double[] sums) {
      double[] term = new double[sums.length];
      for (PartitionGradients.Draw draw : list) {
        Arrays.fill(term, 0);
        addDraw(at, draw, term);
        PartitionGradients.addInOrder(term, sums);
      }
    }

    @Override
    public double[][][] terms(
        List<PartitionGradients.Point> at, List<List<PartitionGradients.Draw>> list) {
      if (out.length != at.size()) {
        out = new double[at.size()][][];
      }
      for (int j = 0; j < out.length; j++) {
        List<PartitionGradients.Draw> ds = list.get(j);
        int length = at.get(j).accumulatorLength();
        if (out[j] == null || out[j].length != ds.size()) {
          out[j] = new double[ds.size()][];
        }
        for (int k = 0; k < out[j].length; k++) {
          double[] term = out[j][k];
          if (term == null || term.length != length) {
            term = new double[length];
            out[j][k] = term;
          } else {
            Arrays.fill(term, 0);
          }
          addDraw(at.get(j), ds.get(k), term);
        }
      }
      return out;
    }

    private void addDraw(PartitionGradients.Point at, PartitionGradients.Draw draw, double[] term) {
      if (cos.length != at.m()) {
        cos = new double[at.m()];
        sin = new double[at.m()];
      }
      if (draw.rows() == null) {
        int k = draw.partition();
        PartitionGradients.addRows(
            at,
            train.x(),
            train.y(),
            parts.rows(),
            parts.start()[k],
            parts.start()[k + 1],
            draw.weight(),
            term,
            cos,
            sin);
      } else {
        PartitionGradients.addRows(
            at,
            train.x(),
            train.y(),
            draw.rows(),
            0,
            draw.rows().length,
            draw.weight(),
            term,
            cos,
            sin);
      }
    }
  }
}
