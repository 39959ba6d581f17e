package org.approxgp.likelihood;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The committed high-precision reference tables (CSV under {@code src/test/resources}): '#' lines say how each
 * was made, then a header row, then one case per row.
 */
public final class ReferenceTable {
  private ReferenceTable() {}

  /** The data rows of the table at class-path {@code resource} as decimal strings (header and # lines dropped). */
  public static List<String[]> raw(String resource) throws IOException {
    List<String[]> rows = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(
        Objects.requireNonNull(ReferenceTable.class.getResourceAsStream(resource), resource),
        StandardCharsets.UTF_8))) {
      String line;
      boolean header = true;
      while ((line = r.readLine()) != null) {
        if (line.startsWith("#") || line.isBlank()) {
          continue;
        }
        if (header) {
          header = false;
          continue;
        }
        rows.add(line.split(","));
      }
    }
    return rows;
  }

  /** The data rows as numbers. */
  public static List<double[]> numbers(String resource) throws IOException {
    return raw(resource).stream()
        .map(p -> Arrays.stream(p).mapToDouble(Double::parseDouble).toArray())
        .toList();
  }
}
