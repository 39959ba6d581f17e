package org.approxgp.cli;

import java.util.Locale;

/**
 * Sizes checked before allocation: an option that would make the command allocate more than the heap holds, or
 * an array longer than Java allows, is refused in one line (exit 2) instead of failing with an
 * {@link OutOfMemoryError} (or a {@link NegativeArraySizeException}) after minutes.
 */
final class Memory {
  private Memory() {}

  /** Largest array length Java allows (a few below {@link Integer#MAX_VALUE}). */
  static final double MAX_ARRAY = Integer.MAX_VALUE - 8;

  /** Share of the heap one command's largest structures may take (the rest: data, JVM, temporaries). */
  private static final double SHARE = 0.6;

  /**
   * @param what the options and data that make the structure, e.g. "--features 40000 on 2,000 rows"
   * @param bytes its size in bytes (as a double: products of options overflow a long no sooner than this)
   * @param longestArray the length of its longest single array
   */
  static void require(String what, double bytes, double longestArray) {
    double heap = Runtime.getRuntime().maxMemory();
    if (longestArray > MAX_ARRAY) {
      throw CliException.badInput(String.format(
          Locale.ROOT,
          "%s needs an array of %.3g entries, more than Java" + " allows (%d)",
          what,
          longestArray,
          (long) MAX_ARRAY));
    }
    if (bytes > SHARE * heap) {
      throw CliException.badInput(String.format(
          Locale.ROOT,
          "%s needs about %s of memory, more than the JVM"
              + " has (heap %s; give it more with APPROXGP_JAVA_OPTS=-Xmx...)",
          what,
          size(bytes),
          size(heap)));
    }
  }

  static String size(double bytes) {
    return bytes >= 1e9
        ? String.format(Locale.ROOT, "%.1f GB", bytes / 1e9)
        : String.format(Locale.ROOT, "%.0f MB", Math.max(1, bytes / 1e6));
  }
}
