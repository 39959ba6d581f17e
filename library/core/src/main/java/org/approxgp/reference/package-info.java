/**
 * Reference posteriors, apart from production inference: what the approximations are measured against, by the
 * tests and by {@code approxgp compare}.
 *
 * <ul>
 *   <li>{@link org.approxgp.reference.SampledPosterior} — posterior marginals of a latent GP by elliptical slice
 *       sampling (Murray, Adams &amp; MacKay, AISTATS 2010) in several seeded chains, ellipses drawn from a
 *       {@link org.approxgp.reference.GaussianReference} (the prior, or a method's Gaussian: Nishihara, Murray &amp;
 *       Adams, JMLR 2014), run with doubling lengths until every latent passes the convergence checks;</li>
 *   <li>{@link org.approxgp.reference.ChainDiagnostics} — rank-normalised split-R̂ (bulk and folded) and bulk ESS
 *       (Vehtari, Gelman, Simpson, Carpenter &amp; Bürkner, Bayesian Analysis 2021);</li>
 *   <li>{@link org.approxgp.reference.AnnealedImportanceSampling} — the log evidence with its standard error
 *       (Neal, Statistics and Computing 2001);</li>
 *   <li>{@link org.approxgp.reference.Comparison} — one method's marginals and evidence against the truth;</li>
 *   <li>{@link org.approxgp.reference.LinearExactPosterior} — the exact posterior of a linear-kernel GP on 2-D
 *       inputs (Qi &amp; Guo's Relaxed EP Fig. 1) by nested quadrature over the weights, and by importance
 *       sampling as a check.</li>
 * </ul>
 * Every random stream is seeded per chain or run, so results do not depend on the number of threads.
 */
package org.approxgp.reference;
