package org.approxgp.report.display;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.approxgp.report.Figures;
import org.approxgp.report.Tables;
import org.approxgp.report.ValueViews;
import org.knowm.xchart.internal.chartpart.Chart;
import tech.tablesaw.api.Table;

/**
 * Kernel-independent rendering: the MIME bundle (MIME type → data) a notebook should show for an
 * object. Images are base64 PNG under {@code image/png}, as the Jupyter protocol requires.
 */
public final class MimeBundles {

  public static final String HTML = "text/html";
  public static final String PNG = "image/png";
  public static final String TEXT = "text/plain";

  private MimeBundles() {}

  /** Whether this class has a bundle for objects of type {@code c}. */
  public static boolean supports(Class<?> c) {
    return Table.class.isAssignableFrom(c)
        || Chart.class.isAssignableFrom(c)
        || org.approxgp.model.FittedGp.class.isAssignableFrom(c)
        || org.approxgp.inference.Posterior.class.isAssignableFrom(c)
        || org.approxgp.kernel.Kernel.class.isAssignableFrom(c)
        || c == double[].class
        || c == int[].class
        || c == long[].class
        || (Record.class.isAssignableFrom(c) && c.getName().startsWith("org.approxgp."));
  }

  public static Optional<Map<String, String>> of(Object o) {
    Map<String, String> m = new LinkedHashMap<>();
    if (o instanceof Table t) {
      m.put(HTML, Tables.toHtml(t));
      m.put(TEXT, t.printAll());
    } else if (o instanceof org.approxgp.model.FittedGp f) {
      m.put(HTML, Tables.toHtml(org.approxgp.report.ModelViews.of(f)));
      m.put(TEXT, f.toString());
    } else if (o instanceof org.approxgp.inference.Posterior p) {
      m.put(HTML, Tables.toHtml(org.approxgp.report.ModelViews.of(p)));
      m.put(TEXT, p.toString());
    } else if (o instanceof org.approxgp.inference.Prediction p) {
      m.put(HTML, Tables.toHtml(ValueViews.of(p)));
      m.put(TEXT, ValueViews.text(p));
    } else if (o instanceof org.approxgp.kernel.Kernel k) {
      m.put(HTML, Tables.toHtml(ValueViews.of(k)));
      m.put(TEXT, ValueViews.text(k));
    } else if (o != null && (o instanceof double[] || o instanceof int[] || o instanceof long[])) {
      m.put(TEXT, ValueViews.text(o));
    } else if (o instanceof org.approxgp.report.RunBanner b) {
      m.put(HTML, b.html());
      m.put(TEXT, b.text());
    } else if (o instanceof Record r && o.getClass().getName().startsWith("org.approxgp.")) {
      m.put(HTML, Tables.toHtml(ValueViews.of(r)));
      m.put(TEXT, ValueViews.text(r));
    } else if (o instanceof Chart<?, ?> c) {
      m.put(PNG, Figures.pngBase64(c));
      m.put(TEXT, "XChart " + c.getClass().getSimpleName() + ": " + c.getTitle());
    } else {
      return Optional.empty();
    }
    return Optional.of(m);
  }
}
