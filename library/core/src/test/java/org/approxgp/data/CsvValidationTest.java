package org.approxgp.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every validation error of the CSV loader names file, row (header = row 1) and column. */
class CsvValidationTest {
  @TempDir
  Path dir;

  private String write(String name, String text) throws IOException {
    Path p = dir.resolve(name);
    Files.writeString(p, text, StandardCharsets.UTF_8);
    return p.toString();
  }

  private DataException fails(String path, String target, TargetKind kind) {
    DataException e = assertThrows(DataException.class, () -> Datasets.load(path, target, kind));
    assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
    assertTrue(e.getMessage().startsWith(e.file()), e.getMessage());
    return e;
  }

  private static void assertAt(DataException e, int row, String column, String words) {
    assertEquals(row, e.row(), e.getMessage());
    assertEquals(column, e.column(), e.getMessage());
    assertTrue(e.getMessage().contains(words), e.getMessage());
    if (row > 0) {
      assertTrue(e.getMessage().contains("row " + row), e.getMessage());
    }
    if (column != null) {
      assertTrue(e.getMessage().contains("'" + column + "'"), e.getMessage());
    }
  }

  @Test
  void goodFileLoads() throws IOException {
    String p = write("ok.csv", "a,y,b\r\n1,0.5,2\n\"3\",1.5,4e-1\n\n");
    Dataset d = Datasets.load(p, "y", TargetKind.REAL);
    assertEquals("ok", d.name());
    assertEquals(java.util.List.of("a", "b"), d.featureNames());
    assertArrayEquals(new double[][] {{1, 2}, {3, 0.4}}, d.features());
    assertArrayEquals(new double[] {0.5, 1.5}, d.target());
  }

  @Test
  void missingFile() {
    String p = dir.resolve("nope.csv").toString();
    DataException e = fails(p, "y", TargetKind.REAL);
    assertAt(e, 0, null, "no such file");
    assertEquals(p, e.file());
    DataException unknownName = fails("no-such-dataset", "y", TargetKind.REAL);
    assertTrue(unknownName.getMessage().contains("ionosphere"), unknownName.getMessage());
  }

  @Test
  void emptyFile() throws IOException {
    assertAt(fails(write("empty.csv", ""), "y", TargetKind.REAL), 0, null, "empty file");
    assertAt(fails(write("blank.csv", "\n \n"), "y", TargetKind.REAL), 0, null, "empty file");
    assertAt(fails(write("header.csv", "a,y\n"), "y", TargetKind.REAL), 0, null, "no data rows");
  }

  @Test
  void raggedRows() throws IOException {
    String p = write("ragged.csv", "a,b,y\n1,2,3\n4,5\n");
    assertAt(fails(p, "y", TargetKind.REAL), 3, "y", "ragged row: 2 fields, header has 3");
    String q = write("long.csv", "a,b,y\n1,2,3,4\n");
    assertAt(fails(q, "y", TargetKind.REAL), 2, null, "ragged row: 4 fields");
  }

  @Test
  void nonNumericFeature() throws IOException {
    String p = write("text.csv", "a,b,y\n1,2,0\n1,abc,1\n");
    assertAt(fails(p, "y", TargetKind.REAL), 3, "b", "not a number: 'abc'");
    String q = write("na.csv", "a,b,y\n1,NA,0\n");
    assertAt(fails(q, "y", TargetKind.REAL), 2, "b", "not a number: 'NA'");
    String r = write("blankcell.csv", "a,b,y\n1,,0\n");
    assertAt(fails(r, "y", TargetKind.REAL), 2, "b", "empty cell");
  }

  @Test
  void nanAndInfinityFeatures() throws IOException {
    String p = write("nan.csv", "a,b,y\n1,2,0\n3,4,1\nNaN,5,0\n");
    assertAt(fails(p, "y", TargetKind.REAL), 4, "a", "not a finite decimal number: 'NaN'");
    String q = write("inf.csv", "a,b,y\n1,-Infinity,0\n");
    assertAt(fails(q, "y", TargetKind.REAL), 2, "b", "not a finite decimal number");
    String r = write("big.csv", "a,b,y\n1,1e400,0\n");
    assertAt(fails(r, "y", TargetKind.REAL), 2, "b", "not a finite decimal number");
    String t = write("nantarget.csv", "a,y\n1,NaN\n");
    assertAt(fails(t, "y", TargetKind.REAL), 2, "y", "not a finite decimal number");
  }

  @Test
  void unknownTargetColumn() throws IOException {
    String p = write("t.csv", "a,b,y\n1,2,3\n");
    assertAt(fails(p, "label", TargetKind.REAL), 1, "label", "unknown target column");
  }

  @Test
  void duplicateColumnNames() throws IOException {
    String p = write("dup.csv", "a,b,a,y\n1,2,3,4\n");
    assertAt(fails(p, "y", TargetKind.REAL), 1, "a", "duplicate column name");
    String q = write("noname.csv", "a,,y\n1,2,3\n");
    assertAt(fails(q, "y", TargetKind.REAL), 1, null, "empty column name");
  }

  @Test
  void binaryTargetWithOneClass() throws IOException {
    String p = write("one.csv", "a,y\n1,1\n2,1\n");
    assertAt(fails(p, "y", TargetKind.BINARY), 0, "y", "exactly 2 classes, found 1");
  }

  @Test
  void binaryTargetWithThreeClasses() throws IOException {
    String p = write("three.csv", "a,y\n1,a\n2,b\n3,c\n");
    DataException e = assertThrows(DataException.class, () -> Datasets.loadBinary(p, "y", "a"));
    // the row where the third class first appears is named
    assertAt(e, 4, "y", "exactly 2 classes, found a third class 'c' after 'a' and 'b'");
  }

  @Test
  void binaryPositiveValueAbsent() throws IOException {
    String p = write("pm.csv", "a,y\n1,good\n2,bad\n");
    DataException e = assertThrows(DataException.class, () -> Datasets.loadBinary(p, "y", "ok"));
    assertAt(e, 0, "y", "positive label 'ok'");
  }

  @Test
  void binaryLabelMapping() throws IOException {
    String pm = write("pm.csv", "a,y\n1,+1\n2,-1\n3,1.0\n");
    assertArrayEquals(
        new double[] {1, -1, 1}, Datasets.loadBinary(pm, "y", null).target());
    String zo = write("zo.csv", "a,y\n1,0\n2,1\n");
    assertArrayEquals(
        new double[] {-1, 1}, Datasets.load(zo, "y", TargetKind.BINARY).target());
    String two = write("two.csv", "a,y\n1,2\n2,4\n");
    assertArrayEquals(new double[] {-1, 1}, Datasets.loadBinary(two, "y", null).target());
    assertArrayEquals(new double[] {1, -1}, Datasets.loadBinary(two, "y", "2").target());
    String text = write("text.csv", "a,y\n1,good\n2,bad\n");
    assertArrayEquals(
        new double[] {1, -1}, Datasets.loadBinary(text, "y", "good").target());
    assertArrayEquals(new double[] {1, -1}, Datasets.loadBinary(text, "y", null).target());
    Dataset d = Datasets.loadBinary(text, "y", "bad");
    assertArrayEquals(new double[] {-1, 1}, d.target());
    assertTrue(
        d.provenance().detail().contains("bad -> +1, good -> -1"),
        d.provenance().detail());
  }

  @Test
  void negativeOrFractionalCounts() throws IOException {
    String neg = write("neg.csv", "t,n\n1,0\n2,-1\n");
    assertAt(fails(neg, "n", TargetKind.COUNT), 3, "n", "non-negative integer, found '-1'");
    String frac = write("frac.csv", "t,n\n1,2.5\n");
    assertAt(fails(frac, "n", TargetKind.COUNT), 2, "n", "non-negative integer, found '2.5'");
    String ok = write("ok.csv", "t,n\n1,0\n2,3.0\n");
    assertArrayEquals(
        new double[] {0, 3}, Datasets.load(ok, "n", TargetKind.COUNT).target());
  }

  @Test
  void rfc4180QuotesBomAndLineEnds() throws IOException {
    // BOM stripped; CR, CRLF and LF line ends; a quoted comma stays in its field; "" is one quote
    String p = write("q.csv", "\uFEFF\"x, first\",y\r1,\"say \"\"hi\"\", ok\"\r\n2, \"no\" \n");
    Dataset d = Datasets.loadBinary(p, "y", "no");
    assertEquals(java.util.List.of("x, first"), d.featureNames());
    assertArrayEquals(new double[] {-1, 1}, d.target());
    assertTrue(
        d.provenance().detail().contains("say \"hi\", ok -> -1"), d.provenance().detail());
    // a quoted comma in a feature is one field that is not a number, never two columns
    String c = write("comma.csv", "a,y\n\"1,5\",0\n");
    assertAt(fails(c, "y", TargetKind.REAL), 2, "a", "not a number: '1,5'");
    String u = write("open.csv", "a,y\n1,\"0\n");
    assertAt(fails(u, "y", TargetKind.REAL), 2, "y", "unterminated quoted field");
    String s = write("stray.csv", "a,y\n1\"2,0\n");
    assertAt(fails(s, "y", TargetKind.REAL), 2, "a", "double quote inside an unquoted field");
    String t = write("after.csv", "a,y\n\"1\"2,0\n");
    assertAt(fails(t, "y", TargetKind.REAL), 2, "a", "text after the closing quote");
    String h = write("javasuffix.csv", "a,y\n1d,0\n");
    assertAt(fails(h, "y", TargetKind.REAL), 2, "a", "not a finite decimal number: '1d'");
  }

  @Test
  void messageWithoutRowOrColumn() {
    DataException e = new DataException("f.csv", 0, null, "boom");
    assertEquals("f.csv: boom", e.getMessage());
    assertNull(e.column());
    assertEquals(
        "f.csv: row 7, column 'x': bad", new DataException("f.csv", 7, "x", "bad").getMessage());
  }
}
