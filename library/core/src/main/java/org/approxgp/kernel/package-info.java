/**
 * Covariance functions and their gradients with respect to log-hyperparameters.
 *
 * <p>Inputs are {@code double[n][d]} arrays (one row per point). Hyperparameters are exposed as a
 * vector θ of logarithms (length-scales first, then the signal variance), as in GPML's
 * {@code covSEard}/{@code covSEiso} except that we parameterise by the signal <i>variance</i> s
 * rather than its square root: ∂K/∂log s = K. Rasmussen &amp; Williams (2006), eq. 4.9 (SE) and
 * §5.4.1 (gradients). For inducing-point evidence gradients each kernel also answers trace gradients over a cross
 * block and the diagonal, and the derivative in its first inputs ({@code crossInputGradient}), so no n × n matrix is
 * formed.
 */
package org.approxgp.kernel;
