package org.approxgp.papers.qp;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.approxgp.experiment.Summaries;
import org.approxgp.papers.qp.QpMining.MethodResult;
import org.approxgp.papers.qp.QpMining.Protocol;
import org.approxgp.papers.qp.QpMining.SeedResult;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * The Mining row's tables from its stored results ({@link QpMining}): mean ± sd over seeds beside the paper's,
 * the text report, the authors'-protocol and clean-protocol columns side by side, and the effect of each protocol
 * difference alone.
 */
public final class QpMiningTables {
  private QpMiningTables() {}

  /** Mean ± sd over seeds of TE and NTLL per method (×10⁻² and ×10⁻³ as in the paper) beside the paper's. */
  public static Table summary(Table rows, List<String> methods) {
    return summary(rows, methods, Protocol.clean());
  }

  /** As {@link #summary(Table, List)}, with the NTLL and the sd of {@code protocol}. */
  public static Table summary(Table rows, List<String> methods, Protocol protocol) {
    StringColumn ms = StringColumn.create("method");
    DoubleColumn te = DoubleColumn.create("TE ×1e-2");
    DoubleColumn teSd = DoubleColumn.create("TE sd");
    DoubleColumn pte = DoubleColumn.create("paper TE");
    DoubleColumn nt = DoubleColumn.create("NTLL ×1e-3");
    DoubleColumn ntSd = DoubleColumn.create("NTLL sd");
    DoubleColumn pnt = DoubleColumn.create("paper NTLL");
    for (String m : methods) {
      double[] t = rows.doubleColumn("te_" + m).asDoubleArray();
      double[] n = rows.doubleColumn((protocol.exactNtll() ? "ntll_exact_" : "ntll_") + m)
          .asDoubleArray();
      ms.append(m);
      te.append(100 * Summaries.mean(t));
      teSd.append(100 * protocol.sd(t));
      nt.append(1000 * Summaries.mean(n));
      ntSd.append(1000 * protocol.sd(n));
      var paper = QpPaper.table1("mining", m);
      pte.append(paper.map(p -> p.te().mean()).orElse(Double.NaN));
      pnt.append(paper.map(p -> p.ntll().mean()).orElse(Double.NaN));
    }
    return Table.create(
        "Mining (coal), " + protocol.name() + " protocol, " + rows.rowCount() + " seeds",
        ms,
        te,
        teSd,
        pte,
        nt,
        ntSd,
        pnt);
  }

  /**
   * The plain-text report of {@code approxgp coal}: per method TE, NTLL (paper's and exact predictive)
   * in natural units beside the paper's, median hyperparameters and the share of clipped site
   * updates; then the σ²_QP ≤ σ²_EP check, seed 0's fits and convergence notes.
   */
  public static String report(List<SeedResult> results, List<String> methods) {
    return report(results, methods, Protocol.clean());
  }

  /**
   * As {@link #report(List, List)} under {@code protocol}: its NTLL in the "NTLL (ours)" column (the other
   * NTLL beside it) and its sd; for any protocol but the clean one a first line names it and its switches.
   */
  public static String report(List<SeedResult> results, List<String> methods, Protocol protocol) {
    StringBuilder b = new StringBuilder();
    if (!protocol.equals(Protocol.clean())) {
      b.append("protocol " + protocol + "\n");
    }
    b.append(String.format(
        Locale.ROOT,
        "%-4s %6s %18s %18s %18s %18s %12s %10s %10s %8s%n",
        "",
        "trials",
        "TE (ours)",
        "TE (paper)",
        "NTLL (ours)",
        "NTLL (paper)",
        protocol.exactNtll() ? "NTLL NB" : "NTLL exact",
        "ℓ median",
        "σf² med",
        "clip %"));
    for (String m : methods) {
      List<MethodResult> rs = ofMethod(results, m);
      double[] te = rs.stream().mapToDouble(MethodResult::te).toArray();
      double[] nt = rs.stream().mapToDouble(protocol::ntll).toArray();
      double[] ne = rs.stream()
          .mapToDouble(protocol.exactNtll() ? MethodResult::ntll : MethodResult::ntllExact)
          .toArray();
      var paper = QpPaper.table1("mining", m);
      // the paper's TE is ×1e-2 and NTLL ×1e-3: undo the scaling for natural units
      double[] p = paper
          .map(e -> new double[] {
            e.te().mean() / 100,
            e.te().sd() / 100,
            e.ntll().mean() / 1000,
            e.ntll().sd() / 1000
          })
          .orElse(new double[] {Double.NaN, Double.NaN, Double.NaN, Double.NaN});
      long clipped = rs.stream().mapToLong(MethodResult::clipped).sum();
      long updates = rs.stream().mapToLong(MethodResult::siteUpdates).sum();
      b.append(String.format(
          Locale.ROOT,
          "%-4s %6d %9.3f ± %6.3f %9.3f ± %6.3f %9.4f ± %6.4f %9.4f ± %6.4f %12.4f %10.2f %10.3f %8.3f%n",
          m,
          rs.size(),
          Summaries.mean(te),
          protocol.sd(te),
          p[0],
          p[1],
          Summaries.mean(nt),
          protocol.sd(nt),
          p[2],
          p[3],
          Summaries.mean(ne),
          median(rs.stream().mapToDouble(MethodResult::lengthscale).toArray()),
          median(rs.stream().mapToDouble(MethodResult::signalVariance).toArray()),
          updates == 0 ? 0.0 : 100.0 * clipped / updates));
    }
    int viol = results.stream().mapToInt(SeedResult::qpVarianceViolations).sum();
    int comp = results.stream().mapToInt(SeedResult::varianceComparisons).sum();
    b.append("σ²_QP > σ²_EP (training sites and test years, each method at its own θ): " + viol
        + " of " + comp + "\n");
    for (SeedResult s : results) {
      if (s.seed() == 0) {
        for (MethodResult r : s.methods()) {
          b.append(String.format(
              Locale.ROOT,
              "seed 0 %s: -log Z = %.4f, lengthscale %.3f years, signal variance %.4f, converged %s%n",
              r.method(),
              r.negLogEvidence(),
              r.lengthscale(),
              r.signalVariance(),
              r.converged()));
        }
      }
    }
    for (String m : methods) {
      List<MethodResult> rs = ofMethod(results, m);
      long notConv = rs.stream().filter(r -> !r.converged()).count();
      long finalClips = rs.stream().filter(r -> r.status().contains("clipped")).count();
      long anyClips = rs.stream().filter(r -> r.clipped() > 0).count();
      b.append("  " + m + ": not converged " + notConv
          + ", trials with clipped site updates anywhere in the fit " + anyClips
          + ", in the final inference " + finalClips + "\n");
      Map<String, Long> why = new TreeMap<>();
      rs.stream()
          .filter(r -> !r.converged())
          .forEach(
              r -> why.merge(r.status().replaceAll("\\b[0-9][0-9.eE+-]*", "#"), 1L, Long::sum));
      why.forEach((k, c) -> b.append("  not converged " + m + " x" + c + ": " + k + "\n"));
    }
    return b.toString();
  }

  /**
   * Explanation table: per switch flipped alone from {@code base} and per method, mean TE and NTLL under
   * {@code base} and with the switch flipped (each under its own protocol's definitions) and the change.
   * {@code flipped} maps a switch name of {@link QpMining#singleSwitches} to the results of that protocol.
   */
  public static Table switchEffects(
      Protocol base,
      List<SeedResult> baseResults,
      Map<String, List<SeedResult>> flipped,
      List<String> methods) {
    Map<String, Protocol> protocols = QpMining.singleSwitches(base);
    StringColumn sw = StringColumn.create("switch flipped");
    StringColumn ms = StringColumn.create("method");
    DoubleColumn seeds = DoubleColumn.create("seeds");
    DoubleColumn dte = DoubleColumn.create("Δ TE");
    DoubleColumn dnt = DoubleColumn.create("Δ NTLL");
    DoubleColumn te0 = DoubleColumn.create("TE base");
    DoubleColumn nt0 = DoubleColumn.create("NTLL base");
    flipped.forEach((name, rs) -> {
      Protocol p = protocols.get(name);
      if (p == null) {
        throw new IllegalArgumentException(
            "unknown switch '" + name + "' (known: " + protocols.keySet() + ")");
      }
      for (String m : methods) {
        double[] tb =
            ofMethod(baseResults, m).stream().mapToDouble(MethodResult::te).toArray();
        double[] nb = ofMethod(baseResults, m).stream().mapToDouble(base::ntll).toArray();
        double[] tf = ofMethod(rs, m).stream().mapToDouble(MethodResult::te).toArray();
        double[] nf = ofMethod(rs, m).stream().mapToDouble(p::ntll).toArray();
        if (tf.length == 0) {
          continue;
        }
        sw.append(name);
        ms.append(m);
        seeds.append(tf.length);
        te0.append(Summaries.mean(tb));
        nt0.append(Summaries.mean(nb));
        dte.append(Summaries.mean(tf) - Summaries.mean(tb));
        dnt.append(Summaries.mean(nf) - Summaries.mean(nb));
      }
    });
    return Table.create(
        "effect of each difference alone (from the " + base.name() + " protocol)",
        sw,
        ms,
        seeds,
        te0,
        dte,
        nt0,
        dnt);
  }

  private static List<MethodResult> ofMethod(List<SeedResult> results, String method) {
    return results.stream()
        .flatMap(s -> s.methods().stream())
        .filter(r -> r.method().equals(method))
        .toList();
  }

  private static double median(double[] v) {
    if (v.length == 0) {
      return Double.NaN;
    }
    double[] s = v.clone();
    java.util.Arrays.sort(s);
    int n = s.length;
    return n % 2 == 1 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
  }
}
