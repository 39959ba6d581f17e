package org.approxgp.report.display.jjava;

import java.util.Map;
import org.approxgp.inference.Posterior;
import org.approxgp.kernel.Kernel;
import org.approxgp.model.FittedGp;
import org.approxgp.report.display.MimeBundles;
import org.dflib.jjava.jupyter.Extension;
import org.dflib.jjava.jupyter.kernel.BaseKernel;
import org.dflib.jjava.jupyter.kernel.display.DisplayData;
import org.dflib.jjava.jupyter.kernel.display.Renderer;
import org.knowm.xchart.internal.chartpart.Chart;
import tech.tablesaw.api.Table;

/**
 * JJava extension SPI (registered in {@code META-INF/services/org.dflib.jjava.jupyter.Extension}): renders every
 * value {@link MimeBundles} supports, as the rapaio hook does — Tablesaw tables, fits, posteriors, kernels, the
 * library's records and numeric arrays (text/html with a text/plain fallback), XChart charts (image/png). A record
 * that is not the library's (a notebook's own) falls back to its text.
 *
 * <p>This jar, the library and its dependencies are all on {@code JJAVA_CLASSPATH}. JJava 1.0-a6
 * adds that class path to JShell's class loader and then loads extensions through a child of that
 * loader, so this class and the cells see one copy of {@code Table} etc.; the renderer, which looks
 * render functions up by {@code Class} and its supertypes, therefore matches the objects cells produce.
 *
 * <p>It also makes a cell's printing arrive as one stream output per burst ({@link JJavaStreams}).
 */
public final class JJavaDisplayExtension implements Extension {

  @Override
  public void install(BaseKernel kernel) {
    quietSlf4j();
    try {
      JJavaStreams.install(kernel);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("approxgp: cannot coalesce JJava's print streams: " + e, e);
    }
    Renderer r = kernel.getRenderer();
    for (Class<?> type : new Class<?>[] {Table.class, FittedGp.class, Posterior.class, Kernel.class, Record.class,
        double[].class, int[].class, long[].class}) {
      register(r, type, "text/html");
    }
    register(r, Chart.class, "image/png");
  }

  private static <T> void register(Renderer r, Class<T> type, String preferred) {
    r.createRegistration(type).preferring(preferred).supporting("text/plain")
        .register((o, ctx) -> put(o, ctx.getOutputContainer()));
  }

  /**
   * Binds SLF4J now, while stderr is still the kernel's own: slf4j-api is on the library's class path without a
   * provider, and its one-time "No SLF4J providers were found" warning would otherwise land in the output of the first
   * cell that logs (the rapaio kernel brings a provider; JJava's is shaded away).
   */
  private static void quietSlf4j() {
    try {
      Class.forName("org.slf4j.LoggerFactory", true, JJavaDisplayExtension.class.getClassLoader())
          .getMethod("getILoggerFactory")
          .invoke(null);
    } catch (ReflectiveOperationException | LinkageError e) {
      // no SLF4J on the class path: nothing to quiet
    }
  }

  private static void put(Object o, DisplayData out) {
    JJavaStreams.release();
    Map<String, String> bundle = MimeBundles.of(o).orElse(Map.of(MimeBundles.TEXT, String.valueOf(o)));
    bundle.forEach(out::putData);
  }
}
