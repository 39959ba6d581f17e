package org.approxgp.special;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link GaussHermite}: nodes and weights against {@code gauss_hermite.csv} (mpmath, n = 1..200), exactness
 * on polynomials, and Gaussian expectations.
 */
class GaussHermiteTest {

  @Test
  void nodesAndWeightsAgainstMpmath() {
    final ErrorStats nodes = new ErrorStats("gauss_hermite.csv nodes |d|/max(1,|x|)", 1e-14, 2e-16);
    final ErrorStats weights = new ErrorStats("gauss_hermite.csv weights (rel)", 1e-12, 5e-14);
    final List<ReferenceTable.Row> rows = ReferenceTable.load("gauss_hermite.csv");
    int i = 0;
    int current = -1;
    double[] x = null;
    double[] w = null;
    for (ReferenceTable.Row r : rows) {
      final int n = r.i("n");
      if (n != current) {
        current = n;
        x = GaussHermite.of(n).nodes();
        w = GaussHermite.of(n).weights();
        i = 0;
      }
      final BigDecimal node = r.big("node");
      nodes.add(ReferenceTable.absDiff(x[i], node) / Math.max(1.0, node.abs().doubleValue()), r);
      weights.add(ReferenceTable.relErr(w[i], r.big("weight"), Double.MIN_NORMAL), r);
      i++;
    }
    nodes.check();
    weights.check();
  }

  @Test
  void exactForPolynomials() {
    // ∫ e^{−x²} x^{2k} dx = Γ(k + ½) = (2k − 1)!! √π / 2^k; odd moments vanish. Exact for 2k ≤ 2n −
    // 1.
    final ErrorStats even = new ErrorStats("Gauss-Hermite even moments (rel)", 1e-13, 5e-15);
    final ErrorStats odd = new ErrorStats("Gauss-Hermite odd moments / sum|terms|", 1e-15, 2e-16);
    for (int n : new int[] {1, 2, 3, 5, 8, 10, 16, 20, 32, 50, 64, 100, 128, 150, 200}) {
      final GaussHermite gh = GaussHermite.of(n);
      final double[] x = gh.nodes();
      final double[] w = gh.weights();
      double exact = Math.sqrt(Math.PI);
      for (int k = 0; 2 * k <= Math.min(2 * n - 1, 120); k++) {
        if (k > 0) {
          exact *= (2 * k - 1) / 2.0;
        }
        double s = 0;
        double so = 0;
        double sa = 0;
        for (int i = 0; i < n; i++) {
          s += w[i] * Math.pow(x[i], 2 * k);
          if (2 * k + 1 <= 2 * n - 1) {
            so += w[i] * Math.pow(x[i], 2 * k + 1);
            sa += w[i] * Math.abs(Math.pow(x[i], 2 * k + 1));
          }
        }
        even.add(Math.abs(s - exact) / exact, "n=" + n + " k=" + k);
        if (sa > 0) {
          odd.add(Math.abs(so) / sa, "n=" + n + " k=" + k);
        }
      }
    }
    even.check();
    odd.check();
  }

  @Test
  void expectNormal() {
    final ErrorStats st = new ErrorStats("Gauss-Hermite E[Phi(X)] n=64 (rel)", 1e-13, 1e-15);
    final GaussHermite gh = GaussHermite.of(64);
    for (double m = -3; m <= 3; m += 0.25) {
      for (double v = 0.01; v <= 1.0; v *= 1.6) {
        final double mm = m;
        final double vv = v;
        // E[X³] = m³ + 3mv; E[X⁴] = m⁴ + 6m²v + 3v²
        assertEquals(
            m * m * m + 3 * m * v,
            gh.expectNormal(m, v, t -> t * t * t),
            1e-13 * (1 + Math.abs(m * m * m)));
        assertEquals(
            m * m * m * m + 6 * m * m * v + 3 * v * v,
            gh.expectNormal(m, v, t -> t * t * t * t),
            1e-13 * (1 + m * m * m * m));
        // E[Φ(X)] = Φ(m/√(1 + v))
        final double exact = Normal.cdf(mm / Math.sqrt(1 + vv));
        st.add(Math.abs(gh.expectNormal(m, v, Normal::cdf) - exact) / exact, "m=" + m + " v=" + v);
      }
    }
    st.check();
    assertEquals(Math.sin(0.3), gh.expectNormal(0.3, 0.0, Math::sin), 1e-15);
  }

  @Test
  void cacheIsThreadSafe() {
    // many threads asking for the same fresh n get one instance with identical contents
    final java.util.List<GaussHermite> got = java.util.stream.IntStream.range(0, 64)
        .parallel()
        .mapToObj(i -> GaussHermite.of(77))
        .toList();
    for (GaussHermite g : got) {
      assertSame(got.get(0), g);
    }
  }

  @Test
  void cacheAndImmutability() {
    assertSame(GaussHermite.of(20), GaussHermite.of(20));
    final double[] x = GaussHermite.of(5).nodes();
    x[0] = 99;
    assertEquals(-2.0201828704560856, GaussHermite.of(5).nodes()[0], 1e-15);
    assertEquals(5, GaussHermite.of(5).size());
    assertThrows(IllegalArgumentException.class, () -> GaussHermite.of(0));
    assertThrows(IllegalArgumentException.class, () -> GaussHermite.of(501));
    assertThrows(
        IllegalArgumentException.class, () -> GaussHermite.of(3).expectNormal(0, -1, t -> t));
  }
}
