package org.approxgp.likelihood;

/**
 * log p(y | f) and its first three derivatives with respect to f (Laplace's method needs all three:
 * R&amp;W Alg. 5.1 uses the third for the implicit evidence gradient).
 */
public record LogDensity(double value, double d1, double d2, double d3) {}
