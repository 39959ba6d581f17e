package org.approxgp.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Pins every committed CSV (read from ../datasets relative to the library module) and its loading. */
class CommittedDatasetsTest {
  private static final Path DIR = Path.of("..", "..", "datasets");

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    // name, target, rows, features, rows with target 1 (or -1 for heart-scale: +1), sha256
    "breast-cancer,         Class,    683, 9,  239,  938eeaa4813c4d75b4606b46a3efc4dec7a68c0f7d0b34387534faf98c2ad8f7",
    "crabs,                 sex,      200, 7,  100,  406cccc0e28e33a09dad10c62eaac33816a280a87b69a1ffa40b866e50756f7b",
    "heart-scale,           label,    270, 13, 120,  dc061d096f5ddb34a9b9809f8b756dcc455756bf3494ae517013c10692db404f",
    "ionosphere,            Class,    351, 34, 225,  c68ac12df56be32006da5104c5ee6c21b92f91c8e7acdd97a61bc8f4c301fdb1",
    "pima-indians-diabetes, diabetes, 768, 8,  268,  fb921ad6e7a338044c272cede111fa19a433b9cc86e41a0347e83753869a19b5",
    "pima-mass,             type,     532, 7,  177,  0720aea109b5573c2d4dfaf864c074c4baacbacdc9a4f24daf84ef039bdb2085",
    "pima-tr2,              type,     200, 7,  68,   c7cdb935ed420913468053707b35852b45b236e89653631b8d311a648a3613aa",
    "rotterdam,             survived5, 2837, 3, 2084, 3a22ffdf426cb422d771a69a70c93d2429321f7b1059f8d2df7cb71e20dce50b",
    "sonar,                 Class,    208, 60, 97,   57e0b13c11e68748d8346ace252b17d4a824d3c907d6ac38e8de67064ea88e21",
    "spam,                  type,     4601, 57, 1813, 49d67b5369d26e27eead583bf951f1d28e63b8dd075765b6df33c7a91d25c623",
  })
  void binaryFilesArePinned(String name, String target, int rows, int d, int positives, String sha)
      throws IOException {
    Path file = DIR.resolve(name + ".csv");
    assertEquals(sha, CsvText.sha256(Files.readAllBytes(file)), "sha256 of " + file);
    Dataset byName = Datasets.loadBinary(name, target, null);
    assertEquals(rows, byName.size());
    assertEquals(d, byName.dimension());
    assertEquals(target, byName.targetName());
    long pos = java.util.Arrays.stream(byName.target()).filter(v -> v == 1).count();
    assertEquals(positives, pos);
    assertTrue(byName.provenance().detail().contains(sha), byName.provenance().toString());
    Dataset byPath = Datasets.loadBinary(file.toString(), target, null);
    assertArrayEquals(byName.features(), byPath.features());
    assertArrayEquals(byName.target(), byPath.target());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "coal,  date,  191, 0,  caf1eaec4d0ed3c01cc1664813478cd3b79dd9588747c82cd98c225e8c40f73e",
    "coal-authors, count, 112, 1, ff472ea9b3ac20e2cf54b62ca3f059e9c81d5601ef12f9f2fe6a1018f499f864",
    "glass, Type,  214, 9,  2149f02ac25f885c7c5eb83c0555a9729242791a2b37c5a6386604ba570680c7",
    "wine,  class, 178, 13, 7db7ba766e08efb197208c47206451b2e0c1553df5390b18266442b12ffb96a8",
    "diamonds, price, 53940, 26, 23469f97b7dc29a004687767f78829945e24d6f642af62830d78bbc981490881",
  })
  void multiClassAndRealFilesArePinned(String name, String target, int rows, int d, String sha)
      throws IOException {
    assertEquals(sha, CsvText.sha256(Files.readAllBytes(DIR.resolve(name + ".csv"))));
    Dataset ds = Datasets.load(name, target, TargetKind.REAL);
    assertEquals(rows, ds.size());
    assertEquals(d, ds.dimension());
  }

  @Test
  void registryListsExactlyTheCommittedFiles() throws IOException {
    try (Stream<Path> s = Files.list(DIR)) {
      List<String> onDisk = s.map(p -> p.getFileName().toString())
          .filter(f -> f.endsWith(".csv"))
          .map(f -> f.substring(0, f.length() - 4))
          .sorted()
          .collect(Collectors.toList());
      assertEquals(onDisk, Datasets.names());
    }
    assertEquals(new TreeSet<>(Datasets.names()).stream().toList(), Datasets.names(), "sorted");
  }

  @Test
  void diamondsOneHotHasOneLevelPerFactorAndLogPrice() {
    RegressionSet s = RegressionDatasets.diamonds(true);
    assertEquals(53_940, s.size());
    assertEquals(26, s.data().d());
    assertEquals("log_price", s.targetName());
    List<String> f = s.featureNames();
    assertEquals(List.of("carat", "depth", "table", "x", "y", "z"), f.subList(0, 6));
    assertEquals("cut_Very_Good", f.get(8));
    assertEquals("clarity_IF", f.get(25));
    int[][] groups = {{6, 11}, {11, 18}, {18, 26}}; // cut (5), color (7), clarity (8)
    int[] ideal = new int[1];
    for (int i = 0; i < s.size(); i++) {
      for (int[] g : groups) {
        double sum = 0;
        for (int j = g[0]; j < g[1]; j++) {
          double v = s.data().x(i, j);
          assertTrue(v == 0 || v == 1);
          sum += v;
        }
        assertEquals(1.0, sum, "row " + i);
      }
      ideal[0] += (int) s.data().x(i, 10);
    }
    assertEquals(21_551, ideal[0], "ggplot2's count of Ideal cuts");
    // first row: 0.23 carat, Ideal, E, SI2, price 326
    assertEquals(Math.log(326), s.data().y()[0]);
    assertEquals(0.23, s.data().x(0, 0));
    Dataset raw = Datasets.load("diamonds", "price", TargetKind.REAL);
    assertEquals(326.0, raw.target()[0]);
    assertEquals(18_823.0, java.util.Arrays.stream(raw.target()).max().orElseThrow());
    assertEquals("price", RegressionDatasets.diamonds(false).targetName());
  }

  @Test
  void ionosphereKeepsConstantSecondColumn() {
    Dataset d = Datasets.loadBinary("ionosphere", "Class", null);
    assertEquals("V2", d.featureNames().get(1));
    for (double[] r : d.features()) {
      assertEquals(0.0, r[1]);
    }
  }

  @Test
  void pimaTr2RowsDuplicatePimaTr() {
    Dataset trte = Datasets.loadBinary("pima-mass", "type", "1");
    Dataset tr2 = Datasets.loadBinary("pima-tr2", "type", "1");
    int[] first200 = java.util.stream.IntStream.range(0, 200).toArray();
    assertArrayEquals(trte.rows(first200).features(), tr2.features());
    assertArrayEquals(trte.rows(first200).target(), tr2.target());
  }

  @Test
  void pimaAsInTheQpPaperAndDeduplicated() {
    Dataset authors = Datasets.pimaQp(false);
    assertEquals(732, authors.size());
    assertEquals(7, authors.dimension());
    Dataset dedup = Datasets.pimaQp(true);
    assertEquals(532, dedup.size());
    // order tr, tr2, te: rows 0..199 equal rows 200..399
    for (int i = 0; i < 200; i++) {
      assertArrayEquals(authors.row(i), authors.row(200 + i));
    }
    assertArrayEquals(dedup.row(200), authors.row(400));
  }

  @Test
  void winePairsAndGlassOneVsRestHaveThePapersSizes() {
    Dataset wine = Datasets.load("wine", "class", TargetKind.REAL);
    assertEquals(130, Datasets.classPair(wine, 1, 2).size());
    assertEquals(107, Datasets.classPair(wine, 1, 3).size());
    assertEquals(119, Datasets.classPair(wine, 2, 3).size());
    Dataset w12 = Datasets.classPair(wine, 1, 2);
    assertEquals(71, java.util.Arrays.stream(w12.target()).filter(v -> v == 1).count());
    assertEquals(59, java.util.Arrays.stream(w12.target()).filter(v -> v == -1).count());
    assertEquals("wine-1v2", w12.name());

    Dataset glass = Datasets.binarize(Datasets.load("glass", "Type", TargetKind.COUNT), t -> t > 4);
    assertEquals(214, glass.size());
    assertEquals(51, java.util.Arrays.stream(glass.target()).filter(v -> v == 1).count());
  }

  @Test
  void coalYearlyCountsCover112YearsAnd191Events() {
    Dataset c = Datasets.coalYearlyCounts();
    assertEquals(112, c.size());
    assertEquals(1, c.dimension());
    assertEquals(1851.0, c.row(0)[0]);
    assertEquals(1962.0, c.row(111)[0]);
    assertEquals(191.0, java.util.Arrays.stream(c.target()).sum());
    Dataset asCounts = Datasets.load("coal", "date", TargetKind.REAL);
    assertEquals(191, asCounts.size());
  }

  @Test
  void authorsYearlyCountsDifferFromBootsOnlyIn1941And1942() {
    Dataset a = Datasets.coalYearlyCountsAuthors();
    Dataset b = Datasets.coalYearlyCounts();
    assertEquals(112, a.size());
    assertEquals(191.0, java.util.Arrays.stream(a.target()).sum());
    List<String> differ = new java.util.ArrayList<>();
    for (int i = 0; i < 112; i++) {
      assertEquals(b.row(i)[0], a.row(i)[0], "year of row " + i);
      if (a.target()[i] != b.target()[i]) {
        differ.add((int) a.row(i)[0] + ": " + (int) a.target()[i] + " vs " + (int) b.target()[i]);
      }
    }
    assertEquals(List.of("1941: 4 vs 3", "1942: 2 vs 3"), differ);
  }

  @Test
  void heartScaleIsWithinMinusOneOne() {
    for (double[] r : Datasets.loadBinary("heart-scale", "label", null).features()) {
      for (double v : r) {
        assertTrue(v >= -1 && v <= 1, "value " + v);
      }
    }
  }
}
