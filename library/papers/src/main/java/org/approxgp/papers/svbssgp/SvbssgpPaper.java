package org.approxgp.papers.svbssgp;

import java.util.List;
import java.util.Optional;
import org.approxgp.model.Registry;
import org.approxgp.papers.PaperCsv;

/**
 * The published numbers and settings of Q. M. Hoang, T. N. Hoang, K. H. Low, <i>A Generalized Stochastic
 * Variational Bayesian Hyperparameter Learning Framework for Sparse Spectrum Gaussian Process Regression</i>,
 * AAAI 2017, §5, in one place.
 *
 * <p>Table 1 is given as printed. The figures (1–5) are plots whose values the text of our copy of the paper
 * does not contain; only what §5 says in words about them is recorded ({@link #CLAIMS}), no value is read
 * off a plot.
 */
public final class SvbssgpPaper {

  /** Table 1's methods, in the paper's column order: the registry's regression models. */
  public static final List<String> METHODS = Registry.regressionNames();

  /** Display names of {@link #METHODS} (DTC++ and PIC++ are the stochastic versions of DTC and PIC). */
  public static final List<String> METHOD_NAMES =
      List.of("sVBSSGP", "DTC++", "PIC++", "SSGP", "VSSGP");

  /** The paper's data sets, by the role our substitutes play (see {@code data.RegressionDatasets}). */
  public static final List<String> ROLES = List.of("aimpeak", "airline", "blog");

  /** One cell of Table 1: final test RMSE (target units: km/h for AIMPEAK, minutes for AIRLINE). */
  public record Table1Entry(String role, String method, double rmse) {}

  /** The committed transcription of Table 1, with its provenance header (lines starting with #). */
  public static final String TABLE1_RESOURCE = "/org/approxgp/papers/svbssgp/table1.csv";

  /**
   * Table 1 ("RMSEs ... after final convergence"), as printed, read from {@link #TABLE1_RESOURCE}; SSGP on AIRLINE
   * is "n/a" (NaN here).
   */
  public static final List<Table1Entry> TABLE1 =
      PaperCsv.read(SvbssgpPaper.class, TABLE1_RESOURCE, "role,label,method,rmse").stream()
          .map(f ->
              new Table1Entry(f[0], f[2], f[3].isEmpty() ? Double.NaN : Double.parseDouble(f[3])))
          .toList();

  /**
   * §5's settings per role: 2m basis functions ("2m = 40, 40, and 10"), k-means partitions p (200, 2000,
   * 200), inducing variables of DTC++/PIC++ (250 for AIMPEAK, 512 for AIRLINE; BLOG: not stated, 250 here),
   * iterations shown (30 for AIMPEAK, 45 for AIRLINE; BLOG: not stated, 30 here) and predictive samples r
   * (20 for AIMPEAK, 5 for AIRLINE; BLOG: Fig. 3 varies r).
   */
  public record Setting(
      String role, int features, int partitions, int inducing, int iterations, int samples) {}

  /** {@link Setting}s of the three roles, in {@link #ROLES} order. */
  public static final List<Setting> SETTINGS = List.of(
      new Setting("aimpeak", 40, 200, 250, 30, 20),
      new Setting("airline", 40, 2000, 512, 45, 5),
      new Setting("blog", 10, 200, 250, 30, 5));

  /** Fig. 1's values of γ (Proposition 1's test conditional). */
  public static final List<Double> FIGURE1_GAMMAS = List.of(0.0, 0.1, 0.2, 0.3);

  /** Values of r named in §5's discussion of Fig. 3 (the figure's full list is not in the text). */
  public static final List<Integer> FIGURE3_SAMPLES = List.of(1, 5, 20);

  /** sVBSSGP's training seconds per iteration on AIRLINE (§5: "only 43 sec. per iteration"). */
  public static final double AIRLINE_SECONDS_PER_ITERATION = 43;

  /** What §5 says about each figure, in its words (abridged); the agreement cell checks these. */
  public static final List<String> CLAIMS = List.of(
      "Fig. 1: sVBSSGP's RMSEs for γ = 0, 0.1, 0.2, 0.3 rapidly decrease by 4- to 5-fold over 30 iterations;"
          + " increasing γ from 0 results in higher converged RMSEs.",
      "Fig. 2a: sVBSSGP achieves the lowest converged RMSE at γ = 0 among all tested values of γ.",
      "Fig. 2b/2c, Table 1: sVBSSGP (γ = 0) outperforms VSSGP, DTC++ and PIC++ in RMSE (AIMPEAK after 30,"
          + " AIRLINE after 45 iterations).",
      "Fig. 2d: sVBSSGP's total training time increases linearly with t; longer than DTC++ and PIC++.",
      "Fig. 3: with more samples r, sVBSSGP converges faster and to a lower RMSE; r = 1 is poorest, most so on"
          + " BLOG (60 inputs).",
      "Figs. 4–5 (MNLP, Appendix H): the results of the MNLP metric are similar to RMSE's.");

  private SvbssgpPaper() {}

  /** The printed Table 1 RMSE for a role and method (NaN for "n/a"), if the table has the cell. */
  public static Optional<Double> table1(String role, String method) {
    return TABLE1.stream()
        .filter(e -> e.role().equals(role) && e.method().equals(method))
        .findFirst()
        .map(Table1Entry::rmse);
  }

  /** The §5 setting of a role. */
  public static Setting setting(String role) {
    return SETTINGS.stream()
        .filter(s -> s.role().equals(role))
        .findFirst()
        .orElseThrow(
            () -> new IllegalArgumentException("unknown role '" + role + "'; known: " + ROLES));
  }

  /** Display name of a method of {@link #METHODS}. */
  public static String displayName(String method) {
    int i = METHODS.indexOf(method);
    if (i < 0) {
      throw new IllegalArgumentException("unknown method '" + method + "'; known: " + METHODS);
    }
    return METHOD_NAMES.get(i);
  }
}
