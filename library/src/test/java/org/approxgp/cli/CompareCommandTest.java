package org.approxgp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.approxgp.reference.Comparison;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The {@code approxgp compare} contract: the summary's columns and rows, and bad input as one line, exit 2. */
class CompareCommandTest {
  @TempDir
  static Path dir;

  static Path labels;
  static Path reals;
  static Path threeClasses;

  record Run(int code, String err) {}

  static Run run(String... args) {
    StringWriter sw = new StringWriter();
    int code = Main.run(new PrintWriter(sw, true), args);
    return new Run(code, sw.toString());
  }

  @BeforeAll
  static void data() throws IOException {
    StringBuilder a = new StringBuilder("x1,x2,y\n");
    StringBuilder r = new StringBuilder("x1,x2,y\n");
    StringBuilder c = new StringBuilder("x1,x2,y\n");
    for (int i = 0; i < 16; i++) {
      double x1 = Math.sin(1.3 * i);
      double x2 = Math.cos(0.7 * i);
      a.append(String.format(Locale.ROOT, "%.4f,%.4f,%d%n", x1, x2, x1 + 0.3 * x2 > 0 ? 1 : 0));
      r.append(String.format(Locale.ROOT, "%.4f,%.4f,%.4f%n", x1, x2, x1 - x2));
      c.append(String.format(Locale.ROOT, "%.4f,%.4f,%d%n", x1, x2, i % 3));
    }
    labels = Files.writeString(dir.resolve("labels.csv"), a);
    reals = Files.writeString(dir.resolve("reals.csv"), r);
    threeClasses = Files.writeString(dir.resolve("three.csv"), c);
  }

  private static List<String> common(Path train, Path out, Path summary) {
    return new ArrayList<>(List.of(
        "compare",
        "--train",
        train.toString(),
        "--label",
        "y",
        "--out",
        out.toString(),
        "--summary",
        summary.toString(),
        "--max-transitions",
        "2000",
        "--ais-temperatures",
        "20",
        "--threads",
        "2",
        "--methods",
        "ep,laplace"));
  }

  @Test
  void theSummaryHasTheNamedColumnsAndOneRowPerMethod() throws IOException {
    Path out = dir.resolve("r.html");
    Path sum = dir.resolve("s.csv");
    List<String> args = common(labels, out, sum);
    args.set(args.indexOf("--methods") + 1, "ep,laplace,vb");
    args.addAll(List.of("--test", labels.toString()));
    Run r = run(args.toArray(String[]::new));
    assertEquals(0, r.code(), r.err());
    List<String> lines = Files.readAllLines(sum);
    assertEquals(
        "method,mean_rmse,mean_max_error,variance_rmse,kl_mean,w2_mean,log_evidence_error,test_nll,"
            + "test_error,seconds,rhat_max,ess_min",
        lines.get(0));
    assertEquals(String.join(",", Comparison.COLUMNS), lines.get(0));
    assertEquals(4, lines.size(), "a header and one row per method: " + lines);
    List<String> names = new ArrayList<>();
    for (String line : lines.subList(1, 4)) {
      String[] cells = line.split(",", -1);
      assertEquals(12, cells.length, line);
      names.add(cells[0]);
      for (int j = 1; j < cells.length; j++) {
        assertFalse(cells[j].isEmpty(), "with a labelled test set every cell applies: " + line);
        assertTrue(Double.isFinite(Double.parseDouble(cells[j])), line);
      }
    }
    assertEquals(List.of("ep", "laplace", "vb"), names);
    String html = Files.readString(out);
    assertTrue(
        html.contains("<table") && html.contains("data:image/png;base64,"), "a table and figures");
    String[] first = lines.get(1).split(",", -1);
    boolean met = Double.parseDouble(first[10]) <= 1.01 && Double.parseDouble(first[11]) >= 1000;
    assertEquals(
        !met,
        html.contains("cap on transitions stopped the sampler"),
        "the report says the cap stopped the sampler exactly when R-hat or ESS missed its target: "
            + lines.get(1));
  }

  @Test
  void gaussianWithoutATestSetLeavesTheTestCellsEmpty() throws IOException {
    Path out = dir.resolve("g.html");
    Path sum = dir.resolve("g.csv");
    List<String> args = common(reals, out, sum);
    args.set(args.indexOf("--methods") + 1, "ep,qp");
    args.addAll(List.of("--likelihood", "gaussian", "--noise-variance", "0.1"));
    Run r = run(args.toArray(String[]::new));
    assertEquals(0, r.code(), r.err());
    for (String line : Files.readAllLines(sum).subList(1, 3)) {
      String[] cells = line.split(",", -1);
      assertEquals("", cells[7], "test_nll without --test: " + line);
      assertEquals("", cells[8], "test_error without --test: " + line);
      assertFalse(line.contains("NaN"), line);
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "missing training file|--train|MISSING|no such file|",
        "unknown method|--methods|ep,nope|nope|",
        "method named twice|--methods|ep,ep|twice|",
        "power without power-ep|--power|0.5|power-ep|",
        "three classes for probit|--train|THREE|three.csv|",
        "gaussian without noise variance|--likelihood|gaussian|--noise-variance|",
        "noise variance for probit|--noise-variance|0.1|gaussian only|",
        "too few chains|--chains|2|--chains|",
        "unknown optimizer method|--optimize|nope|nope|"
      })
  void badInputIsOneLineAndExitTwo(String why, String option, String value, String expected)
      throws IOException {
    Path out = dir.resolve("bad.html");
    Path sum = dir.resolve("bad.csv");
    Files.deleteIfExists(out);
    Files.deleteIfExists(sum);
    List<String> args = common(labels, out, sum);
    String v = value.equals("MISSING")
        ? dir.resolve("no-such.csv").toString()
        : value.equals("THREE") ? threeClasses.toString() : value;
    int at = args.indexOf(option);
    if (at >= 0) {
      args.set(at + 1, v);
    } else {
      args.addAll(List.of(option, v));
    }
    Run r = run(args.toArray(String[]::new));
    assertEquals(2, r.code(), why + ": " + r.err());
    assertEquals(1, r.err().strip().split("\n").length, why + ": one line, got " + r.err());
    assertTrue(
        r.err().toLowerCase(Locale.ROOT).contains(expected.toLowerCase(Locale.ROOT)),
        why + ": the message should mention '" + expected + "': " + r.err());
    assertFalse(Files.exists(out) || Files.exists(sum), why + ": nothing written");
  }
}
