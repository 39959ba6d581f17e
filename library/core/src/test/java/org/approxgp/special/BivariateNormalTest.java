package org.approxgp.special;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link BivariateNormal} against {@code bivariate_normal.csv} (mpmath), absolute error, plus identities. */
class BivariateNormalTest {

  @Test
  void table() {
    final ErrorStats st = new ErrorStats("bivariate_normal.csv (abs)", 3e-14, 2e-16);
    // Owen's formula is accurate in absolute terms only: values far below 1e-16 (lower tail with ρ
    // → −1)
    // carry absolute errors of ~1e-17, so the relative error is reported (not asserted) above 1e-10
    final ErrorStats rel = new ErrorStats(
        "bivariate_normal.csv (rel, value >= 1e-10)",
        2e-6,
        1e-7); // measured max 4.1e-7, RMS 2.2e-8: the relative error of values down to 1e-10
    for (ReferenceTable.Row r : ReferenceTable.load("bivariate_normal.csv")) {
      final double got = BivariateNormal.cdf(r.d("x"), r.d("y"), r.d("rho"));
      st.add(ReferenceTable.absDiff(got, r.big("Phi2")), r);
      if (r.big("Phi2").doubleValue() >= 1e-10) {
        rel.add(ReferenceTable.relErr(got, r.big("Phi2"), Double.MIN_NORMAL), r);
      }
    }
    st.check();
    rel.check();
  }

  @Test
  void identities() {
    for (double x = -5; x <= 5; x += 0.43) {
      for (double y = -5; y <= 5; y += 0.47) {
        // ρ = 0: product
        assertEquals(Normal.cdf(x) * Normal.cdf(y), BivariateNormal.cdf(x, y, 0.0), 1e-15);
        for (double rho = -0.95; rho <= 0.95; rho += 0.15) {
          final double p = BivariateNormal.cdf(x, y, rho);
          // symmetry in (x, y)
          assertEquals(p, BivariateNormal.cdf(y, x, rho), 2e-15);
          // Φ₂(x, y; ρ) + Φ₂(x, −y; −ρ) = Φ(x)
          assertEquals(Normal.cdf(x), p + BivariateNormal.cdf(x, -y, -rho), 4e-15);
        }
      }
    }
    assertEquals(0.25 + Math.asin(0.3) / (2 * Math.PI), BivariateNormal.cdf(0, 0, 0.3), 1e-16);
    assertEquals(Normal.cdf(0.7), BivariateNormal.cdf(0.7, Double.POSITIVE_INFINITY, 0.4), 0.0);
    assertEquals(0.0, BivariateNormal.cdf(Double.NEGATIVE_INFINITY, 1.0, 0.4), 0.0);
    assertEquals(Normal.cdf(-0.5), BivariateNormal.cdf(-0.5, 1.0, 1.0), 0.0);
    assertEquals(0.0, BivariateNormal.cdf(-0.5, 0.2, -1.0), 0.0);
    assertThrows(IllegalArgumentException.class, () -> BivariateNormal.cdf(0, 0, 1.5));
    assertTrue(Double.isNaN(BivariateNormal.cdf(Double.NaN, 0, 0.5)));
  }
}
