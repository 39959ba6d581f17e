package org.approxgp.projection;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.approxgp.likelihood.Probit;

/**
 * The shipped QP lookup tables: building ({@code approxgp qp-table build} calls {@link #buildProbit} and
 * {@link #buildProbitWide}) and lazy, thread-safe loading from the JAR resources {@value #PROBIT_RESOURCE} and
 * {@value #PROBIT_WIDE_RESOURCE}. {@link W2Projection#probitTabulated()} reads the first where it covers the
 * cavity, else the second, else computes σ_QP exactly.
 */
public final class QpTables {
  /** Resource name, relative to this package. */
  public static final String PROBIT_RESOURCE = "qp-probit.table";
  /**
   * The shipped probit grid: local Lagrange order 8 (degree 7), 301 × 121 nodes; μ ∈ [−10, 10] and σ ∈ [0.1, 10] as in the paper's
   * appendix J; node counts chosen for a measured interpolation error below 1e-8 relative.
   */
  public static final QpTable.Grid PROBIT_GRID = new QpTable.Grid(8, 301, -10, 10, 121, 0.1, 10);
  /** Resource name of the wide probit table, relative to this package. */
  public static final String PROBIT_WIDE_RESOURCE = "qp-probit-wide.table";
  /**
   * The wide probit grid, for the cavities of large optimised signal variances (QP Table 1's wine, sonar and crabs
   * folds reach s² ≈ 9·10³, cavities σ up to ≈ 100 and |μ| up to ≈ 200, off {@link #PROBIT_GRID}): axis z =
   * μ/√(1 + σ²) ({@link QpTable.Axis#Z}), local Lagrange order 8, z ∈ [−10, 9] (191 nodes, step 0.1), σ ∈ [0.5,
   * 200] (101 nodes uniform in ln σ, step 0.06). Ranges: above z = 8 the ratio is 1 to 1e-15 at every σ (the
   * tilted distribution is the cavity up to a tail of mass Φ(−z)), z = 9 leaves the stencil margin; below z = −10
   * (a site far on the wrong side) and outside σ ∈ [0.5, 200] the exact quadrature serves (none of the measured
   * cavities; with signal variance ≤ 10⁴, the default bound, and non-negative sites a cavity has σ ≤ 100). σ_max:
   * from σ ≈ 500 up the exact rules no longer reach 1e-13 at every z ({@link W2Projection#sigma}), so nodes there
   * would not be exact. Node counts: the measured interpolation error is below 2e-11 relative ({@code QpTableTest};
   * 1-D scans: step 0.125 in z and 0.1 in ln σ give ~1e-10 and ~2e-9). Build: ~20 s on 2 cores.
   */
  public static final QpTable.Grid PROBIT_WIDE_GRID =
      new QpTable.Grid(8, 191, -10, 9, 101, 0.5, 200, QpTable.Axis.Z);
  /** Relative tolerance of each tabulated σ_QP. */
  public static final double BUILD_REL_TOL = 1e-13;

  private QpTables() {}

  /** Builds the probit table on {@link #PROBIT_GRID} (deterministic to the bit) and writes it to out. */
  public static QpTable buildProbit(Path out) throws IOException {
    return buildAndWrite(PROBIT_GRID, out);
  }

  /** Builds the wide probit table on {@link #PROBIT_WIDE_GRID} (deterministic to the bit) and writes it to out. */
  public static QpTable buildProbitWide(Path out) throws IOException {
    return buildAndWrite(PROBIT_WIDE_GRID, out);
  }

  private static QpTable buildAndWrite(QpTable.Grid grid, Path out) throws IOException {
    QpTable t = QpTable.build(Probit.get(), grid, BUILD_REL_TOL);
    Path parent = out.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    try (OutputStream os = new BufferedOutputStream(Files.newOutputStream(out))) {
      t.write(os);
    }
    return t;
  }

  /**
   * The shipped tables for the likelihood called {@code likelihoodName}, in order of precedence: for the probit
   * {@link #probit()} then {@link #probitWide()}; none for any other likelihood (its W2 projection is exact).
   */
  public static List<QpTable> shipped(String likelihoodName) {
    return likelihoodName.equals(Probit.get().name()) ? List.of(probit(), probitWide()) : List.of();
  }

  /** Every shipped table, in order of precedence (today the probit's: {@link #shipped}("probit")). */
  public static List<QpTable> all() {
    return shipped(Probit.get().name());
  }

  /** The shipped probit table, loaded on first use (thread-safe, initialisation-on-demand holder). */
  public static QpTable probit() {
    return ProbitHolder.TABLE;
  }

  /** The shipped wide probit table ({@link #PROBIT_WIDE_GRID}), loaded on first use (thread-safe). */
  public static QpTable probitWide() {
    return ProbitWideHolder.TABLE;
  }

  private static final class ProbitHolder {
    static final QpTable TABLE = load(PROBIT_RESOURCE);
  }

  private static final class ProbitWideHolder {
    static final QpTable TABLE = load(PROBIT_WIDE_RESOURCE);
  }

  private static QpTable load(String resource) {
    try (InputStream in = QpTables.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(
            "QP table resource " + resource + " is missing; build it with "
                + "QpTables.buildProbit(Path) / buildProbitWide(Path) (approxgp qp-table build [probit|probit-wide])");
      }
      return QpTable.read(new BufferedInputStream(in));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read QP table resource " + resource, e);
    }
  }

  /** {@code main(out [probit|probit-wide])}: builds the probit table (default) or the wide one into the file. */
  public static void main(String[] args) throws IOException {
    if (args.length < 1 || args.length > 2) {
      System.err.println("usage: QpTables <output file> [probit|probit-wide]");
      System.exit(2);
    }
    long t0 = System.nanoTime();
    boolean wide = args.length == 2 && args[1].equals("probit-wide");
    QpTable t = wide ? buildProbitWide(Path.of(args[0])) : buildProbit(Path.of(args[0]));
    System.out.printf(
        java.util.Locale.ROOT,
        "%s written to %s in %.1f s%n",
        t,
        args[0],
        (System.nanoTime() - t0) * 1e-9);
  }
}
