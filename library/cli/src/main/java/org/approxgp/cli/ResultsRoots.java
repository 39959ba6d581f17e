package org.approxgp.cli;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.approxgp.experiment.ProjectPaths;

/** The results root of a command that runs experiments ({@code run}, {@code coal}): chosen, created, writable. */
final class ResultsRoots {
  private ResultsRoots() {}

  /** {@code results} (the command's {@code --results}) or the default root, as it is: nothing is created. */
  static Path resolve(Path results) {
    return results == null ? ProjectPaths.resultsRoot() : results.toAbsolutePath();
  }

  /**
   * {@code results} (the command's {@code --results}) or the default root, created if missing.
   *
   * @throws CliException (exit 2) if it cannot be created or is not writable
   */
  static Path prepare(Path results) {
    Path root = resolve(results);
    String what = results == null ? "results directory " : "--results ";
    try {
      Files.createDirectories(root);
    } catch (IOException | UnsupportedOperationException e) {
      throw CliException.badInput(what + root + " cannot be created: "
          + (e instanceof FileSystemException f && f.getReason() != null
              ? f.getReason()
              : e.getMessage()));
    }
    if (!AtomicFiles.writable(root)) {
      throw CliException.badInput(
          what + root + " is not writable (read-only); choose another with --results");
    }
    return root;
  }
}
