package org.approxgp.special;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link Erf} against {@code erf.csv} and {@code erfinv.csv} (mpmath, 40 digits); relative errors. */
class ErfTest {

  private static final List<ReferenceTable.Row> ERF = ReferenceTable.load("erf.csv");

  @Test
  void erf() {
    final ErrorStats st = new ErrorStats("erf.csv erf (rel)", 1e-14, 2e-16);
    for (ReferenceTable.Row r : ERF) {
      st.add(ReferenceTable.relErr(Erf.erf(r.d("x")), r.big("erf"), Double.MIN_NORMAL), r);
    }
    st.check();
  }

  @Test
  void erfc() {
    final ErrorStats st = new ErrorStats("erf.csv erfc (rel)", 1e-14, 3e-16);
    for (ReferenceTable.Row r : ERF) {
      st.add(ReferenceTable.relErr(Erf.erfc(r.d("x")), r.big("erfc"), Double.MIN_NORMAL), r);
    }
    st.check();
  }

  @Test
  void erfcx() {
    final ErrorStats st = new ErrorStats("erf.csv erfcx (rel)", 1e-14, 3e-16);
    for (ReferenceTable.Row r : ERF) {
      if (r.d("x") < -26.6) {
        continue; // erfcx overflows
      }
      st.add(ReferenceTable.relErr(Erf.erfcx(r.d("x")), r.big("erfcx"), Double.MIN_NORMAL), r);
    }
    st.check();
  }

  @Test
  void erfinv() {
    final ErrorStats st = new ErrorStats("erfinv.csv (rel, incl. near +-1)", 1e-13, 3e-16);
    for (ReferenceTable.Row r : ReferenceTable.load("erfinv.csv")) {
      st.add(ReferenceTable.relErr(Erf.erfinv(r.d("x")), r.big("erfinv"), Double.MIN_NORMAL), r);
    }
    st.check();
  }

  @Test
  void specialValues() {
    assertEquals(Double.POSITIVE_INFINITY, Erf.erfinv(1.0));
    assertEquals(Double.NEGATIVE_INFINITY, Erf.erfinv(-1.0));
    assertTrue(Double.isNaN(Erf.erfinv(1.5)));
    assertEquals(0.0, Erf.erfinv(0.0));
    assertEquals(2.0, Erf.erfc(Double.NEGATIVE_INFINITY));
    assertEquals(0.0, Erf.erfcinv(1.0), 0.0);
    assertEquals(Double.NEGATIVE_INFINITY, Erf.erfcinv(2.0));
    assertEquals(Double.POSITIVE_INFINITY, Erf.erfcinv(0.0));
  }
}
