package org.approxgp.inference;

import java.util.ArrayList;
import java.util.List;
import org.approxgp.likelihood.Likelihood;
import org.approxgp.likelihood.LogDensity;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.JitterPolicy;
import org.approxgp.linalg.Matrix;
import org.approxgp.linalg.NotPositiveDefiniteException;

/**
 * Laplace's approximation: q(f) = N(f̂, (K⁻¹ + W)⁻¹) at the posterior mode f̂, W = −∇∇ log p(y | f̂).
 *
 * <p>References: Rasmussen &amp; Williams (2006) §3.4, Alg. 3.1 (Newton for the mode, B = I + W½KW½),
 * eq. 3.32 (approximate log evidence), Alg. 5.1 and §5.5.1 (its gradient, including the implicit
 * dependence of f̂ on θ); GPML's {@code infLaplace.m} (Newton iterating α with f = m₀ + Kα and a line
 * search on Ψ).
 *
 * <p>Notation: α with f = m₀ + Kα; Ψ(α) = Σ log p(yᵢ | fᵢ) − ½ αᵀKα (the log joint up to a constant);
 * ∇ = ∂ log p/∂f, W = −∂² log p/∂f², ∇³ = ∂³ log p/∂f³ at f̂.
 *
 * <p><b>As Gaussian sites.</b> The posterior is returned in the same site form as EP's:
 * τ̃ = W, ν̃ = W f̂ + ∇. Then Σ⁻¹(μ − m₀) = K⁻¹(f̂ − m₀) + W(f̂ − m₀) = ∇ + W f̂ − W m₀ (using
 * α̂ = K⁻¹(f̂ − m₀) = ∇ at the mode), i.e. μ = f̂ exactly, Σ = (K⁻¹ + W)⁻¹, and the predictions are
 * R&amp;W eq. 3.21/3.24.
 *
 * <p><b>Log-concavity.</b> The stable form takes √W, so W ≥ 0 is required at every Newton iterate.
 * This holds for log-concave likelihoods (probit, Gaussian, Poisson with the square link); when a
 * likelihood returns W &lt; 0 anywhere (e.g. Student-t, noisy step) {@link #infer} throws an
 * {@link InferenceException} naming the site instead of silently clipping — GPML switches to a
 * different factorisation in that case, which this class does not implement.
 *
 * <p><b>Stopping rule.</b> Newton steps until the increase of Ψ over one step is below
 * {@link LaplaceOptions#tolerance()} (default 1e-10). GPML's {@code infLaplace} stops at 1e-6 on Ψ (the
 * GPML anchors were made with that); Newton converges quadratically near the mode, so the tighter
 * default costs one or two extra steps and makes f̂ accurate to far below the anchors' 1e-5 budget.
 * Each Newton direction is safeguarded by step halving: the step is halved (up to 30 times) until Ψ
 * increases; the full step is accepted if Ψ falls by no more than its roundoff (1e-12 (1 + |Ψ|)), so
 * the run always ends on a full Newton step (quadratically accurate) rather than a halved one.
 */
public final class Laplace {

  private static final int MAX_HALVINGS = 30;

  private Laplace() {}

  /** Laplace from f = m₀ (α = 0) with default options. */
  public static Posterior infer(Problem problem) {
    return inferFrom(problem, LaplaceOptions.defaults(), null);
  }

  /**
   * Laplace warm-started from the mean of the Gaussian-site posterior given by {@code warmStart}
   * (e.g. a previous run's {@link Posterior#sites()}, of any method), or from α = 0 if null.
   */
  public static Posterior infer(Problem problem, LaplaceOptions options, Sites warmStart) {
    double[] alpha0 = null;
    if (warmStart != null) {
      if (warmStart.size() != problem.size()) {
        throw new IllegalArgumentException(
            "warm start has " + warmStart.size() + " sites, problem has " + problem.size());
      }
      Matrix k = problem.kernel().matrix(problem.x());
      try {
        alpha0 = GaussianSiteApproximation.compute(
                k, problem.priorMean(), warmStart.tau(), warmStart.nu(), options.jitter(), false)
            .alpha;
      } catch (ArithmeticException e) {
        throw new InferenceException(
            "the warm start's posterior could not be formed: " + e.getMessage(),
            new Diagnostics("laplace", 0, false, Double.NaN, 0, 0, 0, 0, "warm start"),
            e);
      }
    }
    return inferFrom(problem, options, alpha0);
  }

  /**
   * Newton for the mode from f = m₀ + K α₀ (α₀ e.g. a previous run's {@link Posterior#alpha()}), or
   * from α = 0 if null. As in GPML, a warm start whose Ψ is below Ψ(0) is discarded for α = 0.
   *
   * @throws InferenceException on W &lt; 0 (non-log-concave likelihood), a non-finite value, or a
   *     failed factorisation of B
   */
  public static Posterior inferFrom(Problem problem, LaplaceOptions options, double[] alpha0) {
    long t0 = System.nanoTime();
    int n = problem.size();
    if (alpha0 != null && alpha0.length != n) {
      throw new IllegalArgumentException(
          "warm start has length " + alpha0.length + ", problem has " + n);
    }
    Run run = new Run(t0);
    try {
      return newton(problem, options, alpha0, run);
    } catch (InferenceException e) {
      throw e;
    } catch (NotPositiveDefiniteException e) {
      throw new InferenceException(
          "B = I + W^1/2 K W^1/2 could not be factored", run.diagnostics(false, run.change), e);
    } catch (ArithmeticException e) {
      // a likelihood or kernel computation failed numerically (e.g. a NumericalException)
      throw new InferenceException(
          e.getMessage() + " (after " + run.iterations + " Newton steps)",
          run.diagnostics(false, run.change),
          e);
    }
  }

  /** Newton's method for the mode and the posterior there; numerical failures propagate to {@link #inferFrom}. */
  private static Posterior newton(
      Problem problem, LaplaceOptions options, double[] alpha0, Run run) {
    int n = problem.size();
    double m0 = problem.priorMean();
    Matrix k = problem.kernel().matrix(problem.x());
    double[] a = new double[n];
    double[] f = mean(k, m0, a);
    double psi = psi(problem, a, f);
    if (alpha0 != null) {
      double[] fw = mean(k, m0, alpha0);
      double psiW = psi(problem, alpha0, fw);
      if (psiW > psi) {
        a = alpha0.clone();
        f = fw;
        psi = psiW;
      }
    }
    if (!Double.isFinite(psi)) {
      throw new InferenceException(
          "Ψ is " + psi + " at the starting point", run.diagnostics(false, Double.NaN), null);
    }
    double change = Double.POSITIVE_INFINITY;
    boolean converged = false;
    while (run.iterations < options.maxIterations()) {
      LogDensity[] d = logDensities(problem, f, run, change);
      double[] w = negativeSecond(d, run, change);
      double[] sw = sqrt(w);
      Cholesky chol = factorB(k, sw, options.jitter());
      run.noteJitter(chol.jitter());
      // Newton step (R&W Alg. 3.1 lines 5–8, written for α with f = m₀ + Kα):
      // b = W(f − m₀) + ∇,  α_new = (I + WK)⁻¹ b = b − W½ B⁻¹ W½ K b
      double[] b = new double[n];
      for (int i = 0; i < n; i++) {
        b[i] = w[i] * (f[i] - m0) + d[i].d1();
      }
      double[] kb = k.mult(b);
      for (int i = 0; i < n; i++) {
        kb[i] *= sw[i];
      }
      double[] c = chol.solve(kb);
      double[] da = new double[n];
      for (int i = 0; i < n; i++) {
        da[i] = b[i] - sw[i] * c[i] - a[i];
      }
      // step halving on Ψ along the Newton direction (K da is the Newton direction in f)
      double[] kda = k.mult(da);
      double step = 1.0;
      double[] aNew = null;
      double[] fNew = null;
      double psiNew = Double.NEGATIVE_INFINITY;
      for (int h = 0; h <= MAX_HALVINGS; h++) {
        double[] at = new double[n];
        double[] ft = new double[n];
        for (int i = 0; i < n; i++) {
          at[i] = a[i] + step * da[i];
          ft[i] = f[i] + step * kda[i];
        }
        double p = psi(problem, at, ft);
        // the full Newton step is accepted when Ψ does not fall by more than its roundoff: near the
        // mode Ψ is flat to ~1e-13 and rejecting would leave f̂ at a halved step, ~√tolerance away
        double slack = h == 0 ? 1e-12 * (1 + Math.abs(psi)) : 0;
        if (p >= psi - slack) {
          aNew = at;
          fNew = ft;
          psiNew = p;
          break;
        }
        step *= 0.5;
      }
      run.iterations++;
      if (aNew == null) {
        // no increase even at step 2^-30: Ψ is flat to roundoff along the Newton direction
        change = 0;
        run.note(change);
        converged = true;
        break;
      }
      change = psiNew - psi;
      run.note(change);
      a = aNew;
      f = mean(k, m0, a); // recomputed (not accumulated) so f = m₀ + Kα holds to roundoff
      psi = psi(problem, a, f);
      if (!Double.isFinite(psi)) {
        throw new InferenceException("Ψ became " + psi, run.diagnostics(false, change), null);
      }
      if (Math.abs(change) < options.tolerance()) {
        converged = true;
        break;
      }
    }
    // the sites at the final mode: τ̃ = W, ν̃ = W f̂ + ∇
    LogDensity[] d = logDensities(problem, f, run, change);
    double[] w = negativeSecond(d, run, change);
    double[] nu = new double[n];
    double[] d1 = new double[n];
    double[] d3 = new double[n];
    double sumLogLik = 0;
    for (int i = 0; i < n; i++) {
      nu[i] = w[i] * f[i] + d[i].d1();
      d1[i] = d[i].d1();
      d3[i] = d[i].d3();
      sumLogLik += d[i].value();
    }
    GaussianSiteApproximation approx =
        GaussianSiteApproximation.compute(k, m0, w, nu, options.jitter(), false);
    run.noteJitter(approx.chol.jitter());
    // log q(y | X, θ) = −½ α̂ᵀ(f̂ − m₀) + Σ log p(yᵢ | f̂ᵢ) − Σ log Lᵢᵢ (R&W eq. 3.32, Alg. 3.1 l.
    // 10)
    double quad = 0;
    for (int i = 0; i < n; i++) {
      quad += a[i] * (f[i] - m0);
    }
    double logZ = -0.5 * quad + sumLogLik - 0.5 * approx.chol.logDet();
    if (!Double.isFinite(logZ)) {
      throw new InferenceException(
          "log evidence is " + logZ, run.diagnostics(converged, change), null);
    }
    double[] grad = options.gradient() ? gradient(problem, approx, a, d1, d3) : null;
    if (grad != null) {
      for (double g : grad) {
        if (!Double.isFinite(g)) {
          throw new InferenceException(
              "non-finite log-evidence gradient", run.diagnostics(converged, change), null);
        }
      }
    }
    return new Posterior(problem, approx, logZ, grad, run.diagnostics(converged, change));
  }

  /**
   * ∂ log q(y|X,θ)/∂θⱼ = tr(∂K/∂θⱼ · M) with (R&amp;W Alg. 5.1 lines 8–15 folded into one matrix)
   * <pre>
   * M = ½ α̂α̂ᵀ − ½ R + ½ (u ∇ᵀ + ∇ uᵀ),   R = W½ B⁻¹ W½ = (K + W⁻¹)⁻¹,
   * s₂ = +½ diag(Σ) ∘ ∇³,   u = (I − R K) s₂,   Σ = (K⁻¹ + W)⁻¹.
   * </pre>
   * Explicit part: ½ α̂ᵀ C α̂ − ½ tr(R C) (eq. 5.22, C = ∂K/∂θⱼ). Implicit part (eq. 5.23–5.24):
   * s₂ᵀ ∂f̂/∂θⱼ with ∂f̂/∂θⱼ = (I − K R) C ∇, and s₂ᵀ(I − KR) C ∇ = uᵀ C ∇ = tr(C ½(∇uᵀ + u∇ᵀ)) as C is
   * symmetric.
   *
   * <p>Sign of s₂: log q = Ψ(f̂) − ½ log|B| and ∂Ψ/∂f̂ = 0, so ∂ log q/∂f̂ᵢ = −½ tr(Σ ∂W/∂f̂ᵢ) with
   * ∂Wᵢᵢ/∂f̂ᵢ = −∇³ᵢ, i.e. s₂ = +½ diag(Σ) ∘ ∇³. (Reading R&amp;W's eq. 5.23 with ∇³ taken of log p gives
   * −½; GPML's infLaplace agrees with +½ — it subtracts {@code dfhat = g.*d3lp} from
   * the gradient of −log q — and so do the finite differences in {@code EvidenceGradientTest}: with −½
   * they disagree in the first digit.)
   */
  static double[] gradient(
      Problem problem, GaussianSiteApproximation approx, double[] alpha, double[] d1, double[] d3) {
    int n = approx.n;
    Matrix r = approx.rMatrix();
    double[] s2 = new double[n];
    for (int i = 0; i < n; i++) {
      s2[i] = 0.5 * approx.sigmaDiag[i] * d3[i];
    }
    double[] rks2 = r.mult(approx.k.mult(s2));
    double[] u = new double[n];
    for (int i = 0; i < n; i++) {
      u[i] = s2[i] - rks2[i];
    }
    Matrix m = r;
    m.scale(-0.5);
    double[] md = m.data();
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        md[i * n + j] += 0.5 * (alpha[i] * alpha[j] + u[i] * d1[j] + d1[i] * u[j]);
      }
    }
    return problem.kernel().traceGradient(problem.x(), m, approx.k);
  }

  /** Per-run counters (confined to one call). */
  private static final class Run {
    final long t0;
    final List<Double> trace = new ArrayList<>();
    int iterations;
    double jitter;
    double change = Double.POSITIVE_INFINITY;

    Run(long t0) {
      this.t0 = t0;
    }

    void noteJitter(double j) {
      jitter = Math.max(jitter, j);
    }

    /** Records the Ψ increase of a Newton step. */
    void note(double c) {
      change = c;
      trace.add(c);
    }

    Diagnostics diagnostics(boolean converged, double change) {
      return new Diagnostics(
          "laplace",
          iterations,
          converged,
          change,
          (System.nanoTime() - t0) * 1e-9,
          jitter,
          0,
          0,
          "",
          trace);
    }
  }

  private static double[] mean(Matrix k, double m0, double[] a) {
    double[] f = k.mult(a);
    for (int i = 0; i < f.length; i++) {
      f[i] += m0;
    }
    return f;
  }

  /** Ψ(α) = Σ log p(yᵢ | fᵢ) − ½ αᵀ(f − m₀), f = m₀ + Kα (R&amp;W eq. 3.12 up to a constant). */
  private static double psi(Problem problem, double[] a, double[] f) {
    Likelihood lik = problem.likelihood();
    double[] y = problem.y();
    double m0 = problem.priorMean();
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += lik.logDensity(y[i], f[i]).value() - 0.5 * a[i] * (f[i] - m0);
    }
    return Double.isNaN(s) ? Double.NEGATIVE_INFINITY : s;
  }

  private static LogDensity[] logDensities(Problem problem, double[] f, Run run, double change) {
    LogDensity[] d = new LogDensity[f.length];
    for (int i = 0; i < f.length; i++) {
      d[i] = problem.likelihood().logDensity(problem.y()[i], f[i]);
      if (!Double.isFinite(d[i].d1()) || !Double.isFinite(d[i].d2())) {
        throw new InferenceException(
            "non-finite log-density derivative at site " + i + " (f = " + f[i] + ")",
            run.diagnostics(false, change),
            null);
      }
    }
    return d;
  }

  private static double[] negativeSecond(LogDensity[] d, Run run, double change) {
    double[] w = new double[d.length];
    for (int i = 0; i < d.length; i++) {
      w[i] = -d[i].d2();
      if (w[i] < 0) {
        throw new InferenceException(
            "W = −∂² log p/∂f² = " + w[i] + " < 0 at site " + i
                + ": the likelihood is not log-concave there and this Laplace implementation needs W ≥ 0",
            run.diagnostics(false, change),
            null);
      }
    }
    return w;
  }

  private static double[] sqrt(double[] w) {
    double[] s = new double[w.length];
    for (int i = 0; i < w.length; i++) {
      s[i] = Math.sqrt(w[i]);
    }
    return s;
  }

  /** B = I + W½ K W½. */
  private static Cholesky factorB(Matrix k, double[] sw, JitterPolicy jitter) {
    Matrix b = k.copy();
    b.scaleRowsCols(sw, sw);
    b.addDiagonal(1.0);
    return Cholesky.factor(b, jitter);
  }
}
