package org.approxgp.projection;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.approxgp.likelihood.Probit;

/**
 * The shipped QP lookup tables: building ({@code approxgp qp-table build} calls {@link #buildProbit})
 * and lazy, thread-safe loading from the JAR resource {@value #PROBIT_RESOURCE}.
 */
public final class QpTables {
  /** Resource name, relative to this package. */
  public static final String PROBIT_RESOURCE = "qp-probit.table";
  /**
   * The shipped probit grid: local Lagrange order 8 (degree 7), 301 × 121 nodes; μ ∈ [−10, 10] and σ ∈ [0.1, 10] as in the paper's
   * appendix J; node counts chosen for a measured interpolation error below 1e-8 relative.
   */
  public static final QpTable.Grid PROBIT_GRID = new QpTable.Grid(8, 301, -10, 10, 121, 0.1, 10);
  /** Relative tolerance of each tabulated σ_QP. */
  public static final double BUILD_REL_TOL = 1e-13;

  private QpTables() {}

  /** Builds the probit table on {@link #PROBIT_GRID} (deterministic to the bit) and writes it to out. */
  public static QpTable buildProbit(Path out) throws IOException {
    QpTable t = QpTable.build(Probit.get(), PROBIT_GRID, BUILD_REL_TOL);
    Path parent = out.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    try (OutputStream os = new BufferedOutputStream(Files.newOutputStream(out))) {
      t.write(os);
    }
    return t;
  }

  /** The shipped probit table, loaded on first use (thread-safe, initialisation-on-demand holder). */
  public static QpTable probit() {
    return ProbitHolder.TABLE;
  }

  private static final class ProbitHolder {
    static final QpTable TABLE = load(PROBIT_RESOURCE);
  }

  private static QpTable load(String resource) {
    try (InputStream in = QpTables.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("QP table resource " + resource + " is missing; build it with "
            + "QpTables.buildProbit(Path) (approxgp qp-table build)");
      }
      return QpTable.read(new BufferedInputStream(in));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read QP table resource " + resource, e);
    }
  }

  /** {@code main(out)}: builds the probit table into the given file. */
  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      System.err.println("usage: QpTables <output file>");
      System.exit(2);
    }
    long t0 = System.nanoTime();
    QpTable t = buildProbit(Path.of(args[0]));
    System.out.printf(java.util.Locale.ROOT, "%s written to %s in %.1f s%n", t, args[0],
        (System.nanoTime() - t0) * 1e-9);
  }
}
