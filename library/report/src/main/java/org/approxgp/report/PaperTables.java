package org.approxgp.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.approxgp.papers.qp.QpPaper;
import org.approxgp.papers.svbssgp.SvbssgpPaper;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * The papers' tables in the papers' shape, for display: one row per data set, one column group per method, and in
 * each group every metric as the paper printed it beside ours. Our cells are "mean ± sd" by the project's one
 * rounding rule ({@link ValueViews#number}, both numbers); the paper's are shown as printed (a transcription is not
 * rounded again: QP Table 1 prints one decimal, sVBSSGP Table 1 two), from the committed transcriptions
 * ({@link QpPaper#TABLE1_RESOURCE}, {@link SvbssgpPaper#TABLE1_RESOURCE}). Column names are "group · column"
 * ({@link Tables#GROUP}), which {@link Tables#toHtml} shows as a two-row header. The computation stays with the
 * long-format summaries the papers' classes return; these tables only arrange them.
 */
public final class PaperTables {
  private PaperTables() {}

  /** Decimals QP Table 1 prints every number with (7.9 ± 0.5, 14.0 ± 1.1, 1606.8 ± 116.3). */
  static final int QP_PRINTED_DECIMALS = 1;
  /** Decimals sVBSSGP Table 1 prints every RMSE with (4.73, 11.30). */
  static final int SVBSSGP_PRINTED_DECIMALS = 2;

  /** One column label ("ours", "authors'", "clean") and the summary tables it reads. */
  public record Source(String label, List<Table> summaries) {
    public Source {
      if (label == null || label.isBlank() || label.equals("paper")) {
        throw new IllegalArgumentException(
            "a source needs a label other than 'paper', got '" + label + "'");
      }
      summaries = List.copyOf(summaries);
    }
  }

  /** A {@link Source} of {@code summaries} labelled {@code label}. */
  public static Source source(String label, Table... summaries) {
    return new Source(label, List.of(summaries));
  }

  /**
   * QP Table 1 (Zhang et al., NeurIPS 2020) in its shape, ours beside the paper's: rows the data sets, a column
   * group per method with TE (×10⁻²) and NTLL (×10⁻³), each as "paper" and "ours", mean ± sd over seeds.
   *
   * @param summaries {@code QpTable1Tables.summary} tables (columns data, method, "TE ×1e-2", "TE sd",
   *     "NTLL ×1e-3", "NTLL sd") and/or {@code QpMiningTables.summary} tables (no data column: the Mining row)
   */
  public static Table qpTable1(Table... summaries) {
    return qpTable1(source("ours", summaries));
  }

  /**
   * As {@link #qpTable1(Table...)} with one column per source after the paper's in each (method, metric), e.g.
   * the authors' protocol and the clean one.
   */
  public static Table qpTable1(Source... sources) {
    // (data, method) → label → {te, te sd, ntll, ntll sd}
    Map<String, Map<String, double[]>> cells = new LinkedHashMap<>();
    Set<String> data = new LinkedHashSet<>();
    Set<String> methods = new LinkedHashSet<>(QpPaper.METHODS);
    Set<String> seen = new LinkedHashSet<>();
    for (Source s : sources) {
      for (Table t : s.summaries()) {
        for (int i = 0; i < t.rowCount(); i++) {
          String d = t.containsColumn("data") ? t.stringColumn("data").get(i) : "mining";
          String m = t.stringColumn("method").get(i);
          data.add(d);
          methods.add(m);
          seen.add(m);
          cells
              .computeIfAbsent(d + "/" + m, k -> new LinkedHashMap<>())
              .put(s.label(), new double[] {
                value(t, "TE ×1e-2", i),
                value(t, "TE sd", i),
                value(t, "NTLL ×1e-3", i),
                value(t, "NTLL sd", i)
              });
        }
      }
    }
    methods.retainAll(seen);
    List<String> rows = inPaperOrder(data, QpPaper.TABLE1_DATASETS);
    StringColumn label = StringColumn.create("data");
    List<StringColumn> cols = new ArrayList<>();
    for (String m : methods) {
      for (String metric : List.of("TE", "NTLL")) {
        cols.add(StringColumn.create(m.toUpperCase() + Tables.GROUP + metric + " paper"));
        for (Source s : sources) {
          cols.add(StringColumn.create(m.toUpperCase() + Tables.GROUP + metric + " " + s.label()));
        }
      }
    }
    for (String d : rows) {
      label.append(QpPaper.table1Row(d).map(QpPaper.Table1Row::label).orElse(d));
      int c = 0;
      for (String m : methods) {
        Optional<QpPaper.Table1Entry> paper = QpPaper.table1(d, m);
        Map<String, double[]> ours = cells.getOrDefault(d + "/" + m, Map.of());
        for (int metric = 0; metric < 2; metric++) {
          int k = metric;
          cols.get(c++)
              .append(paper
                  .map(p -> k == 0 ? p.te() : p.ntll())
                  .map(PaperTables::qpPrinted)
                  .orElse(""));
          for (Source s : sources) {
            double[] v = ours.get(s.label());
            cols.get(c++).append(v == null ? "" : meanSd(v[2 * k], v[2 * k + 1]));
          }
        }
      }
    }
    Table out =
        Table.create("Table 1: TE ×10⁻², NTLL ×10⁻³, mean ± sd over seeds (the paper's beside "
            + String.join(
                ", ", java.util.Arrays.stream(sources).map(Source::label).toList()) + ")");
    out.addColumns(label);
    cols.forEach(out::addColumns);
    return out;
  }

  /**
   * sVBSSGP Table 1 (Hoang, Hoang &amp; Low, AAAI 2017) in its shape: rows the data sets' roles (the paper's
   * AIMPEAK, AIRLINE, and any other role run), with the substitute data set each role ran on, a column group per
   * model with the final RMSE as printed ("paper") and ours (mean ± sd over splits). Our RMSE is in the substitute
   * data's units, so the two compare in ranking, not in level.
   *
   * @param table1 {@code SvbssgpFigures.table1}'s table (columns role, data, method, "final_rmse mean",
   *     "final_rmse sd")
   */
  public static Table svbssgpTable1(Table table1) {
    Map<String, String> dataOfRole = new LinkedHashMap<>();
    Map<String, double[]> ours = new LinkedHashMap<>();
    Set<String> methods = new LinkedHashSet<>(SvbssgpPaper.METHODS);
    Set<String> seen = new LinkedHashSet<>();
    for (int i = 0; i < table1.rowCount(); i++) {
      String role = table1.stringColumn("role").get(i);
      String m = table1.stringColumn("method").get(i);
      dataOfRole.putIfAbsent(role, table1.stringColumn("data").get(i));
      methods.add(m);
      seen.add(m);
      ours.put(
          role + "/" + m,
          new double[] {value(table1, "final_rmse mean", i), value(table1, "final_rmse sd", i)});
    }
    methods.retainAll(seen);
    StringColumn role = StringColumn.create("data set (role)");
    StringColumn data = StringColumn.create("ours ran on");
    List<StringColumn> cols = new ArrayList<>();
    for (String m : methods) {
      String name = SvbssgpPaper.METHODS.contains(m) ? SvbssgpPaper.displayName(m) : m;
      cols.add(StringColumn.create(name + Tables.GROUP + "RMSE paper"));
      cols.add(StringColumn.create(name + Tables.GROUP + "RMSE ours"));
    }
    for (String r : inPaperOrder(dataOfRole.keySet(), SvbssgpPaper.ROLES)) {
      role.append(r.toUpperCase());
      data.append(dataOfRole.get(r));
      int c = 0;
      for (String m : methods) {
        Optional<Double> paper = SvbssgpPaper.table1(r, m);
        cols.get(c++)
            .append(paper
                .map(p -> Double.isNaN(p) ? "n/a" : printed(p, SVBSSGP_PRINTED_DECIMALS))
                .orElse(""));
        double[] v = ours.get(r + "/" + m);
        cols.get(c++).append(v == null ? "" : meanSd(v[0], v[1]));
      }
    }
    Table out = Table.create(
        "Table 1: final RMSE (the paper's in its data's units, ours in the substitute's),"
            + " mean ± sd over splits",
        role,
        data);
    cols.forEach(out::addColumns);
    return out;
  }

  /** "mean ± sd" by the project's rounding rule; the mean alone when sd is missing (NaN, e.g. one seed). */
  public static String meanSd(double mean, double sd) {
    if (Double.isNaN(mean)) {
      return "";
    }
    return Double.isNaN(sd)
        ? ValueViews.number(mean)
        : ValueViews.number(mean) + " ± " + ValueViews.number(sd);
  }

  /** A QP Table 1 entry "mean ± sd" as the paper printed it: 7.9 ± 0.5, 1606.8 ± 116.3. */
  public static String qpPrinted(QpPaper.Stat s) {
    return printed(s.mean(), QP_PRINTED_DECIMALS) + " ± " + printed(s.sd(), QP_PRINTED_DECIMALS);
  }

  /** A paper's number as it printed it: {@code decimals} digits after the point. */
  static String printed(double x, int decimals) {
    return String.format(java.util.Locale.ROOT, "%." + decimals + "f", x);
  }

  private static double value(Table t, String column, int row) {
    if (!t.containsColumn(column)) {
      return Double.NaN;
    }
    var c = t.numberColumn(column);
    return c.isMissing(row) ? Double.NaN : c.getDouble(row);
  }

  /**
   * {@code names} ordered as {@code paperOrder}, each other name right after the paper name it extends
   * ("pima-dedup" after "pima"), the rest at the end in their order.
   */
  static List<String> inPaperOrder(Set<String> names, List<String> paperOrder) {
    List<String> out = new ArrayList<>();
    for (String p : paperOrder) {
      if (names.contains(p)) {
        out.add(p);
      }
      for (String n : names) {
        if (!paperOrder.contains(n) && n.startsWith(p + "-") && !out.contains(n)) {
          out.add(n);
        }
      }
    }
    for (String n : names) {
      if (!out.contains(n)) {
        out.add(n);
      }
    }
    return out;
  }
}
