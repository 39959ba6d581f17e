/**
 * Evaluation metrics: test error, negative test log-likelihood (QP paper §6: TE and NTLL), RMSE and
 * MNLP (sVBSSGP paper), and the L2-Wasserstein distance between 1-D Gaussians
 * (W2² = (μ₁ − μ₂)² + (σ₁ − σ₂)², e.g. Givens &amp; Shortt 1984).
 */
package org.approxgp.metrics;
