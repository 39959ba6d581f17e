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
 * rapaio-jupyter-kernel display SPI: renders every value {@link MimeBundles} supports — Tablesaw tables, fits,
 * posteriors, kernels, the library's records and numeric arrays (text/html and text/plain), XChart charts
 * (image/png). Registered in
 * {@code META-INF/services/org.rapaio.jupyter.kernel.display.spi.DisplayProvider}.
 */
public final class RapaioDisplayProvider implements DisplayProvider {

    @Override
    public List<DisplayRenderer> getDisplayRenderers() {
        // every type MimeBundles.supports: records (Prediction, configs, summaries, RunBanner) through Record, whose
        // renderer falls back to plain text for a record that is not the library's (a notebook's own)
        return List.of(new BundleRenderer(Table.class), new BundleRenderer(Chart.class),
                new BundleRenderer(org.approxgp.model.FittedGp.class), new BundleRenderer(org.approxgp.inference.Posterior.class),
                new BundleRenderer(org.approxgp.kernel.Kernel.class), new BundleRenderer(Record.class),
                new BundleRenderer(double[].class), new BundleRenderer(int[].class), new BundleRenderer(long[].class));
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
            Map<String, String> bundle = MimeBundles.of(o).orElse(Map.of(MimeBundles.TEXT, String.valueOf(o)));
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
