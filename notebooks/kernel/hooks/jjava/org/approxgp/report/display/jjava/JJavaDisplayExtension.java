package org.approxgp.report.display.jjava;

import java.util.Map;
import org.approxgp.report.display.MimeBundles;
import org.dflib.jjava.jupyter.Extension;
import org.dflib.jjava.jupyter.kernel.BaseKernel;
import org.knowm.xchart.internal.chartpart.Chart;
import tech.tablesaw.api.Table;

/**
 * JJava extension SPI: registers renderers for Tablesaw tables (text/html) and XChart charts
 * (image/png) built from {@link MimeBundles}. Registered in
 * {@code META-INF/services/org.dflib.jjava.jupyter.Extension}.
 */
public final class JJavaDisplayExtension implements Extension {

    @Override
    public void install(BaseKernel kernel) {
        kernel.getRenderer().createRegistration(Table.class)
                .preferring(MimeBundles.HTML).supporting(MimeBundles.TEXT)
                .register((table, ctx) -> put(table, ctx.getOutputContainer()));
        kernel.getRenderer().createRegistration(Chart.class)
                .preferring(MimeBundles.PNG).supporting(MimeBundles.TEXT)
                .register((chart, ctx) -> put(chart, ctx.getOutputContainer()));
    }

    private static void put(Object o, org.dflib.jjava.jupyter.kernel.display.DisplayData out) {
        Map<String, String> bundle = MimeBundles.of(o).orElseThrow();
        bundle.forEach(out::putData);
    }
}
