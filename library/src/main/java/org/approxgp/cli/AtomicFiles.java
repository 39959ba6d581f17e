package org.approxgp.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** Writes files all-or-nothing: a temporary sibling, then an atomic rename. */
final class AtomicFiles {
  private AtomicFiles() {}

  /** Checks early (before any computation) that {@code p}'s directory exists and is writable. */
  static void checkWritable(Path p, String option) {
    Path dir = p.toAbsolutePath().getParent();
    if (dir == null || !Files.isDirectory(dir)) {
      throw CliException.badInput(option + " " + p + ": directory " + dir + " does not exist");
    }
    if (!Files.isWritable(dir)) {
      throw CliException.badInput(option + " " + p + ": directory " + dir + " is not writable");
    }
    if (Files.isDirectory(p)) {
      throw CliException.badInput(option + " " + p + " is a directory");
    }
  }

  static void write(Path p, String content) {
    Path dir = p.toAbsolutePath().getParent();
    Path tmp = null;
    try {
      tmp = Files.createTempFile(dir, "." + p.getFileName(), ".tmp");
      Files.writeString(tmp, content, StandardCharsets.UTF_8);
      try {
        Files.move(tmp, p, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (java.nio.file.AtomicMoveNotSupportedException e) {
        Files.move(tmp, p, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      if (tmp != null) {
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
          // best effort
        }
      }
      throw new CliException("cannot write " + p + ": " + e.getMessage(), 1);
    }
  }
}
