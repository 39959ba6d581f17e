package org.approxgp.special;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * {@link Normal} against {@code normal.csv} and {@code normal_quantile.csv} (mpmath, 40 digits).
 * Errors are relative, |got − exact|/max(|exact|, MIN_NORMAL): relative wherever the exact value
 * is a normal double, absolute in units of MIN_NORMAL where it is subnormal (Φ(z) for z &lt; −37.5,
 * log Φ(z) and N(z)/Φ(z) for z &gt; 37.5), since no subnormal carries full relative precision.
 */
class NormalTest {

  private static final List<ReferenceTable.Row> NORMAL = ReferenceTable.load("normal.csv");

  private static void check(
      String name, String column, double budget, double rmsBudget, DoubleUnaryOperator f) {
    final ErrorStats st = new ErrorStats(name, budget, rmsBudget);
    for (ReferenceTable.Row r : NORMAL) {
      final double z = r.d("z");
      st.add(ReferenceTable.relErr(f.applyAsDouble(z), r.big(column), Double.MIN_NORMAL), r);
    }
    st.check();
  }

  @Test
  void pdf() {
    check("normal.csv pdf (rel)", "pdf", 1e-14, 4e-16, Normal::pdf);
  }

  @Test
  void logPdf() {
    check("normal.csv logPdf (rel)", "logpdf", 1e-14, 3e-16, Normal::logPdf);
  }

  @Test
  void cdf() {
    check("normal.csv cdf (rel)", "cdf", 1e-13, 4e-16, Normal::cdf);
  }

  @Test
  void logCdf() {
    check("normal.csv logCdf (rel, z in [-1e5, 40])", "logcdf", 1e-13, 4e-16, Normal::logCdf);
  }

  @Test
  void ratio() {
    check("normal.csv N/Phi ratio (rel)", "ratio", 1e-13, 5e-16, Normal::ratio);
  }

  @Test
  void quantile() {
    final ErrorStats st = new ErrorStats("normal_quantile.csv (rel)", 1e-13, 5e-16);
    for (ReferenceTable.Row r : ReferenceTable.load("normal_quantile.csv")) {
      st.add(
          ReferenceTable.relErr(Normal.quantile(r.d("p")), r.big("quantile"), Double.MIN_NORMAL),
          r);
    }
    st.check();
  }

  @Test
  void limitsAndSpecialValues() {
    assertEquals(0.0, Normal.cdf(Double.NEGATIVE_INFINITY));
    assertEquals(0.0, Normal.pdf(Double.POSITIVE_INFINITY));
    assertEquals(Double.NEGATIVE_INFINITY, Normal.logPdf(Double.NEGATIVE_INFINITY));
    assertEquals(1.0, Normal.cdf(Double.POSITIVE_INFINITY));
    assertEquals(0.5, Normal.cdf(0.0));
    assertEquals(Double.NEGATIVE_INFINITY, Normal.logCdf(Double.NEGATIVE_INFINITY));
    assertEquals(0.0, Normal.logCdf(Double.POSITIVE_INFINITY), 0.0);
    assertEquals(Double.POSITIVE_INFINITY, Normal.ratio(Double.NEGATIVE_INFINITY));
    assertEquals(0.0, Normal.ratio(Double.POSITIVE_INFINITY), 0.0);
    assertEquals(Double.NEGATIVE_INFINITY, Normal.quantile(0.0));
    assertEquals(Double.POSITIVE_INFINITY, Normal.quantile(1.0));
    assertEquals(0.0, Normal.quantile(0.5));
    assertTrue(Double.isNaN(Normal.quantile(-0.1)));
    assertTrue(Double.isNaN(Normal.quantile(1.1)));
    assertTrue(Double.isNaN(Normal.cdf(Double.NaN)));
    assertTrue(Double.isNaN(Normal.logCdf(Double.NaN)));
    assertTrue(Double.isNaN(Normal.ratio(Double.NaN)));
    // ratio → −z as z → −∞ (N/Φ = −z + 1/z·... ): at z = −1e8 equal to 1e8 to rounding
    assertEquals(1e8, Normal.ratio(-1e8), 1e8 * 1e-15);
    // log Φ(−1e5) ≈ −5e9 − log(1e5 √(2π))
    assertEquals(-5e9 - Math.log(1e5 * Math.sqrt(2 * Math.PI)), Normal.logCdf(-1e5), 5e9 * 1e-15);
  }

  @Test
  void symmetryAndRoundTrip() {
    for (double z = -8; z <= 8; z += 0.0625) {
      assertEquals(1.0, Normal.cdf(z) + Normal.cdf(-z), 2e-16, "z=" + z);
      assertEquals(Normal.survival(z), Normal.cdf(-z));
      assertEquals(Normal.logSurvival(z), Normal.logCdf(-z));
    }
    for (double lp = -700; lp < -1; lp += 7.3) {
      final double p = Math.exp(lp);
      final double z = Normal.quantile(p);
      assertEquals(1.0, Normal.cdf(z) / p, 1e-13 * Math.max(1, z * z), "p=" + p);
    }
  }

  @Test
  void logCdfIsMonotoneAcrossBranchSwitches() {
    double prev = Normal.logCdf(-1.1);
    for (double z = -1.1; z <= 0.2; z = Math.nextUp(z + 1e-4)) {
      final double v = Normal.logCdf(z);
      assertTrue(v >= prev, "z=" + z);
      prev = v;
    }
  }
}
