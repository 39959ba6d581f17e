package org.approxgp.likelihood;

/**
 * {@link Likelihood#predictive}'s default: log p(y*) = {@link Likelihood#logPredictive} and the moments of y*
 * by quadrature of the likelihood's {@link Likelihood#conditionalMean conditional moments} against N(m, v)
 * (law of total variance). Computed lazily; the mode is not defined (NaN).
 */
record QuadraturePredictive(Likelihood lik, double m, double v) implements Predictive {

  /**
   * Where E[y | f] and Var[y | f] may jump: the breakpoints of log p(y | f) for those of the labels ±1 and the
   * count 0 that the likelihood accepts (a noisy step's E[y | f] = (1 − 2ε) sign f jumps at 0). An extra cut
   * never costs accuracy.
   */
  private double[] cuts() {
    return java.util.stream.DoubleStream.of(-1.0, 0.0, 1.0)
        .filter(this::accepts)
        .flatMap(y -> java.util.Arrays.stream(lik.breakpoints(y)))
        .distinct()
        .toArray();
  }

  private boolean accepts(double y) {
    try {
      lik.validate(y);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  @Override
  public double logDensity(double y) {
    return lik.logPredictive(y, m, v);
  }

  @Override
  public double mean() {
    return LikelihoodQuadrature.normalExpectation(cuts(), m, v, lik::conditionalMean);
  }

  @Override
  public double variance() {
    double mu = mean();
    // E[Var[y|f]] + E[(E[y|f] − μ)²]: centred, no cancellation
    return LikelihoodQuadrature.normalExpectation(cuts(), m, v, f -> {
      double d = lik.conditionalMean(f) - mu;
      return lik.conditionalVariance(f) + d * d;
    });
  }
}
