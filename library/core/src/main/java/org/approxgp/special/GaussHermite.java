package org.approxgp.special;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.DoubleUnaryOperator;

/**
 * n-point Gauss–Hermite rules for ∫ e^{−x²} f(x) dx ≈ Σ w_i f(x_i), exact for polynomials of
 * degree ≤ 2n − 1, and the derived Gaussian expectation E f(X), X ~ N(m, v).
 *
 * <p>Method (G. H. Golub &amp; J. H. Welsch (1969), "Calculation of Gauss quadrature rules",
 * Math. Comp. 23, 221–230): the nodes are the eigenvalues of the symmetric tridiagonal Jacobi
 * matrix J with zero diagonal and off-diagonal β_k = √(k/2), k = 1..n−1, from the recurrence of
 * the orthonormal Hermite functions (A&amp;S 22.7.13 normalised)
 * <pre>  p_{−1} = 0, p_0 = π^{−1/4},  p_{k} = x √(2/k) p_{k−1} − √((k−1)/k) p_{k−2}. </pre>
 * Each eigenvalue is bracketed by Sturm-sequence bisection on J (J. H. Wilkinson (1965), The
 * Algebraic Eigenvalue Problem, §5.38: the number of negative pivots of the LDLᵀ factorisation of
 * J − xI counts eigenvalues below x) and polished by Newton's method on p_n with
 * p_n'(x) = √(2n) p_{n−1}(x). The weights are (Christoffel–Darboux; A&amp;S 25.4.46 in orthonormal
 * form) w_i = 1/Σ_{k&lt;n} p_k(x_i)² = 1/(n p_{n−1}(x_i)²) = 2/p_n'(x_i)², which keeps full relative accuracy
 * even for weights of order 1e-300, unlike the squared first eigenvector components.
 *
 * <p>Rules are cached per n in a {@link ConcurrentHashMap} (thread-safe, immutable entries).
 */
public final class GaussHermite {

  private static final ConcurrentHashMap<Integer, GaussHermite> CACHE = new ConcurrentHashMap<>();
  private static final double PI_M14 = Math.pow(Math.PI, -0.25);
  private static final double INV_SQRT_PI = 0.5641895835477563;

  private final double[] nodes;
  private final double[] weights;

  private GaussHermite(double[] nodes, double[] weights) {
    this.nodes = nodes;
    this.weights = weights;
  }

  /**
   * The n-point rule (cached).
   *
   * @param n number of points, 1 ≤ n ≤ 500 (beyond, p_n overflows at the outer nodes)
   * @return the rule
   */
  public static GaussHermite of(int n) {
    if (n < 1 || n > 500) {
      throw new IllegalArgumentException("n must be in [1, 500]: " + n);
    }
    return CACHE.computeIfAbsent(n, GaussHermite::compute);
  }

  /**
   * Nodes in ascending order (a copy).
   *
   * @return the nodes x_i
   */
  public double[] nodes() {
    return nodes.clone();
  }

  /**
   * Weights for the weight function e^{−x²} (a copy); they sum to √π.
   *
   * @return the weights w_i
   */
  public double[] weights() {
    return weights.clone();
  }

  /**
   * Number of points.
   *
   * @return n
   */
  public int size() {
    return nodes.length;
  }

  /**
   * E f(X) for X ~ N(mean, variance): with x = mean + √(2·variance) t,
   * E f(X) = π^{−1/2} ∫ e^{−t²} f(mean + √(2v) t) dt ≈ π^{−1/2} Σ w_i f(mean + √(2v) x_i).
   *
   * @param mean     mean of X
   * @param variance variance of X, ≥ 0
   * @param f        the integrand (called n times)
   * @return the Gauss–Hermite approximation of E f(X)
   */
  public double expectNormal(double mean, double variance, DoubleUnaryOperator f) {
    if (!(variance >= 0.0)) {
      throw new IllegalArgumentException("variance must be >= 0: " + variance);
    }
    final double scale = Math.sqrt(2.0 * variance);
    double s = 0.0;
    for (int i = 0; i < nodes.length; i++) {
      s += weights[i] * f.applyAsDouble(mean + scale * nodes[i]);
    }
    return s * INV_SQRT_PI;
  }

  /** Number of eigenvalues of the Jacobi matrix below x (Sturm count via LDLᵀ pivots). */
  private static int countBelow(int n, double x) {
    int count = 0;
    double d = -x; // d_1 = a_1 − x, a_k = 0
    if (d < 0) {
      count++;
    }
    for (int k = 1; k < n; k++) {
      if (d == 0.0) {
        d = 1e-300; // standard perturbation of an exactly zero pivot
      }
      // d_{k+1} = (a_{k+1} − x) − β_k²/d_k, β_k² = k/2
      d = -x - 0.5 * k / d;
      if (d < 0) {
        count++;
      }
    }
    return count;
  }

  /** Evaluates {p_n(x), p_{n−1}(x)} of the orthonormal recurrence. */
  private static double[] orthonormal(int n, double x) {
    double pm1 = 0.0;
    double p = PI_M14;
    for (int k = 1; k <= n; k++) {
      // p_k = x √(2/k) p_{k−1} − √((k−1)/k) p_{k−2}
      final double next = x * Math.sqrt(2.0 / k) * p - Math.sqrt((k - 1.0) / k) * pm1;
      pm1 = p;
      p = next;
    }
    return new double[] {p, pm1};
  }

  private static GaussHermite compute(int n) {
    final double[] x = new double[n];
    final double[] w = new double[n];
    // Gershgorin: all eigenvalues lie in [−R, R], R = 2 max β_k ≤ √(2n)
    final double r = Math.sqrt(2.0 * n) + 1.0;
    final int half = n / 2;
    for (int i = 0; i < n; i++) {
      final int j = n - 1 - i;
      if (j < i) {
        x[i] = -x[j]; // symmetry x_{n−1−i} = −x_i
        w[i] = w[j];
        continue;
      }
      if (n % 2 == 1 && i == half) {
        x[i] = 0.0;
      } else {
        // bisection: the i-th smallest eigenvalue lies where countBelow jumps from i to i+1
        double lo = -r;
        double hi = (n % 2 == 1 || i < half) ? 0.0 : r;
        for (int iter = 0; iter < 200 && hi - lo > 1e-10 * Math.max(1.0, Math.abs(lo)); iter++) {
          final double mid = 0.5 * (lo + hi);
          if (countBelow(n, mid) > i) {
            hi = mid;
          } else {
            lo = mid;
          }
        }
        double t = 0.5 * (lo + hi);
        // Newton polish on p_n, p_n' = √(2n) p_{n−1}
        for (int iter = 0; iter < 10; iter++) {
          final double[] pp = orthonormal(n, t);
          final double dt = pp[0] / (Math.sqrt(2.0 * n) * pp[1]);
          t -= dt;
          if (Math.abs(dt) <= 1e-16 * Math.abs(t)) {
            break;
          }
        }
        x[i] = t;
      }
      final double[] pp = orthonormal(n, x[i]);
      final double dp = Math.sqrt(2.0 * n) * pp[1];
      // w_i = 2/p_n'(x_i)²
      w[i] = 2.0 / (dp * dp);
    }
    // enforce exact symmetry
    for (int i = 0; i < half; i++) {
      x[n - 1 - i] = -x[i];
      w[n - 1 - i] = w[i];
    }
    return new GaussHermite(x, w);
  }

  @Override
  public String toString() {
    return "GaussHermite[n=" + nodes.length + ", nodes=" + Arrays.toString(nodes) + "]";
  }
}
