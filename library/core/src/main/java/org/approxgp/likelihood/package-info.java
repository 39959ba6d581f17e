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
 *   <li>log p(y | f) and three derivatives in f (Laplace, R&amp;W Alg. 3.1/5.1);</li>
 *   <li>the power-tilted moments of N(f | m, v) p(y | f)^u (Power EP, Minka 2004);</li>
 *   <li>the predictive distribution of y* ({@link org.approxgp.likelihood.Predictive}).</li>
 * </ul>
 * Only the log density is required: the interface's default methods supply every other quantity by
 * adaptive quadrature, split at the likelihood's breakpoints; analytic implementations override them and
 * {@code LikelihoodContract} (the test base every likelihood's contract test extends) checks each override against its default. Likelihood hyperparameters
 * (Gaussian noise variance) are exposed on a log scale and learned by {@code GpModel.fit}.
 *
 * <p>Likelihoods: {@link org.approxgp.likelihood.Probit}, {@link org.approxgp.likelihood.Gaussian},
 * {@link org.approxgp.likelihood.PoissonSquareLink} and {@link org.approxgp.likelihood.NoisyStep} (the label-noise
 * step of Qi &amp; Guo's Relaxed EP, eq. 8; its ε is fixed, not learned; not log-concave, so EP sites can have
 * negative precision).
 */
package org.approxgp.likelihood;
