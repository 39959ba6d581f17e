package org.approxgp.papers.svbssgp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.approxgp.experiment.ProgressListener;
import org.approxgp.experiment.ProjectPaths;
import org.approxgp.experiment.Results;
import org.approxgp.experiment.Runner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;

class SvbssgpFiguresTest {
  @TempDir
  Path dir;

  /** A tiny config: 400 diamonds rows for every role, 4 iterations. */
  private static SvbssgpFigures.Config tiny() {
    return new SvbssgpFigures.Config(
        List.of(
            new SvbssgpFigures.Role("aimpeak", "diamonds-400", 10, 5, 10, 4, 5, 0, 0),
            new SvbssgpFigures.Role("airline", "diamonds-400", 10, 5, 10, 4, 5, 0, 0),
            new SvbssgpFigures.Role("blog", "diamonds-400", 10, 5, 10, 4, 5, 0, 0)),
        1,
        List.of(0.0, 0.3, 1.0),
        List.of(1, 5),
        2,
        true);
  }

  @Test
  void paperTableIsAsPrinted() {
    assertEquals(10, SvbssgpPaper.TABLE1.size());
    assertEquals(4.73, SvbssgpPaper.table1("aimpeak", "svbssgp").orElseThrow());
    assertEquals(39.49, SvbssgpPaper.table1("airline", "vssgp").orElseThrow());
    assertTrue(Double.isNaN(SvbssgpPaper.table1("airline", "ssgp").orElseThrow()));
    // the transcription agrees with the text's claim that sVBSSGP has the lowest RMSE on both data
    // sets
    for (SvbssgpPaper.Table1Entry e : SvbssgpPaper.TABLE1) {
      assertTrue(Double.isNaN(e.rmse())
          || e.rmse() >= SvbssgpPaper.table1(e.role(), "svbssgp").orElseThrow());
    }
    assertEquals(2000, SvbssgpPaper.setting("airline").partitions());
  }

  @Test
  void keysAndSettings() {
    SvbssgpFigures.Config smoke = SvbssgpFigures.Config.forMode(ProjectPaths.Mode.SMOKE);
    assertEquals(4, SvbssgpFigures.gamma(smoke).trials().size());
    assertEquals(10, SvbssgpFigures.methods(smoke).trials().size());
    SvbssgpFigures.Config full = SvbssgpFigures.Config.forMode(ProjectPaths.Mode.FULL);
    assertEquals(
        5 * 9, SvbssgpFigures.methods(full).trials().size(), "no SSGP on AIRLINE, as the paper");
    assertEquals(2000, full.role("airline").partitions());
    SvbssgpDriver.Settings g =
        SvbssgpFigures.settings(full, new SvbssgpFigures.Key("aimpeak", "svbssgp", "gamma:0.3", 2));
    assertEquals(0.3, g.gamma());
    assertEquals(20, g.samples());
    assertEquals(2, g.seed());
    SvbssgpDriver.Settings r =
        SvbssgpFigures.settings(full, new SvbssgpFigures.Key("blog", "svbssgp", "r:1", 0));
    assertEquals(1, r.samples());
    assertEquals(10, r.features());
    assertTrue(SvbssgpFigures.settings(full, new SvbssgpFigures.Key("aimpeak", "pic", "leaky", 0))
        .leaky());
    assertThrows(
        IllegalArgumentException.class,
        () ->
            SvbssgpFigures.settings(full, new SvbssgpFigures.Key("aimpeak", "pic", "nonsense", 0)));
    assertThrows(IllegalArgumentException.class, () -> SvbssgpFigures.data("iris"));
  }

  @Test
  void experimentsRunStoreAndSummarise() {
    SvbssgpFigures.Config c = tiny();
    Runner runner =
        Runner.defaults().withResultsRoot(dir).withThreads(2).withProgress(ProgressListener.none());
    Results<SvbssgpFigures.Key> gamma = runner.run(SvbssgpFigures.gamma(c));
    Results<SvbssgpFigures.Key> methods = runner.run(SvbssgpFigures.methods(c));
    Results<SvbssgpFigures.Key> samples = runner.run(SvbssgpFigures.samples(c));
    Table traces = SvbssgpFigures.traces(gamma);
    assertEquals(3 * 2, traces.rowCount(), "3 γ × iterations 2 and 4");
    Table t1 = SvbssgpFigures.table1(methods);
    assertEquals(10, t1.rowCount());
    assertEquals(
        4.73,
        t1.where(t1.stringColumn("role")
                .isEqualTo("aimpeak")
                .and(t1.stringColumn("method").isEqualTo("svbssgp")))
            .doubleColumn("paper RMSE")
            .get(0));
    List<SvbssgpAgreement.Check> checks = SvbssgpAgreement.agreement(gamma, methods, samples);
    assertEquals(SvbssgpPaper.CLAIMS.size(), checks.size());
    // stored rows are reused and give the same traces
    Results<SvbssgpFigures.Key> again = runner.run(SvbssgpFigures.gamma(c));
    assertEquals(gamma.keys().size(), again.reused());
    assertEquals(
        traces.doubleColumn("rmse").asList(),
        SvbssgpFigures.traces(again).doubleColumn("rmse").asList());
  }

  /** Rows of the samples experiment: per split, the final RMSE at r = 1, 5, 20 from {@code rmse}. */
  private static Table samplesRows(String role, double[][] rmse) {
    tech.tablesaw.api.StringColumn roles = tech.tablesaw.api.StringColumn.create("role");
    tech.tablesaw.api.StringColumn settings = tech.tablesaw.api.StringColumn.create("setting");
    tech.tablesaw.api.LongColumn splits = tech.tablesaw.api.LongColumn.create("split");
    tech.tablesaw.api.DoubleColumn values = tech.tablesaw.api.DoubleColumn.create("final_rmse");
    int[] rs = {1, 5, 20};
    for (int s = 0; s < rmse.length; s++) {
      for (int j = 0; j < rs.length; j++) {
        roles.append(role);
        settings.append("r:" + rs[j]);
        splits.append(s);
        values.append(rmse[s][j]);
      }
    }
    return Table.create("samples", roles, settings, splits, values);
  }

  @Test
  void figure3IsDecidedByPairedDifferencesOverSplitsNotByMonotoneMeans() {
    // the case: r = 1, 5, 20 at one RMSE is no evidence that r = 1 is poorest
    Table equal =
        samplesRows("aimpeak", new double[][] {{30.74, 30.74, 30.74}, {31.0, 31.0, 31.0}});
    assertEquals(
        org.approxgp.papers.Verdict.Outcome.UNDECIDED,
        SvbssgpAgreement.fewestMinusMostSamples(equal, "aimpeak").outcome());
    Table worse = samplesRows("blog", new double[][] {
      {0.122, 0.121, 0.119}, {0.123, 0.120, 0.120}, {0.116, 0.114, 0.114}, {0.125, 0.121, 0.122}
    });
    assertEquals(
        org.approxgp.papers.Verdict.Outcome.REPRODUCES,
        SvbssgpAgreement.fewestMinusMostSamples(worse, "blog").outcome());
    Table better = samplesRows("blog", new double[][] {
      {0.110, 0.121, 0.119}, {0.111, 0.120, 0.120}, {0.109, 0.114, 0.114}, {0.112, 0.121, 0.122}
    });
    assertEquals(
        org.approxgp.papers.Verdict.Outcome.CONTRADICTS,
        SvbssgpAgreement.fewestMinusMostSamples(better, "blog").outcome());
  }

  @Test
  void linearR2() {
    assertEquals(
        1.0,
        SvbssgpAgreement.linearR2(new double[] {1, 2, 3, 4}, new double[] {3, 5, 7, 9}),
        1e-12);
    assertTrue(
        SvbssgpAgreement.linearR2(new double[] {1, 2, 3, 4}, new double[] {0, 5, 0, 5}) < 0.5);
  }

  /** A figure's series within the ± over splits of the lowest are named; a lone split says it cannot compare. */
  @Test
  void tiedWithBestNamesTheSeriesWithinTheSpread() {
    Table t = Table.create(
        "s",
        tech.tablesaw.api.StringColumn.create("method", "svbssgp", "dtc", "pic"),
        tech.tablesaw.api.DoubleColumn.create("final_rmse mean", 30.0, 30.4, 32.0),
        tech.tablesaw.api.DoubleColumn.create("final_rmse sd", 0.5, 0.2, 0.3));
    assertEquals(
        " (within ± sd over splits of the lowest: dtc)",
        SvbssgpAgreement.tiedWithBest(t, "method"));
    Table apart = Table.create(
        "s",
        tech.tablesaw.api.StringColumn.create("method", "svbssgp", "dtc"),
        tech.tablesaw.api.DoubleColumn.create("final_rmse mean", 30.0, 31.0),
        tech.tablesaw.api.DoubleColumn.create("final_rmse sd", 0.5, 0.2));
    assertEquals("", SvbssgpAgreement.tiedWithBest(apart, "method"));
    Table one = Table.create(
        "s",
        tech.tablesaw.api.StringColumn.create("method", "svbssgp", "dtc"),
        tech.tablesaw.api.DoubleColumn.create("final_rmse mean", 30.0, 31.0),
        tech.tablesaw.api.DoubleColumn.create("final_rmse sd", Double.NaN, Double.NaN));
    assertEquals(" (one split: no ± to compare)", SvbssgpAgreement.tiedWithBest(one, "method"));
  }
}
