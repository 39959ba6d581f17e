package org.approxgp.baseline;

import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.Matrix;
import org.approxgp.linalg.NotPositiveDefiniteException;

/**
 * L2-penalised logistic regression for labels y ∈ {−1, +1}: p(y = +1 | x) = σ(wᵀx + b), σ(t) = 1/(1 + e^{−t}),
 * fitted by minimising the penalised negative log likelihood
 * <pre>
 * J(w, b) = Σᵢ log(1 + exp(−yᵢ (wᵀxᵢ + b))) + (λ/2) ‖w‖²     (intercept b not penalised)
 * </pre>
 * with Newton's method (IRLS; Hastie, Tibshirani &amp; Friedman, <i>The Elements of Statistical Learning</i>, 2nd ed.,
 * §4.4.1, eq. 4.26, with the penalty of §4.4.4): gradient Σᵢ (pᵢ − tᵢ) x̃ᵢ + λ w̃, Hessian Σᵢ pᵢ(1 − pᵢ) x̃ᵢx̃ᵢᵀ + λ Ĩ
 * (x̃ = (x, 1), tᵢ = 1 for yᵢ = +1 else 0, Ĩ the identity without the intercept's entry), a Cholesky solve per step,
 * and step halving whenever a full step does not lower J (J is convex, so Newton with backtracking converges); once
 * the Newton decrement is below 1e-10·(1 + |J|) full steps are taken (J's decrease is then below its rounding). It
 * stops when the Newton decrement ½ gᵀH⁻¹g falls below 1e-24·(1 + |J|), or stops falling once in the quadratic region (the rounding floor of the gradient), or after {@link #MAX_ITERATIONS} steps.
 * With λ = 1/C this is scikit-learn's {@code LogisticRegression(C=C)} (whose solvers other than liblinear do not
 * penalise the intercept either); the unit test holds it to scikit-learn's coefficients.
 *
 * <p>O(n d²) time per Newton step and O(d²) memory beyond the inputs.
 */
public final class LogisticRegression {
  /** The cap on Newton steps (a few dozen suffice: convergence is quadratic near the optimum). */
  public static final int MAX_ITERATIONS = 100;

  private final double[] w;
  private final double b;
  private final double lambda;
  private final int iterations;
  private final boolean converged;
  private final double objective;

  private LogisticRegression(
      double[] w, double b, double lambda, int iterations, boolean converged, double objective) {
    this.w = w;
    this.b = b;
    this.lambda = lambda;
    this.iterations = iterations;
    this.converged = converged;
    this.objective = objective;
  }

  /**
   * Fits the model to the rows {@code x} (n × d) and labels {@code y} (±1).
   *
   * @param lambda the L2 penalty λ ≥ 0 on the weights (0: maximum likelihood, which does not exist for separable
   *     data: the weights then grow until J stops decreasing at rounding level; give λ &gt; 0 there)
   * @throws IllegalArgumentException for no rows, ragged rows, non-finite inputs, a label other than ±1, or λ &lt; 0
   * @throws ArithmeticException when a Newton system cannot be solved (λ = 0 with collinear inputs)
   */
  public static LogisticRegression fit(double[][] x, double[] y, double lambda) {
    int n = x.length;
    if (n == 0 || y.length != n) {
      throw new IllegalArgumentException(
          "need n >= 1 rows and as many labels, got " + n + " and " + y.length);
    }
    if (!(lambda >= 0) || Double.isInfinite(lambda)) {
      throw new IllegalArgumentException("lambda must be finite and >= 0, got " + lambda);
    }
    int d = x[0].length;
    for (int i = 0; i < n; i++) {
      if (x[i].length != d) {
        throw new IllegalArgumentException(
            "row " + i + " has " + x[i].length + " columns, row 0 " + d);
      }
      for (double v : x[i]) {
        if (!Double.isFinite(v)) {
          throw new IllegalArgumentException("row " + i + " is not finite");
        }
      }
      if (y[i] != 1 && y[i] != -1) {
        throw new IllegalArgumentException("label " + i + " is " + y[i] + ", not +1 or -1");
      }
    }
    int p = d + 1; // weights, then the intercept
    double[] beta = new double[p];
    double j = objective(x, y, beta, lambda);
    int it = 0;
    boolean converged = false;
    double[] g = new double[p];
    double[] h = new double[p * p];
    double previous = Double.POSITIVE_INFINITY; // the last decrement in the quadratic region
    while (it < MAX_ITERATIONS) {
      java.util.Arrays.fill(g, 0.0);
      java.util.Arrays.fill(h, 0.0);
      for (int i = 0; i < n; i++) {
        double[] xi = x[i];
        double t = beta[d];
        for (int k = 0; k < d; k++) {
          t += beta[k] * xi[k];
        }
        double pi = sigmoid(t);
        double r = pi - (y[i] > 0 ? 1 : 0);
        double wgt = pi * (1 - pi);
        for (int a = 0; a < p; a++) {
          double xa = a < d ? xi[a] : 1.0;
          g[a] += r * xa;
          double wa = wgt * xa;
          int o = a * p;
          for (int c = 0; c <= a; c++) {
            h[o + c] += wa * (c < d ? xi[c] : 1.0);
          }
        }
      }
      for (int a = 0; a < d; a++) {
        g[a] += lambda * beta[a];
        h[a * p + a] += lambda;
      }
      for (int a = 0; a < p; a++) {
        for (int c = a + 1; c < p; c++) {
          h[a * p + c] = h[c * p + a];
        }
      }
      double[] step;
      try {
        step = Cholesky.factor(Matrix.wrap(p, p, h.clone())).solve(g);
      } catch (NotPositiveDefiniteException e) {
        throw new ArithmeticException(
            "the Newton system of logistic regression is singular (lambda = " + lambda
                + "; separable or degenerate data need lambda > 0)");
      }
      double decrement = 0;
      for (int a = 0; a < p; a++) {
        decrement += g[a] * step[a];
      }
      it++;
      if (0.5 * decrement <= 1e-24 * (1 + Math.abs(j)) || decrement >= previous) {
        converged =
            true; // below the tolerance, or no longer falling in the quadratic region: rounding
        break;
      }
      if (0.5 * decrement <= 1e-10 * (1 + Math.abs(j))) {
        previous = decrement;
        // the quadratic region: the full step, whose decrease of J (about the decrement) is below
        // J's rounding,
        // so comparing J could not judge it
        for (int a = 0; a < p; a++) {
          beta[a] -= step[a];
        }
        j = objective(x, y, beta, lambda);
        continue;
      }
      // backtracking: halve the Newton step until J decreases (at most 50 halvings)
      double f = 1;
      double[] trial = new double[p];
      double jt = Double.POSITIVE_INFINITY;
      for (int k = 0; k < 50; k++) {
        for (int a = 0; a < p; a++) {
          trial[a] = beta[a] - f * step[a];
        }
        jt = objective(x, y, trial, lambda);
        if (jt <= j) {
          break;
        }
        f *= 0.5;
      }
      if (!(jt <= j)) {
        converged = true; // no step lowers J at rounding level: at the optimum
        break;
      }
      beta = trial;
      j = jt;
    }
    return new LogisticRegression(
        java.util.Arrays.copyOf(beta, d), beta[d], lambda, it, converged, j);
  }

  /** J(w, b) at β = (w, b) (class comment). */
  private static double objective(double[][] x, double[] y, double[] beta, double lambda) {
    int d = beta.length - 1;
    double s = 0;
    for (int i = 0; i < x.length; i++) {
      double t = beta[d];
      for (int k = 0; k < d; k++) {
        t += beta[k] * x[i][k];
      }
      s += softplus(-y[i] * t);
    }
    double q = 0;
    for (int k = 0; k < d; k++) {
      q += beta[k] * beta[k];
    }
    return s + 0.5 * lambda * q;
  }

  /** log(1 + eᵗ) without overflow. */
  static double softplus(double t) {
    return t > 0 ? t + Math.log1p(Math.exp(-t)) : Math.log1p(Math.exp(t));
  }

  static double sigmoid(double t) {
    if (t >= 0) {
      return 1 / (1 + Math.exp(-t));
    }
    double e = Math.exp(t);
    return e / (1 + e);
  }

  /** The weights w (a copy). */
  public double[] weights() {
    return w.clone();
  }

  public double intercept() {
    return b;
  }

  public double lambda() {
    return lambda;
  }

  /** Newton steps taken. */
  public int iterations() {
    return iterations;
  }

  /** Whether the Newton decrement fell below the tolerance within {@link #MAX_ITERATIONS} steps. */
  public boolean converged() {
    return converged;
  }

  /** The penalised negative log likelihood J at the fit. */
  public double objective() {
    return objective;
  }

  /** wᵀx + b. */
  public double score(double[] x) {
    if (x.length != w.length) {
      throw new IllegalArgumentException("x has " + x.length + " columns, the model " + w.length);
    }
    double t = b;
    for (int k = 0; k < w.length; k++) {
      t += w[k] * x[k];
    }
    return t;
  }

  /** p(y = +1 | x) = σ(wᵀx + b). */
  public double probability(double[] x) {
    return sigmoid(score(x));
  }

  /** log p(y | x) for a label y = ±1: −log(1 + exp(−y (wᵀx + b))). */
  public double logProbability(double[] x, double y) {
    if (y != 1 && y != -1) {
      throw new IllegalArgumentException("label " + y + " is not +1 or -1");
    }
    return -softplus(-y * score(x));
  }
}
