/**
 * Projections of a one-dimensional tilted distribution q̃(f) ∝ N(f | m, v) p(y | f) onto a Gaussian:
 * {@link org.approxgp.projection.KlProjection} (moment matching, EP: minimise KL(q̃ ‖ N)) and, with
 * Quantile Propagation, the L2-Wasserstein projection (Zhang et al. 2020, eq. 5). The EP site loop in
 * {@code org.approxgp.inference} takes a {@link org.approxgp.projection.Projection} as a strategy.
 */
package org.approxgp.projection;
