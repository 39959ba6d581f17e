package org.approxgp.data;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The checked CSV reading behind {@link Datasets}: a committed data set by name (a resource) or a file, its header,
 * cells and line numbers, size checked before it is read, every error naming the file, row and column.
 */
final class CsvText {
  private CsvText() {}

  /** Parsed text of a CSV file: header, cells, and the line number of every data row. */
  static final class Raw {
    final String file;
    final String source;
    final String sha256;
    final String name;
    final String[] header;
    final int targetIndex;
    final List<String[]> cells;
    final int[] lines;

    Raw(
        String file,
        String source,
        String sha256,
        String name,
        String[] header,
        int targetIndex,
        List<String[]> cells,
        int[] lines) {
      this.file = file;
      this.source = source;
      this.sha256 = sha256;
      this.name = name;
      this.header = header;
      this.targetIndex = targetIndex;
      this.cells = cells;
      this.lines = lines;
    }

    int n() {
      return cells.size();
    }

    String cell(int i, int j) {
      return cells.get(i)[j];
    }

    double number(int i, int j) {
      String s = cell(i, j);
      if (s.isEmpty()) {
        throw new DataException(
            file, lines[i], header[j], "empty cell (missing values are not allowed)");
      }
      double v = decimal(s);
      if (Double.isNaN(v)) {
        boolean javaNumber;
        try {
          Double.parseDouble(s);
          javaNumber = true; // NaN, Infinity, 1e999, hex floats, 1d
        } catch (NumberFormatException e) {
          javaNumber = false;
        }
        throw new DataException(
            file,
            lines[i],
            header[j],
            (javaNumber ? "not a finite decimal number: " : "not a number: ")
                + DataException.quote(s));
      }
      return v;
    }

    Dataset dataset(double[] y, String targetNote) {
      int d = targetIndex < 0 ? header.length : header.length - 1;
      List<String> names = new ArrayList<>(d);
      for (int j = 0; j < header.length; j++) {
        if (j != targetIndex) {
          names.add(header[j]);
        }
      }
      double[][] x = new double[n()][d];
      for (int i = 0; i < n(); i++) {
        for (int j = 0, c = 0; j < header.length; j++) {
          if (j != targetIndex) {
            x[i][c++] = number(i, j);
          }
        }
      }
      return Dataset.of(
          name,
          names,
          targetIndex < 0 ? "(none)" : header[targetIndex],
          x,
          y,
          new Provenance(
              source,
              "sha256 " + sha256 + ", " + n() + " rows x " + d + " features, " + targetNote));
    }
  }

  static Raw read(String nameOrPath, String targetColumn) {
    return read(nameOrPath, targetColumn, false);
  }

  static Raw read(String nameOrPath, String targetColumn, boolean targetOptional) {
    if (nameOrPath == null || nameOrPath.isBlank()) {
      throw new DataException(String.valueOf(nameOrPath), 0, null, "no file name given");
    }
    String resource = Datasets.RESOURCE_DIR + nameOrPath + ".csv";
    byte[] bytes;
    String file;
    String source;
    String name;
    InputStream in = nameOrPath.contains("/") || nameOrPath.contains("\\")
        ? null
        : Datasets.class.getClassLoader().getResourceAsStream(resource);
    try {
      if (in != null) {
        try (InputStream s = in) {
          bytes = s.readAllBytes();
        }
        file = nameOrPath + ".csv";
        source = "classpath:" + resource;
        name = nameOrPath;
      } else {
        Path p = Path.of(nameOrPath);
        if (!Files.isRegularFile(p)) {
          throw new DataException(
              nameOrPath,
              0,
              null,
              "no such file, and not a committed data set" + " name (known: "
                  + String.join(", ", Datasets.names()) + ")");
        }
        checkSize(nameOrPath, Files.size(p));
        bytes = Files.readAllBytes(p);
        file = nameOrPath;
        source = p.toAbsolutePath().normalize().toString();
        String base = p.getFileName().toString();
        name = base.toLowerCase().endsWith(".csv") ? base.substring(0, base.length() - 4) : base;
      }
    } catch (IOException e) {
      throw new DataException(nameOrPath, 0, null, "cannot read: " + e.getMessage());
    }
    return parse(file, source, sha256(bytes), name, bytes, targetColumn, targetOptional);
  }

  /**
   * Parsing holds the file's bytes, its lines and every cell as a string at once: about ten times the file's
   * size for a numeric CSV (measured: a 27 MB file of 600,000 rows of five 8-character cells loads with a heap of
   * 9.7 times its size and not with less). A file beyond a tenth of the heap, or beyond Java's longest array, is
   * refused before it is read.
   */
  static void checkSize(String file, long size) {
    long heap = Runtime.getRuntime().maxMemory();
    if (size > Integer.MAX_VALUE - 8L || 10.0 * size > heap) {
      throw new DataException(
          file,
          0,
          null,
          String.format(
              java.util.Locale.ROOT,
              "%.1f MB is too large to load"
                  + " as CSV: reading it takes about 10 times that in memory and the heap is %.0f MB (give the JVM more,"
                  + " e.g. APPROXGP_JAVA_OPTS=-Xmx16g for bin/approxgp)",
              size / 1e6,
              heap / 1e6));
    }
  }

  private static Raw parse(
      String file,
      String source,
      String sha,
      String name,
      byte[] bytes,
      String targetColumn,
      boolean targetOptional) {
    List<String> text = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(
        new InputStreamReader(new java.io.ByteArrayInputStream(bytes), StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        text.add(line);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    int last = text.size();
    while (last > 0 && text.get(last - 1).isBlank()) {
      last--;
    }
    if (last == 0) {
      throw new DataException(file, 0, null, "empty file (no header row)");
    }
    String headerLine = text.get(0);
    if (headerLine.startsWith("\uFEFF")) {
      headerLine = headerLine.substring(1);
    }
    String[] header = fields(file, 1, headerLine, null);
    Map<String, Integer> index = new HashMap<>();
    for (int j = 0; j < header.length; j++) {
      if (header[j].isEmpty()) {
        throw new DataException(file, 1, null, "empty column name in header field " + (j + 1));
      }
      Integer prev = index.putIfAbsent(header[j], j);
      if (prev != null) {
        throw new DataException(
            file,
            1,
            header[j],
            "duplicate column name (header fields " + (prev + 1) + " and " + (j + 1) + ")");
      }
    }
    Integer t = index.get(targetColumn);
    if (t == null && targetOptional) {
      t = -1;
    } else if (t == null) {
      throw new DataException(
          file, 1, targetColumn, "unknown target column; " + DataException.columns(header));
    }
    if (last == 1) {
      throw new DataException(file, 0, null, "no data rows after the header");
    }
    List<String[]> cells = new ArrayList<>(last - 1);
    int[] lines = new int[last - 1];
    for (int i = 1; i < last; i++) {
      String[] f = fields(file, i + 1, text.get(i), header);
      if (f.length < header.length) {
        throw new DataException(
            file,
            i + 1,
            header[f.length],
            "ragged row: " + f.length + " fields, header has " + header.length
                + " (first missing field is column " + DataException.quote(header[f.length]) + ")");
      }
      if (f.length > header.length) {
        throw new DataException(
            file,
            i + 1,
            null,
            "ragged row: " + f.length + " fields, header has "
                + header.length + " (extra field " + (header.length + 1) + " "
                + DataException.quote(f[header.length])
                + " beyond the last column " + DataException.quote(header[header.length - 1])
                + ")");
      }
      cells.add(f);
      lines[i - 1] = i + 1;
    }
    return new Raw(file, source, sha, name, header, t, cells, lines);
  }

  /**
   * Splits one line into fields as RFC 4180 does within a line: commas separate fields, a field in
   * double quotes may contain commas and {@code ""} (one quote). Fields are trimmed outside the
   * quotes and inside them.
   *
   * @param header the column names for error messages, or null while reading the header itself
   */
  private static String[] fields(String file, int row, String line, String[] header) {
    List<String> out = new ArrayList<>();
    int n = line.length();
    int k = 0;
    while (true) {
      int field = out.size();
      while (k < n && isBlank(line.charAt(k))) {
        k++;
      }
      StringBuilder sb = new StringBuilder();
      if (k < n && line.charAt(k) == '"') {
        k++;
        boolean closed = false;
        while (k < n) {
          char c = line.charAt(k++);
          if (c != '"') {
            sb.append(c);
          } else if (k < n && line.charAt(k) == '"') {
            sb.append('"');
            k++;
          } else {
            closed = true;
            break;
          }
        }
        if (!closed) {
          throw fieldError(
              file,
              row,
              header,
              field,
              "unterminated quoted field (a quote opens it but none closes it on this line)");
        }
        while (k < n && isBlank(line.charAt(k))) {
          k++;
        }
        if (k < n && line.charAt(k) != ',') {
          throw fieldError(
              file, row, header, field, "text after the closing quote of a quoted field");
        }
      } else {
        while (k < n && line.charAt(k) != ',') {
          char c = line.charAt(k++);
          if (c == '"') {
            throw fieldError(file, row, header, field, "double quote inside an unquoted field");
          }
          sb.append(c);
        }
      }
      out.add(sb.toString().trim());
      if (k >= n) {
        return out.toArray(String[]::new);
      }
      k++; // the comma
    }
  }

  private static boolean isBlank(char c) {
    return c == ' ' || c == '\t';
  }

  private static DataException fieldError(
      String file, int row, String[] header, int field, String problem) {
    if (header != null && field < header.length) {
      return new DataException(file, row, header[field], problem);
    }
    return new DataException(
        file,
        row,
        null,
        (header == null ? "header field " : "field ") + (field + 1) + ": " + problem);
  }

  /** A finite decimal number: [+-] digits [. digits] [e[+-]digits]; no NaN, Infinity, hex or suffix. */
  private static final java.util.regex.Pattern DECIMAL =
      java.util.regex.Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");

  /** The value of a strict decimal, or NaN when {@code s} is not one or overflows to infinity. */
  static double decimal(String s) {
    if (!DECIMAL.matcher(s).matches()) {
      return Double.NaN;
    }
    double v = Double.parseDouble(s);
    return Double.isFinite(v) ? v : Double.NaN;
  }

  /** A label's identity: its numeric value when it parses as a finite number, else its text. */
  static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 unavailable", e);
    }
  }
}
