package org.approxgp.data;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;

/**
 * Seeded train/test splits of row indices 0..n−1. Every method draws from
 * {@code RandomSource.XO_RO_SHI_RO_128_PP.create(seed)}, so a seed gives the same split on every
 * machine and thread count. (The permutations are not NumPy's: seed s here is not the QP authors'
 * {@code np.random.seed(s)}.)
 */
public final class Splits {
  private Splits() {}

  /**
   * The QP paper's k-fold protocol: shuffle the rows by {@code seed}, cut the first k·⌊n/k⌋ rows of
   * the permutation into k consecutive test folds of ⌊n/k⌋ rows each; fold i trains on all other
   * rows (in permutation order). The n mod k leftover rows at the end of the permutation are always
   * in training and never tested.
   *
   * @throws IllegalArgumentException unless 2 ≤ k ≤ n
   */
  public static List<Split> kFold(int n, int k, long seed) {
    if (k < 2 || k > n) {
      throw new IllegalArgumentException("need 2 <= k <= n, got k=" + k + ", n=" + n);
    }
    return foldsOf(permutation(n, rng(seed)), k);
  }

  /**
   * The QP authors' own folds ({@code split_data} in their {@code read_data.py}): {@code np.random.seed(seed)},
   * {@code np.random.shuffle} of the data rows ({@link NumpyLegacyRandom}), then the same cut as
   * {@link #kFold}: fold i tests rows [i·⌊n/k⌋, (i+1)·⌊n/k⌋) of the shuffled order and trains on the
   * others in shuffled order. The authors use k = 10 and seeds 0, 10, …, 990 (100 sets).
   *
   * @throws IllegalArgumentException unless 2 ≤ k ≤ n and 0 ≤ seed &lt; 2³²
   */
  public static List<Split> kFoldNumpy(int n, int k, long seed) {
    if (k < 2 || k > n) {
      throw new IllegalArgumentException("need 2 <= k <= n, got k=" + k + ", n=" + n);
    }
    return foldsOf(NumpyLegacyRandom.seed(seed).permutation(n), k);
  }

  private static List<Split> foldsOf(int[] perm, int k) {
    int n = perm.length;
    int m = n / k;
    List<Split> folds = new ArrayList<>(k);
    for (int i = 0; i < k; i++) {
      int[] test = Arrays.copyOfRange(perm, i * m, i * m + m);
      int[] train = new int[n - m];
      System.arraycopy(perm, 0, train, 0, i * m);
      System.arraycopy(perm, i * m + m, train, i * m, n - i * m - m);
      folds.add(new Split(train, test));
    }
    return List.copyOf(folds);
  }

  /**
   * A random split with round(testFraction·n) test rows (at least 1, at most n−1); both index
   * arrays are sorted ascending.
   *
   * @throws IllegalArgumentException unless 0 &lt; testFraction &lt; 1 and n ≥ 2
   */
  public static Split random(int n, double testFraction, long seed) {
    if (!(testFraction > 0 && testFraction < 1)) {
      throw new IllegalArgumentException("testFraction must be in (0, 1), got " + testFraction);
    }
    if (n < 2) {
      throw new IllegalArgumentException("need at least 2 rows, got " + n);
    }
    int nTest = (int) Math.min(n - 1, Math.max(1, Math.round(testFraction * n)));
    int[] perm = permutation(n, rng(seed));
    int[] test = Arrays.copyOf(perm, nTest);
    int[] train = Arrays.copyOfRange(perm, nTest, n);
    Arrays.sort(test);
    Arrays.sort(train);
    return new Split(train, test);
  }

  /**
   * Assigns each row independently to the test part with probability {@code testProbability} (the
   * QP paper's coal-mining protocol: "randomly assign every point ... with equal probability").
   * Either part may be empty. Both index arrays are sorted ascending.
   */
  public static Split bernoulli(int n, double testProbability, long seed) {
    if (!(testProbability >= 0 && testProbability <= 1)) {
      throw new IllegalArgumentException("testProbability must be in [0, 1]: " + testProbability);
    }
    UniformRandomProvider r = rng(seed);
    int[] train = new int[n];
    int[] test = new int[n];
    int a = 0;
    int b = 0;
    for (int i = 0; i < n; i++) {
      if (r.nextDouble() < testProbability) {
        test[b++] = i;
      } else {
        train[a++] = i;
      }
    }
    return new Split(Arrays.copyOf(train, a), Arrays.copyOf(test, b));
  }

  private static UniformRandomProvider rng(long seed) {
    return RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
  }

  /** Fisher–Yates shuffle of 0..n−1. */
  private static int[] permutation(int n, UniformRandomProvider r) {
    int[] p = new int[n];
    for (int i = 0; i < n; i++) {
      p[i] = i;
    }
    for (int i = n - 1; i > 0; i--) {
      int j = r.nextInt(i + 1);
      int t = p[i];
      p[i] = p[j];
      p[j] = t;
    }
    return p;
  }
}
