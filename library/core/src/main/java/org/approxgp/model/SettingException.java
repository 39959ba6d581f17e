package org.approxgp.model;

/**
 * A name or setting the {@link Registry} refuses: {@link #setting()} names it (e.g. "power", or "inference" for
 * the method's name itself) and {@link #problem()} says what is wrong, so that a caller can word the message in
 * its own terms (the command line names the flag, {@code --power}).
 */
public final class SettingException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String setting;
  private final String problem;

  /** A refusal of {@code setting}: {@code problem} reads after its name, e.g. "must be in (0, 1], got 2.0". */
  public SettingException(String setting, String problem) {
    super(setting + ": " + problem);
    this.setting = setting;
    this.problem = problem;
  }

  /** The setting refused ("inference", "likelihood" or "model" for an entry's name). */
  public String setting() {
    return setting;
  }

  /** What is wrong with it, without its name. */
  public String problem() {
    return problem;
  }
}
