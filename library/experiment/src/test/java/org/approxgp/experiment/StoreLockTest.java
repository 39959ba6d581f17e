package org.approxgp.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreLockTest {

  @TempDir
  Path dir;

  private static ResultRow row(long i) {
    return ResultRow.builder().put("i", i).build();
  }

  @Test
  void secondOpenInTheSameJvmRefusesUntilTheFirstCloses() {
    ResultStore first = ResultStore.open(
        dir, StoreLockHolder.EXPERIMENT, StoreLockHolder.CONFIG, TrialKeys.columns(TrialKey.class));
    try {
      first.append(
          TrialKeys.id(TrialKey.of("a", 0, 0)), TrialKeys.values(TrialKey.of("a", 0, 0)), row(0));
      ResultsLockedException e = assertThrows(
          ResultsLockedException.class,
          () -> ResultStore.open(
              dir,
              StoreLockHolder.EXPERIMENT,
              StoreLockHolder.CONFIG,
              TrialKeys.columns(TrialKey.class)));
      assertEquals(first.file(), e.resultsFile());
      assertTrue(e.getMessage().contains(first.file().toString()), e.getMessage());
      assertTrue(e.getMessage().contains("in use by another run"), e.getMessage());
      assertEquals(1, e.getMessage().lines().count(), "one line: " + e.getMessage());
      // a different config is a different file and a different lock
      try (ResultStore other = ResultStore.open(
          dir,
          StoreLockHolder.EXPERIMENT,
          new StoreLockHolder.LockCfg(3, "lock test"),
          TrialKeys.columns(TrialKey.class))) {
        assertFalse(other.file().equals(first.file()));
      }
    } finally {
      first.close();
    }
    try (ResultStore again = ResultStore.open(
        dir,
        StoreLockHolder.EXPERIMENT,
        StoreLockHolder.CONFIG,
        TrialKeys.columns(TrialKey.class))) {
      assertEquals(1, again.existing().size(), "the refused open changed nothing");
    }
  }

  @Test
  void runnerRefusesWhileTheStoreIsHeldAndLeavesTheFileAlone() throws IOException {
    Experiment<StoreLockHolder.LockCfg, TrialKey> exp = Experiment.of(
        StoreLockHolder.EXPERIMENT,
        StoreLockHolder.CONFIG,
        Experiment.grid(List.of("a"), 2, 1),
        (c, k) -> row(k.seed()));
    Runner runner =
        Runner.defaults().withResultsRoot(dir).withThreads(1).withProgress(ProgressListener.none());
    try (ResultStore held = ResultStore.open(
        dir,
        StoreLockHolder.EXPERIMENT,
        StoreLockHolder.CONFIG,
        TrialKeys.columns(TrialKey.class))) {
      held.append(
          TrialKeys.id(TrialKey.of("a", 0, 0)), TrialKeys.values(TrialKey.of("a", 0, 0)), row(0));
      // an unterminated line: the refused run must not "repair" (truncate) the file under the
      // holder
      Files.writeString(
          held.file(),
          "{\"trial\":",
          StandardCharsets.UTF_8,
          java.nio.file.StandardOpenOption.APPEND);
      long size = Files.size(held.file());
      ResultsLockedException e = assertThrows(ResultsLockedException.class, () -> runner.run(exp));
      assertTrue(e.getMessage().contains(held.file().toString()), e.getMessage());
      assertEquals(size, Files.size(held.file()));
    }
    Results<TrialKey> r = runner.run(exp);
    assertEquals(1, r.reused());
    assertEquals(1, r.computed());
  }

  @Test
  void anotherProcessHoldingTheStoreMakesOpenRefuseUntilItIsKilled() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    ProcessBuilder pb = new ProcessBuilder(
            java.toString(),
            "-cp",
            System.getProperty("java.class.path"),
            StoreLockHolder.class.getName(),
            dir.toString())
        .redirectErrorStream(true);
    Process child = pb.start();
    try {
      BufferedReader out =
          new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
      StringBuilder seen = new StringBuilder();
      String line;
      while ((line = out.readLine()) != null && !line.startsWith(StoreLockHolder.READY)) {
        seen.append(line).append('\n');
      }
      assertTrue(line != null, "child did not open the store:\n" + seen);
      assertTrue(child.isAlive());

      ResultsLockedException e = assertThrows(
          ResultsLockedException.class,
          () -> ResultStore.open(
              dir,
              StoreLockHolder.EXPERIMENT,
              StoreLockHolder.CONFIG,
              TrialKeys.columns(TrialKey.class)));
      Path file = Path.of(line.substring(StoreLockHolder.READY.length() + 1));
      assertEquals(file, e.resultsFile());
      assertTrue(
          e.getMessage().contains(file.toString()) && e.getMessage().contains("another run"),
          e.getMessage());

      child.destroyForcibly();
      child.waitFor();
      try (ResultStore s = ResultStore.open(
          dir,
          StoreLockHolder.EXPERIMENT,
          StoreLockHolder.CONFIG,
          TrialKeys.columns(TrialKey.class))) {
        assertEquals(file, s.file(), "the OS released the dead process's lock");
      }
    } finally {
      child.destroyForcibly();
      child.waitFor();
    }
  }

  private static Path lockOf(Path resultsFile) {
    String name = resultsFile.getFileName().toString();
    return resultsFile.resolveSibling(
        name.substring(0, name.length() - ".jsonl".length()) + ".lock");
  }

  @Test
  void closingTheStoreRemovesItsLockFileAndAStaleOneIsTakenOver() throws IOException {
    Path file;
    try (ResultStore s = ResultStore.open(
        dir,
        StoreLockHolder.EXPERIMENT,
        StoreLockHolder.CONFIG,
        TrialKeys.columns(TrialKey.class))) {
      file = s.file();
      assertTrue(Files.exists(lockOf(file)), "held: the lock file exists");
    }
    assertFalse(Files.exists(lockOf(file)), "released: no lock file left");
    // a process killed outright leaves its (unlocked) file: the next run takes it and removes it
    Files.createFile(lockOf(file));
    try (ResultStore s = ResultStore.open(
        dir,
        StoreLockHolder.EXPERIMENT,
        StoreLockHolder.CONFIG,
        TrialKeys.columns(TrialKey.class))) {
      assertEquals(file, s.file());
    }
    assertFalse(Files.exists(lockOf(file)));
  }

  /** SIGTERM (Process.destroy on Linux) stops the holder through its shutdown hooks, which release the lock. */
  @Test
  void aProcessStoppedBySigtermRemovesItsLock() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process child = new ProcessBuilder(
            java.toString(),
            "-cp",
            System.getProperty("java.class.path"),
            StoreLockHolder.class.getName(),
            dir.toString())
        .redirectErrorStream(true)
        .start();
    try {
      BufferedReader out =
          new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
      String line;
      while ((line = out.readLine()) != null && !line.startsWith(StoreLockHolder.READY)) {
        // start-up output
      }
      assertTrue(line != null, "child did not open the store");
      Path file = Path.of(line.substring(StoreLockHolder.READY.length() + 1));
      assertTrue(Files.exists(lockOf(file)), "the holder's lock file exists");
      child.destroy(); // SIGTERM: the JVM runs its shutdown hooks
      child.waitFor();
      assertFalse(Files.exists(lockOf(file)), "the stopped holder removed its lock file");
      try (ResultStore s = ResultStore.open(
          dir,
          StoreLockHolder.EXPERIMENT,
          StoreLockHolder.CONFIG,
          TrialKeys.columns(TrialKey.class))) {
        assertEquals(file, s.file());
      }
    } finally {
      child.destroyForcibly();
      child.waitFor();
    }
  }
}
