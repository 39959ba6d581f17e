package org.approxgp.cli;

import org.approxgp.experiment.JsonRows;

/**
 * JSON of the command's summaries: {@link JsonRows#writePretty}, the project's one dialect (numbers in
 * shortest round-trip form; non-finite doubles as the bare tokens {@code NaN}, {@code Infinity},
 * {@code -Infinity}).
 */
final class Json {
  private Json() {}

  static String write(Object v) {
    return JsonRows.writePretty(v);
  }
}
