package org.approxgp.experiment;

import java.nio.file.Path;

/**
 * Another run of the same experiment and config (in this JVM or another process) holds the results
 * file; two writers would interleave their rows and compute the same trials twice, so the second run
 * refuses instead.
 */
public final class ResultsLockedException extends IllegalStateException {

  private static final long serialVersionUID = 1L;

  private final transient Path resultsFile;

  public ResultsLockedException(Path resultsFile, Path lockFile) {
    super("results file " + resultsFile
        + " is in use by another run of the same experiment and config" + " (lock "
        + lockFile.getFileName() + " held); wait for it to finish or stop it, then run again");
    this.resultsFile = resultsFile;
  }

  /** The results file the other run is writing. */
  public Path resultsFile() {
    return resultsFile;
  }
}
