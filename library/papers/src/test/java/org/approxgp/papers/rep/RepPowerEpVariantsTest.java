package org.approxgp.papers.rep;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * The paper's Power EP is its appendix C variant: in Figures 1–6 it is labelled "PEP (App. C)" and decides every
 * claim about PEP; Minka's, "PEP (Minka)", is checked beside it and not counted. On constructed tables where the two
 * variants decide differently.
 */
class RepPowerEpVariantsTest {

  @Test
  void labelsNameBothVariantsAndRoundTrip() {
    assertEquals("EP", RepMethods.label("ep"));
    assertEquals("PEP (App. C)", RepMethods.label("power-ep-c"));
    assertEquals("PEP (Minka)", RepMethods.label("power-ep"));
    assertEquals("REP", RepMethods.label("rep"));
    assertEquals("other", RepMethods.label("other"));
    for (String m : RepMethods.METHODS) {
      assertEquals(m, RepMethods.name(RepMethods.label(m)));
      assertEquals(m, RepMethods.name(m));
    }
    assertEquals(List.of("power-ep-c", "power-ep"), RepMethods.POWER_EPS);
    assertEquals(RepMethods.COUNTED, RepMethods.counted("power-ep-c"));
    assertEquals("no (PEP (Minka), beside)", RepMethods.counted("power-ep"));
  }

  /** A Figure 4 summary: EP, PEP (App. C), PEP (Minka), REP at one flip rate. */
  private static Table figure4(double[] sweeps, double[] diverged, double[] error) {
    List<String> labels = RepMethods.METHODS.stream().map(RepMethods::label).toList();
    return Table.create(
        "summary",
        DoubleColumn.create("flip %", 20, 20, 20, 20),
        StringColumn.create("method", labels),
        DoubleColumn.create("sweeps to R<1e-3", sweeps),
        DoubleColumn.create("fraction diverged", diverged),
        DoubleColumn.create("test error", error),
        DoubleColumn.create("test error sd", 0.01, 0.01, 0.01, 0.01));
  }

  @Test
  void figure4IsDecidedByTheAppendixCVariant() {
    // order: EP, PEP (App. C), PEP (Minka), REP. REP beats App. C but not Minka's on sweeps and
    // error; App. C
    // diverges less often than EP, Minka's more often
    Table a = RepSynthetic.agreement(
        figure4(new double[] {60, 50, 20, 30}, new double[] {0.5, 0.2, 0.6, 0}, new double[] {
          0.10, 0.09, 0.07, 0.08
        }));
    assertEquals(6, a.rowCount());
    List<String> counted = a.stringColumn("counted").asList();
    assertEquals(List.of("yes", "yes", "yes"), counted.subList(0, 3));
    assertEquals(
        List.of("PEP (App. C)", "PEP (App. C)", "PEP (App. C)"),
        a.stringColumn("PEP").asList().subList(0, 3));
    assertEquals(
        List.of("yes", "yes", "yes"), a.stringColumn("reproduces").asList().subList(0, 3));
    assertEquals("no (PEP (Minka), beside)", counted.get(3));
    assertEquals(
        List.of("no", "partly (REP never diverges)", "no"),
        a.stringColumn("reproduces").asList().subList(3, 6));
    assertEquals("60.0 / 50.0 / 30.0", a.stringColumn("ours (EP / PEP / REP)").get(0));
    assertEquals("60.0 / 20.0 / 30.0", a.stringColumn("ours (EP / PEP / REP)").get(3));
  }

  @Test
  void aSummaryWithoutMinkasRowsHasOnlyTheCountedVerdicts() {
    Table s = figure4(new double[] {60, 50, 20, 30}, new double[] {0.5, 0.2, 0.6, 0}, new double[] {
      0.10, 0.09, 0.07, 0.08
    });
    Table without = s.where(s.stringColumn("method").isNotEqualTo("PEP (Minka)"));
    Table a = RepSynthetic.agreement(without);
    assertEquals(3, a.rowCount());
    assertEquals(List.of("yes", "yes", "yes"), a.stringColumn("counted").asList());
  }

  @Test
  void figures5And6AreDecidedByTheAppendixCVariant() {
    List<String> labels = RepMethods.METHODS.stream().map(RepMethods::label).toList();
    Table summary = Table.create(
        "summary",
        StringColumn.create("data", "heart", "heart", "heart", "heart"),
        DoubleColumn.create("extra flips %", 0, 0, 0, 0),
        StringColumn.create("method", labels),
        DoubleColumn.create("test error %", 20, 22, 17, 18),
        DoubleColumn.create("sd", 3, 4, 2, 3));
    Table a = RepUci.agreement(summary);
    assertEquals(2, a.rowCount());
    assertEquals("PEP (App. C)", a.stringColumn("PEP").get(0));
    assertEquals("yes", a.stringColumn(RepUci.LOWEST).get(0));
    assertEquals(-4, a.doubleColumn("REP − PEP (pp)").getDouble(0), 1e-12);
    assertEquals(RepMethods.COUNTED, a.stringColumn("counted").get(0));
    assertEquals("PEP (Minka)", a.stringColumn("PEP").get(1));
    assertEquals("no", a.stringColumn(RepUci.LOWEST).get(1));
    assertEquals(1, a.doubleColumn("REP − PEP (pp)").getDouble(1), 1e-12);
    assertEquals(4, a.doubleColumn("largest sd (pp)").getDouble(0), 1e-12);
    assertEquals(3, a.doubleColumn("largest sd (pp)").getDouble(1), 1e-12);
    assertEquals("no (PEP (Minka), beside)", a.stringColumn("counted").get(1));
  }

  /** A Figure 1 sweep over u: the method's row, then EP's, at each u. */
  private static Table sweep(String method, double[] u, double[] mean, double[] cov, double ep) {
    StringColumn m = StringColumn.create("method");
    DoubleColumn par = DoubleColumn.create("parameter");
    DoubleColumn dm = DoubleColumn.create("mean sq. dist");
    DoubleColumn dc = DoubleColumn.create("cov sq. dist");
    for (int i = 0; i < u.length; i++) {
      m.append(RepMethods.label(method)).append("EP");
      par.append(u[i]).append(u[i]);
      dm.append(mean[i]).append(ep);
      dc.append(cov[i]).append(ep);
    }
    return Table.create("sweep", m, par, dm, dc);
  }

  @Test
  void figure1IsDecidedByTheAppendixCVariant() {
    StringColumn method = StringColumn.create("method");
    StringColumn pol = StringColumn.create("negative sites");
    DoubleColumn dist = DoubleColumn.create("mean sq. dist");
    // EP 0.5, PEP (App. C) 0.3, PEP (Minka) 0.7, REP 0.1
    double[] d = {0.5, 0.3, 0.7, 0.1};
    for (int k = 0; k < 4; k++) {
      method.append(RepMethods.label(RepMethods.METHODS.get(k)));
      pol.append("keep");
      dist.append(d[k]);
    }
    Table posteriors = Table.create("post", method, pol, dist);
    double[] u = {0.5, 0.8, 1.0};
    // App. C further than EP (0.5) at every u < 1; Minka's closer at u = 0.5
    Table appC =
        sweep("power-ep-c", u, new double[] {0.6, 0.7, 0.5}, new double[] {0.6, 0.7, 0.5}, 0.5);
    Table minka =
        sweep("power-ep", u, new double[] {0.4, 0.7, 0.5}, new double[] {0.4, 0.7, 0.5}, 0.5);
    Table rep = sweep(
        "rep",
        new double[] {1, 10, 1e4},
        new double[] {0.1, 0.2, 0.5},
        new double[] {0.1, 0.2, 0.5},
        0.5);
    Table a = RepFigure1.agreement(posteriors, appC, minka, rep, "keep");
    assertEquals(
        List.of("1a", "1b–c", "1d–e", "1a", "1b–c"), a.stringColumn("figure").asList());
    assertEquals(
        List.of("yes", "yes", "yes", "no (PEP (Minka), beside)", "no (PEP (Minka), beside)"),
        a.stringColumn("counted").asList());
    assertEquals(
        List.of("yes", "yes", "yes", "partly (REP better than EP)", "mostly"),
        a.stringColumn("reproduces").asList());
    assertEquals("PEP (App. C)", a.stringColumn("PEP").get(0));
    assertEquals("PEP (Minka)", a.stringColumn("PEP").get(4));
    // the chart's table: App. C's rows with EP's, then Minka's rows only
    Table both = RepFigure1.together(appC, minka);
    assertEquals(9, both.rowCount());
    assertEquals(3, both.where(both.stringColumn("method").isEqualTo("EP")).rowCount());
  }

  @Test
  void figure4RulesAsStated() {
    assertEquals("yes", RepSynthetic.fewest(3, 2, 1));
    assertEquals("tie", RepSynthetic.fewest(1, 2, 1));
    assertEquals("no", RepSynthetic.fewest(1, 2, 1.5));
    assertEquals("yes", RepSynthetic.neverDiverges(0.3, 0.2, 0));
    assertEquals("partly (REP never diverges)", RepSynthetic.neverDiverges(0.1, 0.2, 0));
    assertEquals("no", RepSynthetic.neverDiverges(0.1, 0.2, 0.1));
    assertEquals("yes", RepFigure1.alwaysFurther(1, 1));
    assertEquals("mostly", RepFigure1.alwaysFurther(0.5, 1));
    assertEquals("no", RepFigure1.alwaysFurther(0.4, 1));
    assertEquals("yes", RepFigure1.figure1a(0.5, 0.3, 0.1));
    assertEquals("partly (REP better than EP)", RepFigure1.figure1a(0.5, 0.7, 0.1));
    assertEquals("no", RepFigure1.figure1a(0.5, 0.7, 0.6));
  }
}
