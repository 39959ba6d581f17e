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
      String json = run("tilted", "--likelihood", "probit", "--y", f[1], "--cavity-mean", f[2], "--cavity-variance", f[3]);
      String[] names = {"log_z", "mean", "variance_ep", "variance_qp"};
      for (int j = 0; j < 4; j++) {
        double expect = Double.parseDouble(f[4 + j]);
        assertEquals(expect, field(json, names[j]), 1e-9 * Math.abs(expect), names[j] + " for " + row);
      }
      // the table covers these cavities: it must agree with the exact value to its 1e-8 budget
      assertEquals(Double.parseDouble(f[7]), field(json, "variance_qp_table"), 1e-8 * Double.parseDouble(f[7]));
    }
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
    String json = run("tilted", "--likelihood", "poisson-square", "--y", f[1], "--cavity-mean", f[2],
        "--cavity-variance", f[3]);
    String[] names = {"log_z", "mean", "variance_ep", "variance_qp"};
    for (int j = 0; j < 4; j++) {
      double expect = Double.parseDouble(f[4 + j]);
      assertEquals(expect, field(json, names[j]), 1e-9 * Math.abs(expect), names[j]);
    }
  }

  @Test
  void lpWithPTwoIsTheW2Projection() {
    String w2 = run("tilted", "--y", "-1", "--cavity-mean", "0.7", "--cavity-variance", "3");
    String lp = run("tilted", "--y", "-1", "--cavity-mean", "0.7", "--cavity-variance", "3", "--p", "2");
    assertEquals(field(w2, "variance_qp"), field(lp, "variance_qp"), 0);
  }

  @Test
  void badArgumentsExitTwo() {
    StringWriter err = new StringWriter();
    assertEquals(2, Main.run(new PrintWriter(err, true), "tilted", "--y", "0", "--cavity-mean", "0", "--cavity-variance", "1"));
    assertEquals(2, Main.run(new PrintWriter(err, true), "tilted", "--y", "1", "--cavity-mean", "0", "--cavity-variance", "-1"));
    assertEquals(2, Main.run(new PrintWriter(err, true), "tilted", "--y", "1", "--cavity-mean", "0", "--cavity-variance", "1", "--p", "0.5"));
  }
}
