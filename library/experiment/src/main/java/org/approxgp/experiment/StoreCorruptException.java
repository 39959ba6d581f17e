package org.approxgp.experiment;

import java.nio.file.Path;

/**
 * A results file holds a complete line (newline-terminated) that is not a stored row: it does not parse, or it
 * has no trial id. Such a line is never deleted silently: the run refuses, and {@link Runner#withRepair} moves
 * such lines to a quarantine file beside the store ({@code <hash>.jsonl.quarantine}) before running.
 */
public final class StoreCorruptException extends IllegalStateException {

  private static final long serialVersionUID = 1L;

  private final transient Path resultsFile;
  private final int line;

  StoreCorruptException(Path resultsFile, int line, int count, String reason) {
    this(
        resultsFile,
        line,
        "results file " + resultsFile + ": line " + line + " is not a stored row ("
            + (reason.length() > 160 ? reason.substring(0, 157) + "..." : reason) + ")"
            + (count > 1
                ? " and " + (count - 1) + " more line" + (count > 2 ? "s are" : " is") + " not"
                : "")
            + "; nothing was changed; rerun with --repair (Runner.withRepair(true)) to move "
            + (count > 1 ? "them" : "it") + " to "
            + StoreFiles.quarantineOf(resultsFile).getFileName()
            + " and recompute those trials");
  }

  private StoreCorruptException(Path resultsFile, int line, String message) {
    super(message);
    this.resultsFile = resultsFile;
    this.line = line;
  }

  /**
   * A damaged compressed store {@code <hash>.jsonl.gz}: from {@code line} on its lines are not rows, or its gzip
   * stream ends early or is corrupt.
   */
  static StoreCorruptException compressed(Path gz, int line, String reason) {
    return new StoreCorruptException(
        gz,
        line,
        "compressed results file " + gz + " is damaged from line " + line
            + " (" + (reason.length() > 160 ? reason.substring(0, 157) + "..." : reason)
            + "); nothing was changed;"
            + " rerun with --repair (Runner.withRepair(true)) to keep its readable rows, move its bytes to "
            + StoreFiles.quarantineOf(gz).getFileName()
            + " and recompute the rest (a shipped store can also be"
            + " restored with git checkout)");
  }

  /** The results file. */
  public Path resultsFile() {
    return resultsFile;
  }

  /** The first offending line (1-based). */
  public int line() {
    return line;
  }
}
