package org.approxgp.cli;

import java.util.Locale;

/**
 * The last check of a command's numbers before anything is written: a NaN or an infinity never leaves with
 * exit 0. A value that is not finite ends the command with one line naming it (exit 2, nothing written).
 */
final class Finite {
  private Finite() {}

  /**
   * @param what the quantity, e.g. "log_z"
   * @param hint what a user can do about it, or the cause when known
   */
  static double require(String what, double v, String hint) {
    if (!Double.isFinite(v)) {
      throw CliException.badInput(String.format(
          Locale.ROOT,
          "%s is %s, not a finite number: %s; nothing was" + " written",
          what,
          v,
          hint));
    }
    return v;
  }

  /**
   * Each of {@code v}, whose entry i is the value at test row i + 2 of {@code file} (the header is row 1),
   * or at entry i when {@code file} is null.
   */
  static void requireRows(String what, double[] v, String file, String hint) {
    for (int i = 0; i < v.length; i++) {
      if (!Double.isFinite(v[i])) {
        require(
            file == null ? what + " [" + i + "]" : what + " of " + file + " row " + (i + 2),
            v[i],
            hint);
      }
    }
  }
}
