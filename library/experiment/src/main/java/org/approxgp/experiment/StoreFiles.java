package org.approxgp.experiment;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The files of a results store and the test that keeps every other output off them. A store of experiment
 * {@code E} and config hash {@code H} is {@code <root>/E/H.jsonl} (the rows), {@code H.config.txt} (the sidecar
 * naming the config), {@code H.lock} (the run lock) and, after a repair, {@code H.jsonl.quarantine} (or
 * {@code H.jsonl.gz.quarantine} for the compressed {@code H.jsonl.gz}).
 */
public final class StoreFiles {

  static final String ROWS = ".jsonl";
  /** Shipped rows: the same lines, gzip-compressed, read before {@link #ROWS} and never appended to. */
  static final String ROWS_GZ = ".jsonl.gz";

  static final String SIDECAR = ".config.txt";
  static final String LOCK = ".lock";
  static final String QUARANTINE = ".jsonl.quarantine";
  /** The bytes of a damaged {@link #ROWS_GZ} file, kept by a repair. */
  static final String QUARANTINE_GZ = ".jsonl.gz.quarantine";
  /** The first line of every sidecar. */
  static final String SIDECAR_HEADER = "# approxgp results:";

  /** Longest first, so that {@code H.jsonl.quarantine} is not read as {@code H.jsonl} + a suffix. */
  private static final List<String> SUFFIXES =
      List.of(QUARANTINE_GZ, QUARANTINE, ROWS_GZ, SIDECAR, ROWS, LOCK);

  private StoreFiles() {}

  static Path quarantineOf(Path rows) {
    return rows.resolveSibling(rows.getFileName() + ".quarantine");
  }

  /**
   * Why writing to {@code p} would damage a results store, or empty when it would not. {@code p} is taken as it
   * resolves: through symbolic links (its own, a dangling one's target, and its directories'). It is a store's
   * file when its directory holds the sidecar of the same hash (so a store under any root is found), or when it
   * has a store file's name one directory below {@code resultsRoot} (a store not yet created).
   *
   * @param resultsRoot the results root of this run, or null
   */
  public static Optional<String> damageIfWritten(Path p, Path resultsRoot) {
    Path real = resolved(p);
    String name = real.getFileName() == null ? "" : real.getFileName().toString();
    Path dir = real.getParent();
    if (dir == null) {
      return Optional.empty();
    }
    for (String suffix : SUFFIXES) {
      if (!name.endsWith(suffix) || name.length() == suffix.length()) {
        continue;
      }
      String hash = name.substring(0, name.length() - suffix.length());
      Path sidecar = dir.resolve(hash + SIDECAR);
      boolean hasSidecar = Files.isRegularFile(sidecar) && startsWithHeader(sidecar);
      Path root = resultsRoot == null ? null : resolved(resultsRoot);
      boolean underRoot =
          root != null && dir.getParent() != null && dir.getParent().equals(root);
      if (hasSidecar || underRoot) {
        String what = switch (suffix) {
          case ROWS -> "the rows";
          case ROWS_GZ -> "the compressed rows";
          case SIDECAR -> "the config sidecar";
          case LOCK -> "the lock";
          case QUARANTINE_GZ -> "the compressed rows' quarantine";
          default -> "the quarantine";
        };
        return Optional.of(
            real + " is " + what + " of a results store (" + dir.resolve(hash + ROWS) + ")");
      }
      break;
    }
    return Optional.empty();
  }

  private static boolean startsWithHeader(Path sidecar) {
    try (var r = Files.newBufferedReader(sidecar, StandardCharsets.UTF_8)) {
      String first = r.readLine();
      return first != null && first.startsWith(SIDECAR_HEADER);
    } catch (IOException | java.io.UncheckedIOException e) {
      return false;
    }
  }

  /**
   * {@code p} with every symbolic link resolved as far as the file system allows: the real path when it exists;
   * a dangling link's target (followed up to 40 times, as the kernel does); else the real path of the nearest
   * existing directory with the rest appended.
   */
  static Path resolved(Path p) {
    Path q = p.toAbsolutePath().normalize();
    for (int hops = 0; hops < 40; hops++) {
      try {
        return q.toRealPath();
      } catch (IOException e) {
        // missing, or a dangling link: below
      }
      if (Files.isSymbolicLink(q)) {
        try {
          Path target = Files.readSymbolicLink(q);
          q = q.resolveSibling(target).toAbsolutePath().normalize();
          continue;
        } catch (IOException e) {
          break;
        }
      }
      break;
    }
    Path parent = q.getParent();
    if (parent == null || q.getFileName() == null) {
      return q;
    }
    return resolved(parent).resolve(q.getFileName());
  }
}
