package org.approxgp.data;

import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;

/**
 * The regression data sets of the sVBSSGP paper (Hoang, Hoang &amp; Low 2017, §5), by role. None of the
 * paper's own data is used: AIRLINE (2008, 2·10⁶ rows) and AIMPEAK (traffic speeds, not public) and BLOG
 * are replaced by the real data sets below; {@code datasets/README.md} states every difference.
 *
 * <ul>
 *   <li>AIRLINE's role: {@link #flights()} — 3·10⁶ US flights of 2001 ({@link Flights}).
 *   <li>AIMPEAK's role (41,800 × 5): {@link #aimpeakRole(long)} — a seeded random sample of 41,800 rows of
 *       flights-3m (9 inputs), the same size as AIMPEAK.
 *   <li>BLOG's role (60,000 × 60, many inputs): {@link #diamonds(boolean)} — ggplot2's 53,940 diamonds,
 *       26 inputs after one-hot encoding, target log price.
 * </ul>
 */
public final class RegressionDatasets {
  /** Rows of AIMPEAK in the paper, hence of its substitute. */
  public static final int AIMPEAK_ROWS = 41_800;

  private RegressionDatasets() {}

  /** flights-3m, all 3,000,000 rows (fetched on first use, see {@link Flights#load()}). */
  public static RegressionSet flights() {
    return Flights.load();
  }

  /**
   * A seeded random sample of {@code n} distinct rows of flights-3m, in ascending row order (a partial
   * Fisher–Yates shuffle with {@code RandomSource.XO_RO_SHI_RO_128_PP.create(seed)}).
   */
  public static RegressionSet flightsSample(int n, long seed) {
    return sample(Flights.load(), n, seed, "flights-" + n);
  }

  /** The AIMPEAK-role data: {@code flightsSample(41_800, seed)}, named {@code flights-41800}. */
  public static RegressionSet aimpeakRole(long seed) {
    return flightsSample(AIMPEAK_ROWS, seed);
  }

  /** {@code n} distinct rows of {@code data} drawn by {@code seed}, in ascending row order. */
  public static RegressionSet sample(RegressionSet data, int n, long seed, String name) {
    int total = data.size();
    if (n < 1 || n > total) {
      throw new IllegalArgumentException("sample size must be in 1.." + total + ", got " + n);
    }
    UniformRandomProvider r = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    int[] p = new int[total];
    for (int i = 0; i < total; i++) {
      p[i] = i;
    }
    for (int i = 0; i < n; i++) {
      int j = i + r.nextInt(total - i);
      int t = p[i];
      p[i] = p[j];
      p[j] = t;
    }
    int[] rows = Arrays.copyOf(p, n);
    Arrays.sort(rows);
    return data.rows(rows, name, "random sample of " + n + " rows, seed " + seed);
  }

  /**
   * ggplot2's {@code diamonds} (committed {@code diamonds.csv}): 53,940 rows, inputs carat, depth, table,
   * x, y, z and 0/1 indicators of every level of cut (5), color (7) and clarity (8): 26 inputs. Target
   * {@code price} in US dollars, or its natural logarithm when {@code logPrice} (price spans 326–18,823 with
   * a long right tail; on the log scale the paper's Gaussian noise model is reasonable).
   */
  public static RegressionSet diamonds(boolean logPrice) {
    Dataset d = Datasets.load("diamonds", "price", TargetKind.REAL);
    double[][] rows = d.features();
    double[] y = d.target();
    if (logPrice) {
      for (int i = 0; i < y.length; i++) {
        y[i] = Math.log(y[i]);
      }
    }
    return new RegressionSet(
        "diamonds",
        d.featureNames(),
        logPrice ? "log_price" : "price",
        RegressionData.of(rows, y),
        logPrice ? d.provenance().derived("target log(price)") : d.provenance());
  }
}
