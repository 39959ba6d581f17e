package org.approxgp.report.display.rapaio;

import java.util.List;
import java.util.Map;
import org.approxgp.report.display.MimeBundles;
import org.knowm.xchart.internal.chartpart.Chart;
import org.rapaio.jupyter.kernel.display.DisplayData;
import org.rapaio.jupyter.kernel.display.DisplayRenderer;
import org.rapaio.jupyter.kernel.display.DisplayTransformer;
import org.rapaio.jupyter.kernel.display.MimeType;
import org.rapaio.jupyter.kernel.display.spi.DisplayProvider;
import tech.tablesaw.api.Table;

/**
 * rapaio-jupyter-kernel display SPI: renders Tablesaw tables (text/html) and XChart charts
 * (image/png) through {@link MimeBundles}. Registered in
 * {@code META-INF/services/org.rapaio.jupyter.kernel.display.spi.DisplayProvider}.
 */
public final class RapaioDisplayProvider implements DisplayProvider {

    @Override
    public List<DisplayRenderer> getDisplayRenderers() {
        return List.of(new BundleRenderer(Table.class), new BundleRenderer(Chart.class),
                new BundleRenderer(org.approxgp.model.FittedGp.class), new BundleRenderer(org.approxgp.inference.Posterior.class));
    }

    @Override
    public List<DisplayTransformer> getDisplayTransformers() {
        return List.of();
    }

    private static final class BundleRenderer implements DisplayRenderer {
        private final Class<?> type;

        BundleRenderer(Class<?> type) {
            this.type = type;
        }

        @Override
        public Class<?> rendererClass() {
            return type;
        }

        /** {@code null} is the kernel's "default representation" request. */
        @Override
        public boolean canRender(String mime) {
            if (mime == null) {
                return true;
            }
            String m = longType(mime);
            return MimeBundles.HTML.equals(m) || MimeBundles.PNG.equals(m) || MimeBundles.TEXT.equals(m);
        }

        @Override
        public DisplayData render(String mime, Object o) {
            Map<String, String> bundle = MimeBundles.of(o)
                    .orElseThrow(() -> new IllegalArgumentException("cannot render " + o.getClass()));
            DisplayData d = DisplayData.fromText(bundle.get(MimeBundles.TEXT));
            String wanted = mime == null ? null : longType(mime);
            bundle.forEach((type, data) -> {
                if (wanted == null || wanted.equals(type)) {
                    d.putData(type, data);
                }
            });
            return d;
        }

        private static String longType(String mime) {
            try {
                return MimeType.from(mime, null).longType();
            } catch (RuntimeException e) {
                return mime;
            }
        }
    }
}
