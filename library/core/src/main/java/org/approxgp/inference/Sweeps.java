package org.approxgp.inference;

import org.approxgp.linalg.SymmetricUpdates;

/**
 * The sweeps of {@link SiteLoop}: one pass of site updates over all sites, sequential (each site from the
 * marginals after the previous update, with the rank-one change of Σ and μ it implies) or parallel (every
 * site from the marginals at the start of the sweep), and the site update shared by both (the
 * negative-precision policy and damping of {@link SiteLoopOptions}).
 *
 * <p>References: Rasmussen &amp; Williams (2006) §3.6, Alg. 3.5 lines 4–8 and eq. 3.70 (the rank-one change of
 * Σ); Minka (2001).
 */
final class Sweeps {

  /**
   * Delayed rank-one updates of Σ applied together by {@link #sequential} (see there); 32 was the fastest of
   * 8–128 for EP on Ionosphere (n = 316, native backend).
   */
  static final int UPDATE_BLOCK = 32;

  private Sweeps() {}

  /**
   * One site update from cavity {@code cav}: the proposed site after the negative-precision policy and
   * damping, or null when the cavity is improper and the site is skipped.
   */
  static <S> SiteUpdate.Site siteUpdate(
      Problem problem,
      SiteUpdate<S> update,
      S state,
      SiteLoopOptions options,
      int i,
      SiteUpdate.Cavity cav,
      double tauOld,
      double nuOld,
      LoopRun run) {
    run.site = i;
    if (!(cav.tau() > 0)) {
      run.skipped++;
      return null;
    }
    if (!Double.isFinite(cav.mean()) || !Double.isFinite(cav.variance())) {
      throw new InferenceException(
          "cavity N(" + cav.mean() + ", " + cav.variance() + ") is not finite" + run.where(),
          run.diagnostics(false),
          null);
    }
    SiteUpdate.Site proposed = update.propose(state, problem, i, cav);
    double tauNew = proposed.tau();
    double nuNew = proposed.nu();
    if (tauNew < 0) {
      switch (options.negativeSites()) {
        case CLIP -> {
          tauNew = 0;
          run.clipped++;
        }
        case KEEP -> {
          // kept as proposed (Minka 2001)
        }
        default -> throw new IllegalStateException("unhandled policy " + options.negativeSites());
      }
    }
    double d = options.damping();
    if (d < 1) {
      tauNew = (1 - d) * tauOld + d * tauNew;
      nuNew = (1 - d) * nuOld + d * nuNew;
    }
    if (!Double.isFinite(tauNew) || !Double.isFinite(nuNew)) {
      throw new InferenceException(
          "proposed site (" + proposed.tau() + ", " + proposed.nu() + ") is not finite"
              + " (cavity N(" + cav.mean() + ", " + cav.variance() + "), y = "
              + problem.y()[i] + ")" + run.where(),
          run.diagnostics(false),
          null);
    }
    return new SiteUpdate.Site(tauNew, nuNew);
  }

  /**
   * R&amp;W Alg. 3.5 lines 4–8: sequential site updates, each followed by the rank-one change of Σ and μ
   * (R&amp;W eq. 3.70). Modifies τ̃, ν̃, and Σ (its upper triangle, diagonal included; the strict lower
   * triangle is neither read nor written) and μ in place, so that after the sweep they are the posterior of
   * the new sites (up to rounding) and the next sweep starts from them without a new factorisation.
   *
   * <p><b>Delayed updates.</b> The changes are kept as pending pairs (cₗ, sₗ) and applied {@value
   * #UPDATE_BLOCK} at a time by one symmetric rank-k update of Σ through {@code linalg} (BLAS dsyrk: the same
   * arithmetic, cache-blocked). Between two block updates the current Σ is Σ₀ − Σₗ cₗ sₗ sₗᵀ over the pending
   * pairs, so the column i site i needs is Σ₀[:, i] − Σₗ (cₗ sₗ[i]) sₗ (O(n k)), and its diagonal
   * Σ₀[i, i] − Σₗ cₗ sₗ[i]² (O(k)) when the site does not change. Column i of the upper triangle is
   * Σ₀[0..i, i] down the column and Σ₀[i, i..n) along row i.
   */
  static <S> void sequential(
      Problem problem,
      SiteUpdate<S> update,
      S state,
      SiteLoopOptions options,
      SymmetricUpdates sigma,
      double[] mu,
      double[] tau,
      double[] nu,
      LoopRun run) {
    int n = tau.length;
    int block = Math.min(UPDATE_BLOCK, n);
    // row l: sₗ, the column of Σ at the l-th pending update
    double[] pending = new double[block * n];
    double[] weight = new double[block]; // cₗ
    double[] col = new double[n];
    int k = 0;
    for (int i = 0; i < n; i++) {
      double sii = sigma.diagonal(i);
      for (int l = 0; l < k; l++) {
        double sl = pending[l * n + i];
        sii -= weight[l] * sl * sl;
      }
      SiteUpdate.Cavity cav = update.cavity(state, i, mu[i], sii, tau[i], nu[i]);
      SiteUpdate.Site upd = siteUpdate(problem, update, state, options, i, cav, tau[i], nu[i], run);
      if (upd == null) {
        continue;
      }
      double dtau = upd.tau() - tau[i];
      double dnu = upd.nu() - nu[i];
      if (dtau == 0 && dnu == 0) {
        continue;
      }
      double tauNew = upd.tau();
      double nuNew = upd.nu();
      if (run.keep && !(1 + dtau * sii > 0)) {
        if (!(sii > 0)) {
          throw new InferenceException(
              "the posterior covariance is not positive definite: the marginal variance of f" + i
                  + " is " + sii + run.where(),
              run.diagnostics(false),
              null);
        }
        // the new marginal variance Σᵢᵢ/(1 + Δτ Σᵢᵢ) would not be positive: shorten the step along
        // the same direction to Δτ Σᵢᵢ = −½, where the marginal variance doubles (SiteLoop's class
        // comment, "Step limit")
        double f = 0.5 / (-dtau * sii);
        dtau *= f;
        dnu *= f;
        tauNew = tau[i] + dtau;
        nuNew = nu[i] + dnu;
        run.limited++;
      }
      tau[i] = tauNew;
      nu[i] = nuNew;
      // s = Σ[:, i] of the current Σ = Σ₀ − Σₗ cₗ sₗ sₗᵀ, formed in its own array (a loop the JIT
      // vectorises, unlike one that reads and writes the same array) and then made the next pending
      // row
      sigma.column(i, col, 0);
      int l = 0;
      for (; l + 4 <= k; l += 4) { // four pending pairs per pass over s
        int o0 = l * n;
        int o1 = o0 + n;
        int o2 = o1 + n;
        int o3 = o2 + n;
        double f0 = weight[l] * pending[o0 + i];
        double f1 = weight[l + 1] * pending[o1 + i];
        double f2 = weight[l + 2] * pending[o2 + i];
        double f3 = weight[l + 3] * pending[o3 + i];
        for (int j = 0; j < n; j++) {
          col[j] -= f0 * pending[o0 + j]
              + f1 * pending[o1 + j]
              + f2 * pending[o2 + j]
              + f3 * pending[o3 + j];
        }
      }
      for (; l < k; l++) {
        int ol = l * n;
        double f = weight[l] * pending[ol + i];
        for (int j = 0; j < n; j++) {
          col[j] -= f * pending[ol + j];
        }
      }
      int os = k * n;
      System.arraycopy(col, 0, pending, os, n);
      // Σ ← Σ − c s sᵀ with s = Σ_{:,i}, c = Δτ/(1 + Δτ Σᵢᵢ)   (R&W eq. 3.70)
      // μ ← μ + s [Δν − c (μᵢ + Δν Σᵢᵢ)]                        (μ = Σ ν̃ after both changes)
      double c = dtau / (1 + dtau * sii);
      double a = dnu - c * (mu[i] + dnu * sii);
      for (int j = 0; j < n; j++) {
        mu[j] += a * col[j];
      }
      if (c != 0) {
        weight[k++] = c;
        if (k == block) {
          sigma.update(k, pending, weight);
          k = 0;
        }
      }
    }
    if (k > 0) {
      sigma.update(k, pending, weight);
    }
  }

  /** All sites from the marginals at the start of the sweep. Modifies τ̃, ν̃. */
  static <S> void parallel(
      Problem problem,
      SiteUpdate<S> update,
      S state,
      SiteLoopOptions options,
      GaussianSiteApproximation approx,
      double[] tau,
      double[] nu,
      LoopRun run) {
    for (int i = 0; i < tau.length; i++) {
      SiteUpdate.Cavity cav =
          update.cavity(state, i, approx.mu[i], approx.sigmaDiag[i], approx.tau[i], approx.nu[i]);
      SiteUpdate.Site upd = siteUpdate(problem, update, state, options, i, cav, tau[i], nu[i], run);
      if (upd != null) {
        tau[i] = upd.tau();
        nu[i] = upd.nu();
      }
    }
  }
}
