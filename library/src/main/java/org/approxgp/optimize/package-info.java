/**
 * Optimisers without GP semantics: an L-BFGS facade over lbfgs4j (a port of Okazaki's liblbfgs,
 * Nocedal 1980 / Liu &amp; Nocedal 1989, Moré–Thuente line search) with the QP paper's stopping rule
 * (relative function decrease 1e-9, at most 1000 iterations; Zhang et al. 2020 §6) and optional box
 * bounds enforced by an exact-inside, quadratic-outside penalty; and Adam (Kingma &amp; Ba 2015) for
 * stochastic gradients.
 */
package org.approxgp.optimize;
