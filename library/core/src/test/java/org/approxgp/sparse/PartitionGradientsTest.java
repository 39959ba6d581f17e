package org.approxgp.sparse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.approxgp.data.RegressionData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The {@link PartitionGradients} seam: a strategy written from the interface's contract alone (each draw summed on
 * its own by {@code addRows}, added in draw order by {@code addInOrder}, rows looked up by partition label) gives
 * the default's gradients and steps bit for bit; engine look-up.
 */
class PartitionGradientsTest {

  /** The contract, from the labels only: rows of a partition in increasing order, or the drawn rows. */
  private static PartitionGradients fromContract(RegressionData train, int[] labels, int[] calls) {
    return (at, draws, acc) -> {
      calls[0]++;
      for (PartitionGradients.Draw draw : draws) {
        int[] rows = draw.rows();
        if (rows == null) {
          rows = java.util.stream.IntStream.range(0, labels.length)
              .filter(i -> labels[i] == draw.partition())
              .toArray();
        }
        double[] term = new double[acc.length];
        PartitionGradients.addRows(
            at, train.x(), train.y(), rows, 0, rows.length, draw.weight(), term);
        PartitionGradients.addInOrder(term, acc);
      }
    };
  }

  /** The contract as a batch: {@code terms} of all samples at once, each draw's term summed from zero. */
  private static PartitionGradients batched(RegressionData train, int[] labels, int[] batches) {
    return new PartitionGradients() {
      @Override
      public void add(Point at, java.util.List<Draw> draws, double[] acc) {
        throw new AssertionError("a batched strategy is asked for terms only");
      }

      @Override
      public double[][][] terms(
          java.util.List<Point> at, java.util.List<java.util.List<Draw>> draws) {
        batches[0]++;
        double[][][] out = new double[at.size()][][];
        for (int j = 0; j < out.length; j++) {
          out[j] = new double[draws.get(j).size()][];
          for (int k = 0; k < out[j].length; k++) {
            Draw draw = draws.get(j).get(k);
            int[] rows = draw.rows() != null
                ? draw.rows()
                : java.util.stream.IntStream.range(0, labels.length)
                    .filter(i -> labels[i] == draw.partition())
                    .toArray();
            out[j][k] = new double[at.get(j).accumulatorLength()];
            PartitionGradients.addRows(
                at.get(j), train.x(), train.y(), rows, 0, rows.length, draw.weight(), out[j][k]);
          }
        }
        return out;
      }
    };
  }

  /**
   * A strategy that computes all gradient samples' terms in one call ({@code terms}, one Spark job per iteration)
   * gives the bits of the default, which sums them one draw at a time.
   */
  @ParameterizedTest(name = "minibatch {0}, gradient samples {1}")
  @CsvSource({"0, 1", "0, 3", "12, 4"})
  void allSamplesInOneBatchGiveTheDefaultsBits(int minibatch, int samples) {
    RegressionData train = SvbssgpTest.synthetic(300, 2, 0.1, 8);
    int[] labels = SvbssgpTest.blocksOnX1(train, 9);
    SvbssgpOptions whole = SvbssgpOptions.defaults()
        .withM(4)
        .withPartitionsPerIteration(4)
        .withGradientSamples(samples)
        .withSeed(5)
        // the batches counted are the steps': the slope rule's fixed-sample evaluation (every 5
        // steps) would add one
        .withoutStopping();
    // minibatch 0: every row of each drawn partition
    SvbssgpOptions o = minibatch == 0 ? whole : whole.withMinibatch(minibatch);
    int[] batches = {0};
    SvbssgpTraining local = Svbssgp.start(train, labels, o);
    SvbssgpTraining other = Svbssgp.start(train, labels, o, batched(train, labels, batches));
    double[] gl = new double[local.parameters().length];
    double[] go = new double[gl.length];
    assertEquals(local.gradientEstimate(3, gl), other.gradientEstimate(3, go));
    assertArrayEquals(gl, go);
    assertEquals(1, batches[0], "one batch per gradient estimate");
    for (int it = 0; it < 5; it++) {
      assertEquals(local.step(), other.step(), "bound estimate at step " + (it + 1));
    }
    assertEquals(6, batches[0], "one batch per step");
    assertArrayEquals(local.parameters(), other.parameters());
  }

  @ParameterizedTest(name = "minibatch {0}, gradient samples {1}")
  @CsvSource({"0, 1", "0, 3", "12, 2"})
  void aStrategyKeepingTheContractGivesTheDefaultsBits(int minibatch, int samples) {
    RegressionData train = SvbssgpTest.synthetic(300, 2, 0.1, 8);
    int[] labels = SvbssgpTest.blocksOnX1(train, 9);
    SvbssgpOptions whole = SvbssgpOptions.defaults()
        .withM(4)
        .withPartitionsPerIteration(4)
        .withGradientSamples(samples)
        .withSeed(5);
    // minibatch 0: every row of each drawn partition
    SvbssgpOptions o = minibatch == 0 ? whole : whole.withMinibatch(minibatch);
    int[] calls = {0};
    SvbssgpTraining local = Svbssgp.start(train, labels, o);
    SvbssgpTraining other = Svbssgp.start(train, labels, o, fromContract(train, labels, calls));
    double[] gl = new double[local.parameters().length];
    double[] go = new double[gl.length];
    assertEquals(local.gradientEstimate(3, gl), other.gradientEstimate(3, go));
    assertArrayEquals(gl, go);
    // the default batch (PartitionGradients.terms) asks add for one draw at a time: a partitions
    // per sample
    assertEquals(4 * samples, calls[0], "one call per draw");
    for (int it = 0; it < 5; it++) {
      assertEquals(local.step(), other.step(), "bound estimate at step " + (it + 1));
    }
    assertArrayEquals(local.parameters(), other.parameters());
    assertTrue(Arrays.stream(gl).anyMatch(v -> v != 0), "a gradient");
  }

  @Test
  void engineLookUp() {
    assertNull(PartitionGradientsProvider.forEngine("local", null));
    assertNull(PartitionGradientsProvider.forEngine(" Local ", null));
    assertThrows(
        IllegalArgumentException.class,
        () -> PartitionGradientsProvider.forEngine("local", "local[2]"));
    // the core's test class path has no approxgp-spark module
    IllegalArgumentException e = assertThrows(
        IllegalArgumentException.class, () -> PartitionGradientsProvider.forEngine("spark", null));
    assertTrue(e.getMessage().contains("approxgp-spark"), e.getMessage());
    assertThrows(
        IllegalArgumentException.class, () -> PartitionGradientsProvider.forEngine("dask", null));
  }
}
