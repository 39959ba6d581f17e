package org.approxgp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code approxgp fit --inference rep --relaxation nonnegative|signed --penalty-form eq35|eq4}: the defaults
 * (signed, eq35) reproduce the options' absence bit for bit; both options are refused for other methods and
 * for unknown values.
 */
class FitRelaxedEpReadingsTest {
  @TempDir
  static Path dir;

  private static int fit(String tag, StringWriter sw, String... extra) throws IOException {
    Path train = dir.resolve("train.csv");
    StringBuilder s = new StringBuilder("a,b,label\n");
    for (int i = 0; i < 25; i++) {
      double a = Math.sin(1.7 * i);
      double b = Math.cos(0.9 * i);
      s.append(String.format(Locale.ROOT, "%.4f,%.4f,%d%n", a, b, a + 0.3 * b + (i % 5 == 0 ? -2 : 0) > 0 ? 1 : -1));
    }
    Files.writeString(train, s);
    List<String> args = new ArrayList<>(List.of("fit", "--train", train.toString(), "--test", train.toString(),
        "--label", "label", "--likelihood", "noisy-step", "--epsilon", "0.1", "--no-optimize", "--inference", "rep",
        "--penalty", "0.05", "--out", dir.resolve(tag + ".csv").toString()));
    args.addAll(List.of(extra));
    return Main.run(new PrintWriter(sw, true), args.toArray(String[]::new));
  }

  @Test
  void defaultsAreSignedAndEq35() throws IOException {
    StringWriter sw = new StringWriter();
    assertEquals(0, fit("none", sw), sw.toString());
    assertEquals(0, fit("signed", sw, "--relaxation", "signed", "--penalty-form", "eq35"), sw.toString());
    assertEquals(0, fit("nonneg", sw, "--relaxation", "nonnegative"), sw.toString());
    assertEquals(0, fit("eq4", sw, "--penalty-form", "eq4"), sw.toString());
    String none = Files.readString(dir.resolve("none.csv"));
    assertEquals(none, Files.readString(dir.resolve("signed.csv")));
    assertNotEquals(none, Files.readString(dir.resolve("eq4.csv")));
  }

  @Test
  void refusedWhereTheyDoNotApply() throws IOException {
    StringWriter sw = new StringWriter();
    assertEquals(0, fit("first", sw), sw.toString()); // writes train.csv
    String train = dir.resolve("train.csv").toString();
    List<String> args = List.of("fit", "--train", train, "--test", train, "--label", "label", "--inference", "ep",
        "--relaxation", "signed", "--out", dir.resolve("x.out").toString());
    StringWriter sw1 = new StringWriter();
    assertNotEquals(0, Main.run(new PrintWriter(sw1, true), args.toArray(String[]::new)));
    assertTrue(sw1.toString().contains("--relaxation applies to --inference rep only"), sw1.toString());
    StringWriter sw2 = new StringWriter();
    assertNotEquals(0, fit("bad", sw2, "--relaxation", "positive"));
    assertTrue(sw2.toString().contains("--relaxation must be nonnegative or signed"), sw2.toString());
    StringWriter sw3 = new StringWriter();
    assertNotEquals(0, fit("bad2", sw3, "--penalty-form", "eq5"));
    assertTrue(sw3.toString().contains("--penalty-form must be eq35 or eq4"), sw3.toString());
  }
}
