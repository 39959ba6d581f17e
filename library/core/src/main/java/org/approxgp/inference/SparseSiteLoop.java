package org.approxgp.inference;

import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.JitterPolicy;
import org.approxgp.linalg.Matrix;
import org.approxgp.linalg.NotPositiveDefiniteException;
import org.approxgp.projection.KlProjection;

/**
 * The site loop of the EP family on inducing points: inducing-point EP (FITC-EP), QP and Power EP in the Power-EP
 * framework of Bui, Yan &amp; Turner (JMLR 18(104), 2017, §3): q(f) ∝ p(f) Πₙ tₙ(u), u = f(Z), each site a Gaussian
 * in gₙ = E[fₙ | u]. α = 1 is FITC-EP, α → 0 the variational (VFE/SVGP) solution and bound, and with
 * Z = X every method is its exact counterpart of {@link SiteLoop}. Each method is the exact method's own
 * {@link SiteUpdate} (EP: {@link MomentMatching#ep()}; QP: {@link MomentMatching#qp}; Power EP:
 * {@link PowerEp#of(double)}), applied to the 1-D cavity of fₙ by {@link SparseSiteUpdate}; the damping,
 * negative-site policy and failure contract are {@link SiteLoop}'s ({@link Sweeps#siteUpdate} is shared). Derivation:
 * {@code docs/derivations/sparse-power-ep.md}.
 *
 * <p><b>Representation.</b> O(nM + M²) memory: the rows aₙ = L_uu⁻¹ kᵤₙ (n × M), the FITC conditional variances
 * dₙ = kₙₙ − ‖aₙ‖² (clamped at 0 against rounding), the sites (τ̃ₙ, ν̃ₙ), and q(v) = N(m, S) in the whitened
 * coordinates v = L_uu⁻¹(u − m₀) ({@link SparseApproximation}). K_uu is factored once per run with the options'
 * jitter policy, or {@link JitterPolicy#standard()} when that allows none (reported in the diagnostics' jitter).
 *
 * <p><b>Schedules.</b> Sequential (default): one site at a time, each from q(gₙ) = N(m₀ + aₙᵀm, aₙᵀSaₙ) after the
 * previous update; a site change (Δτ, Δν) is the rank-one change of the M × M posterior
 * <pre>
 * S ← S − c s sᵀ,  m ← m + s [(Δν − Δτ m₀)/(1 + Δτ V) − c aₙᵀm],  s = S aₙ, V = aₙᵀs, c = Δτ/(1 + Δτ V)
 * </pre>
 * (Sherman–Morrison on S⁻¹ + Δτ aₙaₙᵀ; R&amp;W eq. 3.70 in M dimensions), O(M²) per site, O(nM²) per sweep. S and m
 * are recomputed from the sites after every sweep (O(nM²), the cost of a sweep), as GPML's {@code infEP} does, so
 * rounding of the rank-one updates does not accumulate over sweeps. Parallel: every site from the marginals at the
 * start of the sweep, then one recompute; damping is usually needed. Damping δ mixes old and proposed sites in
 * natural parameters, (1 − δ) old + δ proposed, as in {@link SiteLoop}.
 *
 * <p><b>Block-parallel form</b> (the parallel schedule). The n rows are cut into fixed blocks of
 * {@link SparseApproximation#BLOCK} rows ({@link SiteBlock}); each block holds its rows aₙ and dₙ, and per sweep,
 * given q(v) = N(m, B⁻¹), computes its marginals, updates its sites and returns its terms Σ τ̃ₙ aₙaₙᵀ and
 * Σ (ν̃ₙ − τ̃ₙ m₀) aₙ of the next q(v); the loop adds the terms in block order and factors B = I + Σ. The log
 * evidence's sums are formed the same way. Where the blocks live ({@link SiteBlocks}: this JVM, or Spark) does not
 * change a bit of the result. The evidence gradient ({@link SparseGradient}) comes the same way: the blocks' sums
 * Aᵀγ_m, A Γ_V Aᵀ, A Γ_d Aᵀ and their ∂θ through kₙₙ, then, given X̃, their terms through K_uf.
 *
 * <p><b>Log evidence</b> (Bui et al. §3, the Power-EP energy): log Z = log ∫ p(u) Πₙ t̃ₙ(gₙ) du + Σₙ log sₙ with the
 * Gaussian part −Σ log (L_B)ᵢᵢ + ½ Σₙ (ν̃ₙ − τ̃ₙ m₀)(m_gₙ − m₀) (B = I + Σ τ̃ₙ aₙaₙᵀ) and the scales
 * {@link SparseSiteUpdate#logScale}. Its gradient in the kernel's log-hyperparameters and in the inducing inputs
 * ({@link SparseGradient}, with {@link SiteLoopOptions#gradient()}) is exact at a fixed point of EP or Power EP where no
 * site is clipped (as the exact loop's eq. 5.27); for QP it is refused (its fixed point is not a stationary point of
 * the energy, as in the exact case, {@link Qp}).
 */
public final class SparseSiteLoop {

  private SparseSiteLoop() {}

  /**
   * Runs the sparse site loop to convergence (or the sweep cap) at fixed hyperparameters and inducing inputs.
   *
   * @param rule the exact method's site rule: {@link MomentMatching} (EP, QP, Lp) or {@link PowerEp} (Minka's variant)
   * @param options the loop's settings ({@link SiteLoopOptions#gradient()} only for EP and Power EP)
   * @param warmStart sites on gₙ to start from, or null for the prior
   * @throws InferenceException on a numerical failure (as {@link SiteLoop})
   * @throws IllegalArgumentException for a rule with no sparse form, a gradient request, or a warm start of the wrong
   *     size
   */
  public static <S> SparsePosterior run(
      SparseProblem sparse, SiteUpdate<S> rule, SiteLoopOptions options, Sites warmStart) {
    return run(sparse, rule, options, warmStart, null);
  }

  /**
   * {@link #run(SparseProblem, SiteUpdate, SiteLoopOptions, Sites)} with the parallel schedule's blocks of training
   * rows held and run by {@code blocks} ({@link SiteBlock}; class comment, "Block-parallel form"): the same bits for
   * every {@link SiteBlocks} on the same JDK and BLAS.
   *
   * @param blocks where the parallel schedule's blocks run; null: {@link SiteBlocks#local()} (and the only value for
   *     the sequential schedule)
   * @throws IllegalArgumentException also for blocks with the sequential schedule (blocks run only the parallel
   *     one)
   */
  public static <S> SparsePosterior run(
      SparseProblem sparse,
      SiteUpdate<S> rule,
      SiteLoopOptions options,
      Sites warmStart,
      SiteBlocks blocks) {
    long t0 = System.nanoTime();
    if (options.gradient()
        && !(rule instanceof PowerEp)
        && !(rule instanceof MomentMatching mm && mm.projection() instanceof KlProjection)) {
      throw new IllegalArgumentException(
          "the sparse evidence gradient holds at a fixed point of a KL rule (EP,"
              + " Power EP); " + rule.name()
              + "'s fixed point is not stationary for the energy: run it with"
              + " withGradient(false)");
    }
    boolean seq = options.schedule() == SiteLoop.Schedule.SEQUENTIAL;
    if (seq && blocks != null) {
      throw new IllegalArgumentException(
          "site blocks run the parallel schedule; this run's schedule is sequential");
    }
    Problem problem = sparse.problem();
    int n = problem.size();
    int mInd = sparse.inducing();
    if (warmStart != null && warmStart.size() != n) {
      throw new IllegalArgumentException(
          "warm start has " + warmStart.size() + " sites, problem has " + n);
    }
    double[][] z = sparse.z();
    double[] d = new double[n];
    SparseSiteUpdate<S> update = SparseSiteUpdate.of(rule, d);
    LoopRun run = new LoopRun(update.name(), t0);
    boolean keep = options.negativeSites() == SiteLoop.NegativeSitePrecision.KEEP;
    run.keep = keep;
    double[] tau = warmStart == null ? new double[n] : warmStart.tau();
    double[] nu = warmStart == null ? new double[n] : warmStart.nu();
    boolean converged = false;
    SparseApproximation approx;
    Cholesky kuu;
    double logZ;
    SparseGradient.Result grad = null;
    try {
      JitterPolicy jp =
          options.jitter().maxTries() > 0 ? options.jitter() : JitterPolicy.standard();
      kuu = Cholesky.factor(problem.kernel().matrix(z), jp);
      run.factoredK = true; // from here on a failed factorisation is B's
      run.noteJitter(kuu.jitter());
      if (!seq) {
        Blocked out = blocked(
            problem,
            z,
            kuu,
            rule,
            options,
            tau,
            nu,
            blocks == null ? SiteBlocks.local() : blocks,
            run);
        approx = out.approx;
        converged = out.converged;
        logZ = out.logZ;
        grad = out.grad;
        System.arraycopy(out.d, 0, d, 0, n);
      } else {
        double[] rows = rows(problem, z, kuu, d);
        S state = update.start(problem);
        approx = posterior(n, mInd, problem.priorMean(), rows, tau, nu, options, run);
        while (run.sweeps < options.maxSweeps()) {
          Sites before = Sites.of(tau, nu);
          int skippedBefore = run.skipped;
          sequential(problem, update, state, options, approx, tau, nu, run);
          run.endSweep(before, tau, nu);
          // recompute q(v) from the sites (class comment)
          approx = posterior(n, mInd, problem.priorMean(), rows, tau, nu, options, run);
          LoopRun.Verdict verdict = run.verdict(options, skippedBefore);
          if (verdict != LoopRun.Verdict.CONTINUE) {
            converged = verdict == LoopRun.Verdict.CONVERGED;
            break;
          }
        }
        approx.marginals();
        run.relaxed = update.relaxedSites(state);
        try {
          logZ = logEvidence(problem, update, state, approx, run);
        } catch (ArithmeticException e) {
          if (options.requireEvidence()) {
            throw e;
          }
          logZ = Double.NaN;
        }
      }
      run.site = -1;
      if (!Double.isFinite(logZ)) {
        if (options.requireEvidence()) {
          throw new InferenceException("log evidence is " + logZ, run.diagnostics(converged), null);
        }
        logZ = Double.NaN;
      }
      if (options.gradient()) {
        if (seq) {
          grad = SparseGradient.of(problem, z, kuu, approx, d, update.power());
        }
        boolean finite = true;
        for (double g : grad.theta()) {
          finite &= Double.isFinite(g);
        }
        for (double[] row : grad.inducing()) {
          for (double g : row) {
            finite &= Double.isFinite(g);
          }
        }
        if (!finite) {
          throw new InferenceException(
              "non-finite log-evidence gradient", run.diagnostics(converged), null);
        }
      }
    } catch (InferenceException e) {
      throw e;
    } catch (NotPositiveDefiniteException e) {
      throw new InferenceException(
          (!run.factoredK
                  ? "K_uu could not be factored even with jitter " + e.lastJitter()
                  : "B = I + A^T S A could not be factored (the posterior of u is not positive definite)")
              + run.where(),
          run.diagnostics(false),
          e);
    } catch (ArithmeticException e) {
      throw new InferenceException(e.getMessage() + run.where(), run.diagnostics(false), e);
    }
    return new SparsePosterior(
        sparse, kuu, approx, d, logZ, grad, update.power(), run.diagnostics(converged));
  }

  /**
   * aₙ = L_uu⁻¹ kᵤₙ as rows (n × M) and dₙ = kₙₙ − ‖aₙ‖² ≥ 0 into {@code d}. Block by block of
   * {@link SparseApproximation#BLOCK} rows: K_u,block (M × b, the kernel's cross matrix, symmetric in its arguments)
   * is solved in place by one triangular solve with a matrix right-hand side (BLAS dtrsm) and transposed into the
   * rows, so the only n × M array is the result.
   */
  private static double[] rows(Problem problem, double[][] z, Cholesky kuu, double[] d) {
    double[][] x = problem.x();
    int n = x.length;
    int m = z.length;
    double[] kd = problem.kernel().diagonal(x);
    double[] rows = new double[Math.multiplyExact(n, m)];
    for (int from = 0; from < n; from += SparseApproximation.BLOCK) {
      int b = Math.min(SparseApproximation.BLOCK, n - from);
      Matrix kub = problem.kernel().cross(z, Arrays.copyOfRange(x, from, from + b)); // M × b
      kuu.solveLowerInPlace(kub);
      double[] w = kub.data();
      for (int j = 0; j < b; j++) {
        int o = (from + j) * m;
        double s = 0;
        for (int r = 0; r < m; r++) {
          double v = w[r * b + j];
          rows[o + r] = v;
          s += v * v;
        }
        // kₙₙ − Qₙₙ ≥ 0 in exact arithmetic (a Schur complement); rounding leaves ±1e-16·kₙₙ at Z ∋
        // xₙ
        d[from + j] = Math.max(0.0, kd[from + j] - s);
      }
    }
    return rows;
  }

  private static SparseApproximation posterior(
      int n,
      int m,
      double m0,
      double[] rows,
      double[] tau,
      double[] nu,
      SiteLoopOptions options,
      LoopRun run) {
    SparseApproximation a = SparseApproximation.compute(n, m, m0, rows, tau, nu, options.jitter());
    run.noteJitter(a.b.jitter());
    return a;
  }

  /**
   * One sequential sweep (class comment): S = B⁻¹ and m carried by rank-one updates from {@code start}. Modifies τ̃,
   * ν̃.
   *
   * <p>s = S aₙ is formed as Σ_c aₙ[c] S[c, :] (S symmetric), a loop over rows of S whose inner loop is an axpy the
   * JIT vectorises (a dot product, a reduction in a fixed order, it does not). The rank-one change of S after site n
   * and the product S aₙ₊₁ with the changed S are one pass over S: row r is updated, S[r, :] −= c s[r] s, and then
   * added into aₙ₊₁[r] S[r, :] while it is in cache. The S and m carried past the last site are not used (the loop recomputes q(v) from
   * the sites after every sweep), so the last site changes neither.
   */
  private static <S> void sequential(
      Problem problem,
      SparseSiteUpdate<S> update,
      S state,
      SiteLoopOptions options,
      SparseApproximation start,
      double[] tau,
      double[] nu,
      LoopRun run) {
    int n = start.n;
    int m = start.m;
    double m0 = start.priorMean;
    double[] sig = start.b.inverse().data(); // S, M × M row-major, symmetric
    double[] mean = start.mean.clone();
    double[] rows = start.rows;
    double[] s = new double[m]; // S aₙ for the current site n
    double[] next = new double[m];
    double[] row = new double[m];
    if (n > 0) {
      times(sig, rows, 0, m, s);
    }
    for (int i = 0; i < n; i++) {
      int o = i * m;
      double am = 0;
      double v = 0;
      for (int r = 0; r < m; r++) {
        double ar = rows[o + r];
        v += ar * s[r];
        am += ar * mean[r];
      }
      boolean last = i + 1 == n;
      int on = o + m; // row n + 1
      SiteUpdate.Cavity cav = update.cavity(state, i, m0 + am, v, tau[i], nu[i]);
      SiteUpdate.Site upd =
          Sweeps.siteUpdate(problem, update, state, options, i, cav, tau[i], nu[i], run);
      double dtau = upd == null ? 0 : upd.tau() - tau[i];
      double dnu = upd == null ? 0 : upd.nu() - nu[i];
      if (dtau == 0 && dnu == 0) {
        if (!last) {
          times(sig, rows, on, m, s);
        }
        continue;
      }
      if (run.keep && !(1 + dtau * v > 0)) {
        if (!(v > 0)) {
          throw new InferenceException(
              "the posterior covariance of u is not positive definite: the marginal"
                  + " variance of g" + i + " is " + v + run.where(),
              run.diagnostics(false),
              null);
        }
        // shorten the step to Δτ V = −½ (SiteLoop's class comment, "Step limit")
        double f = 0.5 / (-dtau * v);
        dtau *= f;
        dnu *= f;
        run.limited++;
      }
      tau[i] += dtau;
      nu[i] += dnu;
      if (last) {
        break; // S and m are recomputed from the sites after the sweep
      }
      double den = 1 + dtau * v;
      double c = dtau / den;
      double coef = (dnu - dtau * m0) / den - c * am;
      for (int r = 0; r < m; r++) {
        mean[r] += coef * s[r];
      }
      if (c == 0) {
        times(sig, rows, on, m, s);
        continue;
      }
      // S ← S − c s sᵀ and next = S aₙ₊₁ with the new S, in one pass over S
      Arrays.fill(next, 0.0);
      for (int r = 0; r < m; r++) {
        double f = c * s[r];
        double ar = rows[on + r];
        int or = r * m;
        // row r in its own array: two loops over distinct arrays, which the JIT vectorises (one
        // loop that
        // reads and writes S and accumulates into next, it did not: 1.6 times slower, measured)
        System.arraycopy(sig, or, row, 0, m);
        for (int col = 0; col < m; col++) {
          row[col] -= f * s[col];
        }
        for (int col = 0; col < m; col++) {
          next[col] += ar * row[col];
        }
        System.arraycopy(row, 0, sig, or, m);
      }
      double[] t = s;
      s = next;
      next = t;
    }
  }

  /** out = S a for the row a of {@code rows} at {@code off}, as Σ_c a[c] S[c, :] (S symmetric, M × M). */
  private static void times(double[] sig, double[] rows, int off, int m, double[] out) {
    Arrays.fill(out, 0.0);
    for (int c = 0; c < m; c++) {
      double ac = rows[off + c];
      int oc = c * m;
      for (int r = 0; r < m; r++) {
        out[r] += ac * sig[oc + r];
      }
    }
  }

  /** What {@link #blocked} returns: the final q(v) with its marginals, the verdict, log Z and the dₙ. */
  private record Blocked(
      SparseApproximation approx,
      boolean converged,
      double logZ,
      double[] d,
      SparseGradient.Result grad) {}

  /**
   * The parallel schedule in block form (class comment, "Block-parallel form"): every sweep is one request to
   * every block ({@link SiteBlock.Kind#SWEEP}), whose answers (new sites, B_block, b_block, counters) are added in
   * block order; q(v) is refactored from the sums; the log evidence's sums come the same way at the end. The sites
   * (O(n)) travel both ways with each request; the rows stay with the blocks.
   */
  private static Blocked blocked(
      Problem problem,
      double[][] z,
      Cholesky kuu,
      SiteUpdate<?> rule,
      SiteLoopOptions options,
      double[] tau0,
      double[] nu0,
      SiteBlocks blocks,
      LoopRun run) {
    int n = problem.size();
    int m = z.length;
    double m0 = problem.priorMean();
    SiteBlock.Setup setup = new SiteBlock.Setup(
        problem.kernel(), z, kuu.lower().data(), problem.likelihood(), m0, rule, options);
    double[] tau = tau0.clone();
    double[] nu = nu0.clone();
    boolean converged = false;
    try (SiteBlocks.Run blockRun = blocks.open(problem, setup)) {
      List<SiteBlock.Result> res =
          blockRun.apply(new SiteBlock.Step(SiteBlock.Kind.SUMS, null, null, tau, nu, 0));
      SparseApproximation approx = folded(n, m, m0, tau, nu, res, options, run);
      while (run.sweeps < options.maxSweeps()) {
        Sites before = Sites.of(tau, nu);
        int skippedBefore = run.skipped;
        res = blockRun.apply(new SiteBlock.Step(
            SiteBlock.Kind.SWEEP, approx.mean, approx.b.lower().data(), tau, nu, run.sweeps + 1));
        tau = new double[n];
        nu = new double[n];
        int from = 0;
        for (SiteBlock.Result r : res) {
          if (r.failure() != null) {
            throw new InferenceException(r.failure(), run.diagnostics(false), null);
          }
          System.arraycopy(r.tau(), 0, tau, from, r.tau().length);
          System.arraycopy(r.nu(), 0, nu, from, r.nu().length);
          from += r.tau().length;
          run.skipped += r.skipped();
          run.clipped += r.clipped();
        }
        run.endSweep(before, tau, nu);
        approx = folded(n, m, m0, tau, nu, res, options, run);
        LoopRun.Verdict verdict = run.verdict(options, skippedBefore);
        if (verdict != LoopRun.Verdict.CONTINUE) {
          converged = verdict == LoopRun.Verdict.CONVERGED;
          break;
        }
      }
      // log Z = ½ Σ quad − ½ log|B| + Σ log sₙ (logEvidence), each sum over the blocks in block
      // order
      run.evidence = true;
      res = blockRun.apply(new SiteBlock.Step(
          SiteBlock.Kind.EVIDENCE, approx.mean, approx.b.lower().data(), tau, nu, run.sweeps));
      approx.gMean = new double[n];
      approx.gVariance = new double[n];
      double[] d = new double[n];
      String failure = null;
      for (SiteBlock.Result r : res) {
        int at = r.index() * SiteBlock.ROWS;
        System.arraycopy(r.gMean(), 0, approx.gMean, at, r.gMean().length);
        System.arraycopy(r.gVariance(), 0, approx.gVariance, at, r.gVariance().length);
        System.arraycopy(r.d(), 0, d, at, r.d().length);
        if (r.failure() != null && failure == null) {
          failure = r.failure();
        }
      }
      double logZ;
      if (failure != null) {
        if (options.requireEvidence()) {
          throw new InferenceException(failure, run.diagnostics(converged), null);
        }
        logZ = Double.NaN;
      } else {
        double quad = addBlocks(0, res, SiteBlock.Result::quad);
        logZ = addBlocks(0.5 * quad - 0.5 * approx.b.logDet(), res, SiteBlock.Result::logScale);
      }
      SparseGradient.Result grad = null;
      if (options.gradient() && failure == null) {
        grad = blockedGradient(problem, z, kuu, approx, tau, nu, blockRun, run);
      }
      return new Blocked(approx, converged, logZ, d, grad);
    }
  }

  /**
   * {@link SparseGradient} in block form: two requests, the blocks' sums (Aᵀγ_m, A Γ_V Aᵀ, A Γ_d Aᵀ, the ∂θ terms
   * through kₙₙ) added in block order, then the M × M part here ({@link SparseGradient#middle}), then the blocks'
   * terms through K_uf added in block order, as {@link SparseGradient#of} adds its blocks.
   */
  private static SparseGradient.Result blockedGradient(
      Problem problem,
      double[][] z,
      Cholesky kuu,
      SparseApproximation approx,
      double[] tau,
      double[] nu,
      SiteBlocks.Run blockRun,
      LoopRun run) {
    int m = z.length;
    double[] bLower = approx.b.lower().data();
    List<SiteBlock.Result> res = blockRun.apply(
        new SiteBlock.Step(SiteBlock.Kind.GRADIENT_SUMS, approx.mean, bLower, tau, nu, run.sweeps));
    Matrix agv = Matrix.wrap(m, m, addBlocks(new double[m * m], res, SiteBlock.Result::gram));
    Matrix agd = Matrix.wrap(m, m, addBlocks(new double[m * m], res, SiteBlock.Result::gram2));
    double[] atgm = addBlocks(new double[m], res, SiteBlock.Result::rhs);
    double[] gdiag = addBlocks(new double[res.get(0).theta().length], res, SiteBlock.Result::theta);
    agv.symmetrize();
    agd.symmetrize();
    Matrix binv = approx.b.inverse();
    double[] e = binv.mult(atgm); // ẽ = B⁻¹ A γ_m
    SparseGradient.Middle mid =
        SparseGradient.middle(problem.kernel(), z, kuu, binv, approx.mean, e, agv, agd);
    double[] g = mid.g();
    for (int j = 0; j < g.length; j++) {
      g[j] += gdiag[j];
    }
    double[][] gz = mid.gz();
    res = blockRun.apply(new SiteBlock.Step(
        SiteBlock.Kind.GRADIENT_TERMS,
        approx.mean,
        bLower,
        tau,
        nu,
        run.sweeps,
        mid.x().data(),
        binv.data(),
        e));
    addBlocks(g, res, SiteBlock.Result::theta);
    for (int a = 0; a < gz.length; a++) {
      int row = a;
      addBlocks(gz[a], res, r -> r.inducing()[row]);
    }
    return new SparseGradient.Result(g, gz);
  }

  /** q(v) from the blocks' terms, added in block order (each computed from zero). */
  private static SparseApproximation folded(
      int n,
      int m,
      double m0,
      double[] tau,
      double[] nu,
      List<SiteBlock.Result> res,
      SiteLoopOptions options,
      LoopRun run) {
    Matrix gram = Matrix.wrap(m, m, addBlocks(new double[m * m], res, SiteBlock.Result::gram));
    double[] rhs = addBlocks(new double[m], res, SiteBlock.Result::rhs);
    gram.symmetrize();
    SparseApproximation a =
        SparseApproximation.fromSums(n, m, m0, null, tau, nu, gram, rhs, options.jitter());
    run.noteJitter(a.b.jitter());
    return a;
  }

  /**
   * Adds every block's {@code part} to {@code sum}, element by element, one block after the other in the order of
   * {@code res} (block order): the fold of every blocked sum here, so that each element is (…(sum + part₀) +
   * part₁) + … whichever engine ran the blocks. Only the first {@code sum.length} elements of a part are read.
   *
   * @return {@code sum}
   */
  private static double[] addBlocks(
      double[] sum, List<SiteBlock.Result> res, Function<SiteBlock.Result, double[]> part) {
    for (SiteBlock.Result r : res) {
      double[] p = part.apply(r);
      for (int k = 0; k < sum.length; k++) {
        sum[k] += p[k];
      }
    }
    return sum;
  }

  /** {@code start} plus every block's {@code part}, added one after the other in block order. */
  private static double addBlocks(
      double start, List<SiteBlock.Result> res, ToDoubleFunction<SiteBlock.Result> part) {
    double sum = start;
    for (SiteBlock.Result r : res) {
      sum += part.applyAsDouble(r);
    }
    return sum;
  }

  /**
   * log Z = −Σ log (L_B)ᵢᵢ + ½ Σₙ (ν̃ₙ − τ̃ₙ m₀)(m_gₙ − m₀) + Σₙ log sₙ (class comment): the Gaussian part is
   * log ∫ N(v | 0, I) Πₙ exp(−½ τ̃ₙ (aₙᵀv)² + (ν̃ₙ − τ̃ₙ m₀) aₙᵀv) dv = −½ log|B| + ½ bᵀB⁻¹b, b = Σ (ν̃ₙ − τ̃ₙ m₀) aₙ.
   */
  private static <S> double logEvidence(
      Problem problem, SparseSiteUpdate<S> update, S state, SparseApproximation a, LoopRun run) {
    run.evidence = true;
    double m0 = a.priorMean;
    double quad = 0;
    for (int i = 0; i < a.n; i++) {
      quad += (a.nu[i] - a.tau[i] * m0) * (a.gMean[i] - m0);
    }
    double s = 0.5 * quad - 0.5 * a.b.logDet();
    for (int i = 0; i < a.n; i++) {
      run.site = i;
      s += update.logScale(state, problem, i, a.gMean[i], a.gVariance[i], a.tau[i], a.nu[i]);
    }
    return s;
  }
}
