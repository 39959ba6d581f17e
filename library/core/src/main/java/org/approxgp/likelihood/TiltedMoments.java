package org.approxgp.likelihood;

/**
 * Moments of the tilted distribution q̃(f) ∝ N(f | m, v) p(y | f).
 *
 * @param logZ log ∫ N(f | m, v) p(y | f) df
 * @param mean E_q̃[f]
 * @param variance Var_q̃[f]
 */
public record TiltedMoments(double logZ, double mean, double variance) {}
