package org.approxgp.data;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A compact column file ("approxgp columns", version 1): large numeric tables that are not committed (e.g.
 * flights-3m) are converted into it once and then read in well under a second.
 *
 * <p>Layout (all integers little-endian):
 * <pre>
 *   8 bytes   magic "APXCOLS1"
 *   4 bytes   L, unsigned length of the header
 *   L bytes   UTF-8 JSON header, padded with spaces so that 12 + L is a multiple of 8:
 *             {"format":"approxgp-columns","version":1,"n":N,
 *              "columns":[{"name":..., "type":"i32"|"f64", "levels":[...]?, "description":...?}, ...],
 *              "source":..., "source_sha256":...}
 *   then every column in header order, N values each: i32 = 4-byte two's complement, f64 = 8-byte IEEE 754
 * </pre>
 * An {@code i32} column with {@code levels} holds codes 0..levels−1 of a categorical column (e.g. airport
 * codes). Any other header fields are kept as text in {@link #meta()}. The file length must be exactly the
 * header plus the columns; anything else is rejected as truncated or corrupt.
 *
 * @param n number of rows
 * @param columns the columns, in file order
 * @param meta the header's other top-level string fields (e.g. {@code source}, {@code source_sha256})
 */
public record ColumnFile(int n, List<Column> columns, Map<String, String> meta) {
  /** The 8 magic bytes at the start of every column file. */
  public static final String MAGIC = "APXCOLS1";

  /**
   * One column: exactly one of {@code i32} and {@code f64} is non-null.
   *
   * @param name column name
   * @param i32 integer values, or null
   * @param f64 real values, or null
   * @param levels category names of an integer code column, or an empty list
   */
  public record Column(String name, int[] i32, double[] f64, List<String> levels) {
    public Column {
      Objects.requireNonNull(name, "name");
      if ((i32 == null) == (f64 == null)) {
        throw new IllegalArgumentException(
            "column " + name + ": exactly one of i32, f64 must be given");
      }
      levels = List.copyOf(levels);
      if (!levels.isEmpty() && i32 == null) {
        throw new IllegalArgumentException("column " + name + ": levels need an i32 code column");
      }
    }

    /** An integer column. */
    public static Column ofInts(String name, int[] values) {
      return new Column(name, values, null, List.of());
    }

    /** A categorical column: codes into {@code levels}. */
    public static Column ofCodes(String name, int[] codes, List<String> levels) {
      return new Column(name, codes, null, levels);
    }

    /** A real column. */
    public static Column ofDoubles(String name, double[] values) {
      return new Column(name, null, values, List.of());
    }

    int length() {
      return i32 != null ? i32.length : f64.length;
    }

    String type() {
      return i32 != null ? "i32" : "f64";
    }
  }

  public ColumnFile {
    columns = List.copyOf(columns);
    meta = Map.copyOf(meta);
    for (Column c : columns) {
      if (c.length() != n) {
        throw new IllegalArgumentException(
            "column " + c.name() + " has " + c.length() + " values, n = " + n);
      }
    }
  }

  /** The column named {@code name}. */
  public Column column(String name) {
    for (Column c : columns) {
      if (c.name().equals(name)) {
        return c;
      }
    }
    throw new IllegalArgumentException("no column '" + name + "'; columns: "
        + columns.stream().map(Column::name).toList());
  }

  /** Reads the whole file. */
  public static ColumnFile read(Path file) {
    return read(file, Integer.MAX_VALUE);
  }

  /**
   * Reads the first {@code min(limit, n)} rows of every column.
   *
   * @throws DataException if the file is missing, not a column file, of another version, truncated or
   *     longer than its header says, or if a categorical code is outside its levels
   */
  public static ColumnFile read(Path file, int limit) {
    if (limit < 0) {
      throw new IllegalArgumentException("limit must be >= 0, got " + limit);
    }
    String name = file.toString();
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      Header hd = header(ch, name);
      long n = hd.n();
      List<Map<String, Object>> cols = hd.columns();
      Map<String, Object> h = hd.json();
      int m = (int) Math.min(n, limit);
      List<Column> out = new ArrayList<>();
      long offset = hd.dataStart();
      for (Map<String, Object> c : cols) {
        String cname = text(c, "name");
        String type = text(c, "type");
        int w = width(type, name, cname);
        ByteBuffer b = readFully(ch, offset, Math.multiplyExact(m, w), name);
        offset += n * w;
        if (type.equals("i32")) {
          int[] v = new int[m];
          b.asIntBuffer().get(v);
          List<String> levels = levels(c);
          if (!levels.isEmpty()) {
            for (int i = 0; i < m; i++) {
              if (v[i] < 0 || v[i] >= levels.size()) {
                throw new DataException(
                    name,
                    0,
                    cname,
                    "row " + i + ": code " + v[i] + " outside 0.." + (levels.size() - 1));
              }
            }
          }
          out.add(new Column(cname, v, null, levels));
        } else {
          double[] v = new double[m];
          b.asDoubleBuffer().get(v);
          out.add(Column.ofDoubles(cname, v));
        }
      }
      Map<String, String> meta = new LinkedHashMap<>();
      for (Map.Entry<String, Object> e : h.entrySet()) {
        if (e.getValue() instanceof String v && !e.getKey().equals("format")) {
          meta.put(e.getKey(), v);
        }
      }
      return new ColumnFile(m, out, meta);
    } catch (NoSuchFileException e) {
      throw new DataException(name, 0, null, "file not found");
    } catch (IOException e) {
      throw new UncheckedIOException("reading " + name, e);
    }
  }

  /**
   * The numeric columns of a column file as row-major regression rows, read column by column in blocks straight
   * into the one n × d array (no per-column copy of the whole table is held): {@code target} becomes y (absent:
   * y is null, for test rows whose targets are unknown), every other column an input, in file order; when
   * {@code features} is given, exactly those inputs in that order (other columns, except the target, are an
   * error). {@code i32} columns without levels are read as their values.
   *
   * @throws DataException on anything {@link #read(Path, int)} rejects, a categorical (levels) or missing
   *     column, a non-finite value, or no input column
   */
  public static Rows readRows(Path file, String target, List<String> features) {
    String name = file.toString();
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      Header h = header(ch, name);
      List<String> all = new ArrayList<>();
      h.columns().forEach(c -> all.add(text(c, "name")));
      List<String> inputs = new ArrayList<>();
      for (String c : all) {
        if (!c.equals(target)) {
          if (features != null && !features.contains(c)) {
            throw new DataException(name, 0, c, "column is not a training feature");
          }
          inputs.add(c);
        }
      }
      if (features != null) {
        for (String f : features) {
          if (!all.contains(f)) {
            throw new DataException(name, 0, f, "training feature column missing from the file");
          }
        }
        inputs = List.copyOf(features);
      }
      if (inputs.isEmpty()) {
        throw new DataException(
            name, 0, null, "no input column besides the target '" + target + "'");
      }
      int n = (int) h.n();
      int d = inputs.size();
      double[] x = new double[Math.multiplyExact(n, d)];
      double[] y = all.contains(target) ? new double[n] : null;
      long offset = h.dataStart();
      for (Map<String, Object> c : h.columns()) {
        String cname = text(c, "name");
        String type = text(c, "type");
        int w = width(type, name, cname);
        int j = inputs.indexOf(cname);
        if (j >= 0 || cname.equals(target)) {
          if (type.equals("i32") && !levels(c).isEmpty()) {
            throw new DataException(
                name, 0, cname, "categorical column (levels): a regression needs numbers");
          }
          double[] dst = j >= 0 ? x : y;
          int stride = j >= 0 ? d : 1;
          int first = Math.max(j, 0);
          int perBlock = (1 << 20) / w;
          for (int lo = 0; lo < n; lo += perBlock) {
            int len = Math.min(perBlock, n - lo);
            ByteBuffer b = readFully(ch, offset + (long) lo * w, len * w, name);
            for (int i = 0; i < len; i++) {
              double v = w == 4 ? b.getInt() : b.getDouble();
              if (!Double.isFinite(v)) {
                throw new DataException(
                    name, 0, cname, "row " + (lo + i) + ": " + v + " (values must be finite)");
              }
              dst[(lo + i) * stride + first] = v;
            }
          }
        }
        offset += h.n() * w;
      }
      return new Rows(inputs, new RegressionData(x, n, d, y));
    } catch (NoSuchFileException e) {
      throw new DataException(name, 0, null, "file not found");
    } catch (IOException e) {
      throw new UncheckedIOException("reading " + name, e);
    }
  }

  /**
   * Regression rows read from a column file by {@link #readRows}.
   *
   * @param features input names, one per column of {@code data}
   * @param data the rows (targets null when the file has no target column)
   */
  public record Rows(List<String> features, RegressionData data) {
    public Rows {
      features = List.copyOf(features);
    }
  }

  /** Whether {@code file} starts with the column file's magic bytes (false if it cannot be read). */
  public static boolean isColumnFile(Path file) {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer b = ByteBuffer.allocate(8);
      while (b.hasRemaining() && ch.read(b) >= 0) {
        // read up to 8 bytes
      }
      return !b.hasRemaining() && MAGIC.equals(new String(b.array(), StandardCharsets.US_ASCII));
    } catch (IOException e) {
      return false;
    }
  }

  /** A checked header: row count, column descriptions, the byte offset of the first column. */
  private record Header(
      long n, List<Map<String, Object>> columns, Map<String, Object> json, long dataStart) {}

  /** A member of a header object as text: a string as it is, a missing member "", any other value as JSON. */
  private static String text(Map<String, Object> o, String key) {
    Object v = o.get(key);
    return v == null ? "" : v instanceof String str ? str : Json.write(v);
  }

  /** The levels of a categorical column's description (empty when it has none). */
  private static List<String> levels(Map<String, Object> c) {
    List<String> out = new ArrayList<>();
    if (c.get("levels") instanceof List<?> l) {
      for (Object v : l) {
        out.add(v instanceof String str ? str : Json.write(v));
      }
    }
    return out;
  }

  private static Header header(FileChannel ch, String name) throws IOException {
    long size = ch.size();
    ByteBuffer head = readFully(ch, 0, 12, name);
    byte[] magic = new byte[8];
    head.get(magic);
    if (!MAGIC.equals(new String(magic, StandardCharsets.US_ASCII))) {
      throw new DataException(
          name, 0, null, "not an approxgp column file (no " + MAGIC + " magic)");
    }
    long headerLen = Integer.toUnsignedLong(head.getInt());
    if (12 + headerLen > size) {
      throw new DataException(name, 0, null, "truncated header (" + size + " bytes)");
    }
    ByteBuffer hb = readFully(ch, 12, (int) headerLen, name);
    Map<String, Object> h;
    try {
      if (!(Json.parse(new String(hb.array(), StandardCharsets.UTF_8)) instanceof Map<?, ?> m)) {
        throw new IllegalArgumentException("not an object");
      }
      @SuppressWarnings("unchecked")
      Map<String, Object> obj = (Map<String, Object>) m;
      h = obj;
    } catch (IllegalArgumentException e) {
      throw new DataException(name, 0, null, "header is not a JSON object: " + e.getMessage());
    }
    if (!"approxgp-columns".equals(h.get("format")) || !Long.valueOf(1).equals(h.get("version"))) {
      throw new DataException(
          name,
          0,
          null,
          "unsupported format " + Json.write(h.get("format")) + " version "
              + Json.write(h.get("version")) + " (this reader knows approxgp-columns version 1)");
    }
    long n = h.get("n") instanceof Long v ? v : -1;
    List<Map<String, Object>> cols = new ArrayList<>();
    if (h.get("columns") instanceof List<?> l) {
      for (Object c : l) {
        if (!(c instanceof Map<?, ?>)) {
          throw new DataException(
              name, 0, null, "header's columns must be objects, got " + Json.write(c));
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> col = (Map<String, Object>) c;
        cols.add(col);
      }
    }
    if (n < 0 || n > Integer.MAX_VALUE || cols.isEmpty()) {
      throw new DataException(name, 0, null, "header needs n >= 0 and a non-empty columns array");
    }
    long expected = 12 + headerLen;
    for (Map<String, Object> c : cols) {
      expected += n * width(text(c, "type"), name, text(c, "name"));
    }
    if (expected != size) {
      throw new DataException(
          name,
          0,
          null,
          "file has " + size + " bytes, header says " + expected
              + (size < expected ? " (truncated download or conversion?)" : ""));
    }
    return new Header(n, cols, h, 12 + headerLen);
  }

  /** Writes this table as a column file (atomically: to a temporary file, then renamed). */
  public void write(Path file) {
    Map<String, Object> h = new LinkedHashMap<>();
    h.put("format", "approxgp-columns");
    h.put("version", 1);
    h.put("n", n);
    List<Object> cols = new ArrayList<>();
    for (Column c : columns) {
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("name", c.name());
      o.put("type", c.type());
      if (!c.levels().isEmpty()) {
        o.put("levels", c.levels());
      }
      cols.add(o);
    }
    h.put("columns", cols);
    meta.forEach(h::putIfAbsent);
    byte[] json = Json.write(h).getBytes(StandardCharsets.UTF_8);
    int pad = (int) ((8 - (12 + json.length) % 8) % 8);
    byte[] header = Arrays.copyOf(json, json.length + pad);
    Arrays.fill(header, json.length, header.length, (byte) ' ');
    Path tmp = file.resolveSibling(file.getFileName() + ".part");
    try (FileChannel ch = FileChannel.open(
        tmp,
        StandardOpenOption.CREATE,
        StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      ByteBuffer head = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
      head.put(MAGIC.getBytes(StandardCharsets.US_ASCII)).putInt(header.length).flip();
      writeFully(ch, head);
      writeFully(ch, ByteBuffer.wrap(header));
      for (Column c : columns) {
        ByteBuffer b =
            ByteBuffer.allocate(n * (c.i32() != null ? 4 : 8)).order(ByteOrder.LITTLE_ENDIAN);
        if (c.i32() != null) {
          b.asIntBuffer().put(c.i32());
        } else {
          b.asDoubleBuffer().put(c.f64());
        }
        writeFully(ch, b);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("writing " + tmp, e);
    }
    try {
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("renaming " + tmp + " to " + file, e);
    }
  }

  private static int width(String type, String file, String column) {
    return switch (type) {
      case "i32" -> 4;
      case "f64" -> 8;
      default ->
        throw new DataException(file, 0, column, "unknown column type '" + type + "' (i32 or f64)");
    };
  }

  private static ByteBuffer readFully(FileChannel ch, long position, int length, String name)
      throws IOException {
    ByteBuffer b = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
    long pos = position;
    while (b.hasRemaining()) {
      int r = ch.read(b, pos);
      if (r < 0) {
        throw new DataException(name, 0, null, "unexpected end of file at byte " + pos);
      }
      pos += r;
    }
    return b.flip();
  }

  private static void writeFully(FileChannel ch, ByteBuffer b) throws IOException {
    while (b.hasRemaining()) {
      ch.write(b);
    }
  }
}
