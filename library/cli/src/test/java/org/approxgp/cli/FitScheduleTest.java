package org.approxgp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.approxgp.cli.AnchorFits.Run;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code approxgp fit --inducing M --schedule sequential|parallel --damping D --engine local|spark} without the
 * Spark module on the class path (Ionosphere's GPML anchor split): the parallel schedule reaches the sequential
 * schedule's fixed point, the summary names schedule, damping and engine, and each flag given where it does not
 * apply is one line and exit 2. Spark itself: the spark module's {@code SparkSiteBlocksTest}.
 */
class FitScheduleTest {
  @TempDir
  static Path dir;

  static AnchorFits data;

  @BeforeAll
  static void copyAnchorSplit() throws IOException {
    data = AnchorFits.copyTo(dir);
  }

  static Run fit(String tag, String... extra) throws IOException {
    return data.fit(tag, List.of(extra));
  }

  @Test
  void parallelScheduleReachesTheSequentialFixedPoint() throws IOException {
    String[] base = {"--inducing", "30", "--seed", "3", "--no-optimize"};
    Run seq = fit("seq", base);
    assertEquals(0, seq.code(), seq.err());
    List<String> p = new ArrayList<>(List.of(base));
    p.addAll(List.of("--schedule", "parallel", "--max-sweeps", "2000"));
    Run par = fit("par", p.toArray(String[]::new));
    assertEquals(0, par.code(), par.err());
    JsonNode s = seq.summary().get("sparse");
    assertEquals("sequential", s.get("schedule").asText());
    assertEquals(1.0, s.get("damping").asDouble());
    assertEquals("local", s.get("engine").asText());
    JsonNode q = par.summary().get("sparse");
    assertEquals("parallel", q.get("schedule").asText());
    assertEquals(FitCommand.PARALLEL_DAMPING, q.get("damping").asDouble());
    assertEquals("local", q.get("engine").asText());
    assertTrue(par.summary().get("converged").asBoolean(), par.err());
    // both stop when the RMS site change is below 1e-6: the predictions agree to that order, the
    // log evidence (stationary at the fixed point) to about its square
    double worst = 0;
    for (int j = 0; j < seq.rows().size(); j++) {
      for (int c = 0; c < 3; c++) {
        worst = Math.max(worst, Math.abs(seq.rows().get(j)[c] - par.rows().get(j)[c]));
      }
    }
    double evidence = Math.abs(seq.summary().get("log_evidence").asDouble()
        - par.summary().get("log_evidence").asDouble());
    System.out.printf(
        "sequential vs parallel (M = 30): predictions differ by %.2e, log evidence by %.2e%n",
        worst, evidence);
    assertTrue(worst < 1e-5, "predictions differ by " + worst);
    assertTrue(evidence < 1e-8, "log evidence differs by " + evidence);
    Run damped =
        fit("damped", "--inducing", "30", "--seed", "3", "--no-optimize", "--damping", "0.8");
    assertEquals(0, damped.code(), damped.err());
    assertEquals(0.8, damped.summary().get("sparse").get("damping").asDouble());
    assertEquals("sequential", damped.summary().get("sparse").get("schedule").asText());
  }

  @Test
  void flagsWhereTheyDoNotApplyAreOneLine() throws IOException {
    String[][] cases = {
      {"--schedule", "parallel", "--schedule applies to the sparse site loop"},
      {"--inducing", "10", "--schedule", "both", "--schedule must be sequential or parallel"},
      {"--inducing", "10", "--inference", "vb", "--schedule", "parallel", "--schedule applies"},
      {"--inducing", "10", "--damping", "0", "--damping must be in (0, 1]"},
      {"--inducing", "10", "--damping", "1.5", "--damping must be in (0, 1]"},
      {"--master", "local[2]", "--master needs --engine spark"},
      {"--no-optimize", "--engine", "spark", "give --inducing M"},
      {"--no-optimize", "--inducing", "10", "--engine", "spark", "approxgp-spark module"},
      {"--no-optimize", "--inducing", "10", "--engine", "flink", "known: local, spark"},
    };
    for (String[] c : cases) {
      Run r = fit("refused", Arrays.copyOf(c, c.length - 1));
      String flags = String.join(" ", Arrays.copyOf(c, c.length - 1));
      assertEquals(2, r.code(), flags + ": " + r.err());
      assertEquals(1, r.err().strip().lines().count(), flags + ": " + r.err());
      assertTrue(r.err().contains(c[c.length - 1]), flags + ": " + r.err());
    }
  }
}
