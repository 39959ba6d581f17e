package org.approxgp.special;

/**
 * Arithmetic on numbers stored by their logarithms.
 *
 * <p>References:
 * <ul>
 *   <li>M. Mächler (2012), "Accurately computing log(1 − exp(−|a|))", R package Rmpfr vignette,
 *       eq. (7): {@code log1mexp(a) = log(-expm1(-a))} for {@code 0 < a <= log 2}, else
 *       {@code log1p(-exp(-a))}.</li>
 *   <li>The log-sum-exp shift {@code log Σ e^{x_i} = m + log1p(Σ_{i≠k} e^{x_i − m})}, {@code m = x_k =
 *       max x_i}: e.g. P. Blanchard, D. J. Higham, N. J. Higham (2021), "Accurately computing the
 *       log-sum-exp and softmax functions", IMA J. Numer. Anal. 41(4), Algorithm 2 (the log1p
 *       variant, their eq. (2.3)).</li>
 * </ul>
 */
public final class LogSpace {

  private static final double LN2 = Math.log(2.0);

  private LogSpace() {}

  /**
   * {@code log Σ exp(x_i)} without overflow. Empty input gives {@code -Infinity}; any NaN gives NaN.
   *
   * @param x the log-terms (not modified)
   * @return the log of the sum
   */
  public static double logSumExp(double[] x) {
    if (x.length == 0) {
      return Double.NEGATIVE_INFINITY;
    }
    int k = 0;
    for (int i = 1; i < x.length; i++) {
      if (Double.isNaN(x[i])) {
        return Double.NaN;
      }
      if (x[i] > x[k]) {
        k = i;
      }
    }
    final double m = x[k];
    if (Double.isNaN(m)) {
      return Double.NaN;
    }
    if (Double.isInfinite(m)) {
      return m; // all -Inf, or some +Inf
    }
    // Blanchard–Higham–Higham (2021) eq. (2.3): m + log1p(Σ_{i≠k} e^{x_i − m})
    double s = 0.0;
    for (int i = 0; i < x.length; i++) {
      if (i != k) {
        s += Math.exp(x[i] - m);
      }
    }
    return m + Math.log1p(s);
  }

  /**
   * {@code log(e^a + e^b)}.
   *
   * @param a first log-term
   * @param b second log-term
   * @return the log of the sum
   */
  public static double logAddExp(double a, double b) {
    if (Double.isNaN(a) || Double.isNaN(b)) {
      return Double.NaN;
    }
    final double m = Math.max(a, b);
    if (Double.isInfinite(m)) {
      return m;
    }
    // log(e^a + e^b) = max + log1p(e^{−|a−b|})
    return m + Math.log1p(Math.exp(-Math.abs(a - b)));
  }

  /**
   * {@code log(1 − e^x)} for {@code x <= 0} (Mächler 2012). {@code x = 0} gives {@code -Infinity};
   * {@code x > 0} gives NaN.
   *
   * @param x a non-positive log-probability
   * @return {@code log(1 − e^x)}
   */
  public static double log1mExp(double x) {
    if (x > 0 || Double.isNaN(x)) {
      return Double.NaN;
    }
    // Mächler (2012) eq. (7): with a = −x, log(−expm1(−a)) for a ≤ log 2, log1p(−exp(−a)) otherwise
    return x > -LN2 ? Math.log(-Math.expm1(x)) : Math.log1p(-Math.exp(x));
  }

  /**
   * {@code log(1 + e^x)} (softplus) without overflow or loss for negative x.
   *
   * @param x the argument
   * @return {@code log(1 + e^x)}
   */
  public static double log1pExp(double x) {
    // Mächler (2012) eq. (10): log1p(e^x) for x ≤ 18, x + e^{−x} for 18 < x ≤ 33.3, x beyond
    if (x <= 18) {
      return Math.log1p(Math.exp(x));
    }
    if (x <= 33.3) {
      return x + Math.exp(-x);
    }
    return x;
  }

  /**
   * Signed log-sum-exp: {@code Σ s_i e^{l_i}} returned as a {@link SignedLog}.
   * Cancellation between terms of opposite sign is inherent and not compensated.
   *
   * @param logAbs the logs of the absolute values (not modified)
   * @param signs  the signs, each in {-1, 0, +1} (not modified)
   * @return the signed sum
   */
  public static SignedLog signedSum(double[] logAbs, int[] signs) {
    if (logAbs.length != signs.length) {
      throw new IllegalArgumentException("length mismatch");
    }
    double m = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < logAbs.length; i++) {
      if (signs[i] != 0 && logAbs[i] > m) {
        m = logAbs[i];
      }
    }
    if (m == Double.NEGATIVE_INFINITY) {
      return SignedLog.ZERO;
    }
    if (m == Double.POSITIVE_INFINITY) {
      throw new ArithmeticException("infinite term in signed sum");
    }
    // Σ s_i e^{l_i} = e^m Σ s_i e^{l_i − m}
    double s = 0.0;
    for (int i = 0; i < logAbs.length; i++) {
      if (signs[i] != 0) {
        s += signs[i] * Math.exp(logAbs[i] - m);
      }
    }
    if (s == 0.0) {
      return SignedLog.ZERO;
    }
    return new SignedLog(m + Math.log(Math.abs(s)), s > 0 ? 1 : -1);
  }

  /**
   * Signed log-sum-exp of {@link SignedLog} terms.
   *
   * @param terms the terms
   * @return their sum
   */
  public static SignedLog signedSum(SignedLog... terms) {
    final double[] l = new double[terms.length];
    final int[] s = new int[terms.length];
    for (int i = 0; i < terms.length; i++) {
      l[i] = terms[i].logAbs();
      s[i] = terms[i].sign();
    }
    return signedSum(l, s);
  }
}
