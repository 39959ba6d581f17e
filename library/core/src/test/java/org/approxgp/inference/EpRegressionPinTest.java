package org.approxgp.inference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.approxgp.anchors.GpmlIonosphere;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.likelihood.PoissonSquareLink;
import org.approxgp.likelihood.Probit;
import org.approxgp.linalg.Linalg;
import org.approxgp.projection.LpProjection;
import org.approxgp.projection.W2Projection;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * EP and QP through the site loop reproduce, to the bit, what {@code Ep.infer} returned before the loop
 * was lifted into {@link SiteLoop} (commit a9e3c21). The pins in the test resource
 * {@code inference/ep-regression-pins.txt} were written by {@link #main} run against that commit; each
 * line is a case name and the SHA-256 of the exact bits of its log evidence, gradient, sites, sweep count
 * and clip/skip counts, computed on the pure-Java ({@code ejml}) linalg backend. Any change of arithmetic
 * order in the loop changes a digest; a deliberate change of EP's numbers must regenerate the file (and say
 * why in its header).
 *
 * <p>The pins were regenerated when the sequential sweep started to apply its rank-one changes delayed, in
 * blocks, and only to the part of Σ the rest of the sweep reads ({@link Sweeps#UPDATE_BLOCK}), and the SE
 * trace gradient started to use the kernel matrix at hand: the same terms summed in another order.
 * {@link #sameNumbersAsBeforeTheDelayedUpdates} holds the new code to the values the loop returned before
 * those changes (test resource {@code inference/ep-reference-values.txt}, written by {@link #dumpValues} at
 * commit a4b0fb5), to rounding. They were regenerated again when the sequential sweeps started to carry Σ
 * and μ from sweep to sweep (rank-one updates of all of Σ) and to compute the posterior from the sites only
 * after the last sweep; the same test holds them to the same values.
 */
@Tag("rounding")
class EpRegressionPinTest {

  /** The cases: Ionosphere (n = 200) with probit, small probit and Poisson-square problems. */
  static Map<String, Supplier<Posterior>> cases() {
    Map<String, Supplier<Posterior>> c = new LinkedHashMap<>();
    GpmlIonosphere.Split tr = GpmlIonosphere.train();
    Problem iono = Problem.of(SquaredExponential.iso(2.0, 2.25), tr.x(), tr.y(), Probit.get());
    c.put("ionosphere-ep-sequential", () -> Ep.infer(iono));
    c.put(
        "ionosphere-ep-sequential-damped",
        () -> Ep.infer(iono, Ep.Options.defaults().withLoop(l -> l.withDamping(0.7)), null));
    c.put(
        "ionosphere-ep-parallel",
        () -> Ep.infer(
            iono,
            Ep.Options.defaults()
                .withLoop(l -> l.withSchedule(SiteLoop.Schedule.PARALLEL)
                    .withTolerance(1e-9)
                    .withMaxSweeps(5000)),
            null));
    c.put("ionosphere-qp-table", () -> Qp.infer(iono));
    double[][] x = SmallProblems.inputs(5, 30, 3);
    Problem small = Problem.of(SmallProblems.ard(3), x, SmallProblems.labels(5, x), Probit.get());
    c.put(
        "small-qp-exact",
        () -> Qp.infer(small, Ep.Options.defaults().withProjection(W2Projection.exact()), null));
    c.put(
        "small-lp-1.5",
        () -> Ep.infer(small, Ep.Options.defaults().withProjection(LpProjection.of(1.5)), null));
    c.put(
        "small-ep-warm",
        () -> Ep.infer(
            small,
            Ep.Options.defaults().withLoop(l -> l.withTolerance(1e-10)),
            Ep.infer(small, Ep.Options.defaults().withLoop(l -> l.withMaxSweeps(2)), null)
                .sites()));
    double[][] xp = SmallProblems.inputs(9, 40, 1);
    double[] counts = new double[xp.length];
    for (int i = 0; i < xp.length; i++) {
      counts[i] = Math.floor(2.5 + 2 * Math.sin(2 * xp[i][0]) + (i % 3));
    }
    Problem poisson =
        new Problem(SquaredExponential.iso(0.6, 0.8), xp, counts, PoissonSquareLink.get(), 1.0);
    c.put("poisson-ep", () -> Ep.infer(poisson));
    c.put(
        "poisson-qp-exact",
        () -> Qp.infer(poisson, Ep.Options.defaults().withProjection(W2Projection.exact()), null));
    c.put(
        "poisson-ep-parallel-damped",
        () -> Ep.infer(
            poisson,
            Ep.Options.defaults()
                .withLoop(l -> l.withSchedule(SiteLoop.Schedule.PARALLEL).withDamping(0.5)),
            null));
    return c;
  }

  /** SHA-256 over the exact bits of everything a run returns except the timing. */
  static String digest(Posterior p) {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(8 * (4 * p.problem().size() + 64));
      b.putLong(Double.doubleToRawLongBits(p.logEvidence()));
      double[] g = p.logEvidenceGradient();
      for (double v : g) {
        b.putLong(Double.doubleToRawLongBits(v));
      }
      for (double v : p.sites().tau()) {
        b.putLong(Double.doubleToRawLongBits(v));
      }
      for (double v : p.sites().nu()) {
        b.putLong(Double.doubleToRawLongBits(v));
      }
      for (double v : p.mean()) {
        b.putLong(Double.doubleToRawLongBits(v));
      }
      for (double v : p.variance()) {
        b.putLong(Double.doubleToRawLongBits(v));
      }
      Diagnostics d = p.diagnostics();
      b.putInt(d.iterations())
          .putInt(d.clippedSites())
          .putInt(d.skippedSites())
          .putInt(d.converged() ? 1 : 0);
      b.putLong(Double.doubleToRawLongBits(d.finalChange()));
      md.update(b.array(), 0, b.position());
      return HexFormat.of().formatHex(md.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  static Map<String, String> pins() {
    Map<String, String> m = new LinkedHashMap<>();
    try (InputStream in =
        EpRegressionPinTest.class.getResourceAsStream("/inference/ep-regression-pins.txt")) {
      if (in == null) {
        throw new IllegalStateException("missing test resource inference/ep-regression-pins.txt");
      }
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      for (String line; (line = r.readLine()) != null; ) {
        if (!line.isBlank() && !line.startsWith("#")) {
          String[] f = line.trim().split("\\s+");
          m.put(f[0], f[1]);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return m;
  }

  static List<String> names() {
    return new ArrayList<>(cases().keySet());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("names")
  void bitIdenticalToThePins(String name) {
    String expected = pins().get(name);
    // the pins are bits of the pure-Java backend; OpenBLAS's bits depend on the CPU's kernel
    // (BackendAnchorTest
    // checks that the native backend agrees to 1e-12)
    assertEquals(expected, digest(Linalg.withBackend("ejml", cases().get(name))), name);
  }

  /**
   * Every pinned case against the values the site loop returned before the delayed updates (commit a4b0fb5),
   * both on the pure-Java backend: the same sweeps, clips, skips and convergence, and log evidence, gradient,
   * sites and marginals equal relative to their scale: to 1e-12 where the projection is closed-form (KL
   * moments, the QP table), and to 1e-7 where it is an adaptive quadrature (the exact W2 and Lp projections:
   * a rounding-level change of the cavity can change the quadrature's refinement, so the projection moves
   * within its accuracy, which W2Projection accepts down to 1e-7 relative).
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("names")
  void sameNumbersAsBeforeTheDelayedUpdates(String name) {
    double tol = name.contains("-exact") || name.contains("-lp-") ? 1e-7 : 1e-12;
    Map<String, double[]> want = referenceValues().get(name);
    Posterior got = Linalg.withBackend("ejml", cases().get(name));
    Diagnostics d = got.diagnostics();
    assertArrayEquals(
        want.get("case"),
        new double[] {d.iterations(), d.clippedSites(), d.skippedSites(), d.converged() ? 1 : 0},
        0.0,
        name + ": sweeps, clips, skips, converged");
    assertClose(want.get("logZ"), new double[] {got.logEvidence()}, tol, name + ": log Z");
    assertClose(want.get("gradient"), got.logEvidenceGradient(), tol, name + ": gradient");
    assertClose(want.get("tau"), got.sites().tau(), tol, name + ": tau");
    assertClose(want.get("nu"), got.sites().nu(), tol, name + ": nu");
    assertClose(want.get("mean"), got.mean(), tol, name + ": mean");
    assertClose(want.get("variance"), got.variance(), tol, name + ": variance");
  }

  private static void assertClose(double[] want, double[] got, double tol, String what) {
    assertEquals(want.length, got.length, what + ": length");
    double scale = 0;
    for (double v : want) {
      scale = Math.max(scale, Math.abs(v));
    }
    for (int i = 0; i < want.length; i++) {
      assertEquals(want[i], got[i], tol * scale, what + "[" + i + "]");
    }
  }

  /** The reference file: per case, "case NAME sweeps clips skips converged" then one line per quantity. */
  static Map<String, Map<String, double[]>> referenceValues() {
    Map<String, Map<String, double[]>> all = new LinkedHashMap<>();
    try (InputStream in =
        EpRegressionPinTest.class.getResourceAsStream("/inference/ep-reference-values.txt")) {
      if (in == null) {
        throw new IllegalStateException("missing test resource inference/ep-reference-values.txt");
      }
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      Map<String, double[]> cur = null;
      for (String line; (line = r.readLine()) != null; ) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        String[] f = line.trim().split("\\s+");
        if (f[0].equals("case")) {
          cur = new LinkedHashMap<>();
          all.put(f[1], cur);
          cur.put("case", new double[] {
            Double.parseDouble(f[2]),
            Double.parseDouble(f[3]),
            Double.parseDouble(f[4]),
            Boolean.parseBoolean(f[5]) ? 1 : 0
          });
        } else {
          double[] v = new double[f.length - 1];
          for (int i = 1; i < f.length; i++) {
            v[i - 1] = Double.parseDouble(f[i]);
          }
          cur.put(f[0], v);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return all;
  }

  /** Prints the reference-values file for the current code (how ep-reference-values.txt was written). */
  static void dumpValues(StringBuilder sb) {
    for (Map.Entry<String, Supplier<Posterior>> e : cases().entrySet()) {
      Posterior p = Linalg.withBackend("ejml", e.getValue());
      Diagnostics d = p.diagnostics();
      sb.append("case ")
          .append(e.getKey())
          .append(' ')
          .append(d.iterations())
          .append(' ')
          .append(d.clippedSites())
          .append(' ')
          .append(d.skippedSites())
          .append(' ')
          .append(d.converged())
          .append('\n');
      sb.append("logZ ").append(p.logEvidence()).append('\n');
      valuesLine(sb, "gradient", p.logEvidenceGradient());
      valuesLine(sb, "tau", p.sites().tau());
      valuesLine(sb, "nu", p.sites().nu());
      valuesLine(sb, "mean", p.mean());
      valuesLine(sb, "variance", p.variance());
    }
  }

  private static void valuesLine(StringBuilder sb, String name, double[] v) {
    sb.append(name);
    for (double x : v) {
      sb.append(' ').append(x);
    }
    sb.append('\n');
  }

  /**
   * Prints the pin file for the current code (run once against the reference commit); with the argument
   * {@code values}, the reference-values file instead.
   */
  public static void main(String[] args) {
    if (args.length > 0 && args[0].equals("values")) {
      StringBuilder sb = new StringBuilder();
      dumpValues(sb);
      System.out.print(sb);
      return;
    }
    System.out.println(
        "# SHA-256 of the exact bits of EP/QP results (log evidence, gradient, sites, mean,");
    System.out.println(
        "# variance, sweeps, clips, skips, converged, final change); see EpRegressionPinTest.");
    System.out.println(
        "# Generated by EpRegressionPinTest.main at commit <fill in> (say why the numbers changed).");
    for (Map.Entry<String, Supplier<Posterior>> e : cases().entrySet()) {
      Posterior p = Linalg.withBackend("ejml", e.getValue());
      System.out.println(
          e.getKey() + " " + digest(p) + "   # " + p.diagnostics().method() + ", "
              + p.diagnostics().iterations() + " sweeps, clipped "
              + p.diagnostics().clippedSites() + ", log Z "
              + p.logEvidence());
    }
  }
}
