package org.approxgp.papers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.approxgp.experiment.ConfigHash;
import org.approxgp.experiment.Experiment;
import org.approxgp.experiment.ExperimentRegistry;
import org.approxgp.experiment.ExperimentSpec;
import org.approxgp.experiment.ProjectPaths;
import org.approxgp.experiment.SmokePipeline;
import org.approxgp.experiment.TrialKeys;
import org.junit.jupiter.api.Test;

/** The experiment registry: the papers' catalog is found, every entry builds, and rebuilds from its config. */
class PaperExperimentsTest {

  @Test
  void registersTheNotebooksExperimentsUnderTheirNames() {
    assertEquals(
        List.of(
            "compare",
            "qp-figure1",
            "qp-mining",
            "qp-table1",
            "qp-table1-ard",
            "rep-readings",
            "rep-synthetic",
            "rep-synthetic-figures",
            "rep-uci",
            "smoke-pipeline",
            "svbssgp-gamma",
            "svbssgp-methods",
            "svbssgp-partitions",
            "svbssgp-samples"),
        ExperimentRegistry.names());
  }

  @Test
  void everyEntryBuildsEachMode() {
    for (ExperimentSpec<?, ?> s : ExperimentRegistry.all()) {
      int previous = 0;
      for (ProjectPaths.Mode m : ProjectPaths.Mode.values()) {
        Experiment<?, ?> e = s.forMode(m);
        assertFalse(e.trials().isEmpty(), s.name() + " " + m);
        assertTrue(
            e.trials().size() >= previous,
            s.name() + ": " + m + " has fewer trials than the mode before");
        previous = e.trials().size();
      }
    }
  }

  @Test
  void rebuildFromNameAndConfigGivesTheSameTrials() {
    for (ExperimentSpec<?, ?> s : ExperimentRegistry.all()) {
      Experiment<?, ?> e = s.forMode(ProjectPaths.Mode.SMOKE);
      Experiment<?, ?> r = ExperimentRegistry.rebuild(e.name(), e.config());
      assertEquals(ConfigHash.canonical(e.config()), ConfigHash.canonical(r.config()), s.name());
      assertEquals(
          e.trials().stream().map(TrialKeys::id).toList(),
          r.trials().stream().map(TrialKeys::id).toList(),
          s.name());
    }
  }

  @Test
  void rebuildOfAnUnregisteredExperimentNamesTheRegistry() {
    var config = SmokePipeline.Config.forMode(ProjectPaths.Mode.SMOKE);
    var ex = assertThrows(
        IllegalArgumentException.class, () -> ExperimentRegistry.rebuild("no-such", config));
    assertTrue(
        ex.getMessage().contains("no registered experiment builds 'no-such'"), ex.getMessage());
    // the right name with a config of another experiment is refused too
    assertThrows(
        IllegalArgumentException.class, () -> ExperimentRegistry.rebuild("qp-mining", config));
  }
}
