package org.approxgp.likelihood;

import org.approxgp.special.Normal;

/**
 * Gaussian likelihood p(y | f) = N(y | f, σ²). Every quantity is closed-form; it exists so the
 * approximate methods can be checked against exact GP regression (with it, EP/QP/VB/Laplace are
 * exact).
 */
public final class Gaussian implements Likelihood {
  private static final double LOG_2PI = Math.log(2 * Math.PI);
  private final double noiseVariance;

  private Gaussian(double noiseVariance) {
    if (!(noiseVariance > 0) || !Double.isFinite(noiseVariance)) {
      throw new IllegalArgumentException("noise variance must be positive and finite, got " + noiseVariance);
    }
    this.noiseVariance = noiseVariance;
  }

  public static Gaussian of(double noiseVariance) {
    return new Gaussian(noiseVariance);
  }

  public double noiseVariance() {
    return noiseVariance;
  }

  @Override
  public String name() {
    return "gaussian";
  }

  @Override
  public void validate(double y) {
    if (!Double.isFinite(y)) {
      throw new IllegalArgumentException("gaussian target must be finite, got " + y);
    }
  }

  @Override
  public LogDensity logDensity(double y, double f) {
    double r = y - f;
    return new LogDensity(-0.5 * (LOG_2PI + Math.log(noiseVariance)) - r * r / (2 * noiseVariance),
        r / noiseVariance, -1 / noiseVariance, 0);
  }

  @Override
  public TiltedMoments tilted(double y, double m, double v) {
    // product of Gaussians: Z = N(y | m, v + σ²), mean = m + v (y − m)/(v + σ²), var = v σ²/(v + σ²)
    double s = v + noiseVariance;
    double r = y - m;
    double logZ = -0.5 * (LOG_2PI + Math.log(s)) - r * r / (2 * s);
    return new TiltedMoments(logZ, m + v * r / s, v * noiseVariance / s);
  }

  @Override
  public double tiltedCdf(double y, double m, double v, double x) {
    TiltedMoments t = tilted(y, m, v);
    return Normal.cdf((x - t.mean()) / Math.sqrt(t.variance()));
  }

  @Override
  public VariationalExpectation variationalExpectation(double y, double m, double v) {
    // E[log N(y | f, σ²)] = −½ log 2πσ² − ((y − m)² + v)/(2σ²)
    double r = y - m;
    return new VariationalExpectation(
        -0.5 * (LOG_2PI + Math.log(noiseVariance)) - (r * r + v) / (2 * noiseVariance),
        r / noiseVariance, -0.5 / noiseVariance);
  }
}
