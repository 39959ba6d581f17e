/**
 * The experiments of R. Zhang, C. J. Walder, E. V. Bonilla, M.-A. Rizoiu, L. Xie, <i>Quantile
 * Propagation for Wasserstein-Approximate Gaussian Processes</i>, NeurIPS 2020, on the
 * {@link org.approxgp.experiment} machinery: {@link org.approxgp.papers.qp.QpTable1} (Table 1,
 * probit classification rows, trial key (dataset, method, seed, fold)),
 * {@link org.approxgp.papers.qp.QpMining} (Table 1, Mining row: Poisson regression with the square
 * link on the coal-mining disasters, trial key (seed); also behind {@code approxgp coal}),
 * {@link org.approxgp.papers.qp.QpFigure1} (Figure 1a/1b, QP against EP predictive variances) and
 * {@link org.approxgp.papers.qp.QpPaper} (the published numbers). The notebooks
 * {@code qp-table1} and {@code qp-figure1} call these classes.
 */
package org.approxgp.papers.qp;
