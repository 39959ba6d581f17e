/**
 * Dense linear algebra: the only package that touches EJML or native BLAS/LAPACK.
 *
 * <p>{@link org.approxgp.linalg.Matrix} is a plain row-major dense matrix; {@link org.approxgp.linalg.Cholesky}
 * factors symmetric positive-definite matrices with an explicit {@link org.approxgp.linalg.JitterPolicy}
 * (the jitter actually added is reported, never silent). Everything above this package sees only
 * these types and {@code double[]}, so the backend can change: {@link org.approxgp.linalg.Linalg} selects
 * OpenBLAS (JavaCPP presets, bundled native library) when it loads and EJML (pure Java) otherwise, or as
 * {@code -Dapproxgp.linalg=ejml|native} says.
 *
 * <p>References: G. H. Golub and C. F. Van Loan, <i>Matrix Computations</i>, 4th ed., §4.2 (Cholesky),
 * §3.1 (triangular systems); P. E. Gill, G. H. Golub, W. Murray, M. A. Saunders, "Methods for modifying
 * matrix factorizations", Math. Comp. 28 (1974) (rank-one update of a Cholesky factor).
 */
package org.approxgp.linalg;
