/**
 * Sparse-spectrum and inducing-point GP regression with Gaussian noise at million-row scale (the sVBSSGP
 * paper: Q. M. Hoang, T. N. Hoang and K. H. Low, "A generalized stochastic variational Bayesian hyperparameter
 * learning framework for sparse spectrum Gaussian process regression", AAAI 2017).
 *
 * <p>Shared pieces: {@link org.approxgp.data.RegressionData} (row-major inputs, targets, never an n×n or
 * n×m matrix for the whole data), {@link org.approxgp.sparse.SpectralFeatures} (the trigonometric basis
 * of paper eq. 1–2), {@link org.approxgp.inference.PredictiveMoments} (mean and variance per test row).
 *
 * <p>{@link org.approxgp.sparse.Ssgp} (Lázaro-Gredilla et al. 2010) and {@link org.approxgp.sparse.Vssgp} (Gal &amp;
 * Turner 2015): the sparse-spectrum baselines. {@link org.approxgp.sparse.Svbssgp}: the paper's own method
 * (joint Gaussian q over frequencies and weights, partition-sampled unbiased gradient of Theorem 1, γ-family of
 * test conditionals of Proposition 1), fitted by natural-gradient steps of q with Adam for the hyperparameters and
 * stopped by a {@link org.approxgp.sparse.BoundMonitor} when its bound has stopped rising (the regression slope of
 * the noisy estimates with its standard error, by default; the rule of every stochastic fit of the family).
 *
 * <p>Partitions and inducing-point baselines: {@link org.approxgp.sparse.KMeans} (k-means++ and Lloyd on the
 * training inputs; a documented leaky variant as in the authors' code), {@link org.approxgp.sparse.Dtc} (DTC++ =
 * SVGP, Hensman, Fusi &amp; Lawrence 2013) and {@link org.approxgp.sparse.Pic} (PIC++, Hoang, Hoang &amp; Low 2015),
 * both with q(u) = N(m, S) updated by natural-gradient steps ({@link org.approxgp.sparse.StepSchedule}) and
 * configured by one {@link org.approxgp.sparse.InducingOptions} record.
 */
package org.approxgp.sparse;
