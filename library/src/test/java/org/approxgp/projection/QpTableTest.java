package org.approxgp.projection;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.stream.IntStream;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.approxgp.likelihood.Gaussian;
import org.approxgp.likelihood.Probit;
import org.approxgp.likelihood.TiltedMoments;
import org.junit.jupiter.api.Test;

/** The shipped probit QP table (appendix J): accuracy off the grid, Theorem 2 on the grid, fallbacks. */
class QpTableTest {
  private static final Probit P = Probit.get();

  @Test
  void shippedTableHasTheDocumentedGrid() {
    QpTable t = QpTables.probit();
    QpTable.Grid g = QpTables.PROBIT_GRID;
    assertEquals("probit", t.likelihood());
    assertEquals(g.order(), t.order());
    assertEquals(g.nMu(), t.muCount());
    assertEquals(g.nLogSigma(), t.logSigmaCount());
    assertEquals(g.muMin(), t.muMin());
    assertEquals(g.muMax(), t.muMax());
    assertEquals(g.sigmaMin(), t.sigmaMin(), 1e-15);
    assertEquals(g.sigmaMax(), t.sigmaMax(), 1e-14);
    assertSame(t, QpTables.probit(), "loaded once");
  }

  /** Theorem 2 at every grid point: 0 &lt; σ_QP/σ_EP ≤ 1 (up to 1e-12 for cavities where QP = EP). */
  @Test
  void theorem2AtEveryGridPoint() {
    QpTable t = QpTables.probit();
    double max = 0;
    for (int i = 0; i < t.muCount(); i++) {
      for (int j = 0; j < t.logSigmaCount(); j++) {
        double r = t.value(i, j);
        assertTrue(r > 0 && r <= 1 + 1e-12, "ratio " + r + " at mu=" + t.mu(i) + " sigma=" + t.sigma(j));
        max = Math.max(max, r);
      }
    }
    assertTrue(max > 1 - 1e-9, "max ratio " + max);
  }

  /**
   * Interpolation error at off-grid points — cell midpoints (a seeded sample of cells, including the
   * border rows) and uniformly random points — against the exact projection: ≤ 1e-8 relative.
   */
  @Test
  void interpolationErrorOffGrid() {
    QpTable t = QpTables.probit();
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(7L);
    int n = 600;
    double[][] pts = new double[n][];
    double hMu = (t.muMax() - t.muMin()) / (t.muCount() - 1);
    double hLam = Math.log(t.sigmaMax() / t.sigmaMin()) / (t.logSigmaCount() - 1);
    for (int k = 0; k < n; k++) {
      if (k < n / 2) {
        int i = k < 40 ? (k % 2 == 0 ? 0 : t.muCount() - 2) : rng.nextInt(t.muCount() - 1);
        int j = k >= 40 && k < 80 ? (k % 2 == 0 ? 0 : t.logSigmaCount() - 2) : rng.nextInt(t.logSigmaCount() - 1);
        pts[k] = new double[] {t.mu(i) + 0.5 * hMu, t.sigma(j) * Math.exp(0.5 * hLam)};
      } else {
        pts[k] = new double[] {t.muMin() + (t.muMax() - t.muMin()) * rng.nextDouble(),
            t.sigmaMin() * Math.exp(Math.log(t.sigmaMax() / t.sigmaMin()) * rng.nextDouble())};
      }
    }
    double[] err = IntStream.range(0, n).parallel().mapToDouble(k -> {
      double exact = QpTable.exactRatio(P, pts[k][0], pts[k][1], 1e-13);
      return Math.abs(t.ratio(1, pts[k][0], pts[k][1]) - exact) / exact;
    }).toArray();
    double max = 0;
    int worst = 0;
    for (int k = 0; k < n; k++) {
      if (err[k] > max) {
        max = err[k];
        worst = k;
      }
    }
    System.out.printf("QP table: max relative interpolation error %.3e at mu=%.6f sigma=%.6f (%d points)%n", max,
        pts[worst][0], pts[worst][1], n);
    assertTrue(max <= 1e-8, "max relative interpolation error " + max);
  }

  /** The table serves y = −1 by μ → −μ, and the tabulated projection equals the exact one to ~1e-8. */
  @Test
  void tabulatedProjectionMatchesExact() {
    W2Projection tab = W2Projection.probitTabulated();
    for (double y : new double[] {1, -1}) {
      for (double m : new double[] {-7.3, -1.1, 0.05, 2.2}) {
        for (double v : new double[] {0.02, 0.9, 30}) {
          TiltedMoments a = tab.project(P, y, m, v);
          TiltedMoments b = W2Projection.exact(1e-13).project(P, y, m, v);
          assertEquals(b.variance(), a.variance(), 2e-8 * b.variance(), "y=" + y + " m=" + m + " v=" + v);
          assertEquals(b.mean(), a.mean(), 0);
          assertEquals(b.logZ(), a.logZ(), 0);
        }
      }
    }
  }

  /** Off the grid (and for other likelihoods) the exact projection is used: never σ_EP, never clamping. */
  @Test
  void offGridIsExact() {
    W2Projection tab = W2Projection.probitTabulated();
    double[][] off = {{1, -14, 2}, {-1, 3, 400}, {1, 0.5, 1e-4}};
    for (double[] c : off) {
      assertTrue(!tab.table().covers(P, c[0], c[1], c[2]));
      TiltedMoments a = tab.project(P, c[0], c[1], c[2]);
      TiltedMoments b = W2Projection.exact().project(P, c[0], c[1], c[2]);
      assertEquals(b.variance(), a.variance(), 0);
    }
    Gaussian g = Gaussian.of(1);
    assertTrue(!tab.table().covers(g, 1, 0, 1));
    assertThrows(IllegalArgumentException.class, () -> tab.table().ratio(1, 11, 1));
  }

  /** Building is deterministic to the bit whatever the thread scheduling; write/read round-trips. */
  @Test
  void buildIsDeterministicAndRoundTrips() throws IOException {
    QpTable.Grid small = new QpTable.Grid(4, 9, -3, 2, 7, 0.5, 4);
    QpTable a = QpTable.build(P, small, 1e-12);
    QpTable b = QpTable.build(P, small, 1e-12);
    ByteArrayOutputStream ba = new ByteArrayOutputStream();
    ByteArrayOutputStream bb = new ByteArrayOutputStream();
    a.write(ba);
    b.write(bb);
    assertArrayEquals(ba.toByteArray(), bb.toByteArray());
    QpTable c = QpTable.read(new ByteArrayInputStream(ba.toByteArray()));
    for (int i = 0; i < a.muCount(); i++) {
      for (int j = 0; j < a.logSigmaCount(); j++) {
        assertEquals(a.value(i, j), c.value(i, j), 0);
        // each node is the exact ratio, computed serially here
        assertEquals(QpTable.exactRatio(P, a.mu(i), a.sigma(j), 1e-12), a.value(i, j), 0);
      }
    }
    // interpolation reproduces the nodes
    assertEquals(a.value(3, 2), a.ratio(1, a.mu(3), a.sigma(2)), 1e-15);
  }

  /** The shipped table is what {@link QpTables#PROBIT_GRID} builds today (sampled nodes, recomputed). */
  @Test
  void shippedNodesAreReproducible() {
    QpTable t = QpTables.probit();
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(11L);
    for (int k = 0; k < 40; k++) {
      int i = rng.nextInt(t.muCount());
      int j = rng.nextInt(t.logSigmaCount());
      assertEquals(QpTable.exactRatio(P, t.mu(i), t.sigma(j), QpTables.BUILD_REL_TOL), t.value(i, j), 1e-13,
          "node " + i + "," + j);
    }
  }
}
