package org.approxgp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code approxgp fit} with the EP family's options: the summary reports sweeps, verdict and relaxed sites. */
class FitEpFamilyTest {
  @TempDir
  static Path dir;

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({"ep,clip", "ep,keep", "qp,keep", "power-ep,keep", "power-ep,clip", "rep,keep"})
  void summaryHasTheVerdict(String inference, String policy) throws IOException {
    Path train = dir.resolve("train.csv");
    StringBuilder s = new StringBuilder("a,b,label\n");
    for (int i = 0; i < 25; i++) {
      double a = Math.sin(1.7 * i);
      double b = Math.cos(0.9 * i);
      s.append(String.format(
          Locale.ROOT, "%.4f,%.4f,%d%n", a, b, a + 0.3 * b + (i % 7 == 0 ? -2 : 0) > 0 ? 1 : -1));
    }
    Files.writeString(train, s);
    String[] extra = switch (inference) {
      case "power-ep" -> new String[] {"--negative-sites", policy, "--power", "0.6"};
      case "rep" -> new String[] {"--negative-sites", policy, "--penalty", "0.5"};
      default -> new String[] {"--negative-sites", policy};
    };
    String json = fit(inference, train, policy, extra);
    Path out = dir.resolve(inference + "-" + policy + ".csv");
    assertTrue(json.matches("(?s).*\"sweeps\": [1-9][0-9]*.*"), json);
    assertTrue(json.contains("\"diverged\": false"), json);
    assertTrue(json.contains("\"converged\": true"), json);
    assertEquals(inference.equals("rep"), json.contains("\"relaxed_sites\""), json);
    assertEquals(26, Files.readAllLines(out).size());
  }

  /** The loop settings reach the fit: a sweep cap stops it, and a fit without the gradient has the same predictions. */
  @ParameterizedTest(name = "{0}")
  @CsvSource({"ep", "power-ep", "rep"})
  void loopSettingsReachTheFit(String inference) throws IOException {
    Path train = dir.resolve("loop-train.csv");
    StringBuilder s = new StringBuilder("a,b,label\n");
    for (int i = 0; i < 30; i++) {
      double a = Math.sin(1.3 * i);
      double b = Math.cos(0.7 * i);
      s.append(String.format(
          Locale.ROOT, "%.4f,%.4f,%d%n", a, b, a - 0.4 * b + (i % 5 == 0 ? 2 : 0) > 0 ? 1 : -1));
    }
    Files.writeString(train, s);
    String capped = fit(inference, train, "capped", "--max-sweeps", "1");
    assertTrue(capped.contains("\"sweeps\": 1,"), capped);
    assertTrue(capped.contains("\"converged\": false"), capped);
    String full = fit(inference, train, "full");
    assertTrue(full.contains("\"converged\": true"), full);
    String none = fit(inference, train, "none", "--gradient", "none", "--evidence", "optional");
    assertTrue(none.contains("\"converged\": true"), none);
    assertEquals(
        Files.readString(dir.resolve(inference + "-full.csv")),
        Files.readString(dir.resolve(inference + "-none.csv")));
  }

  /** Runs {@code fit --no-optimize} with {@code extra}; returns the summary JSON. */
  private static String fit(String inference, Path train, String tag, String... extra)
      throws IOException {
    Path out = dir.resolve(inference + "-" + tag + ".csv");
    Path sum = dir.resolve(inference + "-" + tag + ".json");
    String[] base = {
      "fit",
      "--train",
      train.toString(),
      "--test",
      train.toString(),
      "--label",
      "label",
      "--inference",
      inference,
      "--no-optimize",
      "--out",
      out.toString(),
      "--summary",
      sum.toString()
    };
    String[] args = java.util.stream.Stream.concat(
            java.util.Arrays.stream(base), java.util.Arrays.stream(extra))
        .toArray(String[]::new);
    StringWriter sw = new StringWriter();
    assertEquals(0, Main.run(new PrintWriter(sw, true), args), sw.toString());
    return Files.readString(sum);
  }
}
