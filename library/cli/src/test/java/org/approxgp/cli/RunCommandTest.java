package org.approxgp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code approxgp run}: registered experiments by name, through the resumable runner, summary as CSV. */
class RunCommandTest {

  @TempDir
  Path dir;

  private record Outcome(int exit, String out, String err) {}

  private static Outcome run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = new CommandLine(new Main());
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    int code = cl.execute(args);
    return new Outcome(code, out.toString(), err.toString());
  }

  @Test
  void listPrintsEveryRegisteredName() {
    Outcome o = run("run", "--list");
    assertEquals(0, o.exit(), o.err());
    for (String n : List.of(
        "smoke-pipeline",
        "qp-table1",
        "qp-figure1",
        "qp-mining",
        "rep-synthetic",
        "rep-uci",
        "svbssgp-gamma")) {
      assertTrue(o.out().lines().anyMatch(l -> l.startsWith(n + " ")), n + " in:\n" + o.out());
    }
  }

  @Test
  void runsWritesTheSummaryCsvAndResumes() throws Exception {
    Path csv = dir.resolve("summary.csv");
    Outcome first = run(
        "run",
        "smoke-pipeline",
        "--mode",
        "smoke",
        "--threads",
        "2",
        "--out",
        csv.toString(),
        "--results",
        dir.resolve("results").toString());
    assertEquals(0, first.exit(), first.err());
    assertTrue(
        first
            .out()
            .startsWith(
                "smoke-pipeline (smoke-pipeline, mode smoke): 16 trials, 0 reused, 16 computed"),
        first.out());
    List<String> lines = Files.readAllLines(csv);
    assertEquals(
        "method,n,count,estimate mean,estimate sd,abs error mean,abs error sd", lines.get(0));
    // the printed table by the display rule (4 significant digits), the CSV with every digit
    String table = first.out().substring(first.out().indexOf('\n') + 1);
    var decimals =
        java.util.regex.Pattern.compile("-?[0-9]+\\.[0-9]+(e[-+][0-9]+)?").matcher(table);
    int seen = 0;
    while (decimals.find()) {
      String digits = decimals
          .group()
          .replaceFirst("e.*", "")
          .replace("-", "")
          .replace(".", "")
          .replaceFirst("^0+", "");
      assertTrue(digits.length() <= 4, decimals.group() + " in the printed table:\n" + table);
      seen++;
    }
    assertTrue(seen > 0, table);
    assertTrue(
        lines.get(1).matches(".*[0-9]\\.[0-9]{6,}.*"),
        "the CSV keeps every digit: " + lines.get(1));
    assertEquals(5, lines.size(), lines.toString()); // 2 methods × 2 sample sizes
    assertTrue(lines.get(1).startsWith("plain,100,4,"), lines.get(1)); // 4 seeds per group
    Outcome second = run(
        "run",
        "smoke-pipeline",
        "--mode",
        "smoke",
        "--threads",
        "1",
        "--out",
        csv.toString(),
        "--results",
        dir.resolve("results").toString());
    assertEquals(0, second.exit(), second.err());
    assertTrue(second.out().contains(": 16 trials, 16 reused, 0 computed"), second.out());
    assertEquals(
        lines, Files.readAllLines(csv)); // the same rows from the store give the same summary
  }

  /** {@code --verify K}: after the run (here: nothing to run), K stored trials recomputed and compared. */
  @Test
  void verifyRecomputesStoredTrials() throws Exception {
    String results = dir.resolve("results").toString();
    assertEquals(
        0, run("run", "smoke-pipeline", "--mode", "smoke", "--results", results).exit());
    Outcome v =
        run("run", "smoke-pipeline", "--mode", "smoke", "--results", results, "--verify", "3");
    assertEquals(0, v.exit(), v.err());
    assertTrue(v.out().contains(": 16 trials, 16 reused, 0 computed"), v.out());
    assertTrue(
        v.out()
            .contains(
                "smoke-pipeline: verified 3/3 (3 identical bits, 0 within rounding; 0 sensitive)"),
        v.out());
    Outcome packed = run(
        "run",
        "smoke-pipeline",
        "--mode",
        "smoke",
        "--results",
        results,
        "--compress",
        "--verify",
        "2");
    assertEquals(0, packed.exit(), packed.err());
    assertTrue(
        packed.out().contains("smoke-pipeline: compressed ")
            && packed.out().contains(".jsonl.gz ("),
        packed.out());
    assertTrue(
        packed.out().contains("smoke-pipeline: verified 2/2 (2 identical bits"), packed.out());
    Outcome reread = run("run", "smoke-pipeline", "--mode", "smoke", "--results", results);
    assertTrue(reread.out().contains(": 16 trials, 16 reused, 0 computed"), reread.out());
    StringWriter err = new StringWriter();
    assertEquals(
        2,
        Main.run(
            new PrintWriter(err, true),
            "run",
            "smoke-pipeline",
            "--mode",
            "smoke",
            "--results",
            results,
            "--verify",
            "0"));
    assertTrue(err.toString().contains("--verify must be >= 1, got 0"), err.toString());
  }

  /** {@code --stored-only}: reads a complete store; an incomplete one fails, computing and writing nothing. */
  @Test
  void storedOnlyComputesNothing() throws Exception {
    String results = dir.resolve("results").toString();
    Outcome missing =
        run("run", "smoke-pipeline", "--mode", "smoke", "--results", results, "--stored-only");
    assertEquals(1, missing.exit(), missing.out() + missing.err());
    assertTrue(missing.err().contains("16 of 16 trials are not in "), missing.err());
    assertEquals(1, missing.err().strip().lines().count(), "one line on stderr: " + missing.err());
    assertEquals("", missing.out(), "an error goes to stderr");
    assertFalse(
        Files.exists(dir.resolve("results")),
        "a stored-only run creates no results root, store or lock");
    assertEquals(
        0, run("run", "smoke-pipeline", "--mode", "smoke", "--results", results).exit());
    Outcome read =
        run("run", "smoke-pipeline", "--mode", "smoke", "--results", results, "--stored-only");
    assertEquals(0, read.exit(), read.err());
    assertTrue(read.out().contains(": 16 trials, 16 reused, 0 computed"), read.out());
  }

  /**
   * {@code --compress --stored-only}: compresses whatever rows are stored for every config the experiment runs in
   * the mode (rep-synthetic: "keep", the CLI's own, and "clip"), computing nothing; without {@code --stored-only}
   * an incomplete store is refused as before.
   */
  @Test
  void compressStoredOnlyCompressesEveryConfigsRowsComputingNothing() throws Exception {
    Path root = dir.resolve("results");
    String results = root.toString();
    Outcome keep =
        run("run", "rep-synthetic", "--mode", "smoke", "--results", results, "--methods", "ep");
    assertEquals(0, keep.exit(), keep.out() + keep.err());
    var clip = org.approxgp.papers.rep.RepSynthetic.experiment(
        org.approxgp.papers.rep.RepSynthetic.Config.forMode(
            org.approxgp.experiment.ProjectPaths.Mode.SMOKE, "clip"));
    org.approxgp.experiment.Runner.defaults()
        .withThreads(1)
        .withResultsRoot(root)
        .run(clip.selecting("method", List.of("ep", "power-ep")));
    Outcome refused =
        run("run", "rep-synthetic", "--mode", "smoke", "--results", results, "--stored-only");
    assertEquals(1, refused.exit(), refused.out() + refused.err());

    Outcome packed = run(
        "run",
        "rep-synthetic",
        "--mode",
        "smoke",
        "--results",
        results,
        "--compress",
        "--stored-only");
    assertEquals(0, packed.exit(), packed.out() + packed.err());
    assertTrue(
        packed.out().contains("rep-synthetic-keep: compressed ")
            && packed.out().contains(" (1 rows, "),
        packed.out());
    assertTrue(
        packed.out().contains("rep-synthetic-clip: compressed ")
            && packed.out().contains(" (2 rows, "),
        packed.out());
    assertFalse(packed.out().contains("computed"), packed.out());
    for (String store : List.of("rep-synthetic-keep", "rep-synthetic-clip")) {
      try (var files = Files.list(root.resolve(store))) {
        List<String> names = files.map(f -> f.getFileName().toString()).toList();
        assertTrue(names.stream().anyMatch(n -> n.endsWith(".jsonl.gz")), store + ": " + names);
        assertTrue(names.stream().noneMatch(n -> n.endsWith(".jsonl")), store + ": " + names);
      }
    }
    // the compressed rows are read back as they were: still one of keep's four trials (EP, both
    // Power EPs, REP), nothing
    // computed
    Outcome reread =
        run("run", "rep-synthetic", "--mode", "smoke", "--results", results, "--stored-only");
    assertEquals(1, reread.exit(), reread.out() + reread.err());
    assertTrue(reread.err().contains("3 of 4 trials are not in "), reread.err());
    StringWriter err = new StringWriter();
    assertEquals(
        2,
        Main.run(
            new PrintWriter(err, true),
            "run",
            "rep-synthetic",
            "--mode",
            "smoke",
            "--results",
            results,
            "--compress",
            "--stored-only",
            "--methods",
            "ep"));
    assertTrue(
        err.toString().contains("it takes no --out, --methods or --datasets"), err.toString());
  }

  @Test
  void sparkEngineWithoutTheModuleIsAClearError() {
    Path csv = dir.resolve("s.csv");
    StringWriter err = new StringWriter();
    assertEquals(
        2,
        Main.run(
            new PrintWriter(err, true),
            "run",
            "smoke-pipeline",
            "--mode",
            "smoke",
            "--engine",
            "spark",
            "--out",
            csv.toString(),
            "--results",
            dir.toString()));
    assertTrue(
        err.toString()
            .contains(
                "engine 'spark' is not on the class path: the approxgp-spark module is needed"),
        err.toString());
    assertFalse(Files.exists(csv));
  }

  /**
   * A damaged shipped store (its .jsonl.gz cut short): refused in one line that recommends --repair, by a run and
   * by --compress --stored-only alike (no raw exception), and --repair then keeps its readable rows and recomputes
   * the rest.
   */
  @Test
  void aDamagedCompressedStoreIsRepairedByRepair() throws Exception {
    String results = dir.resolve("results").toString();
    assertEquals(
        0,
        run("run", "smoke-pipeline", "--mode", "smoke", "--results", results, "--compress")
            .exit());
    Path gz;
    try (var files = Files.list(dir.resolve("results").resolve("smoke-pipeline"))) {
      gz = files.filter(f -> f.toString().endsWith(".jsonl.gz")).findFirst().orElseThrow();
    }
    byte[] b = Files.readAllBytes(gz);
    Files.write(gz, java.util.Arrays.copyOf(b, b.length * 3 / 4));
    for (String[] args : List.of(
        new String[] {"run", "smoke-pipeline", "--mode", "smoke", "--results", results},
        new String[] {
          "run", "smoke-pipeline", "--mode", "smoke", "--results", results, "--stored-only"
        },
        new String[] {
          "run",
          "smoke-pipeline",
          "--mode",
          "smoke",
          "--results",
          results,
          "--stored-only",
          "--compress"
        })) {
      StringWriter err = new StringWriter();
      assertEquals(2, Main.run(new PrintWriter(err, true), args), String.join(" ", args));
      assertEquals(1, err.toString().strip().lines().count(), err.toString());
      assertTrue(err.toString().contains("rerun with --repair"), err.toString());
      assertFalse(err.toString().contains("internal error"), err.toString());
    }
    Outcome repaired =
        run("run", "smoke-pipeline", "--mode", "smoke", "--results", results, "--repair");
    assertEquals(0, repaired.exit(), repaired.err());
    assertTrue(
        repaired.out().matches("(?s).*: 16 trials, [1-9][0-9]* reused, [0-9]+ computed.*"),
        repaired.out());
    assertTrue(Files.exists(gz.resolveSibling(gz.getFileName() + ".quarantine")));
    Outcome read =
        run("run", "smoke-pipeline", "--mode", "smoke", "--results", results, "--stored-only");
    assertEquals(0, read.exit(), read.err());
  }

  /**
   * {@code run} reads APPROXGP_STORED_ONLY, APPROXGP_VERIFY and APPROXGP_ENGINE as a notebook's runner does (here
   * through their system properties, which the same lookup reads first); flags override them, and an invalid value
   * is one line naming the variable, exit 2.
   */
  @Test
  void theEnvironmentSettingsOfTheRunnerApplyUnlessAFlagOverridesThem() throws Exception {
    String results = dir.resolve("results").toString();
    String[] smoke = {"run", "smoke-pipeline", "--mode", "smoke", "--results", results};
    withProperty("approxgp.storedOnly", "true", () -> {
      Outcome o = run(smoke);
      assertEquals(1, o.exit(), o.out() + o.err());
      assertTrue(o.err().contains("16 of 16 trials are not in "), o.err());
      assertFalse(Files.exists(dir.resolve("results")), "nothing computed or created");
    });
    assertEquals(0, run(smoke).exit());
    withProperty("approxgp.verify", "2", () -> {
      Outcome o = run(smoke);
      assertEquals(0, o.exit(), o.err());
      assertTrue(o.out().contains("verified 2/2"), o.out());
      Outcome flag = run(concat(smoke, "--verify", "1"));
      assertTrue(flag.out().contains("verified 1/1"), "the flag wins: " + flag.out());
    });
    for (String[] bad : List.of(
        new String[] {
          "approxgp.storedOnly", "maybe", "APPROXGP_STORED_ONLY must be true or false, got 'maybe'"
        },
        new String[] {"approxgp.verify", "-3", "APPROXGP_VERIFY must be a whole number >= 0"},
        new String[] {
          "approxgp.engine", "bogus", "APPROXGP_ENGINE must be local or spark, got 'bogus'"
        })) {
      withProperty(bad[0], bad[1], () -> {
        StringWriter err = new StringWriter();
        assertEquals(2, Main.run(new PrintWriter(err, true), smoke), bad[0]);
        assertEquals(1, err.toString().strip().lines().count(), err.toString());
        assertTrue(err.toString().contains(bad[2]), err.toString());
      });
    }
    withProperty("approxgp.engine", "bogus", () -> {
      Outcome o = run(concat(smoke, "--engine", "local"));
      assertEquals(0, o.exit(), "--engine overrides APPROXGP_ENGINE: " + o.err());
    });
  }

  private interface Body {
    void run() throws Exception;
  }

  private static void withProperty(String key, String value, Body body) throws Exception {
    String old = System.getProperty(key);
    System.setProperty(key, value);
    try {
      body.run();
    } finally {
      if (old == null) {
        System.clearProperty(key);
      } else {
        System.setProperty(key, old);
      }
    }
  }

  private static String[] concat(String[] a, String... b) {
    String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }

  @Test
  void badArgumentsAreOneLineExitTwo() {
    for (String[] args : List.of(
        new String[] {"run", "no-such"},
        new String[] {"run"},
        new String[] {"run", "smoke-pipeline", "--mode", "huge"},
        new String[] {"run", "smoke-pipeline", "--engine", "flink"},
        new String[] {"run", "smoke-pipeline", "--master", "local[2]"},
        new String[] {"run", "smoke-pipeline", "--threads", "0"},
        new String[] {"run", "--list", "smoke-pipeline"})) {
      StringWriter err = new StringWriter();
      assertEquals(2, Main.run(new PrintWriter(err, true), args), String.join(" ", args));
      assertEquals(1, err.toString().strip().lines().count(), err.toString());
    }
  }
}
