package org.approxgp.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class CoalTest {
  @Test
  void countsByFloorOfDecimalDate() {
    int[] c = Coal.yearlyCounts(new double[] {1851.2026, 1851.9, 1853.0, 1853.999}, 1851, 1854);
    assertArrayEquals(new int[] {2, 0, 2, 0}, c);
  }

  @Test
  void committedCoalGives191EventsIn112Years() {
    double[] dates = Datasets.load("coal", "date", TargetKind.REAL).target();
    int[] c = Coal.yearlyCounts(dates, 1851, 1962);
    assertEquals(112, c.length);
    assertEquals(191, Arrays.stream(c).sum());
    assertEquals(4, c[0]); // 1851
  }

  @Test
  void rejectsDatesOutsideTheRange() {
    assertThrows(
        IllegalArgumentException.class,
        () -> Coal.yearlyCounts(new double[] {1850.99}, 1851, 1962));
    assertThrows(
        IllegalArgumentException.class, () -> Coal.yearlyCounts(new double[] {1963.0}, 1851, 1962));
    assertThrows(
        IllegalArgumentException.class,
        () -> Coal.yearlyCounts(new double[] {Double.NaN}, 1851, 1962));
    assertThrows(
        IllegalArgumentException.class, () -> Coal.yearlyCounts(new double[0], 1900, 1899));
  }
}
