package org.approxgp.inference;

import java.util.Arrays;
import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.JitterPolicy;
import org.approxgp.linalg.Matrix;

/**
 * q(u) from the sites on inducing points, in the whitened coordinates v = L_uu⁻¹(u − m₀) (K_uu = L_uu L_uuᵀ), where the
 * prior is N(0, I) and site n acts on gₙ = m₀ + aₙᵀv with aₙ = L_uu⁻¹ kᵤₙ (row n of {@code rows}):
 * <pre>
 * q(v) = N(m, B⁻¹),  B = I + Σₙ τ̃ₙ aₙaₙᵀ = L_B L_Bᵀ,  B m = Σₙ (ν̃ₙ − τ̃ₙ m₀) aₙ,
 * q(gₙ) = N(m₀ + aₙᵀm, ‖L_B⁻¹aₙ‖²).
 * </pre>
 * B ⪰ I when every τ̃ₙ ≥ 0, so its factor needs no jitter there (the stable form of R&amp;W §3.6 in M dimensions: with
 * Z = X, aₙ is row n of L_Kᵀ and det B = det(I + S̃½ K S̃½)). Package-private and mutable only while the loop builds
 * it; {@link SparsePosterior} holds the final one.
 */
final class SparseApproximation {

  final int n;
  final int m;
  final double priorMean;
  /** aₙ = L_uu⁻¹ kᵤₙ, row-major n × M. */
  final double[] rows;

  final double[] tau;
  final double[] nu;
  final Cholesky b;
  /** The mean of v. */
  final double[] mean;
  /** m₀ + aₙᵀm (null until {@link #marginals}). */
  double[] gMean;
  /** ‖L_B⁻¹aₙ‖² (null until {@link #marginals}). */
  double[] gVariance;

  private SparseApproximation(
      int n,
      int m,
      double priorMean,
      double[] rows,
      double[] tau,
      double[] nu,
      Cholesky b,
      double[] mean) {
    this.n = n;
    this.m = m;
    this.priorMean = priorMean;
    this.rows = rows;
    this.tau = tau;
    this.nu = nu;
    this.b = b;
    this.mean = mean;
  }

  /**
   * Factors B and solves for m from the sites (τ̃, ν̃ copied).
   *
   * @throws org.approxgp.linalg.NotPositiveDefiniteException when B cannot be factored under {@code jitter} (only
   *     possible with negative site precisions)
   */
  static SparseApproximation compute(
      int n,
      int m,
      double priorMean,
      double[] rows,
      double[] tau,
      double[] nu,
      JitterPolicy jitter) {
    double[] nuc = new double[n];
    for (int i = 0; i < n; i++) {
      nuc[i] = nu[i] - tau[i] * priorMean;
    }
    // B = I + Aᵀ diag(τ̃) A,  rhs = Aᵀ(ν̃ − τ̃ m₀)
    Matrix bm = weightedGram(rows, n, m, tau);
    bm.addDiagonal(1.0);
    Cholesky chol = Cholesky.factor(bm, jitter);
    double[] mean = chol.solve(Matrix.wrap(n, m, rows).multTransA(nuc));
    return new SparseApproximation(n, m, priorMean, rows, tau.clone(), nu.clone(), chol, mean);
  }

  /**
   * q(v) from the sums the blocks of {@link SiteBlock} return, folded in block order: B = I + Σ τ̃ₙ aₙaₙᵀ from
   * {@code gram} (Σ τ̃ₙ aₙaₙᵀ, symmetrised; modified) and m = B⁻¹ {@code rhs} (rhs = Σ (ν̃ₙ − τ̃ₙ m₀) aₙ); τ̃, ν̃
   * copied. {@code rows} may be null when the rows are held elsewhere (then {@link #marginals} cannot run here and
   * the caller sets {@link #gMean} and {@link #gVariance}).
   */
  static SparseApproximation fromSums(
      int n,
      int m,
      double priorMean,
      double[] rows,
      double[] tau,
      double[] nu,
      Matrix gram,
      double[] rhs,
      JitterPolicy jitter) {
    gram.addDiagonal(1.0);
    Cholesky chol = Cholesky.factor(gram, jitter);
    double[] mean = chol.solve(rhs);
    return new SparseApproximation(n, m, priorMean, rows, tau.clone(), nu.clone(), chol, mean);
  }

  /** Rows per block of {@link #weightedGram}: its scratch is two blocks, O(BLOCK · M), whatever n. */
  static final int BLOCK = 2048;

  /**
   * Σₙ wₙ aₙaₙᵀ (M × M, symmetric) over the rows aₙ of {@code rows} (n × M), by one BLAS product per block of
   * {@value #BLOCK} rows, so no second n × M array is formed: a block whose weights are all ≥ 0 (every block when
   * no site precision is negative) is the Gram matrix of its rows scaled by √wₙ (BLAS dsyrk, half the work of a
   * general product); a block with a negative weight is Aᵀ (diag(w) A) (dgemm).
   */
  static Matrix weightedGram(double[] rows, int n, int m, double[] w) {
    Matrix acc = Matrix.zeros(m, m);
    double[] accd = acc.data();
    for (int from = 0; from < n; from += BLOCK) {
      int b = Math.min(BLOCK, n - from);
      double[] part = blockGram(rows, from, b, m, w, from);
      for (int k = 0; k < accd.length; k++) {
        accd[k] += part[k];
      }
    }
    acc.symmetrize();
    return acc;
  }

  /**
   * One block's term of {@link #weightedGram}: Σ wₙ aₙaₙᵀ (M × M, not symmetrised) over the {@code b} rows of
   * {@code rows} from row {@code from}, with weights {@code w} from {@code wFrom}; BLAS dsyrk of the rows scaled by
   * √wₙ when every weight is ≥ 0, else Aᵀ (diag(w) A) (dgemm). {@link SiteBlock} adds the blocks' terms in block
   * order as {@link #weightedGram} does, so both have the same bits.
   */
  static double[] blockGram(double[] rows, int from, int b, int m, double[] w, int wFrom) {
    boolean nonNegative = true;
    for (int i = 0; i < b; i++) {
      nonNegative &= w[wFrom + i] >= 0;
    }
    double[] scaled = new double[b * m];
    if (nonNegative) {
      for (int i = 0; i < b; i++) {
        double si = Math.sqrt(w[wFrom + i]);
        int o = i * m;
        int src = (from + i) * m;
        for (int a = 0; a < m; a++) {
          scaled[o + a] = si * rows[src + a];
        }
      }
      return Matrix.wrap(b, m, scaled).gram().data();
    }
    double[] block = Arrays.copyOfRange(rows, from * m, (from + b) * m);
    for (int i = 0; i < b; i++) {
      double wi = w[wFrom + i];
      int o = i * m;
      for (int a = 0; a < m; a++) {
        scaled[o + a] = wi * block[o + a];
      }
    }
    return Matrix.wrap(b, m, block).multTransA(Matrix.wrap(b, m, scaled)).data();
  }

  /**
   * Fills q(gₙ) for every site (O(n M²)): the means aₙᵀm + m₀ row by row, the variances ‖L_B⁻¹aₙ‖² block by block of
   * {@value #BLOCK} rows, by one triangular solve with the block's rows as columns (BLAS dtrsm).
   */
  SparseApproximation marginals() {
    gMean = new double[n];
    gVariance = new double[n];
    for (int from = 0; from < n; from += BLOCK) {
      blockMarginals(
          rows, from, Math.min(BLOCK, n - from), m, priorMean, mean, b, gMean, gVariance, from);
    }
    return this;
  }

  /**
   * q(gₙ) of the {@code bl} rows of {@code rows} from row {@code from} into {@code gMean}, {@code gVariance} from
   * {@code out}: the means m₀ + aₙᵀm row by row, the variances ‖L_B⁻¹aₙ‖² by one triangular solve with the rows as
   * columns (BLAS dtrsm). One block of {@link #marginals}, and {@link SiteBlock}'s.
   */
  static void blockMarginals(
      double[] rows,
      int from,
      int bl,
      int m,
      double priorMean,
      double[] mean,
      Cholesky b,
      double[] gMean,
      double[] gVariance,
      int out) {
    for (int j = 0; j < bl; j++) {
      int o = (from + j) * m;
      double s = priorMean;
      for (int k = 0; k < m; k++) {
        s += rows[o + k] * mean[k];
      }
      gMean[out + j] = s;
    }
    double[] w = new double[m * bl]; // the block's rows as columns, M × bl
    for (int j = 0; j < bl; j++) {
      int o = (from + j) * m;
      for (int r = 0; r < m; r++) {
        w[r * bl + j] = rows[o + r];
      }
    }
    b.solveLowerInPlace(Matrix.wrap(m, bl, w));
    for (int j = 0; j < bl; j++) {
      double s = 0;
      for (int r = 0; r < m; r++) {
        double v = w[r * bl + j];
        s += v * v;
      }
      gVariance[out + j] = s;
    }
  }
}
