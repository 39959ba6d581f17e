package org.approxgp.sparse;

import org.approxgp.linalg.Cholesky;
import org.approxgp.linalg.JitterPolicy;
import org.approxgp.linalg.Matrix;

/**
 * The paper's parameter vector η = [b, M (lower triangle row by row, log M_ii on the diagonal), log σ_n², log σ_s²,
 * log ℓ] of an sVBSSGP run (Lemma 1: α = M z + b, Cov_q(α) = M Mᵀ), converted to and from the run's own state
 * (b, Λ = Cov⁻¹, the hyperparameters); see {@link SvbssgpTraining}. D = dim is the dimension of α.
 */
final class SvbssgpEta {
  private SvbssgpEta() {}

  /** Index in η of M_ij (j ≤ i); for i = j it holds log M_ii. */
  static int triIndex(int dim, int i, int j) {
    return dim + i * (i + 1) / 2 + j;
  }

  /** Index in η of log σ_n² (then log σ_s², then log ℓ). */
  static int iNoise(int dim) {
    return dim + dim * (dim + 1) / 2;
  }

  /** η from b, the lower factor L of Λ = L Lᵀ and the hyperparameters; M is the lower Cholesky factor of Λ⁻¹. */
  static double[] pack(double[] b, Matrix chol, double[] hyper, int dim) {
    double[] e = new double[iNoise(dim) + hyper.length];
    System.arraycopy(b, 0, e, 0, dim);
    Matrix cov = Cholesky.ofFactor(chol).inverse();
    cov.symmetrize();
    Cholesky f = Cholesky.factor(cov, JitterPolicy.standard());
    for (int i = 0; i < dim; i++) {
      for (int j = 0; j < i; j++) {
        e[triIndex(dim, i, j)] = f.lowerAt(i, j);
      }
      e[triIndex(dim, i, i)] = Math.log(f.lowerAt(i, i));
    }
    System.arraycopy(hyper, 0, e, iNoise(dim), hyper.length);
    return e;
  }

  /** Λ = (M Mᵀ)⁻¹ (symmetrised) of η {@code values}. */
  static Matrix precision(double[] values, int dim) {
    Matrix mm = Matrix.zeros(dim, dim);
    for (int i = 0; i < dim; i++) {
      for (int j = 0; j < i; j++) {
        mm.set(i, j, values[triIndex(dim, i, j)]);
      }
      mm.set(i, i, Math.exp(values[triIndex(dim, i, i)]));
    }
    Matrix prec = Cholesky.ofFactor(mm).inverse(); // (M Mᵀ)⁻¹
    prec.symmetrize();
    return prec;
  }

  /** M of η {@code e} (lower, row-major dim × dim). */
  static double[] scale(double[] e, int dim) {
    double[] s = new double[dim * dim];
    for (int i = 0; i < dim; i++) {
      for (int j = 0; j < i; j++) {
        s[i * dim + j] = e[triIndex(dim, i, j)];
      }
      s[i * dim + i] = Math.exp(e[triIndex(dim, i, i)]);
    }
    return s;
  }
}
