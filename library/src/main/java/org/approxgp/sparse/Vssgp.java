package org.approxgp.sparse;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.approxgp.data.RegressionData;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.JitterPolicy;
import org.approxgp.linalg.Matrix;
import org.approxgp.linalg.NotPositiveDefiniteException;
import org.approxgp.optimize.Adam;
import org.approxgp.optimize.Lbfgs;

/**
 * Variational sparse-spectrum GP regression, VSSGP (Gal &amp; Turner, "Improving the Gaussian process sparse
 * spectrum approximation by representing uncertainty in frequency inputs", ICML 2015), in the notation of the
 * sVBSSGP paper (§2, eq. 1–3; Remark 1–2): the m-point model y = Φ_θᵀa + ε of {@link Ssgp} with a prior on the
 * frequencies instead of a point estimate, and the factorised variational posterior
 * q(r₁, …, r_m, a) = Πᵢ q(rᵢ) · q(a) with q(rᵢ) Gaussian with a diagonal covariance and q(a) = N(μ_a, S_a) a full
 * Gaussian over the 2m weights (a is the sVBSSGP paper's nuisance vector s).
 *
 * <p><b>Units.</b> As in {@link Ssgp} the frequencies are handled in length-scale units ωᵢⱼ = 2πℓⱼrᵢⱼ, in which
 * the prior of eq. 1 is p(ω) = N(0, I) for every ℓ; q(ωᵢⱼ) = N(μᵢⱼ, sᵢⱼ). The length-scales then enter only the
 * likelihood (through x/ℓ), so they, σ² and σₙ² are learned by maximising the same bound (type-II ML on the
 * bound, as Gal &amp; Turner do for their hyperparameters).
 *
 * <p><b>The bound.</b> L = E_q[log p(y | ω, a)] − KL(q(ω) ‖ N(0, I)) − KL(q(a) ‖ N(0, (σ²/m) I)) ≤ log p(y), with
 * E_q[log p(y | ω, a)] = Σᵢ [−½ log(2πσₙ²) − Bᵢ/(2σₙ²)] and
 * Bᵢ = E_q[(yᵢ − φ(xᵢ)ᵀa)²] = yᵢ² − 2yᵢ φ̄ᵢᵀμ_a + tr(Ψᵢ (μ_aμ_aᵀ + S_a)), φ̄ᵢ = E_q[φ(xᵢ)], Ψᵢ = E_q[φ(xᵢ)φ(xᵢ)ᵀ].
 * Under q each argument zₖ = ωₖᵀ(x/ℓ) = 2π rₖᵀx is Gaussian, N(mₖ, vₖ) with mₖ = μₖᵀu, vₖ = Σⱼ sₖⱼ uⱼ², u = x/ℓ,
 * and the characteristic function E[e^{iz}] = e^{im − v/2} gives (Gal &amp; Turner §4, the expectations of their
 * eq. 9–10 with the phases dropped):
 * E[cos z] = e^{−v/2} cos m, E[sin z] = e^{−v/2} sin m — i.e. E[cos(2π rᵀx)] = exp(−2π² xᵀΣ_r x) cos(2π μ_rᵀx)
 * with Σ_r the covariance of r — and, from cos²z = ½(1 + cos 2z), sin²z = ½(1 − cos 2z), sin z cos z = ½ sin 2z,
 * E[cos² z] = ½(1 + e^{−2v} cos 2m), E[sin² z] = ½(1 − e^{−2v} cos 2m), E[sin z cos z] = ½ e^{−2v} sin 2m.
 * Distinct frequencies are independent under q, so Ψᵢ = φ̄ᵢφ̄ᵢᵀ + Dᵢ with Dᵢ block diagonal: the 2 × 2 covariance
 * of (cos zₖ, sin zₖ) for each k.
 *
 * <p><b>Optimisation, full batch</b> (batch size 0 or ≥ n; what {@code approxgp regress} uses for n ≤ 1000). For
 * fixed q(ω) and hyperparameters the bound is a concave quadratic in (μ_a, S_a) with the closed-form maximiser
 * S_a = (Ψ/σₙ² + (m/σ²) I)⁻¹, μ_a = S_a b/σₙ² (Ψ = Σᵢ Ψᵢ, b = Σᵢ yᵢφ̄ᵢ; Gal &amp; Turner 2015 §4 note that the
 * optimal q(a) is Gaussian and can be found analytically), and the maximised ("collapsed") bound is
 * L* = −(n/2) log 2πσₙ² − yᵀy/(2σₙ²) + ½ bᵀA⁻¹b/σₙ⁴ − ½ log|λA| − KL(q(ω) ‖ p(ω)), A = Ψ/σₙ² + I/λ, λ = σ²/m
 * (the Titsias (2009) construction applied to VSSGP). Its gradient with respect to (μ_ω, log s_ω, log ℓ, log σ²,
 * log σₙ²) is the gradient of L at that q(a) with q(a) held fixed (q(a) is a stationary point: envelope theorem).
 * So the full-batch fit maximises L* with L-BFGS ({@link Lbfgs}, deterministic, stopping on a relative decrease
 * below 1e-9 or a small gradient; two starts, see {@code fitFullBatch}) over those m·d + m·d + d + 2 parameters —
 * not over the 2m(2m + 1)/2 entries of
 * S_a's Cholesky factor, on which a first-order method with one step size for every coordinate (Adam) does not
 * settle: on scikit-learn's diabetes data (m = 100, 2,000 Adam steps at α = 0.01) the bound still swung by
 * ±15 nats between iterations at the end, its gradient norm was 10³, and the q(a) it reached was 18 nats below
 * the optimal q(a) at the same q(ω).
 *
 * <p><b>Optimisation, minibatches.</b> All variational parameters and hyperparameters by Adam ({@link Adam}) on
 * unbiased minibatch estimates of L (the data term scaled by n/|batch|; rows drawn uniformly with replacement,
 * seeded). Variances are optimised in log space and S_a through its Cholesky factor with a log diagonal. q(a)
 * starts at its optimum for the initial q(ω) given the first batch.
 *
 * <p><b>Prediction</b> (γ = 1 in Proposition 1 of the sVBSSGP paper, the degenerate test conditional
 * f* = φ(x*)ᵀa): E[f*] = φ̄*ᵀμ_a and Var[f*] = E_q[(φ*ᵀa)²] − E[f*]² = tr(Ψ*(μ_aμ_aᵀ + S_a)) − (φ̄*ᵀμ_a)²
 * = φ̄*ᵀS_aφ̄* + tr(D*(μ_aμ_aᵀ + S_a)); the variance of y* adds σₙ².
 *
 * <p><b>Cost and memory.</b> O(|batch| m²) per iteration (one pass over the batch rows accumulating the 2m × 2m
 * Σ Ψᵢ and Σ yᵢφ̄ᵢ); memory O(m²) + O(m d) beside the O(n d) inputs; never an n × m matrix.
 */
public final class Vssgp {

  /**
   * How to fit.
   *
   * @param m number of spectral frequencies (2m basis functions)
   * @param iterations at most this many L-BFGS iterations (full batch; it stops earlier when converged) or
   *     exactly this many Adam steps (minibatches)
   * @param batchSize rows per minibatch; 0 (or ≥ n) for full batch (L-BFGS on the collapsed bound)
   * @param learningRate Adam's α (minibatches only)
   * @param seed seeds the initial frequency means and the minibatches
   * @param initial initial hyperparameters, or null for {@link Ssgp.Hyperparameters#fromData}
   * @param initialFrequencyVariance initial sᵢⱼ of q(ω) in length-scale units (the prior has variance 1); in full
   *     batch a second start from the prior's variance 1 is also run and the higher bound kept
   */
  public record Options(int m, int iterations, int batchSize, double learningRate, long seed,
      Ssgp.Hyperparameters initial, double initialFrequencyVariance) {

    public Options {
      if (m < 1 || iterations < 0 || batchSize < 0) {
        throw new IllegalArgumentException("need m >= 1, iterations >= 0, batch size >= 0, got " + m + ", "
            + iterations + ", " + batchSize);
      }
      if (!(learningRate > 0) || !(initialFrequencyVariance > 0) || !Double.isFinite(initialFrequencyVariance)) {
        throw new IllegalArgumentException("learning rate and initial frequency variance must be positive, got "
            + learningRate + ", " + initialFrequencyVariance);
      }
    }

    /** Data-driven initial hyperparameters, Adam rate 0.01, initial frequency variance 0.01. */
    public static Options of(int m, int iterations, int batchSize, long seed) {
      return new Options(m, iterations, batchSize, 0.01, seed, null, 0.01);
    }
  }

  /**
   * The variational lower bound (class comment) and its parts; for a minibatch the data term is the unbiased
   * estimate (n/|batch|) Σ_{i ∈ batch}.
   */
  public record Bound(double expectedLogLikelihood, double klFrequencies, double klWeights) {

    /** L = E_q[log p(y | ω, a)] − KL(q(ω) ‖ p(ω)) − KL(q(a) ‖ p(a)). */
    public double value() {
      return expectedLogLikelihood - klFrequencies - klWeights;
    }
  }

  private final int m;
  private final int d;
  private final double[] p; // packed parameters (layout: see offsets below)
  private final Ssgp.Hyperparameters hyp;
  private final int iterations;

  private Vssgp(int m, int d, double[] p, int iterations) {
    this.m = m;
    this.d = d;
    this.p = p;
    this.hyp = unpackHyperparameters(p, m, d);
    this.iterations = iterations;
  }

  // ---- packed layout: [μ_ω (md), log s_ω (md), log ℓ (d), log σ², log σₙ², μ_a (2m), L_a lower (2m(2m+1)/2)] ----

  static int size(int m, int d) {
    int k = 2 * m;
    return 2 * m * d + d + 2 + k + k * (k + 1) / 2;
  }

  private static int offLogEll(int m, int d) {
    return 2 * m * d;
  }

  private static int offMuA(int m, int d) {
    return 2 * m * d + d + 2;
  }

  private static int offChol(int m, int d) {
    return offMuA(m, d) + 2 * m;
  }

  /** Index of L_a[p][q] (q ≤ p) in the packed lower triangle. */
  private static int tri(int pp, int q) {
    return pp * (pp + 1) / 2 + q;
  }

  /**
   * Packs parameters (for tests and warm starts).
   *
   * @param muW means of q(ω), m × d row-major
   * @param sW variances of q(ω), m × d
   * @param h hyperparameters
   * @param muA mean of q(a), 2m
   * @param cholA lower Cholesky factor of S_a, 2m × 2m row-major (upper part ignored)
   */
  static double[] pack(int m, int d, double[] muW, double[] sW, Ssgp.Hyperparameters h, double[] muA,
      double[] cholA) {
    int k = 2 * m;
    double[] p = new double[size(m, d)];
    System.arraycopy(muW, 0, p, 0, m * d);
    for (int t = 0; t < m * d; t++) {
      p[m * d + t] = Math.log(sW[t]);
    }
    int o = offLogEll(m, d);
    double[] ell = h.lengthscales();
    for (int j = 0; j < d; j++) {
      p[o + j] = Math.log(ell[j]);
    }
    p[o + d] = Math.log(h.signalVariance());
    p[o + d + 1] = Math.log(h.noiseVariance());
    System.arraycopy(muA, 0, p, offMuA(m, d), k);
    int oc = offChol(m, d);
    for (int a = 0; a < k; a++) {
      for (int b = 0; b <= a; b++) {
        double v = cholA[a * k + b];
        p[oc + tri(a, b)] = a == b ? Math.log(v) : v;
      }
    }
    return p;
  }

  private static Ssgp.Hyperparameters unpackHyperparameters(double[] p, int m, int d) {
    int o = offLogEll(m, d);
    double[] ell = new double[d];
    for (int j = 0; j < d; j++) {
      ell[j] = Math.exp(p[o + j]);
    }
    return new Ssgp.Hyperparameters(ell, Math.exp(p[o + d]), Math.exp(p[o + d + 1]));
  }

  /** L_a as a full 2m × 2m row-major array. */
  private static double[] chol(double[] p, int m, int d) {
    int k = 2 * m;
    int oc = offChol(m, d);
    double[] l = new double[k * k];
    for (int a = 0; a < k; a++) {
      for (int b = 0; b <= a; b++) {
        double v = p[oc + tri(a, b)];
        l[a * k + b] = a == b ? Math.exp(v) : v;
      }
    }
    return l;
  }

  /** S = L Lᵀ (row-major k × k). */
  private static double[] gram(double[] l, int k) {
    double[] s = new double[k * k];
    for (int a = 0; a < k; a++) {
      for (int b = 0; b <= a; b++) {
        double v = 0;
        for (int t = 0; t <= b; t++) {
          v += l[a * k + t] * l[b * k + t];
        }
        s[a * k + b] = v;
        s[b * k + a] = v;
      }
    }
    return s;
  }

  // ---- fitting ------------------------------------------------------------------------------------------------

  /**
   * Fits VSSGP to {@code train}: μ_ω ∼ N(0, I) (seeded), s_ω = the initial variance, hyperparameters from the
   * options; then, in full batch, at most {@code options.iterations()} L-BFGS iterations on the collapsed bound
   * L* (class comment), or, with minibatches, q(a) optimal for the initial q(ω) given the first batch and
   * {@code options.iterations()} Adam steps on the minibatch estimate of the bound. The listener gets, per
   * iteration, the bound: in full batch the exact L* at the iterate after the iteration, with minibatches the
   * estimate at the point where the step's gradient was taken.
   */
  public static Vssgp fit(RegressionData train, Options options, IterationListener listener) {
    return fit(train, options, listener, null);
  }

  /**
   * As {@link #fit(RegressionData, Options, IterationListener)}, also giving {@code snapshots} (if not null) the
   * model after each iteration (for per-iteration test metrics).
   */
  public static Vssgp fit(RegressionData train, Options options, IterationListener listener,
      SnapshotListener<Vssgp> snapshots) {
    Ssgp.requireTargets(train);
    int m = options.m();
    int d = train.d();
    int n = train.n();
    Ssgp.Hyperparameters h0 = options.initial() != null ? options.initial()
        : Ssgp.Hyperparameters.fromData(train);
    if (h0.lengthscales().length != d) {
      throw new IllegalArgumentException(h0.lengthscales().length + " length-scales for " + d + " inputs");
    }
    SplittableRandom rng = new SplittableRandom(options.seed());
    double[] muW = new double[m * d];
    for (int t = 0; t < muW.length; t++) {
      muW[t] = rng.nextGaussian();
    }
    double[] sW = new double[m * d];
    Arrays.fill(sW, options.initialFrequencyVariance());
    int k = 2 * m;
    double[] eye = new double[k * k];
    for (int a = 0; a < k; a++) {
      eye[a * k + a] = 1;
    }
    double[] p = pack(m, d, muW, sW, h0, new double[k], eye);
    IterationListener l = listener == null ? IterationListener.NONE : listener;
    boolean full = options.batchSize() == 0 || options.batchSize() >= n;
    if (full) {
      return fitFullBatch(train, m, p, options.iterations(), l, snapshots);
    }
    int[] rows = new int[options.batchSize()];
    drawBatch(rows, n, rng);
    optimalWeights(train, rows, m, p);
    Adam adam = new Adam(p.length, Adam.Settings.of(options.learningRate()));
    double[] g = new double[p.length];
    long t0 = System.nanoTime();
    for (int it = 1; it <= options.iterations(); it++) {
      if (it > 1) {
        drawBatch(rows, n, rng);
      }
      Bound b = evaluate(train, rows, m, p, g);
      for (int t = 0; t < g.length; t++) {
        g[t] = -g[t];
      }
      adam.step(p, g);
      l.onIteration(it, b.value(), (System.nanoTime() - t0) * 1e-9);
      if (snapshots != null) {
        int iteration = it;
        snapshots.onIteration(it, () -> new Vssgp(m, d, p.clone(), iteration));
      }
    }
    return new Vssgp(m, d, p, options.iterations());
  }

  /**
   * Full batch: L-BFGS on −L* over the leading {@link #offMuA} entries of p (q(ω) and the hyperparameters), q(a)
   * set to its optimum at every evaluation; relative-decrease tolerance 1e-9, gradient tolerance 1e-6 (on the
   * ∞-norm of the gradient, relative to max(1, |L*|); see {@link Lbfgs}), memory 20. Two starts that differ only in the initial frequency variance: the
   * options' s₀ and the prior's, 1 (one start if s₀ = 1); the one with the higher final bound is kept, and its
   * iterates are then replayed to the listener and snapshots. The bound has distinct local optima that the start
   * selects: on a 1-d sine (400 rows, m = 10) s₀ = 0.01 reaches bound +279 (test RMSE at the noise level) and
   * s₀ = 1 a flat fit at −408; on scikit-learn's diabetes data (354 rows, d = 10, m = 100) s₀ = 0.01 ends with
   * the signal switched off (σ² → 0, −501.8) and s₀ = 1 at −442.1 to −442.5 (four seeds of μ_ω). Choosing by the
   * bound uses only the training data.
   */
  private static Vssgp fitFullBatch(RegressionData train, int m, double[] p, int maxIterations, IterationListener l,
      SnapshotListener<Vssgp> snapshots) {
    int d = train.d();
    int md = m * d;
    if (maxIterations == 0) {
      double[] full = p.clone();
      optimalWeights(train, null, m, full);
      return new Vssgp(m, d, full, 0);
    }
    double s0 = Math.exp(p[md]);
    List<double[]> starts = new ArrayList<>();
    starts.add(p);
    if (s0 != 1.0) {
      double[] q = p.clone();
      Arrays.fill(q, md, 2 * md, 0.0); // log s = 0
      starts.add(q);
    }
    Run best = null;
    for (double[] start : starts) {
      Run r = lbfgs(train, m, start, maxIterations);
      if (best == null || r.bound > best.bound) {
        best = r;
      }
    }
    for (int t = 0; t < best.iterates.size(); t++) {
      int it = t + 1;
      double[] xi = best.iterates.get(t);
      l.onIteration(it, best.values.get(t), best.seconds.get(t));
      if (snapshots != null) {
        snapshots.onIteration(it, () -> new Vssgp(m, d, collapsedPoint(train, m, p, xi), it));
      }
    }
    return new Vssgp(m, d, collapsedPoint(train, m, p, best.x), best.iterates.size());
  }

  /** One L-BFGS run's iterates (first {@link #offMuA} entries), bounds and seconds, and its final point. */
  private static final class Run {
    final List<double[]> iterates = new ArrayList<>();
    final List<Double> values = new ArrayList<>();
    final List<Double> seconds = new ArrayList<>();
    double[] x;
    double bound;
  }

  private static Run lbfgs(RegressionData train, int m, double[] p, int maxIterations) {
    int nq = offMuA(m, train.d());
    double[] scratch = p.clone();
    double[] g = new double[p.length];
    Run run = new Run();
    long t0 = System.nanoTime();
    Lbfgs.Result r = Lbfgs.minimize((x, grad) -> {
      System.arraycopy(x, 0, scratch, 0, nq);
      try {
        optimalWeights(train, null, m, scratch);
      } catch (NotPositiveDefiniteException e) { // q(a)'s precision not finite at an extreme trial point
        return Double.POSITIVE_INFINITY;
      }
      double v = evaluate(train, null, m, scratch, g).value();
      if (!Double.isFinite(v)) {
        return Double.POSITIVE_INFINITY;
      }
      for (int t = 0; t < nq; t++) {
        grad[t] = -g[t];
      }
      return -v;
    }, Arrays.copyOf(p, nq), null, null, new Lbfgs.Settings(maxIterations, 1e-9, 1e-6, 20), (it, x, fx) -> {
      run.iterates.add(Arrays.copyOf(x, nq));
      run.values.add(-fx);
      run.seconds.add((System.nanoTime() - t0) * 1e-9);
    });
    run.x = r.x();
    run.bound = -r.value();
    // the reported iterates end at the returned point (a run that ends before its first iteration reports
    // none)
    if (run.iterates.isEmpty() || !Arrays.equals(run.iterates.get(run.iterates.size() - 1), run.x)) {
      run.iterates.add(run.x.clone());
      run.values.add(run.bound);
      run.seconds.add((System.nanoTime() - t0) * 1e-9);
    }
    return run;
  }

  /** The packed parameters with q(ω) and hyperparameters x (the first {@link #offMuA} entries) and q(a) optimal. */
  private static double[] collapsedPoint(RegressionData train, int m, double[] template, double[] x) {
    double[] q = template.clone();
    System.arraycopy(x, 0, q, 0, x.length);
    optimalWeights(train, null, m, q);
    return q;
  }

  private static void drawBatch(int[] rows, int n, SplittableRandom rng) {
    if (rows != null) {
      for (int t = 0; t < rows.length; t++) {
        rows[t] = rng.nextInt(n);
      }
    }
  }

  /**
   * Sets q(a) (in p) to its optimum for the current q(ω) and hyperparameters on the given rows (null: all),
   * scaled to n: S_a = (c Σᵢ Ψᵢ/σₙ² + (m/σ²) I)⁻¹, μ_a = S_a c Σᵢ yᵢφ̄ᵢ/σₙ², c = n/|rows| (the stationary point of
   * the bound in μ_a and S_a).
   */
  static void optimalWeights(RegressionData data, int[] rows, int m, double[] p) {
    int d = data.d();
    int k = 2 * m;
    Stats st = accumulate(data, rows, m, p, null, null, null);
    Ssgp.Hyperparameters h = unpackHyperparameters(p, m, d);
    double sn2 = h.noiseVariance();
    double scale = (double) data.n() / st.rows;
    double[] prec = new double[k * k];
    for (int t = 0; t < k * k; t++) {
      prec[t] = scale * st.psi[t] / sn2;
    }
    for (int a = 0; a < k; a++) {
      prec[a * k + a] += m / h.signalVariance();
    }
    Cholesky cp = Cholesky.factor(Matrix.wrap(k, k, prec), JitterPolicy.standard());
    double[] rhs = new double[k];
    for (int a = 0; a < k; a++) {
      rhs[a] = scale * st.b[a] / sn2;
    }
    double[] mu = cp.solve(rhs);
    Cholesky cs = Cholesky.factor(cp.inverse(), JitterPolicy.standard());
    System.arraycopy(mu, 0, p, offMuA(m, d), k);
    int oc = offChol(m, d);
    for (int a = 0; a < k; a++) {
      for (int b = 0; b <= a; b++) {
        double v = cs.lowerAt(a, b);
        p[oc + tri(a, b)] = a == b ? Math.log(v) : v;
      }
    }
  }

  // ---- the bound and its gradient ------------------------------------------------------------------------------

  /** Per-batch sums. */
  private static final class Stats {
    double[] psi; // Σ Ψᵢ (full symmetric)
    double[] b; // Σ yᵢ φ̄ᵢ
    double yy;
    int rows;
  }

  /**
   * The expectations of row x (at xo) under q: φ̄ (2m, written at phibar[off…]) and the 2 × 2 block covariances
   * dvar[3k..3k+3) =
   * (Var cos zₖ, Var sin zₖ, Cov(cos zₖ, sin zₖ)); if trig is not null also trig[3k..3k+3) = (e^{−2v}, cos 2m,
   * sin 2m); always u = x/ℓ.
   */
  private static void expectations(double[] x, int xo, int d, int m, double[] muW, double[] sW, double[] invEll,
      double[] phibar, int off, double[] dvar, double[] trig, double[] u) {
    for (int j = 0; j < d; j++) {
      u[j] = x[xo + j] * invEll[j];
    }
    for (int k = 0; k < m; k++) {
      double mk = 0;
      double vk = 0;
      int ok = k * d;
      for (int j = 0; j < d; j++) {
        mk += muW[ok + j] * u[j];
        vk += sW[ok + j] * u[j] * u[j];
      }
      double rho = Math.exp(-0.5 * vk);
      double r4 = Math.exp(-2 * vk);
      double cm = Math.cos(mk);
      double sm = Math.sin(mk);
      double c2m = cm * cm - sm * sm;
      double s2m = 2 * sm * cm;
      double cb = rho * cm;
      double sb = rho * sm;
      phibar[off + 2 * k] = cb;
      phibar[off + 2 * k + 1] = sb;
      // E[cos²] − E[cos]², E[sin²] − E[sin]², E[sin cos] − E[sin]E[cos]
      dvar[3 * k] = 0.5 * (1 + r4 * c2m) - cb * cb;
      dvar[3 * k + 1] = 0.5 * (1 - r4 * c2m) - sb * sb;
      dvar[3 * k + 2] = 0.5 * r4 * s2m - cb * sb;
      if (trig != null) {
        trig[3 * k] = r4;
        trig[3 * k + 1] = c2m;
        trig[3 * k + 2] = s2m;
      }
    }
  }

  /**
   * One pass over the rows (null: all): Σ Ψᵢ, Σ yᵢφ̄ᵢ, Σ yᵢ²; if e (= μ_aμ_aᵀ + S_a) is given, also
   * gMu[k·d + j] = Σᵢ ∂Bᵢ/∂mᵢₖ · uᵢⱼ and gV[k·d + j] = Σᵢ ∂Bᵢ/∂vᵢₖ · uᵢⱼ² (Bᵢ: class comment), where, with
   * c̄ = e^{−v/2}cos m, s̄ = e^{−v/2}sin m, the 2 × 2 block (E_cc, E_ss, E_cs) of e and w = e φ̄ᵢ:
   * ∂B/∂c̄ = 2(w_c − yμ_c − c̄E_cc − s̄E_cs), ∂B/∂s̄ = 2(w_s − yμ_s − s̄E_ss − c̄E_cs),
   * ∂B/∂m = −s̄ ∂B/∂c̄ + c̄ ∂B/∂s̄ + e^{−2v}[sin 2m (E_ss − E_cc) + 2 cos 2m E_cs],
   * ∂B/∂v = −½(c̄ ∂B/∂c̄ + s̄ ∂B/∂s̄) + e^{−2v}[cos 2m (E_ss − E_cc) − 2 sin 2m E_cs].
   */
  private static Stats accumulate(RegressionData data, int[] rows, int m, double[] p, double[] e, double[] gMu,
      double[] gV) {
    int d = data.d();
    int k2 = 2 * m;
    int md = m * d;
    double[] muW = Arrays.copyOf(p, md);
    double[] sW = new double[md];
    for (int t = 0; t < md; t++) {
      sW[t] = Math.exp(p[md + t]);
    }
    double[] invEll = new double[d];
    int oe = offLogEll(m, d);
    for (int j = 0; j < d; j++) {
      invEll[j] = Math.exp(-p[oe + j]);
    }
    double[] muA = Arrays.copyOfRange(p, offMuA(m, d), offMuA(m, d) + k2);
    int nRows = rows == null ? data.n() : rows.length;
    double[] x = data.x();
    double[] y = data.y();
    double[] psi = new double[k2 * k2];
    double[] b = new double[k2];
    double yy = 0;
    int block = 256;
    double[] buf = new double[block * k2];
    double[] dvar = new double[3 * m];
    double[] trig = e == null ? null : new double[3 * m];
    double[] u = new double[d];
    double[] w = new double[k2];
    for (int start = 0; start < nRows; start += block) {
      int cnt = Math.min(block, nRows - start);
      for (int t = 0; t < cnt; t++) {
        int i = rows == null ? start + t : rows[start + t];
        int bo = t * k2;
        expectations(x, i * d, d, m, muW, sW, invEll, buf, bo, dvar, trig, u);
        double yi = y[i];
        yy += yi * yi;
        for (int a = 0; a < k2; a++) {
          b[a] += yi * buf[bo + a];
        }
        for (int k = 0; k < m; k++) {
          int c = 2 * k;
          psi[c * k2 + c] += dvar[3 * k];
          psi[(c + 1) * k2 + c + 1] += dvar[3 * k + 1];
          psi[(c + 1) * k2 + c] += dvar[3 * k + 2];
        }
        if (e == null) {
          continue;
        }
        for (int a = 0; a < k2; a++) {
          double s = 0;
          int oa = a * k2;
          for (int q = 0; q < k2; q++) {
            s += e[oa + q] * buf[bo + q];
          }
          w[a] = s;
        }
        for (int k = 0; k < m; k++) {
          int c = 2 * k;
          double cb = buf[bo + c];
          double sb = buf[bo + c + 1];
          double ecc = e[c * k2 + c];
          double ess = e[(c + 1) * k2 + c + 1];
          double ecs = e[c * k2 + c + 1];
          double dc = 2 * (w[c] - yi * muA[c] - cb * ecc - sb * ecs);
          double ds = 2 * (w[c + 1] - yi * muA[c + 1] - sb * ess - cb * ecs);
          double r4 = trig[3 * k];
          double c2m = trig[3 * k + 1];
          double s2m = trig[3 * k + 2];
          double dm = -sb * dc + cb * ds + r4 * (s2m * (ess - ecc) + 2 * c2m * ecs);
          double dv = -0.5 * (cb * dc + sb * ds) + r4 * (c2m * (ess - ecc) - 2 * s2m * ecs);
          int ok = k * d;
          for (int j = 0; j < d; j++) {
            gMu[ok + j] += dm * u[j];
            gV[ok + j] += dv * u[j] * u[j];
          }
        }
      }
      Ssgp.accumulateGram(buf, cnt, k2, psi);
    }
    for (int a = 0; a < k2; a++) {
      for (int q = 0; q < a; q++) {
        psi[q * k2 + a] = psi[a * k2 + q];
      }
    }
    Stats st = new Stats();
    st.psi = psi;
    st.b = b;
    st.yy = yy;
    st.rows = nRows;
    return st;
  }

  /**
   * The bound (or its minibatch estimate over {@code rows}; null = all rows) at packed parameters p and, if
   * {@code grad} is not null, its gradient with respect to p (written into grad). The gradient of the data term
   * through q(a): ∂/∂μ_a = −c(Ψμ_a − b)/σₙ², ∂/∂S_a = −cΨ/(2σₙ²), i.e. ∂/∂L_a = −cΨL_a/σₙ² (c = n/|rows|,
   * Ψ = Σ Ψᵢ, b = Σ yᵢφ̄ᵢ); KL(q(a) ‖ N(0, λI)) = ½[(tr S_a + μ_aᵀμ_a)/λ − 2m + 2m log λ − log|S_a|] with
   * λ = σ²/m gives ∂/∂μ_a = μ_a/λ, ∂/∂L_pq = L_pq/λ − δ_pq/L_pp, ∂/∂log λ = ½[2m − (tr S_a + μ_aᵀμ_a)/λ];
   * KL(q(ω) ‖ N(0, I)) = ½ Σ (s + μ² − 1 − log s).
   */
  static Bound evaluate(RegressionData data, int[] rows, int m, double[] p, double[] grad) {
    int d = data.d();
    int k2 = 2 * m;
    int md = m * d;
    Ssgp.Hyperparameters h = unpackHyperparameters(p, m, d);
    double sn2 = h.noiseVariance();
    double lam = h.signalVariance() / m;
    int oa = offMuA(m, d);
    double[] muA = Arrays.copyOfRange(p, oa, oa + k2);
    double[] l = chol(p, m, d);
    double[] s = gram(l, k2);
    double[] e = s.clone();
    for (int a = 0; a < k2; a++) {
      for (int b = 0; b < k2; b++) {
        e[a * k2 + b] += muA[a] * muA[b];
      }
    }
    double[] gMu = grad == null ? null : new double[md];
    double[] gV = grad == null ? null : new double[md];
    Stats st = accumulate(data, rows, m, p, grad == null ? null : e, gMu, gV);
    double scale = (double) data.n() / st.rows;
    double trPsiE = 0;
    for (int t = 0; t < k2 * k2; t++) {
      trPsiE += st.psi[t] * e[t];
    }
    double sumB = st.yy - 2 * Ssgp.dot(st.b, muA) + trPsiE;
    double ell = scale * (-0.5 * st.rows * Math.log(2 * Math.PI * sn2) - sumB / (2 * sn2));
    double klW = 0;
    for (int t = 0; t < md; t++) {
      double sw = Math.exp(p[md + t]);
      klW += 0.5 * (sw + p[t] * p[t] - 1 - p[md + t]);
    }
    double trS = 0;
    double logDetS = 0;
    for (int a = 0; a < k2; a++) {
      trS += s[a * k2 + a];
      logDetS += 2 * Math.log(l[a * k2 + a]);
    }
    double muMu = Ssgp.dot(muA, muA);
    double klA = 0.5 * ((trS + muMu) / lam - k2 + k2 * Math.log(lam) - logDetS);
    Bound bound = new Bound(ell, klW, klA);
    if (grad == null) {
      return bound;
    }
    double coef = -scale / (2 * sn2);
    int oe = offLogEll(m, d);
    for (int t = 0; t < md; t++) {
      double sw = Math.exp(p[md + t]);
      grad[t] = coef * gMu[t] - p[t];
      grad[md + t] = sw * coef * gV[t] - 0.5 * (sw - 1);
    }
    for (int j = 0; j < d; j++) {
      double acc = 0;
      for (int k = 0; k < m; k++) {
        int t = k * d + j;
        acc += p[t] * gMu[t] + 2 * Math.exp(p[md + t]) * gV[t];
      }
      grad[oe + j] = -coef * acc;
    }
    grad[oe + d] = -0.5 * (k2 - (trS + muMu) / lam);
    grad[oe + d + 1] = scale * (-0.5 * st.rows + sumB / (2 * sn2));
    for (int a = 0; a < k2; a++) {
      double psiMu = 0;
      for (int b = 0; b < k2; b++) {
        psiMu += st.psi[a * k2 + b] * muA[b];
      }
      grad[oa + a] = 2 * coef * (psiMu - st.b[a]) - muA[a] / lam;
    }
    int oc = offChol(m, d);
    for (int a = 0; a < k2; a++) {
      for (int b = 0; b <= a; b++) {
        double psiL = 0; // (Ψ L)_ab = Σ_t Ψ_at L_tb, L_tb = 0 for t < b
        for (int t = b; t < k2; t++) {
          psiL += st.psi[a * k2 + t] * l[t * k2 + b];
        }
        double lab = l[a * k2 + b];
        double gab = 2 * coef * psiL - lab / lam + (a == b ? 1 / lab : 0);
        grad[oc + tri(a, b)] = a == b ? lab * gab : gab;
      }
    }
    return bound;
  }

  // ---- prediction and accessors -------------------------------------------------------------------------------

  /** Predictive mean and variance of y* with the degenerate (γ = 1) test conditional (class comment). */
  public RegressionPrediction predict(RegressionData test) {
    if (test.d() != d) {
      throw new IllegalArgumentException("test rows have " + test.d() + " inputs, the model " + d);
    }
    int k2 = 2 * m;
    int md = m * d;
    double[] muW = Arrays.copyOf(p, md);
    double[] sW = new double[md];
    for (int t = 0; t < md; t++) {
      sW[t] = Math.exp(p[md + t]);
    }
    double[] invEll = Ssgp.inverse(hyp.lengthscales());
    double[] muA = weightMean();
    double[] l = chol(p, m, d);
    double[] s = gram(l, k2);
    double sn2 = hyp.noiseVariance();
    double[] phibar = new double[k2];
    double[] dvar = new double[3 * m];
    double[] u = new double[d];
    int n = test.n();
    double[] mean = new double[n];
    double[] var = new double[n];
    for (int i = 0; i < n; i++) {
      expectations(test.x(), i * d, d, m, muW, sW, invEll, phibar, 0, dvar, null, u);
      mean[i] = Ssgp.dot(phibar, muA);
      double v = 0;
      for (int a = 0; a < k2; a++) {
        double t = 0;
        for (int b = 0; b < k2; b++) {
          t += s[a * k2 + b] * phibar[b];
        }
        v += phibar[a] * t;
      }
      for (int k = 0; k < m; k++) {
        int c = 2 * k;
        double ecc = s[c * k2 + c] + muA[c] * muA[c];
        double ess = s[(c + 1) * k2 + c + 1] + muA[c + 1] * muA[c + 1];
        double ecs = s[c * k2 + c + 1] + muA[c] * muA[c + 1];
        v += dvar[3 * k] * ecc + dvar[3 * k + 1] * ess + 2 * dvar[3 * k + 2] * ecs;
      }
      var[i] = v + sn2;
    }
    return new RegressionPrediction(mean, var);
  }

  /** The exact bound on {@code train} (one full pass). */
  public Bound bound(RegressionData train) {
    if (train.d() != d) {
      throw new IllegalArgumentException("rows have " + train.d() + " inputs, the model " + d);
    }
    Ssgp.requireTargets(train);
    return evaluate(train, null, m, p, null);
  }

  /** Means of q(r) in the paper's units, rᵢⱼ = μᵢⱼ/(2πℓⱼ), as a feature basis. */
  public SpectralFeatures frequencyMeans() {
    return Ssgp.toFeatures(Arrays.copyOf(p, m * d), hyp.lengthscales(), d);
  }

  /** Variances of q(r) in the paper's units, sᵢⱼ/(2πℓⱼ)² (row-major m × d). */
  public double[] frequencyVariances() {
    double[] ell = hyp.lengthscales();
    double[] v = new double[m * d];
    for (int k = 0; k < m; k++) {
      for (int j = 0; j < d; j++) {
        double sc = 2 * Math.PI * ell[j];
        v[k * d + j] = Math.exp(p[m * d + k * d + j]) / (sc * sc);
      }
    }
    return v;
  }

  /** Mean of q(a) (2m). */
  public double[] weightMean() {
    return Arrays.copyOfRange(p, offMuA(m, d), offMuA(m, d) + 2 * m);
  }

  /** Covariance S_a of q(a) (a new 2m × 2m matrix). */
  public Matrix weightCovariance() {
    return Matrix.wrap(2 * m, 2 * m, gram(chol(p, m, d), 2 * m));
  }

  /** The learned hyperparameters. */
  public Ssgp.Hyperparameters hyperparameters() {
    return hyp;
  }

  /** Iterations done: L-BFGS iterations (full batch; may stop early when converged) or Adam steps. */
  public int iterations() {
    return iterations;
  }

  /** A model holding packed parameters p (copied; for tests and warm starts). */
  static Vssgp fromParameters(int m, int d, double[] p) {
    if (p.length != size(m, d)) {
      throw new IllegalArgumentException(p.length + " parameters, expected " + size(m, d));
    }
    return new Vssgp(m, d, p.clone(), 0);
  }

  /** The packed parameter vector (copy). */
  double[] parameters() {
    return p.clone();
  }

  @Override
  public String toString() {
    return "Vssgp[m=" + m + ", " + hyp + ", " + iterations + " iterations]";
  }
}
