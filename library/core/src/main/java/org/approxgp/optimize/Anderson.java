package org.approxgp.optimize;

import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * Anderson acceleration (type II; Walker &amp; Ni 2011, SIAM J. Numer. Anal. 49(4), Alg. AA with β = 1) of a
 * fixed-point map x ↦ g(x): with the residuals fⱼ = g(xⱼ) − xⱼ of the last m accepted iterates,
 * ΔXⱼ = xⱼ₊₁ − xⱼ, ΔFⱼ = fⱼ₊₁ − fⱼ,
 * <pre>
 * γ = argmin ‖f_k − ΔF γ‖₂,   x_{k+1} = x_k + f_k − (ΔX + ΔF) γ.
 * </pre>
 * γ from the normal equations (ΔFᵀΔF + δ I) γ = ΔFᵀ f_k with δ = 1e-12 · tr(ΔFᵀΔF) against near-collinear
 * columns (an m × m Cholesky solve, m the memory). The caller keeps whatever safeguard its problem needs
 * (e.g. discard a proposal that is not admissible or does not improve its objective, then {@link #reset}).
 * Mutable; one instance per iteration.
 */
public final class Anderson {
  private final int memory;
  private final ArrayDeque<double[]> dx = new ArrayDeque<>();
  private final ArrayDeque<double[]> df = new ArrayDeque<>();
  private double[] lastX;
  private double[] lastF;

  /** Acceleration with the last {@code memory} ≥ 1 differences. */
  public Anderson(int memory) {
    if (memory < 1) {
      throw new IllegalArgumentException("Anderson memory must be >= 1, got " + memory);
    }
    this.memory = memory;
  }

  /** Forgets every stored difference (after a rejected proposal). */
  public void reset() {
    dx.clear();
    df.clear();
    lastX = null;
    lastF = null;
  }

  /**
   * The accelerated iterate from the current x with residual f, or null while the memory is empty (or the
   * normal equations are singular). Called once per iterate; the differences to the previous call's iterate
   * enter the memory when x changed.
   */
  public double[] next(double[] x, double[] f) {
    if (lastX != null && !Arrays.equals(x, lastX)) {
      double[] a = new double[x.length];
      double[] b = new double[x.length];
      for (int i = 0; i < x.length; i++) {
        a[i] = x[i] - lastX[i];
        b[i] = f[i] - lastF[i];
      }
      dx.addLast(a);
      df.addLast(b);
      if (dx.size() > memory) {
        dx.removeFirst();
        df.removeFirst();
      }
    }
    lastX = x;
    lastF = f;
    int m = df.size();
    if (m == 0) {
      return null;
    }
    double[][] cols = df.toArray(new double[0][]);
    double[][] xcols = dx.toArray(new double[0][]);
    double[][] g = new double[m][m];
    double[] rhs = new double[m];
    double tr = 0;
    for (int p = 0; p < m; p++) {
      for (int q = 0; q <= p; q++) {
        double v = 0;
        for (int i = 0; i < f.length; i++) {
          v += cols[p][i] * cols[q][i];
        }
        g[p][q] = v;
        g[q][p] = v;
      }
      tr += g[p][p];
      double v = 0;
      for (int i = 0; i < f.length; i++) {
        v += cols[p][i] * f[i];
      }
      rhs[p] = v;
    }
    if (!(tr > 0) || !Double.isFinite(tr)) {
      return null;
    }
    for (int p = 0; p < m; p++) {
      g[p][p] += 1e-12 * tr;
    }
    double[] gamma = choleskySolve(g, rhs);
    if (gamma == null) {
      return null;
    }
    double[] out = new double[x.length];
    for (int i = 0; i < x.length; i++) {
      double v = x[i] + f[i];
      for (int p = 0; p < m; p++) {
        v -= (xcols[p][i] + cols[p][i]) * gamma[p];
      }
      out[i] = v;
    }
    return out;
  }

  /** A γ with A γ = b for a small symmetric A (overwritten by its Cholesky factor), or null if A is not positive definite. */
  private static double[] choleskySolve(double[][] a, double[] b) {
    int m = b.length;
    for (int j = 0; j < m; j++) {
      double d = a[j][j];
      for (int k = 0; k < j; k++) {
        d -= a[j][k] * a[j][k];
      }
      if (!(d > 0)) {
        return null;
      }
      a[j][j] = Math.sqrt(d);
      for (int i = j + 1; i < m; i++) {
        double s = a[i][j];
        for (int k = 0; k < j; k++) {
          s -= a[i][k] * a[j][k];
        }
        a[i][j] = s / a[j][j];
      }
    }
    double[] y = b.clone();
    for (int i = 0; i < m; i++) {
      for (int k = 0; k < i; k++) {
        y[i] -= a[i][k] * y[k];
      }
      y[i] /= a[i][i];
    }
    for (int i = m - 1; i >= 0; i--) {
      for (int k = i + 1; k < m; k++) {
        y[i] -= a[k][i] * y[k];
      }
      y[i] /= a[i][i];
    }
    return y;
  }
}
