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
 * {@code approxgp fit --inference rep --relaxation nonnegative|signed --penalty-form eq35|eq4 --site-reading a|b|c
 * --relaxation-search local|global --objective clean|unnormalised|eq36}: the defaults (nonnegative, eq35, b, local,
 * clean) reproduce the options' absence bit for
 * bit; each other value changes the fit on this noisy problem; every option is refused for other methods and for
 * unknown values.
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
      s.append(String.format(
          Locale.ROOT, "%.4f,%.4f,%d%n", a, b, a + 0.3 * b + (i % 5 == 0 ? -2 : 0) > 0 ? 1 : -1));
    }
    Files.writeString(train, s);
    List<String> args = new ArrayList<>(List.of(
        "fit",
        "--train",
        train.toString(),
        "--test",
        train.toString(),
        "--label",
        "label",
        "--likelihood",
        "noisy-step",
        "--epsilon",
        "0.1",
        "--no-optimize",
        "--inference",
        "rep",
        "--penalty",
        "0.05",
        "--out",
        dir.resolve(tag + ".csv").toString()));
    args.addAll(List.of(extra));
    return Main.run(new PrintWriter(sw, true), args.toArray(String[]::new));
  }

  @Test
  void defaultsAreNonnegativeEq35ReadingBLocal() throws IOException {
    StringWriter sw = new StringWriter();
    assertEquals(0, fit("none", sw), sw.toString());
    assertEquals(
        0,
        fit(
            "defaults",
            sw,
            "--relaxation",
            "nonnegative",
            "--penalty-form",
            "eq35",
            "--site-reading",
            "b",
            "--relaxation-search",
            "local",
            "--objective",
            "clean"),
        sw.toString());
    String none = Files.readString(dir.resolve("none.csv"));
    assertEquals(none, Files.readString(dir.resolve("defaults.csv")));
    for (String[] other : new String[][] {
      {"--relaxation", "signed"},
      {"--penalty-form", "eq4"},
      {"--site-reading", "a"},
      {"--site-reading", "c"},
      {"--relaxation-search", "global"},
      {"--objective", "eq36"},
      {"--objective", "unnormalised"}
    }) {
      String tag = other[0].substring(2) + "-" + other[1];
      assertEquals(0, fit(tag, sw, other), sw.toString());
      assertNotEquals(none, Files.readString(dir.resolve(tag + ".csv")), tag);
    }
  }

  @Test
  void refusedWhereTheyDoNotApply() throws IOException {
    StringWriter sw = new StringWriter();
    assertEquals(0, fit("first", sw), sw.toString()); // writes train.csv
    String train = dir.resolve("train.csv").toString();
    List<String> args = List.of(
        "fit",
        "--train",
        train,
        "--test",
        train,
        "--label",
        "label",
        "--inference",
        "ep",
        "--relaxation",
        "signed",
        "--out",
        dir.resolve("x.out").toString());
    StringWriter sw1 = new StringWriter();
    assertNotEquals(0, Main.run(new PrintWriter(sw1, true), args.toArray(String[]::new)));
    assertTrue(
        sw1.toString().contains("--relaxation applies to rep only, not to ep"), sw1.toString());
    StringWriter sw2 = new StringWriter();
    assertNotEquals(0, fit("bad", sw2, "--relaxation", "positive"));
    assertTrue(
        sw2.toString().contains("--relaxation must be nonnegative or signed"), sw2.toString());
    StringWriter swObjective = new StringWriter();
    assertNotEquals(0, fit("bad-objective", swObjective, "--objective", "kl"));
    assertTrue(
        swObjective.toString().contains("--objective must be clean, unnormalised or eq36"),
        swObjective.toString());
    StringWriter sw3 = new StringWriter();
    assertNotEquals(0, fit("bad2", sw3, "--penalty-form", "eq5"));
    assertTrue(sw3.toString().contains("--penalty-form must be eq35 or eq4"), sw3.toString());
    StringWriter sw4 = new StringWriter();
    assertNotEquals(0, fit("bad3", sw4, "--site-reading", "d"));
    assertTrue(sw4.toString().contains("--site-reading must be a, b or c"), sw4.toString());
    StringWriter sw5 = new StringWriter();
    assertNotEquals(0, fit("bad4", sw5, "--relaxation-search", "grid"));
    assertTrue(
        sw5.toString().contains("--relaxation-search must be local or global"), sw5.toString());
    StringWriter sw6 = new StringWriter();
    List<String> pep = new ArrayList<>(args);
    pep.set(pep.indexOf("--relaxation"), "--site-reading");
    pep.set(pep.indexOf("signed"), "a");
    assertNotEquals(0, Main.run(new PrintWriter(sw6, true), pep.toArray(String[]::new)));
    assertTrue(sw6.toString().contains("--site-reading applies to rep only"), sw6.toString());
  }
}
