package org.approxgp.special;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.DoubleUnaryOperator;

/**
 * Adaptive one-dimensional quadrature on finite, semi-infinite and infinite intervals.
 *
 * <p>Method: globally adaptive Gauss–Kronrod 15/7 bisection in the manner of QUADPACK's QAG/QAGI
 * (R. Piessens, E. de Doncker-Kapenga, C. Überhuber &amp; D. Kahaner (1983), QUADPACK, Springer,
 * routines QK15, QAG, QK15I). On each subinterval the 15-point Kronrod rule K15 (exact for degree
 * ≤ 22) gives the value and |K15 − G7| (G7 the embedded 7-point Gauss rule, exact for degree ≤ 13)
 * the error estimate; the subinterval with the largest estimate is bisected until the summed
 * estimate is ≤ max(absTol, relTol·|value|). We deliberately do <em>not</em> apply QUADPACK's
 * heuristic shrinking of |K15 − G7| (which can make the estimate smaller than the true error); we use
 * |K15 − G7| itself, plus a rounding floor 50·ε·∫|f| per subinterval, so the estimate is a
 * conservative bound in practice (tested against known integrals).
 *
 * <p>Infinite ranges are mapped to finite ones (QUADPACK QAGI uses the same idea):
 * (−∞, ∞): x = t/(1 − t²), dx = (1 + t²)/(1 − t²)² dt, t ∈ (−1, 1);
 * [a, ∞): x = a + t/(1 − t), dx = dt/(1 − t)², t ∈ [0, 1);
 * (−∞, b]: x = b − t/(1 − t), t ∈ [0, 1). The initial partition of the t-range has 8 equal pieces
 * (16 for (−∞, ∞)) so that features away from the origin are sampled from the start. Optional
 * break points split the range first (QUADPACK QAGP).
 * Nodes never touch the endpoints, so integrable endpoint singularities are allowed.
 *
 * <p>The Kronrod nodes/weights are the published QK15 constants (Piessens et al. 1983, p. 117),
 * checked by {@code QuadratureTest} (exactness on polynomials of degree ≤ 22 and ≤ 13).
 */
public final class Quadrature {

  /** Maximum number of subintervals before giving up (converged = false). */
  public static final int MAX_SUBINTERVALS = 2000;

  /** Kronrod nodes, x_k[7] = 0; odd indices 1, 3, 5 are also the Gauss nodes. */
  private static final double[] XGK = {
    0.991455371120812639206854697526329, 0.949107912342758524526189684047851,
    0.864864423359769072789712788640926, 0.741531185599394439863864773280788,
    0.586087235467691130294144845693013, 0.405845151377397166906606412076961,
    0.207784955007898467600689403773245, 0.000000000000000000000000000000000
  };
  /** Kronrod weights. */
  private static final double[] WGK = {
    0.022935322010529224963732008058970, 0.063092092629978553290700663189204,
    0.104790010322250183839876322541518, 0.140653259715525918745189590510238,
    0.169004726639267902826583426598550, 0.190350578064785409913256402421014,
    0.204432940075298892414161999234649, 0.209482141084727828012999174891714
  };
  /** Gauss 7-point weights for nodes XGK[1], XGK[3], XGK[5], XGK[7]. */
  private static final double[] WG = {
    0.129484966168869693270611432679082, 0.279705391489276667901467771423780,
    0.381830050505118944950369775488975, 0.417959183673469387755102040816327
  };

  private static final double EPS = Math.ulp(1.0);

  private Quadrature() {}

  /** The QK15 Kronrod nodes on [0, 1] (a copy; x[7] = 0; odd indices are the 7-point Gauss nodes). */
  public static double[] kronrod15Nodes() {
    return XGK.clone();
  }

  /** The QK15 Kronrod weights of {@link #kronrod15Nodes()} (a copy). */
  public static double[] kronrod15Weights() {
    return WGK.clone();
  }

  /** The 7-point Gauss weights of the nodes x[1], x[3], x[5], x[7] of {@link #kronrod15Nodes()} (a copy). */
  public static double[] gauss7Weights() {
    return WG.clone();
  }

  /**
   * Result of an integration.
   *
   * @param value         the approximation
   * @param errorEstimate an estimate of |value − exact| (conservative: |K15 − G7| summed)
   * @param evaluations   number of integrand evaluations
   * @param converged     whether errorEstimate ≤ max(absTol, relTol·|value|) was reached
   */
  public record Result(double value, double errorEstimate, int evaluations, boolean converged) {}

  /** One subinterval [lo, hi] of the (transformed) variable t of the integrand g(t). */
  private record Piece(DoubleUnaryOperator g, double lo, double hi, double value, double error) {}

  /**
   * ∫_a^b f(x) dx by adaptive Gauss–Kronrod 15/7. a and b may be infinite; a &gt; b gives the
   * negated integral over [b, a]. Non-finite integrand values make the result NaN and
   * converged false.
   *
   * <p>Like every adaptive rule that samples f, this can miss a feature (e.g. a Gaussian factor of
   * width s centred at μ, |μ|/s ≳ 100) that no initial node comes near; pass its location as a
   * break point with {@link #integrate(DoubleUnaryOperator, double, double, double, double, double...)}.
   *
   * @param f      the integrand
   * @param a      lower limit (may be −∞)
   * @param b      upper limit (may be +∞)
   * @param absTol absolute tolerance (≥ 0)
   * @param relTol relative tolerance (≥ 0); at least one of the two must be positive
   * @return value, error estimate, evaluation count and convergence flag
   */
  public static Result integrate(
      DoubleUnaryOperator f, double a, double b, double absTol, double relTol) {
    return integrate(f, a, b, absTol, relTol, new double[0]);
  }

  /**
   * As {@link #integrate(DoubleUnaryOperator, double, double, double, double)}, with break points
   * (QUADPACK QAGP): [a, b] is first split at the finite points strictly inside it, each part
   * (finite or semi-infinite, with its own transformation) starting the common adaptive process.
   * Use the centre of a known peak (e.g. the cavity mean μ of a tilted distribution) as a break point.
   *
   * @param f      the integrand
   * @param a      lower limit (may be −∞)
   * @param b      upper limit (may be +∞)
   * @param absTol absolute tolerance (≥ 0)
   * @param relTol relative tolerance (≥ 0); at least one of the two must be positive
   * @param points break points (not modified; those outside (a, b) are ignored)
   * @return value, error estimate, evaluation count and convergence flag
   */
  public static Result integrate(
      DoubleUnaryOperator f, double a, double b, double absTol, double relTol, double... points) {
    if (Double.isNaN(a) || Double.isNaN(b)) {
      throw new IllegalArgumentException("NaN limit");
    }
    if (!(absTol >= 0 && relTol >= 0) || (absTol == 0 && relTol == 0)) {
      throw new IllegalArgumentException("tolerances must be >= 0 and not both zero");
    }
    if (a == b) {
      return new Result(0.0, 0.0, 0, true);
    }
    if (a > b) {
      final Result r = integrate(f, b, a, absTol, relTol, points);
      return new Result(-r.value(), r.errorEstimate(), r.evaluations(), r.converged());
    }
    final double[] cuts = Arrays.stream(points)
        .filter(p -> p > a && p < b && Double.isFinite(p))
        .sorted()
        .distinct()
        .toArray();
    final double[] ends = new double[cuts.length + 2];
    ends[0] = a;
    System.arraycopy(cuts, 0, ends, 1, cuts.length);
    ends[ends.length - 1] = b;
    final List<Piece> initial = new ArrayList<>();
    for (int s = 0; s + 1 < ends.length; s++) {
      segment(f, ends[s], ends[s + 1], initial);
    }
    return adapt(initial, absTol, relTol);
  }

  /** Transforms one part [a, b] and adds its initial pieces. */
  private static void segment(DoubleUnaryOperator f, double a, double b, List<Piece> out) {
    final DoubleUnaryOperator g;
    final double lo;
    final double hi;
    final int pieces;
    if (Double.isInfinite(a) && Double.isInfinite(b)) {
      // x = t/(1 − t²), dx/dt = (1 + t²)/(1 − t²)²
      g = t -> {
        final double d = 1.0 - t * t;
        return f.applyAsDouble(t / d) * (1.0 + t * t) / (d * d);
      };
      lo = -1.0;
      hi = 1.0;
      pieces = 16;
    } else if (Double.isInfinite(b)) {
      // x = a + t/(1 − t), dx/dt = 1/(1 − t)²
      g = t -> {
        final double d = 1.0 - t;
        return f.applyAsDouble(a + t / d) / (d * d);
      };
      lo = 0.0;
      hi = 1.0;
      pieces = 8;
    } else if (Double.isInfinite(a)) {
      // x = b − t/(1 − t), |dx/dt| = 1/(1 − t)² (orientation reversed: ∫_{−∞}^b f dx = ∫_0^1 g dt)
      g = t -> {
        final double d = 1.0 - t;
        return f.applyAsDouble(b - t / d) / (d * d);
      };
      lo = 0.0;
      hi = 1.0;
      pieces = 8;
    } else {
      g = f;
      lo = a;
      hi = b;
      pieces = 1;
    }
    for (int i = 0; i < pieces; i++) {
      final double l = lo + (hi - lo) * i / pieces;
      final double h = i == pieces - 1 ? hi : lo + (hi - lo) * (i + 1) / pieces;
      out.add(gk15(g, l, h));
    }
  }

  private static Result adapt(List<Piece> initial, double absTol, double relTol) {
    final PriorityQueue<Piece> heap =
        new PriorityQueue<>((p, q) -> Double.compare(q.error, p.error));
    heap.addAll(initial);
    int evaluations = 15 * initial.size();
    while (true) {
      // sums recomputed from the pieces each step (no drift from repeated subtraction)
      double value = 0.0;
      double error = 0.0;
      for (Piece p : heap) {
        value += p.value;
        error += p.error;
      }
      if (Double.isNaN(value) || Double.isNaN(error) || Double.isInfinite(value)) {
        return new Result(Double.NaN, Double.NaN, evaluations, false);
      }
      if (error <= Math.max(absTol, relTol * Math.abs(value))) {
        return new Result(value, error, evaluations, true);
      }
      if (heap.size() >= MAX_SUBINTERVALS) {
        return new Result(value, error, evaluations, false);
      }
      final Piece worst = heap.poll();
      final double mid = 0.5 * (worst.lo + worst.hi);
      if (!(mid > worst.lo && mid < worst.hi)) {
        // the worst interval can no longer be split in floating point: give up honestly
        heap.add(worst);
        return new Result(value, error, evaluations, false);
      }
      heap.add(gk15(worst.g, worst.lo, mid));
      heap.add(gk15(worst.g, mid, worst.hi));
      evaluations += 30;
    }
  }

  /** 15-point Kronrod value and |K15 − G7| error (plus a rounding floor) on [l, h]. */
  private static Piece gk15(DoubleUnaryOperator g, double l, double h) {
    final double c = 0.5 * (l + h);
    final double r = 0.5 * (h - l);
    final double fc = g.applyAsDouble(c);
    double k = fc * WGK[7];
    double gauss = fc * WG[3];
    double abs = Math.abs(fc) * WGK[7];
    for (int j = 0; j < 7; j++) {
      final double dx = r * XGK[j];
      final double f1 = g.applyAsDouble(c - dx);
      final double f2 = g.applyAsDouble(c + dx);
      k += WGK[j] * (f1 + f2);
      abs += WGK[j] * (Math.abs(f1) + Math.abs(f2));
      if (j % 2 == 1) {
        gauss += WG[j / 2] * (f1 + f2);
      }
    }
    final double value = k * r;
    // error = |K15 − G7| + 50 ε ∫|g| (rounding floor)
    final double err = Math.abs((k - gauss) * r) + 50.0 * EPS * abs * Math.abs(r);
    return new Piece(g, l, h, value, err);
  }
}
