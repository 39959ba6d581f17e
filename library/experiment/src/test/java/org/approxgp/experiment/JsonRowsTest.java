package org.approxgp.experiment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonRowsTest {

  /** Doubles from every part of the range: random bit patterns, subnormals, signed zeros, extremes. */
  private static double[] awkwardDoubles(long seed, int n) {
    UniformRandomProvider rng = RandomSource.SPLIT_MIX_64.create(seed);
    double[] fixed = {
      0.0,
      -0.0,
      Double.MIN_VALUE,
      -Double.MIN_VALUE,
      Double.MIN_NORMAL,
      Math.nextDown(Double.MIN_NORMAL),
      Double.MAX_VALUE,
      -Double.MAX_VALUE,
      0.1 + 0.2,
      1.0 / 3,
      1e23,
      2e-323,
      9007199254740993.0,
      3.0,
      Double.NaN,
      Double.POSITIVE_INFINITY,
      Double.NEGATIVE_INFINITY
    };
    double[] out = new double[fixed.length + n];
    System.arraycopy(fixed, 0, out, 0, fixed.length);
    for (int i = fixed.length; i < out.length; i++) {
      double d;
      switch (i % 3) {
        case 0 ->
          d = Double.longBitsToDouble(rng.nextLong()); // any bit pattern (NaN payloads aside)
        case 1 -> d = Double.longBitsToDouble(rng.nextLong() & 0x800F_FFFF_FFFF_FFFFL); // subnormal
        default -> d = (rng.nextDouble() - 0.5) * Math.pow(10, rng.nextInt(40) - 20);
      }
      out[i] = Double.isNaN(d) ? Double.NaN : d;
    }
    return out;
  }

  @Test
  void doublesRoundTripBitExactly() {
    double[] ds = awkwardDoubles(42, 3000);
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < ds.length; i++) {
      m.put("d" + i, ds[i]);
    }
    Map<String, Object> back = JsonRows.read(JsonRows.write(m));
    assertEquals(List.copyOf(m.keySet()), List.copyOf(back.keySet()), "keys in order");
    for (int i = 0; i < ds.length; i++) {
      Object v = back.get("d" + i);
      assertInstanceOf(Double.class, v, "d" + i);
      assertEquals(
          Double.doubleToLongBits(ds[i]),
          Double.doubleToLongBits((Double) v),
          "d" + i + " = " + ds[i]);
    }
  }

  @Test
  void vectorsAreJsonArraysAndRoundTripBitExactly() {
    double[] v = awkwardDoubles(7, 500);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("v", v);
    m.put("empty", new double[0]);
    String line = JsonRows.write(m);
    assertTrue(line.startsWith("{\"v\":[0.0,-0.0,4.9E-324,"), line);
    assertTrue(line.endsWith(",\"empty\":[]}"), line);
    Map<String, Object> back = JsonRows.read(line);
    double[] r = (double[]) back.get("v");
    assertEquals(v.length, r.length);
    for (int i = 0; i < v.length; i++) {
      assertEquals(Double.doubleToLongBits(v[i]), Double.doubleToLongBits(r[i]), "element " + i);
    }
    assertArrayEquals(new double[0], (double[]) back.get("empty"));
    assertArrayEquals(new double[] {1.0, -2.0, 0.5}, (double[])
        JsonRows.read("{\"a\":[1,-2,0.5]}").get("a"));
  }

  @Test
  void everyValueKindKeepsItsType() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("trial", "method=ep;seed=1;fold=0");
    m.put("whole", 3.0);
    m.put("n", 12345678901L);
    m.put("max", Long.MAX_VALUE);
    m.put("min", Long.MIN_VALUE);
    m.put("ok", true);
    m.put("no", false);
    m.put("text \"q\"", "tab\tline\nback\\slash \u0001 é 中 \uD83D\uDE00");
    m.put("nan-string", "NaN");
    m.put("number-string", "1.5");
    String line = JsonRows.write(m);
    assertEquals(-1, line.indexOf('\n'));
    Map<String, Object> back = JsonRows.read(line);
    assertEquals(m, back);
    back.forEach((k, v) -> assertEquals(m.get(k).getClass(), v.getClass(), k));
    Map<String, Object> ints = new LinkedHashMap<>();
    ints.put("i", 7);
    assertEquals(
        Map.of("i", 7L), JsonRows.read(JsonRows.write(ints)), "an Integer is written as a long");
  }

  @Test
  void nonFiniteDoublesAreBareTokens() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("a", Double.NaN);
    m.put("b", Double.POSITIVE_INFINITY);
    m.put("c", Double.NEGATIVE_INFINITY);
    m.put("v", new double[] {Double.NaN, 1.0});
    assertEquals("{\"a\":NaN,\"b\":Infinity,\"c\":-Infinity,\"v\":[NaN,1.0]}", JsonRows.write(m));
    assertEquals(
        "{\n  \"a\": NaN,\n  \"b\": Infinity,\n  \"c\": -Infinity,\n  \"v\": [NaN, 1.0]\n}\n",
        JsonRows.writePretty(m));
  }

  @Test
  void legacyTaggedNonFiniteStringsReadAsDoublesAndCannotBeWrittenAsStrings() {
    Map<String, Object> back = JsonRows.read(
        "{\"a\":\"__d:NaN\",\"b\":\"__d:Infinity\",\"c\":\"__d:-Infinity\",\"d\":\"__d:other\"}");
    assertEquals(Double.NaN, back.get("a"));
    assertEquals(Double.POSITIVE_INFINITY, back.get("b"));
    assertEquals(Double.NEGATIVE_INFINITY, back.get("c"));
    assertEquals("__d:other", back.get("d"), "only the three tags the old writer produced");
    assertThrows(IllegalArgumentException.class, () -> JsonRows.write(Map.of("s", "__d:NaN")));
  }

  @Test
  void everyTruncationIsRejected() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("a", 1.5);
    m.put("b", "xyz");
    m.put("v", new double[] {1.0, Double.NaN});
    m.put("n", -12L);
    m.put("t", true);
    String line = JsonRows.write(m);
    for (int cut = 0; cut < line.length(); cut++) {
      String part = line.substring(0, cut);
      assertThrows(IllegalArgumentException.class, () -> JsonRows.read(part), part);
    }
  }

  @Test
  void malformedOrForeignValuesAreRejected() {
    for (String bad : List.of(
        "{\"a\":1}x",
        "{\"a\":1}{}",
        "[1]",
        "{\"a\":null}",
        "{\"a\":{\"b\":1}}",
        "{\"a\":[\"x\"]}",
        "{\"a\":[[1]]}",
        "{\"a\":1,\"a\":2}",
        "{\"a\":99999999999999999999}",
        "{a:1}",
        "{\"a\":1,}",
        "{\"a\":'x'}")) {
      assertThrows(IllegalArgumentException.class, () -> JsonRows.read(bad), bad);
    }
    assertThrows(IllegalArgumentException.class, () -> JsonRows.write(Map.of("x", new Object())));
    assertThrows(IllegalArgumentException.class, () -> JsonRows.write(Map.of("x", 1.5f)));
  }

  @Test
  void prettyFormKeepsTheSummaryLayout() {
    Map<String, Object> hyp = new LinkedHashMap<>();
    hyp.put("signal_variance", 0.25);
    hyp.put("lengthscales", new double[] {1.5, 2.0});
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("likelihood", "probit");
    m.put("hyperparameters", hyp);
    m.put("iterations", 12);
    m.put("converged", true);
    m.put("active_bounds", List.of("a", "b"));
    m.put("none", List.of());
    m.put("seed", 3L);
    m.put("other", java.time.Duration.ofSeconds(2));
    assertEquals(
        "{\n  \"likelihood\": \"probit\",\n  \"hyperparameters\": {\n    \"signal_variance\": 0.25,\n"
            + "    \"lengthscales\": [1.5, 2.0]\n  },\n  \"iterations\": 12,\n  \"converged\": true,\n"
            + "  \"active_bounds\": [\"a\", \"b\"],\n  \"none\": [],\n  \"seed\": 3,\n  \"other\": \"PT2S\"\n}\n",
        JsonRows.writePretty(m));
  }

  @Test
  void resultRowVectorsCopyCompareAndReadLegacyStrings() {
    double[] v = {1.0, -0.0, Double.NaN};
    ResultRow r = ResultRow.builder()
        .put("v", v)
        .put("old", "0.1 -0.0 NaN 4.9E-324")
        .put("label", "a b")
        .build();
    v[0] = 99;
    assertArrayEquals(
        new double[] {1.0, -0.0, Double.NaN}, r.getDoubles("v"), "the builder copies");
    r.getDoubles("v")[1] = 5;
    assertArrayEquals(new double[] {1.0, -0.0, Double.NaN}, r.getDoubles("v"), "the getter copies");
    assertEquals(
        r,
        ResultRow.builder()
            .put("v", new double[] {1.0, -0.0, Double.NaN})
            .put("old", "0.1 -0.0 NaN 4.9E-324")
            .put("label", "a b")
            .build());
    assertEquals(
        r.hashCode(),
        ResultRow.builder()
            .put("v", new double[] {1.0, -0.0, Double.NaN})
            .put("old", "0.1 -0.0 NaN 4.9E-324")
            .put("label", "a b")
            .build()
            .hashCode());
    assertTrue(
        !r.equals(ResultRow.builder()
            .put("v", new double[] {1.0, 0.0, Double.NaN})
            .put("old", "0.1 -0.0 NaN 4.9E-324")
            .put("label", "a b")
            .build()),
        "-0.0 differs from 0.0");
    assertArrayEquals(new double[] {0.1, -0.0, Double.NaN, 4.9e-324}, r.getDoubles("old"));
    assertThrows(IllegalArgumentException.class, () -> r.getDoubles("label"));
    assertThrows(IllegalArgumentException.class, () -> r.getDoubles("missing"));
  }

  record VecCfg(int n) {}

  @Test
  void vectorRowsGoThroughTheStoreBitExactlyAndShowInTheTable(@TempDir Path dir) {
    Trial<VecCfg, TrialKey> trial = (c, k) -> ResultRow.builder()
        .put("v", java.util.Arrays.copyOf(awkwardDoubles(k.seed(), c.n()), 20 + c.n()))
        .put("s", k.seed())
        .build();
    Experiment<VecCfg, TrialKey> exp =
        Experiment.of("vectors", new VecCfg(5), Experiment.grid(List.of("a"), 3, 1), trial);
    Runner runner =
        Runner.defaults().withResultsRoot(dir).withThreads(2).withProgress(ProgressListener.none());
    Results<TrialKey> first = runner.run(exp);
    Results<TrialKey> again = runner.run(exp);
    assertEquals(3, again.reused());
    assertEquals(first.rows(), again.rows(), "read back from the file equal to the computed rows");
    assertArrayEquals(
        awkwardDoubles(2, 5), java.util.Arrays.copyOf(again.rows().get(2).getDoubles("v"), 22));
    String cell = again.table().stringColumn("v").get(0);
    assertTrue(cell.startsWith("[0.0, -0.0, 4.9E-324, "), cell);
  }
}
