package org.approxgp.papers.qp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.approxgp.data.Dataset;
import org.approxgp.data.Standardizer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Table 1 under the authors' protocol: their folds (NumPy's shuffle with seed 10·s), Glass with Id. */
class QpTable1AuthorsTest {

  /** The row order NumPy's shuffle leaves for (seed, n), from numpy/numpy_legacy.txt. */
  static int[] numpyOrder(long seed, int n) throws IOException {
    try (InputStream in =
        QpTable1AuthorsTest.class.getResourceAsStream("/numpy/numpy_legacy.txt")) {
      assertTrue(in != null, "numpy/numpy_legacy.txt missing");
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      for (String l = r.readLine(); l != null; l = r.readLine()) {
        String[] f = l.split(" ");
        if (f[0].equals("shuffle") && Long.parseLong(f[1]) == seed && Integer.parseInt(f[2]) == n) {
          return Arrays.stream(f, 3, f.length).mapToInt(Integer::parseInt).toArray();
        }
      }
    }
    throw new AssertionError("no shuffle line for seed " + seed + ", n " + n);
  }

  @ParameterizedTest(name = "{0}, set {1}")
  @CsvSource({"ionosphere, 0, 351", "crabs, 1, 200", "pima, 99, 732", "wine2, 3, 107"})
  void foldsAreTheOnesNumpyGivesTheAuthors(String name, long set, int n) throws IOException {
    int[] order = numpyOrder(10 * set, n);
    QpTable1.Protocol a = QpTable1.Protocol.authors();
    Dataset data = QpTable1.dataset(name, a);
    assertEquals(n, data.size());
    int l = n / 10;
    for (int fold = 0; fold < 10; fold++) {
      QpTable1.FoldProblem fp = QpTable1.foldProblem(name, "se-iso", set, fold, a);
      int[] test = Arrays.copyOfRange(order, fold * l, fold * l + l);
      int[] train = new int[n - l];
      System.arraycopy(order, 0, train, 0, fold * l);
      System.arraycopy(order, fold * l + l, train, fold * l, n - fold * l - l);
      Standardizer st = Standardizer.fit(data.rows(train).features());
      assertArrayEquals(data.rows(test).target(), fp.yTest(), name + " fold " + fold);
      assertArrayEquals(st.apply(data.rows(test).features()), fp.xTest(), name + " fold " + fold);
      assertArrayEquals(data.rows(train).target(), fp.problem().y(), name + " fold " + fold);
    }
  }

  private static tech.tablesaw.api.Table rows(double te) {
    return tech.tablesaw.api.Table.create(
        "rows",
        tech.tablesaw.api.StringColumn.create("dataset", "glass", "glass"),
        tech.tablesaw.api.StringColumn.create("method", "ep", "ep"),
        tech.tablesaw.api.LongColumn.create("seed", 0, 1),
        tech.tablesaw.api.IntColumn.create("fold", 0, 0),
        tech.tablesaw.api.DoubleColumn.create("te", te, te + 0.02),
        tech.tablesaw.api.DoubleColumn.create("ntll", 0.1, 0.3));
  }

  @Test
  void eachProtocolSummarisesWithItsOwnSdBesideThePaper() {
    var authors = QpTable1Tables.summary(rows(0.01), QpTable1.Protocol.authors());
    var clean = QpTable1Tables.summary(rows(0.05), QpTable1.Protocol.clean());
    assertEquals(1.0, authors.doubleColumn("TE sd").getDouble(0), 1e-9); // np.std of {1, 3}
    assertEquals(Math.sqrt(2), clean.doubleColumn("TE sd").getDouble(0), 1e-9);
    assertEquals(1, authors.rowCount());
    assertEquals(2.0, authors.doubleColumn("TE ×1e-2").getDouble(0), 1e-9);
    assertEquals(6.0, clean.doubleColumn("TE ×1e-2").getDouble(0), 1e-9);
    assertEquals(200.0, clean.doubleColumn("NTLL ×1e-3").getDouble(0), 1e-9);
    assertEquals(1.1, authors.doubleColumn("paper TE").getDouble(0), 1e-9);
    var e = QpTable1Tables.switchEffects(authors, java.util.Map.of("glassId", clean));
    assertEquals(4.0, e.doubleColumn("Δ TE").getDouble(0), 1e-9);
    assertEquals(0.0, e.doubleColumn("Δ NTLL").getDouble(0), 1e-9);
  }

  @Test
  void glassKeepsTheIdColumnOnlyUnderTheAuthorsProtocol() {
    Dataset clean = QpTable1.dataset("glass", QpTable1.Protocol.clean());
    Dataset authors = QpTable1.dataset("glass", QpTable1.Protocol.authors());
    assertEquals(9, clean.dimension());
    assertEquals(10, authors.dimension());
    assertEquals("Id", authors.featureNames().get(0));
    assertEquals(1.0, authors.row(0)[0]);
    assertEquals(214.0, authors.row(213)[0]);
    assertArrayEquals(clean.row(5), Arrays.copyOfRange(authors.row(5), 1, 10));
    assertEquals(
        clean.dimension(),
        QpTable1.dataset("glass", QpTable1.Protocol.authors().withGlassId(false))
            .dimension());
    assertEquals("custom", QpTable1.Protocol.authors().withGlassId(false).name());
  }
}
