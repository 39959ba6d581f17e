package org.approxgp.optimize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link Lbfgs} against an independent optimiser: scipy's L-BFGS-B (the Fortran code of Byrd, Lu, Nocedal &amp;
 * Zhu) on the same functions, table {@code optimize/lbfgs-reference.tsv} made by
 * {@code optimize/generate_lbfgs_reference.py} (its header says how). Each function is written here and there
 * from the same formula; f and ∇f at the start point are checked against the table first.
 */
class LbfgsReferenceTest {

  /** A row of the table. */
  record Ref(boolean success, String message, double f, double[] x, double f0, double[] g0) {}

  static final Map<String, Ref> TABLE = load();

  static Map<String, Ref> load() {
    Map<String, Ref> m = new HashMap<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(
        LbfgsReferenceTest.class.getResourceAsStream("/optimize/lbfgs-reference.tsv"),
        StandardCharsets.UTF_8))) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        if (line.startsWith("#") || line.isBlank()) {
          continue;
        }
        String[] c = line.split("\t");
        m.put(
            c[0],
            new Ref(
                Boolean.parseBoolean(c[1].toLowerCase()),
                c[2],
                num(c[4]),
                vec(c[5]),
                num(c[6]),
                vec(c[7])));
      }
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return m;
  }

  static double[] vec(String s) {
    return Arrays.stream(s.split(";")).mapToDouble(LbfgsReferenceTest::num).toArray();
  }

  /** Python's repr: "nan" for NaN. */
  static double num(String s) {
    return s.equals("nan") ? Double.NaN : Double.parseDouble(s);
  }

  static double rosen10(double[] x, double[] g) {
    double f = 0;
    for (int i = 0; i < x.length; i += 2) {
      double a = 1 - x[i];
      double b = x[i + 1] - x[i] * x[i];
      f += a * a + 100 * b * b;
      g[i] = -2 * a - 400 * x[i] * b;
      g[i + 1] = 200 * b;
    }
    return f;
  }

  static final double[][] A = {{4, 1, 0, 0}, {1, 3, 1, 0}, {0, 1, 2, 0.5}, {0, 0, 0.5, 1}};
  /** The designed KKT point of the box quadratic: ∇f(x*) = (−2, 0, 3, 0). */
  static final double[] XSTAR = {1, 0.5, -1, 0.2};

  static final double[] B = boxquadB();

  static double[] boxquadB() {
    double[] gstar = {-2, 0, 3, 0};
    double[] b = new double[4];
    for (int i = 0; i < 4; i++) {
      b[i] = -gstar[i];
      for (int j = 0; j < 4; j++) {
        b[i] += A[i][j] * XSTAR[j];
      }
    }
    return b;
  }

  static double boxquad(double[] x, double[] g) {
    double f = 0;
    for (int i = 0; i < 4; i++) {
      double ax = 0;
      for (int j = 0; j < 4; j++) {
        ax += A[i][j] * x[j];
      }
      g[i] = ax - B[i];
      f += 0.5 * x[i] * ax - B[i] * x[i];
    }
    return f;
  }

  static double scaled(double[] x, double[] g) {
    g[0] = 2e6 * x[0];
    g[1] = 2 * x[1];
    return 1e6 * x[0] * x[0] + x[1] * x[1];
  }

  static final int NGP = 20;

  /**
   * A GP regression evidence in θ = (log signal variance, log noise variance): kernel eigenvalues λ_i = 10e^{−i},
   * data projections z_i; f = ½ Σ [log D_i + z_i²/D_i] + (N/2) log 2π with D_i = e^t λ_i + e^v (optimum at signal
   * variance ≈ 5000).
   */
  static double gp(double[] x, double[] g) {
    double et = Math.exp(x[0]);
    double ev = Math.exp(x[1]);
    double f = 0.5 * NGP * Math.log(2 * Math.PI);
    g[0] = 0;
    g[1] = 0;
    for (int i = 0; i < NGP; i++) {
      double lam = 10 * Math.exp(-i);
      double z = Math.sqrt(5000 * lam + 0.01) * (1 + 0.3 * Math.sin(i));
      double d = et * lam + ev;
      f += 0.5 * (Math.log(d) + z * z / d);
      double w = 0.5 * (1 / d - z * z / (d * d));
      g[0] += w * et * lam;
      g[1] += w * ev;
    }
    return f;
  }

  /** √(1 + |x − c|²), c = (2, 0), NaN beyond radius 2.5. */
  static double huberNan(double[] x, double[] g) {
    if (x[0] * x[0] + x[1] * x[1] > 2.5 * 2.5) {
      g[0] = Double.NaN;
      g[1] = Double.NaN;
      return Double.NaN;
    }
    double a = x[0] - 2;
    double b = x[1];
    double v = Math.sqrt(1 + a * a + b * b);
    g[0] = a / v;
    g[1] = b / v;
    return v;
  }

  static final Lbfgs.Settings TIGHT = new Lbfgs.Settings(100000, 0, 1e-12, 10);

  /** Checks the formula against the table at the start point, then minimises. */
  static Lbfgs.Result run(
      String name, Objective f, double[] x0, double[] lo, double[] hi, Lbfgs.Settings s) {
    Ref ref = TABLE.get(name);
    double[] g = new double[x0.length];
    assertEquals(
        ref.f0(), f.evaluate(x0.clone(), g), 1e-13 * Math.abs(ref.f0()), name + " f at start");
    for (int i = 0; i < g.length; i++) {
      assertEquals(
          ref.g0()[i],
          g[i],
          1e-12 * Math.max(1, Math.abs(ref.g0()[i])),
          name + " gradient at start");
    }
    Lbfgs.Result r = Lbfgs.minimize(f, x0, lo, hi, s);
    System.out.println("LBFGS-REF " + name + ": " + r.status() + ", " + r.iterations()
        + " iterations, " + r.evaluations() + " evaluations, f " + r.value() + " (scipy " + ref.f()
        + "), x " + Arrays.toString(r.x()));
    return r;
  }

  /** f at least as low as scipy's (up to rounding) and x within tol of scipy's x*. */
  static void assertMatches(String name, Lbfgs.Result r, double tol) {
    assertMatches(name, r, tol, 1e-12);
  }

  /** f at most fTol (relative) above scipy's and x within tol of scipy's x*. */
  static void assertMatches(String name, Lbfgs.Result r, double tol, double fTol) {
    Ref ref = TABLE.get(name);
    assertTrue(r.converged(), r.status());
    assertTrue(
        r.value() <= ref.f() + fTol * Math.max(1, Math.abs(ref.f())),
        r.value() + " > scipy " + ref.f());
    for (int i = 0; i < r.x().length; i++) {
      assertEquals(
          ref.x()[i], r.x()[i], tol * Math.max(1, Math.abs(ref.x()[i])), name + " x[" + i + "]");
    }
  }

  @Test
  void rosenbrock2d() {
    Lbfgs.Result r =
        run("rosen2", LbfgsTest::rosenbrock, new double[] {-1.2, 1}, null, null, TIGHT);
    assertMatches("rosen2", r, 1e-8);
    assertEquals(1.0, r.x()[0], 1e-8);
    assertEquals(1.0, r.x()[1], 1e-8);
  }

  @Test
  void rosenbrock10d() {
    double[] x0 = new double[10];
    for (int i = 0; i < 10; i += 2) {
      x0[i] = -1.2;
      x0[i + 1] = 1;
    }
    Lbfgs.Result r = run("rosen10", LbfgsReferenceTest::rosen10, x0, null, null, TIGHT);
    assertMatches("rosen10", r, 1e-8);
    for (double v : r.x()) {
      assertEquals(1.0, v, 1e-8);
    }
  }

  /** The designed KKT point: x₀ exactly at its upper bound, x₂ at its lower, the others free. */
  @Test
  void boundedQuadraticReachesItsKktPoint() {
    double[] lo = {-1, -1, -1, -1};
    double[] hi = {1, 1, 1, 1};
    Lbfgs.Result r = run("boxquad", LbfgsReferenceTest::boxquad, new double[4], lo, hi, TIGHT);
    assertMatches("boxquad", r, 1e-9); // scipy stopped on relative reduction, 3e-10 from x*
    assertEquals(List.of(0, 2), r.activeBounds());
    assertEquals(1.0, r.x()[0]);
    assertEquals(-1.0, r.x()[2]);
    assertEquals(XSTAR[1], r.x()[1], 1e-10);
    assertEquals(XSTAR[3], r.x()[3], 1e-10);
  }

  @Test
  void badlyScaledQuadraticConverges() {
    Lbfgs.Result r =
        run("scaled", LbfgsReferenceTest::scaled, new double[] {1, 1}, null, null, TIGHT);
    assertMatches("scaled", r, 1e-8);
    Lbfgs.Result p = run(
        "scaled",
        LbfgsReferenceTest::scaled,
        new double[] {1, 1},
        null,
        null,
        Lbfgs.Settings.paper());
    assertTrue(p.converged(), p.status());
    assertEquals(0, p.x()[0], 1e-8);
    assertEquals(0, p.x()[1], 1e-5);
  }

  @Test
  void gpEvidenceAtLargeSignalVarianceConverges() {
    Lbfgs.Result r = run("gp", LbfgsReferenceTest::gp, new double[2], null, null, TIGHT);
    assertMatches("gp", r, 1e-7); // scipy stopped on relative reduction
    Lbfgs.Result p =
        run("gp", LbfgsReferenceTest::gp, new double[2], null, null, Lbfgs.Settings.paper());
    assertTrue(p.converged(), p.status());
    assertEquals(TABLE.get("gp").f(), p.value(), 1e-8 * TABLE.get("gp").f());
  }

  /** The evidence with the signal variance capped at 1e3 below its optimum: the bound is active and reported. */
  @Test
  void gpEvidenceWithActiveBoundConverges() {
    double[] lo = {Math.log(1e-4), Math.log(1e-6)};
    double[] hi = {Math.log(1e3), Math.log(1e4)};
    for (Lbfgs.Settings s : new Lbfgs.Settings[] {TIGHT, Lbfgs.Settings.paper()}) {
      Lbfgs.Result r = run("gp_box", LbfgsReferenceTest::gp, new double[2], lo, hi, s);
      // the paper's gtol stops at |∂f/∂v| ≤ 1e-5·‖x‖ ≈ 8e-5: f within (8e-5)²/(2·∂²f/∂v² ≈ 1.6) ≈
      // 2e-9 of the minimum
      assertMatches("gp_box", r, s == TIGHT ? 1e-8 : 1e-3, s == TIGHT ? 1e-12 : 1e-8);
      assertEquals(List.of(0), r.activeBounds());
      assertEquals(hi[0], r.x()[0]);
    }
  }

  /**
   * f is NaN beyond radius 2.5 and the minimum (2, 0) lies 0.5 inside: quasi-Newton steps on the nearly flat
   * bowl overshoot into the NaN region. scipy's L-BFGS-B stops at once (its table row: ABNORMAL, 0 iterations);
   * this implementation must back off and converge.
   */
  @Test
  void nanBeyondARadiusStillConverges() {
    assertFalse(TABLE.get("huber_nan").success());
    int[] nan = {0};
    Objective f = (x, g) -> {
      double v = huberNan(x, g);
      if (Double.isNaN(v)) {
        nan[0]++;
      }
      return v;
    };
    Lbfgs.Result r = run("huber_nan", f, new double[] {-2.4, 0}, null, null, TIGHT);
    assertTrue(nan[0] > 0, "the test must reach the NaN region");
    assertTrue(r.converged(), r.status());
    assertEquals(2.0, r.x()[0], 1e-9);
    assertEquals(0.0, r.x()[1], 1e-9);
    Lbfgs.Result p =
        run("huber_nan", f, new double[] {-2.4, 0}, null, null, Lbfgs.Settings.paper());
    assertTrue(p.converged(), p.status());
    assertEquals(2.0, p.x()[0], 1e-4);
  }
}
