package org.approxgp.spark;

/**
 * A trial that failed in a Spark task (or whose task Spark gave up on): the message names the trial
 * id and the original exception; the stack trace is the executor's.
 */
public final class RemoteTrialException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public RemoteTrialException(String message) {
    super(message);
  }

  public RemoteTrialException(String message, Throwable cause) {
    super(message, cause);
  }
}
