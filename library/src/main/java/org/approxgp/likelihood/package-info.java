/**
 * Per-site likelihood mathematics, stateless and uniform across likelihoods (the role of GPML's
 * {@code lik*.m} "modes").
 *
 * <p>Every {@link org.approxgp.likelihood.Likelihood} answers, for one observation y and a Gaussian
 * N(f | m, v) on its latent value:
 * <ul>
 *   <li>the tilted distribution q̃(f) ∝ N(f | m, v) p(y | f): log Z, mean, variance (EP, Minka 2001;
 *       R&amp;W §3.6 eq. 3.57–3.58);</li>
 *   <li>its CDF (Quantile Propagation, Zhang et al. 2020, eq. 5);</li>
 *   <li>the variational expectation E[log p(y | f)] and its derivatives in m and v (Opper &amp;
 *       Archambeau 2009);</li>
 *   <li>log p(y | f) and three derivatives in f (Laplace, R&amp;W Alg. 3.1/5.1).</li>
 * </ul>
 * {@link org.approxgp.likelihood.QuadratureLikelihood} supplies every one of these by adaptive
 * quadrature from the log density alone; analytic implementations override them and are tested
 * against it.
 */
package org.approxgp.likelihood;
