/**
 * Reproduction of Q. M. Hoang, T. N. Hoang, K. H. Low, <i>A Generalized Stochastic Variational Bayesian
 * Hyperparameter Learning Framework for Sparse Spectrum Gaussian Process Regression</i>, AAAI 2017, §5:
 * the paper's published numbers ({@link org.approxgp.papers.svbssgp.SvbssgpPaper}), a driver shared by every
 * figure that trains one model and records per-iteration test RMSE, MNLP and training seconds
 * ({@link org.approxgp.papers.svbssgp.SvbssgpDriver}), and the experiments behind Figures 1–5 and Table 1
 * ({@link org.approxgp.papers.svbssgp.SvbssgpFigures}).
 */
package org.approxgp.papers.svbssgp;
