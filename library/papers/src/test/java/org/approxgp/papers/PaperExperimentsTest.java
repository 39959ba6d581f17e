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
            "sparse-classification",
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

  /**
   * The stores each notebook reads in full mode ({@code run EXP --compress --stored-only} compresses them all): the
   * mode's own first, every one distinct, each rebuildable from its name and config (so Spark can run it).
   */
  @Test
  void everyConfigANotebookRunsIsAStoreOfItsOwn() {
    ProjectPaths.Mode full = ProjectPaths.Mode.FULL;
    assertEquals(
        List.of("rep-synthetic-keep", "rep-synthetic-clip"),
        ExperimentRegistry.find("rep-synthetic").orElseThrow().allForMode(full).stream()
            .map(Experiment::name)
            .toList());
    assertEquals(
        List.of("rep-uci-keep", "rep-uci-clip"),
        ExperimentRegistry.find("rep-uci").orElseThrow().allForMode(full).stream()
            .map(Experiment::name)
            .toList());
    assertEquals(
        3, ExperimentRegistry.find("qp-table1").orElseThrow().allForMode(full).size());
    assertEquals(
        6, ExperimentRegistry.find("qp-mining").orElseThrow().allForMode(full).size());
    for (ExperimentSpec<?, ?> s : ExperimentRegistry.all()) {
      List<? extends Experiment<?, ?>> all = s.allForMode(full);
      assertEquals(
          ConfigHash.storeHash(s.forMode(full).config()),
          ConfigHash.storeHash(all.get(0).config()),
          s.name());
      assertEquals(
          all.size(),
          all.stream()
              .map(e -> e.name() + "/" + ConfigHash.storeHash(e.config()))
              .distinct()
              .count(),
          s.name());
      for (Experiment<?, ?> e : all) {
        assertEquals(
            ConfigHash.canonical(e.config()),
            ConfigHash.canonical(
                ExperimentRegistry.rebuild(e.name(), e.config()).config()),
            s.name());
      }
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
