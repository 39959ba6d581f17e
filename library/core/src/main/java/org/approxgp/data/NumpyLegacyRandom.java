package org.approxgp.data;

/**
 * NumPy's legacy global generator ({@code np.random.seed(int)}, {@code RandomState}) reproduced bit for
 * bit, so that the QP authors' splits (Zhang et al. 2020, code on the {@code no-lookup-table} branch of
 * their repository) can be rebuilt in Java: their coal split draws one {@code np.random.rand()} per
 * year, their classification folds come from {@code np.random.shuffle} of the data rows.
 *
 * <p>The generator is MT19937 (Matsumoto &amp; Nishimura 1998, "Mersenne Twister: a 623-dimensionally
 * equidistributed uniform pseudo-random number generator", ACM TOMACS 8(1)). Seeding is their
 * {@code init_genrand}: x₀ = seed, x_i = 1812433253·(x_{i−1} ⊕ (x_{i−1} ≫ 30)) + i mod 2³², i = 1..623,
 * which is what {@code np.random.seed(s)} does for an integer 0 ≤ s &lt; 2³². A double ({@code rand()},
 * {@code random_sample}) takes two 32-bit outputs a, b: ((a ≫ 5)·2²⁶ + (b ≫ 6)) / 2⁵³. A bounded integer in
 * [0, max] ({@code random_interval}, used by {@code shuffle}, {@code permutation} and legacy {@code randint})
 * masks 32-bit outputs with the smallest 2^k − 1 ≥ max and rejects values above max. {@code shuffle} is
 * Fisher–Yates from the end: for i = n−1 … 1, j = interval(i), swap rows i and j.
 *
 * <p>Checked against values printed by NumPy ({@code src/test/resources/numpy/make_numpy_legacy.py}).
 * Not thread-safe (one instance per stream, as NumPy's global state).
 */
public final class NumpyLegacyRandom {
  private static final int N = 624;
  private static final int M = 397;
  private static final int MATRIX_A = 0x9908b0df;
  private static final int UPPER_MASK = 0x80000000;
  private static final int LOWER_MASK = 0x7fffffff;

  private final int[] mt = new int[N];
  private int pos;

  private NumpyLegacyRandom(long seed) {
    mt[0] = (int) seed;
    for (int i = 1; i < N; i++) {
      int prev = mt[i - 1];
      mt[i] = 1812433253 * (prev ^ (prev >>> 30)) + i;
    }
    pos = N;
  }

  /**
   * The state after {@code np.random.seed(seed)}.
   *
   * @throws IllegalArgumentException unless 0 ≤ seed ≤ 2³² − 1 (NumPy's own range)
   */
  public static NumpyLegacyRandom seed(long seed) {
    if (seed < 0 || seed > 0xffffffffL) {
      throw new IllegalArgumentException("seed must be between 0 and 2**32 - 1, got " + seed);
    }
    return new NumpyLegacyRandom(seed);
  }

  private void generate() {
    int k = 0;
    for (; k < N - M; k++) {
      int y = (mt[k] & UPPER_MASK) | (mt[k + 1] & LOWER_MASK);
      mt[k] = mt[k + M] ^ (y >>> 1) ^ ((y & 1) == 0 ? 0 : MATRIX_A);
    }
    for (; k < N - 1; k++) {
      int y = (mt[k] & UPPER_MASK) | (mt[k + 1] & LOWER_MASK);
      mt[k] = mt[k + (M - N)] ^ (y >>> 1) ^ ((y & 1) == 0 ? 0 : MATRIX_A);
    }
    int y = (mt[N - 1] & UPPER_MASK) | (mt[0] & LOWER_MASK);
    mt[N - 1] = mt[M - 1] ^ (y >>> 1) ^ ((y & 1) == 0 ? 0 : MATRIX_A);
    pos = 0;
  }

  /** The next raw 32-bit output (MT19937's tempered word), as an unsigned value in [0, 2³²). */
  public long nextUint32() {
    if (pos == N) {
      generate();
    }
    int y = mt[pos++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y & 0xffffffffL;
  }

  /** {@code np.random.rand()}: ((a ≫ 5)·2²⁶ + (b ≫ 6)) / 2⁵³ from two 32-bit outputs, in [0, 1). */
  public double rand() {
    long a = nextUint32() >>> 5;
    long b = nextUint32() >>> 6;
    return (a * 67108864.0 + b) / 9007199254740992.0;
  }

  /**
   * NumPy's {@code random_interval(max)}: a uniform integer in [0, max] by masked rejection of 32-bit
   * outputs (max = 0 consumes nothing). Legacy {@code np.random.randint(0, max + 1)} draws the same.
   *
   * @throws IllegalArgumentException unless 0 ≤ max ≤ 2³² − 1 (the 64-bit branch is not needed here)
   */
  public long interval(long max) {
    if (max < 0 || max > 0xffffffffL) {
      throw new IllegalArgumentException("max must be in [0, 2**32 - 1], got " + max);
    }
    if (max == 0) {
      return 0;
    }
    long mask = max;
    mask |= mask >>> 1;
    mask |= mask >>> 2;
    mask |= mask >>> 4;
    mask |= mask >>> 8;
    mask |= mask >>> 16;
    long v;
    do {
      v = nextUint32() & mask;
    } while (v > max);
    return v;
  }

  /**
   * {@code np.random.shuffle(a)} for an array (1-D or rows of a 2-D array, the same draws): shuffles
   * {@code a} in place.
   */
  public void shuffle(int[] a) {
    for (int i = a.length - 1; i >= 1; i--) {
      int j = (int) interval(i);
      int t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
  }

  /**
   * {@code np.random.permutation(n)}: 0..n−1 shuffled; also the row order that {@code np.random.shuffle}
   * leaves in an n-row array (row k of the result is original row {@code permutation(n)[k]}).
   */
  public int[] permutation(int n) {
    if (n < 0) {
      throw new IllegalArgumentException("n must be >= 0, got " + n);
    }
    int[] a = new int[n];
    for (int i = 0; i < n; i++) {
      a[i] = i;
    }
    shuffle(a);
    return a;
  }
}
