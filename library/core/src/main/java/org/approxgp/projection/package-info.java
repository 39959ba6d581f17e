/**
 * Projections of a one-dimensional tilted distribution q̃(f) ∝ N(f | m, v) p(y | f) onto a Gaussian:
 * {@link org.approxgp.projection.KlProjection} (moment matching, EP: minimise KL(q̃ ‖ N)) and, with
 * Quantile Propagation, the L2-Wasserstein projection {@link org.approxgp.projection.W2Projection}
 * (Zhang et al. 2020, eq. 5/7 and appendix A, eq. 23), its Lp generalisation
 * {@link org.approxgp.projection.LpProjection} (appendix B, eq. 24–25) and the QP lookup tables
 * {@link org.approxgp.projection.QpTable}, {@link org.approxgp.projection.QpTables} (appendix J; the
 * probit tables ship as the resources {@code qp-probit.table}, μ ∈ [−10, 10] × σ ∈ [0.1, 10], and
 * {@code qp-probit-wide.table}, z = μ/√(1 + σ²) ∈ [−10, 9] × σ ∈ [0.5, 200], for large signal variances).
 * The EP site loop in {@code org.approxgp.inference} takes a {@link org.approxgp.projection.Projection} as a strategy.
 *
 * <p>References: R. Zhang, C. Walder, E. V. Bonilla, M.-A. Rizoiu, L. Xie, "Quantile Propagation for
 * Wasserstein-Approximate Gaussian Processes", NeurIPS 2020; H. Takahasi &amp; M. Mori (1974),
 * double-exponential quadrature; D. B. Owen (1956) for the probit tilted CDF.
 */
package org.approxgp.projection;
