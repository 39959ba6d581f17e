/**
 * Special functions for approximate Gaussian-process inference. Imports no GP type.
 *
 * <p>Contents and references (each class cites the equation it implements):
 * <ul>
 *   <li>{@link org.approxgp.special.Normal}, {@link org.approxgp.special.Erf} — Φ, log Φ, N/Φ,
 *       Φ⁻¹ via erfc/erfcx/erfinv (Abramowitz &amp; Stegun (1964) ch. 7 and 26; Commons Numbers 1.3
 *       / Boost.Math rational approximations; W. J. Cody (1969), Math. Comp. 23).</li>
 *   <li>{@link org.approxgp.special.LogSpace}, {@link org.approxgp.special.SignedLog} — log-sum-exp
 *       (Blanchard, Higham &amp; Higham (2021), IMA J. Numer. Anal. 41), log(1 − e^x)
 *       (M. Mächler (2012), Rmpfr vignette "log1mexp").</li>
 *   <li>{@link org.approxgp.special.OwensT} — M. Patefield &amp; D. Tandy (2000), "Fast and
 *       accurate calculation of Owen's T function", J. Statist. Software 5(5).</li>
 *   <li>{@link org.approxgp.special.BivariateNormal} — D. B. Owen (1956), "Tables for computing
 *       bivariate normal probabilities", Ann. Math. Statist. 27, eq. (2.1)/(3.1).</li>
 *   <li>{@link org.approxgp.special.Hypergeometric1F1} — DLMF 13.3.1 (contiguous relation) and
 *       18.9.1/18.5.12 (Laguerre polynomials).</li>
 *   <li>{@link org.approxgp.special.Gammas} — facade over Commons Numbers 1.3 incomplete gamma
 *       (Boost.Math; DiDonato &amp; Morris (1986), ACM TOMS 12).</li>
 *   <li>{@link org.approxgp.special.GaussHermite} — G. H. Golub &amp; J. H. Welsch (1969),
 *       "Calculation of Gauss quadrature rules", Math. Comp. 23 (Jacobi matrix; here its
 *       eigenvalues by Sturm bisection, polished by Newton on the recurrence).</li>
 *   <li>{@link org.approxgp.special.Quadrature} — adaptive Gauss–Kronrod 15/7 (R. Piessens et al.
 *       (1983), QUADPACK, Springer, routines QK15/QAGS/QAGI).</li>
 * </ul>
 */
package org.approxgp.special;
