package org.approxgp.papers.qp;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.approxgp.papers.PaperCsv;

/**
 * The published numbers of R. Zhang, C. J. Walder, E. V. Bonilla, M.-A. Rizoiu, L. Xie, <i>Quantile
 * Propagation for Wasserstein-Approximate Gaussian Processes</i>, NeurIPS 2020, in one place: Table 1
 * (TE ×10⁻², NTLL ×10⁻³, mean ± sd over seeds) for the nine classification data sets and the Mining
 * (coal, Poisson square link) row, read from the committed transcription {@code table1.csv} beside this class's
 * resources (its header says where each number comes from).
 */
public final class QpPaper {

  /** The methods of Table 1, in the paper's column order. */
  public static final List<String> METHODS = List.of("ep", "qp", "vb");

  /** Table 1's rows, in the paper's order; "mining" is the coal-mining Poisson row. */
  public static final List<String> TABLE1_DATASETS = List.of(
      "ionosphere",
      "cancer",
      "pima",
      "crabs",
      "sonar",
      "glass",
      "wine1",
      "wine2",
      "wine3",
      "mining");

  private QpPaper() {}

  /**
   * The units the paper's ± of Table 1 is over: "the average and the standard deviation of the above metrics over
   * the 100 rounds" (§6, Experiment Settings), each round a random split into 10 folds.
   */
  public static final int TABLE1_ROUNDS = 100;

  /** The units of the Mining row's ±: 200 pairs of training and test sequences, seeds 0–199 (§6.2). */
  public static final int MINING_SEEDS = 200;

  /** A published mean ± standard deviation. */
  public record Stat(double mean, double sd) {}

  /**
   * One cell pair of Table 1.
   *
   * @param dataset Table 1 row ("ionosphere", …, "mining")
   * @param method  "ep", "qp" or "vb"
   * @param te      test error ×10⁻²
   * @param ntll    negative test log-likelihood ×10⁻³
   */
  public record Table1Entry(String dataset, String method, Stat te, Stat ntll) {}

  /** The committed transcription of Table 1, with its provenance header (lines starting with #). */
  public static final String TABLE1_RESOURCE = "/org/approxgp/papers/qp/table1.csv";

  /** One row's labels: the paper's name of a data set and its instances m and features n, as printed. */
  public record Table1Row(String dataset, String label, int m, int n) {}

  /** Every entry of Table 1, row by row (data set), EP, QP, VB within a row, read from {@link #TABLE1_RESOURCE}. */
  public static final List<Table1Entry> TABLE1;

  /** Table 1's rows (data set names, the paper's labels, m and n), in the paper's order. */
  public static final List<Table1Row> TABLE1_ROWS;

  static {
    List<Table1Entry> entries = new ArrayList<>();
    Map<String, Table1Row> rows = new LinkedHashMap<>();
    for (String[] f : PaperCsv.read(
        QpPaper.class, TABLE1_RESOURCE, "data,label,m,n,method,te_mean,te_sd,ntll_mean,ntll_sd")) {
      rows.putIfAbsent(
          f[0], new Table1Row(f[0], f[1], Integer.parseInt(f[2]), Integer.parseInt(f[3])));
      entries.add(new Table1Entry(
          f[0],
          f[4],
          new Stat(Double.parseDouble(f[5]), Double.parseDouble(f[6])),
          new Stat(Double.parseDouble(f[7]), Double.parseDouble(f[8]))));
    }
    TABLE1 = List.copyOf(entries);
    TABLE1_ROWS = List.copyOf(rows.values());
  }

  /** The paper's entry for a data set (Table 1 row name) and method, if it has one. */
  public static Optional<Table1Entry> table1(String dataset, String method) {
    return TABLE1.stream()
        .filter(e -> e.dataset().equals(dataset) && e.method().equals(method))
        .findFirst();
  }

  /** The paper's label, m and n of a Table 1 row, if it has one. */
  public static Optional<Table1Row> table1Row(String dataset) {
    return TABLE1_ROWS.stream().filter(r -> r.dataset().equals(dataset)).findFirst();
  }
}
