package org.approxgp.likelihood;

/**
 * E = E_{N(f | m, v)}[log p(y | f)] and its partial derivatives ∂E/∂m and ∂E/∂v.
 */
public record VariationalExpectation(double value, double dMean, double dVariance) {}
