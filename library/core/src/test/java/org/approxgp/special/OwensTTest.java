package org.approxgp.special;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@link OwensT} against {@code owens_t.csv} (mpmath; every Patefield–Tandy region, h = 0, a = 0,
 * a = ±∞, |a| &gt; 1, negative h and a), absolute error, plus the identities.
 */
class OwensTTest {

  private static final double INV_2PI = 1.0 / (2.0 * Math.PI);

  @Test
  void table() {
    final ErrorStats st = new ErrorStats("owens_t.csv (abs)", 1e-14, 3e-17);
    final ErrorStats special = new ErrorStats("owens_t.csv special cases (abs)", 1e-14, 5e-17);
    final ErrorStats rel = new ErrorStats(
        "owens_t.csv (rel, T >= 1e-300)", 1e-13, 1e-14); // measured max 2.1e-14, RMS 1.7e-15
    for (ReferenceTable.Row r : ReferenceTable.load("owens_t.csv")) {
      final double h = r.d("h");
      final double a = r.d("a");
      final double got = OwensT.value(h, a);
      st.add(ReferenceTable.absDiff(got, r.big("T")), r);
      if (h == 0 || a == 0 || Double.isInfinite(a) || Math.abs(a) == 1.0) {
        special.add(ReferenceTable.absDiff(got, r.big("T")), r);
      }
      if (r.big("T").abs().doubleValue() >= 1e-300) {
        rel.add(ReferenceTable.relErr(got, r.big("T"), Double.MIN_NORMAL), r);
      }
    }
    st.check();
    special.check();
    rel.check();
  }

  @Test
  void identities() {
    for (double h = -6; h <= 6; h += 0.37) {
      // T(h, ±∞) = ±½Φ(−|h|)
      assertEquals(
          0.5 * Normal.cdf(-Math.abs(h)), OwensT.value(h, Double.POSITIVE_INFINITY), 1e-16);
      assertEquals(
          -0.5 * Normal.cdf(-Math.abs(h)), OwensT.value(h, Double.NEGATIVE_INFINITY), 1e-16);
      // T(h, 1) = ½Φ(h)Φ(−h)
      assertEquals(0.5 * Normal.cdf(h) * Normal.cdf(-h), OwensT.value(h, 1.0), 1e-16);
      assertEquals(0.0, OwensT.value(h, 0.0), 0.0);
      for (double a = -5; a <= 5; a += 0.29) {
        final double t = OwensT.value(h, a);
        assertEquals(t, OwensT.value(-h, a), 0.0);
        assertEquals(-t, OwensT.value(h, -a), 0.0);
        if (h != 0 && a != 0) {
          // T(h,a) + T(ah,1/a) = ½Φ(h) + ½Φ(ah) − Φ(h)Φ(ah) − ½[h·a... ] for h ≥ 0, a > 0
          final double hh = Math.abs(h);
          final double aa = Math.abs(a);
          final double rhs = 0.5 * Normal.cdf(hh)
              + 0.5 * Normal.cdf(aa * hh)
              - Normal.cdf(hh) * Normal.cdf(aa * hh);
          assertEquals(rhs, OwensT.value(hh, aa) + OwensT.value(aa * hh, 1 / aa), 2e-16);
        }
      }
    }
    for (double a = -20; a <= 20; a += 0.5) {
      assertEquals(Math.atan(a) * INV_2PI, OwensT.value(0.0, a), 1e-17);
    }
    assertEquals(0.25, OwensT.value(0.0, Double.POSITIVE_INFINITY), 0.0);
    assertEquals(0.0, OwensT.value(Double.POSITIVE_INFINITY, 3.0), 0.0);
    assertEquals(0.0, OwensT.value(Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY), 0.0);
    assertTrue(Double.isNaN(OwensT.value(Double.NaN, 1.0)));
    assertTrue(Double.isNaN(OwensT.value(1.0, Double.NaN)));
  }
}
