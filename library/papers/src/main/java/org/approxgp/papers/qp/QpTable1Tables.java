package org.approxgp.papers.qp;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.approxgp.experiment.Summaries;
import org.approxgp.papers.Verdict;
import org.approxgp.papers.Verdicts;
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
   * The claims of Table 1 tested on a summary: for each (data set, method) entry the paper has, and for TE and
   * NTLL, whether our mean reproduces the paper's by {@link Verdicts#sameMean} — one rule for every entry, over
   * seeds (each the mean over its folds) on our side and the paper's 100 rounds ({@link QpPaper#TABLE1_ROUNDS};
   * Mining: its 200 seeds). {@code summary} is a {@link #summary} or a Mining summary
   * ({@link QpMiningTables#summary}, whose rows are one per method over {@code miningSeeds} seeds); {@code label}
   * names the protocol in each claim.
   */
  public static List<Verdict> verdicts(Table summary, String label, int miningSeeds) {
    List<Verdict> out = new ArrayList<>();
    boolean mining = !summary.containsColumn("data");
    for (int i = 0; i < summary.rowCount(); i++) {
      String d = dataOf(summary, i);
      String m = summary.stringColumn("method").get(i);
      var entry = QpPaper.table1(d, m);
      if (entry.isEmpty()) {
        continue;
      }
      int n = mining ? miningSeeds : (int) summary.doubleColumn("seeds").getDouble(i);
      int paperN = mining ? QpPaper.MINING_SEEDS : QpPaper.TABLE1_ROUNDS;
      String unit = mining ? "seed (one training/test pair)" : "seed (mean over its folds)";
      String what = d + ", " + m + ", ";
      out.add(Verdicts.sameMean(
          what + "TE ×1e-2 (" + label + ")",
          unit,
          summary.doubleColumn("TE ×1e-2").getDouble(i),
          summary.doubleColumn("TE sd").getDouble(i),
          n,
          entry.get().te().mean(),
          entry.get().te().sd(),
          paperN));
      out.add(Verdicts.sameMean(
          what + "NTLL ×1e-3 (" + label + ")",
          unit,
          summary.doubleColumn("NTLL ×1e-3").getDouble(i),
          summary.doubleColumn("NTLL sd").getDouble(i),
          n,
          entry.get().ntll().mean(),
          entry.get().ntll().sd(),
          paperN));
    }
    return out;
  }

  /**
   * On which side of the paper a method's contradicted entries fall: "VB: 7 of 9 contradicted entries are below
   * the paper's mean (lower TE or NTLL: a better fit than printed), 2 above", from {@link #verdicts}.
   */
  public static String missesBySide(List<Verdict> verdicts, String method) {
    long below = 0;
    long above = 0;
    for (Verdict v : verdicts) {
      if (v.claim().contains(", " + method + ", ") && v.outcome() == Verdict.Outcome.CONTRADICTS) {
        if (v.estimate() < 0) {
          below++;
        } else {
          above++;
        }
      }
    }
    return String.format(
        java.util.Locale.ROOT,
        "%s: %d of %d contradicted entries are below the paper's mean (lower TE or NTLL: better than printed), %d"
            + " above",
        method.toUpperCase(java.util.Locale.ROOT),
        below,
        below + above,
        above);
  }

  /**
   * What the 200 duplicated Pima rows do, per kernel and method: our mean TE and NTLL on the authors' Pima (732
   * rows, {@code Pima.tr} twice) beside the de-duplicated Pima (532 distinct rows), and the difference
   * duplicated − distinct with its standard error over seeds (the two runs share seeds but not rows, so the se is
   * that of a difference of independent means, √(sd₁²/n₁ + sd₂²/n₂)). A duplicated row can sit in a training and a
   * test fold at once; a kernel that can memorise it (ARD) gains more. {@code summaries} maps a kernel's label to
   * its {@link #summary}; kernels without both Pima rows are left out.
   */
  public static Table duplicateEffect(Map<String, Table> summaries) {
    StringColumn kernel = StringColumn.create("kernel");
    StringColumn method = StringColumn.create("method");
    DoubleColumn teDup = DoubleColumn.create("TE ×1e-2 pima");
    DoubleColumn teDistinct = DoubleColumn.create("TE ×1e-2 pima-dedup");
    DoubleColumn teDiff = DoubleColumn.create("TE difference");
    DoubleColumn teSe = DoubleColumn.create("TE se");
    DoubleColumn ntDup = DoubleColumn.create("NTLL ×1e-3 pima");
    DoubleColumn ntDistinct = DoubleColumn.create("NTLL ×1e-3 pima-dedup");
    DoubleColumn ntDiff = DoubleColumn.create("NTLL difference");
    DoubleColumn ntSe = DoubleColumn.create("NTLL se");
    summaries.forEach((k, t) -> {
      for (int i = 0; i < t.rowCount(); i++) {
        if (!dataOf(t, i).equals("pima")) {
          continue;
        }
        String m = t.stringColumn("method").get(i);
        int j = rowOf(t, "pima-dedup", m);
        if (j < 0) {
          continue;
        }
        kernel.append(k);
        method.append(m);
        double n1 = t.doubleColumn("seeds").getDouble(i);
        double n2 = t.doubleColumn("seeds").getDouble(j);
        double[] te = difference(t, "TE", i, j, n1, n2);
        double[] nt = difference(t, "NTLL", i, j, n1, n2);
        teDup.append(t.doubleColumn("TE ×1e-2").getDouble(i));
        teDistinct.append(t.doubleColumn("TE ×1e-2").getDouble(j));
        teDiff.append(te[0]);
        teSe.append(te[1]);
        ntDup.append(t.doubleColumn("NTLL ×1e-3").getDouble(i));
        ntDistinct.append(t.doubleColumn("NTLL ×1e-3").getDouble(j));
        ntDiff.append(nt[0]);
        ntSe.append(nt[1]);
      }
    });
    return Table.create(
        "Pima with its 200 duplicated rows and without them",
        kernel,
        method,
        teDup,
        teDistinct,
        teDiff,
        teSe,
        ntDup,
        ntDistinct,
        ntDiff,
        ntSe);
  }

  /** [mean_i − mean_j, √(sd_i²/n_i + sd_j²/n_j)] of a metric ("TE" or "NTLL") of a summary's rows i and j. */
  private static double[] difference(Table t, String metric, int i, int j, double ni, double nj) {
    String mean = metric.equals("TE") ? "TE ×1e-2" : "NTLL ×1e-3";
    double si = t.doubleColumn(metric + " sd").getDouble(i);
    double sj = t.doubleColumn(metric + " sd").getDouble(j);
    return new double[] {
      t.doubleColumn(mean).getDouble(i) - t.doubleColumn(mean).getDouble(j),
      ni >= 2 && nj >= 2 ? Math.sqrt(si * si / ni + sj * sj / nj) : Double.NaN
    };
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
}
