package org.approxgp.papers.qp;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.approxgp.experiment.Summaries;
import org.approxgp.papers.qp.QpTable1.Protocol;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * QP Table 1's tables from its stored rows ({@link QpTable1}): the paper's layout with the paper's numbers beside
 * ours, the two protocols side by side, the effect of each protocol difference, where QP beats EP, and where ours
 * agrees with the paper.
 */
public final class QpTable1Tables {
  private QpTable1Tables() {}

  /**
   * Table 1 as the paper reports it: per data set and method, TE and NTLL averaged over the folds of
   * each seed, then mean ± sd over seeds (×10⁻² and ×10⁻³), with the paper's numbers beside ours.
   */
  public static Table summary(Table rows) {
    return summary(rows, Protocol.clean());
  }

  /** As {@link #summary(Table)} with the ± of {@code protocol}. */
  public static Table summary(Table rows, Protocol protocol) {
    // (dataset, method) → seed → [sum te, sum ntll, count]
    Map<String, Map<String, TreeMap<Long, double[]>>> acc = new LinkedHashMap<>();
    for (int i = 0; i < rows.rowCount(); i++) {
      String d = rows.stringColumn("dataset").get(i);
      String m = rows.stringColumn("method").get(i);
      long seed = rows.longColumn("seed").get(i);
      double[] a = acc.computeIfAbsent(d, x -> new LinkedHashMap<>())
          .computeIfAbsent(m, x -> new TreeMap<>())
          .computeIfAbsent(seed, x -> new double[3]);
      a[0] += rows.doubleColumn("te").get(i);
      a[1] += rows.doubleColumn("ntll").get(i);
      a[2] += 1;
    }
    StringColumn ds = StringColumn.create("data");
    StringColumn ms = StringColumn.create("method");
    DoubleColumn seeds = DoubleColumn.create("seeds");
    DoubleColumn te = DoubleColumn.create("TE ×1e-2");
    DoubleColumn teSd = DoubleColumn.create("TE sd");
    DoubleColumn paperTe = DoubleColumn.create("paper TE");
    DoubleColumn nt = DoubleColumn.create("NTLL ×1e-3");
    DoubleColumn ntSd = DoubleColumn.create("NTLL sd");
    DoubleColumn paperNt = DoubleColumn.create("paper NTLL");
    acc.forEach((d, byMethod) -> byMethod.forEach((m, bySeed) -> {
      double[] teSeeds = bySeed.values().stream().mapToDouble(a -> a[0] / a[2]).toArray();
      double[] ntSeeds = bySeed.values().stream().mapToDouble(a -> a[1] / a[2]).toArray();
      ds.append(d);
      ms.append(m);
      seeds.append(teSeeds.length);
      te.append(100 * Summaries.mean(teSeeds));
      teSd.append(100 * protocol.sd(teSeeds));
      nt.append(1000 * Summaries.mean(ntSeeds));
      ntSd.append(1000 * protocol.sd(ntSeeds));
      var paper = QpPaper.table1(d, m);
      paperTe.append(paper.map(p -> p.te().mean()).orElse(Double.NaN));
      paperNt.append(paper.map(p -> p.ntll().mean()).orElse(Double.NaN));
    }));
    return Table.create(
        "Table 1 (ours beside the paper's)", ds, ms, seeds, te, teSd, paperTe, nt, ntSd, paperNt);
  }

  /**
   * Explanation table: per switch and (data set, method) the change in mean TE and NTLL when that one
   * switch is flipped, from two {@link #summary} tables each (the base and the run with the switch flipped).
   */
  public static Table switchEffects(Table baseSummary, Map<String, Table> flippedSummaries) {
    StringColumn sw = StringColumn.create("switch flipped");
    StringColumn ds = StringColumn.create("data");
    StringColumn ms = StringColumn.create("method");
    DoubleColumn te0 = DoubleColumn.create("TE base");
    DoubleColumn dte = DoubleColumn.create("Δ TE");
    DoubleColumn nt0 = DoubleColumn.create("NTLL base");
    DoubleColumn dnt = DoubleColumn.create("Δ NTLL");
    flippedSummaries.forEach((name, f) -> {
      for (int i = 0; i < f.rowCount(); i++) {
        String d = f.stringColumn("data").get(i);
        String m = f.stringColumn("method").get(i);
        for (int j = 0; j < baseSummary.rowCount(); j++) {
          if (baseSummary.stringColumn("data").get(j).equals(d)
              && baseSummary.stringColumn("method").get(j).equals(m)) {
            double t0 = baseSummary.doubleColumn("TE ×1e-2").getDouble(j);
            double n0 = baseSummary.doubleColumn("NTLL ×1e-3").getDouble(j);
            sw.append(name);
            ds.append(d);
            ms.append(m);
            te0.append(t0);
            nt0.append(n0);
            dte.append(f.doubleColumn("TE ×1e-2").getDouble(i) - t0);
            dnt.append(f.doubleColumn("NTLL ×1e-3").getDouble(i) - n0);
          }
        }
      }
    });
    return Table.create(
        "effect of each difference alone (TE ×1e-2, NTLL ×1e-3)", sw, ds, ms, te0, dte, nt0, dnt);
  }

  /**
   * The asterisk criterion: per data set, the fraction of (seed, fold) experiments where QP's NTLL is
   * below EP's (the paper stars a row when this exceeds 90%).
   */
  public static Table qpBeatsEp(Table rows) {
    Map<String, Map<String, double[]>> byKey = new LinkedHashMap<>();
    for (int i = 0; i < rows.rowCount(); i++) {
      String d = rows.stringColumn("dataset").get(i);
      String m = rows.stringColumn("method").get(i);
      String k = rows.longColumn("seed").get(i) + "/" + rows.intColumn("fold").get(i);
      double[] v = byKey.computeIfAbsent(d, x -> new LinkedHashMap<>()).computeIfAbsent(k, x ->
          new double[] {Double.NaN, Double.NaN});
      if (m.equals("ep")) {
        v[0] = rows.doubleColumn("ntll").get(i);
      } else if (m.equals("qp")) {
        v[1] = rows.doubleColumn("ntll").get(i);
      }
    }
    StringColumn ds = StringColumn.create("data");
    DoubleColumn n = DoubleColumn.create("experiments");
    DoubleColumn frac = DoubleColumn.create("QP NTLL < EP NTLL (fraction)");
    StringColumn star = StringColumn.create("star (> 0.9)");
    byKey.forEach((d, m) -> {
      int total = 0;
      int wins = 0;
      for (double[] v : m.values()) {
        if (!Double.isNaN(v[0]) && !Double.isNaN(v[1])) {
          total++;
          wins += v[1] < v[0] ? 1 : 0;
        }
      }
      if (total > 0) {
        ds.append(d);
        n.append(total);
        frac.append((double) wins / total);
        star.append((double) wins / total > 0.9 ? "*" : "");
      }
    });
    return Table.create("QP vs EP per experiment", ds, n, frac, star);
  }

  /**
   * Where ours agrees with the paper: for each row of a {@link #summary} table with paper numbers, the
   * difference ours − paper for TE and NTLL and whether it lies within two combined standard
   * deviations, 2·√(sd_paper² + sd_ours²) (sd_ours taken as 0 when only one seed ran).
   */
  public static Table agreement(Table summary) {
    StringColumn ds = StringColumn.create("data");
    StringColumn ms = StringColumn.create("method");
    DoubleColumn dte = DoubleColumn.create("TE diff ×1e-2");
    StringColumn ate = StringColumn.create("TE agrees");
    DoubleColumn dnt = DoubleColumn.create("NTLL diff ×1e-3");
    StringColumn ant = StringColumn.create("NTLL agrees");
    for (int i = 0; i < summary.rowCount(); i++) {
      String d = dataOf(summary, i);
      String m = summary.stringColumn("method").get(i);
      var entry = QpPaper.table1(d, m);
      if (entry.isEmpty()) {
        continue;
      }
      QpPaper.Stat pte = entry.get().te();
      QpPaper.Stat pnt = entry.get().ntll();
      double te = summary.doubleColumn("TE ×1e-2").getDouble(i);
      double teSd = summary.doubleColumn("TE sd").getDouble(i);
      double nt = summary.doubleColumn("NTLL ×1e-3").getDouble(i);
      double ntSd = summary.doubleColumn("NTLL sd").getDouble(i);
      ds.append(d);
      ms.append(m);
      dte.append(te - pte.mean());
      dnt.append(nt - pnt.mean());
      ate.append(
          Math.abs(te - pte.mean()) <= 2 * Math.hypot(pte.sd(), Double.isNaN(teSd) ? 0 : teSd)
              ? "yes"
              : "no");
      ant.append(
          Math.abs(nt - pnt.mean()) <= 2 * Math.hypot(pnt.sd(), Double.isNaN(ntSd) ? 0 : ntSd)
              ? "yes"
              : "no");
    }
    return Table.create(
        "agreement with the paper (within 2 combined sd)", ds, ms, dte, ate, dnt, ant);
  }

  /**
   * The fidelity table: per data set and method of the paper's Table 1, the paper's mean ± sd beside ours under
   * the authors' protocol and under the clean one, for TE and NTLL; whether each of ours lies within the paper's ±
   * (|ours − paper| ≤ sd_paper: "both", "authors' only", "clean only" or "neither"); and, where the authors'
   * protocol does not agree, why not as far as the numbers tell: the distance ours − paper in units of the
   * paper's sd, and whether it lies within the paper's and our sd over seeds together (seed-to-seed noise) or
   * beyond both.
   * Rows are those of {@code authors} (a {@link #summary} or the Mining summary) that the paper has; {@code clean}
   * is matched by data set and method.
   */
  public static Table fidelity(Table authors, Table clean) {
    StringColumn ds = StringColumn.create("data");
    StringColumn ms = StringColumn.create("method");
    StringColumn pte = StringColumn.create("paper TE");
    DoubleColumn ate = DoubleColumn.create("TE authors'");
    DoubleColumn cte = DoubleColumn.create("TE clean");
    StringColumn wte = StringColumn.create("TE within paper's ±");
    StringColumn pnt = StringColumn.create("paper NTLL");
    DoubleColumn ant = DoubleColumn.create("NTLL authors'");
    DoubleColumn cnt = DoubleColumn.create("NTLL clean");
    StringColumn wnt = StringColumn.create("NTLL within paper's ±");
    StringColumn why = StringColumn.create("why not");
    for (int i = 0; i < authors.rowCount(); i++) {
      String d = dataOf(authors, i);
      String m = authors.stringColumn("method").get(i);
      var entry = QpPaper.table1(d, m);
      if (entry.isEmpty()) {
        continue;
      }
      int j = rowOf(clean, d, m);
      double[] te = {
        authors.doubleColumn("TE ×1e-2").getDouble(i),
        j < 0 ? Double.NaN : clean.doubleColumn("TE ×1e-2").getDouble(j),
        authors.doubleColumn("TE sd").getDouble(i)
      };
      double[] nt = {
        authors.doubleColumn("NTLL ×1e-3").getDouble(i),
        j < 0 ? Double.NaN : clean.doubleColumn("NTLL ×1e-3").getDouble(j),
        authors.doubleColumn("NTLL sd").getDouble(i)
      };
      QpPaper.Stat p = entry.get().te();
      QpPaper.Stat q = entry.get().ntll();
      ds.append(d);
      ms.append(m);
      pte.append(pm(p));
      ate.append(te[0]);
      cte.append(te[1]);
      wte.append(within(p, te[0], te[1]));
      pnt.append(pm(q));
      ant.append(nt[0]);
      cnt.append(nt[1]);
      wnt.append(within(q, nt[0], nt[1]));
      String a = whyNot("TE", p, te[0], te[2]);
      String b = whyNot("NTLL", q, nt[0], nt[2]);
      why.append(a.isEmpty() ? b : b.isEmpty() ? a : a + "; " + b);
    }
    return Table.create(
        "fidelity: the paper beside ours under both protocols",
        ds,
        ms,
        pte,
        ate,
        cte,
        wte,
        pnt,
        ant,
        cnt,
        wnt,
        why);
  }

  private static String dataOf(Table t, int i) {
    return t.containsColumn("data") ? t.stringColumn("data").get(i) : "mining";
  }

  private static int rowOf(Table t, String data, String method) {
    for (int j = 0; j < t.rowCount(); j++) {
      if (dataOf(t, j).equals(data) && t.stringColumn("method").get(j).equals(method)) {
        return j;
      }
    }
    return -1;
  }

  /** The paper's entry as it printed it (7.9 ± 0.5), not reformatted. */
  private static String pm(QpPaper.Stat s) {
    return org.approxgp.report.PaperTables.qpPrinted(s);
  }

  private static boolean inside(QpPaper.Stat s, double ours) {
    return Math.abs(ours - s.mean()) <= s.sd();
  }

  private static String within(QpPaper.Stat s, double authors, double clean) {
    boolean a = inside(s, authors);
    boolean c = !Double.isNaN(clean) && inside(s, clean);
    return a && c ? "both" : a ? "authors' only" : c ? "clean only" : "neither";
  }

  /** Empty when the authors' protocol agrees; else the distance in the paper's sd and our sd over seeds. */
  private static String whyNot(String what, QpPaper.Stat s, double ours, double oursSd) {
    if (inside(s, ours)) {
      return "";
    }
    if (s.sd() == 0) {
      return String.format(
          java.util.Locale.ROOT,
          "%s %+.2f from the paper's %.2f, whose sd is 0",
          what,
          ours - s.mean(),
          s.mean());
    }
    double k = (ours - s.mean()) / s.sd();
    String noise = Double.isNaN(oursSd)
        ? "our sd unknown (one seed): noise and difference cannot be told apart"
        : Math.abs(ours - s.mean()) <= oursSd + s.sd()
            ? "within both spreads together (our sd "
                + String.format(java.util.Locale.ROOT, "%.2f", oursSd) + "): seed-to-seed noise"
            : "beyond both spreads: not seed noise, and not explained here";
    return String.format(java.util.Locale.ROOT, "%s %+.1f paper sd, %s", what, k, noise);
  }
}
