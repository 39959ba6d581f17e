package org.approxgp.sparse;

import java.io.Serializable;
import java.util.List;

/**
 * How sVBSSGP computes the data term of its stochastic gradient over the drawn partitions: the sum
 * (p/a) Σ_k F_{i_k}, F_i = −½ σ_n⁻² ∇(v_iᵀ v_i) with v_i = y_i − Φ_θ(X_i)ᵀ s (Hoang, Hoang &amp; Low, AAAI 2017,
 * Theorem 1 and Appendix G eq. 22; rows of a minibatch weighted by |X_i|/B, see {@link Svbssgp}).
 *
 * <p>The run ({@link SvbssgpTraining}) does every random draw itself (z, the partition indices, the minibatch
 * rows) and passes the outcome as {@link Draw}s, so a strategy is deterministic given its arguments. The default,
 * used by {@link Svbssgp#start(org.approxgp.data.RegressionData, int[], SvbssgpOptions)}, is the in-JVM loop; the
 * {@code approxgp-spark} module computes the terms as a Spark job over the partitioned data.
 *
 * <p>Accumulator layout ({@code acc}, length 2 + D + d): [0] the data term of the bound Σ w (−½ v²/σ_n² − ½ log
 * 2πσ_n²), [1] ∂/∂ log σ_n² = Σ w (½ v²/σ_n² − ½) / S, [2, 2 + D) ∂/∂α of the data term, [2 + D, 2 + D + d)
 * ∂/∂ log ℓ = −Σ w (v/σ_n²)(−s_{2l} sin a_l + s_{2l+1} cos a_l) ε_lc x_c / ℓ_c / S (S = gradient samples; the
 * formulas are those of the {@link Svbssgp} class comment). A strategy <em>adds</em> the terms of the draws to
 * {@code acc}; the run resets the entries it needs reset.
 *
 * <p>Summation order (part of the contract): each draw's term is summed on its own, from zero, over its rows in
 * the given order by {@link #addRows}, and the draws' terms are added to {@code acc} in draw order by
 * {@link #addInOrder}. Strategies that keep to it give the same bits on the same JVM.
 */
@FunctionalInterface
public interface PartitionGradients {

  /**
   * Adds the data terms of {@code draws}, in their order, to {@code acc} (layout in the interface comment).
   *
   * @param at α and the hyperparameters at which the terms are evaluated
   * @param draws the drawn partitions, in draw order (never empty partitions)
   * @param acc accumulator, added to in place
   */
  void add(Point at, List<Draw> draws, double[] acc);

  /**
   * The terms of all gradient samples of one iteration at once (one batch, e.g. one Spark job): {@code
   * result[j][k]} is the term of draw k of sample j, summed on its own from zero by {@link #addRows} over the draw's
   * rows (the array {@link #add} would add to the accumulator), and the run adds them in draw order with
   * {@link #addInOrder} — so a strategy gives the same bits whether it implements this or only {@link #add}. The
   * default calls {@link #add} once per draw on a zeroed accumulator (0 + term is the term's bits: a sum that
   * starts at +0 is never −0).
   *
   * @param at the point of evaluation of each sample
   * @param draws the drawn partitions of each sample, in draw order (lists may be empty)
   */
  default double[][][] terms(List<Point> at, List<List<Draw>> draws) {
    if (at.size() != draws.size()) {
      throw new IllegalArgumentException(
          at.size() + " points for " + draws.size() + " lists of draws");
    }
    double[][][] out = new double[at.size()][][];
    for (int j = 0; j < out.length; j++) {
      List<Draw> list = draws.get(j);
      out[j] = new double[list.size()][];
      for (int k = 0; k < list.size(); k++) {
        double[] term = new double[at.get(j).accumulatorLength()];
        add(at.get(j), List.of(list.get(k)), term);
        out[j][k] = term;
      }
    }
    return out;
  }

  /**
   * One drawn partition.
   *
   * @param partition its index in 0…p−1
   * @param rows the drawn rows (global row indices, in the order they are summed), or null for all rows of the
   *     partition in increasing row order
   * @param weight w = (p/a)·|X_i|/B, the weight of each of its rows (Theorem 1 with minibatch reweighting)
   */
  record Draw(int partition, int[] rows, double weight) implements Serializable {
    private static final long serialVersionUID = 1L;
  }

  /**
   * The point of evaluation: α = vec(ε, s) (ε row-major m × d, then s, 2m), 1/ℓ_c, σ_n², ½ log(2π σ_n²) and the
   * number of gradient samples S (the ∂/∂ log σ_n² and ∂/∂ log ℓ entries are divided by S).
   */
  record Point(
      int m, int d, double[] alpha, double[] invEll, double noise, double logNorm, int samples)
      implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The accumulator length 2 + D + d (D = m·d + 2m). */
    public int accumulatorLength() {
      return 2 + m * d + 2 * m + d;
    }
  }

  /**
   * {@code acc[j] += term[j]} for every j: how every strategy adds one draw's term (summed on its own from zero by
   * {@link #addRows}) to the running sums, draw after draw in draw order, so that strategies that sum different
   * draws in different places still give the same bits.
   */
  static void addInOrder(double[] term, double[] acc) {
    for (int j = 0; j < acc.length; j++) {
      acc[j] += term[j];
    }
  }

  /**
   * Adds the terms of rows {@code rows[from … to)} (each row's inputs at {@code x[row·d …]}, target {@code y[row]})
   * with weight {@code w} to {@code acc}: the loop body of Theorem 1's F_i, shared by every strategy so that they
   * compute the same floating-point operations per row.
   */
  /**
   * cos and sin of the random-feature phases of the row at {@code off}: a_l = Σ_c ε_lc x_c / ℓ_c, ε = the first
   * m·d entries of α (Theorem 1's φ_θ); one loop for every user, so they compute the same bits.
   */
  static void phases(
      double[] alpha,
      double[] x,
      int off,
      double[] invEll,
      int m,
      int d,
      double[] cos,
      double[] sin) {
    for (int l = 0; l < m; l++) {
      double arg = 0;
      for (int c = 0; c < d; c++) {
        arg += alpha[l * d + c] * x[off + c] * invEll[c];
      }
      cos[l] = Math.cos(arg);
      sin[l] = Math.sin(arg);
    }
  }

  static void addRows(
      Point at, double[] x, double[] y, int[] rows, int from, int to, double w, double[] acc) {
    addRows(at, x, y, rows, from, to, w, acc, new double[at.m()], new double[at.m()]);
  }

  /** As {@link #addRows(Point, double[], double[], int[], int, int, double, double[])}, with scratch of length m. */
  static void addRows(
      Point at,
      double[] x,
      double[] y,
      int[] rows,
      int from,
      int to,
      double w,
      double[] acc,
      double[] cosBuf,
      double[] sinBuf) {
    int m = at.m();
    int d = at.d();
    int md = m * d;
    int dim = md + 2 * m;
    int gA = 2;
    int gE = 2 + dim;
    double[] alpha = at.alpha();
    double[] invEll = at.invEll();
    double noise = at.noise();
    double logNorm = at.logNorm();
    int samples = at.samples();
    for (int t = from; t < to; t++) {
      int row = rows[t];
      int off = row * d;
      // v = y − φ_θ(x)ᵀ s (Theorem 1)
      phases(alpha, x, off, invEll, m, d, cosBuf, sinBuf);
      double f = 0;
      for (int l = 0; l < m; l++) {
        f += alpha[md + 2 * l] * cosBuf[l] + alpha[md + 2 * l + 1] * sinBuf[l];
      }
      double v = y[row] - f;
      acc[0] += w * (-0.5 * v * v / noise - logNorm);
      acc[1] += w * (0.5 * v * v / noise - 0.5) / samples;
      double coef = w * v / noise;
      for (int l = 0; l < m; l++) {
        double cs = cosBuf[l];
        double sn = sinBuf[l];
        acc[gA + md + 2 * l] += coef * cs;
        acc[gA + md + 2 * l + 1] += coef * sn;
        // ∂v/∂ε_lc = −(−s_{2l} sin + s_{2l+1} cos) x_c / ℓ_c and
        // ∂v/∂ log ℓ_c = (−s_{2l} sin + s_{2l+1} cos) ε_lc x_c / ℓ_c
        double g = coef * (-alpha[md + 2 * l] * sn + alpha[md + 2 * l + 1] * cs);
        for (int c = 0; c < d; c++) {
          double u = g * x[off + c] * invEll[c];
          acc[gA + l * d + c] += u;
          acc[gE + c] -= u * alpha[l * d + c] / samples;
        }
      }
    }
  }
}
