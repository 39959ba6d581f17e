package org.approxgp.inference;

import org.approxgp.likelihood.Likelihood;
import org.approxgp.likelihood.LogDensity;
import org.approxgp.likelihood.TiltedMoments;
import org.approxgp.special.Normal;

/**
 * Test-only noisy step p(y | f) = ε + (1 − 2ε) H(y f) (Qi &amp; Guo eq. 8) with closed-form (power-)tilted
 * moments: N(f | m, v)(a + (b − a) H(y f)) is a mixture of the cavity and the cavity truncated to y f &gt; 0
 * (the same closed form as {@code StepLikelihoodQuadratureTest}); p^u is again a noisy step with levels
 * ε^u and (1 − ε)^u (paper appendix C, eq. 41).
 */
record TestNoisyStep(double eps) implements Likelihood {

  @Override
  public String name() {
    return "noisy-step";
  }

  @Override
  public void validate(double y) {
    if (y != 1 && y != -1) {
      throw new IllegalArgumentException("labels are ±1, got " + y);
    }
  }

  @Override
  public LogDensity logDensity(double y, double f) {
    return new LogDensity(Math.log(y * f > 0 ? 1 - eps : eps), 0, 0, 0);
  }

  @Override
  public double[] breakpoints(double y) {
    return new double[] {0};
  }

  @Override
  public TiltedMoments tilted(double y, double m, double v) {
    return closedForm(eps, 1 - eps, y, m, v);
  }

  @Override
  public TiltedMoments powerTilted(double y, double m, double v, double u) {
    return u == 1 ? tilted(y, m, v) : closedForm(Math.pow(eps, u), Math.pow(1 - eps, u), y, m, v);
  }

  static TiltedMoments closedForm(double low, double high, double y, double m, double v) {
    double s = Math.sqrt(v);
    double z = y * m / s;
    double phi = Normal.cdf(z);
    double lam = Normal.ratio(z);
    double z1 = (high - low) * phi;
    double zz = low + z1;
    double mu1 = m + y * s * lam;
    double var1 = v * (1 - lam * (lam + z));
    double w0 = low / zz;
    double w1 = z1 / zz;
    return new TiltedMoments(Math.log(zz), w0 * m + w1 * mu1, w0 * v + w1 * var1 + w0 * w1 * (mu1 - m) * (mu1 - m));
  }
}
