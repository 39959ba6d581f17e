package org.approxgp.likelihood;

/**
 * {@link Likelihood#predictive}'s default: log p(y*) = {@link Likelihood#logPredictive} and the moments of y*
 * by quadrature of the likelihood's {@link Likelihood#conditionalMean conditional moments} against N(m, v)
 * (law of total variance). Computed lazily; the mode is not defined (NaN).
 */
record QuadraturePredictive(Likelihood lik, double m, double v) implements Predictive {

  private static final double[] NO_CUTS = {};

  QuadraturePredictive {
    if (!(v > 0) || !Double.isFinite(v) || !Double.isFinite(m)) {
      throw new IllegalArgumentException("need finite m and positive finite v, got N(" + m + ", " + v + ")");
    }
  }

  @Override
  public double logDensity(double y) {
    return lik.logPredictive(y, m, v);
  }

  @Override
  public double mean() {
    return LikelihoodQuadrature.normalExpectation(NO_CUTS, m, v, lik::conditionalMean);
  }

  @Override
  public double variance() {
    double mu = mean();
    // E[Var[y|f]] + E[(E[y|f] − μ)²]: centred, no cancellation
    return LikelihoodQuadrature.normalExpectation(NO_CUTS, m, v, f -> {
      double d = lik.conditionalMean(f) - mu;
      return lik.conditionalVariance(f) + d * d;
    });
  }
}
