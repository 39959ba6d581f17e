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
        "method,mean_rmse,mean_rmse_floor,mean_max_error,variance_rmse,variance_rmse_floor,kl_mean,kl_floor,"
            + "w2_mean,w2_floor,log_evidence_error,log_evidence_se,test_nll,test_error,seconds,rhat_max,ess_min",
        lines.get(0));
    assertEquals(String.join(",", Comparison.COLUMNS), lines.get(0));
    assertEquals(4, lines.size(), "a header and one row per method: " + lines);
    List<String> names = new ArrayList<>();
    for (String line : lines.subList(1, 4)) {
      String[] cells = line.split(",", -1);
      assertEquals(17, cells.length, line);
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
    assertTrue(html.contains("<style>"), "the report carries its style sheet");
    String[] first = lines.get(1).split(",", -1);
    boolean met = Double.parseDouble(first[15]) <= 1.01 && Double.parseDouble(first[16]) >= 1000;
    boolean capped = r.err().contains("stopped at --max-transitions");
    assertEquals(
        capped,
        html.contains("cap on transitions stopped the sampler"),
        "the report says the cap stopped the sampler exactly when the command line does: "
            + r.err());
    assertTrue(met || capped, "missed R-hat or ESS targets end only at the cap: " + lines.get(1));
    for (String score : List.of("posterior means", "marginal variances", "mean KL")) {
      assertTrue(html.contains("closest " + score + ": "), "a verdict on " + score);
    }
  }

  @Test
  void theMarginalsFileReproducesTheSummarysScores() throws IOException {
    Path out = dir.resolve("m.html");
    Path sum = dir.resolve("m-s.csv");
    Path marg = dir.resolve("m-m.csv");
    List<String> args = common(labels, out, sum);
    args.addAll(List.of("--marginals", marg.toString()));
    Run r = run(args.toArray(String[]::new));
    assertEquals(0, r.code(), r.err());
    List<String> rows = Files.readAllLines(marg);
    assertEquals(
        "i,truth_mean,truth_mean_se,truth_variance,truth_variance_se,ep_mean,ep_variance,"
            + "laplace_mean,laplace_variance",
        rows.get(0));
    assertEquals(17, rows.size(), "a header and one row per training point");
    String[] ep = Files.readAllLines(sum).get(1).split(",", -1);
    // mean_rmse = √max(0, mean((μ − m)² − ε²)), mean_rmse_floor = √mean ε², from the marginals
    double se = 0;
    double floor = 0;
    double max = 0;
    for (String row : rows.subList(1, rows.size())) {
      String[] c = row.split(",");
      double d = Double.parseDouble(c[5]) - Double.parseDouble(c[1]);
      double e = Double.parseDouble(c[2]);
      se += d * d - e * e;
      floor += e * e;
      max = Math.max(max, Math.abs(d));
    }
    int n = rows.size() - 1;
    assertEquals(Math.sqrt(Math.max(0, se / n)), Double.parseDouble(ep[1]), 1e-12, "mean_rmse");
    assertEquals(Math.sqrt(floor / n), Double.parseDouble(ep[2]), 1e-12, "mean_rmse_floor");
    assertEquals(max, Double.parseDouble(ep[3]), 1e-12, "mean_max_error");
  }

  @Test
  void relaxedEpEqualToEpIsSaidSo() throws IOException {
    Path out = dir.resolve("rep.html");
    Path sum = dir.resolve("rep.csv");
    List<String> args = common(labels, out, sum);
    args.set(args.indexOf("--methods") + 1, "ep,rep");
    Run r = run(args.toArray(String[]::new));
    assertEquals(0, r.code(), r.err());
    List<String> lines = Files.readAllLines(sum);
    String[] ep = lines.get(1).split(",", -1);
    String[] rep = lines.get(2).split(",", -1);
    boolean equal = true;
    for (int j : new int[] {3, 6, 8}) { // mean_max_error, kl_mean, w2_mean: never clipped at 0
      double a = Double.parseDouble(ep[j]);
      double b = Double.parseDouble(rep[j]);
      equal &= Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
    }
    assertEquals(
        equal,
        Files.readString(out).contains("rep's marginals equal ep's"),
        "the report says rep equals ep exactly when their scores agree: " + lines);
  }

  @Test
  void aFeatureTooLargeForTheKernelIsNamed() throws IOException {
    Path big = dir.resolve("big.csv");
    List<String> rows = new ArrayList<>(Files.readAllLines(labels));
    String[] cells = rows.get(3).split(",");
    rows.set(3, cells[0] + ",1e300," + cells[2]);
    Files.write(big, rows);
    Path out = dir.resolve("big.html");
    Path sum = dir.resolve("big-s.csv");
    Run r = run(common(big, out, sum).toArray(String[]::new));
    assertEquals(2, r.code(), r.err());
    assertTrue(
        r.err().contains("big.csv") && r.err().contains("row 3") && r.err().contains("'x2'"),
        "the file, row and column: " + r.err());
    assertFalse(Files.exists(out) || Files.exists(sum), "nothing written");
  }

  @Test
  void everyOptionTheHelpNamesExists() {
    picocli.CommandLine cl = new picocli.CommandLine(new CompareCommand());
    String help = cl.getUsageMessage();
    java.util.Set<String> options = new java.util.HashSet<>();
    cl.getCommandSpec().options().forEach(o -> options.addAll(List.of(o.names())));
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("--[a-z][a-z-]*[a-z]").matcher(help);
    int named = 0;
    while (m.find()) {
      named++;
      assertTrue(
          options.contains(m.group()),
          "compare --help names " + m.group() + ", which compare does not accept");
    }
    assertTrue(named > 10, "the help names the options: " + help);
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
      assertEquals("", cells[12], "test_nll without --test: " + line);
      assertEquals("", cells[13], "test_error without --test: " + line);
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
