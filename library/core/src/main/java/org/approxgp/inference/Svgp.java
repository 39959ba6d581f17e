package org.approxgp.inference;

import java.util.Arrays;
import org.approxgp.kernel.Kernel;
import org.approxgp.likelihood.Likelihood;
import org.approxgp.likelihood.VariationalExpectation;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.JitterPolicy;
import org.approxgp.linalg.Matrix;
import org.approxgp.linalg.NotPositiveDefiniteException;

/**
 * The uncollapsed variational bound of SVGP classification (J. Hensman, A. G. de G. Matthews &amp; Z. Ghahramani,
 * "Scalable variational Gaussian process classification", AISTATS 2015, eq. 3–5; M. Titsias, AISTATS 2009) and its
 * gradient, on all training rows or on a minibatch. The optimiser that drives it ({@code model.SvgpModel}: Adam on
 * minibatches or L-BFGS on the full batch) lives above; this class only evaluates. Derivation:
 * {@code docs/derivations/svgp.md}.
 *
 * <p><b>The bound.</b> Prior f ~ GP(m₀, k), inducing variables u = f(Z), K_uu = L Lᵀ, whitened v = L⁻¹(u − m₀) ~
 * N(0, I), q(v) = N(m, S), S = C Cᵀ with C lower triangular and a positive diagonal. With aₙ = L⁻¹ k_u(xₙ) and
 * dₙ = kₙₙ − ‖aₙ‖², q(fₙ) = ∫ p(fₙ | u) q(u) du = N(μₙ, σₙ²), μₙ = m₀ + aₙᵀm, σₙ² = dₙ + ‖Cᵀaₙ‖² (Hensman et al. eq.
 * 4), and
 * <pre>
 * L = Σₙ E_{q(fₙ)}[log p(yₙ | fₙ)] − KL(q(v) ‖ N(0, I)),
 * KL = ½ [tr(CCᵀ) + mᵀm − M − 2 Σ log Cᵢᵢ]                                     (eq. 5, whitened)
 * </pre>
 * On a minibatch B the data term is rescaled by n/|B| (an unbiased estimate of L). The expectations and their
 * derivatives (γ_μ, γ_v) in (μ, σ²) are the likelihood's {@link Likelihood#variationalExpectation} (closed form or
 * Gauss–Hermite, the same as {@link Vb}'s).
 *
 * <p><b>Parameters</b> ({@link #start()}, {@link #dimension()}): x = (m, the M(M+1)/2 entries of C row by row with the
 * diagonal as log Cᵢᵢ, then the kernel's log-hyperparameters θ when learned, then Z row by row when learned).
 *
 * <p><b>Gradient.</b> ∂L/∂m = s Σ γ_μₙ aₙ − m; ∂L/∂C = 2s Σ γ_vₙ aₙ(Cᵀaₙ)ᵀ − C + diag(1/Cᵢᵢ) (lower part; × Cᵢᵢ on
 * the log diagonal); s = n/|B|. In θ and Z through K_uu, K_uf and kₙₙ, with the Cholesky factor's derivative
 * L⁻¹dL = Φ(L⁻¹ dK_uu L⁻ᵀ) (Φ: the lower triangle with half the diagonal): with Tₙ = γ_μₙ m + 2γ_vₙ (S − I) aₙ and
 * H = s Σ Tₙ aₙᵀ,
 * <pre>
 * dL = tr(Y dK_uu) + Σ (G_U)_aₙ d(K_uf)_aₙ + s Σ γ_vₙ dkₙₙ,   Y = −L⁻ᵀ sym(Φ(H)) L⁻¹,   G_U column n = s L⁻ᵀ Tₙ,
 * </pre>
 * contracted with the kernel's derivatives as {@link SparseGradient} does. Cost O(|B| M² + M³) per evaluation,
 * memory O(BLOCK·M + M²) (rows by blocks of {@link SparseApproximation#BLOCK}); K_uu's factor is cached when θ and Z
 * are fixed.
 *
 * <p>Mutable (it caches K_uu's factor and records the jitter), so one instance serves one optimisation at a time.
 *
 * <p><b>Jitter.</b> K_uu is factored with {@link JitterPolicy#standard()} (as {@link SparseSiteLoop} does when its
 * options allow none); a jittered K_uu means u = f(Z) + ε, with dₙ from the same jittered matrix.
 */
public final class Svgp {
  private final Problem problem;
  private final double[][] z0;
  private final boolean learnHyperparameters;
  private final boolean learnInducing;
  private final int n;
  private final int m;
  private final int d;
  private final int nk;
  private final int block;
  private Cholesky fixedKuu;
  private double jitter;

  private Svgp(
      SparseProblem start, boolean learnHyperparameters, boolean learnInducing, int block) {
    this.problem = start.problem();
    this.z0 = start.z();
    this.learnHyperparameters = learnHyperparameters;
    this.learnInducing = learnInducing;
    this.n = problem.size();
    this.m = z0.length;
    this.d = z0[0].length;
    this.nk = problem.kernel().size();
    this.block = block;
  }

  /**
   * The bound of {@code start}'s problem on its inducing inputs.
   *
   * @param learnHyperparameters whether the kernel's log-hyperparameters are part of x (else fixed at {@code
   *     start}'s)
   * @param learnInducing whether Z is part of x (else fixed at {@code start}'s)
   */
  public static Svgp of(SparseProblem start, boolean learnHyperparameters, boolean learnInducing) {
    if (start == null) {
      throw new IllegalArgumentException("the sparse problem must not be null");
    }
    return of(start, learnHyperparameters, learnInducing, SparseApproximation.BLOCK);
  }

  /** As {@link #of(SparseProblem, boolean, boolean)}, summing rows by blocks of {@code block} (tests). */
  static Svgp of(
      SparseProblem start, boolean learnHyperparameters, boolean learnInducing, int block) {
    if (start == null) {
      throw new IllegalArgumentException("the sparse problem must not be null");
    }
    if (block < 1) {
      throw new IllegalArgumentException("blocks of at least 1 row, got " + block);
    }
    return new Svgp(start, learnHyperparameters, learnInducing, block);
  }

  /** Length of x. */
  public int dimension() {
    return thetaOffset() + (learnHyperparameters ? nk : 0) + (learnInducing ? m * d : 0);
  }

  /** n, the training rows. */
  public int size() {
    return n;
  }

  /** M, the inducing inputs. */
  public int inducing() {
    return m;
  }

  /** Where θ starts in x (after m and C). */
  public int thetaOffset() {
    return m + m * (m + 1) / 2;
  }

  /** Whether θ is part of x. */
  public boolean learnsHyperparameters() {
    return learnHyperparameters;
  }

  /** Whether Z is part of x. */
  public boolean learnsInducing() {
    return learnInducing;
  }

  /** The largest jitter K_uu has needed so far (0: none). */
  public double jitter() {
    return jitter;
  }

  /** The prior as q: m = 0, C = I, θ and Z at the start (GPflow's whitened default). */
  public double[] start() {
    double[] x = new double[dimension()];
    int o = thetaOffset();
    if (learnHyperparameters) {
      System.arraycopy(problem.kernel().logHyperparameters(), 0, x, o, nk);
      o += nk;
    }
    if (learnInducing) {
      for (int a = 0; a < m; a++) {
        System.arraycopy(z0[a], 0, x, o + a * d, d);
      }
    }
    return x;
  }

  /** The kernel at x (the start's when θ is not learned). */
  public Kernel kernel(double[] x) {
    if (!learnHyperparameters) {
      return problem.kernel();
    }
    int o = thetaOffset();
    return problem.kernel().withLogHyperparameters(Arrays.copyOfRange(x, o, o + nk));
  }

  /** Z at x (a copy). */
  public double[][] inducingInputs(double[] x) {
    double[][] z = new double[m][];
    int o = thetaOffset() + (learnHyperparameters ? nk : 0);
    for (int a = 0; a < m; a++) {
      z[a] = learnInducing ? Arrays.copyOfRange(x, o + a * d, o + (a + 1) * d) : z0[a].clone();
    }
    return z;
  }

  /** The whitened mean m at x (a copy). */
  public double[] mean(double[] x) {
    return Arrays.copyOf(x, m);
  }

  /** The factor C of S = CCᵀ at x (M × M, lower triangular, positive diagonal). */
  public Matrix factor(double[] x) {
    Matrix c = Matrix.zeros(m, m);
    double[] cd = c.data();
    int idx = m;
    for (int r = 0; r < m; r++) {
      for (int col = 0; col <= r; col++) {
        cd[r * m + col] = r == col ? Math.exp(x[idx]) : x[idx];
        idx++;
      }
    }
    return c;
  }

  /** Writes C (lower triangle, positive diagonal) into x's factor entries (log on the diagonal). */
  public void setFactor(double[] x, Matrix c) {
    int idx = m;
    for (int r = 0; r < m; r++) {
      for (int col = 0; col <= r; col++) {
        double v = c.get(r, col);
        if (r == col && !(v > 0)) {
          throw new IllegalArgumentException("diagonal " + r + " of C is " + v + ", not positive");
        }
        x[idx++] = r == col ? Math.log(v) : v;
      }
    }
  }

  /** K_uu's factor at x (cached when θ and Z are fixed). */
  Cholesky kuu(Kernel k, double[][] z) {
    if (!learnHyperparameters && !learnInducing && fixedKuu != null) {
      return fixedKuu;
    }
    Cholesky c = Cholesky.factor(k.matrix(z), JitterPolicy.standard());
    jitter = Math.max(jitter, c.jitter());
    if (!learnHyperparameters && !learnInducing) {
      fixedKuu = c;
    }
    return c;
  }

  /**
   * The bound L at x over all n rows, its gradient written to {@code gradient} (∂L/∂x, for ascent; null: none).
   *
   * @throws InferenceException when K_uu cannot be factored or an expectation is not finite
   */
  public double elbo(double[] x, double[] gradient) {
    return elbo(x, null, gradient);
  }

  /**
   * The minibatch estimate (n/|B|) Σ_{n ∈ B} E_q[log p(yₙ | fₙ)] − KL at x, its gradient written to {@code gradient}
   * (null: none). {@code rows} null means every row (the bound itself).
   *
   * @throws IllegalArgumentException for an empty batch, a row out of range or a wrong length
   * @throws InferenceException when K_uu cannot be factored or an expectation is not finite
   */
  public double elbo(double[] x, int[] rows, double[] gradient) {
    return evaluate(x, rows, gradient, null, null);
  }

  /**
   * One natural-gradient step of q(v) with step γ ∈ (0, 1] on the minibatch {@code rows} (null: every row), from x:
   * returns the minibatch estimate of L at x, writes ∂L/∂x at x to {@code gradient} (null: none; its θ and Z entries
   * are what an optimiser of those takes alongside), and replaces x's m and C by the step's q(v). Salimbeni,
   * Eleftheriadis &amp; Hensman, "Natural gradients in practice", AISTATS 2018, §2–3; Hensman, Fusi &amp; Lawrence, UAI
   * 2013, eq. 9–10 (whitened here). In the natural parameters η₁ = S⁻¹m, η₂ = −½S⁻¹ of q(v) = N(m, S), the natural
   * gradient is the gradient in the expectation parameters (m, S + mmᵀ); with g = s Σ γ_μₙ aₙ and G = s Σ γ_vₙ aₙaₙᵀ
   * (the data term's derivatives in m and S) and the KL's −m and −½(I − S⁻¹), the step η ← η + γ ∂L/∂μ is
   * <pre>
   * Λ' = (1 − γ) S⁻¹ + γ (I − 2G),     Λ' m' = (1 − γ) S⁻¹m + γ (g − 2G m)
   * </pre>
   * (derivation: {@code docs/derivations/svgp.md}). With γ = 1 on the full batch of a Gaussian likelihood it is the
   * optimum in one step (Titsias's q(u)); for a log-concave likelihood G is negative semi-definite, so Λ' stays
   * positive definite. Cost O(|B| M² + M³).
   *
   * @throws IllegalArgumentException for γ outside (0, 1] or a wrong length
   * @throws InferenceException when K_uu cannot be factored, an expectation is not finite, or Λ' is not positive
   *     definite (a likelihood that is not log-concave, at too long a step)
   */
  public double naturalStep(double[] x, int[] rows, double gamma, double[] gradient) {
    if (!(gamma > 0 && gamma <= 1)) {
      throw new IllegalArgumentException(
          "the natural-gradient step must be in (0, 1], got " + gamma);
    }
    double[] g1 = new double[m];
    Matrix g2 = Matrix.zeros(m, m);
    double value = evaluate(x, rows, gradient == null ? new double[dimension()] : gradient, g1, g2);
    double[] mean = mean(x);
    Cholesky s = Cholesky.ofFactor(factor(x));
    Matrix lambda = s.inverse(); // S⁻¹
    double[] eta = s.solve(mean); // S⁻¹ m
    double[] g2m = g2.mult(mean);
    double[] ld = lambda.data();
    double[] gd = g2.data();
    for (int r = 0; r < m; r++) {
      eta[r] = (1 - gamma) * eta[r] + gamma * (g1[r] - 2 * g2m[r]);
      for (int col = 0; col < m; col++) {
        int q = r * m + col;
        ld[q] = (1 - gamma) * ld[q] + gamma * ((r == col ? 1 : 0) - 2 * gd[q]);
      }
    }
    lambda.symmetrize();
    try {
      Cholesky lf = Cholesky.factor(lambda);
      Matrix cov = lf.inverse();
      setFactor(x, Cholesky.factor(cov).lower());
      System.arraycopy(lf.solve(eta), 0, x, 0, m);
    } catch (NotPositiveDefiniteException e) {
      throw new InferenceException(
          "the natural-gradient step " + gamma
              + " left q(v) without a positive-definite covariance",
          failed("natural step"),
          e);
    }
    return value;
  }

  /**
   * {@link #elbo(double[], int[], double[])}; with a gradient and {@code gMeanOut}, {@code gVarianceOut} non-null
   * also the data term's s Σ γ_μₙ aₙ into gMeanOut and s Σ γ_vₙ aₙaₙᵀ added to gVarianceOut.
   */
  private double evaluate(
      double[] x, int[] rows, double[] gradient, double[] gMeanOut, Matrix gVarianceOut) {
    if (x.length != dimension() || (gradient != null && gradient.length != dimension())) {
      throw new IllegalArgumentException("SVGP has " + dimension() + " parameters, got " + x.length
          + (gradient == null ? "" : " and a gradient of " + gradient.length));
    }
    int b = rows == null ? n : rows.length;
    if (b == 0) {
      throw new IllegalArgumentException("an empty minibatch");
    }
    double scale = (double) n / b;
    Kernel k;
    double[][] z = inducingInputs(x);
    try {
      k = kernel(x);
    } catch (IllegalArgumentException e) {
      throw new InferenceException("the kernel refuses θ: " + e.getMessage(), failed("kernel"), e);
    }
    Cholesky kuu;
    try {
      kuu = kuu(k, z);
    } catch (NotPositiveDefiniteException e) {
      throw new InferenceException("K_uu could not be factored", failed("K_uu"), e);
    }
    double[] mean = mean(x);
    Matrix c = factor(x);
    boolean kernelTerms = gradient != null && (learnHyperparameters || learnInducing);
    double[] gm = new double[m];
    Matrix gc = Matrix.zeros(m, m);
    Matrix h = kernelTerms ? Matrix.zeros(m, m) : null;
    double[] gTheta = new double[nk];
    double[][] gz = new double[m][d];
    double data = 0;
    Likelihood lik = problem.likelihood();
    double m0 = problem.priorMean();
    double[][] xs = problem.x();
    double[] ys = problem.y();
    for (int from = 0; from < b; from += block) {
      int nb = Math.min(block, b - from);
      double[][] xb = new double[nb][];
      double[] yb = new double[nb];
      for (int i = 0; i < nb; i++) {
        int r = rows == null ? from + i : rows[from + i];
        if (r < 0 || r >= n) {
          throw new IllegalArgumentException("row " + r + " is not one of the " + n + " rows");
        }
        xb[i] = xs[r];
        yb[i] = ys[r];
      }
      Matrix a = kuu.solveLower(k.cross(z, xb)); // M × nb, column i = aᵢ
      Matrix cta = c.multTransA(a); // Cᵀ A
      double[] kd = k.diagonal(xb);
      double[] ad = a.data();
      double[] ctad = cta.data();
      double[] gmu = new double[nb];
      double[] gv = new double[nb];
      for (int i = 0; i < nb; i++) {
        double mu = m0;
        double qa = 0;
        double qc = 0;
        for (int r = 0; r < m; r++) {
          double v = ad[r * nb + i];
          mu += v * mean[r];
          qa += v * v;
          double w = ctad[r * nb + i];
          qc += w * w;
        }
        double var = Math.max(0.0, kd[i] - qa) + qc;
        VariationalExpectation e;
        try {
          e = lik.variationalExpectation(yb[i], mu, var);
        } catch (ArithmeticException | IllegalArgumentException ex) {
          throw new InferenceException(
              "E_q[log p(y | f)] failed at N(" + mu + ", " + var + "): " + ex.getMessage(),
              failed("expectation"),
              ex);
        }
        if (!Double.isFinite(e.value())
            || !Double.isFinite(e.dMean())
            || !Double.isFinite(e.dVariance())) {
          throw new InferenceException(
              "E_q[log p(y | f)] is not finite at N(" + mu + ", " + var + ")",
              failed("expectation"),
              null);
        }
        data += e.value();
        gmu[i] = scale * e.dMean();
        gv[i] = scale * e.dVariance();
      }
      if (gradient == null) {
        continue;
      }
      double[] agm = a.mult(gmu);
      for (int r = 0; r < m; r++) {
        gm[r] += agm[r];
      }
      // ∂/∂C of Σ γ_v ‖Cᵀa‖² = 2 Σ γ_v a (Cᵀa)ᵀ = 2 (A Γ_v)(CᵀA)ᵀ
      Matrix agv = scaleColumns(a, gv);
      Matrix part = agv.multTransB(cta);
      addScaled(gc, part, 2);
      if (gVarianceOut != null) {
        addScaled(gVarianceOut, agv.multTransB(a), 1);
      }
      if (kernelTerms) {
        // Tₙ = γ_μₙ m + 2 γ_vₙ (S − I) aₙ, (S − I)A = C(CᵀA) − A
        Matrix sa = c.mult(cta);
        double[] sad = sa.data();
        Matrix t = Matrix.zeros(m, nb);
        double[] td = t.data();
        for (int r = 0; r < m; r++) {
          for (int i = 0; i < nb; i++) {
            int q = r * nb + i;
            td[q] = gmu[i] * mean[r] + 2 * gv[i] * (sad[q] - ad[q]);
          }
        }
        addScaled(h, t.multTransB(a), 1); // H = Σ Tₙ aₙᵀ (the scale is in γ)
        Matrix gu = kuu.solveUpper(t); // G_U = L⁻ᵀ T
        if (learnHyperparameters) {
          double[] g1 = k.crossTraceGradient(z, xb, gu);
          double[] g2 = k.diagonalTraceGradient(xb, gv);
          for (int j = 0; j < nk; j++) {
            gTheta[j] += g1[j] + g2[j];
          }
        }
        if (learnInducing) {
          double[][] g = k.crossInputGradient(z, xb, gu);
          for (int a1 = 0; a1 < m; a1++) {
            for (int col = 0; col < d; col++) {
              gz[a1][col] += g[a1][col];
            }
          }
        }
      }
    }
    // − KL(N(m, CCᵀ) ‖ N(0, I))
    double kl = -m;
    double[] cd = c.data();
    for (int r = 0; r < m; r++) {
      kl += mean[r] * mean[r];
      for (int col = 0; col <= r; col++) {
        kl += cd[r * m + col] * cd[r * m + col];
      }
      kl -= 2 * Math.log(cd[r * m + r]);
    }
    double value = scale * data - 0.5 * kl;
    if (!Double.isFinite(value)) {
      throw new InferenceException("the bound is " + value, failed("bound"), null);
    }
    if (gradient == null) {
      return value;
    }
    if (gMeanOut != null) {
      System.arraycopy(gm, 0, gMeanOut, 0, m);
    }
    Arrays.fill(gradient, 0);
    double[] gcd = gc.data();
    for (int r = 0; r < m; r++) {
      gradient[r] = gm[r] - mean[r];
    }
    int idx = m;
    for (int r = 0; r < m; r++) {
      for (int col = 0; col <= r; col++) {
        double cv = cd[r * m + col];
        double g = gcd[r * m + col] - cv;
        if (r == col) {
          g += 1 / cv;
          g *= cv; // log-diagonal
        }
        gradient[idx++] = g;
      }
    }
    if (kernelTerms) {
      // Y = −L⁻ᵀ sym(Φ(H)) L⁻¹: sym(Φ(H)) has H_ii/2 on the diagonal and H_ij/2 (i > j) at (i, j)
      // and (j, i)
      Matrix p = Matrix.zeros(m, m);
      double[] pd = p.data();
      double[] hd = h.data();
      for (int r = 0; r < m; r++) {
        for (int col = 0; col <= r; col++) {
          double v = -0.5 * hd[r * m + col];
          pd[r * m + col] = v;
          pd[col * m + r] = v;
        }
      }
      Matrix y = kuu.solveUpper(kuu.solveUpper(p).transpose()).transpose();
      y.symmetrize();
      int o = thetaOffset();
      if (learnHyperparameters) {
        double[] g = k.traceGradient(z, y);
        for (int j = 0; j < nk; j++) {
          gradient[o + j] = gTheta[j] + g[j];
        }
        o += nk;
      }
      if (learnInducing) {
        double[][] g = k.crossInputGradient(z, z, y);
        for (int a1 = 0; a1 < m; a1++) {
          for (int col = 0; col < d; col++) {
            gradient[o + a1 * d + col] = gz[a1][col] + 2 * g[a1][col];
          }
        }
      }
    }
    return value;
  }

  /**
   * The fitted model at x.
   *
   * @param elbo the bound reported with it (e.g. {@link #elbo(double[], double[])} at x)
   * @param diagnostics the optimiser's
   */
  public SvgpPosterior posterior(double[] x, double elbo, Diagnostics diagnostics) {
    Kernel k = kernel(x);
    double[][] z = inducingInputs(x);
    Cholesky kuu = kuu(k, z);
    return new SvgpPosterior(
        new SparseProblem(problem.withKernel(k), z), kuu, mean(x), factor(x), elbo, diagnostics);
  }

  private Diagnostics failed(String what) {
    return new Diagnostics("svgp", 0, false, Double.NaN, 0, jitter, 0, 0, what, null);
  }

  private static Matrix scaleColumns(Matrix a, double[] w) {
    Matrix out = a.copy();
    double[] od = out.data();
    int cols = a.cols();
    for (int r = 0; r < a.rows(); r++) {
      for (int col = 0; col < cols; col++) {
        od[r * cols + col] *= w[col];
      }
    }
    return out;
  }

  private static void addScaled(Matrix acc, Matrix part, double s) {
    double[] ad = acc.data();
    double[] pd = part.data();
    for (int q = 0; q < ad.length; q++) {
      ad[q] += s * pd[q];
    }
  }
}
