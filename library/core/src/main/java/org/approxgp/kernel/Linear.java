package org.approxgp.kernel;

import java.util.List;
import org.approxgp.linalg.Matrix;

/**
 * Linear kernel k(x, x') = s · xᵀx' (R&amp;W eq. 4.29 with Σ_p = s I). θ = (log s); ∂K/∂log s = K.
 */
public final class Linear implements Kernel, java.io.Serializable {
  private static final long serialVersionUID = 1L;

  private final double signalVariance;

  private Linear(double signalVariance) {
    if (!(signalVariance > 0) || !Double.isFinite(signalVariance)) {
      throw new IllegalArgumentException(
          "signal variance must be positive and finite, got " + signalVariance);
    }
    this.signalVariance = signalVariance;
  }

  public static Linear of(double signalVariance) {
    return new Linear(signalVariance);
  }

  public double signalVariance() {
    return signalVariance;
  }

  @Override
  public String name() {
    return "linear";
  }

  @Override
  public double[] logHyperparameters() {
    return new double[] {Math.log(signalVariance)};
  }

  @Override
  public List<String> hyperparameterNames() {
    return List.of("log_signal_variance");
  }

  @Override
  public Linear withLogHyperparameters(double[] theta) {
    if (theta.length != 1) {
      throw new IllegalArgumentException("expected 1 hyperparameter, got " + theta.length);
    }
    return new Linear(Math.exp(theta[0]));
  }

  @Override
  public Matrix matrix(double[][] x) {
    return cross(x, x);
  }

  @Override
  public Matrix cross(double[][] a, double[][] b) {
    Matrix k = Matrix.zeros(a.length, b.length);
    for (int i = 0; i < a.length; i++) {
      for (int j = 0; j < b.length; j++) {
        double s = 0;
        for (int t = 0; t < a[i].length; t++) {
          s += a[i][t] * b[j][t];
        }
        k.set(i, j, signalVariance * s);
      }
    }
    return k;
  }

  @Override
  public double[] diagonal(double[][] x) {
    double[] d = new double[x.length];
    for (int i = 0; i < x.length; i++) {
      double s = 0;
      for (double v : x[i]) {
        s += v * v;
      }
      d[i] = signalVariance * s;
    }
    return d;
  }

  @Override
  public Matrix gradient(double[][] x, int j) {
    if (j != 0) {
      throw new IndexOutOfBoundsException("hyperparameter " + j + " of 1");
    }
    return matrix(x);
  }

  @Override
  public double[] traceGradient(double[][] x, Matrix w) {
    return new double[] {matrix(x).dot(w)};
  }

  /** ∂k/∂log s = k: Σ_ab W_ab k(a_a, b_b). */
  @Override
  public double[] crossTraceGradient(double[][] a, double[][] b, Matrix w) {
    if (w.rows() != a.length || w.cols() != b.length) {
      throw new IllegalArgumentException(
          "W must be " + a.length + " x " + b.length + ", got " + w.rows() + " x " + w.cols());
    }
    return new double[] {cross(a, b).dot(w)};
  }

  /** Σ_a w_a k(x_a, x_a). */
  @Override
  public double[] diagonalTraceGradient(double[][] x, double[] w) {
    double[] k = diagonal(x);
    double s = 0;
    for (int a = 0; a < k.length; a++) {
      s += w[a] * k[a];
    }
    return new double[] {s};
  }

  /** ∂k(a, b)/∂a = s b: G_a = s Σ_b W_ab b_b. */
  @Override
  public double[][] crossInputGradient(double[][] a, double[][] b, Matrix w) {
    if (w.rows() != a.length || w.cols() != b.length) {
      throw new IllegalArgumentException(
          "W must be " + a.length + " x " + b.length + ", got " + w.rows() + " x " + w.cols());
    }
    int d = a.length > 0 ? a[0].length : (b.length > 0 ? b[0].length : 0);
    double[][] g = new double[a.length][d];
    for (int i = 0; i < a.length; i++) {
      for (int j = 0; j < b.length; j++) {
        double f = signalVariance * w.get(i, j);
        for (int c = 0; c < d; c++) {
          g[i][c] += f * b[j][c];
        }
      }
    }
    return g;
  }
}
