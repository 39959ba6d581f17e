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
    Path out = dir.resolve(inference + policy + ".csv");
    Path sum = dir.resolve(inference + policy + ".json");
    StringWriter sw = new StringWriter();
    String[] extra = switch (inference) {
      case "power-ep" -> new String[] {"--power", "0.6"};
      case "rep" -> new String[] {"--penalty", "0.5"};
      default -> new String[0];
    };
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
      "--negative-sites",
      policy,
      "--no-optimize",
      "--out",
      out.toString(),
      "--summary",
      sum.toString()
    };
    String[] args = java.util.stream.Stream.concat(
            java.util.Arrays.stream(base), java.util.Arrays.stream(extra))
        .toArray(String[]::new);
    int code = Main.run(new PrintWriter(sw, true), args);
    assertEquals(0, code, sw.toString());
    String json = Files.readString(sum);
    assertTrue(json.matches("(?s).*\"sweeps\": [1-9][0-9]*.*"), json);
    assertTrue(json.contains("\"diverged\": false"), json);
    assertTrue(json.contains("\"converged\": true"), json);
    assertEquals(inference.equals("rep"), json.contains("\"relaxed_sites\""), json);
    assertEquals(26, Files.readAllLines(out).size());
  }
}
