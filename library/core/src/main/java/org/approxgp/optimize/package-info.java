/**
 * Optimisers without GP semantics: L-BFGS with box bounds ({@link org.approxgp.optimize.Lbfgs}: the two-loop
 * recursion of Nocedal &amp; Wright 2006 Alg. 7.4/7.5, an active-set projected variant in the spirit of L-BFGS-B,
 * Byrd, Lu, Nocedal &amp; Zhu 1995) with its own Moré–Thuente strong-Wolfe line search
 * ({@link org.approxgp.optimize.MoreThuente}, Moré &amp; Thuente 1994) that backs off from points where f fails,
 * the QP paper's stopping rule (relative function decrease 1e-9, at most 1000 iterations; Zhang et al. 2020 §6)
 * beside a projected-gradient test; and Adam (Kingma &amp; Ba 2015) for stochastic gradients.
 */
package org.approxgp.optimize;
