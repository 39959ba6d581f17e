package org.approxgp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.approxgp.anchors.GpmlIonosphere;
import org.approxgp.anchors.GpmlIonosphere.Entry;
import org.approxgp.cli.AnchorFits.Run;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The {@code approxgp fit} contract: GPML anchors through the command line, and bad input. */
class FitCommandTest {
  @TempDir
  static Path dir;

  static AnchorFits data;
  static Path train;
  static Path test;

  @BeforeAll
  static void copyAnchorSplit() throws IOException {
    data = AnchorFits.copyTo(dir);
    train = data.train();
    test = data.test();
  }

  static List<Entry> anchorEntries() {
    return GpmlIonosphere.entries().stream()
        .filter(e -> List.of("ep", "laplace").contains(e.inference()))
        .toList();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("anchorEntries")
  void fixedHyperparametersReproduceGpml(Entry e) throws IOException {
    String tag = e.kernel() + "-" + e.setting() + "-" + e.inference();
    Run r = data.fit(
        tag,
        AnchorFits.with(
            AnchorFits.anchorKernel(e),
            "--likelihood",
            "probit",
            "--inference",
            e.inference(),
            "--no-optimize"));
    assertEquals(0, r.code(), r.err());
    assertEquals("latent_mean,latent_variance,p_positive,log_lik", r.header());
    assertEquals(e.latentMean().length, r.rows().size());
    for (int j = 0; j < e.latentMean().length; j++) {
      double[] v = r.rows().get(j);
      assertEquals(e.latentMean()[j], v[0], 1e-5);
      assertEquals(e.latentVariance()[j], v[1], 1e-5);
      assertEquals(e.logLik()[j], v[3], 1e-5);
    }
    double logEv = r.num("log_evidence");
    assertEquals(e.logEvidence(), logEv, 1e-6 * Math.abs(e.logEvidence()));
    assertTrue(
        r.summary().has("test_error") && r.summary().has("nll"), r.summary().toString());
  }

  @Test
  void testFileWithoutLabelGivesNoLogLik() throws IOException {
    Path unl = dir.resolve("unlabelled.csv");
    List<String> l = Files.readAllLines(test);
    Files.write(unl, l.stream().map(s -> s.substring(0, s.lastIndexOf(','))).toList());
    Path out = dir.resolve("pred-unl.csv");
    Path sum = dir.resolve("sum-unl.json");
    Run r = AnchorFits.run(
        "fit",
        "--train",
        train.toString(),
        "--test",
        unl.toString(),
        "--label",
        "label",
        "--no-optimize",
        "--out",
        out.toString(),
        "--summary",
        sum.toString());
    assertEquals(0, r.code(), r.err());
    assertEquals(
        "latent_mean,latent_variance,p_positive", Files.readAllLines(out).get(0));
    assertFalse(Files.readString(sum).contains("test_error"));
  }

  static Stream<Arguments> badInputs() {
    return Stream.of(
        Arguments.of("missing file", "a,b,label\n", "MISSING", "no such file"),
        Arguments.of("empty file", "", null, "empty"),
        Arguments.of("ragged row", "a,b,label\n1,2,1\n3,-1\n4,5,-1\n", null, "row 3"),
        Arguments.of("non-numeric feature", "a,b,label\n1,2,1\n3,x,-1\n", null, "column 'b'"),
        Arguments.of("NaN feature", "a,b,label\n1,NaN,1\n3,4,-1\n", null, "column 'b'"),
        Arguments.of("Inf feature", "a,b,label\n1,2,1\nInfinity,4,-1\n", null, "column 'a'"),
        Arguments.of("unknown label column", "a,b,y\n1,2,1\n3,4,-1\n", null, "label"),
        Arguments.of("one class", "a,b,label\n1,2,1\n3,4,1\n", null, "2 classes"),
        Arguments.of("three classes", "a,b,label\n1,2,1\n3,4,2\n5,6,3\n", null, "2 classes"),
        Arguments.of("duplicate column", "a,a,label\n1,2,1\n3,4,-1\n", null, "duplicate"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badInputs")
  void badTrainingFileFailsCleanly(String name, String content, String special, String mentions)
      throws IOException {
    Path bad = dir.resolve("bad-" + name.replace(' ', '-') + ".csv");
    if (special == null) {
      Files.writeString(bad, content);
    }
    Path out = dir.resolve("out-" + name.replace(' ', '-') + ".csv");
    Path sum = dir.resolve("sum-" + name.replace(' ', '-') + ".json");
    Run r = AnchorFits.run(
        "fit",
        "--train",
        bad.toString(),
        "--test",
        bad.toString(),
        "--label",
        "label",
        "--no-optimize",
        "--out",
        out.toString(),
        "--summary",
        sum.toString());
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains(bad.getFileName().toString()), "names the file: " + r.err());
    assertTrue(
        r.err().toLowerCase().contains(mentions.toLowerCase()),
        "mentions '" + mentions + "': " + r.err());
    assertEquals(1, r.err().strip().lines().count(), "one line: " + r.err());
    assertFalse(Files.exists(out), "no output file");
    assertFalse(Files.exists(sum), "no summary file");
    try (Stream<Path> s = Files.list(dir)) {
      assertTrue(
          s.noneMatch(p -> p.getFileName().toString().endsWith(".tmp")),
          "no temporary left behind");
    }
  }

  @Test
  void poissonSquareFitWritesRatesModesAndNegativeBinomialLogLik() throws IOException {
    Path tr = dir.resolve("counts-train.csv");
    Path te = dir.resolve("counts-test.csv");
    StringBuilder a = new StringBuilder("year,count\n");
    StringBuilder b = new StringBuilder("year,count\n");
    for (int i = 0; i < 40; i++) {
      a.append(i).append(',').append((i * 7) % 4).append('\n');
      b.append(i).append(',').append((i * 5) % 3).append('\n');
    }
    Files.writeString(tr, a);
    Files.writeString(te, b);
    Path out = dir.resolve("counts-pred.csv");
    Path sum = dir.resolve("counts-sum.json");
    Run r = AnchorFits.run(
        "fit",
        "--train",
        tr.toString(),
        "--test",
        te.toString(),
        "--label",
        "count",
        "--likelihood",
        "poisson-square",
        "--inference",
        "ep",
        "--lengthscale",
        "5",
        "--signal-variance",
        "0.3",
        "--prior-mean",
        "1",
        "--no-optimize",
        "--out",
        out.toString(),
        "--summary",
        sum.toString());
    assertEquals(0, r.code(), r.err());
    List<String> lines = Files.readAllLines(out);
    assertEquals("latent_mean,latent_variance,rate_mean,mode,log_lik", lines.get(0));
    double te2 = 0;
    for (int j = 0; j < 40; j++) {
      double[] v = Arrays.stream(lines.get(j + 1).split(","))
          .mapToDouble(Double::parseDouble)
          .toArray();
      assertEquals(v[0] * v[0] + v[1], v[2], 1e-12 * v[2]);
      var nb = org.approxgp.likelihood.NegativeBinomialPredictive.of(v[0], v[1]);
      assertEquals(nb.mode(), v[3]);
      assertEquals(nb.logPmf((j * 5) % 3), v[4], 1e-12);
      te2 += Math.abs((j * 5) % 3 - v[3]);
    }
    String json = Files.readString(sum);
    double teJson =
        Double.parseDouble(json.replaceAll("(?s).*\"test_error\": ([-0-9.eE]+).*", "$1"));
    assertEquals(te2 / 40, teJson, 1e-12);
    // counts must be non-negative integers
    Path bad = dir.resolve("counts-bad.csv");
    Files.writeString(bad, "year,count\n0,1\n1,2.5\n");
    Run r2 = AnchorFits.run(
        "fit",
        "--train",
        bad.toString(),
        "--test",
        te.toString(),
        "--label",
        "count",
        "--likelihood",
        "poisson-square",
        "--no-optimize",
        "--out",
        dir.resolve("counts-bad-pred.csv").toString());
    assertEquals(2, r2.code(), r2.err());
    assertTrue(r2.err().contains("row 3") && r2.err().contains("count"), r2.err());
    assertFalse(Files.exists(dir.resolve("counts-bad-pred.csv")));
  }

  @Test
  void testFileMissingAFeatureColumn() throws IOException {
    Path bad = dir.resolve("test-missing-col.csv");
    List<String> l = Files.readAllLines(test);
    Files.write(bad, l.stream().map(s -> s.substring(s.indexOf(',') + 1)).toList());
    Path out = dir.resolve("out-missing-col.csv");
    Run r = AnchorFits.run(
        "fit",
        "--train",
        train.toString(),
        "--test",
        bad.toString(),
        "--label",
        "label",
        "--no-optimize",
        "--out",
        out.toString());
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains("V1"), r.err());
    assertFalse(Files.exists(out));
  }

  @Test
  void badOptionsAreUsageErrors() {
    Path out = dir.resolve("out-opts.csv");
    String[][] cases = {
      {"--kernel", "matern"},
      {"--inference", "magic"},
      {"--kernel", "se-ard", "--lengthscales", "1,2,3"},
      {"--signal-variance", "-1"},
      {"--likelihood", "cauchy"}
    };
    for (String[] c : cases) {
      List<String> args = new ArrayList<>(List.of(
          "fit",
          "--train",
          train.toString(),
          "--test",
          test.toString(),
          "--label",
          "label",
          "--no-optimize",
          "--out",
          out.toString()));
      args.addAll(List.of(c));
      Run r = AnchorFits.run(args.toArray(String[]::new));
      assertEquals(2, r.code(), Arrays.toString(c) + ": " + r.err());
      assertFalse(Files.exists(out));
    }
    Run r = AnchorFits.run(
        "fit",
        "--train",
        train.toString(),
        "--test",
        test.toString(),
        "--label",
        "label",
        "--out",
        dir.resolve("no/such/dir/p.csv").toString());
    assertEquals(2, r.code(), r.err());
  }

  /**
   * fit with the noisy-step likelihood (EP and QP, fixed hyperparameters) writes the probit-style PRED.csv with
   * p_positive = ε + (1 − 2ε) Φ(μ/σ) (not √(1 + σ²)) and log_lik = log p(y* | μ, σ²) per row.
   */
  @ParameterizedTest(name = "{0}")
  @org.junit.jupiter.params.provider.ValueSource(strings = {"ep", "qp"})
  void noisyStepFitWritesProbabilitiesWithTheStepPredictive(String inference) throws IOException {
    Run r = data.fit(
        "noisy-" + inference,
        List.of(
            "--likelihood",
            "noisy-step",
            "--epsilon",
            "0.1",
            "--inference",
            inference,
            "--lengthscale",
            "2",
            "--no-optimize"));
    assertEquals(0, r.code(), r.err());
    assertEquals("latent_mean,latent_variance,p_positive,log_lik", r.header());
    var lik = org.approxgp.likelihood.NoisyStep.of(0.1);
    for (double[] v : r.rows()) {
      String line = Arrays.toString(v);
      assertTrue(v[1] > 0 && Double.isFinite(v[0]), line);
      double p = 0.1 + 0.8 * org.approxgp.special.Normal.cdf(v[0] / Math.sqrt(v[1]));
      assertEquals(p, v[2], 1e-15, line);
      assertTrue(v[2] > 0.1 && v[2] < 0.9, line);
      double ll = v[3];
      assertTrue(
          Math.abs(ll - Math.log(p)) < 1e-12 || Math.abs(ll - Math.log(1 - p)) < 1e-12, line);
      double label = Math.abs(ll - Math.log(p)) < Math.abs(ll - Math.log(1 - p)) ? 1 : -1;
      assertEquals(lik.logPredictive(label, v[0], v[1]), ll, 1e-12, line);
    }
    assertTrue(
        r.summary().get("likelihood").asText().equals("noisy-step") && r.num("epsilon") == 0.1,
        r.summary().toString());
    System.out.println("noisy-step " + inference + " fit: " + r.err().strip());
  }
}
