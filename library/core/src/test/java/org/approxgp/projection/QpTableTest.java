package org.approxgp.projection;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
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
        assertTrue(
            r > 0 && r <= 1 + 1e-12, "ratio " + r + " at mu=" + t.mu(i) + " sigma=" + t.sigma(j));
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
        int j = k >= 40 && k < 80
            ? (k % 2 == 0 ? 0 : t.logSigmaCount() - 2)
            : rng.nextInt(t.logSigmaCount() - 1);
        pts[k] = new double[] {t.mu(i) + 0.5 * hMu, t.sigma(j) * Math.exp(0.5 * hLam)};
      } else {
        pts[k] = new double[] {
          t.muMin() + (t.muMax() - t.muMin()) * rng.nextDouble(),
          t.sigmaMin() * Math.exp(Math.log(t.sigmaMax() / t.sigmaMin()) * rng.nextDouble())
        };
      }
    }
    double[] err = IntStream.range(0, n)
        .parallel()
        .mapToDouble(k -> {
          double exact = QpTable.exactRatio(P, pts[k][0], pts[k][1], 1e-13);
          return Math.abs(t.ratio(1, pts[k][0], pts[k][1]) - exact) / exact;
        })
        .toArray();
    double max = 0;
    int worst = 0;
    for (int k = 0; k < n; k++) {
      if (err[k] > max) {
        max = err[k];
        worst = k;
      }
    }
    System.out.printf(
        "QP table: max relative interpolation error %.3e at mu=%.6f sigma=%.6f (%d points)%n",
        max, pts[worst][0], pts[worst][1], n);
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
          assertEquals(
              b.variance(), a.variance(), 2e-8 * b.variance(), "y=" + y + " m=" + m + " v=" + v);
          assertEquals(b.mean(), a.mean(), 0);
          assertEquals(b.logZ(), a.logZ(), 0);
        }
      }
    }
  }

  /** Off both grids (and for other likelihoods) the exact projection is used: never σ_EP, never clamping. */
  @Test
  void offGridIsExact() {
    W2Projection tab = W2Projection.probitTabulated();
    // z = −17.3 (below the wide grid), σ = 1000 (above it), σ = 0.01 (below both)
    double[][] off = {{1, -30, 2}, {-1, 3, 1e6}, {1, 0.5, 1e-4}};
    for (double[] c : off) {
      assertTrue(!tab.covers(P, c[0], c[1], c[2]));
      TiltedMoments a = tab.project(P, c[0], c[1], c[2]);
      TiltedMoments b = W2Projection.exact().project(P, c[0], c[1], c[2]);
      assertEquals(b.variance(), a.variance(), 0);
    }
    Gaussian g = Gaussian.of(1);
    assertTrue(!tab.table().covers(g, 1, 0, 1));
    assertThrows(IllegalArgumentException.class, () -> tab.table().ratio(1, 11, 1));
  }

  @Test
  void shippedWideTableHasTheDocumentedGrid() {
    QpTable t = QpTables.probitWide();
    QpTable.Grid g = QpTables.PROBIT_WIDE_GRID;
    assertEquals("probit", t.likelihood());
    assertEquals(QpTable.Axis.Z, t.axis());
    assertEquals(g.order(), t.order());
    assertEquals(g.nMu(), t.muCount());
    assertEquals(g.nLogSigma(), t.logSigmaCount());
    assertEquals(g.muMin(), t.muMin());
    assertEquals(g.muMax(), t.muMax());
    assertEquals(g.sigmaMin(), t.sigmaMin(), 1e-15);
    assertEquals(g.sigmaMax(), t.sigmaMax(), 1e-12);
    assertSame(t, QpTables.probitWide(), "loaded once");
    assertEquals(
        List.of(QpTables.probit(), QpTables.probitWide()),
        W2Projection.probitTabulated().tables());
  }

  /** Theorem 2 at every node of the wide table, and the ratio is 1 at its top rows (z = 9: QP = EP). */
  @Test
  void theorem2AtEveryWideNode() {
    QpTable t = QpTables.probitWide();
    double max = 0;
    for (int i = 0; i < t.muCount(); i++) {
      for (int j = 0; j < t.logSigmaCount(); j++) {
        double r = t.value(i, j);
        assertTrue(
            r > 0 && r <= 1 + 1e-12, "ratio " + r + " at z=" + t.mu(i) + " sigma=" + t.sigma(j));
        max = Math.max(max, r);
      }
    }
    System.out.printf("wide QP table: largest node ratio 1 + %.2e%n", max - 1);
    for (int j = 0; j < t.logSigmaCount(); j++) {
      assertEquals(1, t.value(t.muCount() - 1, j), 1e-13, "z = 9, sigma = " + t.sigma(j));
    }
  }

  /**
   * Interpolation error of the wide table at off-grid points — cell midpoints (seeded cells, border rows and
   * columns included) and uniformly random (z, ln σ) — against the exact projection: ≤ 1e-8 relative (the
   * measured maximum is printed; ~1e-10).
   */
  @Test
  void wideInterpolationErrorOffGrid() {
    QpTable t = QpTables.probitWide();
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(17L);
    int n = 300;
    double[][] pts = new double[n][];
    double hZ = (t.muMax() - t.muMin()) / (t.muCount() - 1);
    double lr = Math.log(t.sigmaMax() / t.sigmaMin());
    double hLam = lr / (t.logSigmaCount() - 1);
    for (int k = 0; k < n; k++) {
      if (k < n / 2) {
        int i = k < 30 ? (k % 2 == 0 ? 0 : t.muCount() - 2) : rng.nextInt(t.muCount() - 1);
        int j = k >= 30 && k < 60
            ? (k % 2 == 0 ? 0 : t.logSigmaCount() - 2)
            : rng.nextInt(t.logSigmaCount() - 1);
        pts[k] = new double[] {t.mu(i) + 0.5 * hZ, t.sigma(j) * Math.exp(0.5 * hLam)};
      } else {
        pts[k] = new double[] {
          t.muMin() + (t.muMax() - t.muMin()) * rng.nextDouble(),
          t.sigmaMin() * Math.exp(lr * rng.nextDouble())
        };
      }
    }
    double[] err = IntStream.range(0, n)
        .parallel()
        .mapToDouble(k -> {
          double sigma = pts[k][1];
          double mu = pts[k][0] * Math.sqrt(1 + sigma * sigma);
          double exact = QpTable.exactRatio(P, mu, sigma, 1e-13);
          return Math.abs(t.ratio(1, mu, sigma) - exact) / exact;
        })
        .toArray();
    int worst = 0;
    for (int k = 0; k < n; k++) {
      worst = err[k] > err[worst] ? k : worst;
    }
    System.out.printf(
        "wide QP table: max relative interpolation error %.3e at z=%.6f sigma=%.6f (%d points)%n",
        err[worst], pts[worst][0], pts[worst][1], n);
    assertTrue(err[worst] <= 1e-8, "max relative interpolation error " + err[worst]);
  }

  /**
   * The shipped projection: the narrow table wherever it covers (bit-identical to it alone), the wide table off it
   * (both labels, equal to the exact projection to 1e-8), exact off both.
   */
  @Test
  void probitTabulatedChoosesNarrowThenWide() {
    W2Projection both = W2Projection.probitTabulated();
    W2Projection narrow = W2Projection.tabulated(QpTables.probit());
    for (double[] c : new double[][] {{1, -7.3, 0.02}, {-1, 2.2, 30}, {1, 9.9, 99}}) {
      assertTrue(QpTables.probit().covers(P, c[0], c[1], c[2]));
      assertEquals(
          narrow.project(P, c[0], c[1], c[2]).variance(),
          both.project(P, c[0], c[1], c[2]).variance(),
          0);
    }
    for (double y : new double[] {1, -1}) {
      // Table 1's heavy folds: σ 14..99, y μ up to ~200; and σ < 10 with |μ| > 10 (crabs)
      for (double[] c :
          new double[][] {{150, 80 * 80}, {-40, 30 * 30}, {12, 2.5 * 2.5}, {0.3, 180 * 180}}) {
        double m = y * c[0];
        assertTrue(!QpTables.probit().covers(P, y, m, c[1])
            && QpTables.probitWide().covers(P, y, m, c[1]));
        TiltedMoments a = both.project(P, y, m, c[1]);
        TiltedMoments b = W2Projection.exact(1e-13).project(P, y, m, c[1]);
        assertEquals(
            b.variance(), a.variance(), 2e-8 * b.variance(), "y=" + y + " m=" + m + " v=" + c[1]);
        assertEquals(b.mean(), a.mean(), 0);
        assertEquals(b.logZ(), a.logZ(), 0);
      }
    }
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
    // a z-axis table: its nodes are the exact ratio at μ = z √(1 + σ²), and it round-trips with its
    // axis
    QpTable.Grid smallZ = new QpTable.Grid(4, 6, -2, 3, 5, 20, 60, QpTable.Axis.Z);
    QpTable z = QpTable.build(P, smallZ, 1e-12);
    ByteArrayOutputStream bz = new ByteArrayOutputStream();
    z.write(bz);
    QpTable zr = QpTable.read(new ByteArrayInputStream(bz.toByteArray()));
    assertEquals(QpTable.Axis.Z, zr.axis());
    for (int i = 0; i < z.muCount(); i++) {
      for (int j = 0; j < z.logSigmaCount(); j++) {
        double sigma = z.sigma(j);
        double mu = z.mu(i) * Math.sqrt(1 + sigma * sigma);
        assertEquals(QpTable.exactRatio(P, mu, sigma, 1e-12), zr.value(i, j), 0);
        assertEquals(z.value(i, j), zr.ratio(1, mu, sigma), 1e-15);
        assertEquals(z.value(i, j), zr.ratio(-1, -mu, sigma), 1e-15);
      }
    }
  }

  /**
   * The shipped wide table is what {@link QpTables#PROBIT_WIDE_GRID} builds today, to the bit (sampled nodes,
   * recomputed): a change of the exact projection that moves any node must rebuild the resource.
   */
  @Test
  void shippedWideNodesAreReproducible() {
    QpTable t = QpTables.probitWide();
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(13L);
    for (int k = 0; k < 30; k++) {
      int i = rng.nextInt(t.muCount());
      int j = rng.nextInt(t.logSigmaCount());
      double sigma = t.sigma(j);
      double mu = t.mu(i) * Math.sqrt(1 + sigma * sigma);
      assertEquals(
          QpTable.exactRatio(P, mu, sigma, QpTables.BUILD_REL_TOL),
          t.value(i, j),
          0.0,
          "node " + i + "," + j);
    }
  }

  /**
   * covers and ratio agree at the grids' edges: every cavity a table covers is read without an error, for
   * variances a few ulps around σ_min² and σ_max² and first coordinates a few ulps around its ends (both tables).
   */
  @Test
  void coveredCavitiesAtTheEdgesAreRead() {
    int covered = 0;
    for (QpTable t : new QpTable[] {QpTables.probit(), QpTables.probitWide()}) {
      for (double sigma :
          new double[] {t.sigmaMin(), t.sigmaMax(), Math.sqrt(t.sigmaMin() * t.sigmaMax())}) {
        double v0 = sigma * sigma;
        for (int dv = -8; dv <= 8; dv++) {
          double v = v0 + dv * Math.ulp(v0);
          double s = Math.sqrt(v);
          for (double x : new double[] {t.muMin(), t.muMax(), 0.5 * (t.muMin() + t.muMax())}) {
            double m0 = t.axis() == QpTable.Axis.MU ? x : x * Math.sqrt(1 + v);
            for (int dm = -4; dm <= 4; dm++) {
              double m = m0 + dm * Math.ulp(m0);
              for (double y : new double[] {1, -1}) {
                if (t.covers(P, y, y * m, v)) {
                  covered++;
                  double r = t.ratio(y, y * m, s);
                  assertTrue(r > 0 && r <= 1 + 1e-12, t + " at y " + y + ", m " + m + ", v " + v);
                }
              }
            }
          }
        }
      }
    }
    assertTrue(covered > 1000, "edge cavities covered: " + covered);
  }

  /**
   * The shipped table is what {@link QpTables#PROBIT_GRID} builds today, to the bit: sampled nodes and the whole
   * top row σ = 10 (where the probit's cumulative rule for σ &gt; 10 starts: the node's σ is 10(1 + 2e-16)),
   * recomputed. A change of the exact projection that moves any node must rebuild the resource.
   */
  @Test
  void shippedNodesAreReproducible() {
    QpTable t = QpTables.probit();
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(11L);
    for (int k = 0; k < 40; k++) {
      int i = rng.nextInt(t.muCount());
      int j = rng.nextInt(t.logSigmaCount());
      assertEquals(
          QpTable.exactRatio(P, t.mu(i), t.sigma(j), QpTables.BUILD_REL_TOL),
          t.value(i, j),
          0.0,
          "node " + i + "," + j);
    }
    int top = t.logSigmaCount() - 1;
    for (int i = 0; i < t.muCount(); i++) {
      assertEquals(
          QpTable.exactRatio(P, t.mu(i), t.sigma(top), QpTables.BUILD_REL_TOL),
          t.value(i, top),
          0.0,
          "node " + i + "," + top);
    }
  }
}
