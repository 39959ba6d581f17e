package org.approxgp.linalg;

/**
 * What {@link Cholesky#factor} does when a matrix is not numerically positive definite.
 *
 * <p>With {@link #none()} a failed factorisation throws {@link NotPositiveDefiniteException}. Otherwise
 * the factorisation is retried with {@code jitter · I} added, where the jitter starts at
 * {@code initial · mean(diag A)} and is multiplied by {@code growth} on each retry, up to
 * {@code maxTries} retries. The jitter actually used is reported by {@link Cholesky#jitter()} — it
 * is never silent. (GPML adds a fixed 1e-6·I-style jitter inside some callers; GPflow adds a fixed
 * default jitter; we make it an explicit, reported argument.)
 *
 * @param initial relative jitter of the first retry (fraction of the mean diagonal), > 0
 * @param growth factor between retries, > 1
 * @param maxTries number of retries after the plain attempt, ≥ 0
 */
public record JitterPolicy(double initial, double growth, int maxTries)
    implements java.io.Serializable {
  private static final long serialVersionUID = 1L;

  public JitterPolicy {
    if (maxTries < 0) {
      throw new IllegalArgumentException("maxTries must be >= 0, got " + maxTries);
    }
    if (maxTries > 0 && !(initial > 0 && growth > 1)) {
      throw new IllegalArgumentException(
          "need initial > 0 and growth > 1, got " + initial + ", " + growth);
    }
  }

  /** No jitter: a matrix that is not positive definite is an error. */
  public static JitterPolicy none() {
    return new JitterPolicy(0, 0, 0);
  }

  /** The default: up to 5 retries from 1e-10 · mean(diag), ×10 each (at most 1e-6 · mean(diag)). */
  public static JitterPolicy standard() {
    return new JitterPolicy(1e-10, 10, 5);
  }
}
