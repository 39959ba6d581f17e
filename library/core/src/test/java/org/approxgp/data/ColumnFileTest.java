package org.approxgp.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The column file format on small generated files: round trip, byte layout, limits and corrupt files. */
class ColumnFileTest {
  @TempDir
  Path dir;

  private ColumnFile sample() {
    return new ColumnFile(
        4,
        List.of(
            ColumnFile.Column.ofInts("date", new int[] {1010001, 6302359, -5, Integer.MAX_VALUE}),
            ColumnFile.Column.ofCodes(
                "origin", new int[] {2, 0, 1, 2}, List.of("ABQ", "ANC", "LAX")),
            ColumnFile.Column.ofDoubles("lat", new double[] {61.17432028, -0.0, 1e-300, -33.5})),
        Map.of("source", "test", "source_sha256", "abc"));
  }

  @Test
  void roundTripKeepsEveryValueLevelAndMetaField() {
    Path f = dir.resolve("t.apc");
    sample().write(f);
    ColumnFile r = ColumnFile.read(f);
    assertEquals(4, r.n());
    assertArrayEquals(
        new int[] {1010001, 6302359, -5, Integer.MAX_VALUE}, r.column("date").i32());
    assertArrayEquals(new int[] {2, 0, 1, 2}, r.column("origin").i32());
    assertEquals(List.of("ABQ", "ANC", "LAX"), r.column("origin").levels());
    assertArrayEquals(
        new double[] {61.17432028, -0.0, 1e-300, -33.5}, r.column("lat").f64());
    assertEquals(
        Double.doubleToRawLongBits(-0.0),
        Double.doubleToRawLongBits(r.column("lat").f64()[1]));
    assertNull(r.column("lat").i32());
    assertEquals("test", r.meta().get("source"));
    assertEquals("abc", r.meta().get("source_sha256"));
    assertEquals(
        List.of("date", "origin", "lat"),
        r.columns().stream().map(ColumnFile.Column::name).toList());
  }

  @Test
  void layoutIsMagicLengthPaddedJsonThenLittleEndianColumns() throws IOException {
    Path f = dir.resolve("t.apc");
    sample().write(f);
    byte[] b = Files.readAllBytes(f);
    assertEquals("APXCOLS1", new String(b, 0, 8, StandardCharsets.US_ASCII));
    ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    int len = bb.getInt(8);
    assertEquals(0, (12 + len) % 8, "columns start 8-byte aligned");
    String json = new String(b, 12, len, StandardCharsets.UTF_8);
    assertTrue(json.startsWith("{\"format\":\"approxgp-columns\",\"version\":1,\"n\":4,"), json);
    assertEquals(12 + len + 4 * 4 + 4 * 4 + 4 * 8, b.length);
    int start = 12 + len;
    assertEquals(1010001, bb.getInt(start));
    assertEquals(-5, bb.getInt(start + 8));
    assertEquals(2, bb.getInt(start + 16));
    assertEquals(61.17432028, bb.getDouble(start + 32));
    // little-endian explicitly: the low byte of 1010001 = 0x000F6951 comes first
    assertEquals((byte) 0x51, b[start]);
  }

  @Test
  void limitReadsTheFirstRowsOfEveryColumn() {
    Path f = dir.resolve("t.apc");
    sample().write(f);
    ColumnFile r = ColumnFile.read(f, 2);
    assertEquals(2, r.n());
    assertArrayEquals(new int[] {1010001, 6302359}, r.column("date").i32());
    assertArrayEquals(new int[] {2, 0}, r.column("origin").i32());
    assertArrayEquals(new double[] {61.17432028, -0.0}, r.column("lat").f64());
    assertEquals(4, ColumnFile.read(f, 10).n());
    assertEquals(0, ColumnFile.read(f, 0).n());
  }

  @Test
  void truncatedOrExtendedFilesAreRejected() throws IOException {
    Path f = dir.resolve("t.apc");
    sample().write(f);
    byte[] b = Files.readAllBytes(f);
    Path cut = dir.resolve("cut.apc");
    Files.write(cut, Arrays.copyOf(b, b.length - 1));
    DataException e = assertThrows(DataException.class, () -> ColumnFile.read(cut));
    assertTrue(e.getMessage().contains("truncated"), e.getMessage());
    Path longer = dir.resolve("long.apc");
    Files.write(longer, Arrays.copyOf(b, b.length + 8));
    assertThrows(DataException.class, () -> ColumnFile.read(longer));
    Path headOnly = dir.resolve("head.apc");
    Files.write(headOnly, Arrays.copyOf(b, 20));
    assertThrows(DataException.class, () -> ColumnFile.read(headOnly));
  }

  @Test
  void wrongMagicVersionTypeOrCodeIsRejected() throws IOException {
    Path f = dir.resolve("t.apc");
    sample().write(f);
    byte[] b = Files.readAllBytes(f);
    byte[] magic = b.clone();
    magic[7] = '2';
    Path m = dir.resolve("m.apc");
    Files.write(m, magic);
    assertTrue(
        assertThrows(DataException.class, () -> ColumnFile.read(m)).getMessage().contains("magic"));

    String text = new String(b, StandardCharsets.ISO_8859_1);
    Path v = dir.resolve("v.apc");
    Files.write(
        v, text.replace("\"version\":1", "\"version\":2").getBytes(StandardCharsets.ISO_8859_1));
    assertTrue(assertThrows(DataException.class, () -> ColumnFile.read(v))
        .getMessage()
        .contains("version"));
    Path t = dir.resolve("type.apc");
    Files.write(
        t,
        text.replace("\"type\":\"f64\"", "\"type\":\"f16\"").getBytes(StandardCharsets.ISO_8859_1));
    assertTrue(
        assertThrows(DataException.class, () -> ColumnFile.read(t)).getMessage().contains("f16"));

    Path c = dir.resolve("code.apc");
    new ColumnFile(
            1,
            List.of(ColumnFile.Column.ofCodes("origin", new int[] {3}, List.of("A", "B"))),
            Map.of())
        .write(c);
    assertTrue(assertThrows(DataException.class, () -> ColumnFile.read(c))
        .getMessage()
        .contains("code 3"));
    assertThrows(DataException.class, () -> ColumnFile.read(dir.resolve("missing.apc")));
  }

  @Test
  void columnsMustHaveNValues() {
    assertThrows(
        IllegalArgumentException.class,
        () -> new ColumnFile(3, List.of(ColumnFile.Column.ofInts("a", new int[2])), Map.of()));
    assertThrows(
        IllegalArgumentException.class,
        () -> new ColumnFile.Column("a", new int[1], new double[1], List.of()));
  }

  /**
   * readRows: inputs in file order (or the order asked for), row-major, i32 values as numbers, the target apart;
   * blocks of 2^20 bytes are crossed (200,000 rows of 8 bytes), and what a regression cannot use is rejected.
   */
  @Test
  void readRowsFillsOneRowMajorArray() {
    int n = 200_000;
    double[] a = new double[n];
    int[] b = new int[n];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      a[i] = 0.5 * i;
      b[i] = -i;
      y[i] = i % 7;
    }
    Path f = dir.resolve("rows.apc");
    new ColumnFile(
            n,
            List.of(
                ColumnFile.Column.ofDoubles("a", a),
                ColumnFile.Column.ofDoubles("y", y),
                ColumnFile.Column.ofInts("b", b)),
            Map.of())
        .write(f);
    ColumnFile.Rows r = ColumnFile.readRows(f, "y", null);
    assertEquals(List.of("a", "b"), r.features());
    assertEquals(n, r.data().n());
    for (int i : new int[] {0, 1, 131_071, 131_072, 131_073, n - 1}) {
      assertEquals(a[i], r.data().x(i, 0), 0.0);
      assertEquals(b[i], r.data().x(i, 1), 0.0);
      assertEquals(y[i], r.data().y()[i], 0.0);
    }
    ColumnFile.Rows swapped = ColumnFile.readRows(f, "target-not-here", List.of("b", "a", "y"));
    assertNull(swapped.data().y());
    assertEquals(b[5], swapped.data().x(5, 0), 0.0);
    assertEquals(y[5], swapped.data().x(5, 2), 0.0);
    assertThrows(DataException.class, () -> ColumnFile.readRows(f, "y", List.of("a")));
    assertThrows(DataException.class, () -> ColumnFile.readRows(f, "y", List.of("a", "b", "c")));
    Path cat = dir.resolve("cat.apc");
    new ColumnFile(
            2,
            List.of(
                ColumnFile.Column.ofDoubles("y", new double[] {1, 2}),
                ColumnFile.Column.ofCodes("airport", new int[] {0, 1}, List.of("SFO", "LAX"))),
            Map.of())
        .write(cat);
    assertThrows(DataException.class, () -> ColumnFile.readRows(cat, "y", null));
    Path nan = dir.resolve("nan.apc");
    new ColumnFile(
            2,
            List.of(
                ColumnFile.Column.ofDoubles("y", new double[] {1, 2}),
                ColumnFile.Column.ofDoubles("x", new double[] {1, Double.NaN})),
            Map.of())
        .write(nan);
    assertThrows(DataException.class, () -> ColumnFile.readRows(nan, "y", null));
    assertTrue(ColumnFile.isColumnFile(f));
    assertTrue(!ColumnFile.isColumnFile(dir.resolve("absent.apc")));
  }
}
