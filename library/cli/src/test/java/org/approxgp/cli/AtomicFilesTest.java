package org.approxgp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Writing several outputs together: all or none, and a failure names the output, not a temporary file. */
class AtomicFilesTest {
  @TempDir
  Path dir;

  @Test
  void aFailingSecondFileLeavesTheFirstAsItWas() throws IOException {
    Path report = Files.writeString(dir.resolve("report.html"), "old report");
    Path summary = dir.resolve("gone").resolve("summary.csv"); // its directory does not exist
    Map<Path, String> files = new LinkedHashMap<>();
    files.put(report, "new report");
    files.put(summary, "new summary");
    CliException e = assertThrows(CliException.class, () -> AtomicFiles.writeAll(files));
    assertEquals("old report", Files.readString(report), "the first file is untouched");
    assertTrue(e.getMessage().contains(summary.toString()), e.getMessage());
    assertFalse(e.getMessage().contains(".tmp"), "no temporary file in: " + e.getMessage());
    try (var s = Files.list(dir)) {
      assertEquals(
          1, s.filter(p -> !Files.isDirectory(p)).count(), "no temporary file left behind");
    }
  }

  @Test
  void bothFilesAreWrittenWhenBothCanBe() throws IOException {
    Map<Path, String> files = new LinkedHashMap<>();
    files.put(dir.resolve("a.html"), "a");
    files.put(dir.resolve("b.csv"), "b");
    AtomicFiles.writeAll(files);
    assertEquals("a", Files.readString(dir.resolve("a.html")));
    assertEquals("b", Files.readString(dir.resolve("b.csv")));
  }
}
