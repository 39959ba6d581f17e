package org.approxgp.papers.rep;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.approxgp.experiment.ProjectPaths;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.Table;

class RepSizesTest {

  private static String cell(Table t, String setting, String column) {
    int row = t.stringColumn("setting").asList().indexOf(setting);
    return t.stringColumn(column).get(row);
  }

  @Test
  void uciSetsEachModesSplitsBesideThePapers() {
    Table full = RepSizes.uci(RepUci.Config.forMode(ProjectPaths.Mode.FULL, "keep"));
    assertEquals("100", cell(full, "diabetes: splits", "paper"));
    assertEquals("100", cell(full, "diabetes: splits", "Config.paper()"));
    assertEquals("20", cell(full, "diabetes: splits", "this run"));
    assertEquals("20", cell(full, "heart: splits", "this run"));
    assertEquals("100", cell(full, "spam: repetitions per flip rate", "paper"));
    assertEquals("0, 5, 10, 15, 20", cell(full, "Spam extra flip rates (%)", "this run"));
    assertEquals("0.25, 0.5, 1, 2, 4 (5)", cell(full, "ℓ grid (× √d)", "Config.paper()"));
    assertEquals("0.25, 1, 4 (3)", cell(full, "ℓ grid (× √d)", "this run"));
    assertEquals("0.5, 0.7, 0.9 (3)", cell(full, "Power EP u grid", "this run"));
    assertEquals("3", cell(full, "CV folds", "this run"));
    assertEquals("5", cell(full, "CV folds", "Config.paper()"));
    Table smoke = RepSizes.uci(RepUci.Config.forMode(ProjectPaths.Mode.SMOKE, "clip"));
    assertEquals("1", cell(smoke, "heart: splits", "this run"));
    assertEquals("not run", cell(smoke, "pima: splits", "this run"));
    assertEquals("not run", cell(smoke, "Spam extra flip rates (%)", "this run"));
    assertEquals(
        List.of("heart: splits", "pima: splits", "diabetes: splits", "haberman: splits"),
        smoke.stringColumn("setting").asList().subList(0, 4));
  }

  @Test
  void syntheticSetsEachModesSizesBesideThePapers() {
    Table quick = RepSizes.synthetic(RepSynthetic.Config.forMode(ProjectPaths.Mode.QUICK, "keep"));
    assertEquals("10", cell(quick, "data sets per flip rate", "paper"));
    assertEquals("2", cell(quick, "data sets per flip rate", "this run"));
    assertEquals("100", cell(quick, "training points per class", "this run"));
    assertEquals("200", cell(quick, "training points per class", "Config.paper()"));
    assertEquals("10, 20", cell(quick, "flip rates (%)", "this run"));
    assertEquals("19,800", cell(quick, "test points per class", "Config.paper()"));
    assertEquals("2,000", cell(quick, "test points per class", "this run"));
    assertEquals("1, 3, 10, 30, 100 (5)", cell(quick, "REP c grid", "Config.paper()"));
    assertEquals("10 (1)", cell(quick, "REP c grid", "this run"));
    Table paper = RepSizes.synthetic(RepSynthetic.Config.paper("keep"));
    assertEquals(
        paper.stringColumn("Config.paper()").asList(),
        paper.stringColumn("this run").asList());
  }
}
