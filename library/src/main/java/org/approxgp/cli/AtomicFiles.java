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
    if (dir == null) {
      throw CliException.badInput(option + " " + p + ": not a file path");
    }
    for (Path a = dir; a != null; a = a.getParent()) {
      if (Files.exists(a) && !Files.isDirectory(a)) {
        throw CliException.badInput(option + " " + p + ": " + a + " is a file, not a directory");
      }
    }
    if (!Files.isDirectory(dir)) {
      throw CliException.badInput(option + " " + p + ": directory " + dir + " does not exist");
    }
    if (!Files.isWritable(dir)) {
      throw CliException.badInput(option + " " + p + ": directory " + dir + " is not writable");
    }
    if (Files.isDirectory(p)) {
      throw CliException.badInput(option + " " + p + " is a directory");
    }
  }

  /**
   * Refuses an output path that is one of the inputs (or another output), so that a run can never
   * overwrite what it reads. Paths are compared after normalisation, and through
   * {@link Files#isSameFile} (symbolic and hard links) when both exist.
   *
   * @param out the output path
   * @param option its option name, for the message
   * @param others option name → path (input files, other outputs); null paths are skipped
   */
  static void checkDistinct(Path out, String option, java.util.Map<String, String> others) {
    Path o = out.toAbsolutePath().normalize();
    for (var e : others.entrySet()) {
      if (e.getValue() == null) {
        continue;
      }
      Path q;
      try {
        q = Path.of(e.getValue()).toAbsolutePath().normalize();
      } catch (java.nio.file.InvalidPathException ex) {
        continue;
      }
      boolean same = o.equals(q);
      if (!same && Files.exists(o) && Files.exists(q)) {
        try {
          same = Files.isSameFile(o, q);
        } catch (IOException ex) {
          same = false;
        }
      }
      if (same) {
        throw CliException.badInput(option + " " + out + " is the same file as " + e.getKey() + " " + e.getValue()
            + "; refusing to overwrite it");
      }
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
