package org.approxgp.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.approxgp.inference.Diagnostics;
import org.approxgp.inference.InferenceException;
import org.approxgp.inference.SparseProblem;
import org.approxgp.inference.Svgp;
import org.approxgp.inference.SvgpPosterior;
import org.approxgp.optimize.Adam;
import org.approxgp.optimize.Lbfgs;
import org.approxgp.sparse.BoundMonitor;

/**
 * Fits SVGP classification ({@link Svgp}; Hensman, Matthews &amp; Ghahramani, AISTATS 2015): maximises the
 * uncollapsed bound over q(v) = N(m, CCᵀ) and, optionally, the kernel's log-hyperparameters θ and the inducing
 * inputs Z, either
 * <ul>
 *   <li>by Adam (Kingma &amp; Ba 2015; {@link Adam}) on minibatches of B rows drawn without replacement from a seeded
 *       permutation that is reshuffled when it runs out (each step's data term rescaled by n/B, Hensman et al. §3),
 *       stopped by {@link BoundMonitor} (the noise-aware slope test the sparse regression family uses, on the bound
 *       evaluated on a fixed sample of rows) or at the iteration cap; q(u) optionally by natural-gradient steps
 *       ({@link Svgp#naturalStep}) with θ and Z by Adam; or</li>
 *   <li>on the full batch ({@link Options#FULL_BATCH}) by L-BFGS ({@link Lbfgs}), deterministic.</li>
 * </ul>
 * θ is kept in {@link Bounds#defaults(org.approxgp.kernel.Kernel)} (L-BFGS's box; Adam's iterates are clipped into
 * it). Likelihood hyperparameters are not learned here (probit has none; noisy-step's ε is fixed on the command
 * line). The bound reported is the full-batch bound at the final parameters.
 */
public final class SvgpModel {

  /** {@link Options#minibatch()} meaning every row, by L-BFGS. */
  public static final int FULL_BATCH = Integer.MAX_VALUE;

  /** Default minibatch (GPflow's SVGP notebooks use 100 to 256). */
  public static final int DEFAULT_MINIBATCH = 256;

  /** Default Adam learning rate (GPflow's SVGP classification notebook: 0.01). */
  public static final double DEFAULT_LEARNING_RATE = 0.01;

  /**
   * Default iteration cap (Adam steps or L-BFGS iterations): 20,000 steps of 256 rows, about 5 passes over 10⁶ rows
   * (the stopping rule ends most fits sooner: 2,650 steps on 10⁴ flights rows, 13,500 on 10⁵).
   */
  public static final int DEFAULT_ITERATIONS = 20000;

  /**
   * The default stopping rule: the slope test ({@link BoundMonitor.Test#SLOPE}) at its default window and {@value
   * #DEFAULT_STOP_TOLERANCE} nats per training row, on the bound evaluated every W/10 steps on a fixed sample of B
   * rows (common random numbers; {@link BoundMonitor#fixedSample}). Finer than the regression family's 0.05
   * ({@link BoundMonitor.Rule#DEFAULT}) because classification's differences are small per row: on 10⁴–10⁵ flights
   * rows (late or not) the whole gap between logistic regression and a GP is about 0.01 nats of test NLL. On 10⁴
   * rows, 0.02 stopped after 100 steps, 0.016 nats of bound per row short of where 0.002 stops (2,650 steps; test NLL
   * 0.6789 against 0.6768); on 10⁵ rows 0.002 stops after 13,500 steps at test NLL 0.6693, where 0.02 had stopped
   * after 100–200 at 0.6786.
   */
  public static final BoundMonitor.Rule DEFAULT_STOPPING = new BoundMonitor.Rule(
      BoundMonitor.Test.SLOPE, BoundMonitor.DEFAULT_WINDOW, SvgpModel.DEFAULT_STOP_TOLERANCE);

  /** {@link #DEFAULT_STOPPING}'s tolerance, nats per training row. */
  public static final double DEFAULT_STOP_TOLERANCE = 0.002;

  /**
   * Default natural-gradient step γ of q(u) on minibatches: 0, off — q(u) is learned by Adam with θ. With {@link
   * Svgp#naturalStep} at a constant γ (Salimbeni, Eleftheriadis &amp; Hensman, AISTATS 2018) q(u) reached a higher
   * bound in fewer steps (10⁴ flights rows, γ = 0.02: 750 steps to Adam's 2,650, test NLL 0.6758 against 0.6768),
   * but not on 10⁵ rows (γ = 0.02 ran to the 20,000-step cap, NLL 0.6690 against Adam's 0.6693 in 13,500), and on
   * 3,000 spam rows its test error was 0.079–0.081 against Adam's 0.070; θ, learned by Adam either way, sets the pace.
   */
  public static final double DEFAULT_NATURAL_STEP = 0;

  /** L-BFGS's gradient tolerance on the full batch (and its relative-decrease test, 1e-12). */
  public static final double DEFAULT_GRADIENT_TOLERANCE = 1e-6;

  /**
   * @param minibatch rows per Adam step, ≥ 1 ({@link #FULL_BATCH}: every row by L-BFGS; B ≥ n: every row by Adam)
   * @param learningRate Adam's α &gt; 0
   * @param iterations the cap, ≥ 1
   * @param seed the minibatch draws
   * @param learnHyperparameters learn θ
   * @param learnInducing learn Z
   * @param stopping the stochastic fit's stopping rule (null: every iteration to the cap); unused on the full batch
   * @param gradientTolerance L-BFGS's gtol (full batch), &gt; 0
   * @param naturalStep γ ∈ [0, 1] of q(u)'s natural-gradient steps on minibatches ({@link Svgp#naturalStep}; θ and Z
   *     by Adam beside them), 0: q(u) by Adam too; unused on the full batch
   */
  public record Options(
      int minibatch,
      double learningRate,
      int iterations,
      long seed,
      boolean learnHyperparameters,
      boolean learnInducing,
      BoundMonitor.Rule stopping,
      double gradientTolerance,
      double naturalStep) {
    public Options {
      if (minibatch < 1) {
        throw new IllegalArgumentException(
            "the minibatch must have at least 1 row, got " + minibatch);
      }
      if (!(learningRate > 0) || !Double.isFinite(learningRate)) {
        throw new IllegalArgumentException(
            "the learning rate must be positive, got " + learningRate);
      }
      if (iterations < 1) {
        throw new IllegalArgumentException("the iteration cap must be >= 1, got " + iterations);
      }
      if (!(naturalStep >= 0 && naturalStep <= 1)) {
        throw new IllegalArgumentException(
            "the natural-gradient step must be in [0, 1] (0: Adam on q(u) too), got "
                + naturalStep);
      }
      if (!(gradientTolerance > 0)) {
        throw new IllegalArgumentException(
            "the gradient tolerance must be positive, got " + gradientTolerance);
      }
    }

    /**
     * Minibatches of 256, Adam 0.01, 20,000 iterations, seed 0, θ learned, Z fixed, {@link #DEFAULT_STOPPING}, no
     * natural-gradient steps.
     */
    public static Options defaults() {
      return new Options(
          DEFAULT_MINIBATCH,
          DEFAULT_LEARNING_RATE,
          DEFAULT_ITERATIONS,
          0,
          true,
          false,
          DEFAULT_STOPPING,
          DEFAULT_GRADIENT_TOLERANCE,
          DEFAULT_NATURAL_STEP);
    }

    /** Full batch by L-BFGS, θ and Z fixed (q(u) only), the given cap and tolerance. */
    public static Options fullBatch(int iterations, double gradientTolerance) {
      return new Options(
          FULL_BATCH,
          DEFAULT_LEARNING_RATE,
          iterations,
          0,
          false,
          false,
          null,
          gradientTolerance,
          0);
    }

    public boolean isFullBatch() {
      return minibatch == FULL_BATCH;
    }

    public Options withMinibatch(int b) {
      return copy(f -> f.minibatch = b);
    }

    public Options withLearning(boolean hyperparameters, boolean inducing) {
      return copy(f -> {
        f.learnHyperparameters = hyperparameters;
        f.learnInducing = inducing;
      });
    }

    public Options withSeed(long s) {
      return copy(f -> f.seed = s);
    }

    public Options withIterations(int cap) {
      return copy(f -> f.iterations = cap);
    }

    public Options withStopping(BoundMonitor.Rule rule) {
      return copy(f -> f.stopping = rule);
    }

    /** The natural-gradient step γ of q(u) (0: Adam on q(u) with θ and Z). */
    public Options withNaturalStep(double gamma) {
      return copy(f -> f.naturalStep = gamma);
    }

    public Options withLearningRate(double rate) {
      return copy(f -> f.learningRate = rate);
    }

    /** These options with the components {@code change} sets (validated as any {@code Options}). */
    private Options copy(java.util.function.Consumer<Components> change) {
      Components f = new Components(this);
      change.accept(f);
      return new Options(
          f.minibatch,
          f.learningRate,
          f.iterations,
          f.seed,
          f.learnHyperparameters,
          f.learnInducing,
          f.stopping,
          f.gradientTolerance,
          f.naturalStep);
    }

    /** An {@code Options}' components, settable: the one place the {@code with*} copies restate them. */
    private static final class Components {
      int minibatch;
      double learningRate;
      int iterations;
      long seed;
      boolean learnHyperparameters;
      boolean learnInducing;
      BoundMonitor.Rule stopping;
      double gradientTolerance;
      double naturalStep;

      Components(Options o) {
        minibatch = o.minibatch;
        learningRate = o.learningRate;
        iterations = o.iterations;
        seed = o.seed;
        learnHyperparameters = o.learnHyperparameters;
        learnInducing = o.learnInducing;
        stopping = o.stopping;
        gradientTolerance = o.gradientTolerance;
        naturalStep = o.naturalStep;
      }
    }
  }

  /**
   * A fitted SVGP.
   *
   * @param posterior the model at the final parameters, with the full-batch bound
   * @param iterations Adam steps or L-BFGS iterations
   * @param converged the stopping rule's (or L-BFGS's) verdict
   * @param stopReason why it stopped ({@link BoundMonitor.StopReason#label()})
   * @param status L-BFGS's status, or the stochastic rule's description
   * @param activeBounds names of the hyperparameters at a bound at the end
   * @param trace the bound per iteration: minibatch estimates (Adam) or full-batch values (L-BFGS)
   * @param seconds wall time
   */
  public record Fit(
      SvgpPosterior posterior,
      int iterations,
      boolean converged,
      String stopReason,
      String status,
      List<String> activeBounds,
      double[] trace,
      double seconds) {}

  private SvgpModel() {}

  /**
   * Maximises the bound from the prior q(v) = N(0, I) at {@code start}'s θ and Z.
   *
   * @throws IllegalArgumentException for a null argument
   * @throws InferenceException when the final bound cannot be evaluated
   */
  public static Fit fit(SparseProblem start, Options options) {
    if (start == null || options == null) {
      throw new IllegalArgumentException("the problem and the options must not be null");
    }
    long t0 = System.nanoTime();
    Svgp bound = Svgp.of(start, options.learnHyperparameters(), options.learnInducing());
    int dim = bound.dimension();
    double[] lo = new double[dim];
    double[] hi = new double[dim];
    Arrays.fill(lo, Double.NEGATIVE_INFINITY);
    Arrays.fill(hi, Double.POSITIVE_INFINITY);
    int nk = start.problem().kernel().size();
    if (options.learnHyperparameters()) {
      Bounds box = Bounds.defaults(start.problem().kernel());
      System.arraycopy(box.lower(), 0, lo, bound.thetaOffset(), nk);
      System.arraycopy(box.upper(), 0, hi, bound.thetaOffset(), nk);
    }
    double[] x = bound.start();
    List<Double> trace = new ArrayList<>();
    int iterations;
    boolean converged;
    String reason;
    String status;
    if (options.isFullBatch()) {
      Lbfgs.Result r = Lbfgs.minimize(
          (p, g) -> {
            try {
              double v = bound.elbo(p, g);
              for (int j = 0; j < g.length; j++) {
                g[j] = -g[j];
              }
              return -v;
            } catch (InferenceException e) {
              return Double.POSITIVE_INFINITY;
            }
          },
          x,
          lo,
          hi,
          new Lbfgs.Settings(options.iterations(), 1e-12, options.gradientTolerance(), 20),
          (it, p, v) -> trace.add(-v));
      x = r.x();
      iterations = r.iterations();
      converged = r.converged();
      reason = BoundMonitor.StopReason.of(r).label();
      status = r.status();
    } else {
      int n = bound.size();
      int b = Math.min(options.minibatch(), n);
      Adam adam = new Adam(dim, Adam.Settings.of(options.learningRate()));
      BoundMonitor monitor =
          options.stopping() == null ? null : options.stopping().start(n);
      SplittableRandom rng = new SplittableRandom(options.seed());
      int[] perm = new int[n];
      for (int i = 0; i < n; i++) {
        perm[i] = i;
      }
      int pos = n; // shuffle before the first draw
      int[] batch = new int[b];
      double natural = options.naturalStep();
      int[] evaluationRows = null; // the fixed sample of the rule's evaluations, drawn at the first
      double[] g = new double[dim];
      iterations = 0;
      converged = false;
      reason = BoundMonitor.StopReason.ITERATION_CAP.label();
      while (iterations < options.iterations()) {
        if (b == n) {
          for (int i = 0; i < n; i++) {
            batch[i] = i;
          }
        } else {
          for (int i = 0; i < b; i++) {
            if (pos == n) {
              shuffle(perm, rng);
              pos = 0;
            }
            batch[i] = perm[pos++];
          }
        }
        double estimate;
        if (natural > 0) {
          // q(u) by the natural-gradient step (it rewrites x's m and C), θ and Z by Adam from the
          // same x
          estimate = bound.naturalStep(x, batch, natural, g);
          Arrays.fill(g, 0, bound.thetaOffset(), 0.0);
        } else {
          estimate = bound.elbo(x, batch, g);
        }
        iterations++;
        trace.add(estimate);
        adam.ascend(x, g);
        for (int j = 0; j < dim; j++) {
          x[j] = Math.min(hi[j], Math.max(lo[j], x[j]));
        }
        if (monitor != null) {
          monitor.add(estimate);
          if (monitor.evaluationDue()) {
            if (evaluationRows == null) {
              evaluationRows = BoundMonitor.fixedSample(n, b, options.seed());
            }
            monitor.addEvaluation(bound.elbo(x, evaluationRows, null));
          }
          if (monitor.converged()) {
            converged = true;
            reason = BoundMonitor.StopReason.CONVERGED.label();
            break;
          }
        }
      }
      status = "adam (minibatch " + b + ", learning rate " + options.learningRate() + "), stopping "
          + (monitor == null ? "none" : options.stopping().describe())
          + (monitor != null && monitor.diverging() ? ", diverging" : "");
    }
    double elbo = bound.elbo(x, null);
    List<String> active = new ArrayList<>();
    if (options.learnHyperparameters()) {
      List<String> names = start.problem().kernel().hyperparameterNames();
      for (int j = 0; j < nk; j++) {
        int q = bound.thetaOffset() + j;
        if (x[q] <= lo[q] || x[q] >= hi[q]) {
          active.add(names.get(j));
        }
      }
    }
    double seconds = (System.nanoTime() - t0) * 1e-9;
    Diagnostics diag = new Diagnostics(
        "svgp",
        iterations,
        converged,
        Double.NaN,
        seconds,
        bound.jitter(),
        0,
        0,
        reason + ": " + status,
        null);
    SvgpPosterior post = bound.posterior(x, elbo, diag);
    double[] tr = trace.stream().mapToDouble(Double::doubleValue).toArray();
    return new Fit(post, iterations, converged, reason, status, List.copyOf(active), tr, seconds);
  }

  /** Fisher–Yates with the seeded generator. */
  private static void shuffle(int[] a, SplittableRandom rng) {
    for (int i = a.length - 1; i > 0; i--) {
      int j = rng.nextInt(i + 1);
      int t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
  }
}
