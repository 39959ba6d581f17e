package org.approxgp.likelihood;

import org.approxgp.special.Erf;
import org.approxgp.special.Normal;
import org.approxgp.special.Quadrature;

/**
 * E_{N(f | m, v)}[log Φ(y f)] and its derivatives. No closed form: adaptive Gauss–Kronrod quadrature over
 * t with f = m + √v t and weight φ(t), split where y f = 0 (log Φ turns from ≈ −f²/2 to ≈ 0 there, which
 * defeats Gauss–Hermite for large v). Derivatives by Bonnet's and Price's theorems (Opper &amp;
 * Archambeau 2009, eq. 8–9): ∂E/∂m = E[∂ log p/∂f] = E[y r(y f)], ∂E/∂v = ½ E[∂² log p/∂f²]
 * = −½ E[r(y f) d(y f)]. For √v ≤ 2 (with the tail's mass inside the nodes) a Gauss–Hermite rule of 64 to
 * 200 points is as accurate ({@link #gaussHermite}); otherwise the three integrals share one adaptive
 * partition ({@link VeQuadrature}), refined until each of them meets the relative tolerance
 * {@value #VE_REL_TOL}. Either way each node evaluates log Φ(z) and r(z) once for all three
 * ({@link #logCdfRatio}). At v = 0 the values are exact: log Φ(y m), y r(y m), −½ r(y m) d(y m).
 */
final class ProbitExpectation {
  private static final double INV_SQRT2 = 0.7071067811865476;
  private static final double SQRT_2_OVER_PI = 0.7978845608028654;
  private static final double SQRT_2PI = 2.5066282746310002;
  private static final double CF_SWITCH = Probit.CF_SWITCH;
  /** Relative tolerance of the adaptive quadrature for E[log Φ(y f)], which has no closed form. */
  private static final double VE_REL_TOL = 1e-12;

  private ProbitExpectation() {}

  static VariationalExpectation of(double y, double m, double v) {
    if (v == 0) {
      double z = y * m;
      double r = Normal.ratio(z);
      return new VariationalExpectation(Normal.logCdf(z), y * r, -0.5 * r * Probit.zPlusRatio(z));
    }
    double s = Math.sqrt(v);
    double[] e = s <= GH_MAX_SD[GH_MAX_SD.length - 1] && y * m * s <= GH_MAX_SHIFT * (1 + v)
        ? gaussHermite(y, m, s, GH_CUT)
        : VeQuadrature.integrate(y, m, s);
    return new VariationalExpectation(e[0], e[1], e[2]);
  }

  /** The Gauss–Hermite tiers of {@link #of}: √v ≤ GH_MAX_SD[k] uses GH_POINTS[k] points. */
  private static final double[] GH_MAX_SD = {1.0, 1.5, 2.0};

  private static final int[] GH_POINTS = {64, 128, 200};
  /** Largest y m √v/(1 + v) (the centre t* of the integrands' mass in their tail) for that path. */
  private static final double GH_MAX_SHIFT = 4.0;
  /** Per tier, the rule for E over N(0, 1): nodes t = √2 x and weights w/√π of the e^{−x²} rule. */
  private static final double[][] GH_T = new double[GH_POINTS.length][];

  private static final double[][] GH_W = new double[GH_POINTS.length][];

  static {
    for (int k = 0; k < GH_POINTS.length; k++) {
      org.approxgp.special.GaussHermite rule = org.approxgp.special.GaussHermite.of(GH_POINTS[k]);
      double[] x = rule.nodes();
      double[] w = rule.weights();
      GH_T[k] = new double[x.length];
      GH_W[k] = new double[x.length];
      for (int i = 0; i < x.length; i++) {
        GH_T[k][i] = Math.sqrt(2) * x[i];
        GH_W[k][i] = w[i] / Math.sqrt(Math.PI);
      }
    }
  }

  /**
   * Per tier, the weight of the nodes beyond the j innermost pairs: TAIL[k][j] = Σ_{|i − c| ≥ j} wᵢ over the
   * symmetric pairs from the centre outward (the rule's nodes are symmetric and sorted).
   */
  private static final double[][] GH_TAIL = new double[GH_POINTS.length][];

  /** Largest |tᵢ| of each tier's rule. */
  private static final double[] GH_T_MAX = new double[GH_POINTS.length];

  static {
    for (int k = 0; k < GH_POINTS.length; k++) {
      int half = GH_POINTS[k] / 2;
      double[] tail = new double[half + 1];
      for (int j = half - 1; j >= 0; j--) {
        tail[j] = tail[j + 1] + GH_W[k][half - 1 - j] + GH_W[k][half + j];
      }
      GH_TAIL[k] = tail;
      GH_T_MAX[k] = GH_T[k][GH_T[k].length - 1];
    }
  }

  /** Relative size below which the nodes not yet summed are dropped ({@link #gaussHermite}). */
  static final double GH_CUT = 1e-17;

  /**
   * The three expectations of {@link #of} by an n-point Gauss–Hermite rule (Golub &amp;
   * Welsch 1969, {@link org.approxgp.special.GaussHermite}): Σ wᵢ h(m + √v tᵢ), with n = 64, 128, 200 for
   * √v ≤ 1, 1.5, 2. Used only where it is as accurate as the adaptive quadrature (measured against it on a
   * grid of √v and m: relative 4e-14 (64 points), 3e-15 (128), 1e-14 (200); {@code
   * ProbitVariationalExpectationTest} asserts 2e-12): the kink of log Φ at y f = 0 has width 1 in f, i.e. 1/√v
   * in t, and must be resolved by the rule (at √v = 2–3 even 200 points are off by 2e-9), and
   * y m √v/(1 + v) ≤ {@value #GH_MAX_SHIFT}: for y m &gt; 0 the mass of the small E[log Φ] ≈ −E[Φ(−y f)]
   * sits at t* = −y m √v/(1 + v), which must lie well inside the nodes (|tᵢ| ≤ 10.5 for 64 points).
   *
   * <p>Pruning: the outer weights are tiny (down to 3e-49, 1e-102, 1e-163 for 64, 128, 200 points), so the
   * nodes are summed in symmetric pairs from the centre outward and the rest dropped once it cannot matter.
   * Each integrand has one sign (log Φ &lt; 0, r &gt; 0, r d &gt; 0 since d = z + r &gt; 0), so the partial sums
   * only grow in size, and at every node |z| ≤ Z = |m| + √v max|tᵢ| bounds each integrand by
   * H = Z²/2 + Z + 1: −log Φ(z) = z²/2 + log √(2π) + log r(z) and r(z) ≤ |z| + 1 for z &lt; 0 (the Mills
   * ratio bound r(z) ≤ (|z| + √(z² + 4))/2, Birnbaum 1942), −log Φ(z) ≤ log 2 and r(z) ≤ r(0) &lt; 1 for
   * z ≥ 0, and 0 &lt; r d &lt; 1 (the variance of a truncated normal, 1 − r d, lies in (0, 1)). The dropped
   * nodes' total weight times H below {@code cut} times each partial sum bounds the dropped part of every
   * integral by {@code cut} relative ({@link #GH_CUT} = 1e-17, under the rule's own error; {@code cut} = 0
   * sums every node).
   */
  static double[] gaussHermite(double y, double m, double s, double cut) {
    int k = 0;
    while (s > GH_MAX_SD[k]) {
      k++;
    }
    double[] t = GH_T[k];
    double[] w = GH_W[k];
    double[] tail = GH_TAIL[k];
    double z = Math.abs(m) + s * GH_T_MAX[k];
    double bound = 0.5 * z * z + z + 1;
    int half = t.length / 2;
    double e = 0;
    double dm = 0;
    double dv = 0;
    double[] h = new double[3];
    for (int j = 0; j < half; j++) {
      int i = half - 1 - j;
      logCdfRatio(y * (m + s * t[i]), h);
      e += w[i] * h[0];
      dm += w[i] * h[1];
      dv += w[i] * h[2];
      i = half + j;
      logCdfRatio(y * (m + s * t[i]), h);
      e += w[i] * h[0];
      dm += w[i] * h[1];
      dv += w[i] * h[2];
      double rest = tail[j + 1] * bound;
      if (rest <= cut * -e && rest <= cut * dm && rest <= cut * dv) {
        break;
      }
    }
    return new double[] {e, y * dm, -0.5 * dv};
  }

  /**
   * out = (log Φ(z), r(z), r(z) d(z)) with r = N/Φ and d = z + r, from one erfcx or erfc: the formulas of
   * {@link Normal#logCdf} and {@link Normal#ratio} sharing their special-function call, and d by
   * {@link Probit#zPlusRatio}'s continued fraction below z = −{@value #CF_SWITCH}.
   */
  private static void logCdfRatio(double z, double[] out) {
    double lc;
    double r;
    if (z < 0) {
      // Φ(z) = ½ erfcx(−z/√2) e^{−z²/2}: log Φ = log(½ erfcx) − z²/2 (z² split exactly by fma), r =
      // √(2/π)/erfcx
      double u = Erf.erfcx(-z * INV_SQRT2);
      double zz = z * z;
      lc = Math.log(0.5 * u) - 0.5 * zz - 0.5 * Math.fma(z, z, -zz);
      r = SQRT_2_OVER_PI / u;
    } else {
      // q = Φ(−z) = ½ erfc(z/√2) = ½ erfcx(z/√2) e^{−z²/2} (the latter for z > 1, sharing N(z)'s
      // exponential);
      // log Φ(z) = log1p(−q), r = N(z)/(1 − q)
      double pz = Normal.pdf(z);
      double q =
          z > 1 ? 0.5 * Erf.erfcx(z * INV_SQRT2) * (pz * SQRT_2PI) : 0.5 * Erf.erfc(z * INV_SQRT2);
      lc = Math.log1p(-q);
      r = pz / (1 - q);
    }
    double d = z < -CF_SWITCH ? Probit.zPlusRatio(z) : z + r;
    out[0] = lc;
    out[1] = r;
    out[2] = r * d;
  }

  /**
   * ∫ φ(t) h(m + s t) dt for the three integrands h = (log Φ(y f), y r(y f), −½ r(y f) d(y f)) on one shared
   * adaptive partition.
   *
   * <p>Range: φ(t) underflows to 0 for |t| &gt; 38.6 and every h is finite, so [−{@value #T_MAX},
   * {@value #T_MAX}] is the whole line in double precision. Initial partition: break points at 0, ±1, ±2, ±4,
   * ±8, ±16 (widths doubling away from the peak of φ, so that the peak is sampled however far away the kink
   * is) and at the kink t₀ = −m/s where y f = 0.
   *
   * <p>Rule: on each piece the 15-point Kronrod rule gives the values and |K15 − G7| plus a rounding floor
   * 50 ε ∫|g| the error estimates (QUADPACK QK15, Piessens et al. 1983, p. 117 — the constants and error
   * estimate of {@code org.approxgp.special.Quadrature}). The piece with the largest error relative to its
   * integral is bisected until, for every integrand, the summed estimate is ≤ {@value #VE_REL_TOL} ×
   * |integral| (each integrand has one sign on the whole line, so a relative tolerance is meaningful), or
   * 2000 pieces (QUADPACK QAG's globally adaptive strategy).
   */
  private static final class VeQuadrature {
    private static final double[] XGK = Quadrature.kronrod15Nodes();
    private static final double[] WGK = Quadrature.kronrod15Weights();
    private static final double[] WG = Quadrature.gauss7Weights();
    private static final double EPS = Math.ulp(1.0);
    private static final int MAX_PIECES = 2000;
    /** φ(t) underflows to 0 for |t| &gt; 38.6. */
    private static final double T_MAX = 40;
    /** The initial partition of [−T_MAX, T_MAX]. */
    private static final double[] BREAKS = {-T_MAX, -16, -8, -4, -2, -1, 0, 1, 2, 4, 8, 16, T_MAX};

    private final double y;
    private final double m;
    private final double s;
    private final double[] h = new double[3];
    // the pieces [lo, hi] with their three K15 values and error estimates
    private int count;
    private double[] lo = new double[64];
    private double[] hi = new double[64];
    private double[][] val = new double[64][];
    private double[][] err = new double[64][];

    private VeQuadrature(double y, double m, double s) {
      this.y = y;
      this.m = m;
      this.s = s;
    }

    static double[] integrate(double y, double m, double s) {
      VeQuadrature q = new VeQuadrature(y, m, s);
      double t0 = -m / s;
      boolean inserted = !(t0 > -T_MAX && t0 < T_MAX);
      double prev = BREAKS[0];
      for (int i = 1; i < BREAKS.length; i++) {
        double c = BREAKS[i];
        if (!inserted && t0 <= c) {
          if (t0 > prev && t0 < c) {
            q.add(prev, t0);
            prev = t0;
          }
          inserted = true;
        }
        q.add(prev, c);
        prev = c;
      }
      return q.adapt();
    }

    private double[] adapt() {
      double[] total = new double[3];
      double[] error = new double[3];
      while (true) {
        java.util.Arrays.fill(total, 0);
        java.util.Arrays.fill(error, 0);
        for (int p = 0; p < count; p++) {
          for (int c = 0; c < 3; c++) {
            total[c] += val[p][c];
            error[c] += err[p][c];
          }
        }
        boolean done = true;
        for (int c = 0; c < 3; c++) {
          if (Double.isNaN(total[c]) || Double.isNaN(error[c]) || Double.isInfinite(total[c])) {
            return new double[] {Double.NaN, Double.NaN, Double.NaN};
          }
          done &= error[c] <= VE_REL_TOL * Math.abs(total[c]);
        }
        if (done || count >= MAX_PIECES) {
          return total;
        }
        // the piece contributing most to the worst relative error
        int worst = -1;
        double w = -1;
        for (int p = 0; p < count; p++) {
          for (int c = 0; c < 3; c++) {
            double rel = err[p][c] / Math.abs(total[c]);
            if (rel > w) {
              w = rel;
              worst = p;
            }
          }
        }
        if (worst < 0) {
          return total;
        }
        double l = lo[worst];
        double u = hi[worst];
        double mid = 0.5 * (l + u);
        if (!(mid > l && mid < u)) {
          return total;
        }
        // replace the worst piece by the last one, then append its two halves
        count--;
        lo[worst] = lo[count];
        hi[worst] = hi[count];
        val[worst] = val[count];
        err[worst] = err[count];
        add(l, mid);
        add(mid, u);
      }
    }

    /** Adds the piece [l, u] with its K15 values and error estimates. */
    private void add(double l, double u) {
      if (count == lo.length) {
        int n = 2 * count;
        lo = java.util.Arrays.copyOf(lo, n);
        hi = java.util.Arrays.copyOf(hi, n);
        val = java.util.Arrays.copyOf(val, n);
        err = java.util.Arrays.copyOf(err, n);
      }
      double c = 0.5 * (l + u);
      double r = 0.5 * (u - l);
      double[] kr = new double[3];
      double[] gs = new double[3];
      double[] ab = new double[3];
      eval(c);
      for (int q = 0; q < 3; q++) {
        kr[q] = h[q] * WGK[7];
        gs[q] = h[q] * WG[3];
        ab[q] = Math.abs(h[q]) * WGK[7];
      }
      for (int j = 0; j < 7; j++) {
        double dx = r * XGK[j];
        eval(c - dx);
        double h0 = h[0];
        double h1 = h[1];
        double h2 = h[2];
        eval(c + dx);
        kr[0] += WGK[j] * (h0 + h[0]);
        kr[1] += WGK[j] * (h1 + h[1]);
        kr[2] += WGK[j] * (h2 + h[2]);
        ab[0] += WGK[j] * (Math.abs(h0) + Math.abs(h[0]));
        ab[1] += WGK[j] * (Math.abs(h1) + Math.abs(h[1]));
        ab[2] += WGK[j] * (Math.abs(h2) + Math.abs(h[2]));
        if (j % 2 == 1) {
          gs[0] += WG[j / 2] * (h0 + h[0]);
          gs[1] += WG[j / 2] * (h1 + h[1]);
          gs[2] += WG[j / 2] * (h2 + h[2]);
        }
      }
      double[] v = new double[3];
      double[] e = new double[3];
      for (int q = 0; q < 3; q++) {
        v[q] = kr[q] * r;
        e[q] = Math.abs((kr[q] - gs[q]) * r) + 50.0 * EPS * ab[q] * Math.abs(r);
      }
      lo[count] = l;
      hi[count] = u;
      val[count] = v;
      err[count] = e;
      count++;
    }

    /** The three integrands times φ(t) at t. */
    private void eval(double t) {
      double w = Normal.pdf(t);
      if (w == 0) {
        // |t| > 38.6: every h is finite, so each product is 0
        h[0] = 0;
        h[1] = 0;
        h[2] = 0;
        return;
      }
      logCdfRatio(y * (m + s * t), h);
      h[0] *= w;
      h[1] *= y * w;
      h[2] *= -0.5 * w;
    }
  }
}
