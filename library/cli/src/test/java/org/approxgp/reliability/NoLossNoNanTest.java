package org.approxgp.reliability;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.approxgp.reliability.BadInputTest.Run;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reliability review's second round through the command line: no results store is ever damaged by
 * an output path, a store line that is not a row is refused (or quarantined by {@code --repair}), no NaN or
 * infinity leaves with exit 0, oversized options are refused before allocation, messages quote little of a
 * file, and a read-only output or results directory is refused. Each failure is one line on standard error with
 * exit 2.
 */
class NoLossNoNanTest {

  @TempDir
  Path dir;

  private Path results() {
    return dir.resolve("results");
  }

  private Run runSmoke(String... extra) {
    String[] base = {
      "run",
      "smoke-pipeline",
      "--mode",
      "smoke",
      "--threads",
      "1",
      "--results",
      results().toString()
    };
    return BadInputTest.run(
        Stream.concat(Stream.of(base), Stream.of(extra)).toArray(String[]::new));
  }

  private Path store() throws IOException {
    try (Stream<Path> s = Files.list(results().resolve("smoke-pipeline"))) {
      return s.filter(p -> p.toString().endsWith(".jsonl")).findFirst().orElseThrow();
    }
  }

  private static void assertOneLineFailure(Run r, String... mentions) {
    assertEquals(2, r.code(), r.err());
    assertEquals(1, r.err().lines().count(), "one line:\n" + r.err());
    for (String m : mentions) {
      assertTrue(r.err().contains(m), "'" + m + "' in " + r.err());
    }
  }

  @Test
  void noOutputPathReachesAStore() throws IOException {
    assertEquals(0, runSmoke().code());
    Path rows = store();
    byte[] before = Files.readAllBytes(rows);
    String hash = rows.getFileName().toString().replace(".jsonl", "");
    Path link = Files.createSymbolicLink(dir.resolve("table.csv"), rows);
    for (Path out : List.of(
        rows,
        link,
        rows.resolveSibling(hash + ".lock"),
        rows.resolveSibling(hash + ".config.txt"),
        results().resolve("smoke-pipeline").resolve("0123456789abcdef.jsonl"))) {
      Run r = runSmoke("--out", out.toString());
      assertOneLineFailure(r, "--out", "results store");
      assertArrayEquals(before, Files.readAllBytes(rows), "store intact after --out " + out);
    }
    // fit's outputs are held to the same rule
    Files.writeString(dir.resolve("train.csv"), BadInputTest.cleanTrain());
    Files.writeString(dir.resolve("test.csv"), BadInputTest.cleanTest());
    Run fit = BadInputTest.run(
        "fit",
        "--train",
        dir.resolve("train.csv").toString(),
        "--test",
        dir.resolve("test.csv").toString(),
        "--label",
        "label",
        "--no-optimize",
        "--out",
        dir.resolve("o.csv").toString(),
        "--summary",
        link.toString());
    assertOneLineFailure(fit, "--summary", "results store");
    assertArrayEquals(before, Files.readAllBytes(rows));
    assertEquals(0, runSmoke().code(), "the next run still reads the store");
  }

  @Test
  void aStoredLineThatIsNotARowIsRefusedThenQuarantinedByRepair() throws IOException {
    assertEquals(0, runSmoke().code());
    Path rows = store();
    List<String> lines = Files.readAllLines(rows);
    Files.writeString(
        rows,
        String.join("\n", lines.subList(0, 3)) + "\n{\"trial\": 12,,}\n"
            + String.join("\n", lines.subList(3, lines.size())) + "\nnot json\n");
    byte[] before = Files.readAllBytes(rows);
    Run refused = runSmoke();
    assertOneLineFailure(refused, rows.toString(), "line 4", "--repair");
    assertArrayEquals(before, Files.readAllBytes(rows), "nothing deleted");
    Run repaired = runSmoke("--repair");
    assertEquals(0, repaired.code(), repaired.err());
    assertEquals(
        "{\"trial\": 12,,}\nnot json\n",
        Files.readString(rows.resolveSibling(rows.getFileName() + ".quarantine")));
    assertEquals(lines, Files.readAllLines(rows), "every good line kept, in order");
  }

  @Test
  void readOnlyOutputsAndResultsAreRefused() throws IOException {
    Path ro = Files.writeString(dir.resolve("ro.csv"), "keep me\n");
    Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("r--r--r--"));
    assertOneLineFailure(runSmoke("--out", ro.toString()), "--out", "read-only");
    assertEquals("keep me\n", Files.readString(ro));
    Path roDir = Files.createDirectories(dir.resolve("ro-results"));
    Files.setPosixFilePermissions(roDir, PosixFilePermissions.fromString("r-xr-xr-x"));
    Run r =
        BadInputTest.run("run", "smoke-pipeline", "--mode", "smoke", "--results", roDir.toString());
    assertOneLineFailure(r, "--results", "not writable");
    try (Stream<Path> s = Files.list(roDir)) {
      assertEquals(0, s.count());
    }
  }

  @Test
  void messagesQuoteLittleOfAFile() throws IOException {
    String secret =
        "operator:$6$9fJk2LmQpRsTuVwX$0123456789abcdefghijklmnopqrstuvwxyzABCDEF:19000:0:99999:7:::";
    Path f = Files.writeString(dir.resolve("shadow"), secret + "\nroot:*:19000:0:99999:7:::\n");
    Run r = BadInputTest.run(
        "fit",
        "--train",
        f.toString(),
        "--test",
        f.toString(),
        "--label",
        "label",
        "--no-optimize",
        "--out",
        dir.resolve("o.csv").toString());
    assertOneLineFailure(r, "shadow", "single column");
    assertFalse(r.err().contains("9fJk2LmQ"), r.err());
    String longCell = "x".repeat(5000);
    Path g =
        Files.writeString(dir.resolve("long.csv"), "a,b,label\n1," + longCell + ",1\n2,3,-1\n");
    Run s = BadInputTest.run(
        "fit",
        "--train",
        g.toString(),
        "--test",
        g.toString(),
        "--label",
        "label",
        "--no-optimize",
        "--out",
        dir.resolve("o.csv").toString());
    assertOneLineFailure(s, "row 2", "column 'b'", "5000 characters");
    assertTrue(s.err().length() < 300, s.err());
  }

  @Test
  void penaltyZeroIsRejectedWithTheReason() throws IOException {
    Files.writeString(dir.resolve("train.csv"), BadInputTest.cleanTrain());
    Files.writeString(dir.resolve("test.csv"), BadInputTest.cleanTest());
    Run r = BadInputTest.run(
        "fit",
        "--train",
        dir.resolve("train.csv").toString(),
        "--test",
        dir.resolve("test.csv").toString(),
        "--label",
        "label",
        "--likelihood",
        "noisy-step",
        "--epsilon",
        "0.1",
        "--inference",
        "rep",
        "--penalty",
        "0",
        "--no-optimize",
        "--out",
        dir.resolve("o.csv").toString());
    assertOneLineFailure(r, "--penalty", "no minimiser");
    assertFalse(Files.exists(dir.resolve("o.csv")));
  }

  /** Rows of x ≈ ±{@code xScale}, y = (x₁ + x₂²) · {@code yScale} / xScale-free, deterministic. */
  private Path extreme(String name, int n, double xScale, double yScale, int seed)
      throws IOException {
    StringBuilder b = new StringBuilder("x1,x2,y\n");
    java.util.Random rnd = new java.util.Random(seed);
    for (int i = 0; i < n; i++) {
      double u = 2 * rnd.nextDouble() - 1;
      double v = 2 * rnd.nextDouble() - 1;
      b.append(
          String.format(Locale.ROOT, "%s,%s,%s%n", u * xScale, v * xScale, (u + v * v) * yScale));
    }
    return Files.writeString(dir.resolve(name), b.toString());
  }

  @Test
  void regressOnExtremeButFiniteDataIsFiniteOrOneLine() throws IOException {
    Path tr = extreme("tr.csv", 60, 1e300, 1, 1);
    Path te = extreme("te.csv", 20, 1e300, 1, 2);
    Path out = dir.resolve("pred.csv");
    Path sum = dir.resolve("s.json");
    for (String model : List.of("ssgp", "vssgp", "svbssgp", "dtc", "pic")) {
      // each model's own settings (a setting the model does not take is refused)
      List<String> args = new java.util.ArrayList<>(List.of(
          "regress",
          "--model",
          model,
          "--train",
          tr.toString(),
          "--test",
          te.toString(),
          "--target",
          "y",
          "--iterations",
          "20",
          "--out",
          out.toString(),
          "--summary",
          sum.toString()));
      if (model.equals("svbssgp") || model.equals("pic")) {
        args.addAll(List.of("--partitions", "2"));
      }
      if (model.equals("dtc") || model.equals("pic")) {
        args.addAll(List.of("--inducing", "10"));
      }
      Run r = BadInputTest.run(args.toArray(String[]::new));
      assertEquals(0, r.code(), model + ": " + r.err());
      for (String line : Files.readAllLines(out).subList(1, 21)) {
        for (String cell : line.split(",")) {
          assertTrue(Double.isFinite(Double.parseDouble(cell)), model + ": " + line);
        }
      }
      String json = Files.readString(sum);
      assertFalse(json.contains("NaN") || json.contains("Infinity"), model + ": " + json);
    }
    Files.delete(out);
    Path trY = extreme("try.csv", 60, 1, 1e200, 3);
    Path teY = extreme("tey.csv", 20, 1, 1e200, 4);
    Run r = BadInputTest.run(
        "regress",
        "--model",
        "ssgp",
        "--train",
        trY.toString(),
        "--test",
        teY.toString(),
        "--target",
        "y",
        "--out",
        out.toString());
    assertOneLineFailure(r, "predictive variance", "rescale the target");
    assertFalse(Files.exists(out), "nothing written");
  }

  @Test
  void oversizedOptionsAreRefusedBeforeAllocation() throws IOException {
    Path tr = extreme("tr.csv", 60, 1, 1, 5);
    Path te = extreme("te.csv", 20, 1, 1, 6);
    String[][] cases = {
      {"--model", "ssgp", "--features", "2000000000"},
      {"--model", "vssgp", "--features", "1500000000"},
      {"--model", "svbssgp", "--features", "40000"},
      {"--model", "svbssgp", "--samples", "400000000"},
      {"--model", "svbssgp", "--features", "2000", "--samples", "2000000"},
    };
    for (String[] c : cases) {
      String[] args = Stream.concat(
              Stream.of(
                  "regress",
                  "--train",
                  tr.toString(),
                  "--test",
                  te.toString(),
                  "--target",
                  "y",
                  "--out",
                  dir.resolve("p.csv").toString()),
              Stream.of(c))
          .toArray(String[]::new);
      Run r = BadInputTest.run(args);
      assertOneLineFailure(r, c[2]);
      assertTrue(r.err().contains("array") || r.err().contains("memory"), r.err());
    }
  }
}
