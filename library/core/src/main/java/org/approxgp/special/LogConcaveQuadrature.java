package org.approxgp.special;

import java.util.Arrays;

/**
 * The integral of a log-concave function e^{ℓ(x)} over the real line, in log space, with the mean and variance
 * of the normalised density e^{ℓ}/∫e^{ℓ}: the moments of a one-dimensional tilted distribution
 * N(f | m, v) p(y | f)^u for a log-concave likelihood (Minka 2004, "Power EP", eq. 9; R&amp;W §3.6), at any
 * cavity, however far its mean is from where p changes and however wide or narrow it is.
 *
 * <p><b>Method.</b> (1) The mode x* of ℓ by Newton's method on ℓ' (decreasing, as ℓ is concave), each step
 * kept inside the bracket of the sign changes of ℓ' seen so far (bisection when it leaves it; halved when it
 * lands where ℓ' overflows). (2) The scale
 * σ = (−ℓ''(x*))^{−1/2} and t = (x − x*)/σ, in which the integrand g(t) = exp(ℓ(x* + σt) − ℓ(x*)) has its
 * maximum 1 at t = 0 and unit curvature there (Laplace's scaling). The increment ℓ(x* + σt) − ℓ(x*) is
 * asked of the caller ({@link LogConcave#increment}), who can form it without the cancellation of two large
 * values of ℓ (a Gaussian far in the tail of a probit has ℓ ≈ −5e11 and needs increments of 1e-12). (3) The
 * range: on each side the first t = ±2^k (k ≥ 0) where the increment is below −{@value #DROP}; by concavity
 * ℓ decays at least linearly beyond it, so the neglected mass is below e^{−DROP}(1 − e^{−DROP})^{−1} of the
 * total (its second moment below DROP² e^{−DROP} of the total's), 1e-19. (4) Initial pieces at t = 0,
 * ±1, ±2, …, ±2^k (widths doubling away from the mode, so a density much wider on one side than its
 * curvature at the mode says — a probit tilt beyond its kink — is resolved), plus the caller's break points.
 * (5) ∫g, ∫t g, ∫t² g on one shared partition by QUADPACK's 15-point Kronrod rule and its 7-point Gauss error
 * estimate (QAG's globally adaptive bisection of the worst piece, the constants of {@link Quadrature}) until
 * each error is ≤ relTol × (∫g, ∫|t| g, ∫t² g respectively). For a log-concave density |E t − t*| ≤ √3 sd,
 * so Var t = E t² − (E t)² loses at most a factor 4 to cancellation.
 *
 * <p>Returns log ∫e^{ℓ} = ℓ(x*) + log σ + log ∫g, mean x* + σ E t, variance σ² Var t. Imports no GP type.
 */
public final class LogConcaveQuadrature {
  /** The drop of ℓ below its maximum at which the range ends (class comment). */
  static final double DROP = 50;

  private static final double[] XGK = Quadrature.kronrod15Nodes();
  private static final double[] WGK = Quadrature.kronrod15Weights();
  private static final double[] WG = Quadrature.gauss7Weights();
  private static final double EPS = Math.ulp(1.0);
  private static final int MAX_PIECES = 2000;
  private static final int MAX_NEWTON = 400;
  private static final int MAX_DOUBLINGS = 1100;

  private LogConcaveQuadrature() {}

  /** A concave ℓ with its first two derivatives. */
  public interface LogConcave {
    /** ℓ(x), finite. */
    double value(double x);

    /** ℓ'(x). */
    double slope(double x);

    /** ℓ''(x) &lt; 0. */
    double curvature(double x);

    /**
     * ℓ(x + dx) − ℓ(x); override when ℓ is large and the difference can be formed without cancellation.
     * Default: value(x + dx) − value(x).
     */
    default double increment(double x, double dx) {
      return dx == 0 ? 0 : value(x + dx) - value(x);
    }
  }

  /**
   * log ∫ e^{ℓ(x)} dx and the mean and variance of e^{ℓ}/∫e^{ℓ}.
   *
   * @param mode x* where ℓ'(x*) = 0
   * @param scale σ = (−ℓ''(x*))^{−1/2}
   * @param mass ∫ g(t) dt = ∫ e^{ℓ(x) − ℓ(x*)} dx / σ (so that a caller can combine log σ and log ∫g with its own
   *     constants in one logarithm)
   */
  public record Result(
      double logIntegral, double mean, double variance, double mode, double scale, double mass) {}

  /**
   * See the class comment.
   *
   * @param f the log-concave ℓ
   * @param start where the search for the mode starts (e.g. a cavity mean)
   * @param breaks points x where ℓ changes fast (a kink of the likelihood); they become piece ends
   * @param relTol relative tolerance of each of the three integrals (e.g. 1e-13)
   * @throws NumericalException when the mode or the range cannot be found or an integral is not finite
   */
  public static Result integrate(LogConcave f, double start, double[] breaks, double relTol) {
    double x = mode(f, start);
    double curv = f.curvature(x);
    if (!(curv < 0) || !Double.isFinite(curv)) {
      throw new NumericalException(
          "log-concave quadrature: curvature " + curv + " at the mode " + x);
    }
    double sigma = 1 / Math.sqrt(-curv);
    double tHi = end(f, x, sigma, 1);
    double tLo = -end(f, x, sigma, -1);
    double[] pts = partition(tLo, tHi, x, sigma, breaks);
    Pieces p = new Pieces(f, x, sigma);
    for (int i = 1; i < pts.length; i++) {
      p.add(pts[i - 1], pts[i]);
    }
    double[] s = p.adapt(relTol);
    if (!(s[0] > 0) || !Double.isFinite(s[0]) || !Double.isFinite(s[1]) || !Double.isFinite(s[2])) {
      throw new NumericalException(
          "log-concave quadrature: integrals " + Arrays.toString(s) + " at mode " + x);
    }
    double mt = s[1] / s[0];
    double vt = s[2] / s[0] - mt * mt;
    return new Result(
        f.value(x) + Math.log(sigma) + Math.log(s[0]),
        x + sigma * mt,
        sigma * sigma * vt,
        x,
        sigma,
        s[0]);
  }

  /** The root of the decreasing ℓ' by safeguarded Newton (class comment, step 1). */
  static double mode(LogConcave f, double start) {
    double lo = Double.NEGATIVE_INFINITY;
    double hi = Double.POSITIVE_INFINITY;
    double x = start;
    double prev = Double.NaN; // the last point with a finite slope
    double lastStep = Double.POSITIVE_INFINITY;
    for (int it = 0; it < MAX_NEWTON; it++) {
      double g = f.slope(x);
      if (g == 0) {
        return x;
      }
      if (!Double.isFinite(g)) {
        if (Double.isNaN(prev)) {
          throw new NumericalException("log-concave quadrature: slope " + g + " at " + x);
        }
        x = 0.5 * (prev + x); // a Newton step into overflow: halve it
        continue;
      }
      prev = x;
      if (g > 0) {
        lo = x;
      } else {
        hi = x;
      }
      boolean bracketed = Double.isFinite(lo) && Double.isFinite(hi);
      if (bracketed && hi - lo <= 4 * Math.ulp(Math.max(Math.abs(lo), Math.abs(hi)))) {
        return x; // the bracket is a few ulps wide
      }
      double c = f.curvature(x);
      double nx = x - g / c;
      if (c < 0 && Math.abs(nx - x) <= 4 * Math.ulp(x) + 1e-300) {
        return nx; // converged: the Newton step is below a few ulps of x
      }
      // rtsafe's rule (Numerical Recipes §9.4): bisect a bracket when the Newton step would not at
      // least halve
      // the one before (e.g. the unit steps of Newton on a − eˣ from far right)
      boolean slow = bracketed && Math.abs(nx - x) > 0.5 * lastStep;
      lastStep = Math.abs(nx - x);
      if (slow && Double.isFinite(nx)) {
        nx = 0.5 * (lo + hi);
        lastStep = 0.5 * (hi - lo);
      } else if (!(c < 0) || !Double.isFinite(nx)) {
        // no usable Newton step: double the distance in the uphill direction, or bisect the bracket
        nx = bracketed ? 0.5 * (lo + hi) : x + (g > 0 ? 1 : -1) * Math.max(1, 2 * Math.abs(x));
      } else if (!(nx > lo && nx < hi)) {
        // a step out of the bracket: bisect it (with one side still open, x is its finite end and
        // the step
        // can only leave through that end by rounding, i.e. x is the root to rounding)
        if (!bracketed) {
          return x;
        }
        nx = 0.5 * (lo + hi);
      }
      x = nx;
    }
    return x;
  }

  /** The first 2^k (k ≥ 0) with ℓ(x* + dir σ 2^k) − ℓ(x*) &lt; −DROP. */
  private static double end(LogConcave f, double x, double sigma, int dir) {
    double t = 1;
    for (int k = 0; k < MAX_DOUBLINGS; k++) {
      double d = f.increment(x, dir * sigma * t);
      if (d < -DROP) {
        return t;
      }
      if (Double.isNaN(d)) {
        throw new NumericalException("log-concave quadrature: increment NaN at t = " + dir * t);
      }
      t *= 2;
    }
    throw new NumericalException("log-concave quadrature: no end of the range in direction " + dir);
  }

  /** 0, ±1, ±2, …, the ends, and the break points inside (tLo, tHi), in t, sorted and distinct. */
  private static double[] partition(
      double tLo, double tHi, double x, double sigma, double[] breaks) {
    double[] pts = new double[2 * MAX_DOUBLINGS + 3 + breaks.length];
    int n = 0;
    pts[n++] = 0;
    for (double t = 1; t <= tHi; t *= 2) {
      pts[n++] = t;
    }
    for (double t = 1; t <= -tLo; t *= 2) {
      pts[n++] = -t;
    }
    for (double b : breaks) {
      double t = (b - x) / sigma;
      if (t > tLo && t < tHi) {
        pts[n++] = t;
      }
    }
    return Arrays.stream(pts, 0, n).sorted().distinct().toArray();
  }

  /** The adaptive partition of step 5 (three integrands sharing their pieces). */
  private static final class Pieces {
    private final LogConcave f;
    private final double x;
    private final double sigma;
    private int count;
    private double[] lo = new double[64];
    private double[] hi = new double[64];
    /** Per piece: ∫g, ∫t g, ∫t² g, their error estimates, and ∫|t| g. */
    private double[][] val = new double[64][];

    Pieces(LogConcave f, double x, double sigma) {
      this.f = f;
      this.x = x;
      this.sigma = sigma;
    }

    double g(double t) {
      return Math.exp(f.increment(x, sigma * t));
    }

    double[] adapt(double relTol) {
      double[] s = new double[7];
      while (true) {
        Arrays.fill(s, 0);
        for (int p = 0; p < count; p++) {
          for (int c = 0; c < 7; c++) {
            s[c] += val[p][c];
          }
        }
        for (double v : s) {
          if (!Double.isFinite(v)) {
            return s;
          }
        }
        double[] scale = {s[0], s[6], s[2]};
        boolean done =
            s[3] <= relTol * scale[0] && s[4] <= relTol * scale[1] && s[5] <= relTol * scale[2];
        if (done || count >= MAX_PIECES) {
          return s;
        }
        int worst = -1;
        double w = -1;
        for (int p = 0; p < count; p++) {
          for (int c = 0; c < 3; c++) {
            double rel = scale[c] > 0 ? val[p][3 + c] / scale[c] : 0;
            if (rel > w) {
              w = rel;
              worst = p;
            }
          }
        }
        double l = lo[worst];
        double u = hi[worst];
        double mid = 0.5 * (l + u);
        if (!(mid > l && mid < u)) {
          return s;
        }
        count--;
        lo[worst] = lo[count];
        hi[worst] = hi[count];
        val[worst] = val[count];
        add(l, mid);
        add(mid, u);
      }
    }

    void add(double l, double u) {
      if (count == lo.length) {
        int n = 2 * count;
        lo = Arrays.copyOf(lo, n);
        hi = Arrays.copyOf(hi, n);
        val = Arrays.copyOf(val, n);
      }
      double c = 0.5 * (l + u);
      double r = 0.5 * (u - l);
      double gc = g(c);
      double k0 = WGK[7] * gc;
      double k1 = WGK[7] * c * gc;
      double k2 = WGK[7] * c * c * gc;
      double a1 = WGK[7] * Math.abs(c) * gc;
      double g0 = WG[3] * gc;
      double g1 = WG[3] * c * gc;
      double g2 = WG[3] * c * c * gc;
      for (int j = 0; j < 7; j++) {
        double dx = r * XGK[j];
        double ta = c - dx;
        double tb = c + dx;
        double ga = g(ta);
        double gb = g(tb);
        double s0 = ga + gb;
        double s1 = ta * ga + tb * gb;
        double s2 = ta * ta * ga + tb * tb * gb;
        k0 += WGK[j] * s0;
        k1 += WGK[j] * s1;
        k2 += WGK[j] * s2;
        a1 += WGK[j] * (Math.abs(ta) * ga + Math.abs(tb) * gb);
        if (j % 2 == 1) {
          g0 += WG[j / 2] * s0;
          g1 += WG[j / 2] * s1;
          g2 += WG[j / 2] * s2;
        }
      }
      double ar = Math.abs(r);
      // g ≥ 0 and t² g ≥ 0, so the K15 sums of their absolute values are the sums themselves
      double e0 = Math.abs((k0 - g0) * r) + 50 * EPS * k0 * ar;
      double e1 = Math.abs((k1 - g1) * r) + 50 * EPS * a1 * ar;
      double e2 = Math.abs((k2 - g2) * r) + 50 * EPS * k2 * ar;
      lo[count] = l;
      hi[count] = u;
      val[count] = new double[] {k0 * r, k1 * r, k2 * r, e0, e1, e2, a1 * ar};
      count++;
    }
  }
}
