package org.approxgp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code approxgp tilted} against the shared tilted-moment anchors (30-digit quadrature). */
class TiltedCommandTest {

  static String run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = new CommandLine(new Main());
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    int code = cl.execute(args);
    assertEquals(0, code, err.toString());
    return out.toString();
  }

  static double field(String json, String name) {
    return Double.parseDouble(json.replaceAll("(?s).*\"" + name + "\": ([-0-9.eE]+).*", "$1"));
  }

  @Test
  void probitAnchorsThroughTheCommandLine() throws Exception {
    List<String> rows;
    try (BufferedReader r = new BufferedReader(new InputStreamReader(
        getClass().getResourceAsStream("/anchors/tilted-moments.txt"), StandardCharsets.UTF_8))) {
      rows = r.lines().filter(l -> l.startsWith("probit ")).collect(Collectors.toList());
    }
    assertTrue(rows.size() >= 2);
    for (String row : rows) {
      String[] f = row.split(" ");
      String json = run(
          "tilted",
          "--likelihood",
          "probit",
          "--y",
          f[1],
          "--cavity-mean",
          f[2],
          "--cavity-variance",
          f[3]);
      String[] names = {"log_z", "mean", "variance_ep", "variance_qp"};
      for (int j = 0; j < 4; j++) {
        double expect = Double.parseDouble(f[4 + j]);
        assertEquals(
            expect, field(json, names[j]), 1e-9 * Math.abs(expect), names[j] + " for " + row);
      }
      // the table covers these cavities: it must agree with the exact value to its 1e-8 budget
      assertEquals(
          Double.parseDouble(f[7]),
          field(json, "variance_qp_table"),
          1e-8 * Double.parseDouble(f[7]));
    }
  }

  /**
   * A cavity outside the shipped probit table (σ = 40) and inside the wide one: variance_qp_table comes from
   * the wide table and agrees with the exact projection to its 1e-8 budget; far outside both tables (σ = 500)
   * the field is absent.
   */
  @Test
  void wideTableServesLargeCavityVariances() {
    String json = run(
        "tilted",
        "--likelihood",
        "probit",
        "--y",
        "1",
        "--cavity-mean",
        "-30",
        "--cavity-variance",
        "1600");
    double exact = field(json, "variance_qp");
    assertEquals(exact, field(json, "variance_qp_table"), 1e-8 * exact);
    assertTrue(field(json, "variance_qp_table") < field(json, "variance_ep"), "Theorem 2");
    String far = run(
        "tilted",
        "--likelihood",
        "probit",
        "--y",
        "1",
        "--cavity-mean",
        "-3",
        "--cavity-variance",
        "250000");
    assertTrue(!far.contains("variance_qp_table"), far);
  }

  @Test
  void poissonAnchorThroughTheCommandLine() throws Exception {
    List<String> rows;
    try (BufferedReader r = new BufferedReader(new InputStreamReader(
        getClass().getResourceAsStream("/anchors/tilted-moments.txt"), StandardCharsets.UTF_8))) {
      rows = r.lines().filter(l -> l.startsWith("poisson-square ")).collect(Collectors.toList());
    }
    assertEquals(1, rows.size());
    String[] f = rows.get(0).split(" ");
    String json = run(
        "tilted",
        "--likelihood",
        "poisson-square",
        "--y",
        f[1],
        "--cavity-mean",
        f[2],
        "--cavity-variance",
        f[3]);
    String[] names = {"log_z", "mean", "variance_ep", "variance_qp"};
    for (int j = 0; j < 4; j++) {
      double expect = Double.parseDouble(f[4 + j]);
      assertEquals(expect, field(json, names[j]), 1e-9 * Math.abs(expect), names[j]);
    }
  }

  @Test
  void lpWithPTwoIsTheW2Projection() {
    String w2 = run("tilted", "--y", "-1", "--cavity-mean", "0.7", "--cavity-variance", "3");
    String lp =
        run("tilted", "--y", "-1", "--cavity-mean", "0.7", "--cavity-variance", "3", "--p", "2");
    assertEquals(field(w2, "variance_qp"), field(lp, "variance_qp"), 0);
  }

  @Test
  void badArgumentsExitTwo() {
    StringWriter err = new StringWriter();
    assertEquals(
        2,
        Main.run(
            new PrintWriter(err, true),
            "tilted",
            "--y",
            "0",
            "--cavity-mean",
            "0",
            "--cavity-variance",
            "1"));
    assertEquals(
        2,
        Main.run(
            new PrintWriter(err, true),
            "tilted",
            "--y",
            "1",
            "--cavity-mean",
            "0",
            "--cavity-variance",
            "-1"));
    assertEquals(
        2,
        Main.run(
            new PrintWriter(err, true),
            "tilted",
            "--y",
            "1",
            "--cavity-mean",
            "0",
            "--cavity-variance",
            "1",
            "--p",
            "0.5"));
  }

  /**
   * noisy-step through the command line: the first row of each (ε, y) block of the mpmath table
   * likelihood/noisy-step/tilted.csv (log Z, mean, variance) and of power-tilted.csv with --power; the JSON
   * carries the library's doubles, so the tolerances are those of {@code NoisyStepTest}.
   */
  @Test
  void noisyStepTiltedAndPowerTiltedThroughTheCommandLine() throws Exception {
    List<String[]> tilted = org.approxgp.likelihood.NoisyStepTest.raw("tilted.csv");
    for (int i = 0; i < tilted.size(); i += 24) {
      String[] f = tilted.get(i);
      String json = run(
          "tilted",
          "--likelihood",
          "noisy-step",
          "--epsilon",
          f[0],
          "--y",
          f[1],
          "--cavity-mean",
          f[2],
          "--cavity-variance",
          f[3]);
      double logZ = Double.parseDouble(f[4]);
      assertEquals(logZ, field(json, "log_z"), 1e-14 * Math.max(1, Math.abs(logZ)), json);
      double m = Double.parseDouble(f[2]);
      double mean = Double.parseDouble(f[5]);
      assertEquals(mean, field(json, "mean"), 1e-13 * (Math.abs(m) + Math.abs(mean - m)), json);
      assertEquals(
          Double.parseDouble(f[6]),
          field(json, "variance_ep"),
          1e-12 * Double.parseDouble(f[6]),
          json);
      assertTrue(field(json, "variance_qp") <= field(json, "variance_ep") * (1 + 1e-10), json);
    }
    List<String[]> power = org.approxgp.likelihood.NoisyStepTest.raw("power-tilted.csv");
    for (int i = 0; i < power.size(); i += 7) {
      String[] f = power.get(i);
      double u = Double.parseDouble(f[4]);
      if (u > 1) {
        continue; // the command line takes u in (0, 1] (Power EP); u = 2 is covered by
        // NoisyStepTest
      }
      String json = run(
          "tilted",
          "--likelihood",
          "noisy-step",
          "--epsilon",
          f[0],
          "--y",
          f[1],
          "--cavity-mean",
          f[2],
          "--cavity-variance",
          f[3],
          "--power",
          f[4]);
      assertEquals(u, field(json, "power"), 0, json);
      double logZ = Double.parseDouble(f[5]);
      assertEquals(logZ, field(json, "log_z"), 1e-14 * Math.max(1, Math.abs(logZ)), json);
      double m = Double.parseDouble(f[2]);
      double mean = Double.parseDouble(f[6]);
      assertEquals(mean, field(json, "mean"), 1e-13 * (Math.abs(m) + Math.abs(mean - m)), json);
      assertEquals(
          Double.parseDouble(f[7]),
          field(json, "variance_ep"),
          1e-12 * Double.parseDouble(f[7]),
          json);
    }
  }

  /**
   * The reliability review's probit case, --cavity-mean ±250 --cavity-variance 1 --power 0.5 for both labels:
   * log Z was NaN on the wrong side (y m &lt; 0); now the 40-digit mpmath values of
   * likelihood/probit-power/power-tilted.csv, and log Z ≈ 0 on the right side.
   */
  @Test
  void probitPowerTiltedFarFromTheBoundary() {
    for (String y : new String[] {"1", "-1"}) {
      for (String m : new String[] {"250", "-250"}) {
        String json = run(
            "tilted",
            "--likelihood",
            "probit",
            "--y",
            y,
            "--cavity-mean",
            m,
            "--cavity-variance",
            "1",
            "--power",
            "0.5");
        boolean wrongSide = Double.parseDouble(y) * Double.parseDouble(m) < 0;
        double mean = Double.parseDouble(m)
            * (wrongSide ? 166.6646667386614831331751656168158075046 / 250 : 1);
        assertEquals(
            wrongSide ? -10419.88687539187614569255713395404244253 : 0,
            field(json, "log_z"),
            1e-13 * 10419.9,
            json);
        assertEquals(mean, field(json, "mean"), 1e-13 * 250, json);
        assertEquals(
            wrongSide ? 0.6666746658027703336048406470774660474108 : 1,
            field(json, "variance_ep"),
            1e-10,
            json);
      }
    }
  }

  /** --power 1 (explicit) is the plain tilted output plus the power field. */
  @Test
  void powerOneIsTheTiltedDistribution() {
    String a = run("tilted", "--y", "1", "--cavity-mean", "-0.4", "--cavity-variance", "2");
    String b = run(
        "tilted", "--y", "1", "--cavity-mean", "-0.4", "--cavity-variance", "2", "--power", "1");
    assertEquals(field(a, "variance_ep"), field(b, "variance_ep"), 0);
    assertEquals(field(a, "variance_qp"), field(b, "variance_qp"), 0);
    assertEquals(1.0, field(b, "power"), 0);
  }
}
