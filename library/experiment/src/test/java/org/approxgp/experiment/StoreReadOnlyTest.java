package org.approxgp.experiment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs that only read a store change nothing on disk (a stored-only run, a verification), and a repair of a damaged
 * compressed store keeps every readable row (issue 42, item 7).
 */
class StoreReadOnlyTest {
  record Cfg(double scale) {}

  @TempDir
  Path dir;

  private final AtomicInteger calls = new AtomicInteger();

  private Experiment<Cfg, TrialKey> experiment() {
    return Experiment.of(
        "readonly", new Cfg(2.0), Experiment.grid(List.of("a", "bb"), 4, 2), (c, k) -> {
          calls.incrementAndGet();
          return ResultRow.builder()
              .put("value", c.scale() * (k.seed() + 0.5 * k.fold()))
              .build();
        });
  }

  private Runner runner(Path root) {
    return Runner.defaults()
        .withResultsRoot(root)
        .withThreads(2)
        .withProgress(ProgressListener.none());
  }

  /** Every file under {@code root} (relative path) with its bytes; empty directories as paths ending in "/". */
  private static Map<String, String> snapshot(Path root) throws IOException {
    Map<String, String> files = new TreeMap<>();
    if (!Files.exists(root)) {
      return files;
    }
    try (Stream<Path> all = Files.walk(root)) {
      for (Path p : all.toList()) {
        String rel = root.relativize(p).toString();
        if (Files.isDirectory(p)) {
          files.put(rel + "/", "");
        } else {
          files.put(rel, java.util.Base64.getEncoder().encodeToString(Files.readAllBytes(p)));
        }
      }
    }
    return files;
  }

  @Test
  void aStoredOnlyRunOfAMissingRootCreatesNothing() {
    Path root = dir.resolve("no-such-root");
    MissingTrialsException e = assertThrows(
        MissingTrialsException.class, () -> runner(root).withStoredOnly(true).run(experiment()));
    assertEquals(16, e.missing());
    assertFalse(
        Files.exists(root), "no results root, experiment directory, store or lock was created");
    assertEquals(0, calls.get());
  }

  @Test
  void aStoredOnlyRunLeavesATornLastLineAndCreatesNoLock() throws IOException {
    Results<TrialKey> full = runner(dir).run(experiment());
    Path file = full.file();
    // a killed run's torn last line (no newline) after the complete rows
    Files.write(
        file,
        "{\"trial\":\"a/9/0\",\"val".getBytes(StandardCharsets.UTF_8),
        java.nio.file.StandardOpenOption.APPEND);
    Files.deleteIfExists(
        file.resolveSibling(file.getFileName().toString().replace(".jsonl", ".lock")));
    Map<String, String> before = snapshot(dir);
    calls.set(0);
    Results<TrialKey> read = runner(dir).withStoredOnly(true).run(experiment());
    assertEquals(16, read.reused());
    assertEquals(0, calls.get());
    assertEquals(
        before, snapshot(dir), "the store is byte for byte as it was, and no lock file appeared");
  }

  @Test
  void verifyingACompressedStoreCreatesNoPlainFileAndNoLock() throws IOException {
    runner(dir).run(experiment());
    Path gz = runner(dir).compress(experiment());
    Files.deleteIfExists(
        gz.resolveSibling(gz.getFileName().toString().replace(".jsonl.gz", ".lock")));
    Map<String, String> before = snapshot(dir);
    assertTrue(runner(dir).verify(experiment(), 3, 0).passed());
    assertEquals(before, snapshot(dir), "verify read the store and wrote nothing");
  }

  @Test
  void repairKeepsTheReadableRowsOfATruncatedCompressedStore() throws IOException {
    runner(dir).run(experiment());
    Path gz = runner(dir).compress(experiment());
    byte[] whole = Files.readAllBytes(gz);
    byte[] truncated = java.util.Arrays.copyOf(whole, whole.length * 2 / 3); // cut short in transit
    Files.write(gz, truncated);

    StoreCorruptException refused =
        assertThrows(StoreCorruptException.class, () -> runner(dir).run(experiment()));
    assertTrue(refused.getMessage().contains("--repair"), refused.getMessage());
    assertArrayEquals(truncated, Files.readAllBytes(gz), "refused: nothing changed");
    StoreCorruptException compressing =
        assertThrows(StoreCorruptException.class, () -> runner(dir).compress(experiment()));
    assertTrue(
        compressing.getMessage().contains("not a complete gzip file"), compressing.getMessage());

    calls.set(0);
    Results<TrialKey> repaired = runner(dir).withRepair(true).run(experiment());
    assertEquals(16, repaired.rows().size());
    assertTrue(repaired.reused() > 0, "rows read before the cut are kept: " + repaired.reused());
    assertEquals(16 - repaired.reused(), calls.get(), "only the lost trials are computed again");
    Path quarantine = gz.resolveSibling(gz.getFileName() + ".quarantine");
    assertArrayEquals(
        truncated, Files.readAllBytes(quarantine), "the damaged file's bytes are kept");
    assertTrue(
        StoreFiles.damageIfWritten(quarantine, dir).isPresent(), "the quarantine is a store file");

    calls.set(0);
    assertEquals(
        16, runner(dir).run(experiment()).reused(), "the repaired store reads without complaint");
    assertEquals(0, calls.get());
    assertTrue(runner(dir).verify(experiment(), 16, 0).passed());
  }
}
