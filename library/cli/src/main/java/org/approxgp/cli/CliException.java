package org.approxgp.cli;

/** A failure the command reports as one line and an exit code (2 bad input, 1 computation failed). */
final class CliException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final int exitCode;

  CliException(String message, int exitCode) {
    super(message);
    this.exitCode = exitCode;
  }

  static CliException badInput(String message) {
    return new CliException(message, 2);
  }

  int exitCode() {
    return exitCode;
  }
}
