package org.approxgp.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link NumpyLegacyRandom} against NumPy's own output ({@code numpy/numpy_legacy.txt}, made by
 * {@code numpy/make_numpy_legacy.py}; the file's header says with which NumPy). Every comparison is exact.
 */
class NumpyLegacyRandomTest {

  /** The reference lines of one kind, split into fields (kind dropped). */
  static List<String[]> lines(String kind) throws IOException {
    List<String[]> out = new ArrayList<>();
    try (InputStream in =
        NumpyLegacyRandomTest.class.getResourceAsStream("/numpy/numpy_legacy.txt")) {
      assertTrue(in != null, "numpy/numpy_legacy.txt missing from test resources");
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      for (String l = r.readLine(); l != null; l = r.readLine()) {
        String[] f = l.trim().split(" ");
        if (!l.startsWith("#") && f[0].equals(kind)) {
          out.add(Arrays.copyOfRange(f, 1, f.length));
        }
      }
    }
    assertTrue(!out.isEmpty(), "no '" + kind + "' lines in the reference file");
    return out;
  }

  @Test
  void rawOutputsEqualNumpys() throws IOException {
    for (String[] f : lines("uint32")) {
      NumpyLegacyRandom r = NumpyLegacyRandom.seed(Long.parseLong(f[0]));
      for (int i = 1; i < f.length; i++) {
        assertEquals(Long.parseLong(f[i]), r.nextUint32(), "seed " + f[0] + ", output " + i);
      }
    }
  }

  @Test
  void randEqualsNumpysDoublesBitForBit() throws IOException {
    for (String[] f : lines("rand")) {
      NumpyLegacyRandom r = NumpyLegacyRandom.seed(Long.parseLong(f[0]));
      for (int i = 1; i < f.length; i++) {
        double expected = Double.parseDouble(f[i]);
        assertEquals(
            Double.doubleToLongBits(expected),
            Double.doubleToLongBits(r.rand()),
            "seed " + f[0] + ", draw " + i);
      }
    }
  }

  @Test
  void coalYearSplitEqualsTheAuthors() throws IOException {
    for (String[] f : lines("mining")) {
      NumpyLegacyRandom r = NumpyLegacyRandom.seed(Long.parseLong(f[0]));
      assertEquals(113, f.length);
      for (int i = 1; i < f.length; i++) {
        assertEquals(f[i].equals("1"), r.rand() > 0.5, "seed " + f[0] + ", year " + (1850 + i));
      }
    }
  }

  @Test
  void shuffleAndPermutationEqualNumpys() throws IOException {
    for (String kind : List.of("shuffle", "permutation")) {
      for (String[] f : lines(kind)) {
        int n = Integer.parseInt(f[1]);
        int[] expected =
            Arrays.stream(f, 2, f.length).mapToInt(Integer::parseInt).toArray();
        assertEquals(n, expected.length);
        assertArrayEquals(
            expected,
            NumpyLegacyRandom.seed(Long.parseLong(f[0])).permutation(n),
            kind + " seed " + f[0] + ", n " + n);
      }
    }
  }

  @Test
  void boundedIntegersEqualNumpysRandint() throws IOException {
    for (String[] f : lines("interval")) {
      NumpyLegacyRandom r = NumpyLegacyRandom.seed(Long.parseLong(f[0]));
      long max = Long.parseLong(f[1]);
      for (int i = 2; i < f.length; i++) {
        assertEquals(Long.parseLong(f[i]), r.interval(max), "seed " + f[0] + ", max " + max);
      }
    }
  }

  @Test
  void authorsFoldsAreCutFromNumpysShuffle() throws IOException {
    // split_data(seed=0) on IonoS's 351 rows: fold i tests shuffled rows [35 i, 35 i + 35)
    String[] f = lines("shuffle").stream()
        .filter(s -> s[0].equals("0") && s[1].equals("351"))
        .findFirst()
        .orElseThrow();
    int[] order = Arrays.stream(f, 2, f.length).mapToInt(Integer::parseInt).toArray();
    List<Split> folds = Splits.kFoldNumpy(351, 10, 0);
    for (int i = 0; i < 10; i++) {
      assertArrayEquals(
          Arrays.copyOfRange(order, 35 * i, 35 * i + 35), folds.get(i).test(), "fold " + i);
      assertEquals(351 - 35, folds.get(i).train().length);
    }
  }

  @Test
  void seedOutsideNumpysRangeIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> NumpyLegacyRandom.seed(-1));
    assertThrows(IllegalArgumentException.class, () -> NumpyLegacyRandom.seed(1L << 32));
  }
}
