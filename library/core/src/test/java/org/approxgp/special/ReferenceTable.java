package org.approxgp.special;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a reference table {@code /special/NAME} (see {@code generate/generate_tables.py}): '#' header
 * lines, one line of column names, then comma-separated rows. Expected values are decimal strings,
 * compared exactly via {@link BigDecimal} so the rounding of the expected value to double does not
 * enter the measured error.
 */
final class ReferenceTable {

  /** One row, cells by column name. */
  static final class Row {
    private final Map<String, Integer> index;
    private final String[] cells;

    Row(Map<String, Integer> index, String[] cells) {
      this.index = index;
      this.cells = cells;
    }

    String s(String column) {
      return cells[index.get(column)];
    }

    double d(String column) {
      return Double.parseDouble(s(column));
    }

    int i(String column) {
      return Integer.parseInt(s(column));
    }

    /**
     * The cell as an exact decimal. Exponents below −1000 (e.g. Φ(−1e5) ≈ 1e−2171472410, beyond
     * BigDecimal's int scale) are clamped to e−1000: such values are zero for every double
     * comparison here (the error floor is MIN_NORMAL ≈ 2.2e−308).
     */
    BigDecimal big(String column) {
      final String v = s(column);
      final int e = v.indexOf('e');
      if (e >= 0 && Long.parseLong(v.substring(e + 1)) < -1000) {
        return new BigDecimal(v.substring(0, e) + "e-1000");
      }
      return new BigDecimal(v);
    }

    @Override
    public String toString() {
      return String.join(",", cells);
    }
  }

  private ReferenceTable() {}

  static List<Row> load(String name) {
    final List<Row> rows = new ArrayList<>();
    try (InputStream in = ReferenceTable.class.getResourceAsStream("/special/" + name)) {
      if (in == null) {
        throw new IllegalStateException("missing test resource /special/" + name);
      }
      final BufferedReader r =
          new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      Map<String, Integer> index = null;
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        final String[] cells = line.split(",");
        if (index == null) {
          index = new HashMap<>();
          for (int i = 0; i < cells.length; i++) {
            index.put(cells[i].trim(), i);
          }
        } else {
          rows.add(new Row(index, cells));
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return rows;
  }

  /** |got − expected| exactly (as a double); +Infinity if got is not finite. */
  static double absDiff(double got, BigDecimal expected) {
    if (!Double.isFinite(got)) {
      return Double.POSITIVE_INFINITY;
    }
    return new BigDecimal(got).subtract(expected, MathContext.DECIMAL128).abs().doubleValue();
  }

  /**
   * |got − expected| / max(|expected|, floor). A floor of {@link Double#MIN_NORMAL} makes the error
   * relative wherever the exact value is a normal double and absolute (in units of MIN_NORMAL)
   * in the subnormal range, where no double carries full relative precision.
   */
  static double relErr(double got, BigDecimal expected, double floor) {
    final double diff = absDiff(got, expected);
    final double scale = Math.max(expected.abs().doubleValue(), floor);
    return diff / scale;
  }
}
