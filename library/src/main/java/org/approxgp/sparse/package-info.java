/**
 * Sparse-spectrum and inducing-point GP regression with Gaussian noise at million-row scale (the sVBSSGP
 * paper: Hoang, Hoang &amp; Low, AAAI 2017, {@code shared/papers/sparse-spectrum-svbssgp.txt}).
 *
 * <p>Shared pieces: {@link org.approxgp.data.RegressionData} (row-major inputs, targets, never an n×n or
 * n×m matrix for the whole data), {@link org.approxgp.sparse.SpectralFeatures} (the trigonometric basis
 * of paper eq. 1–2), {@link org.approxgp.sparse.RegressionPrediction} (mean and variance per test row).
 *
 * <p>{@link org.approxgp.sparse.Svbssgp}: the paper's own method (joint Gaussian q over frequencies and
 * weights, partition-sampled unbiased gradient of Theorem 1, γ-family of test conditionals of Proposition 1).
 */
package org.approxgp.sparse;
