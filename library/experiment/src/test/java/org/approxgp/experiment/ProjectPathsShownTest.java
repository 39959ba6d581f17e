package org.approxgp.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** {@link ProjectPaths#shown}: reports name paths relative to the project, never by the machine's absolute path. */
class ProjectPathsShownTest {

  @Test
  void insideTheProjectRelativeOutsideAsGiven() {
    Path root = ProjectPaths.projectRoot();
    assertEquals(
        Path.of("results", "qp-mining", "abc.jsonl").toString(),
        ProjectPaths.shown(root.resolve("results/qp-mining/abc.jsonl")));
    assertEquals(
        Path.of("reports", "figures", "f.png").toString(),
        ProjectPaths.shown(root.resolve("reports/figures/../figures/f.png")));
    Path outside = Path.of("/nonexistent-approxgp-test/x.jsonl");
    assertEquals(outside.toString(), ProjectPaths.shown(outside));
  }
}
