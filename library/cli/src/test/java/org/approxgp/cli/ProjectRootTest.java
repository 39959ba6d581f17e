package org.approxgp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line started outside the checkout still takes the checkout's {@code results/} (issue 42, item 7):
 * the project root comes from where the library is installed, not from the working directory.
 */
class ProjectRootTest {

  @TempDir
  Path elsewhere;

  private record Outcome(int exit, String out, String err) {}

  /** {@code approxgp ARGS} in a child JVM whose working directory is {@code cwd}, environment cleared of ours. */
  private static Outcome cli(Path cwd, String... args) throws IOException, InterruptedException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> cmd = new ArrayList<>(
        List.of(java, "-cp", System.getProperty("java.class.path"), Main.class.getName()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile());
    for (String v : List.of(
        "APPROXGP_RESULTS",
        "APPROXGP_HOME",
        "APPROXGP_MODE",
        "APPROXGP_STORED_ONLY",
        "APPROXGP_VERIFY",
        "APPROXGP_ENGINE")) {
      pb.environment().remove(v);
    }
    Path out = Files.createTempFile("approxgp-out", ".txt");
    Path err = Files.createTempFile("approxgp-err", ".txt");
    try {
      pb.redirectOutput(out.toFile()).redirectError(err.toFile());
      int code = pb.start().waitFor();
      return new Outcome(
          code,
          Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  @Test
  void runStartedOutsideTheCheckoutReadsTheShippedStores() throws Exception {
    Outcome o = cli(elsewhere, "run", "qp-mining", "--mode", "full", "--stored-only");
    assertEquals(0, o.exit(), o.out() + o.err());
    assertTrue(o.out().matches("(?s).*: (\\d+) trials, \\1 reused, 0 computed.*"), o.out());
    Path stores =
        org.approxgp.experiment.ProjectPaths.projectRoot().resolve("results").resolve("qp-mining");
    assertTrue(o.out().contains("results in " + stores), "the checkout's store: " + o.out());
    assertFalse(Files.exists(elsewhere.resolve("results")), "no results/ in the working directory");
  }
}
