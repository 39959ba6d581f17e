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
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stored line is never lost: a complete line that is not a row is refused (file untouched) or, with repair,
 * moved to the quarantine file; only a torn last line (no newline) is dropped; a valid line of any length reads
 * back; outputs that resolve to a store's files are recognised.
 */
class StoreSafetyTest {

  record Cfg(int draws) {}

  @TempDir
  Path dir;

  private static ResultRow compute(Cfg c, TrialKey k) {
    return ResultRow.builder()
        .put("value", k.seed() * 10.0 + k.fold() + 0.5 * c.draws())
        .build();
  }

  private static Experiment<Cfg, TrialKey> experiment() {
    return Experiment.of(
        "safety", new Cfg(3), Experiment.grid(List.of("a", "b"), 3, 2), StoreSafetyTest::compute);
  }

  private Runner runner() {
    return Runner.defaults()
        .withResultsRoot(dir)
        .withThreads(1)
        .withProgress(ProgressListener.none());
  }

  @Test
  void aCompleteLastLineThatDoesNotParseIsRefusedAndKept() throws IOException {
    Path file = runner().run(experiment()).file();
    List<String> ls = new ArrayList<>(Files.readAllLines(file));
    ls.set(ls.size() - 1, ls.get(ls.size() - 1).substring(0, 20)); // newline-terminated, not a row
    Files.write(file, ls, StandardCharsets.UTF_8);
    byte[] before = Files.readAllBytes(file);
    StoreCorruptException e =
        assertThrows(StoreCorruptException.class, () -> runner().run(experiment()));
    assertEquals(ls.size(), e.line());
    assertTrue(
        e.getMessage().contains(file.toString()) && e.getMessage().contains("--repair"),
        e.getMessage());
    assertFalse(e.getMessage().contains("\n"), "one line");
    assertArrayEquals(before, Files.readAllBytes(file), "nothing changed");
    assertFalse(Files.exists(StoreFiles.quarantineOf(file)));
  }

  @Test
  void aLineWithoutTrialIdIsRefused() throws IOException {
    Path file = runner().run(experiment()).file();
    Files.writeString(
        file,
        "{\"value\": 1.0}\n",
        StandardCharsets.UTF_8,
        java.nio.file.StandardOpenOption.APPEND);
    StoreCorruptException e =
        assertThrows(StoreCorruptException.class, () -> runner().run(experiment()));
    assertTrue(e.getMessage().contains("no trial id"), e.getMessage());
  }

  @Test
  void repairQuarantinesBadLinesAndRecomputesTheirTrials() throws IOException {
    Results<TrialKey> full = runner().run(experiment());
    Path file = full.file();
    List<String> good = Files.readAllLines(file);
    List<String> ls = new ArrayList<>(good);
    ls.set(2, "{\"trial\": \"broken"); // a middle line
    ls.set(ls.size() - 1, "not json at all"); // the last, complete line
    String torn = good.get(0).substring(0, 7); // and a torn tail, as a kill leaves
    Files.writeString(file, String.join("\n", ls) + "\n" + torn, StandardCharsets.UTF_8);
    assertThrows(StoreCorruptException.class, () -> runner().run(experiment()));
    Results<TrialKey> repaired = runner().withRepair(true).run(experiment());
    assertEquals(2, repaired.computed(), "the two quarantined trials are computed again");
    assertEquals(full.rows(), repaired.rows());
    assertEquals(
        "{\"trial\": \"broken\nnot json at all\n",
        Files.readString(StoreFiles.quarantineOf(file)),
        "bad lines moved verbatim, the torn tail dropped");
    Results<TrialKey> again = runner().run(experiment());
    assertEquals(0, again.computed());
    assertEquals(full.rows(), again.rows());
  }

  @Test
  void aValidLineLongerThanJacksonsDefaultStringLimitReadsBack() {
    String big = "x".repeat(20_000_001);
    Experiment<Cfg, TrialKey> exp = Experiment.of(
        "long",
        new Cfg(1),
        Experiment.grid(List.of("a"), 1, 1),
        (c, k) -> ResultRow.builder().put("text", big).build());
    runner().run(exp);
    Results<TrialKey> again = runner().run(exp);
    assertEquals(0, again.computed());
    assertEquals(big, again.rows().get(0).get("text"));
  }

  record Selecting(@Selects int seeds, double scale) {}

  private static Experiment<Selecting, TrialKey> selecting(int seeds, double scale) {
    return Experiment.of(
        "selecting",
        new Selecting(seeds, scale),
        Experiment.grid(List.of("a"), seeds, 1),
        (c, k) -> ResultRow.builder().put("value", c.scale() * k.seed()).build());
  }

  @Test
  void configsThatOnlySelectOtherTrialsShareTheStore() {
    Results<TrialKey> three = runner().run(selecting(3, 2.0));
    assertEquals(3, three.computed());
    Results<TrialKey> five = runner().run(selecting(5, 2.0));
    assertEquals(3, five.reused());
    assertEquals(2, five.computed());
    assertEquals(three.file(), five.file());
    Results<TrialKey> two = runner().run(selecting(2, 2.0));
    assertEquals(0, two.computed());
    assertEquals(2, two.rows().size(), "only the selected trials come back");
    assertEquals(five.rows().subList(0, 2), two.rows());
    Results<TrialKey> scaled = runner().run(selecting(2, 3.0));
    assertEquals(2, scaled.computed(), "a component without @Selects changes the store");
    assertFalse(scaled.file().equals(two.file()));
  }

  @Test
  void outputsResolvingToAStoreAreRecognised() throws IOException {
    Path file = runner().run(experiment()).file();
    String hash = file.getFileName().toString().replace(".jsonl", "");
    Path storeDir = file.getParent();
    for (String name : List.of(
        hash + ".jsonl", hash + ".lock", hash + ".config.txt", hash + ".jsonl.quarantine")) {
      assertTrue(StoreFiles.damageIfWritten(storeDir.resolve(name), null).isPresent(), name);
    }
    Path elsewhere = Files.createDirectories(dir.resolve("out"));
    Path link = elsewhere.resolve("summary.csv");
    Files.createSymbolicLink(link, file);
    assertTrue(StoreFiles.damageIfWritten(link, null).isPresent(), "a link to the rows");
    Path linkedDir = elsewhere.resolve("d");
    Files.createSymbolicLink(linkedDir, storeDir);
    assertTrue(
        StoreFiles.damageIfWritten(linkedDir.resolve(hash + ".lock"), null).isPresent(),
        "through a link");
    Path dangling = elsewhere.resolve("dangling.csv");
    Files.createSymbolicLink(dangling, storeDir.resolve("ffff.jsonl"));
    assertTrue(
        StoreFiles.damageIfWritten(dangling, dir).isPresent(),
        "a store not yet created, under the root");
    assertFalse(
        StoreFiles.damageIfWritten(dangling, null).isPresent(), "no sidecar, no root: not a store");
    assertFalse(StoreFiles.damageIfWritten(elsewhere.resolve("table.csv"), dir).isPresent());
    assertFalse(
        StoreFiles.damageIfWritten(dir.resolve("table.jsonl"), dir).isPresent(), "the root itself");
  }
}
