package org.approxgp.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.approxgp.inference.Prediction;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.report.display.MimeBundles;
import org.junit.jupiter.api.Test;

/** The display layer shows plain values as compact tables and text, one rounding rule, never {@code [D@…}. */
class ValueViewsTest {

  @Test
  void oneRoundingRule() {
    assertEquals("4580", ValueViews.number(4580.2899354349));
    assertEquals("0.3", ValueViews.number(0.30000000000000004));
    assertEquals("0.1235", ValueViews.number(0.123456));
    assertEquals("1.235e-07", ValueViews.number(1.23456e-7));
    assertEquals("2.5e+08", ValueViews.number(2.5e8));
    assertEquals("-66.28", ValueViews.number(-66.281651));
    assertEquals("0", ValueViews.number(0));
    assertEquals("n/a", ValueViews.number(Double.NaN));
  }

  record Cfg(List<Double> powers, int seeds, String name, double[] grid) {}

  @Test
  void valuesRenderWithoutJavaInternals() {
    Prediction p = new Prediction(
        new double[] {0.123456, -2.5, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12},
        new double[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
    SquaredExponential k = SquaredExponential.iso(1.5, 4580.2899354349);
    Cfg c = new Cfg(List.of(0.1, 0.2, 0.30000000000000004), 3, "a", new double[] {1.0 / 3});
    for (Object o : new Object[] {p, k, c, new double[] {Math.PI}}) {
      Map<String, String> bundle = MimeBundles.of(o).orElseThrow();
      String text = bundle.get(MimeBundles.TEXT);
      assertFalse(text.contains("@"), text);
      assertTrue(MimeBundles.supports(o.getClass()), o.getClass().getName());
      String html = bundle.getOrDefault(MimeBundles.HTML, "");
      assertFalse(html.contains("@") || html.contains("0.30000000000000004"), html);
    }
    assertEquals(
        "Prediction{12 points, latent mean [0.1235, -2.5, 3, 4, 5, 6, 7, 8, 9, 10, … 12 values], latent"
            + " variance [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, … 12 values]}",
        ValueViews.text(p));
    assertTrue(ValueViews.text(k).contains("signal_variance=4580"), ValueViews.text(k));
    assertEquals("Cfg{powers=[0.1, 0.2, 0.3], seeds=3, name=a, grid=[0.3333]}", ValueViews.text(c));
    assertEquals(10, ValueViews.of(p).rowCount());
  }
}
