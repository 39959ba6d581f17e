package org.approxgp.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.approxgp.data.ColumnFile;
import org.approxgp.data.RegressionData;
import org.approxgp.data.RegressionSplits;
import org.approxgp.data.Split;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code approxgp regress} and the notebooks' splits ({@link RegressionSplits#standardize}) standardise the same
 * rows identically — inputs and target, divisor n — whether the command reads CSV or column files: every
 * standardised value, mean and scale equal to the bit.
 */
class RegressStandardisationTest {

  @TempDir
  Path dir;

  /** Rows with columns of very different scales, one constant input, a target far from zero. */
  private static double[][] rows(int n, long seed) {
    java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
    double[][] out = new double[n][];
    for (int i = 0; i < n; i++) {
      double a = r.nextDouble() * 1e4;
      double b = r.nextGaussian() * 1e-3 + 7;
      out[i] = new double[] {a, b, 3.5, 2e5 + 40 * Math.sin(a / 900) + r.nextGaussian()};
    }
    return out;
  }

  private Path csv(String name, double[][] rows) throws IOException {
    StringBuilder b = new StringBuilder("a,b,c,y\n");
    for (double[] r : rows) {
      b.append(r[0])
          .append(',')
          .append(r[1])
          .append(',')
          .append(r[2])
          .append(',')
          .append(r[3])
          .append('\n');
    }
    return Files.writeString(dir.resolve(name), b);
  }

  private Path columns(String name, double[][] rows) {
    List<ColumnFile.Column> cols = new ArrayList<>();
    String[] names = {"a", "b", "c", "y"};
    for (int j = 0; j < 4; j++) {
      int c = j;
      cols.add(ColumnFile.Column.ofDoubles(
          names[j], java.util.Arrays.stream(rows).mapToDouble(r -> r[c]).toArray()));
    }
    Path p = dir.resolve(name);
    new ColumnFile(rows.length, cols, Map.of()).write(p);
    return p;
  }

  @Test
  void commandLineAndNotebookPathStandardiseToTheSameBits() throws IOException {
    double[][] train = rows(57, 1);
    double[][] test = rows(13, 2);
    // the notebooks' path: one data set, a split into its first 57 rows and the rest
    double[][] all = new double[70][];
    System.arraycopy(train, 0, all, 0, 57);
    System.arraycopy(test, 0, all, 57, 13);
    double[][] x = new double[70][];
    double[] y = new double[70];
    for (int i = 0; i < 70; i++) {
      x[i] = java.util.Arrays.copyOf(all[i], 3);
      y[i] = all[i][3];
    }
    RegressionSplits.Standardized s = RegressionSplits.standardize(
        RegressionData.of(x, y),
        new Split(IntStream.range(0, 57).toArray(), IntStream.range(57, 70).toArray()),
        true);

    RegressInputs fromCsv = RegressInputs.fromCsv(
        csv("train.csv", train).toString(), csv("test.csv", test).toString(), "y", false);
    RegressInputs fromColumns = RegressInputs.fromColumnFiles(
        columns("train.apxc", train).toString(), columns("test.apxc", test).toString(), "y", false);
    for (RegressInputs in : List.of(fromCsv, fromColumns)) {
      assertArrayEquals(s.train().x(), in.train().x());
      assertArrayEquals(s.train().y(), in.train().y());
      assertArrayEquals(s.test().x(), in.test().x());
      assertEquals(s.yMean(), in.yMean());
      assertEquals(s.yScale(), in.ySd());
      assertArrayEquals(s.xScale(), in.xScale());
    }
    // the constant input is left unscaled, and the target's scale has divisor n
    assertEquals(1.0, s.xScale()[2]);
    double m = java.util.Arrays.stream(train).mapToDouble(r -> r[3]).sum() / 57;
    double ss =
        java.util.Arrays.stream(train).mapToDouble(r -> (r[3] - m) * (r[3] - m)).sum();
    assertEquals(Math.sqrt(ss / 57), fromCsv.ySd(), 1e-12 * fromCsv.ySd());
  }
}
