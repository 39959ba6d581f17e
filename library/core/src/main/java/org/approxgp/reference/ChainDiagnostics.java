package org.approxgp.reference;

import java.util.Arrays;
import org.approxgp.special.Autocovariance;
import org.approxgp.special.Normal;

/**
 * Convergence diagnostics of several MCMC chains for one scalar quantity, as A. Vehtari, A. Gelman, D. Simpson,
 * B. Carpenter &amp; P.-C. Bürkner, "Rank-normalization, folding, and localization: an improved R̂ for assessing
 * convergence of MCMC", Bayesian Analysis 16(2), 2021 (cited below as V21) define them:
 * <ul>
 *   <li>each chain is split in halves (M chains of N draws become 2M of N/2, §4.1), so a trend within a chain
 *       shows as disagreement between halves;</li>
 *   <li>rank normalisation (eq. 14): the pooled draws are replaced by z = Φ⁻¹((r − 3/8)/(S + 1/4)), r the rank
 *       (ties averaged) among all S draws, so R̂ and ESS do not need finite moments;</li>
 *   <li>R̂ (eq. 3–4 on z): with chain means z̄_m, within-chain variances s²_m, W = mean s²_m,
 *       B/N = var(z̄_m) and var⁺ = (N − 1)/N W + B/N, R̂ = √(var⁺/W). The reported R̂ is the maximum of the
 *       bulk R̂ (on z) and the folded R̂ (on the rank-normalised |θ − median θ|, §4.2), which catches chains
 *       that agree in location but not in scale;</li>
 *   <li>bulk ESS (eq. 10–11 on z): combined autocorrelations ρ̂_t = 1 − (W − mean_m γ_{t,m})/var⁺, truncated
 *       by Geyer's initial monotone sequence (pairs P̂_k = ρ̂_{2k} + ρ̂_{2k+1} while positive, made
 *       non-increasing), τ̂ = −1 + 2 Σ P̂_k and ESS = MN/τ̂, capped at MN log₁₀(MN) as Stan caps it.</li>
 * </ul>
 * Autocovariances γ_{t,m} by FFT ({@link Autocovariance}). Stateless.
 */
public final class ChainDiagnostics {
  private ChainDiagnostics() {}

  /**
   * @param rhat max(bulk, folded) rank-normalised split-R̂
   * @param bulkEss bulk effective sample size
   */
  public record Result(double rhat, double bulkEss) {}

  /**
   * R̂ and bulk ESS of {@code chains[m][t]} (M ≥ 2 chains of equal length N ≥ 8; not modified).
   *
   * @throws IllegalArgumentException for fewer chains or draws, or ragged or non-finite chains
   */
  public static Result of(double[][] chains) {
    check(chains);
    double[][] split = split(chains);
    double[][] z = rankNormalise(split);
    double[][] folded = new double[split.length][];
    double median = median(split);
    for (int c = 0; c < split.length; c++) {
      folded[c] = new double[split[c].length];
      for (int t = 0; t < split[c].length; t++) {
        folded[c][t] = Math.abs(split[c][t] - median);
      }
    }
    double rhat = Math.max(rhat(z), rhat(rankNormalise(folded)));
    return new Result(rhat, ess(z));
  }

  /**
   * The ESS of the draws themselves (split chains, no rank normalisation: V21 eq. 10–11 on the raw values), the one
   * that sets the Monte-Carlo standard error of their mean, √(var/ESS) (V21 §4.4). Same checks as {@link #of}.
   */
  public static double meanEss(double[][] chains) {
    check(chains);
    return ess(split(chains));
  }

  private static void check(double[][] chains) {
    int m = chains.length;
    if (m < 2) {
      throw new IllegalArgumentException("need at least 2 chains, got " + m);
    }
    int n = chains[0].length;
    if (n < 8) {
      throw new IllegalArgumentException("need at least 8 draws per chain, got " + n);
    }
    for (double[] c : chains) {
      if (c.length != n) {
        throw new IllegalArgumentException(
            "chains must have equal lengths, got " + n + " and " + c.length);
      }
      for (double v : c) {
        if (!Double.isFinite(v)) {
          throw new IllegalArgumentException("a chain holds a non-finite draw: " + v);
        }
      }
    }
  }

  /** 2M chains of ⌊N/2⌋ draws: each chain's first and second half (the middle draw of an odd N is dropped). */
  static double[][] split(double[][] chains) {
    int half = chains[0].length / 2;
    int off = chains[0].length - half;
    double[][] s = new double[2 * chains.length][];
    for (int c = 0; c < chains.length; c++) {
      s[2 * c] = Arrays.copyOfRange(chains[c], 0, half);
      s[2 * c + 1] = Arrays.copyOfRange(chains[c], off, off + half);
    }
    return s;
  }

  /** V21 eq. 14: z = Φ⁻¹((r − 3/8)/(S + 1/4)) with r the average rank among all S pooled draws. */
  static double[][] rankNormalise(double[][] chains) {
    int m = chains.length;
    int n = chains[0].length;
    int s = m * n;
    double[] sorted = new double[s];
    for (int c = 0; c < m; c++) {
      System.arraycopy(chains[c], 0, sorted, c * n, n);
    }
    Arrays.sort(sorted);
    double[][] z = new double[m][n];
    for (int c = 0; c < m; c++) {
      for (int t = 0; t < n; t++) {
        double x = chains[c][t];
        // the tied draws occupy ranks first+1 … last+1 of the sorted pool; each gets their average
        int first = lowerBound(sorted, x);
        int last = lowerBound(sorted, Math.nextUp(x)) - 1;
        double r = 0.5 * (first + last) + 1;
        z[c][t] = Normal.quantile((r - 0.375) / (s + 0.25));
      }
    }
    return z;
  }

  /** The first index whose value is not below x (sorted ascending, no NaN). */
  private static int lowerBound(double[] sorted, double x) {
    int lo = 0;
    int hi = sorted.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (sorted[mid] < x) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  private static double median(double[][] chains) {
    double[] all =
        Arrays.stream(chains).flatMapToDouble(Arrays::stream).sorted().toArray();
    int s = all.length;
    return s % 2 == 1 ? all[s / 2] : 0.5 * (all[s / 2 - 1] + all[s / 2]);
  }

  private static double mean(double[] x) {
    double s = 0;
    for (double v : x) {
      s += v;
    }
    return s / x.length;
  }

  /** V21 eq. 3–4: √(var⁺/W), var⁺ = (N − 1)/N W + B/N. */
  static double rhat(double[][] chains) {
    int m = chains.length;
    int n = chains[0].length;
    double[] means = new double[m];
    double w = 0;
    for (int c = 0; c < m; c++) {
      means[c] = mean(chains[c]);
      double ss = 0;
      for (double v : chains[c]) {
        ss += (v - means[c]) * (v - means[c]);
      }
      w += ss / (n - 1);
    }
    w /= m;
    double grand = mean(means);
    double bOverN = 0;
    for (double mc : means) {
      bOverN += (mc - grand) * (mc - grand);
    }
    bOverN /= m - 1;
    if (!(w > 0)) {
      // every chain constant: R̂ is 1 when they agree, infinite when they do not
      return bOverN > 0 ? Double.POSITIVE_INFINITY : 1.0;
    }
    return Math.sqrt(((n - 1.0) / n * w + bOverN) / w);
  }

  /** V21 eq. 10–11 with Geyer's initial monotone sequence; ESS = MN/τ̂ capped at MN log₁₀(MN). */
  static double ess(double[][] chains) {
    int m = chains.length;
    int n = chains[0].length;
    double[][] acov = new double[m][];
    double[] means = new double[m];
    double w = 0;
    for (int c = 0; c < m; c++) {
      acov[c] = Autocovariance.of(chains[c]);
      means[c] = mean(chains[c]);
      w += acov[c][0] * n / (n - 1.0);
    }
    w /= m;
    double grand = mean(means);
    double bOverN = 0;
    for (double mc : means) {
      bOverN += (mc - grand) * (mc - grand);
    }
    bOverN /= m - 1;
    double varPlus = (n - 1.0) / n * w + bOverN;
    double cap = m * (double) n * Math.log10(m * (double) n);
    if (!(varPlus > 0)) {
      return cap;
    }
    double sum = 0;
    double prev = Double.POSITIVE_INFINITY;
    for (int k = 0; 2 * k + 1 < n; k++) {
      double pair = rho(acov, 2 * k, w, varPlus) + rho(acov, 2 * k + 1, w, varPlus);
      if (!(pair > 0)) {
        break;
      }
      pair = Math.min(pair, prev);
      sum += pair;
      prev = pair;
    }
    double tau = -1 + 2 * sum;
    // τ̂ ≤ 0 only for strongly antithetic chains; the cap then applies
    return tau > 0 ? Math.min(m * (double) n / tau, cap) : cap;
  }

  /** ρ̂_t = 1 − (W − mean_m γ_{t,m})/var⁺ (ρ̂_0 = 1 exactly). */
  private static double rho(double[][] acov, int t, double w, double varPlus) {
    if (t == 0) {
      return 1;
    }
    double g = 0;
    for (double[] a : acov) {
      g += a[t];
    }
    return 1 - (w - g / acov.length) / varPlus;
  }
}
