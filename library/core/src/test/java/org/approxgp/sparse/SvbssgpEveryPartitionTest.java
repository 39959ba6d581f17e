package org.approxgp.sparse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.approxgp.data.RegressionData;
import org.junit.jupiter.api.Test;

/**
 * {@link SvbssgpOptions#withEveryPartition()}: a = p and no draw of partitions, so every gradient sample of every
 * iteration reads each non-empty partition exactly once, in label order, each row weighted by (p/a)·|X_i|/B =
 * |X_i|/B (Theorem 1 with minibatch reweighting; 1 with whole partitions, the exact data term). A strategy that
 * records what the run hands it checks exactly that.
 */
class SvbssgpEveryPartitionTest {

  /** Records the draws of every sample of every iteration, then sums them as the contract says. */
  private static final class Recording implements PartitionGradients {
    final List<List<Draw>> samples = new ArrayList<>();
    private final RegressionData train;
    private final int[] labels;

    Recording(RegressionData train, int[] labels) {
      this.train = train;
      this.labels = labels;
    }

    @Override
    public void add(Point at, List<Draw> draws, double[] acc) {
      double[] term = new double[acc.length];
      for (Draw draw : draws) {
        Arrays.fill(term, 0);
        int[] rows = draw.rows() != null ? draw.rows() : rowsOf(draw.partition());
        PartitionGradients.addRows(
            at, train.x(), train.y(), rows, 0, rows.length, draw.weight(), term);
        PartitionGradients.addInOrder(term, acc);
      }
    }

    @Override
    public double[][][] terms(List<Point> at, List<List<Draw>> draws) {
      samples.addAll(draws);
      return PartitionGradients.super.terms(at, draws);
    }

    private int[] rowsOf(int partition) {
      return IntStream.range(0, labels.length)
          .filter(i -> labels[i] == partition)
          .toArray();
    }
  }

  /** Labels 0…5 with partition 3 empty and uneven sizes. */
  private static int[] labels(int n) {
    int[] labels = new int[n];
    for (int i = 0; i < n; i++) {
      int k = (i * 7 + i / 5) % 5;
      labels[i] = k >= 3 ? k + 1 : k;
    }
    return labels;
  }

  private static int size(int[] labels, int k) {
    return (int) Arrays.stream(labels).filter(l -> l == k).count();
  }

  private static Recording run(
      RegressionData train, int[] labels, SvbssgpOptions options, int steps) {
    Recording rec = new Recording(train, labels);
    SvbssgpTraining t = Svbssgp.start(train, labels, options, rec);
    for (int i = 0; i < steps; i++) {
      t.step();
    }
    return rec;
  }

  @Test
  void wholePartitionsReadEveryRowOncePerSampleWithWeightOne() {
    RegressionData train = SvbssgpTest.synthetic(90, 2, 0.1, 3);
    int[] labels = labels(train.n());
    SvbssgpOptions o = SvbssgpOptions.defaults()
        .withM(4)
        .withGradientSamples(2)
        .withIterations(5)
        .withEveryPartition()
        .withoutStopping(); // the slope rule would add its fixed-sample evaluation's draws every 5
    // steps
    Recording rec = run(train, labels, o, 5);
    assertEquals(5 * 2, rec.samples.size());
    for (List<PartitionGradients.Draw> sample : rec.samples) {
      assertArrayEquals(
          new int[] {0, 1, 2, 4, 5},
          sample.stream().mapToInt(PartitionGradients.Draw::partition).toArray());
      for (PartitionGradients.Draw draw : sample) {
        assertNull(draw.rows());
        assertEquals(1.0, draw.weight(), 0.0);
      }
    }
  }

  @Test
  void minibatchesTakeBDistinctRowsOfEveryPartitionWeightedBySizeOverB() {
    RegressionData train = SvbssgpTest.synthetic(90, 2, 0.1, 4);
    int[] labels = labels(train.n());
    int b = 4;
    SvbssgpOptions o = SvbssgpOptions.defaults()
        .withM(4)
        .withIterations(6)
        .withEveryPartition()
        .withMinibatch(b)
        .withoutStopping(); // as above: no fixed-sample evaluations among the recorded draws
    Recording rec = run(train, labels, o, 6);
    assertEquals(6, rec.samples.size());
    for (List<PartitionGradients.Draw> sample : rec.samples) {
      assertArrayEquals(
          new int[] {0, 1, 2, 4, 5},
          sample.stream().mapToInt(PartitionGradients.Draw::partition).toArray());
      for (PartitionGradients.Draw draw : sample) {
        int k = draw.partition();
        assertTrue(size(labels, k) > b);
        assertEquals(b, draw.rows().length);
        assertEquals(b, Arrays.stream(draw.rows()).distinct().count());
        for (int row : draw.rows()) {
          assertEquals(k, labels[row]);
        }
        assertEquals((double) size(labels, k) / b, draw.weight(), 0.0);
      }
    }
  }

  /**
   * The slope rule's evaluations on a fixed sample (every W/10 = 5 steps at the default window) draw the same
   * minibatch rows every time (common random numbers), rows the steps around them need not draw, and leave the
   * steps' own draws as they are without the evaluations.
   */
  @Test
  void fixedSampleEvaluationsDrawTheSameRowsEveryTime() {
    RegressionData train = SvbssgpTest.synthetic(90, 2, 0.1, 4);
    int[] labels = labels(train.n());
    SvbssgpOptions o = SvbssgpOptions.defaults()
        .withM(4)
        .withIterations(10)
        .withEveryPartition()
        .withMinibatch(4);
    assertEquals(5, o.schedule().stopping().orElseThrow().start(train.n()).evaluationPeriod());
    Recording with = run(train, labels, o, 10);
    Recording without = run(train, labels, o.withoutStopping(), 10);
    // steps 1-5, evaluation, steps 6-10, evaluation
    assertEquals(12, with.samples.size());
    assertEquals(10, without.samples.size());
    List<List<PartitionGradients.Draw>> steps = new ArrayList<>(with.samples);
    List<PartitionGradients.Draw> first = steps.remove(5);
    List<PartitionGradients.Draw> second = steps.remove(10);
    assertEquals(describe(first), describe(second));
    assertNotEquals(describe(steps.get(4)), describe(steps.get(9)));
    for (int i = 0; i < 10; i++) {
      assertEquals(describe(without.samples.get(i)), describe(steps.get(i)), "step " + (i + 1));
    }
  }

  private static String describe(List<PartitionGradients.Draw> draws) {
    StringBuilder sb = new StringBuilder();
    for (PartitionGradients.Draw d : draws) {
      sb.append(d.partition())
          .append(Arrays.toString(d.rows()))
          .append(d.weight())
          .append(';');
    }
    return sb.toString();
  }
}
