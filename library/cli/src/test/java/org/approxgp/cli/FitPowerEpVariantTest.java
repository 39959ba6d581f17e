package org.approxgp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.approxgp.inference.Posterior;
import org.approxgp.inference.PowerEp;
import org.approxgp.inference.Problem;
import org.approxgp.inference.SiteLoop;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.likelihood.NoisyStep;
import org.approxgp.model.Methods;
import org.approxgp.model.Registry;
import org.approxgp.model.SettingException;
import org.approxgp.model.Settings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code approxgp fit --power-ep-variant minka|appendix-c} ({@link PowerEp.Variant}): minka is the default and
 * reproduces the option's absence bit for bit, appendix-c runs Qi &amp; Guo's appendix C rule, the option is
 * refused for other methods and unknown values.
 */
class FitPowerEpVariantTest {
  @TempDir
  static Path dir;

  private static Path train() throws IOException {
    Path train = dir.resolve("train.csv");
    StringBuilder s = new StringBuilder("a,b,label\n");
    for (int i = 0; i < 25; i++) {
      double a = Math.sin(1.7 * i);
      double b = Math.cos(0.9 * i);
      s.append(String.format(
          Locale.ROOT, "%.4f,%.4f,%d%n", a, b, a + 0.3 * b + (i % 7 == 0 ? -2 : 0) > 0 ? 1 : -1));
    }
    Files.writeString(train, s);
    return train;
  }

  private static int fit(String tag, StringWriter sw, String... extra) throws IOException {
    Path train = train();
    List<String> args = new ArrayList<>(List.of(
        "fit",
        "--train",
        train.toString(),
        "--test",
        train.toString(),
        "--label",
        "label",
        "--likelihood",
        "noisy-step",
        "--epsilon",
        "0.1",
        "--no-optimize",
        "--out",
        dir.resolve(tag + ".csv").toString()));
    args.addAll(List.of(extra));
    return Main.run(new PrintWriter(sw, true), args.toArray(String[]::new));
  }

  @Test
  void minkaIsTheDefaultAndAppendixCDiffers() throws IOException {
    StringWriter sw = new StringWriter();
    assertEquals(0, fit("none", sw, "--inference", "power-ep", "--power", "0.6"), sw.toString());
    assertEquals(
        0,
        fit(
            "minka",
            sw,
            "--inference",
            "power-ep",
            "--power",
            "0.6",
            "--power-ep-variant",
            "minka"),
        sw.toString());
    assertEquals(
        0,
        fit(
            "appc",
            sw,
            "--inference",
            "power-ep",
            "--power",
            "0.6",
            "--power-ep-variant",
            "appendix-c"),
        sw.toString());
    String none = Files.readString(dir.resolve("none.csv"));
    assertEquals(none, Files.readString(dir.resolve("minka.csv")));
    assertNotEquals(none, Files.readString(dir.resolve("appc.csv")));
  }

  @Test
  void refusedWhereItDoesNotApply() throws IOException {
    StringWriter sw = new StringWriter();
    assertNotEquals(0, fit("ep", sw, "--inference", "ep", "--power-ep-variant", "appendix-c"));
    assertTrue(
        sw.toString().contains("--power-ep-variant applies to power-ep only, not to ep"),
        sw.toString());
    StringWriter sw2 = new StringWriter();
    assertNotEquals(
        0, fit("bad", sw2, "--inference", "power-ep", "--power-ep-variant", "appendix-b"));
    assertTrue(
        sw2.toString().contains("--power-ep-variant must be minka or appendix-c, got 'appendix-b'"),
        sw2.toString());
    SettingException e = assertThrows(
        SettingException.class,
        () -> Registry.inference(
            "power-ep", Settings.of("power", 2.0, "power-ep-variant", "appendix-c")));
    assertEquals("power", e.setting());
  }

  /** The registry's appendix-c method is the site rule {@link PowerEp.Variant#APPENDIX_C} with negative sites kept. */
  @Test
  void registryRunsTheAppendixCRule() {
    double[][] x = {{-1.1, 0.3}, {0.4, -0.9}, {1.3, 0.8}, {-0.2, 1.5}, {0.7, 0.1}};
    double[] y = {1, -1, 1, 1, -1};
    Problem p = Problem.of(SquaredExponential.iso(0.9, 1.7), x, y, NoisyStep.of(0.15));
    Posterior viaRegistry = Registry.inference(
            "power-ep", Settings.of("power", 0.7, "power-ep-variant", "appendix-c"))
        .infer(p, null);
    Posterior direct = SiteLoop.run(
        p,
        PowerEp.of(0.7, PowerEp.Variant.APPENDIX_C),
        Methods.keepOptions().withGradient(false),
        null);
    for (int i = 0; i < y.length; i++) {
      assertEquals(direct.sites().tau()[i], viaRegistry.sites().tau()[i], 0.0);
      assertEquals(direct.sites().nu()[i], viaRegistry.sites().nu()[i], 0.0);
    }
    assertEquals(direct.logEvidence(), viaRegistry.logEvidence(), 0.0);
  }
}
