package org.approxgp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code approxgp coal} runs the Mining experiment through the resumable runner and its store. */
class CoalCommandTest {

  @TempDir
  Path dir;

  private static String run(int expectedExit, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = new CommandLine(new Main());
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    assertEquals(expectedExit, cl.execute(args), err.toString());
    return out.toString();
  }

  @Test
  void storesEachSeedAndReusesItOnTheNextRun() throws Exception {
    String first = run(
        0,
        "coal",
        "--seeds",
        "1",
        "--threads",
        "1",
        "--methods",
        "ep,vb",
        "--results",
        dir.toString());
    assertTrue(first.startsWith("Coal mining, Poisson square link, 1 seeds, 1 threads"), first);
    assertTrue(first.contains("(0 seeds reused from"), first);
    assertTrue(first.lines().anyMatch(l -> l.startsWith("ep        1 ")), first);
    assertTrue(first.lines().anyMatch(l -> l.startsWith("vb        1 ")), first);
    assertTrue(first.contains("seed 0 ep: -log Z = "), first);
    assertTrue(first.contains("failed trials: 0"), first);
    try (var files = Files.list(dir.resolve("qp-mining"))) {
      assertEquals(1, files.filter(f -> f.toString().endsWith(".jsonl")).count());
    }
    String second = run(
        0,
        "coal",
        "--seeds",
        "1",
        "--threads",
        "2",
        "--methods",
        "ep,vb",
        "--results",
        dir.toString());
    assertTrue(second.contains("(1 seeds reused from"), second);
    // the report is computed from the stored rows: identical apart from the timing header
    assertEquals(first.substring(first.indexOf('\n')), second.substring(second.indexOf('\n')));
  }

  @Test
  void authorsProtocolPrintsItsSwitchesAndTheAuthorsSeedZeroEvidence() {
    String out = run(
        0,
        "coal",
        "--protocol",
        "authors",
        "--seeds",
        "1",
        "--threads",
        "1",
        "--methods",
        "ep",
        "--results",
        dir.toString());
    assertTrue(out.contains("protocol Protocol[name=authors, yearSplit=true"), out);
    assertTrue(out.contains("seed 0 ep: -log Z = 92.3562,"), out);
    assertTrue(out.contains("NTLL NB"), out);
    String flipped = run(
        0,
        "coal",
        "--protocol",
        "authors",
        "--year-split",
        "false",
        "--seeds",
        "1",
        "--threads",
        "1",
        "--methods",
        "ep",
        "--results",
        dir.toString());
    assertTrue(
        flipped.contains("protocol Protocol[name=custom, yearSplit=false, authorsCounts=true"),
        flipped);
    assertTrue(flipped.contains("(0 seeds reused from"), flipped);
  }

  @Test
  void cleanIsTheDefaultProtocolAndUnknownProtocolIsBadInput() {
    String out = run(
        0,
        "coal",
        "--protocol",
        "clean",
        "--seeds",
        "1",
        "--threads",
        "1",
        "--methods",
        "ep",
        "--results",
        dir.toString());
    assertTrue(!out.contains("protocol Protocol"), out);
    assertTrue(out.contains("NTLL exact"), out);
    String dflt = run(
        0,
        "coal",
        "--seeds",
        "1",
        "--threads",
        "1",
        "--methods",
        "ep",
        "--results",
        dir.toString());
    assertTrue(dflt.contains("(1 seeds reused from"), dflt);
    StringWriter err = new StringWriter();
    assertEquals(
        2,
        Main.run(
            new PrintWriter(err, true), "coal", "--protocol", "gpy", "--results", dir.toString()));
    assertTrue(err.toString().contains("unknown protocol 'gpy'"), err.toString());
  }

  @Test
  void unknownMethodIsBadInput() {
    StringWriter err = new StringWriter();
    assertEquals(
        2,
        Main.run(
            new PrintWriter(err, true),
            "coal",
            "--methods",
            "ep,laplace",
            "--results",
            dir.toString()));
    assertTrue(err.toString().contains("--methods: unknown 'laplace'"), err.toString());
  }

  /**
   * coal reads the runner's environment settings as a notebook does (here through their system properties): a
   * stored-only run that lacks its seeds, or an invalid value, is one line on stderr, not an internal error.
   */
  @Test
  void storedOnlyAndInvalidSettingsAreOneLine() {
    String[][] cases = {
      {"approxgp.storedOnly", "true", "1", "1 of 1 trials are not in "},
      {"approxgp.storedOnly", "maybe", "2", "APPROXGP_STORED_ONLY must be true or false"}
    };
    for (String[] c : cases) {
      System.setProperty(c[0], c[1]);
      try {
        StringWriter err = new StringWriter();
        int code = Main.run(
            new PrintWriter(err, true),
            "coal",
            "--seeds",
            "1",
            "--methods",
            "ep",
            "--results",
            dir.resolve("r").toString());
        assertEquals(Integer.parseInt(c[2]), code, err.toString());
        assertEquals(1, err.toString().strip().lines().count(), err.toString());
        assertTrue(err.toString().contains(c[3]), err.toString());
      } finally {
        System.clearProperty(c[0]);
      }
    }
  }
}
