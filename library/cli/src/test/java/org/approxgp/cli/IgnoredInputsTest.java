package org.approxgp.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.approxgp.data.RegressionData;
import org.junit.jupiter.api.Test;

/** An input whose learned length-scale dwarfs its range is named as ignored in regress's summary. */
class IgnoredInputsTest {

  @Test
  void rangesAreTakenPerInput() {
    RegressionData rows =
        RegressionData.of(new double[][] {{0, 5, 2}, {-1.5, 7, 2}, {2, 6, 2}}, null);
    assertArrayEquals(new double[] {3.5, 2, 0}, RegressInputs.ranges(rows));
  }

  @Test
  void anInputIsIgnoredBeyondAThousandTimesItsRange() {
    List<String> names = List.of("a", "b", "c", "d", "e");
    double[] ranges = {3.5, 3.5, 3.5, 0, 2};
    // VSSGP's 2e15 and 1.2e9 (the report), one at the threshold, a constant input, a
    // relevant one
    double[] l = {2e15, 1.2e9, 3500, 1e20, 1.3};
    assertEquals(List.of("a", "b"), RegressInputs.ignoredInputs(l, ranges, names));
    // an infinite or undefined length-scale is past any threshold
    assertEquals(
        List.of("a"),
        RegressInputs.ignoredInputs(new double[] {Double.NaN, 1, 1, 1, 1}, ranges, names));
  }
}
