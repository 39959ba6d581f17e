package org.approxgp.experiment;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.DoubleStream;

/** One-off generator of the legacy results file (run once before the Jackson change; not a test). */
public final class LegacyResultsMaker {

  record LegacyCfg(int n, double scale, String label) {}

  public static void main(String[] args) {
    Path root = Path.of(args[0]);
    LegacyCfg cfg = new LegacyCfg(3, 0.5, "legacy \"v1\"");
    Experiment<LegacyCfg, TrialKey> exp = Experiment.of(
        "legacy", cfg, Experiment.grid(List.of("ep", "qp"), 2, 1), LegacyResultsMaker::row);
    Results<TrialKey> r = Runner.defaults()
        .withResultsRoot(root)
        .withThreads(1)
        .withProgress(ProgressListener.none())
        .run(exp);
    System.out.println(r.file());
  }

  static ResultRow row(LegacyCfg c, TrialKey k) {
    double s = k.seed() + (k.method().equals("qp") ? 10 : 0);
    String vec = DoubleStream.of(
            0.1 + s, -0.0, 1e-300 * (s + 1), Double.NaN, 4.9e-324, 1.7976931348623157e308)
        .mapToObj(Double::toString)
        .collect(Collectors.joining(" "));
    return ResultRow.builder()
        .put("x", 0.1 + 0.2 + s)
        .put("scaled", c.scale() * (s + 1) / 3.0)
        .put("nan", Double.NaN)
        .put("pos_inf", Double.POSITIVE_INFINITY)
        .put("neg_inf", Double.NEGATIVE_INFINITY)
        .put("neg_zero", -0.0)
        .put("subnormal", Double.MIN_VALUE * (s + 1))
        .put("max", Double.MAX_VALUE)
        .put("whole", 3.0)
        .put("count", 12345678901L + k.seed())
        .put("min_long", Long.MIN_VALUE)
        .put("ok", k.seed() == 0)
        .put(
            "text",
            String.format(
                Locale.ROOT,
                "q\"uote\" back\\slash tab\there é ü 中 \uD83D\uDE00 ctl\u0001 #%d",
                k.seed()))
        .put("bounds_active", "lengthscale signal")
        .put("var", vec)
        .build();
  }
}
