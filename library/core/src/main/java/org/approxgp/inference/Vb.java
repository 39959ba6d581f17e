package org.approxgp.inference;

import org.approxgp.likelihood.Likelihood;
import org.approxgp.likelihood.VariationalExpectation;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.JitterPolicy;
import org.approxgp.linalg.Matrix;
import org.approxgp.linalg.NotPositiveDefiniteException;
import org.approxgp.optimize.Anderson;
import org.approxgp.special.NumericalException;

/**
 * The variational Gaussian approximation (Opper &amp; Archambeau 2009): the q(f) = N(m, Σ) maximising
 * the evidence lower bound ELBO = Σ E_q[log p(yᵢ | fᵢ)] − KL(q ‖ N(m₀, K)).
 *
 * <p>The derivations below are written out step by step in {@code docs/derivations/vb-gradient.md}.
 *
 * <p><b>Parameterisation.</b> Opper &amp; Archambeau show the optimal q has m = m₀ + Kα and
 * Σ = (K⁻¹ + Λ)⁻¹, Λ = diag(λ), λ ≥ 0: 2n parameters (α, λ). With R = Λ½B⁻¹Λ½, B = I + Λ½KΛ½,
 * <pre>
 * KL = ½ [αᵀKα − tr(RK) + log|B|]          (tr(RK) = Σ λᵢΣᵢᵢ)
 * ∂ELBO/∂α  = K (g_m − α)
 * ∂ELBO/∂λᵢ = −Σⱼ Σⱼᵢ² (g_vⱼ + ½ λⱼ)
 * ∂ELBO/∂θ  = tr(∂K/∂θ · M),  M = sym(g_m αᵀ) + A diag(g_v) Aᵀ − ½ ααᵀ − ½ RKR,  A = I − RK
 * </pre>
 * where g_m = ∂E/∂m, g_v = ∂E/∂v from {@link Likelihood#variationalExpectation}. (Derivation: ∂m = ∂K α;
 * ∂Σ = A ∂K Aᵀ since ΣK⁻¹ = I − KR; ∂ log|B| = tr(R ∂K); ∂ tr(RK) = tr(R∂K) − tr(R∂K RK). Checked
 * against central differences in {@code EvidenceGradientTest}.) Stationarity gives α = g_m and
 * λ = −2 g_v (Opper &amp; Archambeau 2009, §3).
 *
 * <p><b>Optimiser: natural gradient in site form, not L-BFGS.</b> q is the Gaussian-site posterior with
 * τ̃ = λ, ν̃ = α + λ∘m. We iterate the natural-gradient (conjugate-computation) update of Khan &amp;
 * Lin (2017) on these site natural parameters,
 * τ̃ ← (1−ρ) τ̃ + ρ (−2 g_v),  ν̃ ← (1−ρ) ν̃ + ρ (g_m − 2 g_v ∘ m),
 * whose fixed points are exactly the stationarity conditions above and which, with ρ = 1, is exact in
 * one step for a Gaussian likelihood. ρ starts at {@link VbOptions#initialStep()}, is halved whenever the
 * ELBO would decrease (monotone ascent) and doubled (up to 1) after an accepted step. Why not L-BFGS on
 * (α, log λ): ∂ELBO/∂α = K(g_m − α) carries K's spectrum (condition numbers 1e8 and worse for SE
 * kernels), so first-order methods on α crawl; the natural gradient is invariant to that
 * parameterisation. For log-concave likelihoods −2 g_v ≥ 0, so τ̃ = λ stays non-negative (no exp or
 * softplus is needed). Where a likelihood gives g_v &gt; 0 the target precision is clipped at 0 (as EP
 * clips negative site precisions); if a clip is still active at the end the posterior is returned with
 * {@code converged = false} and a message, since it is then not a stationary point of the ELBO.
 *
 * <p><b>Anderson acceleration (optional).</b> With {@link VbOptions#andersonMemory()} m &gt; 0 each step first
 * tries the Anderson extrapolation of the last m iterates of the ρ = 1 map ({@link Anderson}); it is
 * accepted when it is a valid site vector (τ̃ ≥ 0, B factors) and does not lower the ELBO, otherwise the
 * memory is cleared and the plain step above is taken. Same fixed points, same stopping rule. At large
 * signal variance the plain map is slow and, at ρ = 1, can even be unstable at the optimum (it then
 * reaches the tolerance only through the ascent safeguard, its sites wandering at ~1e-7 where the ELBO is
 * flat to roundoff); Anderson converges there (Ionosphere, 80 rows, ℓ = 8, s² = 4900: 72 steps instead
 * of 269; {@code VbAndersonTest}). On by default (m = 5).
 *
 * <p><b>Stopping rule.</b> Converged when the RMS distance between the current sites and the
 * fixed-point target (−2g_v, g_m − 2g_v∘m) — the undamped proposal, so independent of ρ — is below
 * {@link VbOptions#tolerance()} (default 1e-6).
 *
 * <p><b>Evidence and gradient.</b> {@link Posterior#logEvidence()} is the ELBO at the optimum and
 * {@link Posterior#logEvidenceGradient()} its partial derivative in θ at fixed (α, λ). By the envelope
 * theorem that equals the total derivative of max_{α,λ} ELBO(α, λ, θ), so an outer optimiser over θ
 * with this inner solve is equivalent to the joint L-BFGS-B optimisation of (α, λ, θ) used in the QP
 * paper (Zhang et al. 2020, §6), up to the inner tolerance. The gradient is formed from the final state
 * (its factor of B, g_m and g_v), with M rewritten through AΛAᵀ + RKR = R ({@code thetaGradient}): one
 * inverse from the factor and two n³ products, no refactorisation and no second pass of variational
 * expectations (the same partial derivative as the formula above, to roundoff: {@code VbGradientFormTest}).
 *
 * <p><b>Cost</b> (QP Table 1 VB trials, {@code bench/VbProfile}): per state one Cholesky of B, one
 * n × n triangular solve for diag Σ and n variational expectations (probit: Gauss–Hermite for √v ≤ 2, an
 * adaptive quadrature beyond, {@code Probit.variationalExpectation}); per evaluation the θ-gradient above;
 * warm-started evaluations take 1–17 states.
 */
public final class Vb {

  private static final double MIN_STEP = 1e-12;

  private Vb() {}

  /** VB from the prior (λ = 0, α = 0) with default options. */
  public static Posterior infer(Problem problem) {
    return infer(problem, VbOptions.defaults(), null);
  }

  /**
   * Maximises the ELBO over (α, λ) at the problem's fixed θ.
   *
   * @param warmStart sites to start from (τ̃ = λ ≥ 0, ν̃ = α + λ∘m; e.g. a previous run's
   *     {@link Posterior#sites()}), or null for the prior
   * @throws InferenceException on a non-finite ELBO, a positive ∂E/∂v, or a failed factorisation
   */
  public static Posterior infer(Problem problem, VbOptions options, Sites warmStart) {
    long t0 = System.nanoTime();
    int n = problem.size();
    if (warmStart != null && warmStart.size() != n) {
      throw new IllegalArgumentException(
          "warm start has " + warmStart.size() + " sites, problem has " + n);
    }
    Matrix k = problem.kernel().matrix(problem.x());
    double m0 = problem.priorMean();
    double[] tau = warmStart == null ? new double[n] : warmStart.tau();
    double[] nu = warmStart == null ? new double[n] : warmStart.nu();
    int iterations = 0;
    double jitter = 0;
    double change = Double.POSITIVE_INFINITY;
    boolean converged = false;
    String message = "";
    double rho = options.initialStep();
    int clipped = 0;
    java.util.List<Double> trace = new java.util.ArrayList<>();
    Anderson anderson =
        options.andersonMemory() > 0 ? new Anderson(options.andersonMemory()) : null;
    try {
      State s = State.of(problem, k, tau, nu, options.jitter());
      jitter = Math.max(jitter, s.approx.chol.jitter());
      requireFinite(s.elbo, "ELBO at the start", iterations, change, t0, jitter);
      while (true) {
        // fixed-point target: τ̃* = −2 g_v, ν̃* = g_m − 2 g_v ∘ m   (Khan & Lin 2017, eq. for
        // Gaussian sites)
        double[] tauT = new double[n];
        double[] nuT = new double[n];
        double ss = 0;
        clipped = 0;
        for (int i = 0; i < n; i++) {
          tauT[i] = -2 * s.gv[i];
          if (Double.isNaN(tauT[i])) {
            throw new InferenceException(
                "∂E/∂v is NaN at site " + i,
                diagnostics(iterations, false, change, t0, jitter, ""),
                null);
          }
          if (tauT[i] < 0) {
            // ∂E/∂v > 0 (likelihood not log-concave there): the site form needs λ ≥ 0, so the
            // target is
            // clipped to 0 as EP clips negative site precisions; a clip still active at the end
            // means
            // the result is not a stationary point of the ELBO and is reported as not converged
            tauT[i] = 0;
            clipped++;
          }
          nuT[i] = s.gm[i] + tauT[i] * s.approx.mu[i];
          double dt = tauT[i] - s.approx.tau[i];
          double dn = nuT[i] - s.approx.nu[i];
          ss += dt * dt + dn * dn;
        }
        change = Math.sqrt(ss / (2 * n));
        trace.add(change);
        requireFinite(change, "site change", iterations, change, t0, jitter);
        if (change < options.tolerance()) {
          converged = true;
          break;
        }
        if (iterations >= options.maxIterations()) {
          break;
        }
        iterations++;
        double[] x = concat(s.approx.tau, s.approx.nu);
        double[] f = new double[2 * n];
        for (int i = 0; i < n; i++) {
          f[i] = tauT[i] - x[i];
          f[n + i] = nuT[i] - x[n + i];
        }
        if (anderson != null) {
          double[] xa = anderson.next(x, f);
          if (xa != null && nonNegative(xa, n)) {
            State cand = tryState(problem, k, xa, n, options.jitter());
            if (cand != null && cand.elbo >= s.elbo - 1e-13 * (1 + Math.abs(s.elbo))) {
              jitter = Math.max(jitter, cand.approx.chol.jitter());
              s = cand;
              continue;
            }
            anderson.reset();
            if (iterations >= options.maxIterations()) {
              break;
            }
            iterations++;
          }
        }
        double[] tc = new double[n];
        double[] nc = new double[n];
        for (int i = 0; i < n; i++) {
          tc[i] = (1 - rho) * s.approx.tau[i] + rho * tauT[i];
          nc[i] = (1 - rho) * s.approx.nu[i] + rho * nuT[i];
        }
        State cand = State.of(problem, k, tc, nc, options.jitter());
        jitter = Math.max(jitter, cand.approx.chol.jitter());
        // accept unless the ELBO decreases beyond roundoff
        if (cand.elbo >= s.elbo - 1e-13 * (1 + Math.abs(s.elbo))) {
          s = cand;
          rho = Math.min(1.0, 2 * rho);
        } else {
          rho *= 0.5;
          if (rho < MIN_STEP) {
            message = "step size fell below " + MIN_STEP + " without increasing the ELBO";
            break;
          }
        }
      }
      double[] grad = null;
      if (options.gradient()) {
        grad = thetaGradient(problem, k, s);
        for (double g : grad) {
          requireFinite(g, "ELBO gradient", iterations, change, t0, jitter);
        }
      }
      if (clipped > 0) {
        converged = false;
        message =
            clipped + " site precision target(s) clipped at 0 (∂E/∂v > 0): not a stationary point";
      }
      return new Posterior(
          problem,
          s.approx,
          s.elbo,
          grad,
          new Diagnostics(
              "vb",
              iterations,
              converged,
              change,
              (System.nanoTime() - t0) * 1e-9,
              jitter,
              0,
              0,
              message,
              trace));
    } catch (InferenceException e) {
      throw e;
    } catch (NotPositiveDefiniteException e) {
      throw new InferenceException(
          "B = I + Λ^1/2 K Λ^1/2 could not be factored",
          diagnostics(iterations, false, change, t0, jitter, ""),
          e);
    } catch (ArithmeticException e) {
      // a variational expectation or a marginal failed numerically (e.g. a NumericalException)
      throw new InferenceException(
          e.getMessage() + " (after " + iterations + " iterations)",
          diagnostics(iterations, false, change, t0, jitter, ""),
          e);
    }
  }

  private static double[] concat(double[] a, double[] b) {
    double[] c = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, c, a.length, b.length);
    return c;
  }

  private static boolean nonNegative(double[] x, int n) {
    for (int i = 0; i < 2 * n; i++) {
      if (!Double.isFinite(x[i]) || (i < n && x[i] < 0)) {
        return false;
      }
    }
    return true;
  }

  /** The state at sites x = (τ̃, ν̃), or null when B cannot be factored or a marginal is unusable there. */
  private static State tryState(Problem problem, Matrix k, double[] x, int n, JitterPolicy jitter) {
    try {
      return State.of(
          problem,
          k,
          java.util.Arrays.copyOfRange(x, 0, n),
          java.util.Arrays.copyOfRange(x, n, 2 * n),
          jitter);
    } catch (ArithmeticException e) {
      // NotPositiveDefiniteException (B) or a NumericalException (a marginal)
      return null;
    }
  }

  private static Diagnostics diagnostics(
      int it, boolean converged, double change, long t0, double jitter, String msg) {
    return new Diagnostics(
        "vb", it, converged, change, (System.nanoTime() - t0) * 1e-9, jitter, 0, 0, msg);
  }

  private static void requireFinite(
      double v, String what, int it, double change, long t0, double jitter) {
    if (!Double.isFinite(v)) {
      throw new InferenceException(
          what + " is " + v, diagnostics(it, false, change, t0, jitter, ""), null);
    }
  }

  /** q at given sites with its ELBO and the variational-expectation derivatives. */
  private static final class State {
    final GaussianSiteApproximation approx;
    final double elbo;
    final double[] gm;
    final double[] gv;

    private State(GaussianSiteApproximation approx, double elbo, double[] gm, double[] gv) {
      this.approx = approx;
      this.elbo = elbo;
      this.gm = gm;
      this.gv = gv;
    }

    static State of(Problem problem, Matrix k, double[] tau, double[] nu, JitterPolicy jitter) {
      boolean prior = true;
      for (double t : tau) {
        prior &= t == 0;
      }
      // at τ̃ = 0 (a cold start) the general form's factorisation and solves are all over zeros
      GaussianSiteApproximation a = prior
          ? GaussianSiteApproximation.computeAtZeroPrecision(k, problem.priorMean(), tau, nu, false)
          : GaussianSiteApproximation.compute(k, problem.priorMean(), tau, nu, jitter, false);
      int n = a.n;
      double[] gm = new double[n];
      double[] gv = new double[n];
      double e = expectedLogLik(problem, a.mu, a.sigmaDiag, gm, gv);
      double elbo = e - kl(a.alpha, a.mu, problem.priorMean(), a.tau, a.sigmaDiag, a.chol);
      return new State(a, Double.isNaN(elbo) ? Double.NEGATIVE_INFINITY : elbo, gm, gv);
    }
  }

  /**
   * Σ E_{N(mᵢ, vᵢ)}[log p(yᵢ | fᵢ)]; fills g_m, g_v.
   *
   * @throws NumericalException if a marginal is not a usable Gaussian (non-finite, or a variance below 0)
   */
  static double expectedLogLik(Problem problem, double[] m, double[] v, double[] gm, double[] gv) {
    Likelihood lik = problem.likelihood();
    double s = 0;
    for (int i = 0; i < m.length; i++) {
      if (!Double.isFinite(m[i]) || !(v[i] >= 0) || !Double.isFinite(v[i])) {
        throw new NumericalException(
            "marginal N(" + m[i] + ", " + v[i] + ") of site " + i + " is not usable");
      }
      VariationalExpectation ve = lik.variationalExpectation(problem.y()[i], m[i], v[i]);
      s += ve.value();
      gm[i] = ve.dMean();
      gv[i] = ve.dVariance();
    }
    return s;
  }

  /**
   * KL(N(m, Σ) ‖ N(m₀, K)) = ½ [tr(K⁻¹Σ) + (m − m₀)ᵀK⁻¹(m − m₀) − n + log|K| − log|Σ|]
   * = ½ [αᵀKα − tr(RK) + log|B|], using K⁻¹Σ = I − RK, log|K|/|Σ| = log|I + KΛ| = log|B| and
   * tr(RK) = Σᵢ λᵢ Σᵢᵢ (from Σ(K⁻¹ + Λ) = I).
   */
  static double kl(
      double[] alpha, double[] mu, double m0, double[] lambda, double[] sigmaDiag, Cholesky cholB) {
    double quad = 0;
    double trRk = 0;
    for (int i = 0; i < alpha.length; i++) {
      quad += alpha[i] * (mu[i] - m0);
      trRk += lambda[i] * sigmaDiag[i];
    }
    return 0.5 * (quad - trRk + cholB.logDet());
  }

  /**
   * ∂ELBO/∂θ at fixed (α, λ) from the final state's factors: tr(∂K/∂θ · M) with
   * <pre>
   * M = sym(g_m αᵀ) − ½ ααᵀ − ½ R + A diag(δ) Aᵀ,   δ = g_v + ½ λ,   A = I − RK,
   * </pre>
   * the class comment's M = sym(g_m αᵀ) + A diag(g_v) Aᵀ − ½ ααᵀ − ½ RKR rewritten with the identity
   * A Λ Aᵀ + RKR = R. (Proof: ΛKR = S½(B − I)B⁻¹S½ = Λ − R, so AΛAᵀ = Λ − 2(Λ − R) + RKΛKR and
   * RKΛKR = RK(Λ − R) = Λ − R − RKR; the sum is R. This is the form of R&amp;W eq. 5.22/5.23, M = ½(ααᵀ − R),
   * at the stationary point δ = 0, g_m = α.) The factor of B and g_m, g_v are the state's, so nothing is
   * refactored and no variational expectation is recomputed; R = S½ B⁻¹ S½ comes from the Cholesky factor,
   * P = RK is one product and A diag(δ) Aᵀ = diag(δ) − P diag(δ) − diag(δ) Pᵀ + P diag(δ) Pᵀ one more
   * (about 4 n³ flops against the 9 n³ of forming K R K, RKR and A diag(g_v) Aᵀ directly).
   */
  private static double[] thetaGradient(Problem problem, Matrix k, State s) {
    GaussianSiteApproximation a = s.approx;
    int n = a.n;
    double[] alpha = a.alpha;
    // R = S½ B⁻¹ S½
    Matrix r = a.chol.inverse();
    r.scaleRowsCols(a.sw, a.sw);
    // P = R K;  P diag(δ);  P diag(δ) Pᵀ
    Matrix p = r.mult(k);
    double[] delta = new double[n];
    for (int i = 0; i < n; i++) {
      delta[i] = s.gv[i] + 0.5 * a.tau[i];
    }
    Matrix pd = p.copy();
    pd.scaleRowsCols(GaussianSiteApproximation.ones(n), delta);
    Matrix w = pd.multTransB(p);
    double[] wd = w.data();
    double[] rd = r.data();
    double[] pdd = pd.data();
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        wd[i * n + j] += 0.5 * (s.gm[i] * alpha[j] + alpha[i] * s.gm[j])
            - 0.5 * alpha[i] * alpha[j]
            - 0.5 * rd[i * n + j]
            - pdd[i * n + j]
            - pdd[j * n + i];
      }
      wd[i * n + i] += delta[i];
    }
    w.symmetrize(); // against roundoff (traceGradient expects a symmetric W)
    return problem.kernel().traceGradient(problem.x(), w);
  }

  /** The weights α of q at given sites and the θ-gradient {@link #infer} would return there. */
  record SiteGradient(double[] alpha, double[] gradTheta) {}

  /**
   * {@link #thetaGradient} at any sites τ̃ ≥ 0, ν̃ (not only at an optimum), with the state's α: a test hook for
   * comparing it with {@link #elbo}'s direct formula.
   */
  static SiteGradient thetaGradientAt(Problem problem, double[] tau, double[] nu) {
    Matrix k = problem.kernel().matrix(problem.x());
    State s = State.of(problem, k, tau, nu, JitterPolicy.none());
    return new SiteGradient(s.approx.alpha.clone(), thetaGradient(problem, k, s));
  }
}
