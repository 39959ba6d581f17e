package org.approxgp.experiment;

/** JSON string literals (RFC 8259 §7), shared by the results files and the command line's summaries. */
public final class JsonStrings {
  private JsonStrings() {
  }

  /** Appends {@code s} as a quoted JSON string: quote, backslash and control characters escaped. */
  public static void append(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }
}
