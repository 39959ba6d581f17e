package org.approxgp.sparse;

import java.util.Arrays;
import java.util.Optional;
import org.approxgp.optimize.Lbfgs;

/**
 * The stopping rule of a stochastic fit that maximises a variational bound from noisy per-iteration estimates of
 * it (sVBSSGP; DTC++, PIC++ and VSSGP on minibatches). Every estimate is recorded ({@link #add}); the rule is one
 * of two {@link Test tests}, chosen by the {@link Rule}:
 *
 * <p><b>{@link Test#SLOPE} (the default): has the bound stopped rising, by more than its noise can hide?</b> At
 * the end of every window of W iterations, once 2W are done, the last R = max(W, ⌊s·t⌋) estimates b_i (s the rule's
 * {@link Rule#span() span}; by default s = ½, the second half of the run, the first half discarded as burn-in, as MCMC
 * diagnostics do) are regressed on their
 * iteration i by ordinary least squares: slope β̂, residual variance s², and the slope's standard error
 * se = s / √Σ(i − ī)² inflated for serially correlated residuals by √((1 + r₁)/(1 − r₁)), r₁ ∈ [0, {@value
 * #MAX_LAG1}] the residuals' lag-1 autocorrelation — the effective sample size R(1 − r₁)/(1 + r₁) of a trend
 * test under AR(1) noise (Santer et al., J. Geophys. Res. 105(D6), 2000, §3.3). The run has converged when the
 * {@value #Z}-se confidence interval of the change over as many iterations again lies within the tolerance per
 * training row:
 *
 * <pre>   −tolerance · n ≤ (β̂ − {@value #Z} se) · R   and   (β̂ + {@value #Z} se) · R ≤ tolerance · n</pre>
 *
 * Schuirmann's two one-sided tests of equivalence (J. Pharmacokin. Biopharm. 15, 1987): at about 98 % confidence
 * each, continuing for another R iterations would change the bound by less than {@code tolerance} nats per
 * training row, the unit of the test MNLP (each estimate is unbiased for a bound that sums n rows' log
 * densities). The lower test keeps a bound that has just dipped, by noise or by a transient of the optimiser, from
 * passing for settled (with the upper test alone, PIC++ on 3,791 rows of AER's CollegeDistance stopped at
 * iteration 200 on a dip of 0.2 nats per row, 1.97 se, with a test RMSE 1.06 times the exact GP's; on another
 * split it ran to 2,500 iterations and 1.00 times). It is
 * scale-free: the same tolerance means the same on 300 or 3 million rows, and an offset of the bound changes
 * nothing. A rise that is real and material keeps the run going however flat a moving average looks (a plateau of
 * the windowed means below a relative tolerance, the {@link Test#MEANS} rule, stopped runs that were still
 * rising); a noisy bound with no trend stops once R is long enough for se · R = s·√(12/R) to fall below the
 * tolerance (R grows with t, so it always does); a bound that rises by more than its noise never stops before the
 * cap, nor does a bound that falls by more than the tolerance. The fit is flagged {@link #diverging()} when the
 * bound falls significantly and by more than the tolerance: (β̂ + {@value #Z} se) &lt; 0 and −β̂ · R &gt;
 * tolerance · n.
 *
 * <p><b>Evaluations on a fixed sample.</b> A trainer may, every {@link #evaluationPeriod()} = W / {@value
 * #EVALUATIONS_PER_WINDOW} iterations, also evaluate its bound on a fixed sample drawn once from its seed ({@link
 * #fixedSample}; common random numbers: the same rows, blocks, partitions or normal draws every time) and pass it
 * to {@link #addEvaluation}. From the first such value on, the slope test regresses these values (the last span of them,
 * at least {@value #MIN_POINTS}, with their spacing) instead of the per-iteration estimates: their differences
 * carry the change of the fit but not the noise of which rows a minibatch drew, so the same tolerance is resolved
 * far sooner (PIC++ on 5,000 rows: per-iteration estimates with s/n ≈ 0.12 nats per row; the slope on fixed blocks
 * resolved to ±0.006 per row over 400 iterations). The fixed sample's own offset from the full bound is the same
 * at every evaluation, so it cancels from the slope.
 *
 * <p><b>{@link Test#MEANS}: the windowed means of Stan's ADVI</b> (Kucukelbir et al., JMLR 2017, §3.5: the relative
 * change of the ELBO, tolerance 0.01). The estimates are averaged over windows of W iterations (the smoothed
 * bound L̄_k), each with its standard error; with Δ = L̄_k − L̄_{k−H} over the last H = {@value #HISTORY} windows
 * and se(Δ) = √(se_k² + se_{k−H}²), it has converged when |Δ| &lt; tolerance · |L̄_k| + 2 se(Δ) at the end of H
 * consecutive windows and at least {@value #MIN_WINDOWS} windows are done; diverging when Δ &lt; −(tolerance ·
 * |L̄_k| + 2 se(Δ)). Kept for comparison: it stops at the first plateau of the smoothed bound, and its relative
 * tolerance is not scale-free (a bound near 0 never settles, one of −10⁶ settles while it gains thousands of nats).
 *
 * <p><b>Deciding and watching.</b> A monitor {@link Rule#start started} from the fit's stopping rule
 * {@link #decides()}: it applies the rule as above. A fit without a stopping rule (every iteration to the cap) still
 * records its estimates under a rule it only {@link Rule#watch watches} (the family's default): such a monitor keeps
 * the same {@link #trace()} and the same regressions or windowed means of the estimates, and answers {@link
 * #diverging()} exactly as a deciding one fed the same estimates, but it decides nothing: {@link #converged()} is
 * always false, {@link #evaluationDue()} always false (it takes no evaluations on a fixed sample) and {@link
 * #lastSlopeTest()} always null. {@link #of} gives the one or the other from a fit's optional rule, so that
 * trainers need not ask whether there is one.
 *
 * <p>Mutable, single-threaded.
 */
public final class BoundMonitor {
  /** {@link Test#MEANS}: windows between the two smoothed values compared. */
  public static final int HISTORY = 3;

  /** {@link Test#MEANS}: windows done before the run may be declared converged. */
  public static final int MIN_WINDOWS = 5;

  /** {@link Test#SLOPE}: standard errors either side of the slope to its confidence limits (one-sided ≈ 0.977). */
  public static final double Z = 2.0;

  /** {@link Test#SLOPE}: the largest lag-1 autocorrelation of the residuals the standard error is inflated for. */
  public static final double MAX_LAG1 = 0.95;

  /** {@link Test#SLOPE}: evaluations on the fixed sample per window W (one every ⌊W / 10⌋ iterations). */
  public static final int EVALUATIONS_PER_WINDOW = 10;

  /** {@link Test#SLOPE}: the fewest evaluations on the fixed sample a regression uses (twice as many are done first). */
  public static final int MIN_POINTS = 10;

  /**
   * {@link Rule#DEFAULT}'s span: the slope test regresses the second half of the run (class comment). A longer span
   * asks the bound to have stayed level for longer before the run stops: with ½ a level stretch can stop the run
   * once it has lasted as long as the run before it, with ⅔ once it has lasted twice as long.
   */
  public static final double DEFAULT_SPAN = 0.5;

  /** {@link Rule#DEFAULT}'s window: a test every 50 iterations, regressions over at least 50. */
  public static final int DEFAULT_WINDOW = 50;

  /**
   * {@link Rule#DEFAULT}'s tolerance: 0.05 nats per training row over the next R iterations, half the 0.1 nats of
   * test MNLP within which the family should stay of the exact GP. The noise of the values regressed sets how long
   * a run must be to resolve it: R ≥ 48 (s / (tolerance · n))² for a flat bound. On 5,000 rows of ggplot2's
   * txhousing (a split the benchmark does not use) 0.02 was too fine for sVBSSGP, whose iterate wanders by about
   * ±0.03 nats per row over a half-run (serially correlated; never certified in 15,000 iterations), and PIC++ on its
   * fixed blocks still rose by 0.02-0.03 per row per half-run at 2,000 iterations while its test RMSE had stopped
   * improving at 750; with 0.05 they stopped at about 2,000 and 750.
   */
  public static final double DEFAULT_TOLERANCE = 0.05;

  /** The test of a {@link Rule} (class comment). */
  public enum Test {
    /** The regression slope of the estimates over the run's last {@link Rule#span() span}, with its standard error. */
    SLOPE,
    /** Stan ADVI's relative change of windowed means. */
    MEANS;

    /** The lower-case name the command line and the summaries use ({@code slope}, {@code means}). */
    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** Why a run stopped. */
  public enum StopReason {
    /** The stopping rule's test found the bound no longer rising (class comment). */
    CONVERGED,
    /** The iteration cap was reached first. */
    ITERATION_CAP,
    /** The run was not driven to a stop by this class (e.g. a caller stepped it a fixed number of times). */
    NOT_STOPPED,
    /** A deterministic optimiser could not lower its objective further without meeting a convergence test. */
    OPTIMIZER_FAILED,
    /** A held-out trace stopped improving (early stopping); the model kept is the one at its best iterate. */
    EARLY_STOPPED;

    /** The verdict of a full-batch L-BFGS run: converged, its iteration cap, or a failed line search. */
    public static StopReason of(Lbfgs.Result r) {
      if (r.converged()) {
        return CONVERGED;
      }
      return r.status().startsWith(Lbfgs.Status.MAX_ITERATIONS.name())
          ? ITERATION_CAP
          : OPTIMIZER_FAILED;
    }

    /** Whether the run met its stopping rule: converged, or early-stopped at the best held-out iterate. */
    public boolean metStoppingRule() {
      return this == CONVERGED || this == EARLY_STOPPED;
    }

    /** The lower-case name the summaries print (e.g. {@code iteration_cap}). */
    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * A stopping rule: its test, the window W (iterations, ≥ 2) and the tolerance (positive): nats per training row
   * for {@link Test#SLOPE}, a relative change for {@link Test#MEANS}.
   *
   * @param test the test (class comment)
   * @param window iterations between two tests and the shortest regression ({@link Test#SLOPE}), or per window
   *     of the smoothed bound ({@link Test#MEANS})
   * @param tolerance the bound's rise per training row below which the run has converged ({@link Test#SLOPE}), or
   *     the relative change of the smoothed bound ({@link Test#MEANS})
   * @param span the fraction of the run the slope test regresses, in (0, 1) ({@link Test#SLOPE}; class comment;
   *     {@value BoundMonitor#DEFAULT_SPAN} unless set; not used by {@link Test#MEANS})
   */
  public record Rule(Test test, int window, double tolerance, double span) {
    /**
     * The default of every stochastic fit: {@link Test#SLOPE}, tested every {@value BoundMonitor#DEFAULT_WINDOW}
     * iterations, tolerance {@value BoundMonitor#DEFAULT_TOLERANCE} nats per training row.
     */
    public static final Rule DEFAULT = new Rule(Test.SLOPE, DEFAULT_WINDOW, DEFAULT_TOLERANCE);

    /** Stan ADVI's constants for {@link Test#MEANS}: windows of 20 iterations, relative tolerance 0.01. */
    public static final Rule ADVI = new Rule(Test.MEANS, 20, 0.01);

    /** {@link #DEFAULT} or {@link #ADVI}: the default window and tolerance of {@code test}. */
    public static Rule defaults(Test test) {
      return test == Test.SLOPE ? DEFAULT : ADVI;
    }

    public Rule {
      if (test == null || window < 2 || !(tolerance > 0) || !Double.isFinite(tolerance)) {
        throw new IllegalArgumentException("need a test, window >= 2 and a positive tolerance, got "
            + test + ", " + window + ", " + tolerance);
      }
      if (!(span > 0 && span < 1)) {
        throw new IllegalArgumentException("need a span in (0, 1), got " + span);
      }
    }

    /** A rule with the default span, {@value BoundMonitor#DEFAULT_SPAN}. */
    public Rule(Test test, int window, double tolerance) {
      this(test, window, tolerance, DEFAULT_SPAN);
    }

    /** This rule with the slope test regressing the last {@code span} of the run. */
    public Rule withSpan(double span) {
      return new Rule(test, window, tolerance, span);
    }

    /**
     * A monitor that {@link BoundMonitor#decides() decides} by this rule, for a bound over {@code rows} training
     * rows, no estimate recorded yet.
     */
    public BoundMonitor start(int rows) {
      return new BoundMonitor(this, rows, true);
    }

    /**
     * A monitor that only watches a bound over {@code rows} training rows under this rule (class comment,
     * "Deciding and watching"): the same trace and {@link BoundMonitor#diverging()}, but never converged, never
     * due an evaluation and no slope test.
     */
    public BoundMonitor watch(int rows) {
      return new BoundMonitor(this, rows, false);
    }

    /** E.g. {@code slope (window 50, tolerance 0.01)}, with {@code , span 0.667} where the span is not the default. */
    public String describe() {
      String spanned = test == Test.SLOPE && span != DEFAULT_SPAN ? ", span " + span : "";
      return test.label() + " (window " + window + ", tolerance " + tolerance + spanned + ")";
    }
  }

  /** Mixed into a fit's seed for its fixed evaluation sample ({@link #fixedSample}). */
  static final long FIXED_SAMPLE_SALT = 0x6a09e667f3bcc908L;

  private final Rule rule;
  private final int rows;
  private final boolean decides;
  private double[] trace = new double[64];
  private int count;
  // MEANS
  private double windowSum;
  private double windowSq;
  private final double[] means = new double[HISTORY + 1];
  private final double[] variances =
      new double[HISTORY + 1]; // squared standard errors of the window means
  private int windows;
  private int settled; // consecutive windows at whose end |Δ| was below the threshold
  // SLOPE: the last test's slope, its standard error and regression length (NaN, 0 before the
  // first)
  private double slope = Double.NaN;
  // SLOPE: the evaluations on the trainer's fixed sample (addEvaluation), one per evaluation period
  private double[] evaluations = new double[16];
  private int evaluationCount;
  private double slopeSe = Double.NaN;
  private int regressed;

  private BoundMonitor(Rule rule, int rows, boolean decides) {
    if (rule == null || rows < 1) {
      throw new IllegalArgumentException("need a rule and rows >= 1, got " + rule + ", " + rows);
    }
    this.rule = rule;
    this.rows = rows;
    this.decides = decides;
  }

  /**
   * The monitor of a fit over {@code rows} training rows: deciding by {@code stopping} when present ({@link
   * Rule#start}), else watching under {@code watched} ({@link Rule#watch}; class comment, "Deciding and
   * watching").
   */
  public static BoundMonitor of(Optional<Rule> stopping, Rule watched, int rows) {
    return stopping.isPresent() ? stopping.get().start(rows) : watched.watch(rows);
  }

  /**
   * Whether this monitor decides: it was {@link Rule#start started} from the fit's stopping rule, rather than
   * {@link Rule#watch watching} a bound that runs to the cap (class comment, "Deciding and watching").
   */
  public boolean decides() {
    return decides;
  }

  /** Records one iteration's bound estimate. */
  public void add(double bound) {
    if (count == trace.length) {
      trace = Arrays.copyOf(trace, 2 * count);
    }
    trace[count++] = bound;
    int window = rule.window();
    if (rule.test() == Test.SLOPE) {
      // the noisy estimates themselves, only while no evaluation on a fixed sample has been
      // recorded
      if (evaluationCount == 0 && count % window == 0 && count >= 2 * window) {
        regress(trace, count, Math.max(window, spanned(count)), 1);
      }
      return;
    }
    windowSum += bound;
    windowSq += bound * bound;
    if (count % window == 0) {
      double mean = windowSum / window;
      double var = Math.max(windowSq / window - mean * mean, 0) * window / (window - 1);
      windowSum = 0;
      windowSq = 0;
      System.arraycopy(means, 0, means, 1, HISTORY);
      System.arraycopy(variances, 0, variances, 1, HISTORY);
      means[0] = mean;
      variances[0] = var / window;
      windows++;
      settled = windows > HISTORY && Math.abs(gain()) < threshold() ? settled + 1 : 0;
    }
  }

  /**
   * Whether the trainer should now evaluate the bound on its fixed sample and pass it to {@link #addEvaluation}:
   * when this monitor {@link #takesEvaluations() takes evaluations}, after every {@link #evaluationPeriod()}-th
   * estimate (class comment); never for a watching monitor.
   */
  public boolean evaluationDue() {
    return takesEvaluations() && count > 0 && count % evaluationPeriod() == 0;
  }

  /**
   * Whether this monitor ever asks for evaluations on a fixed sample ({@link #evaluationDue()}): it {@link
   * #decides()} by a {@link Test#SLOPE} rule.
   */
  public boolean takesEvaluations() {
    return decides && rule.test() == Test.SLOPE;
  }

  /** Iterations between two evaluations on the fixed sample: max(1, ⌊W / {@value #EVALUATIONS_PER_WINDOW}⌋). */
  public int evaluationPeriod() {
    return Math.max(1, rule.window() / EVALUATIONS_PER_WINDOW);
  }

  /**
   * Records the bound evaluated on the trainer's fixed sample at the current iterate (common random numbers: the
   * same rows, partitions and standard-normal draws at every evaluation); from the first one on, the slope test
   * regresses these evaluations instead of the per-iteration estimates (class comment).
   *
   * @throws IllegalStateException unless an evaluation is {@link #evaluationDue() due} and not yet recorded (so
   *     always for a watching monitor)
   */
  public void addEvaluation(double bound) {
    int period = evaluationPeriod();
    if (!evaluationDue() || evaluationCount != count / period - 1) {
      throw new IllegalStateException("no evaluation due after estimate " + count + " (period "
          + period + ", " + evaluationCount + " recorded)");
    }
    if (evaluationCount == evaluations.length) {
      evaluations = Arrays.copyOf(evaluations, 2 * evaluationCount);
    }
    evaluations[evaluationCount++] = bound;
    int window = rule.window();
    if (count % window == 0 && count >= 2 * window && evaluationCount >= 2 * MIN_POINTS) {
      regress(evaluations, evaluationCount, Math.max(MIN_POINTS, spanned(evaluationCount)), period);
    }
  }

  /** ⌊span · k⌋: how many of k values the slope test regresses (k/2, rounded down, at the default span). */
  private int spanned(int k) {
    return (int) (rule.span() * k);
  }

  /**
   * OLS of the last r of the first {@code end} values of {@code y}, spaced {@code spacing} iterations apart, on
   * their iteration: slope per iteration, its AR(1)-inflated standard error (class comment), and the regression's
   * length r · spacing in iterations.
   */
  private void regress(double[] y, int end, int r, int spacing) {
    int from = end - r;
    double tMean = (r - 1) / 2.0;
    double yMean = 0;
    for (int i = 0; i < r; i++) {
      yMean += y[from + i];
    }
    yMean /= r;
    double sxx = 0;
    double sxy = 0;
    for (int i = 0; i < r; i++) {
      double dt = i - tMean;
      sxx += dt * dt;
      sxy += dt * (y[from + i] - yMean);
    }
    double b = sxy / sxx;
    double sse = 0;
    double lag = 0;
    double prev = Double.NaN;
    for (int i = 0; i < r; i++) {
      double e = y[from + i] - yMean - b * (i - tMean);
      sse += e * e;
      if (i > 0) {
        lag += e * prev;
      }
      prev = e;
    }
    double r1 = sse > 0 ? Math.min(MAX_LAG1, Math.max(0, lag / sse)) : 0;
    double s2 = r > 2 ? sse / (r - 2) : 0;
    slope = b / spacing;
    slopeSe = Math.sqrt(s2 / sxx * (1 + r1) / (1 - r1)) / spacing;
    regressed = r * spacing;
  }

  /**
   * {@link Test#SLOPE}: the upper confidence limit of the rise over the next R iterations, (β̂ + Z se) · R, per
   * training row (NaN before the first test; {@link Test#MEANS}: always NaN).
   */
  public double riseBound() {
    return regressed == 0 ? Double.NaN : (slope + Z * slopeSe) * regressed / rows;
  }

  /** {@link Test#SLOPE}: the last test's slope β̂ per iteration (NaN before it, and for {@link Test#MEANS}). */
  public double slope() {
    return slope;
  }

  /** {@link Test#SLOPE}: the last test's standard error of the slope (NaN before it). */
  public double slopeStandardError() {
    return slopeSe;
  }

  /**
   * The evidence of a {@link Test#SLOPE} rule's last test, per training row: the slope β̂ / n and its standard
   * error se / n in nats per training row per iteration, and the regression's length R in iterations. The test
   * passed when −tolerance ≤ (slope − {@value #Z} standardError) · iterations and (slope + {@value #Z}
   * standardError) · iterations ≤ tolerance (class comment).
   *
   * @param slope β̂ / n, nats per training row per iteration
   * @param standardError se / n, in the same unit
   * @param iterations R, the iterations the regression spans
   */
  public record SlopeTest(double slope, double standardError, int iterations) {}

  /**
   * The last {@link Test#SLOPE} test's evidence; null before the first test, for {@link Test#MEANS} and for a
   * monitor that does not {@link #decides() decide}.
   */
  public SlopeTest lastSlopeTest() {
    return decides && rule.test() == Test.SLOPE && regressed > 0
        ? new SlopeTest(slope / rows, slopeSe / rows, regressed)
        : null;
  }

  /** {@link Test#MEANS}: the gain Δ of the smoothed bound over the last HISTORY windows (NaN before). */
  public double gain() {
    return windows > HISTORY ? means[0] - means[HISTORY] : Double.NaN;
  }

  /** {@link Test#MEANS}: tolerance · |L̄_k| + 2 se(Δ), the gain below which the bound counts as settled. */
  public double threshold() {
    return windows > HISTORY
        ? rule.tolerance() * Math.abs(means[0]) + 2 * Math.sqrt(variances[0] + variances[HISTORY])
        : Double.NaN;
  }

  /**
   * Whether the rule's test finds that the bound has stopped rising (class comment); always false for a monitor
   * that does not {@link #decides() decide}.
   */
  public boolean converged() {
    if (!decides) {
      return false;
    }
    if (rule.test() == Test.SLOPE) {
      return regressed > 0
          && riseBound() <= rule.tolerance()
          && (slope - Z * slopeSe) * regressed / rows >= -rule.tolerance();
    }
    return windows >= MIN_WINDOWS && settled >= HISTORY;
  }

  /**
   * Whether the bound is falling by more than the tolerance and its noise (class comment); the same whether or
   * not this monitor {@link #decides() decides}.
   */
  public boolean diverging() {
    if (rule.test() == Test.SLOPE) {
      return regressed > 0
          && slope + Z * slopeSe < 0
          && -slope * regressed > rule.tolerance() * rows;
    }
    return windows > HISTORY && gain() < -threshold();
  }

  /**
   * The fixed sample of a trainer's evaluations ({@link #addEvaluation}): k of the indices 0 … n − 1 drawn
   * uniformly without replacement (partial Fisher–Yates) from a generator seeded with {@code seed} alone, so that
   * drawing it uses none of the fit's own random numbers (the fit is the same with or without the evaluations).
   */
  public static int[] fixedSample(int n, int k, long seed) {
    if (k < 1 || k > n) {
      throw new IllegalArgumentException("need 1 <= k <= n, got k = " + k + ", n = " + n);
    }
    int[] pool = new int[n];
    Arrays.setAll(pool, i -> i);
    java.util.SplittableRandom r = new java.util.SplittableRandom(seed ^ FIXED_SAMPLE_SALT);
    for (int i = 0; i < k; i++) {
      int j = i + r.nextInt(n - i);
      int t = pool[i];
      pool[i] = pool[j];
      pool[j] = t;
    }
    return Arrays.copyOf(pool, k);
  }

  /** Every evaluation on the fixed sample recorded ({@link #addEvaluation}), in order (empty when none). */
  public double[] evaluations() {
    return Arrays.copyOf(evaluations, evaluationCount);
  }

  /** Every estimate recorded, in order. */
  public double[] trace() {
    return Arrays.copyOf(trace, count);
  }

  /** The rule this monitor applies ({@link #decides()}) or watches. */
  public Rule rule() {
    return rule;
  }
}
