package org.approxgp.report.display.jjava;

import java.util.Map;
import java.util.Optional;
import org.dflib.jjava.jupyter.Extension;
import org.dflib.jjava.jupyter.kernel.BaseKernel;
import org.dflib.jjava.jupyter.kernel.display.DisplayData;

/**
 * JJava extension SPI (registered in {@code META-INF/services/org.dflib.jjava.jupyter.Extension}):
 * renders Tablesaw tables as text/html and XChart charts as image/png.
 *
 * <p>JJava discovers extensions in a separate class loader over JJAVA_CLASSPATH, while cell code
 * loads the same jars through JShell, so {@code Table.class} here may not be the class of the
 * objects cells produce. Hence registration by class name and a reflective call of {@code
 * MimeBundles.of} through the displayed object's own class loader.
 */
public final class JJavaDisplayExtension implements Extension {

    private static final String TABLE = "tech.tablesaw.api.Table";
    private static final String CHART = "org.knowm.xchart.internal.chartpart.Chart";

    @Override
    public void install(BaseKernel kernel) {
        kernel.getRenderer().createRegistration(TABLE)
                .preferring("text/html").supporting("text/plain")
                .register((o, ctx) -> put(o, ctx.getOutputContainer()));
        for (String type : new String[] {"org.approxgp.model.FittedGp", "org.approxgp.inference.Posterior"}) {
            kernel.getRenderer().createRegistration(type)
                    .preferring("text/html").supporting("text/plain")
                    .register((o, ctx) -> put(o, ctx.getOutputContainer()));
        }
        kernel.getRenderer().createRegistration(CHART)
                .preferring("image/png").supporting("text/plain")
                .register((o, ctx) -> put(o, ctx.getOutputContainer()));
    }

    @SuppressWarnings("unchecked")
    private static void put(Object o, DisplayData out) {
        try {
            Class<?> bundles = Class.forName("org.approxgp.report.display.MimeBundles", true,
                    o.getClass().getClassLoader());
            Optional<Map<String, String>> bundle =
                    (Optional<Map<String, String>>) bundles.getMethod("of", Object.class).invoke(null, o);
            bundle.ifPresent(b -> b.forEach(out::putData));
        } catch (ReflectiveOperationException e) {
            out.putText("approxgp display hook failed: " + e);
        }
    }
}
