package org.approxgp.inference;

import org.approxgp.linalg.JitterPolicy;
import org.approxgp.linalg.Matrix;
import org.approxgp.linalg.NotPositiveDefiniteException;
import org.approxgp.likelihood.Likelihood;
import org.approxgp.likelihood.TiltedMoments;
import org.approxgp.projection.KlProjection;
import org.approxgp.projection.Projection;

/**
 * Expectation propagation for latent GP models, and — with a different {@link Projection} — every
 * member of its family (Quantile Propagation uses the W2 projection in this same loop).
 *
 * <p>References: T. Minka (2001); Rasmussen &amp; Williams (2006) §3.6, Alg. 3.5 (sequential EP in
 * the stable parameterisation) and eq. 3.65/3.73–3.74 (log evidence), eq. 5.27 (its gradient);
 * Zhang et al. (2020) §6 (stopping rule: RMS change of the site parameters &lt; 1e-6).
 *
 * <p>Notation as in GPML's {@code infEP.m}: τ̃, ν̃ site natural parameters; τ₋, ν₋ cavity natural
 * parameters; μ̂, σ̂² the projected tilted moments.
 *
 * <p><b>Negative site precisions.</b> The stable parameterisation needs τ̃ ≥ 0 (it takes √τ̃). A
 * projection whose variance exceeds the cavity's would ask for τ̃ &lt; 0; we then clip τ̃ to 0 and keep
 * the ν̃ of the unclipped update, as GPML does, and count the clip in
 * {@link Diagnostics#clippedSites()}. For log-concave likelihoods (probit, Gaussian) the tilted
 * variance never exceeds the cavity variance, so the clip never fires. A cavity with τ₋ ≤ 0 (possible
 * only after clipping) is not updated that sweep and counted in {@link Diagnostics#skippedSites()}.
 */
public final class Ep {

  /** Which site parameters an update sees. */
  public enum Schedule {
    /**
     * One site at a time, each from the marginals after the previous update (rank-one updates of Σ,
     * R&amp;W Alg. 3.5), Σ recomputed from scratch after each sweep. Fewer sweeps, robust without damping.
     */
    SEQUENTIAL,
    /** All sites from the same marginals, one Cholesky per sweep; may need damping to converge. */
    PARALLEL
  }

  /**
   * @param projection KL (EP) or W2 (QP) etc.
   * @param schedule sequential (default) or parallel
   * @param damping δ ∈ (0, 1]: new site = (1 − δ) old + δ proposed, in natural parameters (1 = none)
   * @param tolerance stop when the RMS change of the 2n site parameters over a sweep is below this
   * @param maxSweeps sweep cap; hitting it is reported as non-convergence, not an error
   * @param jitter Cholesky jitter policy for B (reported in the diagnostics)
   * @param gradient whether to compute ∂ log Z_EP / ∂θ
   */
  public record Options(Projection projection, Schedule schedule, double damping, double tolerance, int maxSweeps,
      JitterPolicy jitter, boolean gradient) {

    public Options {
      if (!(damping > 0 && damping <= 1)) {
        throw new IllegalArgumentException("damping must be in (0, 1], got " + damping);
      }
      if (!(tolerance > 0)) {
        throw new IllegalArgumentException("tolerance must be positive, got " + tolerance);
      }
      if (maxSweeps < 1) {
        throw new IllegalArgumentException("maxSweeps must be >= 1, got " + maxSweeps);
      }
    }

    /** KL projection, sequential, no damping, tolerance 1e-6 (QP paper §6), 1000 sweeps, gradient on. */
    public static Options defaults() {
      return new Options(KlProjection.get(), Schedule.SEQUENTIAL, 1.0, 1e-6, 1000, JitterPolicy.none(), true);
    }

    public Options withProjection(Projection p) {
      return new Options(p, schedule, damping, tolerance, maxSweeps, jitter, gradient);
    }

    public Options withSchedule(Schedule s) {
      return new Options(projection, s, damping, tolerance, maxSweeps, jitter, gradient);
    }

    public Options withDamping(double d) {
      return new Options(projection, schedule, d, tolerance, maxSweeps, jitter, gradient);
    }

    public Options withTolerance(double t) {
      return new Options(projection, schedule, damping, t, maxSweeps, jitter, gradient);
    }

    public Options withMaxSweeps(int m) {
      return new Options(projection, schedule, damping, tolerance, m, jitter, gradient);
    }

    public Options withGradient(boolean g) {
      return new Options(projection, schedule, damping, tolerance, maxSweeps, jitter, g);
    }

    public Options withJitter(JitterPolicy j) {
      return new Options(projection, schedule, damping, tolerance, maxSweeps, j, gradient);
    }
  }

  private Ep() {}

  /** EP from the prior (all sites zero) with default options. */
  public static Posterior infer(Problem problem) {
    return infer(problem, Options.defaults(), null);
  }

  /**
   * Runs the site loop to convergence.
   *
   * @param warmStart sites to start from (e.g. the previous optimiser step's), or null for the prior
   * @throws InferenceException if a non-finite value appears or B cannot be factored
   */
  public static Posterior infer(Problem problem, Options options, Sites warmStart) {
    long t0 = System.nanoTime();
    int n = problem.size();
    if (warmStart != null && warmStart.size() != n) {
      throw new IllegalArgumentException("warm start has " + warmStart.size() + " sites, problem has " + n);
    }
    String method = options.projection() instanceof KlProjection ? "ep" : "ep[" + options.projection().name() + "]";
    Matrix k = problem.kernel().matrix(problem.x());
    double[] tau = warmStart == null ? new double[n] : warmStart.tau();
    double[] nu = warmStart == null ? new double[n] : warmStart.nu();
    SweepCounters counters = new SweepCounters();
    int sweeps = 0;
    double change = Double.POSITIVE_INFINITY;
    boolean converged = false;
    GaussianSiteApproximation approx;
    try {
      boolean seq = options.schedule() == Schedule.SEQUENTIAL;
      approx = GaussianSiteApproximation.compute(k, problem.priorMean(), tau, nu, options.jitter(), seq);
      counters.noteJitter(approx.chol.jitter());
      while (sweeps < options.maxSweeps()) {
        Sites before = Sites.of(tau, nu);
        if (seq) {
          sequentialSweep(problem, options, approx, tau, nu, counters);
        } else {
          parallelSweep(problem, options, approx, tau, nu, counters);
        }
        sweeps++;
        approx = GaussianSiteApproximation.compute(k, problem.priorMean(), tau, nu, options.jitter(), seq);
        counters.noteJitter(approx.chol.jitter());
        change = before.rmsChange(Sites.of(tau, nu));
        if (!Double.isFinite(change)) {
          throw new InferenceException("non-finite site parameters after sweep " + sweeps,
              counters.diagnostics(method, sweeps, false, change, t0, ""), null);
        }
        if (change < options.tolerance()) {
          converged = true;
          break;
        }
      }
    } catch (NotPositiveDefiniteException e) {
      throw new InferenceException("B = I + S^1/2 K S^1/2 could not be factored",
          counters.diagnostics(method, sweeps, false, change, t0, ""), e);
    }
    double logZ = logEvidence(problem, options.projection(), approx);
    double[] grad = options.gradient() ? gradient(problem, approx) : null;
    if (!Double.isFinite(logZ)) {
      throw new InferenceException("log evidence is " + logZ, counters.diagnostics(method, sweeps, converged, change, t0, ""), null);
    }
    return new Posterior(problem, approx, logZ, grad, counters.diagnostics(method, sweeps, converged, change, t0, ""));
  }

  /** Mutable per-run counters (confined to one call). */
  private static final class SweepCounters {
    int clipped;
    int skipped;
    double jitter;

    void noteJitter(double j) {
      jitter = Math.max(jitter, j);
    }

    Diagnostics diagnostics(String method, int sweeps, boolean converged, double change, long t0, String msg) {
      return new Diagnostics(method, sweeps, converged, change, (System.nanoTime() - t0) * 1e-9, jitter, clipped,
          skipped, msg);
    }
  }

  /**
   * One site update from cavity (τ₋, ν₋): returns {τ̃_new, ν̃_new} after projection, clipping and
   * damping, or null when the cavity is improper and the site is skipped.
   */
  private static double[] siteUpdate(Problem problem, Options options, int i, double tauCav, double nuCav,
      double tauOld, double nuOld, SweepCounters counters) {
    if (!(tauCav > 0)) {
      counters.skipped++;
      return null;
    }
    double m = nuCav / tauCav;
    double v = 1.0 / tauCav;
    TiltedMoments t = options.projection().project(problem.likelihood(), problem.y()[i], m, v);
    // site = projection / cavity in natural parameters: τ̃ = 1/σ̂² − τ₋, ν̃ = μ̂/σ̂² − ν₋
    double tauNew = 1.0 / t.variance() - tauCav;
    double nuNew = t.mean() / t.variance() - nuCav;
    if (tauNew < 0) {
      tauNew = 0;
      counters.clipped++;
    }
    double d = options.damping();
    if (d < 1) {
      tauNew = (1 - d) * tauOld + d * tauNew;
      nuNew = (1 - d) * nuOld + d * nuNew;
    }
    return new double[] {tauNew, nuNew};
  }

  /** R&amp;W Alg. 3.5 lines 4–8: sequential updates with rank-one downdates of Σ. Modifies τ̃, ν̃. */
  private static void sequentialSweep(Problem problem, Options options, GaussianSiteApproximation approx, double[] tau,
      double[] nu, SweepCounters counters) {
    int n = tau.length;
    // Σ is symmetric: only its lower triangle is read and updated below (half the work of a full
    // rank-one update); column i is row i up to the diagonal and column i below it.
    double[] sd = approx.sigma.data().clone();
    double[] mu = approx.mu.clone();
    double[] s = new double[n];
    for (int i = 0; i < n; i++) {
      double sii = sd[i * n + i];
      double tauCav = 1.0 / sii - tau[i];
      double nuCav = mu[i] / sii - nu[i];
      double[] upd = siteUpdate(problem, options, i, tauCav, nuCav, tau[i], nu[i], counters);
      if (upd == null) {
        continue;
      }
      double dtau = upd[0] - tau[i];
      double dnu = upd[1] - nu[i];
      tau[i] = upd[0];
      nu[i] = upd[1];
      if (dtau == 0 && dnu == 0) {
        continue;
      }
      // Σ ← Σ − c s sᵀ with s = Σ_{:,i}, c = Δτ/(1 + Δτ Σᵢᵢ)   (R&W eq. 3.70)
      // μ ← μ + s [Δν − c (μᵢ + Δν Σᵢᵢ)]                        (μ = Σ ν̃ after both changes)
      System.arraycopy(sd, i * n, s, 0, i + 1);
      for (int j = i + 1; j < n; j++) {
        s[j] = sd[j * n + i];
      }
      double c = dtau / (1 + dtau * sii);
      double a = dnu - c * (mu[i] + dnu * sii);
      for (int j = 0; j < n; j++) {
        mu[j] += a * s[j];
      }
      if (c != 0) {
        for (int r = 0; r < n; r++) {
          double cs = c * s[r];
          if (cs == 0) {
            continue;
          }
          int o = r * n;
          for (int j = 0; j <= r; j++) {
            sd[o + j] -= cs * s[j];
          }
        }
      }
    }
  }

  /** All sites from the current marginals. Modifies τ̃, ν̃. */
  private static void parallelSweep(Problem problem, Options options, GaussianSiteApproximation approx, double[] tau,
      double[] nu, SweepCounters counters) {
    double[][] cav = approx.cavities();
    for (int i = 0; i < tau.length; i++) {
      double[] upd = siteUpdate(problem, options, i, cav[0][i], cav[1][i], tau[i], nu[i], counters);
      if (upd != null) {
        tau[i] = upd[0];
        nu[i] = upd[1];
      }
    }
  }

  /**
   * log Z_EP (R&amp;W eq. 3.65 rewritten stably as in §3.6, eq. 3.73–3.74; the derivation is in
   * {@code docs}/the package notes): with cavity (τ₋, ν₋) from the final posterior,
   * <pre>
   * log Z_EP = Σ log Ẑᵢ − Σ log Lᵢᵢ + ½ Σ log(1 + τ̃ᵢ/τ₋ᵢ) + ½ ν̃ᵀΣν̃
   *          + ½ Σ [ν₋ᵢ² τ̃ᵢ/(τ₋ᵢ(τ₋ᵢ + τ̃ᵢ)) − (2ν₋ᵢν̃ᵢ + ν̃ᵢ²)/(τ₋ᵢ + τ̃ᵢ)]
   * </pre>
   * with ν̃, ν₋ taken relative to the prior mean (ν − τ m₀). Ẑᵢ is the tilted normaliser, whatever
   * the projection (QP paper eq. 2 evaluated at the projection's sites).
   */
  static double logEvidence(Problem problem, Projection projection, GaussianSiteApproximation a) {
    int n = a.n;
    double m0 = a.priorMean;
    Likelihood lik = problem.likelihood();
    double[][] cav = a.cavities();
    double[] nuc = new double[n];
    for (int i = 0; i < n; i++) {
      nuc[i] = a.nu[i] - a.tau[i] * m0;
    }
    // ν̃cᵀ Σ ν̃c = ν̃cᵀ (μ − m₀) since μ − m₀ = Σ ν̃c
    double quad = 0;
    for (int i = 0; i < n; i++) {
      quad += nuc[i] * (a.mu[i] - m0);
    }
    double s = 0.5 * quad - 0.5 * a.chol.logDet();
    for (int i = 0; i < n; i++) {
      double tc = cav[0][i];
      double nc = cav[1][i] - tc * m0;
      double tt = a.tau[i];
      double nt = nuc[i];
      double logZi = lik.tilted(problem.y()[i], cav[1][i] / tc, 1.0 / tc).logZ();
      s += logZi + 0.5 * Math.log1p(tt / tc)
          + 0.5 * (nc * nc * tt / (tc * (tc + tt)) - (2 * nc * nt + nt * nt) / (tc + tt));
    }
    return s;
  }

  /**
   * ∂ log Z_EP / ∂θⱼ = ½ tr((bbᵀ − R) ∂K/∂θⱼ), b = α, R = S̃½ B⁻¹ S̃½ (R&amp;W eq. 5.27), valid at a fixed
   * point of the site updates.
   */
  static double[] gradient(Problem problem, GaussianSiteApproximation a) {
    Matrix w = a.rMatrix();
    w.scale(-0.5);
    w.addRank1(0.5, a.alpha);
    return problem.kernel().traceGradient(problem.x(), w);
  }
}
