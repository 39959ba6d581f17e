package org.approxgp.optimize;

/**
 * The line search of Moré &amp; Thuente ("Line search algorithms with guaranteed sufficient decrease", ACM TOMS
 * 20(3), 1994): finds a step α &gt; 0 along a descent direction satisfying the strong Wolfe conditions
 *
 * <pre>
 *   φ(α) ≤ φ(0) + μ α φ'(0)          (sufficient decrease, MT eq. 1.1; Nocedal &amp; Wright 2006 eq. 3.7a)
 *   |φ'(α)| ≤ η |φ'(0)|              (curvature, MT eq. 1.2; N&amp;W eq. 3.7b)
 * </pre>
 *
 * with μ = {@value #MU} and η = {@value #ETA} (the usual quasi-Newton choice). It keeps an interval of
 * uncertainty with ends α_l (the best step so far) and α_u and chooses each trial step by cubic, quadratic or
 * secant interpolation (the four cases of MT §4), safeguarded so that the interval shrinks by at least a factor
 * {@value #SHRINK} every two trials (else bisection) and, before a minimiser is bracketed, extrapolates at most
 * to α + {@value #EXTRAPOLATE}·(α − α_l). While no trial step has met the sufficient-decrease test with
 * φ'(α) ≥ 0, the interval is updated with the auxiliary function ψ(α) = φ(α) − φ(0) − μ α φ'(0) (MT §3,
 * "stage 1"), afterwards with φ itself.
 *
 * <p><b>Points where f fails.</b> A non-finite φ(α) is treated as "too far" (not interpolated): the trial
 * becomes the upper end α_u of a bracketed interval marked as a wall, and the next trial is
 * α_l + {@value #WALL_SHRINK}·(α − α_l). Interpolations that would need φ at a wall bisect instead.
 *
 * <p><b>Flat f.</b> Near a minimiser φ changes by a few rounding errors and its comparisons are noise: a trial
 * that looks higher by an ulp sends case 1 interpolation towards 0 and the search stalls. So a step is also
 * accepted when φ is flat to within its rounding, |φ(α) − φ(0)| ≤ ε|φ(0)| with ε = {@value #APPROX_EPS} (a few
 * thousand ulps), and the approximate Wolfe conditions of Hager &amp; Zhang (SIAM J. Optim. 16, 2005, eq. 4.1) hold:
 * η φ'(0) ≤ φ'(α) ≤ (2μ − 1) φ'(0) — the derivative form of sufficient decrease, exact for a quadratic and
 * immune to rounding in φ.
 *
 * <p>A search that cannot meet both conditions ends with {@link Outcome#wolfe()} false and the best step it
 * found (α_l, with φ(α_l) ≤ φ(0) when α_l &gt; 0); the caller decides what to do (Lbfgs falls back to
 * backtracking).
 */
final class MoreThuente {

  static final double MU = 1e-4;
  static final double ETA = 0.9;
  static final double SHRINK = 0.66;
  static final double EXTRAPOLATE = 4;
  static final double WALL_SHRINK = 0.25;
  /** Relative width of the interval below which it cannot shrink further (rounding). */
  static final double XTOL = 1e-16;

  static final int MAX_EVALUATIONS = 20;
  /** ε of the approximate Wolfe test, relative to |φ(0)|. */
  static final double APPROX_EPS = 1e-12;

  /** φ along the search direction. */
  interface Phi {

    /** Returns φ(α) (any value, non-finite where f fails) and, when finite, writes φ'(α) into {@code deriv[0]}. */
    double at(double alpha, double[] deriv);
  }

  /**
   * @param step the step returned: the Wolfe step, or the best step seen (0 when none lowered φ)
   * @param value φ(step) (φ(0) when step is 0)
   * @param wolfe both strong Wolfe conditions hold at step, or step is the largest allowed and still satisfies
   *     sufficient decrease with φ' &lt; μ φ'(0) (the step is cut by a bound)
   * @param smallestTried the smallest trial step that was evaluated (for a backtracking fallback)
   * @param evaluations φ evaluations made
   * @param why the reason when not {@code wolfe}
   */
  record Outcome(
      double step,
      double value,
      boolean wolfe,
      double smallestTried,
      int evaluations,
      String why) {}

  private MoreThuente() {}

  /**
   * Searches on [0, stepMax] from the trial step {@code step0}.
   *
   * @param f0 φ(0), finite
   * @param g0 φ'(0), negative
   */
  static Outcome search(Phi phi, double f0, double g0, double step0, double stepMax) {
    if (!(g0 < 0) || !(step0 > 0) || !(stepMax > 0)) {
      throw new IllegalArgumentException(
          "line search needs φ'(0) < 0 and positive steps: " + g0 + ", " + step0 + ", " + stepMax);
    }
    double[] d = new double[1];
    double gtest = MU * g0;
    // interval ends: x = α_l (best so far), y = α_u; t = the trial
    double stx = 0;
    double fx = f0;
    double gx = g0;
    double sty = 0;
    double fy = f0;
    double gy = g0;
    boolean wall = false;
    boolean brackt = false;
    boolean stage1 = true;
    double width = stepMax;
    double width1 = 2 * width;
    double stp = Math.min(step0, stepMax);
    double stmin = 0;
    double stmax = stp + EXTRAPOLATE * stp;
    double smallest = Double.POSITIVE_INFINITY;
    for (int evals = 1; evals <= MAX_EVALUATIONS; evals++) {
      double f = phi.at(stp, d);
      smallest = Math.min(smallest, stp);
      if (!Double.isFinite(f)) {
        // too far: the trial becomes a wall at the upper end; step back towards α_l without
        // interpolating
        brackt = true;
        wall = true;
        sty = stp;
        width1 = width;
        width = Math.abs(sty - stx);
        stmin = Math.min(stx, sty);
        stmax = Math.max(stx, sty);
        stp = stx + WALL_SHRINK * (stp - stx);
        if (!(Math.abs(stp - stx) > XTOL * Math.max(stp, stx)) || stp <= 0) {
          return fail(stx, fx, smallest, evals, "rounding: f fails at every trial step");
        }
        continue;
      }
      double g = d[0];
      double ftest = f0 + stp * gtest;
      if (f <= ftest && Math.abs(g) <= -ETA * g0) {
        return new Outcome(stp, f, true, smallest, evals, "");
      }
      if (Math.abs(f - f0) <= APPROX_EPS * Math.abs(f0)
          && ETA * g0 <= g
          && g <= (2 * MU - 1) * g0) {
        // Hager–Zhang's approximate Wolfe conditions: f is flat to within its rounding, the slope
        // says the step
        // went about as far as a quadratic's minimiser
        return new Outcome(stp, f, true, smallest, evals, "");
      }
      if (stp == stepMax && f <= ftest && g <= gtest) {
        return new Outcome(stp, f, true, smallest, evals, ""); // cut by a bound, still descending
      }
      if (brackt && (stp <= stmin || stp >= stmax)) {
        return fail(stx, fx, smallest, evals, "rounding errors prevent progress");
      }
      if (brackt && stmax - stmin <= XTOL * stmax) {
        return fail(
            stx, fx, smallest, evals, "interval of uncertainty below relative width " + XTOL);
      }
      if (evals == MAX_EVALUATIONS) {
        // the best step of the search (φ(α_l) ≤ φ(0)) or this last one if it is better
        return f < fx
            ? fail(stp, f, smallest, evals, "evaluation cap " + MAX_EVALUATIONS)
            : fail(stx, fx, smallest, evals, "evaluation cap " + MAX_EVALUATIONS);
      }
      if (stage1 && f <= ftest && g >= Math.min(MU, ETA) * g0) {
        stage1 = false;
      }
      Step s;
      if (stage1 && f <= fx && f > ftest) {
        // MT §3: with ψ = φ − μ φ'(0) α the interval update keeps a step with sufficient decrease
        s = step(
            stx,
            fx - stx * gtest,
            gx - gtest,
            sty,
            fy - sty * gtest,
            gy - gtest,
            wall,
            stp,
            f - stp * gtest,
            g - gtest,
            brackt,
            stmin,
            stmax);
        s.fx += s.stx * gtest;
        s.gx += gtest;
        s.fy += s.sty * gtest;
        s.gy += gtest;
      } else {
        s = step(stx, fx, gx, sty, fy, gy, wall, stp, f, g, brackt, stmin, stmax);
      }
      stx = s.stx;
      fx = s.fx;
      gx = s.gx;
      sty = s.sty;
      fy = s.fy;
      gy = s.gy;
      wall = s.wall;
      brackt = s.brackt;
      stp = s.stp;
      if (brackt) {
        // MT §4: force a sufficient shrink of the interval, else bisect
        if (Math.abs(sty - stx) >= SHRINK * width1) {
          stp = stx + 0.5 * (sty - stx);
        }
        width1 = width;
        width = Math.abs(sty - stx);
        stmin = Math.min(stx, sty);
        stmax = Math.max(stx, sty);
      } else {
        stmin = stx;
        stmax = stp + EXTRAPOLATE * (stp - stx);
      }
      stp = Math.max(stp, Double.MIN_NORMAL);
      stp = Math.min(stp, stepMax);
      if (brackt && (stp <= stmin || stp >= stmax || stmax - stmin <= XTOL * stmax)) {
        return fail(stx, fx, smallest, evals, "rounding errors prevent progress");
      }
    }
    // the cap reached on a trial where f failed
    return fail(
        stx,
        fx,
        smallest,
        MAX_EVALUATIONS,
        "evaluation cap " + MAX_EVALUATIONS + ", f fails at the last trial");
  }

  private static Outcome fail(double stx, double fx, double smallest, int evals, String why) {
    return new Outcome(stx, fx, false, smallest, evals, why);
  }

  /** The interval and next trial after one evaluation (mutable for the ψ ↔ φ conversion). */
  private static final class Step {
    double stx;
    double fx;
    double gx;
    double sty;
    double fy;
    double gy;
    boolean wall;
    boolean brackt;
    double stp;
  }

  /**
   * One MT trial-step choice (§4, cases 1–4) and interval update (§2, updating algorithm U1–U3). Ends x = α_l,
   * y = α_u (a wall when {@code wall}: its value is not finite and not used); t = the trial just evaluated.
   */
  private static Step step(
      double stx,
      double fx,
      double gx,
      double sty,
      double fy,
      double gy,
      boolean wall,
      double stp,
      double fp,
      double gp,
      boolean brackt,
      double stmin,
      double stmax) {
    double sgn = Math.signum(gp) * Math.signum(gx);
    double next;
    boolean bracketNow = brackt;
    if (fp > fx) {
      // case 1: higher value, a minimiser lies in (α_l, α_t). Cubic if it is closer to α_l than the
      // quadratic
      // (φ(α_l), φ'(α_l), φ(α_t)) minimiser, else their mean
      double ac = cubicMin(stx, fx, gx, stp, fp, gp);
      double aq = quadMin(stx, fx, gx, stp, fp);
      if (Double.isNaN(ac)) {
        next = Double.isNaN(aq) ? stx + 0.5 * (stp - stx) : aq;
      } else {
        next = Math.abs(ac - stx) < Math.abs(aq - stx) ? ac : ac + 0.5 * (aq - ac);
      }
      bracketNow = true;
    } else if (sgn < 0) {
      // case 2: derivatives of opposite sign, a minimiser lies between. The cubic or secant step
      // farther from α_t
      double ac = cubicMin(stx, fx, gx, stp, fp, gp);
      double as = secant(stx, gx, stp, gp);
      next = Double.isNaN(ac) || Math.abs(ac - stp) < Math.abs(as - stp) ? as : ac;
      bracketNow = true;
    } else if (Math.abs(gp) <= Math.abs(gx)) {
      // case 3: same sign, |φ'| decreasing: the minimiser is beyond α_t. The cubic minimiser only
      // if it lies
      // beyond α_t (else the end of the allowed range), and the secant extrapolation
      double dir = Math.signum(stp - stx);
      double ac = cubicMin(stx, fx, gx, stp, fp, gp);
      if (Double.isNaN(ac) || (ac - stp) * dir <= 0) {
        ac = dir > 0 ? stmax : stmin;
      }
      double as = gp == gx ? ac : secant(stx, gx, stp, gp);
      if (brackt) {
        next = Math.abs(ac - stp) < Math.abs(as - stp) ? ac : as;
        double cap = stp + SHRINK * (sty - stp);
        next = dir > 0 ? Math.min(cap, next) : Math.max(cap, next);
      } else {
        next = Math.abs(ac - stp) > Math.abs(as - stp) ? ac : as;
        next = Math.min(stmax, Math.max(stmin, next));
      }
    } else if (brackt) {
      // case 4: same sign, |φ'| increasing, bracketed: the cubic minimiser between α_t and α_u
      double ac = wall ? Double.NaN : cubicMin(stp, fp, gp, sty, fy, gy);
      next = Double.isNaN(ac) ? stp + 0.5 * (sty - stp) : ac;
    } else {
      next = stp > stx ? stmax : stmin;
    }
    Step s = new Step();
    s.brackt = bracketNow;
    s.stx = stx;
    s.fx = fx;
    s.gx = gx;
    s.sty = sty;
    s.fy = fy;
    s.gy = gy;
    s.wall = wall;
    // updating algorithm (MT §2, with the function the caller chose)
    if (fp > fx) { // U1
      s.sty = stp;
      s.fy = fp;
      s.gy = gp;
      s.wall = false;
    } else {
      if (sgn < 0) { // U3: the old α_l becomes α_u
        s.sty = stx;
        s.fy = fx;
        s.gy = gx;
        s.wall = false;
      }
      s.stx = stp; // U2 and U3
      s.fx = fp;
      s.gx = gp;
    }
    s.stp = next;
    return s;
  }

  /**
   * Minimiser of the cubic interpolating φ and φ' at a and b (Nocedal &amp; Wright 2006 eq. 3.59), NaN when the
   * cubic has no local minimiser.
   */
  static double cubicMin(double a, double fa, double da, double b, double fb, double db) {
    double d1 = da + db - 3 * (fa - fb) / (a - b);
    // d1² − da·db, scaled against overflow
    double s = Math.max(Math.abs(d1), Math.max(Math.abs(da), Math.abs(db)));
    double disc = (d1 / s) * (d1 / s) - (da / s) * (db / s);
    if (!(disc >= 0) || s == 0) {
      return Double.NaN;
    }
    double d2 = Math.signum(b - a) * s * Math.sqrt(disc);
    double den = db - da + 2 * d2;
    if (den == 0) {
      return Double.NaN;
    }
    double r = b - (b - a) * (db + d2 - d1) / den;
    return Double.isFinite(r) ? r : Double.NaN;
  }

  /** Minimiser of the quadratic through φ(a), φ'(a), φ(b) (NaN when it has none). */
  static double quadMin(double a, double fa, double da, double b, double fb) {
    double h = b - a;
    double curv = (fb - fa - da * h) / (h * h); // the quadratic is fa + da·t + curv·t², t = α − a
    if (!(curv > 0)) {
      return Double.NaN;
    }
    return a - da / (2 * curv);
  }

  /** Zero of the secant (linear) interpolation of φ' through (a, da), (b, db). */
  static double secant(double a, double da, double b, double db) {
    return b + (b - a) * db / (da - db);
  }
}
