package org.approxgp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.approxgp.anchors.GpmlIonosphere;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code approxgp fit --inducing}: the sparse fit (inducing-point EP, QP, Power EP) through the command line on
 * Ionosphere's GPML anchor split (316 training rows, 33 inputs), against the exact fit of the same command.
 */
class FitSparseTest {
  @TempDir
  static Path dir;

  static Path train;
  static Path test;
  static int n;

  @BeforeAll
  static void copyAnchorSplit() throws IOException {
    train = dir.resolve("train.csv");
    test = dir.resolve("test.csv");
    try (var in = FitSparseTest.class.getResourceAsStream("/anchors/gpml-ionosphere-train.csv")) {
      Files.copy(in, train);
    }
    try (var in = FitSparseTest.class.getResourceAsStream("/anchors/gpml-ionosphere-test.csv")) {
      Files.copy(in, test);
    }
    n = Files.readAllLines(train).size() - 1;
  }

  record Run(int code, String err, List<double[]> rows, JsonNode summary) {}

  static Run fit(String tag, String... extra) throws IOException {
    Path out = dir.resolve("pred-" + tag + ".csv");
    Path sum = dir.resolve("sum-" + tag + ".json");
    List<String> args = new ArrayList<>(List.of(
        "fit",
        "--train",
        train.toString(),
        "--test",
        test.toString(),
        "--label",
        "label",
        "--out",
        out.toString(),
        "--summary",
        sum.toString()));
    args.addAll(List.of(extra));
    StringWriter sw = new StringWriter();
    int code = Main.run(new PrintWriter(sw, true), args.toArray(String[]::new));
    if (code != 0) {
      assertFalse(Files.exists(out), "a failed run wrote " + out);
      return new Run(code, sw.toString(), null, null);
    }
    List<double[]> rows = Files.readAllLines(out).stream()
        .skip(1)
        .map(l -> Arrays.stream(l.split(",")).mapToDouble(Double::parseDouble).toArray())
        .toList();
    return new Run(code, sw.toString(), rows, new ObjectMapper().readTree(sum.toFile()));
  }

  /** The GPML anchor's kernel flags (EP anchor 1: se-iso at GPML's hyperparameters). */
  static List<String> anchorKernel() {
    GpmlIonosphere.Entry e = GpmlIonosphere.entries("ep").get(1);
    List<String> a = new ArrayList<>(
        List.of("--kernel", e.kernel(), "--signal-variance", Double.toString(e.signalVariance())));
    if (e.kernel().equals("se-ard")) {
      a.add("--lengthscales");
      a.add(Arrays.stream(e.lengthscales())
          .mapToObj(Double::toString)
          .collect(Collectors.joining(",")));
    } else {
      a.add("--lengthscale");
      a.add(Double.toString(e.lengthscales()[0]));
    }
    return a;
  }

  static String[] args(List<String> a, String... more) {
    List<String> all = new ArrayList<>(a);
    all.addAll(List.of(more));
    return all.toArray(String[]::new);
  }

  /** Largest |difference| over the prediction rows and the summary's log evidence, test error and NLL. */
  static double worstDifference(Run exact, Run sparse) {
    assertEquals(exact.rows().size(), sparse.rows().size());
    double worst = 0;
    for (int j = 0; j < exact.rows().size(); j++) {
      double[] a = exact.rows().get(j);
      double[] b = sparse.rows().get(j);
      for (int c = 0; c < a.length; c++) {
        worst = Math.max(worst, Math.abs(a[c] - b[c]));
      }
    }
    for (String key : List.of("log_evidence", "test_error", "nll")) {
      worst = Math.max(
          worst,
          Math.abs(
              exact.summary().get(key).asDouble() - sparse.summary().get(key).asDouble()));
    }
    return worst;
  }

  /**
   * {@code --inducing all} puts the inducing inputs at the training inputs (M = n), where each sparse method is its
   * exact counterpart: at GPML's hyperparameters (fixed), every prediction row, the log evidence, the test error and
   * the NLL equal the exact {@code fit}'s.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"ep", "qp", "power-ep"})
  void inducingAtTheTrainingInputsEqualsTheExactFit(String inference) throws IOException {
    List<String> base = new ArrayList<>(anchorKernel());
    base.addAll(List.of("--inference", inference, "--no-optimize"));
    if (inference.equals("power-ep")) {
      base.addAll(List.of("--power", "0.5"));
    }
    Run exact = fit("exact-" + inference, args(base));
    assertEquals(0, exact.code(), exact.err());
    Run sparse = fit("all-" + inference, args(base, "--inducing", "all"));
    assertEquals(0, sparse.code(), sparse.err());
    JsonNode block = sparse.summary().get("sparse");
    assertEquals(n, block.get("inducing").asInt());
    assertEquals("training-inputs", block.get("initialisation").asText());
    assertFalse(block.get("learned_inducing").asBoolean());
    assertEquals(inference.equals("power-ep") ? 0.5 : 1.0, block.get("alpha").asDouble());
    assertEquals(
        switch (inference) {
          case "ep" -> "fitc-ep";
          case "qp" -> "sparse-qp";
          default -> "sparse-power-ep";
        },
        block.get("method").asText());
    assertTrue(exact.summary().get("sparse") == null, "the exact fit has no sparse block");
    double worst = worstDifference(exact, sparse);
    System.out.printf(
        "%s, --inducing all (M = n = %d), fixed θ: largest difference %.2e (log evidence %.6f, test error %.4f,"
            + " nll %.6f; K_uu jitter %s)%n",
        inference,
        n,
        worst,
        sparse.summary().get("log_evidence").asDouble(),
        sparse.summary().get("test_error").asDouble(),
        sparse.summary().get("nll").asDouble(),
        block.get("inducing_jitter").asText());
    assertTrue(worst < 1e-8, "sparse at Z = X differs from exact by " + worst);
  }
}
