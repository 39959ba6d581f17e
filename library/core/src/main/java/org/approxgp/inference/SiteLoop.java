package org.approxgp.inference;

import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.JitterPolicy;
import org.approxgp.linalg.Matrix;
import org.approxgp.linalg.NotPositiveDefiniteException;
import org.approxgp.linalg.SymmetricUpdates;

/**
 * The one site loop of the EP family (EP, QP, Lp; Power EP and Relaxed EP enter the same way), driving
 * a {@link SiteUpdate}: sweeps over the sites (sequential with rank-one updates of Σ, or parallel),
 * damping, the negative-site-precision policy, the stopping rule, a convergence trace, and the log
 * evidence with its gradient from a posterior computed afresh from the final sites.
 *
 * <p>References: T. Minka (2001); Rasmussen &amp; Williams (2006) §3.6, Alg. 3.5 (sequential EP in the
 * stable parameterisation), eq. 3.65/3.73–3.74 (log evidence), eq. 5.27 (its gradient); Zhang et al.
 * (2020) §6 (stopping rule: RMS change of the site parameters &lt; 1e-6).
 *
 * <p><b>Negative site precisions.</b> The stable parameterisation needs τ̃ ≥ 0 (it takes √τ̃). A proposed
 * site with τ̃ &lt; 0 (a projection whose variance exceeds the cavity's) is handled by
 * {@link SiteLoopOptions#negativeSites()}: {@link NegativeSitePrecision#CLIP} (default) sets τ̃ = 0 and keeps the
 * ν̃ of the unclipped update, as GPML does, and counts the clip in {@link Diagnostics#clippedSites()}.
 * For log-concave likelihoods (probit, Gaussian) the tilted variance never exceeds the cavity variance,
 * so the clip never fires. A cavity with τ₋ ≤ 0 (possible only with negative or clipped sites elsewhere) is
 * not updated that sweep and counted in {@link Diagnostics#skippedSites()}. Such a site is frozen, not at its
 * fixed point: a run whose last sweep skipped sites and changed the others by less than the tolerance stops
 * as not converged (diverged, with a message saying how many were frozen) rather than reporting convergence.
 *
 * <p><b>Step limit</b> ({@link NegativeSitePrecision#KEEP}, sequential schedule). A site change Δτ &lt; 0 with
 * 1 + Δτ Σᵢᵢ ≤ 0 would make the new marginal variance Σᵢᵢ/(1 + Δτ Σᵢᵢ) (R&amp;W eq. 3.70) non-positive, i.e. Σ
 * indefinite. Such a step is shortened along its own direction, (Δτ, Δν) ← f (Δτ, Δν) with
 * f = ½/(−Δτ Σᵢᵢ) &lt; 1, to the point where the marginal variance doubles: a damping of that one site's
 * step, the usual remedy for updates that would leave the approximation improper (Minka 2001, Ch. 3, damps or
 * skips them). It changes the path, never the fixed points (a fixed point has Δτ = Δν = 0). Each shortened
 * step is counted in {@link Diagnostics#limitedSteps()}.
 *
 * <p><b>Failures.</b> Every numerical failure — a projection or likelihood that throws an
 * {@link ArithmeticException} (e.g. {@link org.approxgp.special.NumericalException}), a non-finite
 * cavity or proposed site, a factorisation of B that fails, a non-finite evidence or gradient — leaves
 * as an {@link InferenceException} carrying the diagnostics so far, its message naming the sweep and
 * the site. Non-convergence within the sweep cap is not a failure; it is reported in the diagnostics.
 */
public final class SiteLoop {

  /** Which site parameters an update sees (the loop's schedule). */
  public enum Schedule {
    /**
     * One site at a time, each from the marginals after the previous update (rank-one updates of Σ,
     * R&amp;W Alg. 3.5). Σ and μ are carried from sweep to sweep by those updates and the posterior is
     * computed from the sites from scratch once, after the last sweep, for the evidence, gradient and
     * predictions (GPML's {@code infEP} recomputes after every sweep; the carried Σ drifts from it by
     * rounding only, and the EP regression pins hold the results to the recompute-every-sweep values to
     * 1e-12 relative). Fewer sweeps, robust without damping.
     */
    SEQUENTIAL,
    /** All sites from the same marginals, one Cholesky per sweep; may need damping to converge. */
    PARALLEL
  }

  /** What to do with a proposed site whose precision τ̃ is negative. */
  public enum NegativeSitePrecision {
    /**
     * τ̃ ← 0, ν̃ kept (GPML's {@code infEP}); counted in {@link Diagnostics#clippedSites()}. The
     * posterior is formed in the √τ̃ form of R&amp;W §3.6 (B = I + S̃½ K S̃½).
     */
    CLIP,
    /**
     * τ̃ &lt; 0 kept (Minka 2001's EP). The posterior is formed without √τ̃: K = L Lᵀ (factored once per
     * run with the options' jitter policy, or {@link JitterPolicy#standard()} when that allows none; the
     * jitter is reported), B = I + Lᵀ S̃ L, Σ = L B⁻¹ Lᵀ ({@code GaussianSiteApproximation.computeKeep}).
     * B is positive definite exactly when Σ is; a posterior that is not (B fails to factor) is an
     * {@link InferenceException} saying so, with the diagnostics so far. In the sequential schedule a site
     * update that would make its own marginal variance non-positive is shortened instead (class comment,
     * "Step limit").
     */
    KEEP
  }

  private SiteLoop() {}

  /**
   * Runs the site loop to convergence (or the sweep cap).
   *
   * @param update the site rule; its {@link SiteUpdate#start} state is created here and confined to this call
   * @param warmStart sites to start from (τ̃ ≥ 0; e.g. the previous optimiser step's), or null for the prior
   * @throws InferenceException on any numerical failure (see the class comment)
   */
  public static <S> Posterior run(
      Problem problem, SiteUpdate<S> update, SiteLoopOptions options, Sites warmStart) {
    long t0 = System.nanoTime();
    int n = problem.size();
    if (warmStart != null && warmStart.size() != n) {
      throw new IllegalArgumentException(
          "warm start has " + warmStart.size() + " sites, problem has " + n);
    }
    LoopRun run = new LoopRun(update.name(), t0);
    Matrix k = problem.kernel().matrix(problem.x());
    double[] tau = warmStart == null ? new double[n] : warmStart.tau();
    double[] nu = warmStart == null ? new double[n] : warmStart.nu();
    S state = update.start(problem);
    boolean converged = false;
    GaussianSiteApproximation approx;
    double logZ;
    double[] grad;
    boolean keep = options.negativeSites() == NegativeSitePrecision.KEEP;
    run.keep = keep;
    SymmetricUpdates sigma = null;
    try {
      boolean seq = options.schedule() == Schedule.SEQUENTIAL;
      Cholesky kChol = null;
      if (keep) {
        JitterPolicy jp =
            options.jitter().maxTries() > 0 ? options.jitter() : JitterPolicy.standard();
        kChol = Cholesky.factor(k, jp);
        run.noteJitter(kChol.jitter());
      }
      approx = posterior(k, kChol, problem.priorMean(), tau, nu, options, seq, run);
      // sequential: Σ and μ carried from sweep to sweep by the rank-one updates (Sweeps.sequential)
      sigma = seq ? SymmetricUpdates.of(approx.sigma) : null;
      double[] mu = approx.mu.clone();
      double[] alphaPrev = approx.alpha;
      while (run.sweeps < options.maxSweeps()) {
        Sites before = Sites.of(tau, nu);
        int skippedBefore = run.skipped;
        if (seq) {
          Sweeps.sequential(problem, update, state, options, sigma, mu, tau, nu, run);
        } else {
          Sweeps.parallel(problem, update, state, options, approx, tau, nu, run);
        }
        run.endSweep(before, tau, nu);
        double[] alpha;
        if (seq) {
          alpha = alphaOfMean(tau, nu, mu);
        } else {
          approx = posterior(k, kChol, problem.priorMean(), tau, nu, options, false, run);
          alpha = approx.alpha;
        }
        run.alphaTrace.add(LoopRun.distance(alpha, alphaPrev));
        alphaPrev = alpha;
        LoopRun.Verdict verdict = run.verdict(options, skippedBefore);
        if (verdict != LoopRun.Verdict.CONTINUE) {
          converged = verdict == LoopRun.Verdict.CONVERGED;
          break;
        }
      }
      if (sigma != null) {
        sigma.close(); // native memory, freed now rather than at a garbage collection
      }
      if (seq && run.sweeps > 0) {
        // the evidence, gradient and predictions from a posterior computed afresh from the final
        // sites
        // (no accumulated rounding of the rank-one updates); they read only the diagonal of Σ
        run.site = -1;
        approx = posterior(k, kChol, problem.priorMean(), tau, nu, options, false, run);
      }
      run.finish(converged, options);
      run.relaxed = update.relaxedSites(state);
      try {
        logZ = logEvidence(problem, update, state, approx, run);
      } catch (ArithmeticException e) {
        if (options.requireEvidence()) {
          throw e;
        }
        logZ = Double.NaN; // an improper cavity at the final posterior: undefined, and not needed
      }
      run.site = -1;
      if (!Double.isFinite(logZ)) {
        if (options.requireEvidence()) {
          throw new InferenceException("log evidence is " + logZ, run.diagnostics(converged), null);
        }
        logZ = Double.NaN; // undefined, and not needed: the posterior itself is proper
      }
      grad = options.gradient() ? gradient(problem, approx) : null;
      if (grad != null) {
        for (double g : grad) {
          if (!Double.isFinite(g)) {
            throw new InferenceException(
                "non-finite log-evidence gradient", run.diagnostics(converged), null);
          }
        }
      }
    } catch (InferenceException e) {
      throw e;
    } catch (NotPositiveDefiniteException e) {
      if (keep) {
        throw new InferenceException(
            (!run.factoredK
                    ? "K could not be factored (KEEP policy)"
                    : "the posterior covariance is not positive definite"
                        + " (B = I + L^T S L could not be factored; negative site precisions kept)")
                + run.where(),
            run.diagnostics(false),
            e);
      }
      throw new InferenceException(
          "B = I + S^1/2 K S^1/2 could not be factored" + run.where(), run.diagnostics(false), e);
    } catch (ArithmeticException e) {
      throw new InferenceException(e.getMessage() + run.where(), run.diagnostics(false), e);
    } finally {
      if (sigma != null) {
        sigma.close();
      }
    }
    return new Posterior(problem, approx, logZ, grad, run.diagnostics(converged));
  }

  /** The posterior from the sites in the policy's parameterisation; notes the jitter. */
  private static GaussianSiteApproximation posterior(
      Matrix k,
      Cholesky kChol,
      double m0,
      double[] tau,
      double[] nu,
      SiteLoopOptions options,
      boolean fullSigma,
      LoopRun run) {
    GaussianSiteApproximation a;
    if (kChol != null) {
      run.factoredK = true;
      a = GaussianSiteApproximation.computeKeep(k, kChol, m0, tau, nu, fullSigma);
    } else if (allZero(tau)) {
      // the prior with site means only (a cold start): B = I, nothing to factor
      a = GaussianSiteApproximation.computeAtZeroPrecision(k, m0, tau, nu, fullSigma);
    } else {
      a = GaussianSiteApproximation.compute(k, m0, tau, nu, options.jitter(), fullSigma);
    }
    run.noteJitter(a.chol.jitter());
    return a;
  }

  /**
   * α = K⁻¹(μ − m₀) = ν̃ − S̃ μ: since Σ⁻¹ = K⁻¹ + S̃ and Σ⁻¹(μ − m₀) = ν̃ − τ̃ m₀ (R&amp;W eq. 3.53 with the
   * prior mean removed), K⁻¹(μ − m₀) = ν̃ − τ̃ m₀ − S̃(μ − m₀). The predictive-mean weights of {@link
   * GaussianSiteApproximation} from the marginal means alone, for any sign of τ̃.
   */
  private static double[] alphaOfMean(double[] tau, double[] nu, double[] mu) {
    double[] alpha = new double[mu.length];
    for (int i = 0; i < mu.length; i++) {
      alpha[i] = nu[i] - tau[i] * mu[i];
    }
    return alpha;
  }

  private static boolean allZero(double[] a) {
    for (double v : a) {
      if (v != 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * log Z = log ∫ p Πᵢ t̃ᵢ + Σᵢ log sᵢ (R&amp;W eq. 3.65 in the stable form of §3.6): with the sites written about
   * the prior mean m₀ (ν̃ relative to it, ν̃ − τ̃ m₀), the Gaussian part is
   * <pre>
   * log ∫ N(f | m₀, K) Πᵢ t̃ᵢ(fᵢ) df = − Σ log Lᵢᵢ + ½ ν̃ᵀΣν̃
   * </pre>
   * (log|B| = 2 Σ log Lᵢᵢ, eq. 3.73's ½ log|K + S̃⁻¹| with the Gaussian site normalisers taken into the
   * scales), and log sᵢ comes from {@link SiteUpdate#logScale} (for moment matching log Ẑᵢ plus eq. 3.74's
   * cavity terms).
   */
  private static <S> double logEvidence(
      Problem problem, SiteUpdate<S> update, S state, GaussianSiteApproximation a, LoopRun run) {
    run.evidence = true;
    int n = a.n;
    double m0 = a.priorMean;
    // ν̃cᵀ Σ ν̃c = ν̃cᵀ (μ − m₀) since μ − m₀ = Σ ν̃c, ν̃c = ν̃ − τ̃ m₀
    double quad = 0;
    for (int i = 0; i < n; i++) {
      quad += (a.nu[i] - a.tau[i] * m0) * (a.mu[i] - m0);
    }
    double s = 0.5 * quad - 0.5 * a.chol.logDet();
    for (int i = 0; i < n; i++) {
      run.site = i;
      s += update.logScale(state, problem, i, a.mu[i], a.sigmaDiag[i], a.tau[i], a.nu[i]);
    }
    return s;
  }

  /**
   * ∂ log Z_EP / ∂θⱼ = ½ tr((bbᵀ − R) ∂K/∂θⱼ), b = α, R = S̃½ B⁻¹ S̃½ (R&amp;W eq. 5.27), valid at a fixed
   * point of the EP site updates (at another rule's fixed point it is the partial derivative with the
   * sites held fixed).
   */
  static double[] gradient(Problem problem, GaussianSiteApproximation a) {
    Matrix w = a.rMatrix();
    w.scale(-0.5);
    w.addRank1(0.5, a.alpha);
    return problem.kernel().traceGradient(problem.x(), w, a.k);
  }
}
