package org.approxgp.papers.qp;

import java.util.List;
import java.util.Optional;

/**
 * The published numbers of R. Zhang, C. J. Walder, E. V. Bonilla, M.-A. Rizoiu, L. Xie, <i>Quantile
 * Propagation for Wasserstein-Approximate Gaussian Processes</i>, NeurIPS 2020, in one place: Table 1
 * (TE ×10⁻², NTLL ×10⁻³, mean ± sd over seeds) for the nine classification data sets and the Mining
 * (coal, Poisson square link) row.
 */
public final class QpPaper {

  /** The methods of Table 1, in the paper's column order. */
  public static final List<String> METHODS = List.of("ep", "qp", "vb");

  /** Table 1's rows, in the paper's order; "mining" is the coal-mining Poisson row. */
  public static final List<String> TABLE1_DATASETS =
      List.of("ionosphere", "cancer", "pima", "crabs", "sonar", "glass", "wine1", "wine2", "wine3", "mining");

  private QpPaper() {
  }

  /** A published mean ± standard deviation. */
  public record Stat(double mean, double sd) {
  }

  /**
   * One cell pair of Table 1.
   *
   * @param dataset Table 1 row ("ionosphere", …, "mining")
   * @param method  "ep", "qp" or "vb"
   * @param te      test error ×10⁻²
   * @param ntll    negative test log-likelihood ×10⁻³
   */
  public record Table1Entry(String dataset, String method, Stat te, Stat ntll) {
  }

  /** Every entry of Table 1, row by row (data set), EP, QP, VB within a row. */
  public static final List<Table1Entry> TABLE1 = List.of(
      row("ionosphere", 7.9, 0.5, 7.9, 0.5, 18.9, 6.9, 215.9, 8.4, 215.9, 8.5, 337.4, 70.8),
      row("cancer", 3.2, 0.2, 3.2, 0.2, 3.1, 0.2, 88.2, 3.1, 88.2, 3.1, 88.9, 19.1),
      row("pima", 20.3, 1.0, 20.3, 1.0, 21.9, 0.4, 424.7, 13.0, 424.0, 13.2, 450.3, 2.6),
      row("crabs", 2.7, 0.5, 2.7, 0.5, 3.7, 0.7, 64.4, 8.2, 64.3, 8.4, 164.7, 7.5),
      row("sonar", 14.0, 1.1, 14.0, 1.1, 25.7, 3.9, 306.7, 10.8, 306.2, 10.9, 693.1, 0.0),
      row("glass", 1.1, 0.4, 1.0, 0.4, 2.6, 0.5, 29.5, 5.4, 29.0, 5.5, 79.5, 6.3),
      row("wine1", 1.5, 0.5, 1.5, 0.5, 1.7, 0.6, 48.0, 3.4, 47.4, 3.4, 83.9, 5.2),
      row("wine2", 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 18.0, 1.2, 17.8, 1.2, 26.7, 1.9),
      row("wine3", 2.0, 1.0, 2.0, 1.0, 1.2, 0.7, 52.1, 5.6, 51.8, 5.6, 69.4, 5.0),
      row("mining", 118.6, 27.0, 118.6, 27.0, 170.3, 15.9, 1606.8, 116.3, 1606.5, 116.3, 2007.3, 119.8))
      .stream().flatMap(List::stream).toList();

  /** The paper's entry for a data set (Table 1 row name) and method, if it has one. */
  public static Optional<Table1Entry> table1(String dataset, String method) {
    return TABLE1.stream().filter(e -> e.dataset().equals(dataset) && e.method().equals(method)).findFirst();
  }

  /** Arguments: TE mean, sd for EP, QP, VB, then NTLL mean, sd for EP, QP, VB (the paper's column order). */
  private static List<Table1Entry> row(String dataset, double... v) {
    return List.of(
        new Table1Entry(dataset, "ep", new Stat(v[0], v[1]), new Stat(v[6], v[7])),
        new Table1Entry(dataset, "qp", new Stat(v[2], v[3]), new Stat(v[8], v[9])),
        new Table1Entry(dataset, "vb", new Stat(v[4], v[5]), new Stat(v[10], v[11])));
  }
}
