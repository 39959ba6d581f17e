package org.approxgp.special;

/**
 * Owen's T function
 * <pre>  T(h, a) = (1/2π) ∫_0^a exp(−h²(1 + x²)/2) / (1 + x²) dx</pre>
 * for all real h and a, including a = ±∞.
 *
 * <p>Algorithm: M. Patefield &amp; D. Tandy (2000), "Fast and accurate calculation of Owen's
 * T-function", Journal of Statistical Software 5(5), 1–25. For 0 ≤ a ≤ 1 one of six methods
 * T1–T6 (their section 2) is chosen from the (h, a) grid of their Table 3 (ranges {@code HRANGE},
 * {@code ARANGE}, table {@code SELECT}, orders {@code ORDER}; these are the published tables,
 * which double precision arithmetic reaches with absolute error about 1e-16).
 * <ul>
 *   <li>T1 (their eq. (2.2)): T = (1/2π)[atan a − Σ_{j≥0} c_j a^{2j+1}],
 *       c_j = (−1)^j/(2j+1) (1 − e^{−h²/2} Σ_{i=0}^{j} (h²/2)^i/i!).</li>
 *   <li>T2 (eq. (2.3)): T = φ(h) Σ_{k≥0} (−1)^k I_k/√(2π) with I_k = ∫_0^a x^{2k} e^{−h²x²/2} dx,
 *       I_0 = √(2π)(Φ(ah) − ½)/h, I_k = [(2k−1) I_{k−1} − a^{2k−1} e^{−a²h²/2}]/h².</li>
 *   <li>T3 (eq. (2.4)): T2 with (−1)^k replaced by the coefficients c_k of a degree-20 polynomial
 *       approximation of 1/(1+u), u = x² ∈ [0, 1] (we use the Chebyshev interpolant, computed by
 *       {@code src/test/resources/special/generate/owens_t3_coefficients.py}; max error 1.7e-16).</li>
 *   <li>T4 (eq. (2.5)): T = (a/2π) e^{−h²(1+a²)/2} Σ_{i≥0} y_i (−a²)^i, y_0 = 1,
 *       y_i = (1 − h² y_{i−1})/(2i + 1).</li>
 *   <li>T5 (eq. (2.6)): T = (a/2π) ∫_0^1 e^{−h²(1+a²x²)/2}/(1+a²x²) dx by the 26-point
 *       Gauss–Legendre rule (13 positive nodes, computed once at class initialisation).</li>
 *   <li>T6 (eq. (2.7), a near 1): T = ½Φ(h)Φ(−h) − r e^{−(1−a)h²/(2r)}/(2π), r = atan2(1−a, 1+a)
 *       (h ≥ 0).</li>
 * </ul>
 * Symmetries and special values (Owen 1956, "Tables for computing bivariate normal
 * probabilities", Ann. Math. Statist. 27, eqs. (2.3)–(2.7)): T(−h, a) = T(h, a),
 * T(h, −a) = −T(h, a), T(0, a) = atan(a)/(2π), T(h, 0) = 0, T(h, 1) = ½Φ(h)Φ(−h),
 * T(h, ±∞) = ±½Φ(−|h|), and for a &gt; 1, h ≥ 0 the reflection
 * T(h, a) = ½Φ(h) + ½Φ(ah) − Φ(h)Φ(ah) − T(ah, 1/a), written as
 * ¼ − (Φ(h) − ½)(Φ(ah) − ½) − T(ah, 1/a) for h ≤ 0.67 and
 * ½(Φ(−h) + Φ(−ah)) − Φ(−h)Φ(−ah) − T(ah, 1/a) otherwise (Patefield &amp; Tandy, section 3).
 */
public final class OwensT {

  private static final double ONE_DIV_TWO_PI = 0.15915494309189535;
  private static final double ONE_DIV_ROOT_TWO_PI = 0.3989422804014327;
  private static final double ONE_DIV_ROOT_TWO = 0.7071067811865476;

  /** Patefield–Tandy Table 3: upper limits of the h intervals. */
  private static final double[] HRANGE = {
    0.02, 0.06, 0.09, 0.125, 0.26, 0.4, 0.6, 1.6, 1.7, 2.33, 2.4, 3.36, 3.4, 4.8
  };
  /** Patefield–Tandy Table 3: upper limits of the a intervals. */
  private static final double[] ARANGE = {0.025, 0.09, 0.15, 0.36, 0.5, 0.9, 0.99999};
  /** Patefield–Tandy Table 3: method code (zero-based) by [a interval][h interval]. */
  private static final int[][] SELECT = {
    {0, 0, 1, 12, 12, 12, 12, 12, 12, 12, 12, 15, 15, 15, 8},
    {0, 1, 1, 2, 2, 4, 4, 13, 13, 14, 14, 15, 15, 15, 8},
    {1, 1, 2, 2, 2, 4, 4, 14, 14, 14, 14, 15, 15, 15, 9},
    {1, 1, 2, 4, 4, 4, 4, 6, 6, 15, 15, 15, 15, 15, 9},
    {1, 2, 2, 4, 4, 5, 5, 7, 7, 16, 16, 16, 11, 11, 10},
    {1, 2, 4, 4, 4, 5, 5, 7, 7, 16, 16, 16, 11, 11, 11},
    {1, 2, 3, 3, 5, 5, 7, 7, 16, 16, 16, 16, 16, 11, 11},
    {1, 2, 3, 3, 5, 5, 17, 17, 17, 17, 16, 16, 16, 11, 11}
  };
  /** Patefield–Tandy: method (T1..T6) of each code. */
  private static final int[] METHOD = {1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 3, 4, 4, 4, 4, 5, 6};
  /** Patefield–Tandy: truncation order of each code. */
  private static final int[] ORDER = {2, 3, 4, 5, 7, 10, 12, 18, 10, 20, 30, 20, 4, 7, 8, 20, 13, 0
  };

  /** T3: monomial coefficients of the degree-20 Chebyshev interpolant of 1/(1+u) on [0, 1]. */
  private static final double[] T3_C = {
    0.9999999999999998, -0.9999999999998519, 0.9999999999781624, -0.9999999987143826,
    0.9999999597177504, -0.9999992231146966, 0.9999899374519575, -0.9999072848495549,
    0.9993672878471919, -0.996706126149272, 0.9866217239255753, -0.9568487268841854,
    0.8878098931650205, -0.7616281478444542, 0.5800332551079779, -0.3754780885772345,
    0.1973171370827161, -0.07981347923428146, 0.023113301478846344, -0.004240127090835221,
    0.00036870670355088883
  };

  /** T5: squares of the 13 positive nodes of the 26-point Gauss–Legendre rule on [−1, 1]. */
  private static final double[] T5_X2 = new double[13];
  /** T5: the matching weights divided by 2π. */
  private static final double[] T5_W = new double[13];

  static {
    // Gauss–Legendre nodes: Newton on P_26 from the Tricomi start cos(π(i − ¼)/(n + ½)) (A&S
    // 22.16.6);
    // P'_n(x) = n (x P_n − P_{n−1}) / (x² − 1) (A&S 22.8.5); weight 2/((1 − x²) P'_n(x)²) (A&S
    // 25.4.29).
    final int n = 26;
    for (int i = 1; i <= n / 2; i++) {
      double x = Math.cos(Math.PI * (i - 0.25) / (n + 0.5));
      double dp = 0;
      for (int iter = 0; iter < 100; iter++) {
        double p0 = 1;
        double p1 = x;
        for (int k = 2; k <= n; k++) {
          final double p2 = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k;
          p0 = p1;
          p1 = p2;
        }
        dp = n * (x * p1 - p0) / (x * x - 1);
        final double dx = p1 / dp;
        x -= dx;
        if (Math.abs(dx) <= 1e-17) {
          break;
        }
      }
      T5_X2[i - 1] = x * x;
      T5_W[i - 1] = 2.0 / ((1 - x * x) * dp * dp) * ONE_DIV_TWO_PI;
    }
  }

  private OwensT() {}

  /**
   * Owen's T function T(h, a); absolute error about 1e-16 (tested ≤ 1e-14).
   *
   * @param h any real, including ±∞
   * @param a any real, including ±∞
   * @return T(h, a); NaN if an argument is NaN
   */
  public static double value(double h, double a) {
    if (Double.isNaN(h) || Double.isNaN(a)) {
      return Double.NaN;
    }
    // T(−h, a) = T(h, a); T(h, −a) = −T(h, a)
    final double absH = Math.abs(h);
    if (a < 0) {
      return -positive(absH, -a);
    }
    return positive(absH, a);
  }

  /** T(h, a) for h ≥ 0, a ≥ 0. */
  private static double positive(double h, double a) {
    if (h == Double.POSITIVE_INFINITY) {
      return 0.0;
    }
    if (a == Double.POSITIVE_INFINITY) {
      // T(h, ∞) = ½Φ(−|h|)
      return 0.5 * Normal.cdf(-h);
    }
    if (h == 0.0) {
      // T(0, a) = atan(a)/(2π), also for a > 1
      return Math.atan(a) * ONE_DIV_TWO_PI;
    }
    if (a <= 1.0) {
      return dispatch(h, a, a * h);
    }
    final double ah = a * h;
    if (h <= 0.67) {
      // T(h,a) = ¼ − (Φ(h) − ½)(Φ(ah) − ½) − T(ah, 1/a)
      final double nh = znorm1(h);
      final double nah = znorm1(ah);
      return 0.25 - nh * nah - dispatch(ah, 1.0 / a, h);
    }
    // T(h,a) = ½(Φ(−h) + Φ(−ah)) − Φ(−h)Φ(−ah) − T(ah, 1/a)
    final double qh = Normal.cdf(-h);
    final double qah = Normal.cdf(-ah);
    return 0.5 * (qh + qah) - qh * qah - dispatch(ah, 1.0 / a, h);
  }

  /** Φ(x) − ½ = ½ erf(x/√2). */
  private static double znorm1(double x) {
    return 0.5 * Erf.erf(x * ONE_DIV_ROOT_TWO);
  }

  /** T(h, a) for h ≥ 0, 0 ≤ a ≤ 1, with ah = a·h supplied. */
  private static double dispatch(double h, double a, double ah) {
    if (h == 0.0) {
      // T(0, a) = atan(a)/(2π)
      return Math.atan(a) * ONE_DIV_TWO_PI;
    }
    if (a == 0.0 || h > 40.0) {
      // T(h, a) ≤ ½Φ(−h) < 1e-350 for h > 40
      return 0.0;
    }
    if (a == 1.0) {
      // T(h, 1) = ½Φ(h)Φ(−h)
      return 0.5 * Normal.cdf(h) * Normal.cdf(-h);
    }
    int ih = HRANGE.length;
    for (int i = 0; i < HRANGE.length; i++) {
      if (h <= HRANGE[i]) {
        ih = i;
        break;
      }
    }
    int ia = ARANGE.length;
    for (int i = 0; i < ARANGE.length; i++) {
      if (a <= ARANGE[i]) {
        ia = i;
        break;
      }
    }
    final int code = SELECT[ia][ih];
    final int m = ORDER[code];
    switch (METHOD[code]) {
      case 1:
        return t1(h, a, m);
      case 2:
        return t2(h, a, ah, m);
      case 3:
        return t3(h, a, ah);
      case 4:
        return t4(h, a, m);
      case 5:
        return t5(h, a);
      default:
        return t6(h, a);
    }
  }

  /** T1: T = (1/2π)[atan a − Σ_{j=0}^{m−1} c_j a^{2j+1}] (Patefield–Tandy eq. (2.2)). */
  private static double t1(double h, double a, int m) {
    final double hs = -0.5 * h * h;
    final double dhs = Math.exp(hs);
    final double as = a * a;
    int j = 1;
    int jj = 1;
    double aj = a * ONE_DIV_TWO_PI;
    // d_j = (−1)^{j+1} (1 − e^{−h²/2} Σ_{i=0}^{j} (h²/2)^i/i!), so val += d_j a^{2j+1}/((2j+1) 2π)
    // adds −c_j a^{2j+1}/(2π);
    // d_0 = expm1(−h²/2), d_j = g_j − d_{j−1} with g_j = e^{−h²/2} (−h²/2)^j / j!
    double dj = Math.expm1(hs);
    double gj = hs * dhs;
    double val = Math.atan(a) * ONE_DIV_TWO_PI;
    while (true) {
      val += dj * aj / jj;
      if (m <= j) {
        break;
      }
      j++;
      jj += 2;
      aj *= as;
      dj = gj - dj;
      gj *= hs / j;
    }
    return val;
  }

  /** T2: φ(h) Σ_{k=0}^{2m} (−1)^k I_k/√(2π) (Patefield–Tandy eq. (2.3)). */
  private static double t2(double h, double a, double ah, int m) {
    final int maxii = m + m + 1;
    final double hs = h * h;
    final double as = -a * a;
    final double y = 1.0 / hs;
    int ii = 1;
    // v_k = (−1)^{k−1} a^{2k−1} e^{−a²h²/2}/√(2π); z_0 = (Φ(ah) − ½)/h
    double vi = a * Math.exp(-0.5 * ah * ah) * ONE_DIV_ROOT_TWO_PI;
    double z = znorm1(ah) / h;
    double val = 0.0;
    while (true) {
      val += z;
      if (maxii <= ii) {
        break;
      }
      // z_k = (v_k − (2k−1) z_{k−1})/h²
      z = y * (vi - ii * z);
      vi *= as;
      ii += 2;
    }
    return val * Math.exp(-0.5 * hs) * ONE_DIV_ROOT_TWO_PI;
  }

  /** T3: φ(h) Σ_{k=0}^{20} c_k I_k/√(2π) (Patefield–Tandy eq. (2.4)). */
  private static double t3(double h, double a, double ah) {
    final double as = a * a;
    final double hs = h * h;
    final double y = 1.0 / hs;
    int ii = 1;
    double vi = a * Math.exp(-0.5 * ah * ah) * ONE_DIV_ROOT_TWO_PI;
    double z = znorm1(ah) / h;
    double val = 0.0;
    for (int i = 0; ; i++) {
      val += z * T3_C[i];
      if (i == T3_C.length - 1) {
        break;
      }
      // I_k/√(2π) = ((2k−1) I_{k−1}/√(2π) − a^{2k−1} e^{−a²h²/2}/√(2π))/h²
      z = y * (ii * z - vi);
      vi *= as;
      ii += 2;
    }
    return val * Math.exp(-0.5 * hs) * ONE_DIV_ROOT_TWO_PI;
  }

  /** T4: (a/2π) e^{−h²(1+a²)/2} Σ_{i=0}^{m} y_i (−a²)^i (Patefield–Tandy eq. (2.5)). */
  private static double t4(double h, double a, int m) {
    final int maxii = m + m + 1;
    final double hs = h * h;
    final double as = -a * a;
    int ii = 1;
    double ai = a * Math.exp(-0.5 * hs * (1.0 - as)) * ONE_DIV_TWO_PI;
    double yi = 1.0;
    double val = 0.0;
    while (true) {
      val += ai * yi;
      if (maxii <= ii) {
        break;
      }
      ii += 2;
      // y_i = (1 − h² y_{i−1})/(2i + 1)
      yi = (1.0 - hs * yi) / ii;
      ai *= as;
    }
    return val;
  }

  /** T5: (a/2π) ∫_0^1 e^{−h²(1+a²x²)/2}/(1+a²x²) dx by 26-point Gauss–Legendre (eq. (2.6)). */
  private static double t5(double h, double a) {
    final double as = a * a;
    final double hs = -0.5 * h * h;
    double val = 0.0;
    for (int i = 0; i < T5_X2.length; i++) {
      final double r = 1.0 + as * T5_X2[i];
      val += T5_W[i] * Math.exp(hs * r) / r;
    }
    return val * a;
  }

  /** T6: ½Φ(h)Φ(−h) − r e^{−(1−a)h²/(2r)}/(2π), r = atan2(1−a, 1+a) (eq. (2.7)). */
  private static double t6(double h, double a) {
    final double normh = Normal.cdf(-h);
    final double y = 1.0 - a;
    final double r = Math.atan2(y, 1.0 + a);
    double val = 0.5 * normh * (1.0 - normh);
    if (r != 0.0) {
      val -= r * Math.exp(-y * h * h / (2.0 * r)) * ONE_DIV_TWO_PI;
    }
    return val;
  }
}
