package org.approxgp.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class DatasetTest {
  private static Dataset small() {
    return Dataset.of(
        "s",
        List.of("a", "b"),
        "y",
        new double[][] {{1, 2}, {3, 4}, {5, 6}},
        new double[] {10, 20, 30},
        new Provenance("test", ""));
  }

  @Test
  void defensiveCopies() {
    double[][] x = {{1, 2}};
    double[] y = {3};
    Dataset d = Dataset.of("s", List.of("a", "b"), "y", x, y, new Provenance("t", ""));
    x[0][0] = 99;
    y[0] = 99;
    assertEquals(1.0, d.row(0)[0]);
    assertEquals(3.0, d.target()[0]);
    d.features()[0][0] = 99;
    d.row(0)[0] = 99;
    d.target()[0] = 99;
    assertArrayEquals(new double[][] {{1, 2}}, d.features());
    assertArrayEquals(new double[] {3}, d.target());
    assertThrows(UnsupportedOperationException.class, () -> d.featureNames().add("c"));
  }

  @Test
  void rowsInGivenOrder() {
    Dataset r = small().rows(new int[] {2, 0, 2});
    assertArrayEquals(new double[][] {{5, 6}, {1, 2}, {5, 6}}, r.features());
    assertArrayEquals(new double[] {30, 10, 30}, r.target());
    assertEquals(3, r.size());
    assertThrows(IndexOutOfBoundsException.class, () -> small().rows(new int[] {3}));
  }

  @Test
  void withFeaturesKeepsNamesAndTarget() {
    Dataset d = small().withFeatures(new double[][] {{0, 0}, {1, 1}, {2, 2}});
    assertEquals(List.of("a", "b"), d.featureNames());
    assertArrayEquals(new double[] {10, 20, 30}, d.target());
    Dataset e = small().withFeatures(new double[][] {{0}, {1}, {2}});
    assertEquals(List.of("x1"), e.featureNames());
    assertThrows(
        IllegalArgumentException.class, () -> small().withFeatures(new double[][] {{0, 0}}));
  }

  @Test
  void validatesShapesNamesAndValues() {
    Provenance p = new Provenance("t", "");
    assertThrows(
        IllegalArgumentException.class,
        () ->
            Dataset.of("s", List.of("a", "a"), "y", new double[][] {{1, 2}}, new double[] {1}, p));
    assertThrows(
        IllegalArgumentException.class,
        () -> Dataset.of("s", List.of("a"), "a", new double[][] {{1}}, new double[] {1}, p));
    assertThrows(
        IllegalArgumentException.class,
        () -> Dataset.of("s", List.of("a"), "y", new double[][] {{1}, {2}}, new double[] {1}, p));
    assertThrows(
        IllegalArgumentException.class,
        () -> Dataset.of("s", List.of("a"), "y", new double[][] {{1, 2}}, new double[] {1}, p));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            Dataset.of("s", List.of("a"), "y", new double[][] {{Double.NaN}}, new double[] {1}, p));
    assertThrows(
        IllegalArgumentException.class,
        () -> Dataset.of(
            "s",
            List.of("a"),
            "y",
            new double[][] {{1}},
            new double[] {Double.POSITIVE_INFINITY},
            p));
  }
}
