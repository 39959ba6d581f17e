package org.approxgp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code approxgp regress --warp}: by default an input whose upper tail reaches ten times its median is fitted on the
 * log scale — the fit is, to the bit, {@code --warp none} on a file where the test itself took log(x + c) of that
 * column, c computed here from the stated rule — the summary and stderr name it, {@code --warp none} names none,
 * and another value is refused.
 */
class RegressWarpTest {
  @TempDir
  Path dir;

  /**
   * Columns: t, log-normal (σ = 1.5: 99th percentile about 33 times the median); u, uniform on [0, 1] (never
   * warped); a zero in t's TRAIN rows, and a TEST row with t below 0. y = sin(log t) + u + noise.
   */
  private static double[][] rows(int n, long seed, boolean train) {
    SplittableRandom r = new SplittableRandom(seed);
    double[][] out = new double[n][];
    for (int i = 0; i < n; i++) {
      double t = Math.exp(1.5 * r.nextGaussian());
      double u = r.nextDouble();
      out[i] = new double[] {t, u, Math.sin(Math.log(t)) + u + 0.1 * r.nextGaussian()};
    }
    if (train) {
      out[3][0] = 0;
    } else {
      out[0][0] = -0.05;
    }
    return out;
  }

  private Path csv(String name, double[][] rows, double offset) throws IOException {
    StringBuilder b = new StringBuilder("t,u,y\n");
    for (double[] r : rows) {
      double t = Double.isNaN(offset)
          ? r[0]
          : r[0] >= 0 ? Math.log(r[0] + offset) : Math.log(offset) + r[0] / offset;
      b.append(t).append(',').append(r[1]).append(',').append(r[2]).append('\n');
    }
    return Files.writeString(dir.resolve(name), b);
  }

  /** Hyndman and Fan's definition 7 quantile of a sorted array. */
  private static double quantile(double[] s, double p) {
    double h = (s.length - 1) * p;
    int lo = (int) h;
    return lo + 1 < s.length ? s[lo] + (h - lo) * (s[lo + 1] - s[lo]) : s[lo];
  }

  private AnchorFits.Run regress(Path train, Path test, String tag, String... extra)
      throws IOException {
    List<String> args = new java.util.ArrayList<>(List.of(
        "regress",
        "--model",
        "ssgp",
        "--train",
        train.toString(),
        "--test",
        test.toString(),
        "--target",
        "y",
        "--features",
        "16",
        "--iterations",
        "30",
        "--seed",
        "3",
        "--out",
        dir.resolve(tag + ".csv").toString(),
        "--summary",
        dir.resolve(tag + ".json").toString()));
    args.addAll(List.of(extra));
    AnchorFits.Run r = AnchorFits.run(args.toArray(String[]::new));
    if (r.code() != 0) {
      return r;
    }
    JsonNode s = new ObjectMapper().readTree(dir.resolve(tag + ".json").toFile());
    return new AnchorFits.Run(r.code(), r.err(), null, null, s);
  }

  @Test
  void aHeavyTailedInputIsFittedOnTheLogScaleAndNamed() throws IOException {
    double[][] train = rows(200, 1, true);
    double[][] test = rows(40, 2, false);
    double[] t = Arrays.stream(train).mapToDouble(r -> r[0]).sorted().toArray();
    assertTrue(quantile(t, 0.99) >= 10 * quantile(t, 0.5), "the data must trigger the rule");
    double c = quantile(Arrays.stream(t).filter(v -> v > 0).toArray(), 0.01);

    AnchorFits.Run auto =
        regress(csv("train.csv", train, Double.NaN), csv("test.csv", test, Double.NaN), "auto");
    assertEquals(0, auto.code(), auto.err());
    assertEquals("auto", auto.summary().get("warp").asText());
    JsonNode warped = auto.summary().get("warped_inputs");
    assertEquals(1, warped.size());
    assertEquals(c, warped.get("t").asDouble(), 0);
    assertTrue(auto.err().contains("log(x + c) of t (c = "), auto.err());

    // the same fit as --warp none on the test's own log(x + c) of t: the same predictions, to the
    // bit
    AnchorFits.Run byHand = regress(
        csv("train-log.csv", train, c), csv("test-log.csv", test, c), "by-hand", "--warp", "none");
    assertEquals(0, byHand.code(), byHand.err());
    assertEquals("none", byHand.summary().get("warp").asText());
    assertEquals(0, byHand.summary().get("warped_inputs").size());
    assertFalse(byHand.err().contains("log(x + c)"), byHand.err());
    assertEquals(
        Files.readString(dir.resolve("by-hand.csv")), Files.readString(dir.resolve("auto.csv")));

    // --warp none on the raw file fits t as given: other predictions
    AnchorFits.Run none = regress(
        csv("train.csv", train, Double.NaN),
        csv("test.csv", test, Double.NaN),
        "none",
        "--warp",
        "none");
    assertEquals(0, none.code(), none.err());
    assertEquals(0, none.summary().get("warped_inputs").size());
    assertFalse(Files.readString(dir.resolve("none.csv"))
        .equals(Files.readString(dir.resolve("auto.csv"))));
  }

  @Test
  void anotherWarpIsRefusedBeforeAnythingIsWritten() throws IOException {
    AnchorFits.Run r = regress(
        csv("train.csv", rows(50, 1, true), Double.NaN),
        csv("test.csv", rows(10, 2, false), Double.NaN),
        "bad",
        "--warp",
        "log");
    assertEquals(2, r.code());
    assertTrue(r.err().contains("--warp must be auto or none, got 'log'"), r.err());
    assertFalse(Files.exists(dir.resolve("bad.csv")));
  }
}
