package org.approxgp.report.display.jjava;

import java.util.Map;
import org.approxgp.inference.Posterior;
import org.approxgp.model.FittedGp;
import org.approxgp.report.display.MimeBundles;
import org.dflib.jjava.jupyter.Extension;
import org.dflib.jjava.jupyter.kernel.BaseKernel;
import org.dflib.jjava.jupyter.kernel.display.DisplayData;
import org.dflib.jjava.jupyter.kernel.display.Renderer;
import org.knowm.xchart.internal.chartpart.Chart;
import tech.tablesaw.api.Table;

/**
 * JJava extension SPI (registered in {@code META-INF/services/org.dflib.jjava.jupyter.Extension}):
 * renders Tablesaw tables, fitted models and posteriors as text/html and XChart charts as image/png,
 * through {@link MimeBundles}.
 *
 * <p>This jar, the library and its dependencies are all on {@code JJAVA_CLASSPATH}. JJava 1.0-a6
 * adds that class path to JShell's class loader and then loads extensions through a child of that
 * loader, so this class and the cells see one copy of {@code Table} etc.; the renderer, which looks
 * render functions up by {@code Class}, therefore matches the objects cells produce.
 */
public final class JJavaDisplayExtension implements Extension {

  @Override
  public void install(BaseKernel kernel) {
    Renderer r = kernel.getRenderer();
    r.createRegistration(Table.class).preferring("text/html").supporting("text/plain")
        .register((o, ctx) -> put(o, ctx.getOutputContainer()));
    r.createRegistration(FittedGp.class).preferring("text/html").supporting("text/plain")
        .register((o, ctx) -> put(o, ctx.getOutputContainer()));
    r.createRegistration(Posterior.class).preferring("text/html").supporting("text/plain")
        .register((o, ctx) -> put(o, ctx.getOutputContainer()));
    r.createRegistration(Chart.class).preferring("image/png").supporting("text/plain")
        .register((o, ctx) -> put(o, ctx.getOutputContainer()));
  }

  private static void put(Object o, DisplayData out) {
    Map<String, String> bundle = MimeBundles.of(o).orElse(Map.of());
    bundle.forEach(out::putData);
  }
}
