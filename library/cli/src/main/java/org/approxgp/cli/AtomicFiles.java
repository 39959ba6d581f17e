package org.approxgp.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.approxgp.experiment.ProjectPaths;
import org.approxgp.experiment.StoreFiles;

/** Writes files all-or-nothing: a temporary sibling, then an atomic rename. */
final class AtomicFiles {
  private AtomicFiles() {}

  /**
   * Checks early (before any computation) that {@code p} may be written: its directory exists and is writable,
   * it is not a directory, not a read-only file (which {@link #write} would otherwise replace), and not, after
   * symbolic links, one of a results store's files under the default results root or any other.
   */
  static void checkWritable(Path p, String option) {
    checkWritable(p, option, ProjectPaths.resultsRoot());
  }

  /** As {@link #checkWritable(Path, String)}, with the results root of this run. */
  static void checkWritable(Path p, String option, Path resultsRoot) {
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
    if (!writable(dir)) {
      throw CliException.badInput(option + " " + p + ": directory " + dir + " is not writable");
    }
    if (Files.isDirectory(p)) {
      throw CliException.badInput(option + " " + p + " is a directory");
    }
    if (Files.exists(p) && !writable(p)) {
      throw CliException.badInput(option + " " + p + " is read-only; refusing to replace it");
    }
    StoreFiles.damageIfWritten(p, resultsRoot).ifPresent(why -> {
      throw CliException.badInput(option + " " + p + ": " + why + "; refusing to overwrite it");
    });
  }

  /**
   * Whether {@code p} may be written: the process may write it ({@link Files#isWritable}, false on a read-only
   * file system) and, on a POSIX file system, its owner-write bit is set — the superuser may write a file or
   * directory marked read-only, but one so marked is meant to be kept.
   */
  static boolean writable(Path p) {
    if (!Files.isWritable(p)) {
      return false;
    }
    try {
      return Files.getPosixFilePermissions(p)
          .contains(java.nio.file.attribute.PosixFilePermission.OWNER_WRITE);
    } catch (UnsupportedOperationException | IOException e) {
      return true;
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
        throw CliException.badInput(option + " " + out + " is the same file as " + e.getKey() + " "
            + e.getValue() + "; refusing to overwrite it");
      }
    }
  }

  /**
   * The checks of a train/test command's outputs before any work: {@code --out} (and {@code --summary} when given)
   * writable (see {@link #checkWritable(Path, String)}), and neither the same file as {@code --train},
   * {@code --test} or each other.
   */
  static void checkTrainTestOutputs(String train, String test, Path out, Path summary) {
    checkWritable(out, "--out");
    java.util.Map<String, String> inputs = new java.util.LinkedHashMap<>();
    inputs.put("--train", train);
    inputs.put("--test", test);
    checkDistinct(out, "--out", inputs);
    if (summary != null) {
      checkWritable(summary, "--summary");
      inputs.put("--out", out.toString());
      checkDistinct(summary, "--summary", inputs);
    }
  }

  /**
   * Writes {@code content} to {@code p} all-or-nothing: a temporary sibling is written, then renamed
   * over {@code p}. On failure the temporary file is removed and an existing {@code p} is untouched.
   */
  static void write(Path p, String content) {
    Path tmp = null;
    try {
      tmp = tempSibling(p);
      Files.writeString(tmp, content, StandardCharsets.UTF_8);
      commit(tmp, p);
    } catch (IOException e) {
      deleteQuietly(tmp);
      throw new CliException("cannot write " + p + ": " + reason(e), 1);
    }
  }

  /**
   * Writes every file of {@code contents} (in order) nearly all-or-nothing: every temporary sibling is written
   * first, and only when all are complete are they renamed over their targets, so a failure while writing any of
   * them (a full disk, say) leaves every target as it was. Only a failing rename, after the others, could leave
   * some replaced.
   */
  static void writeAll(java.util.Map<Path, String> contents) {
    java.util.Map<Path, Path> tmps = new java.util.LinkedHashMap<>();
    Path current = null;
    try {
      for (java.util.Map.Entry<Path, String> e : contents.entrySet()) {
        current = e.getKey();
        Path tmp = tempSibling(current);
        tmps.put(current, tmp);
        Files.writeString(tmp, e.getValue(), StandardCharsets.UTF_8);
      }
      for (java.util.Map.Entry<Path, Path> e : tmps.entrySet()) {
        current = e.getKey();
        commit(e.getValue(), current);
      }
    } catch (IOException e) {
      tmps.values().forEach(AtomicFiles::deleteQuietly);
      throw new CliException("cannot write " + current + ": " + reason(e), 1);
    }
  }

  /** What went wrong, without the temporary file's name that a file-system exception puts first. */
  static String reason(IOException e) {
    if (e instanceof java.nio.file.FileSystemException f) {
      String r = f.getReason();
      if (r != null) {
        return r;
      }
      return f.getClass()
          .getSimpleName()
          .replace("Exception", "")
          .replaceAll("([a-z])([A-Z])", "$1 $2")
          .toLowerCase(java.util.Locale.ROOT);
    }
    return e.getMessage();
  }

  /** A new empty temporary file beside {@code p} (same directory, so the final rename is atomic). */
  static Path tempSibling(Path p) throws IOException {
    return Files.createTempFile(p.toAbsolutePath().getParent(), "." + p.getFileName(), ".tmp");
  }

  /**
   * Renames {@code tmp} over {@code p}, atomically where the file system can. The temporary file was
   * created owner-only (rw-------); the result gets the permissions of the file it replaces, or
   * rw-r--r-- when new, as an ordinary file written under the usual umask 022 would.
   */
  static void commit(Path tmp, Path p) throws IOException {
    try {
      java.util.Set<java.nio.file.attribute.PosixFilePermission> perms = Files.exists(p)
          ? Files.getPosixFilePermissions(p)
          : java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--");
      Files.setPosixFilePermissions(tmp, perms);
    } catch (UnsupportedOperationException e) {
      // not a POSIX file system: keep the platform's default
    }
    try {
      Files.move(tmp, p, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (java.nio.file.AtomicMoveNotSupportedException e) {
      Files.move(tmp, p, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /** Deletes {@code p} if it exists, ignoring failure (cleanup after an error). */
  static void deleteQuietly(Path p) {
    if (p == null) {
      return;
    }
    try {
      Files.deleteIfExists(p);
    } catch (IOException ignored) {
      // best effort: the error being reported matters more
    }
  }
}
