package org.approxgp.sparse;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.approxgp.data.RegressionData;
import org.approxgp.linalg.NotPositiveDefiniteException;
import org.approxgp.optimize.Lbfgs;

/**
 * The sparse-spectrum model at fixed random frequencies, and the held-out choice between it and a model whose
 * frequencies were learned.
 *
 * <p><b>Fixed frequencies.</b> Lázaro-Gredilla, Quiñonero-Candela, Rasmussen &amp; Figueiras-Vidal (JMLR 11,
 * 2010) compare in their experiments SSGP, whose spectral points are learned, with "SSGP fixed spectral points":
 * the same m-point model whose spectral points stay at their random draw from the SE kernel's spectral density and
 * only the hyperparameters (ℓ, σ², σₙ²) maximise the marginal likelihood (their eq. 8), a Bayesian linear
 * regression on 2m random Fourier features (Rahimi &amp; Recht 2007) with evidence-chosen length-scales. It cannot
 * overfit through the m·d frequencies, the failure of SSGP they report and VSSGP (Gal &amp; Turner, ICML 2015, §1)
 * was proposed against.
 *
 * <p><b>Choice.</b> The same seeded fraction of the training rows that SSGP's early stopping holds out
 * ({@link SsgpHoldout}) scores the candidates, each fitted to the remaining rows: the mean negative log
 * predictive density of the held-out rows decides. The fixed-frequency candidates are {@link #draws} seeded draws
 * of the spectral points (the first is the learned fit's start), each with its own hyperparameter fit: one draw of
 * m = 20 points is a coarse sample of the spectral density, and the held-out rows choosing among a few of them is
 * random restarts scored out of sample. The chosen candidate's hyperparameters are then refitted on all rows from
 * where they stopped (d + 2 parameters; its frequencies stay the draw).
 *
 * <p>The number of draws was set on held-out splits of cars, penguins and diabetes for seeds 6–20 ({@code bin/bench
 * regress-defaults}): SSGP's test RMSE against the 40-feature ridge fell from 1.010 / 1.034 / 1.030 with one draw
 * to 0.988 / 1.016 / 1.018 with six; sixteen did no better (0.981 / 1.023 / 1.020). On fresh splits (seeds 31–45)
 * the paired change from one draw to six was smaller: SSGP +0.009 / −0.004 / −0.016, VSSGP −0.007 / −0.006 /
 * −0.010 (standard errors 0.004–0.020).
 */
final class FixedFrequencies {
  /**
   * L-BFGS iteration cap of the hyperparameter fit (d + 2 parameters). With many inputs the fit's last hundreds of
   * iterations carry the length-scales of inputs that do not matter towards infinity, each gaining about 10⁻³ nats,
   * so its relative-decrease test (10⁻⁹) is met late: on diamonds' 2,000 rows of 26 inputs at m = 170 ({@code bin/bench
   * regress-defaults}, seeds 10 and 13, where VSSGP's held-out rows chose this model) its fits on the fitted rows
   * and then on all rows converged after 766 and 803 (seed 10), 972 and 762 iterations (seed 13), 0.04 s each; the
   * earlier cap of 500 left VSSGP's verdict at the cap on one split in five, though the log likelihood gained only
   * 0.009 nats from iteration 500 to 803 (seed 10, all rows).
   */
  static final int ITERATIONS = 2000;

  /** The start of a fit's status when the fixed-frequency model was chosen. */
  static final String CHOSEN = "fixed frequencies chosen";

  /** Draws of spectral points the held-out rows choose among (at most; see {@link #draws}). */
  static final int DRAWS = 6;

  /**
   * Work × draws budget: each draw costs a hyperparameter fit of n·(2m)² multiply-adds per evaluation (Φᵀ Φ on the
   * fitted rows; only the chosen draw is fitted again on all rows), and above {@code WORK_BUDGET / DRAWS} of them
   * fewer draws are fitted, one from {@code WORK_BUDGET} on. 60,000 rows at the paper's 2m = 40, where the draws were
   * chosen (class comment): six draws up to 10,000 rows there, as on cars, penguins and diabetes at SSGP's default
   * 2m (92–112) and at VSSGP's on every {@code bin/bench regress-defaults} set; one for SSGP's default 2m on diamonds,
   * college, volcano and txhousing (2,000–5,000 rows, 2m = 340–428). An earlier budget of 60,000 rows whatever 2m
   * fitted six there too: on college's split of seed 6 (3,791 rows, 2m = 428) the five further draws took 196 of
   * the fit's 209 seconds, and the fit they chose (a draw's) predicted the test rows no better than the learned
   * frequencies alone (RMSE 6.989 against 6.975, the exact GP's 6.995).
   */
  static final double WORK_BUDGET = 60_000.0 * 40 * 40;

  /** A held-out split of the training rows: the rows fitted and the rows held out. */
  record Split(RegressionData fit, RegressionData held) {}

  private FixedFrequencies() {}

  /**
   * Holds out a seeded {@code fraction} of the rows of {@code train} (at least one row on each side; n ≥ 2), the
   * split of {@link SsgpHoldout}.
   */
  static Split split(RegressionData train, double fraction, long seed) {
    int n = train.n();
    int held = Math.max(1, Math.min(n - 1, (int) Math.round(fraction * n)));
    int[] perm = new int[n];
    for (int i = 0; i < n; i++) {
      perm[i] = i;
    }
    SplittableRandom rng = new SplittableRandom(seed ^ 0x5DEECE66DL);
    for (int i = n - 1; i > 0; i--) {
      int j = rng.nextInt(i + 1);
      int t = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
    }
    int[] heldRows = Arrays.copyOfRange(perm, 0, held);
    int[] fitRows = Arrays.copyOfRange(perm, held, n);
    Arrays.sort(heldRows);
    Arrays.sort(fitRows);
    return new Split(train.subset(fitRows), train.subset(heldRows));
  }

  /**
   * The initial parameter vector of SSGP's fit (layout of {@link Ssgp#fit}): ω ∼ N(0, I) (m × d, seeded) and the
   * hyperparameters h0.
   */
  static double[] initial(int m, int d, long seed, Ssgp.Hyperparameters h0) {
    SplittableRandom rng = new SplittableRandom(seed);
    double[] p0 = new double[m * d + d + 2];
    for (int k = 0; k < m * d; k++) {
      p0[k] = rng.nextGaussian();
    }
    double[] ell = h0.lengthscales();
    for (int j = 0; j < d; j++) {
      p0[m * d + j] = Math.log(ell[j]);
    }
    p0[m * d + d] = Math.log(h0.signalVariance());
    p0[m * d + d + 1] = Math.log(h0.noiseVariance());
    return p0;
  }

  /**
   * The hyperparameters (log ℓ, log σ², log σₙ²) maximising the log marginal likelihood of {@code rows} (eq. 8 of
   * Lázaro-Gredilla et al.) at the frequencies of {@code p}, from p's hyperparameters; returns the packed vector
   * (p's frequencies, the fitted hyperparameters) and L-BFGS's stop reason.
   */
  static Fitted fit(RegressionData rows, int m, double[] p) {
    int d = rows.d();
    int off = m * d;
    double[] q0 = Arrays.copyOfRange(p, off, p.length);
    double[] full = p.clone();
    double[] g = new double[p.length];
    Lbfgs.Result r = Lbfgs.minimize(
        (q, gq) -> {
          System.arraycopy(q, 0, full, off, q.length);
          double f = SsgpObjective.negLogMarginal(rows, m, full, g);
          System.arraycopy(g, off, gq, 0, q.length);
          return f;
        },
        q0,
        null,
        null,
        new Lbfgs.Settings(ITERATIONS, 1e-9, 1e-5, 10));
    double[] out = p.clone();
    System.arraycopy(r.x(), 0, out, off, q0.length);
    return new Fitted(out, BoundMonitor.StopReason.of(r));
  }

  /** Packed parameters after a hyperparameter fit, and why L-BFGS stopped. */
  record Fitted(double[] p, BoundMonitor.StopReason reason) {}

  /**
   * Mean negative log predictive density of {@code held} under the SSGP model at p conditioned on {@code fit};
   * +∞ where the model cannot be conditioned or predicts NaN.
   */
  static double score(RegressionData fit, RegressionData held, int m, double[] p) {
    Ssgp model;
    try {
      model = Ssgp.at(fit, m, fit.d(), p);
    } catch (NotPositiveDefiniteException | IllegalArgumentException e) {
      return Double.POSITIVE_INFINITY;
    }
    double v = model.predict(held).mnlp(held.y());
    return Double.isNaN(v) ? Double.POSITIVE_INFINITY : v;
  }

  /** Whether the model at p conditions on {@code rows} (its weight precision is numerically positive definite). */
  static boolean conditions(RegressionData rows, int m, double[] p) {
    try {
      Ssgp.at(rows, m, rows.d(), p);
      return true;
    } catch (NotPositiveDefiniteException | IllegalArgumentException e) {
      return false;
    }
  }

  /**
   * A fixed-frequency candidate: its held-out score (+∞: unusable), its packed parameters (null: unusable) and why
   * its last hyperparameter fit stopped.
   */
  record Candidate(double score, double[] p, BoundMonitor.StopReason reason, int draw, int draws) {

    /** How the candidate was chosen, for a fit's status. */
    String describe(String against) {
      return CHOSEN + " (draw " + (draw + 1) + " of " + draws + "; held-out density " + score
          + " against " + against + ")";
    }
  }

  /**
   * Number of draws the held-out rows choose among for {@code n} training rows and m frequencies: {@link #DRAWS},
   * fewer above the budget ({@link #WORK_BUDGET}).
   */
  static int draws(int n, int m) {
    double work = Math.max(1, n) * (2.0 * m) * (2.0 * m);
    return (int) Math.max(1, Math.min(DRAWS, Math.floor(WORK_BUDGET / work)));
  }

  /**
   * p0 with the spectral points of draw {@code k}: p0 itself for k = 0, else ω ∼ N(0, I) (m × d) from a stream
   * seeded by {@code seed} and k; the hyperparameters stay p0's.
   */
  static double[] draw(double[] p0, int m, int d, long seed, int k) {
    double[] p = p0.clone();
    if (k > 0) {
      SplittableRandom rng = new SplittableRandom(seed ^ (0x9E3779B97F4A7C15L * k));
      for (int i = 0; i < m * d; i++) {
        p[i] = rng.nextGaussian();
      }
    }
    return p;
  }

  /**
   * The best of {@link #draws} fixed-frequency candidates at the draws {@link #draw}{@code (p0, …, seed, k)}: each
   * draw's hyperparameters are fitted on the split's fitted rows and scored on its held-out rows; the lowest score
   * (the earliest draw on a tie) is refitted on all of {@code train} from there, or kept as fitted if that refit
   * does not condition on all rows, or passed over for the next if neither conditions.
   */
  static Candidate candidate(RegressionData train, Split split, int m, double[] p0, long seed) {
    int k = draws(train.n(), m);
    Fitted[] onFit = new Fitted[k];
    Integer[] order = new Integer[k];
    double[] score = new double[k];
    for (int i = 0; i < k; i++) {
      onFit[i] = fit(split.fit(), m, draw(p0, m, train.d(), seed, i));
      score[i] = score(split.fit(), split.held(), m, onFit[i].p());
      order[i] = i;
    }
    Arrays.sort(
        order, (a, b) -> Double.compare(score[a], score[b])); // stable: earliest draw on a tie
    for (int i : order) {
      if (!(score[i] < Double.POSITIVE_INFINITY)) {
        break;
      }
      Fitted onAll = fit(train, m, onFit[i].p());
      if (conditions(train, m, onAll.p())) {
        return new Candidate(score[i], onAll.p(), onAll.reason(), i, k);
      }
      if (conditions(train, m, onFit[i].p())) {
        return new Candidate(score[i], onFit[i].p(), onFit[i].reason(), i, k);
      }
    }
    return new Candidate(Double.POSITIVE_INFINITY, null, onFit[order[0]].reason(), order[0], k);
  }
}
