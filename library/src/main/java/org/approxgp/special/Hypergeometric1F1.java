package org.approxgp.special;

/**
 * Kummer's confluent hypergeometric function at a non-positive integer first parameter,
 * M_n(x) = 1F1(−n; b; x) = Σ_{k=0}^{n} (−n)_k/(b)_k · x^k/k!, a polynomial of degree n in x
 * (DLMF 13.2.2), equal to n!/(b)_n · L_n^{(b−1)}(x) (DLMF 13.6.19 / 18.5.12).
 *
 * <p>Method: the three-term recurrence in n, obtained from Kummer's contiguous relation
 * DLMF 13.3.1, (b − a) M(a − 1) + (2a − b + x) M(a) − a M(a + 1) = 0, at a = −k:
 * <pre>
 *   (b + k) M_{k+1}(x) = (2k + b − x) M_k(x) − k M_{k−1}(x),   M_0 = 1,  M_1 = 1 − x/b,
 * </pre>
 * which is the Laguerre recurrence DLMF 18.9.13, (k+1) L_{k+1}^{(α)} = (2k + α + 1 − x) L_k^{(α)}
 * − (k + α) L_{k−1}^{(α)}, rescaled by k!/(b)_k. In the oscillatory region 0 &lt; x &lt; 4n + 2b
 * both solutions of the recurrence have comparable size, and outside it the polynomial is the
 * dominant solution, so forward evaluation is stable (W. Gautschi (1967), "Computational aspects
 * of three-term recurrence relations", SIAM Review 9, §§1–3), whereas the power sum cancels
 * catastrophically for large positive x (e.g. 7 of 16 digits at (−30; ½; 10)).
 *
 * <p>The log version keeps a binary exponent beside the two latest values and rescales both
 * by an exact power of two whenever they leave [2^−500, 2^500], so no overflow occurs for any
 * n, x (tested n ≤ 200, |x| ≤ 5000).
 */
public final class Hypergeometric1F1 {

    private static final double LN2 = Math.log(2.0);
    private static final int RESCALE_EXP = 500;

    private Hypergeometric1F1() {
    }

    /**
     * 1F1(−n; b; x); overflows to ±Infinity when the value leaves the double range — use
     * {@link #logNegativeInteger} then.
     *
     * @param n non-negative integer
     * @param b positive real
     * @param x real
     * @return 1F1(−n; b; x)
     */
    public static double negativeInteger(int n, double b, double x) {
        final double[] r = recurrence(n, b, x);
        // exact scaling by 2^exp2 (no log/exp round trip)
        return r[1] > Integer.MAX_VALUE ? Math.copySign(Double.POSITIVE_INFINITY, r[0])
            : r[1] < Integer.MIN_VALUE ? Math.copySign(0.0, r[0]) : Math.scalb(r[0], (int) r[1]);
    }

    /**
     * 1F1(−n; b; x) as (log|v|, sign v), never overflowing.
     *
     * @param n non-negative integer
     * @param b positive real
     * @param x real
     * @return the value as a {@link SignedLog}
     * @throws IllegalArgumentException if n &lt; 0 or b ≤ 0 (or NaN)
     */
    public static SignedLog logNegativeInteger(int n, double b, double x) {
        final double[] r = recurrence(n, b, x);
        if (r[0] == 0.0) {
            return SignedLog.ZERO;
        }
        return new SignedLog(Math.log(Math.abs(r[0])) + r[1] * LN2, r[0] > 0 ? 1 : -1);
    }

    /** Returns {m, e} with 1F1(−n; b; x) = m · 2^e, by the forward recurrence with exact rescaling. */
    private static double[] recurrence(int n, double b, double x) {
        if (n < 0) {
            throw new IllegalArgumentException("n must be >= 0: " + n);
        }
        if (!(b > 0.0) || Double.isInfinite(b)) {
            throw new IllegalArgumentException("b must be positive and finite: " + b);
        }
        if (Double.isNaN(x) || Double.isInfinite(x)) {
            throw new IllegalArgumentException("x must be finite: " + x);
        }
        if (n == 0 || x == 0.0) {
            return new double[] {1.0, 0.0};
        }
        // M_0 = 1, M_1 = 1 − x/b
        double prev = 1.0;
        double cur = 1.0 - x / b;
        long exp2 = 0; // true values are (prev, cur) · 2^exp2
        for (int k = 1; k < n; k++) {
            // (b + k) M_{k+1} = (2k + b − x) M_k − k M_{k−1}
            final double next = ((2.0 * k + b - x) * cur - k * prev) / (b + k);
            prev = cur;
            cur = next;
            final int e = Math.getExponent(Math.max(Math.abs(cur), Math.abs(prev)));
            if ((e > RESCALE_EXP || e < -RESCALE_EXP) && e > Double.MIN_EXPONENT - 1) {
                // exact rescaling by 2^−e keeps the recurrence unchanged (it is linear and homogeneous)
                prev = Math.scalb(prev, -e);
                cur = Math.scalb(cur, -e);
                exp2 += e;
            }
        }
        return new double[] {cur, exp2};
    }
}
