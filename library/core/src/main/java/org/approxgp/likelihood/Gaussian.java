package org.approxgp.likelihood;

import java.util.List;
import org.approxgp.special.Normal;

/**
 * Gaussian likelihood p(y | f) = N(y | f, σ²). Every quantity is closed-form; it exists so the
 * approximate methods can be checked against exact GP regression (with it, EP/QP/VB/Laplace are
 * exact).
 *
 * <p>Its one hyperparameter is the noise variance σ², exposed as log σ² ("noise_variance") so that
 * {@code GpModel.fit} can learn it.
 */
public final class Gaussian implements Likelihood {
  private static final double LOG_2PI = Math.log(2 * Math.PI);
  private final double noiseVariance;

  private Gaussian(double noiseVariance) {
    if (!(noiseVariance > 0) || !Double.isFinite(noiseVariance)) {
      throw new IllegalArgumentException(
          "noise variance must be positive and finite, got " + noiseVariance);
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
  public List<String> hyperparameterNames() {
    return List.of("noise_variance");
  }

  @Override
  public double[] logHyperparameters() {
    return new double[] {Math.log(noiseVariance)};
  }

  @Override
  public Gaussian withLogHyperparameters(double[] t) {
    if (t.length != 1) {
      throw new IllegalArgumentException(
          "gaussian has 1 hyperparameter (log noise variance), got " + t.length);
    }
    return of(Math.exp(t[0]));
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
    return new LogDensity(
        -0.5 * (LOG_2PI + Math.log(noiseVariance)) - r * r / (2 * noiseVariance),
        r / noiseVariance,
        -1 / noiseVariance,
        0);
  }

  @Override
  public TiltedMoments tilted(double y, double m, double v) {
    // product of Gaussians: Z = N(y | m, v + σ²), mean = m + v (y − m)/(v + σ²), var = v σ²/(v +
    // σ²)
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
        r / noiseVariance,
        -0.5 / noiseVariance);
  }

  /**
   * N(y | f, σ²)^u = (2πσ²)^{(1−u)/2} u^{−1/2} N(y | f, σ²/u), so the power-tilted distribution is the
   * tilted one with noise σ²/u and log Z_u = ½(1 − u) log 2πσ² − ½ log u + log N(y | m, v + σ²/u).
   */
  @Override
  public TiltedMoments powerTilted(double y, double m, double v, double u) {
    if (!(u > 0) || !Double.isFinite(u)) {
      throw new IllegalArgumentException("power must be positive and finite, got " + u);
    }
    TiltedMoments t = of(noiseVariance / u).tilted(y, m, v);
    double logZ =
        0.5 * (1 - u) * (LOG_2PI + Math.log(noiseVariance)) - 0.5 * Math.log(u) + t.logZ();
    return new TiltedMoments(logZ, t.mean(), t.variance());
  }

  @Override
  public double conditionalMean(double f) {
    return f;
  }

  @Override
  public double conditionalVariance(double f) {
    return noiseVariance;
  }

  /** y* ~ N(m, v + σ²) (R&amp;W eq. 2.25 plus the noise). */
  @Override
  public Predictive predictive(double m, double v) {
    return new NormalPredictive(m, v + noiseVariance);
  }

  /** N(mean, variance) as a predictive. */
  record NormalPredictive(double mean, double variance) implements Predictive {
    @Override
    public double logDensity(double y) {
      double r = y - mean;
      return -0.5 * (LOG_2PI + Math.log(variance)) - r * r / (2 * variance);
    }

    @Override
    public double mode() {
      return mean;
    }
  }

  @Override
  public String toString() {
    return "Gaussian(" + noiseVariance + ")";
  }
}
