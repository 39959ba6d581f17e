/**
 * Approximate inference for latent GP models f ~ GP(m₀, k), yᵢ | fᵢ ~ p(yᵢ | fᵢ): every method returns
 * an immutable Gaussian {@link org.approxgp.inference.Posterior} q(f) = N(μ, Σ) written with Gaussian
 * sites, its log evidence (the ELBO for VB), the gradient of that in the kernel's log-hyperparameters,
 * and {@link org.approxgp.inference.Diagnostics} (iterations, convergence, a convergence trace, clipped
 * and skipped sites, the EP family's α trace and divergence verdict).
 *
 * <ul>
 *   <li>The EP family runs in one loop, {@link org.approxgp.inference.SiteLoop}, driving a
 *       {@link org.approxgp.inference.SiteUpdate} (cavity, proposed site, evidence term):
 *       {@link org.approxgp.inference.MomentMatching} with the KL projection is EP
 *       ({@link org.approxgp.inference.Ep}; Minka 2001; Rasmussen &amp; Williams 2006 §3.6, Alg. 3.5,
 *       eq. 3.65/3.73–3.74, gradient eq. 5.27), with the W2 projection Quantile Propagation
 *       ({@link org.approxgp.inference.Qp}; Zhang, Walder, Bonilla, Rizoiu &amp; Xie, NeurIPS 2020), with an
 *       Lp projection its appendix-B generalisation. {@link org.approxgp.inference.PowerEp} (Minka 2004)
 *       and {@link org.approxgp.inference.RelaxedEp} (Qi &amp; Guo, "Message passing with relaxed moment
 *       matching") are further {@code SiteUpdate}s. Negative site precisions are clipped (GPML) or kept
 *       (Minka; a parameterisation without √τ̃), {@link org.approxgp.inference.SiteLoop.NegativeSitePrecision};
 *       every run records the α trace of Qi &amp; Guo's Fig. 3 and a divergence verdict.</li>
 *   <li>On M inducing inputs: {@link org.approxgp.inference.SparseSiteLoop} runs the same site rules (EP, QP,
 *       Power EP) in the Power-EP pseudo-point framework of Bui, Yan &amp; Turner (JMLR 18(104), 2017, §3), each
 *       applied to the cavity of fₙ inflated by the FITC variance dₙ and mapped to a site on gₙ = E[fₙ | u];
 *       {@link org.approxgp.inference.SparsePosterior} (O(nM + M²)) predicts and holds the Power-EP energy and, for
 *       EP and Power EP, its gradient in log θ and Z. α = 1 is FITC-EP, α → 0 the SVGP bound, Z = X the exact
 *       method ({@code docs/derivations/sparse-power-ep.md}).</li>
 *   <li>{@link org.approxgp.inference.Laplace}: Newton for the mode (R&amp;W §3.4, Alg. 3.1, eq. 3.32;
 *       gradient §5.5.1, Alg. 5.1).</li>
 *   <li>{@link org.approxgp.inference.Vb}: the variational Gaussian approximation (Opper &amp; Archambeau
 *       2009), optimised by natural-gradient steps on the site parameters (Khan &amp; Lin 2017).</li>
 * </ul>
 *
 * <p><b>Notation</b> (R&amp;W §3.6, GPML's {@code infEP.m}): sites t̃ᵢ(fᵢ) ∝ exp(−½ τ̃ᵢ fᵢ² + ν̃ᵢ fᵢ) in
 * natural parameters (τ̃ = σ̃⁻², ν̃ = τ̃ μ̃; {@link org.approxgp.inference.Sites}); S̃ = diag(τ̃),
 * B = I + S̃½ K S̃½ = L Lᵀ, Σ = (K⁻¹ + S̃)⁻¹, μ = m₀ + Σ(ν̃ − τ̃ m₀) = m₀ + K α; cavity (τ₋, ν₋) with
 * τ₋ = 1/Σᵢᵢ − τ̃ᵢ, ν₋ = μᵢ/Σᵢᵢ − ν̃ᵢ; μ̂, σ̂² the projected tilted moments; θ the kernel's
 * log-hyperparameters. Laplace and VB return their posteriors in the same site form (Laplace: τ̃ = W,
 * ν̃ = W f̂ + ∇ log p; VB: τ̃ = λ).
 *
 * <p><b>Failures.</b> A numerical failure inside any method — a projection or likelihood that throws
 * {@link org.approxgp.special.NumericalException} (or any {@link ArithmeticException}), a factorisation
 * that fails, a non-finite value — leaves as an {@link org.approxgp.inference.InferenceException} with
 * the diagnostics so far; no method returns NaN silently. An {@link IllegalArgumentException} means a
 * programming error (a bad argument) and is never caught as a numerical failure. Non-convergence within
 * the iteration cap is not an exception; it is reported in the diagnostics.
 *
 * <p>References: T. P. Minka, "Expectation Propagation for approximate Bayesian inference", UAI 2001;
 * C. E. Rasmussen &amp; C. K. I. Williams, "Gaussian Processes for Machine Learning", MIT Press 2006,
 * §3.4–3.6 and §5.5; R. Zhang, C. J. Walder, E. V. Bonilla, M.-A. Rizoiu &amp; L. Xie, "Quantile
 * Propagation for Wasserstein-Approximate Gaussian Processes", NeurIPS 2020; M. Opper &amp; C. Archambeau,
 * "The Variational Gaussian Approximation Revisited", Neural Computation 21(3), 2009; M. E. Khan &amp;
 * W. Lin, "Conjugate-Computation Variational Inference", AISTATS 2017.
 */
package org.approxgp.inference;
