package org.approxgp.experiment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reads the results file written by the pre-Jackson codec (see
 * {@code src/test/resources/experiment/legacy-results/README.md}): 4 complete rows and a torn fifth.
 */
class LegacyResultsFileTest {

  private static final String HASH = "c7db0307beb5ca2c";
  private static final LegacyResultsMaker.LegacyCfg CFG =
      new LegacyResultsMaker.LegacyCfg(3, 0.5, "legacy \"v1\"");
  private static final List<TrialKey> KEYS = Experiment.grid(List.of("ep", "qp"), 2, 1);

  @TempDir
  Path root;

  private Path file;
  private String original;

  @BeforeEach
  void copyLegacyFiles() throws IOException, URISyntaxException {
    Path src = Path.of(getClass()
            .getResource("/experiment/legacy-results/legacy/" + HASH + ".jsonl")
            .toURI())
        .getParent();
    Path dst = Files.createDirectories(root.resolve("legacy"));
    for (String name : List.of(HASH + ".jsonl", HASH + ".config.txt")) {
      Files.copy(src.resolve(name), dst.resolve(name));
    }
    file = dst.resolve(HASH + ".jsonl");
    original = Files.readString(file, StandardCharsets.UTF_8);
  }

  @Test
  void completeRowsReadWithEqualValuesAndTheTornLineIsTruncated() throws IOException {
    assertEquals(HASH, ConfigHash.hash(CFG), "the config still hashes to the legacy file");
    assertTrue(
        !original.endsWith("\n") && original.lines().count() == 5,
        "the resource has a torn 5th line");
    // through the public API: every trial must come from the file, none recomputed
    Results<TrialKey> r = Runner.defaults()
        .withResultsRoot(root)
        .withThreads(1)
        .withProgress(ProgressListener.none())
        .run(Experiment.of("legacy", CFG, KEYS, (c, k) -> {
          throw new AssertionError("recomputed " + k);
        }));
    assertEquals(file, r.file());
    assertEquals(4, r.reused());
    assertEquals(KEYS, r.keys());
    for (int i = 0; i < KEYS.size(); i++) {
      TrialKey k = KEYS.get(i);
      ResultRow expected = LegacyResultsMaker.row(CFG, k);
      ResultRow read = r.rows().get(i);
      assertEquals(
          expected, read, k.toString()); // Double.equals: bit-exact, NaN == NaN, -0.0 != 0.0
      assertEquals(
          List.copyOf(expected.values().keySet()),
          List.copyOf(read.values().keySet()),
          "column order");
      read.values()
          .forEach((name, v) -> assertEquals(expected.get(name).getClass(), v.getClass(), name));
      assertTrue(Double.isNaN(read.getDouble("nan")));
      assertEquals(Double.NEGATIVE_INFINITY, read.getDouble("neg_inf"));
      assertEquals(
          Double.doubleToLongBits(-0.0), Double.doubleToLongBits(read.getDouble("neg_zero")));
      assertEquals(Long.MIN_VALUE, read.get("min_long"));
      assertTrue(((String) read.get("text"))
          .contains("q\"uote\" back\\slash tab\there é ü 中 \uD83D\uDE00 ctl\u0001"));
      // the old space-joined vector stays a string; getDoubles parses it on request
      assertEquals(String.class, read.get("var").getClass());
      double s = k.seed() + (k.method().equals("qp") ? 10 : 0);
      assertArrayEquals(
          new double[] {0.1 + s, -0.0, 1e-300 * (s + 1), Double.NaN, 4.9e-324, Double.MAX_VALUE},
          read.getDoubles("var"));
    }
    String repaired = Files.readString(file, StandardCharsets.UTF_8);
    assertEquals(
        original.substring(0, original.lastIndexOf('\n') + 1),
        repaired,
        "torn line cut, rest untouched");
  }

  @Test
  void resumingTheLegacyExperimentReusesItsRowsAndAppendsNewOnesInTheNewDialect()
      throws IOException {
    List<TrialKey> keys = new ArrayList<>(KEYS);
    keys.add(TrialKey.of("vb", 0, 0));
    Runner runner = Runner.defaults()
        .withResultsRoot(root)
        .withThreads(1)
        .withProgress(ProgressListener.none());
    Results<TrialKey> r = runner.run(Experiment.of("legacy", CFG, keys, LegacyResultsMaker::row));
    assertEquals(4, r.reused());
    assertEquals(1, r.computed());
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    assertEquals(5, lines.size());
    assertTrue(lines.get(0).contains("\"nan\":\"__d:NaN\""), lines.get(0));
    assertTrue(
        lines.get(4).contains("\"nan\":NaN,\"pos_inf\":Infinity,\"neg_inf\":-Infinity"),
        lines.get(4));

    Results<TrialKey> again =
        runner.run(Experiment.of("legacy", CFG, keys, LegacyResultsMaker::row));
    assertEquals(5, again.reused(), "a file mixing both dialects reads whole");
    for (int i = 0; i < keys.size(); i++) {
      // the row computed in this run carries the linalg backend column; the legacy rows do not
      ResultRow expected = LegacyResultsMaker.row(CFG, keys.get(i));
      assertEquals(
          i == 4 ? Runner.withBackend(expected) : expected,
          again.rows().get(i),
          keys.get(i).toString());
    }
    assertEquals(
        org.approxgp.linalg.Linalg.defaultBackendName(),
        again.rows().get(4).get(ResultRow.BACKEND));
  }

  @Test
  void corruptMiddleLineIsAnErrorNamingFileAndLine() throws IOException {
    List<String> lines = new ArrayList<>(original.lines().toList());
    lines.set(1, lines.get(1).substring(0, 60));
    Files.writeString(file, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
    IllegalStateException e = assertThrows(
        IllegalStateException.class,
        () -> ResultStore.open(root, "legacy", CFG, TrialKeys.columns(TrialKey.class)));
    assertTrue(
        e.getMessage().contains(file.toString())
            && e.getMessage().contains("line 2 is not a stored row"),
        e.getMessage());
    IllegalStateException again = assertThrows(
        IllegalStateException.class,
        () -> ResultStore.open(root, "legacy", CFG, TrialKeys.columns(TrialKey.class)));
    assertTrue(
        !(again instanceof ResultsLockedException)
            && again.getMessage().contains("line 2 is not a stored row"),
        "the failed open released its lock: " + again.getMessage());
  }

  @Test
  void changedConfigGetsANewFileAndAnEditedSidecarIsRefused() throws IOException {
    LegacyResultsMaker.LegacyCfg other = new LegacyResultsMaker.LegacyCfg(3, 0.25, "legacy \"v1\"");
    try (ResultStore store =
        ResultStore.open(root, "legacy", other, TrialKeys.columns(TrialKey.class))) {
      assertTrue(store.existing().isEmpty());
      assertTrue(!store.file().equals(file));
    }
    Path sidecar = root.resolve("legacy").resolve(HASH + ".config.txt");
    Files.writeString(sidecar, Files.readString(sidecar).replace("scale=0.5", "scale=0.75"));
    IllegalStateException e = assertThrows(
        IllegalStateException.class,
        () -> ResultStore.open(root, "legacy", CFG, TrialKeys.columns(TrialKey.class)));
    assertTrue(e.getMessage().contains(sidecar.toString()), e.getMessage());
  }
}
